package enum

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog/progtest"
	"github.com/musket-verify/musket/internal/result"
)

// TestOperationOnAddress checks that an operation prog.Apply refuses on
// a value read (an address multiplied, negated, ...) makes the run
// unsupported, naming the operation, rather than dropping the execution
// as if it did not exist (issue #24: a C program said PASS): the cases
// of progtest.AddressOps, under sc and rc11.
func TestOperationOnAddress(t *testing.T) {
	src := `C T
{ x=0; y=0; z=0; }
P0(atomic_int *x, atomic_int *y) { atomic_store_explicit(x, 1, memory_order_relaxed); }
exists (x=1)
`
	for _, c := range progtest.AddressOps() {
		for _, model := range []string{"sc", "rc11"} {
			lt := progtest.WithCode(t, src, c.Code)
			m, err := cat.LoadBuiltin(model)
			if err != nil {
				t.Fatal(err)
			}
			fe, _ := litmus.Lookup(lt.Arch)
			res := Run(context.Background(), lt, m, model, Options{TagNames: fe.Tags()})
			name := c.Name + "/" + model
			if c.Want == "" {
				if res.Status != result.Done || res.Positive+res.Negative == 0 {
					t.Errorf("%s: %s %v (%d+%d executions)", name, res.Status, res.Err, res.Positive, res.Negative)
				}
				continue
			}
			if res.Status != result.Unsupported || res.Err == nil || !strings.Contains(res.Err.Error(), c.Want) ||
				!strings.Contains(res.Err.Error(), "not supported by the explicit engine") {
				t.Errorf("%s: %s %v, want unsupported: %q...", name, res.Status, res.Err, c.Want)
			}
		}
	}
}
