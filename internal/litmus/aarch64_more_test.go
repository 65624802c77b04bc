package litmus

import (
	"strings"
	"testing"
)

// TestAArch64MoreInstructions: the IR of the instructions added for
// herd7 parity, and the refusals that name what is not supported.
func TestAArch64MoreInstructions(t *testing.T) {
	for _, tc := range []struct{ ins, code string }{
		// herd7 7.58: data from the register selected, the flags a pick.
		{"CSEL W0,W2,W3,EQ", "if !(%cmpL == %cmpR) goto %pick1.else; X0 = ((X2 pick (%cmpL == %cmpR)) & 4294967295); goto %pick1.end; %pick1.else:; X0 = ((X3 pick (%cmpL == %cmpR)) & 4294967295); %pick1.end:"},
		// X3 is -1: X3+1 fits in 32 bits.
		{"CSINC W0,W2,W3,LT", "if !(%cmpL < %cmpR) goto %pick1.else; X0 = ((X2 pick (%cmpL < %cmpR)) & 4294967295); goto %pick1.end; %pick1.else:; X0 = ((X3 + 1) pick (%cmpL < %cmpR)); %pick1.end:"},
		{"CSET W0,NE", "X0 = (%cmpL != %cmpR)"},
		{"MOVZ W0,#1,LSL #16", "X0 = 65536"},
		{"MOVK X0,#2", "X0 = ((X0 & -65536) | 2)"},
		{"NEG W0,W2", "X0 = -X2"},
		{"LSL W0,W2,#3", "X0 = ((X2 << 3) & 4294967295)"},
		{"TBNZ W0,#2,L0", "if (((X0 >> 2) & 1) != 0) goto L0"},
		{"TST W2,#4", "%cmpL = (X2 & 4); %cmpR = 0"},
		// W compares: zero-extended for EQ and NE, sign-extended when
		// the thread reads a signed condition.
		{"SUBS W0,W2,#1", "%cmpL = (X2 & 4294967295); %cmpR = 1; X0 = ((X2 - 1) & 4294967295)"},
		{"SUBS W0,W2,#1; B.LT L0", "%cmpL = ((X2 << 32) >> 32); %cmpR = 1; X0 = ((X2 - 1) & 4294967295); if (%cmpL < %cmpR) goto L0"},
		{"CMN W2,#1", "%cmpL = (X2 & 4294967295); %cmpR = 4294967295"},
		{"CMN W2,W3; B.GT L0", "%cmpL = ((X2 << 32) >> 32); %cmpR = -((X3 << 32) >> 32); if (%cmpL > %cmpR) goto L0"},
		// A thread that reads N, C or V computes them where the flags are set.
		{"CMP X2,#1; CSET W0,HS", "%cmpL = X2; %cmpR = 1; %nf = ((X2 - 1) < 0); %cf = !((!(X2 < 0) && (1 < 0)) || (((X2 < 0) == (1 < 0)) && (X2 < 1))); %vf = (((X2 < 0) != (1 < 0)) && (((X2 - 1) < 0) != (X2 < 0))); X0 = (%cf != 0)"},
		{"LDAPUR W0,[X1]", "X0 = load.Q [X1]"},
		{"STLUR W0,[X1]", "store.L [X1] X0"},
		{"UBFM X0,X2,#4,#7", "X0 = ((X2 >> 4) & 15)"},
		{"SBFM W0,W2,#0,#0", "X0 = (((X2 << 63) >> 63) & 4294967295)"},
		{"UBFM W0,W2,#28,#2", "X0 = ((X2 & 7) << 4)"},
		{"SBFIZ X0,X2,#8,#3", "X0 = (((X2 << 61) >> 61) << 8)"},
		{"ADD X0,X1,#3,LSL #12", "X0 = (X1 + 12288)"},
		{"MOV X0,3; ADD X1,X1,-2", "X0 = 3; X1 = (X1 + -2)"},
		{"ORR X0,XZR,X1,ASR #8; ASRV X2,X3,X4", "X0 = (0 | (X1 >> 8)); X2 = (X3 >> (X4 & 63))"},
		{"EXTR X0,X1,X2,#8", "X0 = (((X2 >> 8) & ~((-9223372036854775808 >> 8) << 1)) | (X1 << 56))"},
		{"UBFIZ W0,W2,#4,#3", "X0 = ((X2 & 7) << 4)"},
	} {
		// The registers hold -1, so that no extension is provably
		// useless (aarch64_masks.go) and each stays in the code; but
		// for the accesses, where -1 would extend the narrow ones.
		regs := " 0:X0=-1; 0:X2=-1; 0:X3=-1; 0:X4=-1;"
		if strings.Contains(tc.ins, "[") {
			regs = ""
		}
		src := "AArch64 t\n{ 0:X1=x;" + regs + " }\n P0 ;\n " + tc.ins + " ;\n L0: ;\nexists (x=0)\n"
		lt, err := Parse("t.litmus", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", tc.ins, err)
			continue
		}
		got := strings.TrimSuffix(codeString(lt.Threads[0]), "; L0:")
		if got != tc.code {
			t.Errorf("%s:\n got %s\nwant %s", tc.ins, got, tc.code)
		}
	}
	for _, tc := range []struct{ ins, want string }{
		{"CSEL W0,W2,W3,QQ", `t.litmus:4:16: unknown AArch64 condition "QQ"`},
		{"MOVZ W0,#1,LSL #8", `t.litmus:4:10: MOVZ: bad immediate or shift (#0..#65535, LSL #0, #16, #32 or #48)`},
		{"TBZ W0,#64,L0", `t.litmus:4:9: TBZ needs a bit number #0..#63 as operand 2`},
		{"STXP W3,W0,W2,[X1]", `t.litmus:4:2: unsupported AArch64 instruction STXP: pair accesses (mixed-size) are not supported`},
	} {
		src := "AArch64 t\n{ 0:X1=x; }\n P0 ;\n " + tc.ins + " ;\n L0: ;\nexists (x=0)\n"
		_, err := Parse("t.litmus", []byte(src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.ins, err, tc.want)
		}
	}
}
