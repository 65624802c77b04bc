package param

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSharedLitsCrash: a TSO system whose weak arrays are updated for
// every process with case expressions, by several weak transitions. The
// cubes built for the rf and fr choices of one pre-image shared the
// backing array of their literals, so one cube kept a literal over a
// read the other had satisfied: the node it named was gone, and the
// fixpoint test indexed the nodes with -1.
func TestSharedLitsCrash(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "nodefault", "tso_case_crash.cub"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Verify(context.Background(), sys, Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if cc := SelfCheck(context.Background(), sys, res, Options{}, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
		t.Errorf("%s: %s", res.Verdict, cc)
	}
}

// TestSelfCheckFiles: systems the cross-check found wrong verdicts on
// (testdata/selfcheck), with the verdict of their finite instances.
// rf_later_write, own_late and pso_late need a read whose source is a
// write that reaches memory after the write of a later transition (the
// "late" rffr pick, model.go). wide_write's trace writes four cells in
// one step: its replay needs buffers of more than selfBufCap writes.
// const_invariant's explorer needs the values of a constant array before
// those of a larger array (initials' order). transition_writes needs
// the explorer to flush the writes of one transition together, as
// Cubicle-W and the search take them.
func TestSelfCheckFiles(t *testing.T) {
	tests := []struct {
		file  string
		model string
		want  Verdict
	}{
		{"own_buffers.cub", "", Unsafe},
		{"co_buffered_write.cub", "", Unsafe},
		{"rf_later_write.cub", "", Unsafe},
		{"own_late.cub", "", Unsafe},
		{"pso_late.cub", "", Safe},
		{"pso_late.cub", "pso", Unsafe},
		{"wide_write.cub", "", Unsafe},
		{"const_invariant.cub", "", Unsafe},
		{"transition_writes.cub", "", Safe},
		{"transition_writes.cub", "pso", Safe},
		{"transition_writes_split.cub", "", Unsafe},
		{"transition_writes_split.cub", "pso", Unsafe},
		{"neg_init.cub", "", Unsafe},
		// initial numbers magnitudes apart, and a trace without processes
		// (Cubicle's arith/unsafe/unsafe3.cub: "no instance fits")
		{"far_init.cub", "", Unsafe},
		// two transitions of one name (Cubicle's german.ctc.cub): the
		// replay took the last one only
		{"same_name.cub", "", Unsafe},
		// init makes numbers equal, invariants keep others apart
		// (Cubicle's tests/cubicle/lamportn.cub): TestInitialsEqualCells
		{"init_equal_cells.cub", "", Unsafe},
		// a non-weak variable no transition assigns orders nothing: no
		// late sources (check.go, sharedSC); "unknown" before
		{"readonly_sc.cub", "", Safe},
		// a bug twelve steps deep through three store buffers (the
		// forward hunt's test, TestHunt)
		{"deep_buffers.cub", "", Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.model, func(t *testing.T) {
			sys, err := ParseFile(filepath.Join("testdata", "selfcheck", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Timeout: 20 * time.Second, Model: tc.model}
			res, err := Verify(context.Background(), sys, opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.want {
				t.Errorf("got %s, want %s", res.Verdict, tc.want)
			}
			if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
				t.Errorf("%s: %s", res.Verdict, cc)
			}
		})
	}
}

// TestExplorerModels: the one explorer under each memory model. A
// claimed SAFE verdict for pso_late.cub is refuted by the PSO instance
// (a write to Y reaches memory before an earlier write to X) and not by
// the TSO one; the path to the bad state names the flushes.
func TestExplorerModels(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "pso_late.cub"))
	if err != nil {
		t.Fatal(err)
	}
	safe := &Result{Verdict: Safe}
	if cc := SelfCheck(context.Background(), sys, safe, Options{}, 20000); !cc.OK() {
		t.Errorf("TSO: %s", cc)
	}
	cc := SelfCheck(context.Background(), sys, safe, Options{Model: "pso"}, 20000)
	if cc.OK() {
		t.Fatalf("PSO: a SAFE claim is not refuted:\n%s", cc)
	}
	if p := cc.Problems[0]; !strings.Contains(p, "flush(#1)") || !strings.Contains(p, "rmw(#2)") {
		t.Errorf("PSO: the path should name the flushes and the steps: %s", p)
	}
	for _, m := range []memModel{modelTSO, modelPSO} {
		f := newExplorer(sys, 2, m, 2)
		smp := f.explore(nil, f.initials(func(int) int64 { return 0 }), 10000)
		if !smp.complete || len(smp.states) == 0 {
			t.Errorf("%s: %d states, complete %v", m, len(smp.states), smp.complete)
		}
	}
}

// TestSelfCheckConfirmBudget: the cross-check of an UNSAFE trace that
// does not replay in its order searches the instances with at least the
// budget with which Verify confirmed it (testdata/selfcheck/
// confirm_budget.cub: confirmed on 3 processes, not within 2000 states).
func TestSelfCheckConfirmBudget(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "confirm_budget.cub"))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{MaxNodes: 60, Timeout: 20 * time.Second}
	res, err := Verify(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Unsafe {
		t.Fatalf("got %s, want UNSAFE", res.Verdict)
	}
	if cc := SelfCheck(context.Background(), sys, res, opts, 2000); !cc.OK() {
		t.Errorf("%s", cc)
	}
}

// TestExplorerBigNumbers: numbers that grow past int64 (testdata/
// selfcheck/big_numbers.cub: X and Y stay positive, sevenfold and
// fivefold a step) must not wrap around in the explorers. Wrapped, X
// "reached" X <= 0, which refuted a SAFE claim (and confirmed a wrong
// UNSAFE: the search's own path, weakened past 2^40, see the
// constructs test "coefficients past 2^40: no path").
func TestExplorerBigNumbers(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "big_numbers.cub"))
	if err != nil {
		t.Fatal(err)
	}
	if cc := SelfCheck(context.Background(), sys, &Result{Verdict: Safe}, Options{}, 20000); !cc.OK() {
		t.Errorf("a false bad state: %s", cc)
	}
	for _, tc := range []struct {
		s, k, v, want int64
		ok            bool
	}{
		{1, 2, 3, 7, true},
		{0, -4, 5, -20, true},
		{-1, -3, -3, 8, true},
		{0, 1 << 32, 1 << 31, 0, false},
		{0, 3, 1 << 62, 0, false},
		{math.MaxInt64 - 1, 1, 2, 0, false},
		{math.MinInt64 + 1, -1, 2, 0, false},
		{math.MinInt64 + 2, -1, 2, math.MinInt64, true},
	} {
		got, ok := addMulInt(tc.s, tc.k, tc.v)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("addMulInt(%d, %d, %d) = %d, %v; want %d, %v", tc.s, tc.k, tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

// TestInitialsEqualCells: the explorers draw the numbers init leaves free
// cell by cell; the cells init makes equal (X = Null, Y = Null) take one
// value (equalCells), so that the draw of values far apart, which the
// invariants over ID need, leaves an initial state (it left none, and
// the cross-check of Cubicle's tests/cubicle/lamportnus.cub found no
// initial state for any instance: "unknown" instead of UNSAFE).
func TestInitialsEqualCells(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "init_equal_cells.cub"))
	if err != nil {
		t.Fatal(err)
	}
	for n := int32(2); n <= 4; n++ {
		f := newExplorer(sys, n, modelOf(sys, ""), 4)
		if got := len(f.initials(func(c int) int64 { return 1000 + 7*int64(c) })); got != 1 {
			t.Errorf("%d processes: %d initial states, want 1", n, got)
		}
	}
}
