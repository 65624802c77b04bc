package result

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
	"testing"
)

// TestUnchunk checks that the chunks of a location are shown whole again.
func TestUnchunk(t *testing.T) {
	x, x4, r := spec.Ref{Thread: -1, Name: "x"}, spec.Ref{Thread: -1, Name: "x+4"}, spec.Ref{Thread: 0, Name: "X3"}
	tst := &spec.Test{Mixed: true, CondLine: "exists (x=0x100000002)", Chunks: map[string][]spec.Chunk{
		"x": {{Loc: "x", Off: 0, Size: 4}, {Loc: "x+4", Off: 4, Size: 4}},
	}}
	res := &Result{Observed: []spec.Ref{r, x, x4}, States: []State{
		{prog.IntValue(7), prog.IntValue(2), prog.IntValue(1)},
		{prog.IntValue(7), prog.IntValue(0), prog.IntValue(3)},
	}}
	res.Witness = &Execution{State: State{prog.IntValue(7), prog.IntValue(2), prog.IntValue(1)}}
	res.Explain = &Explanation{Forbidden: true, Candidates: 1, Rejected: []Rejected{
		{Execution: &Execution{State: State{prog.IntValue(7), prog.IntValue(0), prog.IntValue(3)}}},
	}}
	Unchunk(res, tst)
	if w := res.Witness.State; len(w) != 2 || w[1].Int != 0x100000002 {
		t.Errorf("witness state %v", w)
	}
	if c := res.Explain.Rejected[0].Execution.State; len(c) != 2 || c[1].Int != 0x300000000 {
		t.Errorf("candidate state %v", c)
	}
	if len(res.Observed) != 2 || res.Observed[1] != x || res.Condition != tst.CondLine {
		t.Fatalf("observed %v, condition %q", res.Observed, res.Condition)
	}
	got := map[int64]bool{}
	for _, s := range res.States {
		got[s[1].Int] = true
	}
	if len(got) != 2 || !got[0x100000002] || !got[0x300000000] {
		t.Errorf("states %v", res.States)
	}
}
