package result

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
	"testing"
)

func TestVerdicts(t *testing.T) {
	tests := []struct {
		q        spec.Quant
		pos, neg int
		ok       bool
		obs      string
	}{
		{spec.Exists, 1, 3, true, "Sometimes"},
		{spec.Exists, 0, 3, false, "Never"},
		{spec.NotExists, 0, 3, true, "Never"},
		{spec.NotExists, 2, 0, false, "Always"},
		{spec.Forall, 4, 0, true, "Always"},
		{spec.Forall, 3, 1, false, "Sometimes"},
	}
	for _, tc := range tests {
		r := &Result{Quant: tc.q, Positive: tc.pos, Negative: tc.neg}
		if r.Ok() != tc.ok || r.Observation() != tc.obs {
			t.Errorf("%s %d/%d: got %v %s, want %v %s", tc.q, tc.pos, tc.neg, r.Ok(), r.Observation(), tc.ok, tc.obs)
		}
	}
}

func TestSorting(t *testing.T) {
	refs := SortRefs([]spec.Ref{{Thread: -1, Name: "y"}, {Thread: 1, Name: "EAX"}, {Thread: -1, Name: "x"}, {Thread: 0, Name: "EBX"}, {Thread: 0, Name: "EAX"}})
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
	obs := []spec.Ref{{Thread: -1, Name: "x"}}
	st := SortStates(obs, []State{{prog.IntValue(2)}, {prog.IntValue(1)}, {prog.IntValue(2)}})
	if len(st) != 2 || st[0][0].Int != 1 {
		t.Errorf("states %v", st)
	}
}
