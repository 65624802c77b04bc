package fix

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// mpRaceWitness is message passing in C with a plain datum: thread 1
// writes data (line 12) then the flag (line 13); thread 0 reads the flag
// (line 20, the new value) then the data (line 21), and the two data
// accesses race. Thread 1 writes done (line 14) after the flag.
func mpRaceWitness() *Witness {
	w := &Witness{Events: []WEvent{{Thread: 1, Line: 12, Kind: 'W'}, {Thread: 1, Line: 13, Kind: 'W'}, {Thread: 0, Line: 20, Kind: 'R'}, {Thread: 0, Line: 21, Kind: 'R'}, {Thread: 1, Line: 14, Kind: 'W'}}}
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
	w := &Witness{Events: []WEvent{{Thread: 1, Line: 12, Kind: 'W'}, {Thread: 1, Line: 11, Kind: 'W'}, {Thread: 0, Line: 20, Kind: 'R'}, {Thread: 0, Line: 22, Kind: 'R'}}}
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

// boundedRaceWitness is message passing whose writer (thread 1) first
// stores s (line 7, relaxed), loads with acquire (line 8), stores with
// release (line 9), then writes the plain datum (line 12) and the
// relaxed flag (line 13); the reader (thread 0) reads the flag (line 20)
// then the datum (line 21), which races with the write.
func boundedRaceWitness() *Witness {
	w := &Witness{Events: []WEvent{
		{Thread: 1, Line: 7, Kind: 'W'}, {Thread: 1, Line: 8, Kind: 'R', Acq: true}, {Thread: 1, Line: 9, Kind: 'W', Rel: true},
		{Thread: 1, Line: 12, Kind: 'W'}, {Thread: 1, Line: 13, Kind: 'W'},
		{Thread: 0, Line: 20, Kind: 'R'}, {Thread: 0, Line: 21, Kind: 'R'},
	}}
	n := len(w.Events)
	for i := 0; i < n; i++ {
		w.Reach = append(w.Reach, make([]bool, n))
		w.Po = append(w.Po, make([]bool, n))
		w.raceReach = append(w.raceReach, make([]bool, n))
	}
	for _, r := range [][][]bool{w.Po, w.Reach, w.raceReach} {
		r[0][1], r[1][2], r[2][3], r[3][4], r[5][6] = true, true, true, true, true
	}
	w.Reach[4][5], w.raceReach[4][5] = true, true // rf of the flag
	closure(w.Reach)
	closure(w.Po)
	closure(w.raceReach)
	w.Race = &[2]int{3, 6}
	return w
}

// TestRaceWindow: the places where the compiler may put a race's access
// (window): not above the acquire that precedes the last release before
// it, not below the release that follows the first acquire after it.
func TestRaceWindow(t *testing.T) {
	// One thread's events in program order, a the race's access.
	line := func(evs ...WEvent) *Witness {
		n := len(evs)
		w := &Witness{Events: evs}
		for i := 0; i < n; i++ {
			w.Po = append(w.Po, make([]bool, n))
			for j := i + 1; j < n; j++ {
				w.Po[i][j] = true
			}
		}
		return w
	}
	plain := WEvent{Kind: 'W'}
	acq := WEvent{Kind: 'R', Acq: true}
	rel := WEvent{Kind: 'W', Rel: true}
	sc := WEvent{Kind: 'F', Acq: true, Rel: true}
	tests := []struct {
		name string
		evs  []WEvent
		a    int
		want []int
	}{
		{"no barrier: the whole thread", []WEvent{plain, plain, plain}, 1, []int{1, 0, 2}},
		// acq0 p1 rel2 [a3] p4 acq5 p6 rel7 p8
		{"acquire before the release, release after the acquire", []WEvent{acq, plain, rel, plain, plain, acq, plain, rel, plain}, 3, []int{3, 1, 2, 4, 5, 6}},
		// A release alone before: a may rise above it to the start.
		{"release alone before", []WEvent{plain, rel, plain, plain}, 2, []int{2, 0, 1, 3}},
		// An acquire alone before: a may have sunk past it from above
		// (the roach motel), so its source place may be above it.
		{"acquire alone before", []WEvent{plain, acq, plain, plain}, 2, []int{2, 0, 1, 3}},
		{"acquire then release before", []WEvent{acq, rel, plain, plain}, 2, []int{2, 1, 3}},
		// A release alone after: a may have risen past it.
		{"release alone after", []WEvent{plain, plain, rel, plain}, 1, []int{1, 0, 2, 3}},
		{"acquire then release after", []WEvent{plain, plain, acq, rel, plain}, 1, []int{1, 0, 2}},
		{"acquire after: a may sink past it", []WEvent{plain, plain, acq, plain}, 1, []int{1, 0, 2, 3}},
		{"seq_cst fences around", []WEvent{plain, sc, plain, plain, sc, plain}, 2, []int{2, 3}},
	}
	for _, tc := range tests {
		w := line(tc.evs...)
		if got := window(w, tc.a); !slices.Equal(got, tc.want) {
			t.Errorf("%s: window %v, want %v", tc.name, got, tc.want)
		}
	}
	// A release given to a store above the acquire that bounds the
	// window orders nothing between the race's accesses.
	for _, tc := range []struct {
		name string
		c    Cand
		want bool
	}{
		{"release before the bounding acquire", Cand{Thread: -1, Line: 7, Coarse: true}, false},
		{"fence after it", Cand{Thread: -1, Line: 7, Fence: true}, false},
		{"release on the flag store", Cand{Thread: -1, Line: 13, Coarse: true}, true},
		{"acquire on the flag load", Cand{Thread: -1, Line: 20, Coarse: true}, true},
		{"fence after the release in the window", Cand{Thread: -1, Line: 9, Fence: true}, true},
	} {
		if got := relevant(tc.c, boundedRaceWitness()); got != tc.want {
			t.Errorf("%s: relevant = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestC11Strength: which events are barriers to the compiler's motion of
// plain accesses, read from their labels.
func TestC11Strength(t *testing.T) {
	for _, tc := range []struct {
		label    string
		acq, rel bool
	}{
		{"j: R.A.RLX[flag]=1", false, false},
		{"n: R.A.ACQ.ACQUIRE[%done.1]=1", true, false},
		{"i: W.A.REL.RELEASE[%start.1]=1", false, true},
		{"k: R.A.SC[x]=0", true, false},
		{"k: W.A.SC[x]=1", false, true},
		{"r: R.A.ACQ_REL.RMW[l]=0", true, false},
		{"w: W.A.ACQ_REL.RMW[l]=1", false, true},
		{"f: F[SC]", true, true},
		{"f: F[ACQ]", true, false},
		{"f: F[REL]", false, true},
		{"k: R.NA[data]=0", false, false},
		{"k: R.A.CON[p]=0", false, false},
		{"nonsense", false, false},
	} {
		if acq, rel := c11Strength(tc.label); acq != tc.acq || rel != tc.rel {
			t.Errorf("%s: acquire %v release %v, want %v %v", tc.label, acq, rel, tc.acq, tc.rel)
		}
	}
}
