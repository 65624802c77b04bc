package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestAsmCommands runs the commands of issue 7 on the bundled case
// studies: check on assembly litmus tests with loops, and prove.
func TestAsmCommands(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"check mp pso", []string{"check", "-model", "pso", "-bound", "1", "../../examples/asm/mp.litmus"}, 1, []string{"MP: REACHABLE exists (1:o2=0)", "model pso, bound 1"}},
		{"check mp tso bounded", []string{"check", "-model", "tso", "-bound", "1", "../../examples/asm/mp.litmus"}, 3, []string{"MP: BOUND", "some path needs more than 1 iterations of a loop: raise -bound"}},
		{"check no loops", []string{"check", "-model", "tso", "-bound", "0", "../../examples/asm/pso-bug.litmus"}, 0, []string{"UNREACHABLE"}},
		{"check default model", []string{"check", "-bound", "1", "../../examples/asm/arm-mp.litmus"}, 1, []string{"REACHABLE", "model armv7"}},
		{"check json", []string{"check", "-json", "-model", "pso", "-bound", "1", "../../examples/asm/mp.litmus"}, 1, []string{`"verdict":"REACHABLE"`, `"bounded":true`}},
		{"check pts still", []string{"check", "-bound", "1", "../../../shared/corpus/mutex/pts/Parker.pts"}, 3, []string{"Parker: BOUND"}},
		{"check bad file", []string{"check", "-model", "sc", "nosuch.litmus"}, 2, nil},
		{"prove toppers tso", []string{"prove", "-model", "tso", "../../examples/asm/toppers-spinlock.litmus"}, 0, []string{"toppers-spinlock: proved (model tso"}},
		{"prove mp pso", []string{"prove", "-model", "pso", "../../examples/asm/mp.litmus"}, 1, []string{"MP: not proved (model pso): possible violation"}},
		{"prove writing loop", []string{"prove", "-model", "pso", "../../examples/asm/tas-spinlock.litmus"}, 0, []string{"tas-spinlock: proved (model pso"}},
		{"prove writing loop bug", []string{"prove", "-model", "sc", "../../examples/asm/tas-spinlock-bug.litmus"}, 1, []string{"tas-spinlock-bug: not proved (model sc): possible violation", "arbitrary earlier iterations: P0:L 2, P1:L 2"}},
		{"prove counter", []string{"prove", "-model", "tso", "../../examples/asm/counter.litmus"}, 0, []string{"counter: proved (model tso"}},
		{"prove refuses armv7", []string{"prove", "-model", "armv7", "../../examples/asm/arm-mp.litmus"}, 2, nil},
		{"prove without model", []string{"prove", "../../examples/asm/mp.litmus"}, 2, nil},
		{"prove no invariant", []string{"prove", "-model", "sc", "../../examples/asm/dekker.litmus"}, 2, nil},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %s, stderr %s)", tc.name, code, tc.code, out.String(), errb.String())
		}
		for _, w := range tc.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, out.String())
			}
		}
	}
}
