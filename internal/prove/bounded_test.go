package prove

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

const examples = "../../examples/asm"

// TestBoundedTables reproduces the verdicts of Tables 5.1 and 5.2 with
// the SMT engine at the tables' bounds. A test without a violation but
// with loops must say that the bound was exhausted: it is not a proof.
func TestBoundedTables(t *testing.T) {
	for _, tab := range Bounded {
		for _, row := range tab.Rows {
			for _, c := range row.Cells {
				pr, err := bmc.CheckLitmus(context.Background(), filepath.Join(examples, c.File), bmc.LitmusOptions{Model: c.Model, Bound: row.Bound})
				if err != nil {
					t.Fatalf("%s: %v", c.File, err)
				}
				if pr.Result.Status != result.Done {
					t.Fatalf("%s under %s: status %v (%v)", c.File, c.Model, pr.Result.Status, pr.Result.Err)
				}
				if pr.Reachable != bool(c.Violation) {
					t.Errorf("%s: %s under %s (bound %d): violation %v, the thesis says %v", tab.Name, c.File, c.Model, row.Bound, pr.Reachable, c.Violation)
				}
				if !pr.Reachable && row.Bound > 0 && !pr.Result.Bounded {
					t.Errorf("%s under %s: no violation within bound %d but not reported as bounded", c.File, c.Model, row.Bound)
				}
			}
		}
	}
}
