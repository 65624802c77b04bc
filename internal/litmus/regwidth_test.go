package litmus_test

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/spec"
)

// TestRegisterAtomWidth checks how a register atom is rewritten on the
// bits of the register's type (regwidth.go), and that the condition line
// stays as written.
func TestRegisterAtomWidth(t *testing.T) {
	for _, tc := range []struct {
		arch, init, cond string
		want             string // the rewritten condition (spec.HerdCond)
	}{
		// A small non-negative constant is left as written.
		{"RISCV", "", "0:x5=1", "0:x5=1"},
		// int (the default): the sign and the zero extension of the low 32 bits.
		{"RISCV", "", "0:x5=0xffffffff", "0:x5=-1 \\/ 0:x5=4294967295"},
		{"RISCV", "", "0:x5=-1", "0:x5=-1 \\/ 0:x5=4294967295"},
		{"RISCV", "", "0:x5!=-1", "not (0:x5=-1 \\/ 0:x5=4294967295)"},
		// Bits above the type's are dropped, as herd's mask does.
		{"RISCV", "", "0:x5=0x100000001", "0:x5=1"},
		{"AArch64", "int8_t 0:X1=0;", "0:X1=0x80", "0:X1=-128 \\/ 0:X1=128"},
		// 64-bit and pointer types, and addresses, are compared whole.
		{"RISCV", "uint64_t 0:x5=0;", "0:x5=0xffffffff", "0:x5=4294967295"},
		{"RISCV", "int64_t 0:x5=0;", "0:x5=-1", "0:x5=-1"},
		{"RISCV", "int *0:x5=x;", "0:x5=-1", "0:x5=-1"},
		{"RISCV", "", "0:x2=x", "0:x2=x"},
		// Locations are not rewritten here, nor are 32-bit machines' registers.
		{"RISCV", "", "x=-1", "[x]=-1"},
		{"X86", "", "0:EAX=-1", "0:EAX=-1"},
	} {
		var src string
		switch tc.arch {
		case "RISCV":
			src = tc.arch + " T\n{ " + tc.init + " 0:x2=x; }\n P0 ;\n lw x5,0(x2) ;\nexists (" + tc.cond + ")\n"
		case "AArch64":
			src = tc.arch + " T\n{ " + tc.init + " 0:X2=x; }\n P0 ;\n LDR W1,[X2] ;\nexists (" + tc.cond + ")\n"
		case "X86":
			src = tc.arch + " T\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (" + tc.cond + ")\n"
		}
		lt, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s %q: %v", tc.arch, tc.cond, err)
			continue
		}
		if got := spec.HerdCond(lt.Cond); got != tc.want {
			t.Errorf("%s %q: condition %s, want %s", tc.arch, tc.cond, got, tc.want)
		}
		// The line printed is the condition as written: no disjunction.
		if line := lt.ConditionLine(); strings.Contains(line, `\/`) {
			t.Errorf("%s %q: condition line %q", tc.arch, tc.cond, line)
		}
	}
}
