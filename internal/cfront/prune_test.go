package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestGraphPruneKeepsVerdicts runs the graph engine with and without its
// pruning of threads blocked on a stale read (package graph, prune.go)
// and wants the same verdict and race flag: on programs written for it
// (spin loops whose exit reads two variables, a lock whose bug shows in
// a spin iteration, a spin loop on a location a plain write races on, a
// TTAS lock with a relaxed exchange), under sc and rc11 with and without
// races, and that the pruning left graphs out where it should.
// MUSKET_LONG=1 takes every program of examples/c and testdata under
// sc, tso, pso and rc11.
func TestGraphPruneKeepsVerdicts(t *testing.T) {
	needClang(t)
	files := []string{"testdata/spin_bug3.c", "testdata/ttas3_rlx.c", "testdata/spin_race.c"}
	models := []string{"sc", "rc11"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		more, _ := filepath.Glob("testdata/*.c")
		for _, f := range more {
			switch filepath.Base(f) {
			case "ttas4.c", "clang_error.c", "refuse_call.c", "refuse_float.c", "lkmm_mp.c", "lkmm_mp_bug.c", "verifier.c":
				continue
			}
			files = append(files, f)
		}
		models = []string{"sc", "tso", "pso", "rc11"}
	}
	pruned := map[string]bool{}
	for _, f := range files {
		p, err := Lower(context.Background(), f, Options{Bound: 2})
		if err != nil && os.Getenv("MUSKET_LONG") != "" {
			continue // a program the front end refuses (malloc_varying.c): nothing to compare
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range models {
			m := model(t, name)
			for _, races := range []bool{false, true} {
				if races && name != "rc11" {
					continue
				}
				var got [2]*Result
				for i, off := range []bool{false, true} {
					r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: name, Races: races, GraphNoPrune: off})
					if err != nil {
						t.Fatal(err)
					}
					got[i] = r
				}
				on, off := got[0], got[1]
				if on.Verdict != off.Verdict || on.RaceFlag != off.RaceFlag {
					t.Errorf("%s (%s, races %v): %v %q with the pruning, %v %q without", f, name, races, on.Verdict, on.RaceFlag, off.Verdict, off.RaceFlag)
				}
				if on.Graph != nil && on.Graph.Pruned > 0 {
					pruned[filepath.Base(f)] = true
				}
			}
		}
	}
	for _, f := range []string{"spin_bug3.c", "ttas3_rlx.c"} {
		if !pruned[f] {
			t.Errorf("%s: the pruning left no graph out", f)
		}
	}
}

// TestGraphBlockedFlags: the graph engine computes no flags for a
// blocked execution whose stopped threads can all be repaired (package
// graph, symBlockedExplained), since an execution it explores has the
// same facts. With data races wanted, the verdict, the race flag and
// whether the race's two accesses are named must be those of a run that
// computes every flag (no pruning, no symmetry reduction): on spin loops
// whose exit depends on a write made later by a thread that then spins
// itself (spin_late.c races, spin_late_ok.c does not), a spin loop on a
// location a plain write races on, a run that gives the symmetry up, and
// buggy locks.
func TestGraphBlockedFlags(t *testing.T) {
	needClang(t)
	m := model(t, "rc11")
	for _, c := range []struct {
		file string
		want Verdict
	}{
		{"testdata/spin_late.c", Race},
		{"testdata/spin_late_ok.c", Safe},
		{"testdata/spin_race.c", Race},
		{"testdata/sym_stuck.c", Violation},
		{"testdata/tas_flag_bug.c", Race},
		{"testdata/ticket_bug.c", Race},
	} {
		p, err := Lower(context.Background(), c.file, Options{Bound: 2})
		if err != nil {
			t.Fatal(err)
		}
		var got [2]*Result
		for i, all := range []bool{false, true} {
			r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "rc11", Races: true,
				GraphNoPrune: all, GraphNoSymmetry: all})
			if err != nil {
				t.Fatal(err)
			}
			got[i] = r
		}
		def, all := got[0], got[1]
		if def.Verdict != all.Verdict || def.RaceFlag != all.RaceFlag || (def.RacePair == nil) != (all.RacePair == nil) {
			t.Errorf("%s: %v %q (pair %v) by default, %v %q (pair %v) with every flag computed", c.file, def.Verdict, def.RaceFlag, def.RacePair != nil, all.Verdict, all.RaceFlag, all.RacePair != nil)
		}
		if def.Verdict != c.want {
			t.Errorf("%s: %v, want %v", c.file, def.Verdict, c.want)
		}
	}
}
