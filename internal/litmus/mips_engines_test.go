package litmus_test

import (
	"testing"
	"time"
)

// TestMIPSLitmus runs the MIPS tests of testdata/mips with both engines
// under the built-in model mips and, when the corpus' reference library
// is present, under herd7 7.58's own mips.cat read by the cat
// interpreter: the verdicts are those of the model's axioms (writes may
// pass writes, reads keep their order, sync orders all, ll/sc atomic).
func TestMIPSLitmus(t *testing.T) {
	cases := []engineCase{
		{file: "MP", ok: true, states: 4},
		{file: "MP+sync+po", ok: false, states: 3},
		{file: "SB", ok: true, states: 4},
		{file: "SB+syncs", ok: false, states: 3},
		{file: "LLSC+inc", ok: false, states: 4},
		{file: "LB+ctrl-ret", ok: false, states: 3},
		{file: "ALU", ok: true, states: 1},
	}
	runEngineCasesHerd(t, "mips", "MIPS", "mips", 60*time.Second, cases)
}
