package graph

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestAgainstEnum runs the litmus tests of the corpus (loop-free, one
// model each where the engine applies) under both the explicit engine
// and this one: the counts of executions (positive and negative) and the
// final states must be the same. Equal counts say that each consistent
// execution graph is explored exactly once: none missed, none twice
// (TruSt's optimality).
func TestAgainstEnum(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, c := range []struct {
		glob, model string
		max         int // tests taken from the folder (sorted), for time
	}{
		{"litmus/X86/*.litmus", "tso", 60},
		{"litmus/X86/*.litmus", "sc", 30},
		{"litmus/C11/auto/*.litmus", "rc11", 82},
		{"litmus/C11/manual/*.litmus", "rc11", 40},
	} {
		files, _ := filepath.Glob(filepath.Join(dir, c.glob))
		sort.Strings(files)
		if len(files) > c.max {
			files = files[:c.max]
		}
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		ran := 0
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lt, err := litmus.Parse(f, src)
			if err != nil {
				continue // a dialect this test does not need
			}
			fe, _ := litmus.Lookup(lt.Arch)
			var tags []string
			if fe != nil {
				tags = fe.Tags()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			want := enum.Run(ctx, lt, m, c.model, enum.Options{TagNames: tags})
			cancel()
			if want.Status != result.Done || want.Bounded {
				continue
			}
			ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
			got, st := Run(ctx, lt, m, c.model, Options{TagNames: tags})
			cancel()
			if got.Status == result.Unsupported {
				continue
			}
			ran++
			name := filepath.Base(f) + "/" + c.model
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
		if ran == 0 {
			t.Errorf("%s under %s: no test ran", c.glob, c.model)
		}
	}
}
