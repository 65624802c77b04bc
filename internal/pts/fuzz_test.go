package pts

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/fuzzlimit"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// FuzzParse checks that no input makes Parse panic, that errors are
// positioned, and that what parses is well formed. The seeds are the
// corpus and testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.pts"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var p *spec.Test
		var err error
		fuzzlimit.Within(t, time.Second, func() { p, err = Parse("f.pts", src) })
		if err != nil {
			var list source.ErrorList
			if !errors.As(err, &list) || len(list) == 0 || len(list) > maxErrors {
				t.Fatalf("error %v is not a list of 1 to %d errors", err, maxErrors)
			}
			for _, e := range list {
				if e.Pos.File != "f.pts" || e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("error without a position: %v", e)
				}
			}
			return
		}
		if len(p.Threads) == 0 || p.Cond == nil {
			t.Fatalf("parsed without threads or condition")
		}
		locs := map[string]bool{}
		for _, e := range p.Init {
			locs[e.Ref.Name] = true
		}
		for i, th := range p.Threads {
			if th.ID != i {
				t.Fatalf("thread %d has ID %d", i, th.ID)
			}
			if _, err := th.Labels(); err != nil {
				t.Fatal(err)
			}
			if len(th.Pos) != len(th.Code) {
				t.Fatalf("%d positions for %d instructions", len(th.Pos), len(th.Code))
			}
			for _, in := range th.Code {
				var addr prog.Expr
				switch in := in.(type) {
				case prog.Load:
					addr = in.Addr
				case prog.Store:
					addr = in.Addr
				}
				if addr != nil {
					c, ok := addr.(prog.Const)
					if !ok || !locs[c.V.Loc] {
						t.Fatalf("access to %s, not a declared location", prog.ExprString(addr))
					}
				}
			}
		}
		for _, r := range spec.Refs(p.Cond) {
			if r.IsReg() && r.Thread >= len(p.Threads) || !r.IsReg() && !locs[r.Name] {
				t.Fatalf("condition names %v", r)
			}
		}
	})
}
