package fix

import (
	"context"
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestEnumBudget: the explicit engine's budget of candidate executions
// (which the repair loop of compare -fix and the re-checks use) stops a
// run with ErrBudget and no verdict, and a budget large enough changes
// nothing.
func TestEnumBudget(t *testing.T) {
	tst, err := litmus.ParseFile("testdata/SB.x86.litmus")
	if err != nil {
		t.Fatal(err)
	}
	m, name, err := driver.Load("tso")
	if err != nil {
		t.Fatal(err)
	}
	full := enum.Run(context.Background(), tst, m, name, enum.Options{})
	if full.Status != result.Done || full.Positive == 0 {
		t.Fatalf("without a budget: %v, %d positive", full.Status, full.Positive)
	}
	cut := enum.Run(context.Background(), tst, m, name, enum.Options{MaxEvaluated: 1})
	if cut.Status != result.Timeout || !errors.Is(cut.Err, enum.ErrBudget) {
		t.Errorf("budget 1: status %v, err %v; want timeout, ErrBudget", cut.Status, cut.Err)
	}
	big := enum.Run(context.Background(), tst, m, name, enum.Options{MaxEvaluated: 1 << 20})
	if big.Status != result.Done || big.Positive != full.Positive || len(big.States) != len(full.States) {
		t.Errorf("large budget: %v, %d positive, %d states; want %d, %d", big.Status, big.Positive, len(big.States), full.Positive, len(full.States))
	}
}
