package enum

import (
	"context"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestTimeoutWhileChoosingRf checks that the run stops at its time limit
// while most rf choices fail the path constraints (loops of
// compare-and-swaps), before any candidate reaches the model.
func TestTimeoutWhileChoosingRf(t *testing.T) {
	tests := []struct{ name, src string }{
		{"cas loops", `C cas-loops
{}
P0 (atomic_int* x) {
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
  int r1 = atomic_load_explicit(x, memory_order_relaxed);
}
P1 (atomic_int* x, int* y) {
  *y = atomic_load_explicit(x, memory_order_relaxed);
  while(atomic_compare_exchange_strong_explicit(x, y, *y, memory_order_relaxed, memory_order_relaxed) == 0) {}
  atomic_store_explicit(x, 1, memory_order_relaxed);
}
P2 (atomic_int* x, int* a) {
  *a = atomic_load_explicit(x, memory_order_relaxed);
  while(atomic_compare_exchange_strong_explicit(x, a, *a, memory_order_relaxed, memory_order_relaxed) == 0) {}
  atomic_store_explicit(x, 2, memory_order_relaxed);
}
exists (0:r0=2 /\ 0:r1=0)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lt, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			m, err := cat.LoadBuiltin("rc11")
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			r := Run(ctx, lt, m, "rc11", Options{TagNames: fe.Tags()})
			if r.Status != result.Timeout {
				t.Fatalf("status %s (%v), want timeout", r.Status, r.Err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("stopped after %s, long after the 200ms limit", d)
			}
		})
	}
}
