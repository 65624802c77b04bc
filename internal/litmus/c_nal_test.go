package litmus

import (
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestCNonAtomicAndCASOrders checks the locations the C front-end declares
// non-atomic (NAL) and the read tags of a compare-and-swap that fails.
func TestCNonAtomicAndCASOrders(t *testing.T) {
	tests := []struct {
		name, params, body, nal, fail string
	}{
		{"plain and atomic", "volatile int* a, atomic_int* x", "*a = 1;", "[a]", "[]"},
		{"atomic in another thread wins", "int* x, atomic_int* y", "*x = 1;", "[]", "[]"},
		{"cas same orders", "atomic_int* x, atomic_int* y",
			"int r = atomic_compare_exchange_strong_explicit(x, y, 1, memory_order_acquire, memory_order_acquire);", "[]", "[]"},
		{"cas different orders", "atomic_int* x, atomic_int* y",
			"int r = atomic_compare_exchange_strong_explicit(x, y, 1, memory_order_acquire, memory_order_relaxed);", "[]", "[A RLX RMW X]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf("C t\n{ [x] = 0; [y] = 0; [a] = 0; }\nP0 (%s) { %s }\nP1 (atomic_int* x) { int r1 = atomic_load(x); }\nexists (x=0)", tc.params, tc.body)
			lt, err := ParseWith("t.litmus", []byte(src), NewCFrontend(nil))
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(lt.Threads[0].NonAtomic); got != tc.nal {
				t.Errorf("NonAtomic = %s, want %s", got, tc.nal)
			}
			fail := "[]"
			for _, in := range lt.Threads[0].Code {
				if r, ok := in.(prog.RMW); ok && r.FailRTags != nil {
					fail = fmt.Sprint(r.FailRTags)
				}
			}
			if fail != tc.fail {
				t.Errorf("FailRTags = %s, want %s", fail, tc.fail)
			}
		})
	}
}
