package cfront

import (
	"fmt"
	"path/filepath"

	"github.com/musket-verify/musket/internal/result"
)

// AnnotateWitness returns the witness of a violation in C terms: each
// event's location named as the program names it (CName: "nodes[1].next",
// "create(P1)") and its C source line after its label
// ("a: W.NA[data]=42 @mp.c:9").
func AnnotateWitness(r *Result) *result.Execution {
	if r == nil || r.Result == nil || r.Result.Witness == nil {
		return nil
	}
	x := *r.Result.Witness
	x.Events = append([]result.Event(nil), x.Events...)
	for i, e := range x.Events {
		e.Label = r.Program.cLabel(e.Label)
		x.Events[i].Label = e.Label
		if e.Thread < 0 || e.Thread >= len(r.Test.Threads) {
			continue
		}
		th := r.Test.Threads[e.Thread]
		if e.PC < 0 || e.PC >= len(th.Pos) || th.Pos[e.PC].Line == 0 {
			continue
		}
		p := th.Pos[e.PC]
		x.Events[i].Label = fmt.Sprintf("%s @%s:%d", e.Label, filepath.Base(p.File), p.Line)
	}
	return &x
}

// LimitError is a program too large for the front-end's limits (threads,
// unrolled code): exit status 3, like the other limits.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }
