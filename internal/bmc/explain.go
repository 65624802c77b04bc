package bmc

import (
	"context"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// explainResult gives the SMT engine's answer pr the explicit engine's
// explanation of q (package explain): the engine that sees every
// candidate execution says why the condition is reachable or not. The
// verdict stays the SMT engine's; an explanation that does not finish is
// left out.
func explainResult(ctx context.Context, pr *ProgramResult, q *spec.Test, m *cat.Model, modelName string, o enum.Options) {
	if pr.Result == nil || pr.Result.Status != result.Done {
		return
	}
	o.Explain = true
	e := enum.Run(ctx, q, m, modelName, o)
	if e.Status != result.Done {
		return
	}
	pr.Result.Explain = e.Explain
	if pr.Result.Witness == nil {
		pr.Result.Witness = e.Witness
	}
}
