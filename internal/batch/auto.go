package batch

import (
	"context"
	"errors"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// AutoDelay is how long the explicit engine works alone on a test under
// the portfolio engine ("auto") before the SMT engine joins it: most
// tests are answered by the explicit engine well within it, with herd7's
// counts of executions; a test that is not gets both engines, and the
// first complete answer.
var AutoDelay = time.Second

// runAuto is the portfolio engine: the explicit engine first, the SMT
// engine too after AutoDelay (at once when the explicit engine stops
// without a verdict at one of its limits), and the first verdict wins;
// the other engine is stopped. A test neither engine answers gets the
// explicit engine's answer (a time-out, an error), unless only the SMT
// engine could not encode the model.
func runAuto(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		r   *result.Result
		eng string
	}
	ch := make(chan answer, 2)
	start := func(eng string) {
		go func() { ch <- answer{opts.engine(eng)(ctx, t, m, name, tags, opts), eng} }()
	}
	start("enum")
	running, smtStarted := 1, false
	startSMT := func() {
		if !smtStarted {
			smtStarted = true
			running++
			start("smt")
		}
	}
	timer := time.NewTimer(AutoDelay)
	defer timer.Stop()
	var fallback *result.Result
	for {
		select {
		case <-timer.C:
			startSMT()
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
				startSMT()
			}
			if running == 0 {
				return fallback
			}
		}
	}
}
