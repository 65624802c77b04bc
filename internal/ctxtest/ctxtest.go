// Package ctxtest holds a context for tests of the deadline checks: one
// that counts how often it is asked whether it is done and answers yes
// from a chosen look on. A test can so check that a loop looks at its
// context, and stops when told, without reading the clock.
package ctxtest

import (
	"context"
	"sync"
	"time"
)

// Counter is a context that is done from its Limit-th call of Err on
// (never when Limit is 0). Done's channel is closed at that call. It is
// safe for concurrent use.
type Counter struct {
	Limit int

	mu    sync.Mutex
	looks int
	done  chan struct{}
}

// After is a Counter done from its n-th look on.
func After(n int) *Counter { return &Counter{Limit: n} }

// Looks is the number of calls of Err so far.
func (c *Counter) Looks() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.looks
}

func (c *Counter) ch() chan struct{} {
	if c.done == nil {
		c.done = make(chan struct{})
	}
	return c.done
}

// Err counts one look and answers context.DeadlineExceeded from the
// Limit-th on.
func (c *Counter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.Limit > 0 && c.looks >= c.Limit {
		if c.looks == c.Limit {
			close(c.ch())
		}
		return context.DeadlineExceeded
	}
	return nil
}

// Done is closed once Err has answered that the context is done.
func (c *Counter) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ch()
}

// Deadline says there is none: the counter, not the clock, ends it.
func (c *Counter) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value holds nothing.
func (c *Counter) Value(any) any { return nil }
