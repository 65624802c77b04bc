package main

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBudgetSMT: the SMT engine's context under -engine auto is canceled,
// with errPortfolioBudget as its cause, at the first look at the
// process's memory once it passes the budget, and is left alone below
// it. The test gives the watch its ticks itself: no clock.
func TestBudgetSMT(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget uint64
		cancel bool
	}{
		{"over", 1, true},
		{"under", 1 << 50, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ticks := make(chan time.Time) // unbuffered: a send is a look taken
			stopped := make(chan struct{})
			ctx, unwatch, release := watchBudget(context.Background(), tc.budget, ticks, func() { close(stopped) })
			defer release()
			ticks <- time.Time{}
			if tc.cancel {
				<-ctx.Done()
				if !errors.Is(context.Cause(ctx), errPortfolioBudget) {
					t.Fatalf("cause %v, want errPortfolioBudget", context.Cause(ctx))
				}
				<-stopped
				return
			}
			// A second look is taken only once the first has found the
			// memory under the budget.
			ticks <- time.Time{}
			unwatch()
			<-stopped
			if err := ctx.Err(); err != nil {
				t.Fatalf("canceled under the budget: %v", context.Cause(ctx))
			}
		})
	}
}
