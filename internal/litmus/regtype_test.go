package litmus_test

import (
	"os"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// TestRegisterTypes checks how register atoms are rewritten at the
// register's type (regtype.go): the constant cut to the type's bits, the
// condition line as written, and the normalising assignment added only
// where a register may leave its type's range.
func TestRegisterTypes(t *testing.T) {
	for _, tc := range []struct {
		arch, init, code, cond string
		want                   string // the rewritten condition (spec.HerdCond)
		norm                   bool   // an assignment is appended to P0
	}{
		// Small values: nothing changes.
		{"RISCV", "", "lw x5,0(x2)", "0:x5=1", "0:x5=1", false},
		// int (the default): the constant's low 32 bits, sign-extended.
		{"RISCV", "", "lw x5,0(x2)", "0:x5=0xffffffff", "0:x5=-1", false},
		{"RISCV", "", "lw x5,0(x2)", "0:x5!=0x100000001", "not (0:x5=1)", false},
		// A value that may leave int's range: the register is normalised.
		{"RISCV", "int x=-1;", "lwu x5,0(x2)", "0:x5=-1", "0:x5=-1", true},
		{"RISCV", "uint64_t x=0x100000000;", "ld x5,0(x2)", "0:x5=0", "0:x5=0", true},
		// Unsigned narrow types: zero extension.
		{"RISCV", "int x=-1; uint16_t 0:x5=0;", "lb x5,0(x2)", "0:x5=-1", "0:x5=65535", true},
		{"AArch64", "int8_t 0:X1=0;", "LDR W1,[X2]", "0:X1=0x80", "0:X1=-128", false},
		// 64-bit and pointer types, addresses and ref comparisons: as written.
		{"RISCV", "uint64_t 0:x5=0;", "lw x5,0(x2)", "0:x5=0xffffffff", "0:x5=4294967295", false},
		{"RISCV", "int64_t 0:x5=0; int x=-1;", "lwu x5,0(x2)", "0:x5=-1", "0:x5=-1", false},
		{"RISCV", "", "lw x5,0(x2)", "0:x2=x", "0:x2=x", false},
		{"RISCV", "int x=-1;", "lwu x5,0(x2)", "0:x5=0:x2", "0:x5=0:x2", false},
		// Locations and 32-bit machines' registers are not rewritten.
		{"RISCV", "", "lw x5,0(x2)", "x=0xffffffff", "[x]=4294967295", false},
		{"X86", "", "", "0:EAX=0xffffffff", "0:EAX=4294967295", false},
	} {
		var src string
		switch tc.arch {
		case "RISCV":
			src = "RISCV T\n{ " + tc.init + " 0:x2=x; }\n P0 ;\n " + tc.code + " ;\nexists (" + tc.cond + ")\n"
		case "AArch64":
			src = "AArch64 T\n{ " + tc.init + " 0:X2=x; }\n P0 ;\n " + tc.code + " ;\nexists (" + tc.cond + ")\n"
		case "X86":
			src = "X86 T\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (" + tc.cond + ")\n"
		}
		lt, err := litmus.Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s %q: %v", tc.arch, tc.cond, err)
			continue
		}
		if got := spec.HerdCond(lt.Cond); got != tc.want {
			t.Errorf("%s %q: condition %s, want %s", tc.arch, tc.cond, got, tc.want)
		}
		// The line printed is the condition as written.
		if line := lt.ConditionLine(); strings.Contains(tc.cond, "0x") && strings.Contains(line, "-") {
			t.Errorf("%s %q: condition line %q", tc.arch, tc.cond, line)
		}
		code := lt.Threads[0].Code
		_, last := code[len(code)-1].(prog.Assign)
		if tc.arch != "X86" && last != tc.norm {
			t.Errorf("%s %q: normalising assignment %v, want %v", tc.arch, tc.cond, last, tc.norm)
		}
	}
}

// TestRegisterTypesEngines runs testdata/riscv/REGTYPE.litmus under both
// engines: the condition holds, and the state printed is herd7's, each
// register sign-extended (or masked, when unsigned) from its type.
func TestRegisterTypesEngines(t *testing.T) {
	src, err := os.ReadFile("testdata/riscv/REGTYPE.litmus")
	if err != nil {
		t.Fatal(err)
	}
	lt, err := litmus.Parse("REGTYPE.litmus", src)
	if err != nil {
		t.Fatal(err)
	}
	if line := lt.ConditionLine(); !strings.Contains(line, "0:x5=4294967295") {
		t.Errorf("condition line %q: not as written", line)
	}
	const want = "0:x10=5; 0:x5=-1; 0:x6=-1; 0:x7=18446744073709551615; 0:x8=255; 0:x9=4294967295;"
	for i, r := range runBoth(t, lt, "riscv", "RISCV") {
		engine := [2]string{"enum", "smt"}[i]
		if r.Status != result.Done || !r.Ok() || len(r.States) != 1 {
			t.Errorf("%s: %s %v, ok %v with %d states; want ok with 1", engine, r.Status, r.Err, r.Ok(), len(r.States))
			continue
		}
		if got := report.StateLine(r, r.States[0]); got != want {
			t.Errorf("%s: state %s, want %s", engine, got, want)
		}
	}
}
