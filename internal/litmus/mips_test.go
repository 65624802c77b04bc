package litmus

import (
	"strings"
	"testing"
)

func TestMIPSRegName(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		ok      bool
	}{
		{"$2", "$2", true}, {"v0", "$2", true}, {"$v0", "$2", true}, {"$0", "$0", true}, {"zero", "$0", true},
		{"ra", "$31", true}, {"$31", "$31", true}, {"fp", "$30", true}, {"a4", "$a4", true}, {"$a7", "$a7", true},
		{"$32", "", false}, {"$02", "", false}, {"a8", "", false}, {"x", "", false}, {"r2", "", false}, {"$", "", false},
	} {
		out, ok := mipsFrontend{}.RegName(tc.in)
		if out != tc.out || ok != tc.ok {
			t.Errorf("RegName(%q) = %q, %v; want %q, %v", tc.in, out, ok, tc.out, tc.ok)
		}
	}
}

func TestMIPSErrors(t *testing.T) {
	checkThreadErrors(t, mipsFrontend{}, true, []srcWant{
		{"frob $2", `t:1:1: unknown MIPS instruction "frob"`},
		{"li $2", `t:1:1: li takes 2 operands, found 1`},
		{"li $40,1", `t:1:4: unknown MIPS register "$40"`},
		{"lw $2,$3", `t:1:7: operand 2 of lw must be a memory operand k(rs)`},
		{"lw $2,4($3)", `t:1:7: unsupported MIPS access lw with displacement 4: parts of locations (mixed-size accesses) are not supported`},
		{"lw $2,0(x)", `t:1:9: expected a MIPS register, found "x"`},
		{"add $2,$3,4", `t:1:11: operand 3 of add must be a register`},
		{"addiu $2,$3,$4", `t:1:13: operand 3 of addiu must be an integer`},
		{"beq $2,$3,L", `t:1:1: branch to undefined label L`},
		{"dext $2,$3,60,8", `t:1:12: dext's field (position 60, size 8) is not within 64 bits`},
		{"dsll $2,$3,64", `t:1:12: dsll's shift 64 is outside 0..63`},
		{"move x,$2", `t:1:6: operand 1 of move must be a register: "x" is not a MIPS register`},
		{"li $2,#1", `t:1:7: unexpected '#' in MIPS instruction`},
	})
}

// TestMIPSTranslate checks the code of instructions whose semantics are
// herd7's own: li zero-extends, lui sign-extends from 32 bits, the
// arithmetic immediates are sign-extended and the logical ones not, lw
// sign-extends its word, $0 reads 0 and takes no write, sc sets its
// register to 1 or 0.
func TestMIPSTranslate(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"li $2,-1", "$2 = 65535"},
		{"lui $2,0xffff", "$2 = -65536"},
		{"addiu $2,$3,0xffff", "$2 = ($3 + -1)"},
		{"ori $2,$0,-1", "$2 = (0 | 65535)"},
		{"nor $2,$3,$4", "$2 = ~($3 | $4)"},
		{"move $0,$2", ""},
		{"sync", "fence.SYNC"},
	} {
		got, err := threadCode(t, mipsFrontend{}, tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: code %q, want %q in it", tc.src, got, tc.want)
		}
	}
}
