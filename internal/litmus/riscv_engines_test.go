package litmus_test

import (
	"testing"
	"time"
)

// TestRISCVInstructionLitmus runs the litmus tests of testdata/riscv
// under the built-in riscv model with both engines; each file says why
// its verdict is the right one.
func TestRISCVInstructionLitmus(t *testing.T) {
	runEngineCases(t, "riscv", "RISCV", "riscv", 60*time.Second, []engineCase{
		{file: "UNSIGNED", ok: true, states: 1},
		{file: "WORD", ok: true, states: 1},
		{file: "PSEUDO", ok: true, states: 1},
		{file: "REGTYPE", ok: true, states: 1},
	})
}
