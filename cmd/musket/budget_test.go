package main

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBudgetSMT: the SMT engine's context under -engine auto is canceled,
// with errPortfolioBudget as its cause, once the process's memory passes
// the budget, and is left alone below it.
func TestBudgetSMT(t *testing.T) {
	saved := portfolioSMTBudget
	defer func() { portfolioSMTBudget = saved }()
	for _, tc := range []struct {
		name   string
		budget uint64
		cancel bool
	}{
		{"over", 1, true},
		{"under", 1 << 50, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			portfolioSMTBudget = tc.budget
			ctx, unwatch, release := budgetSMT(context.Background())
			defer release()
			defer unwatch()
			select {
			case <-ctx.Done():
				if !tc.cancel {
					t.Fatalf("canceled under the budget: %v", context.Cause(ctx))
				}
				if !errors.Is(context.Cause(ctx), errPortfolioBudget) {
					t.Fatalf("cause %v, want errPortfolioBudget", context.Cause(ctx))
				}
			case <-time.After(300 * time.Millisecond):
				if tc.cancel {
					t.Fatal("not canceled over the budget")
				}
			}
		})
	}
}
