package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestPlainPartsApart compares the graph engine, which runs plain
// accesses cut into parts as accesses of their own under RC11 and IMM
// (tearing.go's plainPartsApart) and any parts so under SC, taking only
// PASS there (partsApart), with the SMT engine on the same programs: every one has such parts (checked), and both engines give
// the same verdict wherever the SMT engine has one. The memmove rows
// need MUSKET_LONG=1.
func TestPlainPartsApart(t *testing.T) {
	needClang(t)
	rows := []struct {
		file    string
		defines []string
		long    bool // the SMT engine's time: 2-20 s
		noSC    bool // the SMT engine's time under SC: minutes
	}{
		{"cw9/memmove_shift.c", nil, true, true},
		{"cw9/memmove_shift.c", []string{"BUG"}, true, true},
		{"cw10/char_members.c", []string{"BUG"}, false, false},
		{"cw10/union_bytes.c", nil, false, false},
		{"cw10/union_bytes.c", []string{"BUG"}, false, false},
		{"cw10/name_compare.c", nil, false, false},
	}
	long := os.Getenv("MUSKET_LONG") == "1"
	for _, r := range rows {
		if r.long && !long {
			continue
		}
		for _, m := range []string{"rc11", "imm", "sc"} {
			if m == "sc" && r.noSC {
				continue
			}
			t.Run(r.file+"/"+m+"/"+filepath.Join(r.defines...), func(t *testing.T) {
				check := func(engine string) *Result {
					res, err := Check(context.Background(), filepath.Join("testdata", r.file), CheckOptions{Bound: 4, Engine: engine,
						Model: model(t, m), ModelName: m, Races: true, Clang: ClangOptions{Defines: r.defines}})
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				g := check("graph")
				if !hasParts(g.Test) {
					t.Fatalf("no access cut into parts: the row checks nothing")
				}
				if g.Verdict == Unknown {
					if m == "sc" {
						return // a failure under SC: left to the SMT engine
					}
					t.Fatalf("the graph engine has no verdict: %v", g.Result.Err)
				}
				s := check("smt")
				if s.Verdict == Unknown {
					t.Logf("SMT: no verdict (%v); graph: %v", s.Result.Err, g.Verdict)
					return
				}
				if g.Verdict != s.Verdict {
					t.Errorf("graph %v, SMT %v", g.Verdict, s.Verdict)
				}
			})
		}
	}
}
