package litmus

import (
	"github.com/musket-verify/musket/internal/spec"
	"testing"
)

func TestAArch64Translate(t *testing.T) {
	checkTranslations(t, a64Frontend{}, []srcWant{
		{"LDR W0,[X1]", "X0 = load [X1]"},
		{"ldr x0, [x1]", "X0 = load [X1]"},
		{"STR W0,[X1]", "store [X1] X0"},
		{"STR WZR,[X1]", "store [X1] 0"},
		{"LDR W0,[X1,#0]", "X0 = load [X1]"},
		{"LDR W0,[X1,W2,SXTW]", "X0 = load [(X1 + X2)]"},
		{"STR W0,[X1,X2]", "store [(X1 + X2)] X0"},
		{"LDR X0,[X1,X2,LSL #3]", "X0 = load [(X1 + (X2 << 3))]"},
		{"LDAR W0,[X1]", "X0 = load.A [X1]"},
		{"LDAPR W0,[X1]", "X0 = load.Q [X1]"},
		{"STLR W0,[X1]", "store.L [X1] X0"},
		{"LDXR W0,[X1]", "X0 = load.EX [X1]"},
		{"LDAXR W0,[X1]", "X0 = load.EX.A [X1]"},
		{"STXR W2,W0,[X1]", "X2 = storecond.EX [X1] X0"},
		{"STLXR W2,W0,[X1]", "X2 = storecond.EX.L [X1] X0"},
		{"SWP W0,W2,[X1]", "X2 = rmw.X/.X [X1] X0"},
		{"SWPAL W0,W2,[X1]", "X2 = rmw.X.A/.X.L [X1] X0"},
		{"SWPA W0,W2,[X1]", "X2 = rmw.X.A/.X [X1] X0"},
		{"SWPL W0,W2,[X1]", "X2 = rmw.X/.X.L [X1] X0"},
		// herd7 7.58: the write picks by Rs and the read; Rs gets the
		// read, by data from Rs (success) or the read (failure).
		{"CAS W0,W2,[X1]", "%casold = rmw.X/.X [X1] (X2 pick (X0 & 4294967295)) if ((old & 4294967295) == (X0 & 4294967295)); either goto %cas1.data; if !((%casold & 4294967295) == (X0 & 4294967295)) goto %pick2.else; X0 = ((X0 & 4294967295) pick %casold); goto %pick2.end; %pick2.else:; X0 = (%casold pick (X0 & 4294967295)); %pick2.end:; goto %cas1.end; %cas1.data:; X0 = %casold; %cas1.end:"},
		{"CASAL X0,X2,[X1]", "%casold = rmw.X.A/.X.L [X1] (X2 pick X0) if (old == X0); either goto %cas1.data; if !(%casold == X0) goto %pick2.else; X0 = (X0 pick %casold); goto %pick2.end; %pick2.else:; X0 = (%casold pick X0); %pick2.end:; goto %cas1.end; %cas1.data:; X0 = %casold; %cas1.end:"},
		{"LDADD W0,W2,[X1]", "X2 = rmw.X/.X [X1] (old + X0)"},
		{"LDADDAL W0,W2,[X1]", "X2 = rmw.X.A/.X.L [X1] (old + X0)"},
		{"LDEORL W0,W2,[X1]", "X2 = rmw.X/.X.L [X1] (old ^ X0)"},
		{"LDSETA W0,W2,[X1]", "X2 = rmw.X.A/.X [X1] (old | X0)"},
		{"LDCLR W0,W2,[X1]", "X2 = rmw.X/.X [X1] (old & ~X0)"},
		{"LDADD W0,WZR,[X1]", " = rmw.X.NoRet/.X [X1] (old + X0)"},
		{"LDADDAL W0,WZR,[X1]", " = rmw.X.NoRet/.X.L [X1] (old + X0)"},
		{"SWPA W0,WZR,[X1]; SWP X0,XZR,[X1]", " = rmw.X.NoRet/.X [X1] X0;  = rmw.X.NoRet/.X [X1] X0"},
		{"CASA WZR,W2,[X1]", " = rmw.X.NoRet/.X [X1] (X2 pick (0 & 4294967295)) if ((old & 4294967295) == (0 & 4294967295))"},
		{"STADD W0,[X1]", " = rmw.X.NoRet/.X [X1] (old + X0)"},
		{"STADDL W0,[X1]", " = rmw.X.NoRet/.X.L [X1] (old + X0)"},
		{"DMB SY; DMB ISH; DMB LD; DMB ISHST; DSB SY; dsb ld; ISB",
			"fence.DMB.SY; fence.DMB.ISH; fence.DMB.LD; fence.DMB.ISHST; fence.DSB.SY; fence.DSB.LD; fence.ISB"},
		{"MOV W0,#1; MOV X1,X0; MOV W2,#-1; MOV W3,#0x10", "X0 = 1; X1 = X0; X2 = 4294967295; X3 = 16"},
		{"MOV WZR,#1; NOP", ""},
		{"EOR W2,W0,W0; ADD X3,X3,W2,SXTW; ADD W4,W4,#1", "X2 = ((X0 ^ X0) & 4294967295); X3 = (X3 + ((X2 << 32) >> 32)); X4 = ((X4 + 1) & 4294967295)"},
		{"ADD X3,X3,W2,UXTW; ADD X3,X3,X2,SXTX", "X3 = (X3 + (X2 & 4294967295)); X3 = (X3 + X2)"},
		{"SUB X1,X2,X3; AND W1,W1,#7; ORR W5,W6,W7", "X1 = (X2 - X3); X1 = ((X1 & 7) & 4294967295); X5 = ((X6 | X7) & 4294967295)"},
		{"ADD X1,X1,X2,LSL #2", "X1 = (X1 + (X2 << 2))"},
		{"CBZ W0,L; CBNZ X1,L; L:", "if ((X0 & 4294967295) == 0) goto L; if (X1 != 0) goto L; L:"},
		{"CMP W0,#1; B.NE L; B.EQ L; B.GE L; L: B L",
			"%cmpL = ((X0 << 32) >> 32); %cmpR = 1; if (%cmpL != %cmpR) goto L; if (%cmpL == %cmpR) goto L; if (%cmpL >= %cmpR) goto L; L:; goto L"},
		{"Fail0:; MOV W6,#0", "Fail0:; X6 = 0"},
	})
}

func TestAArch64Errors(t *testing.T) {
	checkThreadErrors(t, a64Frontend{}, false, []srcWant{
		{"B .+6", `t:1:3: branch target .+6 is not an instruction of the thread`},
		{"B .-8", `t:1:3: branch target .-8 is not an instruction of the thread`},
		{"1: NOP", `t:1:1: expected an AArch64 instruction, found "1"`},
		{"FOO W0", `t:1:1: unknown AArch64 instruction "FOO"`},
		{"STLXP W0,W1,W2,[X1]", "t:1:1: unsupported AArch64 instruction STLXP: pair accesses"},
		{"LDXR W0,[X1],#4", "t:1:9: unsupported AArch64 addressing mode: post-indexed LDXR"},
		{"STLR W0,[X1,#4]!", "t:1:9: unsupported AArch64 addressing mode: pre-indexed STLR"},
		{"LDR W0", "t:1:1: LDR takes 2 operands, found 1"},
		{"LDR [X1],W0", "t:1:5: LDR needs a register as operand 1"},
		{"STR W0,X1", "t:1:8: STR needs a memory operand [Xn] as operand 2"},
		{"MOV W0,[X1]", "t:1:8: MOV needs a register or an immediate source"},
		{"DMB FOO", "t:1:5: unknown DMB option FOO"},
		{"B L", "t:1:1: jump to undefined label L"},
		{"L:; L:", "t:2:1: label L defined twice"},
		{"B.QQ L; L:", "t:1:1: unknown AArch64 branch condition B.QQ"},
		{"MOV W0,#", "t:1:1: expected an immediate number after '#'"},
		{"MOV W0,@1", `t:1:8: unexpected '@' in AArch64 instruction`},
		{"LDR W0,[X31]", `t:1:9: bad base register "X31"`},
		{"LDR W0,[X1", "t:1:9: missing ']' in memory operand of LDR"},
		{"LDADDX W0,W1,[X2]", `t:1:1: unknown AArch64 instruction "LDADDX"`},
		{"STADDA W0,[X2]", `t:1:1: unknown AArch64 instruction "STADDA"`},
		{"LDIAPP W0,W1,[X2,#8]", "t:1:14: unsupported AArch64 addressing mode: LDIAPP takes [Xn] only (its writeback forms are not modelled)"},
		{"STILP W0,W1,[X2,#-8]!", "t:1:13: unsupported AArch64 addressing mode: pre-indexed STILP (only LDR, STR, their B, H and sign-extending forms, LDP and STP have it)"},
		{"CMP W0,W1,LSL", "t:1:11: unsupported operand of CMP"},
		{"LD1 {V0.B}[2],[X0]", "t:1:1: unsupported AArch64 instruction LD1: SIMD&FP (Neon) registers are not modelled"},
		{"LDR D2,[X0]", "t:1:1: unsupported AArch64 instruction LDR: SIMD&FP (Neon) registers are not modelled"},
		{"L0: STP q0,q1,[X0]", "t:1:1: unsupported AArch64 instruction STP: SIMD&FP (Neon) registers are not modelled"},
		{"ADD V1.4S,V2.4S,V3.4S", "t:1:1: unsupported AArch64 instruction ADD: SIMD&FP (Neon) registers are not modelled"},
		{"UDF #0", "t:1:1: unsupported AArch64 instruction UDF: faults (herd7's fault events) are not modelled"},
		{"BL L; L:", "t:1:1: unsupported AArch64 instruction BL: procedure calls (the link register's return address) are not modelled"},
		{"ADR X1,x", "t:1:1: unsupported AArch64 instruction ADR: an address computed from the program counter"},
		{"L: ADR X1,L", "t:1:4: unsupported AArch64 instruction ADR: an address computed from the program counter"},
		{"LDR X0,x", "t:1:8: unsupported AArch64 instruction LDR from the label x (a load from a PC-relative label, LDR (literal))"},
		{"LDAR W0,L; L:", "t:1:9: unsupported AArch64 instruction LDAR from the label L"},
	})
}

func TestAArch64RegName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"X0", "X0", true}, {"W0", "X0", true}, {"w12", "X12", true}, {"x30", "X30", true},
		{"X31", "", false}, {"XZR", "XZR", true}, {"wzr", "XZR", true}, {"SP", "SP", true}, {"sp", "SP", true},
		{"WSP", "SP", true}, {"X01", "", false}, {"EAX", "", false}, {"R1", "", false},
	} {
		got, ok := (a64Frontend{}).RegName(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestAArch64Parse(t *testing.T) {
	src := `AArch64 MP+dmb.sy+addr
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x;
}
 P0          | P1                  ;
 MOV W0,#1   | LDR W0,[X1]         ;
 STR W0,[X1] | EOR W2,W0,W0        ;
 DMB SY      | LDR W4,[X3,W2,SXTW] ;
 MOV W2,#1   |                     ;
 STR W2,[X3] |                     ;
exists (1:X0=1 /\ 1:W4=0)
`
	tst, err := Parse("mp.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := codeString(tst.Threads[1]), "X0 = load [X1]; X2 = (X0 ^ X0); X4 = load [(X3 + X2)]"; got != want {
		t.Errorf("P1:\n got %s\nwant %s", got, want)
	}
	if got := spec.Refs(tst.Cond); len(got) != 2 || got[1] != (spec.Ref{Thread: 1, Name: "X4"}) {
		t.Errorf("condition refs %v, want 1:X4 for 1:W4", got)
	}
}
