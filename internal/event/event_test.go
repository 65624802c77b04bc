package event

import (
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// sbGraph is SB's events: two initial writes, then W x; R y on thread 0
// and W y; R x on thread 1, with an address dependency on thread 1 for the
// sake of the test.
func sbGraph() *Graph {
	return &Graph{
		Events: []Event{
			{ID: 0, Thread: -1, Kind: Write, Loc: "x", Tags: []string{"IW"}, Instr: -1},
			{ID: 1, Thread: -1, Kind: Write, Loc: "y", Tags: []string{"IW"}, Instr: -2},
			{ID: 2, Thread: 0, Kind: Write, Loc: "x", Instr: 1},
			{ID: 3, Thread: 0, Kind: Fence, Tags: []string{"MFENCE"}, Instr: 2},
			{ID: 4, Thread: 0, Kind: Read, Loc: "y", Instr: 3},
			{ID: 5, Thread: 1, Kind: Read, Loc: "y", Tags: []string{"X"}, Instr: 1},
			{ID: 6, Thread: 1, Kind: Write, Loc: "y", Tags: []string{"X"}, Instr: 1, Value: prog.IntValue(1)},
		},
		Rmw:      [][2]int{{5, 6}},
		Addr:     [][2]int{{5, 6}},
		TagNames: []string{"MFENCE", "LFENCE", "X"},
	}
}

func TestStaticSets(t *testing.T) {
	s := sbGraph().Static()
	tests := []struct{ name, want string }{
		{"R", "{4,5}"}, {"W", "{0,1,2,6}"}, {"M", "{0,1,2,4,5,6}"}, {"F", "{3}"},
		{"IW", "{0,1}"}, {"MFENCE", "{3}"}, {"LFENCE", "{}"}, {"X", "{5,6}"},
		{"mfence", "{3}"}, {"A", "{5,6}"}, {"_", "{0,1,2,3,4,5,6}"},
	}
	for _, tc := range tests {
		got, ok := s.Sets[tc.name]
		if !ok {
			t.Errorf("set %s missing", tc.name)
			continue
		}
		if got.String() != tc.want {
			t.Errorf("set %s = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestStaticRelations(t *testing.T) {
	s := sbGraph().Static()
	tests := []struct {
		name string
		has  [][2]int
		not  [][2]int
	}{
		{"po", [][2]int{{2, 3}, {2, 4}, {3, 4}, {5, 6}}, [][2]int{{0, 2}, {4, 2}, {2, 5}, {2, 2}}},
		{"loc", [][2]int{{0, 2}, {1, 4}, {4, 6}, {2, 2}}, [][2]int{{0, 1}, {3, 3}, {2, 4}}},
		{"int", [][2]int{{2, 4}, {5, 6}, {0, 0}}, [][2]int{{0, 1}, {2, 5}}},
		{"ext", [][2]int{{0, 1}, {2, 5}, {0, 2}}, [][2]int{{2, 4}, {0, 0}}},
		{"rmw", [][2]int{{5, 6}}, [][2]int{{4, 6}}},
		{"amo", [][2]int{{5, 6}}, nil},
		{"lxsx", nil, [][2]int{{5, 6}}},
		{"addr", [][2]int{{5, 6}}, nil},
		{"same-instance", [][2]int{{5, 6}, {6, 5}, {2, 2}}, [][2]int{{2, 3}, {0, 1}}},
	}
	for _, tc := range tests {
		r := s.Rels[tc.name]
		for _, p := range tc.has {
			if !r.Has(p[0], p[1]) {
				t.Errorf("%s lacks %v", tc.name, p)
			}
		}
		for _, p := range tc.not {
			if r.Has(p[0], p[1]) {
				t.Errorf("%s has %v", tc.name, p)
			}
		}
	}
	if got := s.Loc; got[3] != -1 || got[0] != got[2] || got[0] == got[1] {
		t.Errorf("location classes %v", got)
	}
}

func TestLabels(t *testing.T) {
	g := sbGraph()
	tests := []struct {
		e    int
		want string
	}{
		{0, "a: W[x]=0"}, {3, "d: F[MFENCE]"}, {6, "g: W.X[y]=1"},
	}
	for _, tc := range tests {
		if got := g.Events[tc.e].Label(); got != tc.want {
			t.Errorf("event %d: %q, want %q", tc.e, got, tc.want)
		}
	}
	if eventName(26) != "aa" || eventName(27) != "ab" {
		t.Errorf("names after z: %s %s", eventName(26), eventName(27))
	}
}
