package cfront

import (
	"context"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// ExplainBudget bounds the explicit enumeration that explains a PASS
// (check -explain) when the check has no time limit of its own: a
// program too large to enumerate gets no list of rejected candidates.
var ExplainBudget = 30 * time.Second

// explainSafe fills res.Explain on a PASS: each candidate execution in
// which an assertion fails (up to enum's limit of listed ones), the
// model's check that rejects it and its cycle, from the explicit engine
// (the one that sees every candidate), as litmus -explain does. q asks
// whether an assertion fails. Nothing is filled when the enumeration
// does not finish.
func (res *Result) explainSafe(ctx context.Context, p *Program, q spec.Test, tags []string, opts CheckOptions) {
	if opts.Target == "" && opts.Engine == "graph" {
		// (The other engines ran the narrowed program already.)
		n := *p.narrow(ctx, &q, false)
		n.Quant, n.Cond, n.Locations = q.Quant, q.Cond, q.Locations
		q = n
	}
	if _, ok := ctx.Deadline(); !ok && ExplainBudget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ExplainBudget)
		defer cancel()
	}
	e := enum.Run(ctx, &q, opts.Model, opts.ModelName, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound, Explain: true})
	if e.Status != result.Done || e.Explain == nil {
		res.ExplainErr = "the explicit enumeration of the candidate executions did not finish"
		if e.Status == result.Done {
			res.ExplainErr = "the explicit engine gave no explanation"
		}
		return
	}
	res.Explain = e.Explain
	res.explainTest = &q
}

// Annotate returns execution x of res's explanation in C terms, as
// AnnotateWitness does for the witness: locations named as the program names them, each
// event with its source line.
func (res *Result) Annotate(x *result.Execution) *result.Execution {
	if x == nil {
		return nil
	}
	saved, savedTest := res.Result.Witness, res.Test
	res.Result.Witness = x
	if res.explainTest != nil {
		// The explanation's executions are of the program it ran
		// (narrowed where the graph engine did not narrow it): their
		// events' instructions are that program's.
		res.Test = res.explainTest
	}
	defer func() { res.Result.Witness, res.Test = saved, savedTest }()
	return AnnotateWitness(res)
}
