package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestGraphSymmetry checks the graph engine's symmetry reduction against
// a run without it: the same verdict, and the reduced run's complete
// executions are exactly the complete executions of the full run counted
// up to the symmetry (each class once); so are the blocked ones when the
// threads cannot stop in a spin loop (where they can, the reduction
// keeps fewer blocked executions, and gives itself up when it meets one
// it cannot vouch for: then the counts are the full run's). By default
// on the programs written for it; MUSKET_LONG=1 adds every program of
// examples/c and testdata in which symmetricThreads finds symmetric
// threads.
func TestGraphSymmetry(t *testing.T) {
	needClang(t)
	files := []string{"testdata/sym_trylock.c", "testdata/sym_lost.c", "testdata/sym_lost_ok.c", "testdata/sym_barrier.c", "testdata/sym_stuck.c"}
	models := []string{"rc11"}
	// Every execution of sym_stuck.c has a thread stopped for good.
	givesUp := map[string]bool{"sym_stuck.c": true}
	// The run without the reduction of the four-thread TTAS lock does not
	// end in ten minutes (1.69 M graphs and counting): there is nothing
	// to compare the reduced run with, so the long list leaves it out.
	noFullRun := map[string]bool{"ttas4.c": true}
	if os.Getenv("MUSKET_LONG") != "" {
		files = allCPrograms()
		models = []string{"sc", "tso", "rc11"}
	}
	for _, f := range files {
		if noFullRun[filepath.Base(f)] {
			continue
		}
		p, err := Lower(context.Background(), f, Options{Bound: 2})
		if err != nil {
			continue // the refusal programs
		}
		sym, spins := symmetricThreads(p.Test, p.Asserts)
		if sym == nil {
			if os.Getenv("MUSKET_LONG") == "" {
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
				if givesUp[filepath.Base(f)] && !red.Graph.SymOff {
					t.Errorf("the reduction was not given up (%d complete, %d blocked)", red.Graph.Complete, red.Graph.Blocked)
				}
				if full.Verdict != Safe {
					return // the runs stop at the first failure
				}
				fs, rs := full.Graph, red.Graph
				if rs.SymOff {
					if rs.Complete != fs.Complete || rs.Blocked != fs.Blocked {
						t.Errorf("given up: %d complete, %d blocked; full: %d, %d", rs.Complete, rs.Blocked, fs.Complete, fs.Blocked)
					}
					t.Logf("reduction given up")
					return
				}
				if spins {
					if rs.Complete != fs.Classes || rs.Classes != rs.Complete || rs.Blocked > fs.Blocked {
						t.Errorf("reduced: %d complete (%d classes), %d blocked; full: %d complete in %d classes, %d blocked",
							rs.Complete, rs.Classes, rs.Blocked, fs.Complete, fs.Classes, fs.Blocked)
					}
				} else if rs.Complete != fs.Classes || rs.Blocked != fs.BlockedClasses || rs.Classes != rs.Complete || rs.BlockedClasses != rs.Blocked {
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

// TestSymmetryArguments: threads that run the same function with
// different arguments are not copies of each other. sym_args.c passes 1,
// 2 and 1; the threads read their argument, so none is taken for a copy
// of another, and the run's counts are those without the reduction.
func TestSymmetryArguments(t *testing.T) {
	needClang(t)
	p, err := Lower(context.Background(), "testdata/sym_args.c", Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sym, _ := symmetricThreads(p.Test, p.Asserts); sym != nil {
		t.Fatalf("symmetric threads found: %v", sym)
	}
	m := model(t, "rc11")
	run := func(off bool) *Result {
		// (GraphNoCommute: the threads' relaxed fetch_adds would
		// otherwise be explored in one order, commute.go.)
		r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "rc11", Races: true, GraphNoSymmetry: off, GraphNoCommute: true})
		if err != nil || r.Graph == nil {
			t.Fatalf("%v %v", err, r)
		}
		return r
	}
	on, off := run(false), run(true)
	if on.Verdict != Safe || off.Verdict != Safe || on.Graph.Complete != off.Graph.Complete || on.Graph.Complete != 6 || on.Graph.SymPruned != 0 {
		t.Errorf("with the reduction: %v, %d complete, %d left out; without: %v, %d complete", on.Verdict, on.Graph.Complete, on.Graph.SymPruned, off.Verdict, off.Graph.Complete)
	}
}
