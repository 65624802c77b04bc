package batch

import (
	"context"
	"errors"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// AutoDelay is how long the explicit engine works alone on a test under
// the portfolio engine ("auto") before the SMT engine and the pruned
// explicit engine join it: most tests are answered by the explicit
// engine well within it, with herd7's counts of executions; a test that
// is not gets all three engines, and the first complete answer.
var AutoDelay = time.Second

// runAuto is the portfolio engine: the explicit engine first; after
// AutoDelay, the SMT engine and the explicit engine pruned to the
// executions that can settle the condition (herd7's -speedcheck fast,
// the "pruned" engine) too; the first verdict wins and the other engines
// are stopped. The SMT engine also starts at once when the explicit
// engine stops without a verdict at one of its limits. A test no engine
// answers gets the explicit engine's answer (a time-out, an error),
// unless only the SMT engine could not encode the model.
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
	start := func(eng string) {
		if started[eng] {
			return
		}
		started[eng] = true
		running++
		go func() { ch <- answer{opts.engine(eng)(ctx, t, m, name, tags, opts), eng} }()
	}
	start("enum")
	timer := time.NewTimer(AutoDelay)
	defer timer.Stop()
	var fallback *result.Result
	for {
		select {
		case <-timer.C:
			start("smt")
			if opts.SpeedCheck == enum.SpeedOff {
				// With -speedcheck, the explicit engine is pruned
				// already.
				start("pruned")
			}
		case a := <-ch:
			running--
			r := a.r
			switch {
			case r.Status == result.Done:
				return r
			case r.Status == result.Failed && a.eng == "enum" && !errors.Is(r.Err, result.ErrLimit):
				// An error of the test or the model: the SMT engine
				// would say the same.
				return r
			}
			if fallback == nil || a.eng == "enum" && r.Status != result.Unsupported {
				fallback = r
			}
			if a.eng == "enum" && ctx.Err() == nil {
				start("smt")
			}
			if running == 0 {
				return fallback
			}
		}
	}
}
