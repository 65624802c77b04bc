package batch

import (
	"context"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Litmus tests with loops for the graph engine: a spin loop (paths cut
// by the bound), a compare-and-swap retry loop, and a loop-free test.
const (
	spinC = `C Spin
{}
P0 (atomic_int* x) { atomic_store_explicit(x, 1, memory_order_release); }
P1 (atomic_int* x) {
  int r0 = 0;
  while (atomic_load_explicit(x, memory_order_acquire) == 0) { r0 = r0 + 1; }
}
exists (1:r0=0)
`
	casC = `C CasLoop
{}
P0 (atomic_int* x, int* y) {
  *y = atomic_load_explicit(x, memory_order_relaxed);
  while (atomic_compare_exchange_strong_explicit(x, y, *y + 1, memory_order_relaxed, memory_order_relaxed) == 0) {}
}
P1 (atomic_int* x) { atomic_store_explicit(x, 2, memory_order_relaxed); }
exists (x=2)
`
	sbC = `C SB
{}
P0 (atomic_int* x, atomic_int* y) { atomic_store_explicit(x, 1, memory_order_relaxed); int r0 = atomic_load_explicit(y, memory_order_relaxed); }
P1 (atomic_int* x, atomic_int* y) { atomic_store_explicit(y, 1, memory_order_relaxed); int r0 = atomic_load_explicit(x, memory_order_relaxed); }
exists (0:r0=0 /\ 1:r0=0)
`
)

func parseC(t *testing.T, src string) (*spec.Test, []string) {
	t.Helper()
	lt, err := litmus.Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	fe, err := litmus.Lookup("C")
	if err != nil {
		t.Fatal(err)
	}
	return lt, fe.Tags()
}

// TestGraphEngineLitmus: on litmus tests, the graph engine answers as
// the explicit engine does, counts, states, flags and the bound's cut
// included, under every -unroll.
func TestGraphEngineLitmus(t *testing.T) {
	for _, c := range []struct {
		src, model string
		bound      int
	}{
		{spinC, "rc11", 0}, {spinC, "rc11", 1}, {spinC, "rc11", -1}, {spinC, "sc", 3},
		{casC, "rc11", 1}, {casC, "imm", 1}, {casC, "tso", 1}, {casC, "sc", -1},
		{sbC, "rc11", 0}, {sbC, "sc", 0},
	} {
		lt, tags := parseC(t, c.src)
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		name := lt.Name + "/" + c.model
		opts := Options{Bound: c.bound}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		want := builtinEngines["enum"](ctx, lt, m, c.model, tags, opts)
		got := builtinEngines["graph"](ctx, lt, m, c.model, tags, opts)
		cancel()
		t.Logf("%s -unroll %d: explicit %v, graph %v", name, c.bound, want.Time, got.Time)
		if want.Status != result.Done || got.Status != result.Done {
			t.Errorf("%s -unroll %d: explicit engine %s (%v), graph engine %s (%v)", name, c.bound, want.Status, want.Err, got.Status, got.Err)
			continue
		}
		if d := Compare(want, got); d != "" || want.Positive != got.Positive || want.Negative != got.Negative || want.Bounded != got.Bounded {
			t.Errorf("%s -unroll %d: %s; explicit %d+%d bounded %v, graph %d+%d bounded %v", name, c.bound, d,
				want.Positive, want.Negative, want.Bounded, got.Positive, got.Negative, got.Bounded)
		}
	}
}

// TestGraphEngineRefuses: a model the graph engine does not decide (C11,
// whose po ∪ rf may be cyclic; a model from a file) is refused by name.
func TestGraphEngineRefuses(t *testing.T) {
	lt, tags := parseC(t, sbC)
	m, err := cat.LoadBuiltin("c11")
	if err != nil {
		t.Fatal(err)
	}
	r := builtinEngines["graph"](context.Background(), lt, m, "c11", tags, Options{})
	if r.Status != result.Unsupported || r.Err == nil {
		t.Errorf("c11: %s (%v), want unsupported", r.Status, r.Err)
	}
	// The built-in rc11 under another name is a model from a file for
	// the engine's purposes: its name does not say what it is.
	m, err = cat.LoadBuiltin("rc11")
	if err != nil {
		t.Fatal(err)
	}
	if r := builtinEngines["graph"](context.Background(), lt, m, "sc", tags, Options{}); r.Status != result.Unsupported {
		t.Errorf("rc11 loaded as sc: %s, want unsupported", r.Status)
	}
}

// TestBothFallsBackToGraph: when the explicit engine reaches the time
// limit, -engine both compares the graph engine with the SMT engine on
// the models the graph engine decides; on the others the SMT engine's
// answer is given, unconfirmed (the time-out named).
func TestBothFallsBackToGraph(t *testing.T) {
	lt, tags := parseC(t, casC)
	for _, c := range []struct {
		model       string
		wantStatus  result.Status
		unconfirmed string
	}{
		{"rc11", result.Done, ""},
		{"c11", result.Done, "enum: timeout (limit 30s)"},
	} {
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		// The explicit engine's answer: the time limit reached.
		opts := Options{Engine: "both", Timeout: 30 * time.Second, Engines: map[string]Engine{"enum": fake("enum", result.Timeout, nil, 0)}}
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
		r, d := runBoth(ctx, lt, m, c.model, tags, opts)
		cancel()
		if d != nil {
			t.Errorf("%s: %v", c.model, d)
			continue
		}
		if r.Status != c.wantStatus || r.Unconfirmed != c.unconfirmed {
			t.Errorf("%s: %s (%v), unconfirmed %q; want %s, %q", c.model, r.Status, r.Err, r.Unconfirmed, c.wantStatus, c.unconfirmed)
		}
	}
}

// TestPortfolioGraph: under auto, the graph engine takes the explicit
// engine's place after AutoDelay where it decides the model.
func TestPortfolioGraph(t *testing.T) {
	defer func(d time.Duration) { AutoDelay = d }(AutoDelay)
	AutoDelay = 20 * time.Millisecond
	m, err := cat.LoadBuiltin("rc11")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model, want string
	}{
		{"rc11", "graph"},
		{"m", "pruned"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		opts := Options{Engines: map[string]Engine{
			"enum":   fake("enum", result.Done, nil, time.Hour),
			"smt":    fake("smt", result.Done, nil, time.Hour),
			"pruned": fake("pruned", result.Done, nil, 10*time.Millisecond),
			"graph":  fake("graph", result.Done, nil, 10*time.Millisecond),
		}}
		r := runAuto(ctx, &spec.Test{}, m, c.model, nil, opts)
		cancel()
		if r.Engine != c.want || r.Status != result.Done {
			t.Errorf("model %s: answer by %s (%s), want %s", c.model, r.Engine, r.Status, c.want)
		}
	}
}
