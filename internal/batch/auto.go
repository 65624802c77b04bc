package batch

import (
	"context"
	"errors"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// AutoDelay is how long the explicit engine works alone on a test under
// the portfolio engine ("auto") before the SMT engine and the pruned
// explicit engine take over: most tests are answered by the explicit
// engine well within it, with herd7's counts of executions; a test that
// is not gets the first complete answer of the other two.
var AutoDelay = time.Second

// runAuto is the portfolio engine: the explicit engine first; after
// AutoDelay, the SMT engine and, in place of the explicit engine, the
// engine on execution graphs where it decides the model (it gives the
// explicit engine's counts and states, each consistent execution built
// once instead of every candidate enumerated: the same answers on the
// whole X86 and C11 corpus under sc, tso, rc11 and imm), else the
// explicit engine pruned to the executions that can settle the
// condition (herd7's -speedcheck fast, the "pruned" engine): it
// enumerates a subset of the full enumeration's candidates, in the same
// order, so the full one could only win by its head start, and on two
// cores three engines per test would slow the two that answer most
// tests. The first verdict wins and the other engine is stopped. The SMT
// engine also starts at once when the explicit engine stops without a
// verdict at one of its limits. A test no engine answers gets the
// explicit engine's answer (a time-out, an error), unless only the SMT
// engine could not encode the model.
func runAuto(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		r   *result.Result
		eng string
	}
	ch := make(chan answer, 3)
	running := 0
	started := map[string]bool{}
	enumCtx, stopEnum := context.WithCancel(ctx)
	defer stopEnum()
	start := func(eng string) {
		if started[eng] {
			return
		}
		started[eng] = true
		running++
		ectx := ctx
		if eng == "enum" {
			ectx = enumCtx
		}
		go func() { ch <- answer{opts.engine(eng)(ectx, t, m, name, tags, opts), eng} }()
	}
	start("enum")
	explicit := "enum" // the explicit engine whose answer counts
	enumRunning := true
	timer := time.NewTimer(AutoDelay)
	defer timer.Stop()
	var fallback *result.Result
	for {
		select {
		case <-timer.C:
			start("smt")
			if opts.SpeedCheck == enum.SpeedOff && enumRunning {
				// (With -speedcheck, the explicit engine is pruned
				// already.)
				explicit = "pruned"
				if graph.Decides(m, name) && !t.Mixed {
					// (Mixed-size tests the graph engine refuses: the
					// pruned engine keeps them.)
					explicit = "graph"
				}
				stopEnum()
				start(explicit)
			}
		case a := <-ch:
			running--
			r := a.r
			if a.eng == "enum" {
				enumRunning = false
			}
			switch {
			case r.Status == result.Done:
				return r
			case a.eng == "enum" && explicit != "enum":
				// Stopped for the pruned engine: its answer counts.
			case a.eng == explicit && r.Status == result.Failed && !errors.Is(r.Err, result.ErrLimit):
				// An error of the test or the model: the SMT engine
				// would say the same.
				return r
			case fallback == nil || a.eng == explicit && r.Status != result.Unsupported:
				fallback = r
			}
			if a.eng == explicit && ctx.Err() == nil {
				start("smt")
			}
			if running == 0 {
				return fallback
			}
		}
	}
}
