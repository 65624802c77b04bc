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
