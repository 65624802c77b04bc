package enum

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// casLoops: most rf choices fail the path constraints (loops of
// compare-and-swaps), before any candidate reaches the model.
const casLoops = `C cas-loops
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
exists (0:r0=2 /\ 0:r1=0)`

// slowModel takes exponential time on every candidate (5^|M| calls of
// f, M | domain(rf) being M, but not known before rf is), beyond the
// evaluator's step budget, unless its evaluation honours the deadline.
const slowModel = `slow
let rec f s = match s with || {} -> 0 || e ++ r -> f r | f r | f r | f r | f r end
let a = f (M | domain(rf))
acyclic po | rf | co | fr
`

const sbSrc = `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
 MOV [x],$2  | MOV [y],$2  ;
 MOV [x],$3  | MOV [y],$3  ;
 MOV [x],$4  | MOV [y],$4  ;
exists (0:EAX=0 /\ 1:EAX=0)`

// TestTimeout checks that a run stops at its time limit, in every loop
// of the search, and reports a timeout, never a verdict. What is asserted
// is the outcome: each search would otherwise end with a verdict much
// later (go test's own time limit catches a hang).
func TestTimeout(t *testing.T) {
	w4x8, err := os.ReadFile(filepath.Join("testdata", "W4x8.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src, model string
		uniproc          bool
	}{
		// 4 threads of 8 stores to x: about 10^16 coherence orders that
		// respect program order, 6*10^16 without.
		{"coherence orders", string(w4x8), "tso", false},
		{"coherence orders, uniproc", string(w4x8), "tso", true},
		{"rf choices", casLoops, "rc11", false},
		{"model evaluation", sbSrc, slowModel, false},
	}
	const limit = 2 * time.Second
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lt, err := litmus.Parse("t.litmus", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var m *cat.Model
			if len(tc.model) < 10 {
				m, err = cat.LoadBuiltin(tc.model)
			} else {
				p := filepath.Join(t.TempDir(), "slow.cat")
				if err := os.WriteFile(p, []byte(tc.model), 0o644); err != nil {
					t.Fatal(err)
				}
				m, err = cat.Load(p, cat.LoadOptions{})
			}
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			r := Run(ctx, lt, m, "m", Options{TagNames: fe.Tags(), Uniproc: tc.uniproc})
			if r.Status != result.Timeout {
				t.Fatalf("status %s (%v), want timeout", r.Status, r.Err)
			}
		})
	}
}
