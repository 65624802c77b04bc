package result

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
)

func TestVerdicts(t *testing.T) {
	tests := []struct {
		q        litmus.Quant
		pos, neg int
		ok       bool
		obs      string
	}{
		{litmus.Exists, 1, 3, true, "Sometimes"},
		{litmus.Exists, 0, 3, false, "Never"},
		{litmus.NotExists, 0, 3, true, "Never"},
		{litmus.NotExists, 2, 0, false, "Always"},
		{litmus.Forall, 4, 0, true, "Always"},
		{litmus.Forall, 3, 1, false, "Sometimes"},
	}
	for _, tc := range tests {
		r := &Result{Quant: tc.q, Positive: tc.pos, Negative: tc.neg}
		if r.Ok() != tc.ok || r.Observation() != tc.obs {
			t.Errorf("%s %d/%d: got %v %s, want %v %s", tc.q, tc.pos, tc.neg, r.Ok(), r.Observation(), tc.ok, tc.obs)
		}
	}
}

func TestSorting(t *testing.T) {
	refs := SortRefs([]litmus.Ref{{Thread: -1, Name: "y"}, {Thread: 1, Name: "EAX"}, {Thread: -1, Name: "x"}, {Thread: 0, Name: "EBX"}, {Thread: 0, Name: "EAX"}})
	want := "0:EAX 0:EBX 1:EAX x y"
	got := ""
	for i, r := range refs {
		if i > 0 {
			got += " "
		}
		got += r.String()
	}
	if got != want {
		t.Errorf("refs %q, want %q", got, want)
	}
	obs := []litmus.Ref{{Thread: -1, Name: "x"}}
	st := SortStates(obs, []State{{prog.IntValue(2)}, {prog.IntValue(1)}, {prog.IntValue(2)}})
	if len(st) != 2 || st[0][0].Int != 1 {
		t.Errorf("states %v", st)
	}
}
