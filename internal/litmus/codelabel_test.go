package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestCodeLabelJumps: a jump through a register holding a code label from
// the initial state is a jump to that label (herd7's ARM A015, MIPS
// A006); every other use of a code label is refused by name.
func TestCodeLabelJumps(t *testing.T) {
	for _, tc := range []struct{ name, src, err string }{
		{"ARM BX", "ARM t\n{ 0:R0=P0:foo; }\n P0 ;\n BX R0 ;\n MOV R1,#1 ;\n foo: ;\nforall (0:R1=0)\n", ""},
		{"MIPS jr", "MIPS t\n{ 0:a0=P0:L1; }\n P0 ;\n jr a0 ;\n li $5,2 ;\n L1: nop ;\nforall (0:a1=0)\n", ""},
		{"no label", "ARM t\n{ 0:R0=1; }\n P0 ;\n BX R0 ;\nforall (0:R1=0)\n",
			"t.litmus:4:2: unsupported jump through register R0 of P0: a computed jump is supported only to a code label the register holds from the initial state (0:R0=P0:label)"},
		{"other thread", "ARM t\n{ 0:R0=P1:foo; }\n P0 | P1 ;\n BX R0 | foo: ;\nforall (0:R1=0)\n",
			"t.litmus:4:2: unsupported jump through register R0 of P0 to a label of P1: a jump into another thread's code"},
		{"undefined", "ARM t\n{ 0:R0=P0:bar; }\n P0 ;\n BX R0 ;\nforall (0:R1=0)\n",
			"t.litmus:4:2: jump through register R0 of P0 to undefined label bar"},
		{"written", "ARM t\n{ 0:R0=P0:foo; }\n P0 ;\n MOV R0,#2 ;\n BX R0 ;\n foo: ;\nforall (0:R1=0)\n",
			"t.litmus:4:2: unsupported initial value: register R0 of P0 holds the code label P0:foo, and an instruction writes it (code labels are supported only as the target of a jump through a register)"},
		{"read", "ARM t\n{ 0:R0=P0:foo; 0:R2=x; }\n P0 ;\n STR R0,[R2] ;\n foo: ;\nforall (0:R1=0)\n",
			"t.litmus:4:2: unsupported initial value: register R0 of P0 holds the code label P0:foo, and an instruction reads it (code labels are supported only as the target of a jump through a register)"},
		{"twice", "ARM t\n{ 0:R0=P0:foo; 0:R0=P0:foo; }\n P0 ;\n BX R0 ;\n foo: ;\nforall (0:R1=0)\n",
			"t.litmus:2:21: 0:R0 is given an initial value twice"},
	} {
		lt, err := Parse("t.litmus", []byte(tc.src))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		th := lt.Threads[0]
		if _, err := th.Labels(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		for _, in := range th.Code {
			if j, ok := in.(prog.Jump); ok && strings.HasPrefix(j.Target, indirectPrefix) {
				t.Errorf("%s: jump %v left unresolved", tc.name, j)
			}
		}
	}
}
