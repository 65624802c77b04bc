package batch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// stopGrace is how long an engine may take, once its time limit has
// passed or the run was stopped, to notice it and return.
var stopGrace = 2 * time.Second

// within runs one engine call on t under the time limit (none when limit
// is 0) and ctx. Every engine checks its deadline in its own loops; this
// is the safety net for a loop that does not (a call into a library that
// cannot be interrupted, a bug): when the engine has not returned
// stopGrace after its deadline, its answer is abandoned and t is reported
// as timed out, with an error that says so, so that neither the run nor
// SIGTERM waits for it. The abandoned call goes on in the background
// until the process ends.
func within(ctx context.Context, limit time.Duration, t *spec.Test, run func(context.Context) *result.Result) *result.Result {
	c, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		c, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	c, unwatch := memlimit.Watch(c)
	defer unwatch()
	r := runWithin(c, limit, t, run)
	return MemoryStatus(c, r)
}

// MemoryStatus turns the result of a task stopped by the memory limit
// (its context canceled by it, or a library out of memory) into a result
// with status MemoryLimit.
func MemoryStatus(ctx context.Context, r *result.Result) *result.Result {
	if r == nil || r.Status == result.Done {
		return r
	}
	if memlimit.Exceeded(ctx) || (r.Err != nil && errors.Is(r.Err, memlimit.ErrExceeded)) {
		r.Status = result.MemoryLimit
		r.Err = memlimit.Error()
	}
	return r
}

// runWithin is within once c is set up.
func runWithin(c context.Context, limit time.Duration, t *spec.Test, run func(context.Context) *result.Result) *result.Result {
	if c.Done() == nil {
		return run(c)
	}
	withLimit := func(r *result.Result) *result.Result {
		if r != nil && r.Status == result.Timeout {
			r.Limit = limit
		}
		return r
	}
	start := time.Now()
	answer := make(chan *result.Result, 1)
	go func() { answer <- run(c) }()
	select {
	case r := <-answer:
		return withLimit(r)
	case <-c.Done():
	}
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case r := <-answer:
		return withLimit(r)
	case <-grace.C:
	}
	return &result.Result{
		File: t.File, Name: t.Name, Quant: t.Quant, Status: result.Timeout,
		Time: time.Since(start), Limit: limit,
		Err: fmt.Errorf("the engine did not stop within %s of its time limit and was abandoned "+
			"(a defect of Musket: please report it with this test)", stopGrace),
	}
}
