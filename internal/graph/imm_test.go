package graph

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestIMMAgainstEnum is TestAgainstEnum under IMM, a model with load
// buffering: the explicit engine evaluates the IMM CAT model on every
// candidate execution, the graph engine explores graphs with dependency
// tracking (deps.go); the counts of executions and the final states must
// be the same, test by test.
func TestIMMAgainstEnum(t *testing.T) {
	dir := testcorpus.Dir(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range []struct {
		glob string
		max  int
	}{
		{"litmus/C11/auto/*.litmus", 4},
		{"litmus/C11/manual/*.litmus", 16}, // imm-*: the examples of the IMM paper
	} {
		for _, ct := range corpusSample(t, dir, c.glob, c.max, false) {
			f, lt, tags := ct.path, ct.t, ct.tags
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			want := enum.Run(ctx, lt, m, "imm", enum.Options{TagNames: tags})
			cancel()
			if want.Status != result.Done || want.Bounded {
				continue
			}
			// The explicit engine decided it: the graph engine must
			// too, and a loaded machine may take long.
			ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute)
			got, st := Run(ctx, lt, m, "imm", Options{TagNames: tags, CrossCheck: true})
			cancel()
			if got.Status == result.Unsupported {
				t.Logf("%s: %v", filepath.Base(f), got.Err)
				continue
			}
			ran++
			name := filepath.Base(f)
			if got.Status != result.Done {
				t.Errorf("%s: status %s: %v", name, got.Status, got.Err)
				continue
			}
			if got.Positive != want.Positive || got.Negative != want.Negative {
				t.Errorf("%s: graph engine %d+%d executions (%d revisits), explicit engine %d+%d", name, got.Positive, got.Negative, st.Revisits, want.Positive, want.Negative)
			}
			if len(got.States) != len(want.States) {
				t.Errorf("%s: %d final states, explicit engine %d", name, len(got.States), len(want.States))
			}
		}
	}
	if ran == 0 {
		t.Errorf("no test ran under imm")
	}
	t.Logf("%d tests compared", ran)
}
