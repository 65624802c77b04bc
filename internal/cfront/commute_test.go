package cfront

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestCommuteRMWs checks the rewrite of commuting relaxed updates
// (commute.go) against runs without it (GraphNoCommute), under rc11 and
// sc: the same verdict, the one expected, and the rewrite kept (Commuted)
// or given up where the row says. By default on the programs written for
// it and fetchops with two threads; MUSKET_LONG=1 adds every C program
// of the repository on which commuteFor plans a rewrite (fetchops with
// three threads among them), with a time limit per run.
func TestCommuteRMWs(t *testing.T) {
	needClang(t)
	type row struct {
		file    string
		defines []string
		want    map[string]Verdict // by model
		kept    bool               // the rewrite is kept (Commuted > 0)
	}
	both := func(v Verdict) map[string]Verdict { return map[string]Verdict{"rc11": v, "sc": v} }
	rows := []row{
		{"testdata/commute/sum.c", nil, both(Safe), true},
		{"testdata/commute/reader.c", nil, both(Violation), false},
		{"testdata/commute/early.c", nil, both(Violation), false},
		{"testdata/commute/viaptr.c", nil, both(Violation), false},
		{"testdata/commute/mixed.c", nil, both(Violation), false},
		{"testdata/commute/partial.c", nil, both(Safe), true},
		{"testdata/commute/racy.c", nil, map[string]Verdict{"rc11": Race, "sc": Safe}, false},
		{"testdata/commute/acqrel.c", nil, map[string]Verdict{"rc11": Race, "sc": Violation}, false},
		{"testdata/cw4/fetchops.c", []string{"N=2"}, both(Safe), true},
		// mask16 has xor and and updates: given up, its updates left
		// as they are.
		{"testdata/cw5/kern_stack.c", nil, both(BoundHit), false},
		{"testdata/cw4/fetchops.c", []string{"N=2", "BUG"}, both(Violation), true},
	}
	long := os.Getenv("MUSKET_LONG") != ""
	if long {
		for _, f := range allCProgramsDeep() {
			rows = append(rows, row{file: f})
		}
	}
	limit := 10 * time.Minute
	if long {
		limit = 2 * time.Minute
	}
	for _, rw := range rows {
		name := filepath.Base(rw.file)
		if len(rw.defines) > 0 {
			name += "/" + strings.Join(rw.defines, ",")
		}
		for _, m := range []string{"rc11", "sc"} {
			// Lowered as musket check lowers it: with races checked
			// under rc11 (ClangOptions.RaceFree), not under sc.
			p, err := Lower(context.Background(), rw.file, Options{Bound: 2, Clang: ClangOptions{Defines: rw.defines, RaceFree: m == "rc11"}})
			if err != nil {
				if rw.want != nil {
					t.Fatalf("%s: %v", rw.file, err)
				}
				continue // the refusal programs
			}
			if rw.want == nil && (CheckOptions{ModelName: m}).commutePlanFor(p, p.Test) == nil {
				continue // no rewrite to compare
			}
			t.Run(name+"/"+m, func(t *testing.T) {
				run := func(off bool) *Result {
					ctx, cancel := context.WithTimeout(context.Background(), limit)
					defer cancel()
					r, err := CheckProgram(ctx, p, CheckOptions{Bound: 2, Engine: "graph", Model: model(t, m), ModelName: m,
						Races: m == "rc11", GraphNoCommute: off})
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
				on := run(false)
				if rw.want == nil && on.Commuted == 0 && !on.CommuteOff {
					t.Logf("%v, no rewrite made", on.Verdict)
					return
				}
				off := run(true)
				if on.Verdict == Unknown || off.Verdict == Unknown {
					t.Logf("no comparison: %v with the rewrite, %v without", on.Verdict, off.Verdict)
					return
				}
				if on.Verdict != off.Verdict {
					t.Fatalf("%v with the rewrite (%d updates moved), %v without", on.Verdict, on.Commuted, off.Verdict)
				}
				if rw.want != nil && on.Verdict != rw.want[m] {
					t.Errorf("%v, want %v", on.Verdict, rw.want[m])
				}
				if rw.want != nil && (on.Commuted > 0) != rw.kept {
					t.Errorf("rewrite kept: %v (%d updates, given up: %v), want %v", on.Commuted > 0, on.Commuted, on.CommuteOff, rw.kept)
				}
				if off.Commuted != 0 {
					t.Errorf("GraphNoCommute moved %d updates", off.Commuted)
				}
				t.Logf("%v: %d graphs with the rewrite (%d updates moved, given up: %v), %d without", on.Verdict,
					on.Graph.Graphs, on.Commuted, on.CommuteOff, off.Graph.Graphs)
			})
		}
	}
}

// allCProgramsDeep lists the C programs of examples/c and of every
// folder of testdata.
func allCProgramsDeep() []string {
	files, _ := filepath.Glob("../../examples/c/*.c")
	filepath.Walk("testdata", func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(path, ".c") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files
}
