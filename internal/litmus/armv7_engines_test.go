package litmus_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestARMArrayLitmus runs the ARM tests of testdata/arm under the
// built-in armv7 model with both engines; each file says why its verdict
// is the right one. An immediate offset on a location that is not an
// array is still refused by name.
func TestARMArrayLitmus(t *testing.T) {
	runEngineCases(t, "armv7", "ARM", "arm", 60*time.Second, []engineCase{
		{file: "ARRAY", ok: true, states: 1},
		{file: "LDRD+STRD", ok: true, states: 1},
		{file: "LDM+STM", ok: true, states: 1},
		{file: "COND", ok: true, states: 1},
		{file: "MOVT+wide", ok: true, states: 1},
		{file: "MP+ret", ok: false, states: 2},
		{file: "SYMREGS", ok: true, states: 3},
	})
	src, err := os.ReadFile("testdata/arm/MOVT+wide.litmus")
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse("MOVT+wide.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lt.ConditionLine(), `forall (0:R0=-1091633152 /\ 0:R1=-2147483648 /\ 0:R2=-1)`; got != want {
		t.Errorf("MOVT+wide: condition line %s, want %s (at 32 bits, as herd7 prints it)", got, want)
	}
	for _, tc := range []struct{ code, want string }{
		// LDRD's second word is past a location that is not an array.
		{"LDRD R2,R3,[R0]", "t.litmus:4:3: unsupported ARM access with immediate offset #4"},
		{"LDRD R2,R2,[R0]", "t.litmus:4:11: LDRD with Rt2 = Rt is unpredictable"},
		{"LDRD R14,[R0]", "t.litmus:4:8: LDRD with one register needs Rt below R14"},
		{"LDRD R2", "t.litmus:4:3: LDRD takes 2 or 3 operands, found 1"},
		{"LDRB R2,[R0]", "unsupported ARM instruction LDRB: byte and half-word accesses (mixed-size) are not supported"},
		{"LDM R0, {R2, R3}", "t.litmus:4:3: unsupported ARM access with immediate offset #4"},
		{"LDM R0!, {R2}", "t.litmus:4:7: unsupported ARM addressing mode: write-back R0! in LDM"},
		{"LDM R0, R2", "t.litmus:4:11: expected a register list {R1, ...} as operand 2 of LDM"},
		{"LDM R0, {R2 R3}", "t.litmus:4:15: expected ',' between the registers of LDM"},
		{"LDM R0, {R2, X}", "t.litmus:4:16: expected a register in the register list of LDM, found \"X\""},
		{"LDMFD R0, {R2}", "unsupported ARM instruction LDMFD: this form of multiple-register access is not supported"},
		{"PUSH {R2}", "unsupported ARM instruction PUSH: stack accesses are not supported"},
		{"ADDSEQ R2,R2,#1", "unsupported ARM instruction ADDSEQ: conditional execution is supported for"},
		{"LDR R2, [IP]", ""},
		{"BX R2", "t.litmus:4:3: unsupported jump through register R2 of P0: a computed jump is supported only to a code label the register holds from the initial state (0:R2=P0:label)"},
		{"BL f", "unsupported ARM instruction BL: calls and register branches are not supported"},
	} {
		_, err := litmus.Parse("t.litmus", []byte("ARM T\n{ 0:R0=x; 0:R12=x }\nP0;\n  "+tc.code+";\nexists (0:R2 = 2)\n"))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q", tc.code, err, tc.want)
		}
	}
	_, err = litmus.Parse("t.litmus", []byte("ARM T\n{ 0:R0=x }\nP0;\n  LDR R1, [R0,#4];\nexists (0:R1 = 2)\n"))
	if want := "t.litmus:4:3: unsupported ARM access with immediate offset #4"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("immediate offset outside an array: error %v, want %q", err, want)
	}
}
