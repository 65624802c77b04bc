package event

import (
	"reflect"
	"testing"
)

// TestAtomicSet: the set X holds the events tagged X or EX (herd's atomic
// accesses, exclusives included), amo the rmw pairs of events tagged X
// only and lxsx those of events tagged EX, in Static and in its reference.
func TestAtomicSet(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tags      [][]string // of the events 1..4 of thread 0 (0 is x's initial write)
		rmw       [][2]int
		x         []int
		amo, lxsx [][2]int
	}{
		{name: "Power exclusives",
			tags: [][]string{{"EX"}, {"EX"}, nil, nil}, rmw: [][2]int{{1, 2}},
			x: []int{1, 2}, lxsx: [][2]int{{1, 2}}},
		{name: "AArch64 amo and exclusives",
			tags: [][]string{{"X", "A"}, {"X"}, {"EX"}, {"EX", "L"}}, rmw: [][2]int{{1, 2}, {3, 4}},
			x: []int{1, 2, 3, 4}, amo: [][2]int{{1, 2}}, lxsx: [][2]int{{3, 4}}},
		{name: "RISC-V lr/sc tagged both",
			tags: [][]string{{"X", "EX"}, {"X", "EX"}, nil, nil}, rmw: [][2]int{{1, 2}},
			x: []int{1, 2}, amo: [][2]int{{1, 2}}, lxsx: [][2]int{{1, 2}}},
		{name: "no atomic", tags: [][]string{nil, nil, nil, nil}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &Graph{Events: []Event{{ID: 0, Thread: -1, Kind: Write, Loc: "x"}}, Rmw: tc.rmw}
			for i, tags := range tc.tags {
				k := Read
				if i%2 == 1 {
					k = Write
				}
				g.Events = append(g.Events, Event{ID: i + 1, Thread: 0, Kind: k, Loc: "x", Tags: tags, Instr: i})
			}
			for _, s := range []*Static{g.Static(), g.staticRef()} {
				if got := s.Sets["X"].Elems(); !reflect.DeepEqual(got, tc.x) && (len(got) != 0 || len(tc.x) != 0) {
					t.Errorf("X = %v, want %v", got, tc.x)
				}
				for name, want := range map[string][][2]int{"amo": tc.amo, "lxsx": tc.lxsx} {
					if got := s.Rels[name].Pairs(); !reflect.DeepEqual(got, want) && (len(got) != 0 || len(want) != 0) {
						t.Errorf("%s = %v, want %v", name, got, want)
					}
				}
			}
		})
	}
}
