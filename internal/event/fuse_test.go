package event

import (
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
)

// TestFusion checks the quotient a single-event read-modify-write gives
// the model. Events: 0 the initial write of x, 1 and 2 an AMO's read and
// write of x, 3 a read of x, 4 a write of y.
func TestFusion(t *testing.T) {
	f := NewFusion(5, [][2]int{{1, 2}})
	if f.M != 4 || !slices.Equal(f.To, []int{0, 1, 1, 2, 3}) || !slices.Equal(f.Read, []int{0, 1, 3, 4}) || !slices.Equal(f.Write, []int{0, 2, 3, 4}) {
		t.Fatalf("fusion M=%d To=%v Read=%v Write=%v", f.M, f.To, f.Read, f.Write)
	}
	if NewFusion(3, nil) != nil || (*Fusion)(nil).Other(1) != -1 || f.Other(1) != 2 || f.Other(2) != 1 || f.Other(3) != -1 {
		t.Fatal("Other")
	}
	rels := []struct {
		name     string
		in, want [][2]int
	}{
		{"po: none inside the AMO", [][2]int{{1, 2}, {1, 3}, {2, 3}, {3, 4}}, [][2]int{{1, 2}, {2, 3}}},
		{"rf: into the read, out of the write", [][2]int{{0, 1}, {2, 3}}, [][2]int{{0, 1}, {1, 2}}},
		{"co: the write's place", [][2]int{{0, 2}}, [][2]int{{0, 1}}},
		{"fr: from the read, not to its own write", [][2]int{{1, 2}, {3, 2}}, [][2]int{{2, 1}}},
		{"rmw and iico_data: gone", [][2]int{{1, 2}}, nil},
		{"id and loc: reflexive on the event", [][2]int{{0, 0}, {1, 1}, {2, 2}, {1, 2}, {2, 1}, {0, 2}}, [][2]int{{0, 0}, {0, 1}, {1, 1}}},
	}
	for _, tc := range rels {
		got := f.Rel(rel.RelOf(5, tc.in...)).Pairs()
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := f.Set(rel.SetOf(5, 1, 3)).Elems(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("R: %v", got)
	}
	if got := f.Set(rel.SetOf(5, 0, 2, 4)).Elems(); !slices.Equal(got, []int{0, 1, 3}) {
		t.Errorf("W: %v", got)
	}
	back := rel.RelOf(4, [2]int{0, 1}, [2]int{1, 2})
	if got := f.Back(back, true).Pairs(); !slices.Equal(got, [][2]int{{0, 2}, {2, 3}}) {
		t.Errorf("back as co: %v", got)
	}
	if got := f.Back(back, false).Pairs(); !slices.Equal(got, [][2]int{{0, 1}, {1, 3}}) {
		t.Errorf("back: %v", got)
	}
	if got := f.Loc([]int{0, 0, 0, 0, 1}); !slices.Equal(got, []int{0, 0, 0, 1}) {
		t.Errorf("loc: %v", got)
	}
}

// TestFusedLabel: a fused pair is drawn "RMW", its tags once, the value
// read and the value written.
func TestFusedLabel(t *testing.T) {
	r := Event{ID: 2, Kind: Read, Loc: "x", Value: prog.IntValue(0), Tags: []string{"X", "AMO", "Acq"}}
	w := Event{ID: 3, Kind: Write, Loc: "x", Value: prog.IntValue(5), Tags: []string{"X", "AMO", "Acq"}}
	if got, want := FusedLabel(1, &r, &w), "b: RMW.X.AMO.Acq[x]=0>5"; got != want {
		t.Errorf("FusedLabel = %q, want %q", got, want)
	}
}
