package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestIMMPowerBudget checks the graph engine's budget beside the SMT
// engine under -target power (immThenPower): seqlock3.c's IMM run checks
// about 1,700 graphs. Within the budget the graph engine's PASS is the
// answer; with a budget of none it pauses at its first call of Pace
// (1,024 graphs) and the SMT engine answers, with the same verdict.
func TestIMMPowerBudget(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	file := filepath.Join("..", "..", "internal", "cfront", "testdata", "seqlock3.c")
	saved := graphBudget
	defer func() { graphBudget = saved }()
	for _, c := range []struct {
		budget int
		out    string
	}{
		{saved, "answered through IMM"},
		{0, "IMM shortcut not taken: the SMT engine answered first"},
	} {
		graphBudget = c.budget
		var stdout, stderr bytes.Buffer
		code := runCheck([]string{"-target", "power", "-stats", file}, &stdout, &stderr)
		if code != exitOK || !strings.Contains(stdout.String(), "seqlock3: PASS") || !strings.Contains(stdout.String(), c.out) {
			t.Errorf("budget %d: exit %d, want %d; stdout %q, stderr %q", c.budget, code, exitOK, stdout.String(), stderr.String())
		}
	}
}

// TestIMMPowerBound checks BOUND under -target power through IMM and SC
// (cfront.SCForPowerBound): taken when an execution past the bound exists
// under SC, not when only IMM has one (the SMT engine's BOUND is then the
// answer; the two programs are BOUND under Power, by the SMT engine).
func TestIMMPowerBound(t *testing.T) {
	testcorpus.NeedProgram(t, cfront.Clang)
	dir := filepath.Join("..", "..", "internal", "cfront", "testdata", "immpower")
	for _, c := range []struct {
		args []string
		out  string
	}{
		{[]string{"-stats", "bound_sc.c"}, "answered through IMM: the graph engine under IMM found no failure, so none under Power"},
		{[]string{"-engine", "smt", "bound_sc.c"}, "bound_sc: BOUND"},
		{[]string{"-stats", "bound_weak.c"}, "IMM shortcut not taken: the graph engine under IMM answered BOUND, which says nothing about Power, and under SC answered PASS"},
	} {
		args := append([]string{"-target", "power"}, c.args...)
		args[len(args)-1] = filepath.Join(dir, args[len(args)-1])
		var stdout, stderr bytes.Buffer
		code := runCheck(args, &stdout, &stderr)
		if code != exitLimit || !strings.Contains(stdout.String(), ": BOUND (") || !strings.Contains(stdout.String(), c.out) {
			t.Errorf("check %v: exit %d, want %d; stdout %q, stderr %q", c.args, code, exitLimit, stdout.String(), stderr.String())
		}
	}
}
