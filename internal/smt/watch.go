package smt

import (
	"context"
	"time"
)

// InterruptWhenDone interrupts whatever this context is running in Z3,
// again every few milliseconds, from the moment ctx is done until the
// returned stop is called. It is how a caller bounds operations other than
// a check (asserting a large formula makes Z3 rewrite it, which can take
// seconds): the interrupted operation fails with a Z3 error (a panic of
// Assert, Unknown of a check), which the caller reads as a time-out when
// ctx.Err() is set. stop waits for the watcher to end, so no interrupt
// arrives after it returns. A ctx that is never done costs nothing.
func (c *Context) InterruptWhenDone(ctx context.Context) (stop func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	finished := make(chan struct{})
	watcherDone := make(chan struct{})
	go func() {
		defer close(watcherDone)
		select {
		case <-finished:
			return
		case <-ctx.Done():
		}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			c.Interrupt()
			select {
			case <-finished:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(finished)
		<-watcherDone
	}
}
