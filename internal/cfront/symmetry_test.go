package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestGraphSymmetry checks the graph engine's symmetry reduction against
// a run without it: the same verdict, and the reduced run's complete and
// blocked executions are exactly the executions of the full run counted
// up to the symmetry (each class once). By default on the programs
// written for it; MUSKET_LONG=1 adds every program of examples/c and
// testdata in which symmetricThreads finds symmetric threads.
func TestGraphSymmetry(t *testing.T) {
	needClang(t)
	files := []string{"testdata/sym_trylock.c", "testdata/sym_lost.c", "testdata/sym_lost_ok.c"}
	models := []string{"rc11"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = allCPrograms()
		models = []string{"sc", "tso", "rc11"}
	}
	for _, f := range files {
		p, err := Lower(context.Background(), f, Options{Bound: 2})
		if err != nil {
			continue // the refusal programs
		}
		if sym, _ := symmetricThreads(p.Test, p.Asserts); sym == nil {
			if len(files) <= 3 {
				t.Errorf("%s: no symmetric threads found", f)
			}
			continue
		}
		for _, name := range models {
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				m := model(t, name)
				run := func(off bool) *Result {
					r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: name,
						Races: true, GraphNoSymmetry: off, GraphCountClasses: true, GraphNoPrune: true})
					if err != nil {
						t.Fatal(err)
					}
					if r.Graph == nil {
						t.Fatalf("no graph statistics: %v", r.Verdict)
					}
					return r
				}
				full, red := run(true), run(false)
				if full.Verdict != red.Verdict {
					t.Fatalf("verdict %v with the reduction, %v without", red.Verdict, full.Verdict)
				}
				if full.Verdict != Safe {
					return // the runs stop at the first failure
				}
				fs, rs := full.Graph, red.Graph
				if rs.Complete != fs.Classes || rs.Blocked != fs.BlockedClasses || rs.Classes != rs.Complete || rs.BlockedClasses != rs.Blocked {
					t.Errorf("reduced: %d complete, %d blocked (%d, %d classes); full: %d complete, %d blocked in %d, %d classes",
						rs.Complete, rs.Blocked, rs.Classes, rs.BlockedClasses, fs.Complete, fs.Blocked, fs.Classes, fs.BlockedClasses)
				}
				if fs.Complete > fs.Classes && rs.SymPruned == 0 && rs.Graphs >= fs.Graphs {
					t.Errorf("the reduction reduced nothing (%d graphs)", rs.Graphs)
				}
				t.Logf("%d complete, %d blocked, %d graphs; without: %d complete, %d blocked, %d graphs",
					rs.Complete, rs.Blocked, rs.Graphs, fs.Complete, fs.Blocked, fs.Graphs)
			})
		}
	}
}
