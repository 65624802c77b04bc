package litmus_test

import (
	"testing"
	"time"
)

// TestInstrValues runs tests whose values are herd7's instructions
// (instr:"..." and NOP, as ARM A027 and PPC A017 write them) with both
// engines: stored, read back and compared like addresses, ordered by the
// models as any value.
func TestInstrValues(t *testing.T) {
	runEngineCases(t, "armv7", "ARM", "arm", 60*time.Second, []engineCase{{file: "INSTR", ok: false, states: 3}})
	runEngineCases(t, "power", "PPC", "ppc", 60*time.Second, []engineCase{{file: "INSTR", ok: true, states: 2}})
}
