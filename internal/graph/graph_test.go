package graph

import (
	"context"
	"path/filepath"
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
		max         int // tests taken from the folder (sorted) in the default run, for time
	}{
		{"litmus/X86/*.litmus", "tso", 12},
		{"litmus/X86/*.litmus", "sc", 6},
		{"litmus/C11/auto/*.litmus", "rc11", 16},
		{"litmus/C11/manual/*.litmus", "rc11", 10},
	} {
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		ran := 0
		for _, ct := range corpusSample(t, dir, c.glob, c.max, false) {
			f, lt, tags := ct.path, ct.t, ct.tags
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			want := enum.Run(ctx, lt, m, c.model, enum.Options{TagNames: tags})
			cancel()
			if want.Status != result.Done || want.Bounded {
				continue
			}
			// The explicit engine decided it: the graph engine must
			// too, and a loaded machine may take long.
			ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute)
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

// TestCounts checks the executions of small tests, counted by hand:
// store buffering has 3 executions under SC and 4 under TSO (each read
// reads the initial write or the other thread's write, but not both
// initial under SC); message passing with a fence-free reader under RC11.
func TestCounts(t *testing.T) {
	sb := `X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
`
	for _, c := range []struct {
		src, model string
		pos, neg   int
	}{
		{sb, "sc", 0, 3},
		{sb, "tso", 1, 3},
	} {
		lt, err := litmus.Parse("t.litmus", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		fe, _ := litmus.Lookup(lt.Arch)
		r, st := Run(context.Background(), lt, m, c.model, Options{TagNames: fe.Tags()})
		if r.Status != result.Done {
			t.Fatalf("%s: %s %v", c.model, r.Status, r.Err)
		}
		if r.Positive != c.pos || r.Negative != c.neg || st.Complete != c.pos+c.neg {
			t.Errorf("%s: %d+%d executions (%d complete), want %d+%d", c.model, r.Positive, r.Negative, st.Complete, c.pos, c.neg)
		}
		if c.pos > 0 && r.Witness == nil {
			t.Errorf("%s: no witness", c.model)
		}
	}
	if !Supported("rc11") || !Supported("imm") || Supported("c11") || Supported("power") {
		t.Errorf("Supported: rc11 %v, imm %v, c11 %v, power %v", Supported("rc11"), Supported("imm"), Supported("c11"), Supported("power"))
	}
}
