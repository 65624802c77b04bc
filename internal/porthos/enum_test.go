package porthos

import (
	"context"
	"github.com/musket-verify/musket/internal/spec"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
)

// enumStates is the set of final states the explicit engine finds for t
// under a side's model.
func enumStates(t *testing.T, test *spec.Test, s Side, tags []string, bound int) map[string]result.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r := enum.Run(ctx, test, s.Model, s.ModelName, enum.Options{Variants: s.Variants, TagNames: tags, Bound: bound})
	if r.Status != result.Done {
		t.Fatalf("enum %s under %s: %s %v", test.Name, s.ModelName, r.Status, r.Err)
	}
	return stateSet(r.States)
}
