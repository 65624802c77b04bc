package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// mpRaceWitness is message passing in C with a plain datum: thread 1
// writes data (line 12) then the flag (line 13); thread 0 reads the flag
// (line 20, the new value) then the data (line 21), and the two data
// accesses race. Thread 1 writes done (line 14) after the flag.
func mpRaceWitness() *Witness {
	w := &Witness{Events: []WEvent{{1, 12, 'W'}, {1, 13, 'W'}, {0, 20, 'R'}, {0, 21, 'R'}, {1, 14, 'W'}}}
	n := len(w.Events)
	for i := 0; i < n; i++ {
		w.Reach = append(w.Reach, make([]bool, n))
		w.Po = append(w.Po, make([]bool, n))
		w.raceReach = append(w.raceReach, make([]bool, n))
	}
	w.Po[0][1], w.Po[1][4], w.Po[2][3] = true, true, true
	for _, r := range [][][]bool{w.Reach, w.raceReach} {
		r[0][1], r[1][4], r[2][3], r[1][2] = true, true, true, true // po, rf
	}
	closure(w.Reach)
	closure(w.Po)
	closure(w.raceReach)
	w.Race = &[2]int{0, 3}
	return w
}

// TestRelevantRace: a candidate helps against a race only on a path of
// po and rf between its two accesses (race.go): the flag's store and
// load, a fence between the data's write and the flag's store; not a
// fence after the flag's store (nothing it precedes leads to the read),
// nor an access after it.
func TestRelevantRace(t *testing.T) {
	tests := []struct {
		name string
		c    Cand
		want bool
	}{
		{"flag store release", Cand{Thread: -1, Line: 13, Coarse: true}, true},
		{"flag load acquire", Cand{Thread: -1, Line: 20, Coarse: true}, true},
		{"fence after data write", Cand{Thread: -1, Line: 12, Fence: true}, true},
		{"fence after flag load", Cand{Thread: -1, Line: 20, Fence: true}, true},
		{"fence after flag store", Cand{Thread: -1, Line: 13, Fence: true}, false},
		{"done store", Cand{Thread: -1, Line: 14, Coarse: true}, false},
		{"fence after data read", Cand{Thread: -1, Line: 21, Fence: true}, false},
		{"flag store, other thread", Cand{Thread: 0, Line: 13, Coarse: true}, false},
	}
	for _, tc := range tests {
		if got := relevant(tc.c, mpRaceWitness()); got != tc.want {
			t.Errorf("%s: relevant = %v, want %v", tc.name, got, tc.want)
		}
	}
	// The compiler sank the data's store (line 11, in a loop) after the
	// flag's (line 12), as clang -O1 does with relaxed stores
	// (testdata/loop-race.c): the release the store needs still counts,
	// and so does the acquire of the load.
	w := &Witness{Events: []WEvent{{1, 12, 'W'}, {1, 11, 'W'}, {0, 20, 'R'}, {0, 22, 'R'}}}
	for i := 0; i < 4; i++ {
		w.Reach = append(w.Reach, make([]bool, 4))
		w.Po = append(w.Po, make([]bool, 4))
		w.raceReach = append(w.raceReach, make([]bool, 4))
	}
	w.Po[0][1], w.Po[2][3] = true, true
	for _, r := range [][][]bool{w.Reach, w.raceReach} {
		r[0][1], r[2][3], r[0][2] = true, true, true
	}
	w.Race = &[2]int{1, 3}
	for _, c := range []Cand{{Thread: -1, Line: 12, Coarse: true}, {Thread: -1, Line: 20, Coarse: true}} {
		if !relevant(c, w) {
			t.Errorf("sunk store: line %d not relevant", c.Line)
		}
	}
}

// TestRaceWitnessSameRepair: with -races the loop constrains a race by
// the candidates between its two accesses (race.go); without (every
// candidate relevant, as before) it must find a repair of the same cost,
// in no fewer checks (loop-race.c: the first version of race.go said
// "no fix" there). MUSKET_LONG=1 adds mp-race.c and the buggy examples
// whose bug is a race under rc11 and imm.
func TestRaceWitnessSameRepair(t *testing.T) {
	type tcase struct {
		file, model string
		bound       int
	}
	tests := []tcase{{"testdata/loop-race.c", "rc11", 2}}
	if long {
		tests = append(tests, tcase{"testdata/mp-race.c", "rc11", 1})
		for _, f := range []string{"ttas-bug.c", "ticket-bug.c", "mcs-bug.c", "rwlock-bug.c"} {
			for _, m := range []string{"rc11", "imm"} {
				tests = append(tests, tcase{filepath.Join("../../examples/c", f), m, 2})
			}
		}
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file)+"/"+tc.model, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Bound: tc.bound, Model: tc.model, Races: true}
			repair := func(off bool) *Outcome {
				s, err := New(tc.file, src, opts)
				if err != nil {
					t.Fatal(err)
				}
				s.(*cSubject).noRaceWitness = off
				out, err := Repair(context.Background(), s, 0)
				if err != nil {
					t.Fatal(err)
				}
				if out.NoFix || out.Correct {
					t.Fatalf("no repair (nofix %v, correct %v)", out.NoFix, out.Correct)
				}
				return out
			}
			with, without := repair(false), repair(true)
			if with.Cost != without.Cost {
				t.Errorf("cost %d (%s) with race witnesses, %d (%s) without", with.Cost, changes(with), without.Cost, changes(without))
			}
			if with.Checks > without.Checks {
				t.Errorf("%d checks with race witnesses, %d without", with.Checks, without.Checks)
			}
			t.Logf("%s: cost %d, %d checks with race witnesses, %d without", tc.file, with.Cost, with.Checks, without.Checks)
		})
	}
}
