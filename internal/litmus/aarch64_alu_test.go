package litmus

import (
	"strings"
	"testing"
)

// TestAArch64DataProcessing: the IR of the shifts, inverted bitwise
// operations, bit-field extracts, extensions, multiplies, divides,
// sign-extending loads, pre/post-indexed accesses and atomic minimum and
// maximum.
func TestAArch64DataProcessing(t *testing.T) {
	checkTranslations(t, a64Frontend{}, []srcWant{
		{"LSR X0,X1,#3", "X0 = ((X1 >> (3 & 63)) & ~((-9223372036854775808 >> (3 & 63)) << 1))"},
		{"LSR W0,W1,#3", "X0 = ((X1 & 4294967295) >> (3 & 31))"},
		{"ASR X0,X1,X2", "X0 = (X1 >> (X2 & 63))"},
		{"ASR W0,W1,#1", "X0 = ((((X1 << 32) >> 32) >> (1 & 31)) & 4294967295)"},
		{"MVN W0,W1", "X0 = (~X1 & 4294967295)"},
		{"MVN X0,X1", "X0 = ~X1"},
		{"MOVN X0,#0", "X0 = -1"},
		{"MOVN W0,#1", "X0 = 4294967294"},
		{"ORN X0,X1,X2", "X0 = (X1 | ~X2)"},
		{"BIC W0,W1,#1", "X0 = ((X1 & ~1) & 4294967295)"},
		{"EON X0,X1,X2,LSL #1", "X0 = (X1 ^ ~(X2 << 1))"},
		{"UBFX X0,X1,#4,#8", "X0 = ((X1 >> 4) & 255)"},
		{"SBFX X0,X1,#4,#8", "X0 = ((X1 << 52) >> 56)"},
		{"SXTW X0,W1", "X0 = ((X1 << 32) >> 32)"},
		{"UXTB W0,W1", "X0 = (X1 & 255)"},
		{"MUL X0,X1,X2", "X0 = (X1 * X2)"},
		{"MADD X0,X1,X2,X3", "X0 = (X3 + (X1 * X2))"},
		{"MSUB X0,X1,X2,X3", "X0 = (X3 - (X1 * X2))"},
		{"SDIV X0,X1,X2", "X0 = ((X2 != 0) * (X1 / (X2 + (X2 == 0))))"},
		{"LDRSW X0,[X1]", "X0 = load [X1]; X0 = ((X0 << 32) >> 32)"},
		{"LDRSB W0,[X1]", "X0 = load [X1]; X0 = (((X0 << 56) >> 56) & 4294967295)"},
		{"LDURSH X0,[X1,#2]", "X0 = load [(X1 + 2)]; X0 = ((X0 << 48) >> 48)"},
		{"LDR X0,[X1],#8", "X0 = load [X1]; X1 = (X1 + 8)"},
		{"LDP W0,W2,[X1,#8]", "X0 = load [(X1 + 8)]; X2 = load [((X1 + 8) + 4)]"},
		{"STP X0,XZR,[X1]", "store [X1] X0; store [(X1 + 8)] 0"},
		{"LDP X0,X2,[X1],#16", "X0 = load [X1]; X2 = load [(X1 + 8)]; X1 = (X1 + 16)"},
		{"LDR X0,[X1,#8]!", "X1 = (X1 + 8); X0 = load [X1]"},
		{"STR W0,[X1],#-4", "store [X1] X0; X1 = (X1 + -4)"},
		{"STRB W0,[X1,#1]!", "X1 = (X1 + 1); store [X1] X0"},
		{"LDRSW X0,[X1],#4", "X0 = load [X1]; X0 = ((X0 << 32) >> 32); X1 = (X1 + 4)"},
		{"LDSMAX X0,X2,[X1]", "X2 = rmw.X/.X [X1] (X0 ^ ((old ^ X0) & -(old > X0)))"},
		{"LDUMINAL W0,W2,[X1]", "X2 = rmw.X.A/.X.L [X1] (X0 ^ ((old ^ X0) & -((old & 4294967295) < (X0 & 4294967295))))"},
		{"LDSMINH W0,W2,[X1]", "X2 = rmw.X/.X [X1] (X0 ^ ((old ^ X0) & -(((old << 48) >> 48) < ((X0 << 48) >> 48))))"},
		{"LDUMAX X0,X2,[X1]", "X2 = rmw.X/.X [X1] (X0 ^ ((old ^ X0) & -((!(X0 < 0) && (old < 0)) || (((X0 < 0) == (old < 0)) && (X0 < old)))))"},
		{"STSMAXL W0,[X1]", " = rmw.X.NoRet/.X.L [X1] (X0 ^ ((old ^ X0) & -(((old << 32) >> 32) > ((X0 << 32) >> 32))))"},
		{"STUMINB W0,[X1]", " = rmw.X.NoRet/.X [X1] (X0 ^ ((old ^ X0) & -((old & 255) < (X0 & 255))))"},
	})
	checkThreadErrors(t, a64Frontend{}, false, []srcWant{
		{"LDXP X0,X2,[X1]", "unsupported AArch64 instruction LDXP: pair accesses"},
		{"LDP X0,W2,[X1]", "LDP needs two registers of the same width"},
		{"LDAR X0,[X1],#8", "unsupported AArch64 addressing mode: post-indexed LDAR"},
		{"LDR X0,[X1,X2]!", "pre-indexed memory operand of LDR needs an immediate offset"},
		{"LDR X1,[X1],#8", "unsupported AArch64 instruction LDR: a post-indexed access whose register is its base register X1"},
		{"UBFX W0,W1,#30,#4", "UBFX takes Rd,Rn,#lsb,#width"},
		{"MOVN W0,#1,LSL #32", "MOVN: bad immediate or shift"},
		{"LDSMAXX W0,W2,[X1]", `unknown AArch64 instruction "LDSMAXX"`},
	})
}

// TestAArch64WritebackLocations: a pre/post-indexed update whose base is
// then used at an address not known before running is refused by name;
// one within the declared location is lowered, one beyond it refused.
func TestAArch64WritebackLocations(t *testing.T) {
	for _, tc := range []struct{ init, code, want string }{
		{"0:X1=x;", "L0: ; LDR W0,[X1],#4 ; CBNZ W0,L0", "pre/post-indexed addressing updates X1, and the address of this access is not known before running"},
		{"uint64_t x; 0:X1=x;", "LDR W0,[X1],#4 ; LDR W2,[X1]", ""},
		{"uint64_t x; 0:X1=x;", "LDR X0,[X1,#8]!", "access to bytes 8..15 of x, which has 8"},
	} {
		src := "AArch64 t\n{ " + tc.init + " }\n P0 ;\n" + strings.ReplaceAll(tc.code, ";", ";\n") + " ;\nexists (0:X0=0)\n"
		_, err := Parse("t.litmus", []byte(src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.code, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %s", tc.code, err, tc.want)
		}
	}
}
