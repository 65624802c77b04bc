package litmus

import (
	"strings"
	"testing"
)

// TestBadInput: what a new user gets wrong is reported at its place, with
// the register, the thread and the instruction named, and non-ASCII shown
// as the character it is. Columns count bytes from 1.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"register never set (PPC)", "PPC a\n{0:r2=x;}\n P0           | P1 ;\n lwz r1,0(r5) | li r9,1 ;\n stw r1,0(r2) | stw r9,0(r3) ;\nexists (0:r1=1)\n",
			`t.litmus:4:2: P0: register r5 is used as an address by "lwz r1,0(r5)" but never set: give it a location in the initial state (0:r5=x) or write it before` + "\n" +
				`t.litmus:5:17: P1: register r3 is used as an address by "stw r9,0(r3)" but never set: give it a location in the initial state (1:r3=x) or write it before`},
		{"register never set (AArch64)", "AArch64 c\n{0:X1=x;}\n P0 ;\n MOV W0,#1 ;\n STR W0,[X2] ;\nexists (x=1)\n",
			`t.litmus:5:2: P0: register X2 is used as an address by "STR W0,[X2]" but never set`},
		{"register never set (RISC-V)", "RISCV d\n{0:x6=x;}\n P0 ;\n lw x5,0(x7) ;\nexists (0:x5=1)\n",
			`t.litmus:4:2: P0: register x7 is used as an address by "lw x5,0(x7)" but never set`},
		{"register never set (X86)", "X86 b\n{x=0;}\n P0 ;\n MOV EAX,[EDX] ;\nexists (0:EAX=1)\n",
			`t.litmus:4:2: P0: register EDX is used as an address by "MOV EAX,[EDX]" but never set`},
		{"zero register given a value (AArch64)", "AArch64 z\n{0:XZR=1; 0:WZR=0;}\n P0 ;\n ADD X6,XZR,#0 ;\nexists (0:XZR=1)\n",
			`t.litmus:2:2: XZR is the zero register: it reads 0 whatever it is given; give it no initial value, or 0`},
		{"zero register given an address (AArch64)", "AArch64 z\n{0:WZR=x;}\n P0 ;\n ADD X6,XZR,#0 ;\nexists (0:X6=1)\n",
			`t.litmus:2:2: WZR is the zero register`},
		{"zero register given a value (RISC-V)", "RISCV z\n{0:x0=1;}\n P0 ;\n addi x6,x0,0 ;\nexists (0:x6=1)\n",
			`t.litmus:2:2: x0 is the zero register`},
		{"zero register given a value (MIPS)", "MIPS z\n{0:$0=1;}\n P0 ;\n addiu $6,$0,0 ;\nexists (0:$6=1)\n",
			`t.litmus:2:2: $0 is the zero register`},
		{"unknown register in the init", "X86 b\n{x=0; 1:EQX=1}\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x] ;\nexists (1:EAX=1)\n",
			`t.litmus:2:9: unknown X86 register "EQX" of thread P1`},
		{"unknown register in the condition", "AArch64 c\n{0:X1=x;}\n P0 ;\n LDR W0,[X1] ;\nexists (0:X44=1)\n",
			`t.litmus:5:11: unknown AArch64 register "X44" of thread P0`},
		{"not a register (PPC)", "PPC a\n{0:r1=x;}\n P0 ;\n li r44,1 ;\nexists (0:r1=1)\n",
			`t.litmus:4:5: operand 1 of li must be a register: "r44" is not a PPC register`},
		{"not a register (RISC-V)", "RISCV a\n{0:x6=x;}\n P0 ;\n addi x5,x66,1 ;\nexists (0:x5=1)\n",
			`t.litmus:4:10: addi: operand 2 must be a register: "x66" is not a RISC-V register`},
		{"not a register (ARM)", "ARM a\n{0:R1=x;}\n P0 ;\n MOV R20,#1 ;\nexists (0:R0=1)\n",
			`t.litmus:4:6: MOV needs a register as operand 1: "R20" is not an ARM register`},
		{"no instruction (ARM)", "ARM a\n{0:R1=x;}\n P0 ;\n 1: NOP ;\nexists (0:R0=1)\n",
			`t.litmus:4:2: expected an ARM instruction, found "1"`},
		{"not a register (AArch64)", "AArch64 a\n{0:X1=x;}\n P0 ;\n STR W44,[X1] ;\nexists (0:X0=1)\n",
			`t.litmus:4:6: STR needs a register as operand 1: "W44" is not an AArch64 register`},
		{"non-ASCII in an instruction", "X86 f\n\"naïve – ü\"\n{x=0;}\n P0 ;\n MOV EAX,[x] é;\nexists (0:EAX=1)\n",
			`t.litmus:5:14: unexpected 'é' (U+00E9) in x86 instruction`},
		{"non-ASCII after non-ASCII (byte columns)", "X86 f\n{x=0;}\n P0 ;\n MOV EAX,[x] (* ü *) é;\nexists (0:EAX=1)\n",
			`t.litmus:4:23: unexpected 'é' (U+00E9) in x86 instruction`},
		{"non-ASCII in the condition", "X86 f\n{x=0;}\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1 ∧ x=1)\n",
			`t.litmus:5:17: expected ')' to close the condition, found character '∧' (U+2227)`},
		{"invalid UTF-8 in the condition", "X86 f\n{x=0;}\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1 \xff x=1)\n",
			`t.litmus:5:17: expected ')' to close the condition, found character byte 0xff (not UTF-8)`},
		{"non-ASCII in C", "C e\n{ x = 0; }\nP0(int *x) { int r0 = READ_ONCE(*x) ≠ 1; }\nexists (0:r0=1)\n",
			`t.litmus:3:37: expected ';' after the declaration, found character '≠' (U+2260)`},
		{"non-ASCII in the header", "X86 t\n{x=0;}\n",
			""},
		{"truncated in the table", "X86 t\n{x=0;}\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[x] ;\n",
			`t.litmus:5:1: missing the final condition (exists, ~exists or forall, or a locations clause): is the file truncated?`},
		{"truncated in a row", "X86 t\n{x=0;}\n P0 | P1 ;\n MOV [x],$1 | MOV EA",
			`t.litmus:4:21: missing ';' at the end of the row`},
	} {
		if tc.want == "" {
			continue
		}
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
	// Locations alone (no condition) remain a test, as herd7 reads them.
	if _, err := Parse("t.litmus", []byte("X86 t\n{x=0;}\n P0 ;\n MOV [x],$1 ;\nlocations [x;]\n")); err != nil {
		t.Errorf("locations without a condition: %v", err)
	}
}

// TestDeepInput: hostile nesting gives an error, never a stack overflow.
func TestDeepInput(t *testing.T) {
	deep := strings.Repeat("(", 100000)
	for name, src := range map[string]string{
		"condition": "X86 t\n{x=0;}\n P0 ;\n MOV [x],$1 ;\nexists " + deep + "x=1" + strings.Repeat(")", 100000) + "\n",
		"negations": "X86 t\n{x=0;}\n P0 ;\n MOV [x],$1 ;\nexists " + strings.Repeat("~", 100000) + "x=1\n",
		"C blocks":  "C t\n{ x = 0; }\nP0(int *x) " + strings.Repeat("{", 100000) + strings.Repeat("}", 100000) + "\nexists (x=1)\n",
		"C parens":  "C t\n{ x = 0; }\nP0(int *x) { int r0 = " + deep + "1" + strings.Repeat(")", 100000) + "; }\nexists (x=1)\n",
	} {
		if _, err := Parse("t.litmus", []byte(src)); err == nil || !strings.Contains(err.Error(), "t.litmus:") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
