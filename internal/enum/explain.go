package enum

import (
	"context"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/explain"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// maxRejected bounds the rejected candidates an explanation lists; the
// others are only counted.
const maxRejected = 8

// explaining collects, during a run with Options.Explain, the candidate
// executions that reach the condition's outcome and that the model
// rejects.
type explaining struct {
	ix         *explain.Index
	candidates int
	rejected   []result.Rejected
}

func newExplaining(m *cat.Model) *explaining {
	return &explaining{ix: explain.NewIndex(m)}
}

// explainRejected looks at a candidate the model rejected: if the test's
// filter keeps it and it reaches the outcome in question (the condition
// holds; for forall, fails), it is counted and, for the first ones,
// explained.
func (r *run) explainRejected(c *combo, vals []prog.Value, rf rel.Rel, co *rel.Rel, o cat.Outcome) {
	var finalCo rel.Rel
	if co != nil {
		finalCo = *co
	} else if got, ok := o.Rel("co"); ok {
		finalCo = got
	} else {
		return
	}
	regVal := r.finalValues(c, vals, finalCo)
	if r.t.Filter != nil && !spec.Eval(r.t.Filter, regVal) {
		return
	}
	if spec.Eval(r.t.Cond, regVal) == (r.t.Quant == spec.Forall) {
		return
	}
	e := r.explain
	e.candidates++
	if len(e.rejected) >= maxRejected {
		return
	}
	st := make(result.State, len(r.obs))
	for i, ref := range r.obs {
		st[i] = regVal(ref)
	}
	x, to := witnessMap(r.ctx, c, vals, rf, finalCo, st)
	if x == nil { // the run is stopping
		return
	}
	why := e.ix.Why(o.Failed, c.st.N, o.Rel)
	if to != nil && why != nil {
		// The steps are drawn on the execution as drawn.
		why.Steps = result.MapSteps(why.Steps, to)
		for i := range why.Also {
			why.Also[i] = result.MapSteps(why.Also[i], to)
		}
	}
	e.rejected = append(e.rejected, result.Rejected{Execution: x, Reason: why})
}

// explanation is the run's answer: forbidden when no accepted execution
// reaches the outcome.
func (e *explaining) explanation(res *result.Result) *result.Explanation {
	forbidden := res.Positive == 0
	if res.Quant == spec.Forall {
		forbidden = res.Negative == 0
	}
	if !forbidden {
		return &result.Explanation{}
	}
	return &result.Explanation{Forbidden: true, Candidates: e.candidates, Rejected: e.rejected}
}

// ExplainInto gives r, another engine's answer on t, the explicit
// engine's explanation (Options.Explain): the engine that sees every
// candidate execution says why the outcome is allowed or forbidden. The
// verdict stays r's; r gets the explicit engine's witness when it has
// none or the outcome is allowed. An explanation that does not finish is
// left out.
func ExplainInto(ctx context.Context, r *result.Result, t *spec.Test, m *cat.Model, modelName string, o Options) {
	if r == nil || r.Status != result.Done {
		return
	}
	o.Explain = true
	e := Run(ctx, t, m, modelName, o)
	if e.Status != result.Done {
		return
	}
	r.Explain = e.Explain
	if r.Witness == nil || e.Explain != nil && !e.Explain.Forbidden {
		r.Witness = e.Witness
	}
}
