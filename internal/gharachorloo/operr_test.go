package gharachorloo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/gharachorloo"
	"github.com/musket-verify/musket/internal/prog/progtest"
	"github.com/musket-verify/musket/internal/result"
)

// TestOperationOnAddress: an operation prog.Apply refuses on a value read
// (an address multiplied, negated) makes the run unsupported, naming the
// operation, as in the explicit and graph engines, rather than dropping
// the execution (issue #24: a C program said PASS in the explicit
// engine): the cases of progtest.AddressOps.
func TestOperationOnAddress(t *testing.T) {
	src := `C T
{ x=0; y=0; z=0; }
P0 (int* x, int* y) { *x = 1; }
exists (z=1)
`
	for _, c := range progtest.AddressOps() {
		lt := progtest.WithCode(t, src, c.Code)
		res := gharachorloo.Run(context.Background(), lt, gharachorloo.SC, gharachorloo.Options{})
		if c.Want == "" {
			if res.Status != result.Done || len(res.States) == 0 {
				t.Errorf("%s: %s %v (%d states)", c.Name, res.Status, res.Err, len(res.States))
			}
			continue
		}
		if res.Status != result.Unsupported || res.Err == nil || !strings.Contains(res.Err.Error(), c.Want) ||
			!strings.Contains(res.Err.Error(), "not supported by the gharachorloo engine") {
			t.Errorf("%s: %s %v, want unsupported: %q...", c.Name, res.Status, res.Err, c.Want)
		}
	}
}
