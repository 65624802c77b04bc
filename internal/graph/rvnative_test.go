package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// TestRVNativeCrossCheck runs C programs under -target riscv with
// Options.CrossCheck: the native check (rvnative.go) and riscv.cat must
// agree on every graph built, the symmetry reduction on. MUSKET_LONG=1:
// every program of examples/c and of cfront's testdata (with cw3, cw4,
// cw5 and sem) but ttas4.c.
func TestRVNativeCrossCheck(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../../examples/c/treiber.c", "../../examples/c/rwlock-bug.c", "../../examples/c/seqlock.c",
		"../../examples/c/msqueue.c", "../../examples/c/chase-lev.c", "../cfront/testdata/sym_trylock.c",
		"../cfront/testdata/spinlock_rlx.c", "../cfront/testdata/cw3/acqrel_mid.c", "../cfront/testdata/xchg_rfi.c",
		"../cfront/testdata/iriw_acq.c", "../cfront/testdata/cw5/lb_deps.c", "../cfront/testdata/sem/barrier.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		for _, g := range []string{"../cfront/testdata/*.c", "../cfront/testdata/cw3/*.c", "../cfront/testdata/cw4/*.c",
			"../cfront/testdata/cw5/*.c", "../cfront/testdata/sem/*.c"} {
			more, _ := filepath.Glob(g)
			files = append(files, more...)
		}
		files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "ttas4.c" })
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
			if err != nil {
				t.Logf("not lowered: %v", err) // (MUSKET_LONG's globs take every program)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
			defer cancel()
			r, err := cfront.CheckProgram(ctx, p, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: "riscv", Model: m, ModelName: "riscv",
				GraphCrossCheck: true})
			if err != nil {
				t.Logf("not checked: %v", err)
				return
			}
			if r.Result != nil && r.Result.Status == result.Failed {
				t.Fatalf("%v", r.Result.Err) // the two checks differ
			}
			if r.Result != nil && r.Result.Status != result.Done {
				t.Logf("%s: %v", r.Result.Status, r.Result.Err)
				return
			}
			if r.Graph == nil {
				t.Fatalf("%v: no graph statistics", r.Verdict)
			}
			t.Logf("%v: %d complete, %d blocked, %d graphs", r.Verdict, r.Graph.Complete, r.Graph.Blocked, r.Graph.Graphs)
		})
	}
}
