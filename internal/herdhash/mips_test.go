package herdhash

import "testing"

// TestMIPSIns checks herd7's printing of MIPS instructions, from which
// the digest is computed: registers by number ("$2"; a4-a7 as "$a4"),
// symbolic registers as written, a memory operand with its offset,
// integers in decimal, labels renamed. (The digests of herd's
// tests/instructions/MIPS logs: 34 of 35 equal, the last one holding a
// code label, which is not digested.)
func TestMIPSIns(t *testing.T) {
	labels := map[string]string{"L1": "L00"}
	for _, tc := range []struct{ in, want string }{
		{"move $v0, $v1", "move $2,$3"},
		{"lw $2,0(%x0)", "lw $2,0(%x0)"},
		{"ld a0, 0(a1)", "ld $4,0($5)"},
		{"sw $3,(%y0)", "sw $3,0(%y0)"},
		{"ori $3,$0,0x10", "ori $3,$0,16"},
		{"daddiu $a4,$t0,-1", "daddiu $a4,$8,-1"},
		{"beq $2,$3,L1", "beq $2,$3,L00"},
		{"jr ra", "jr $31"},
		{"SYNC", "sync"},
	} {
		got, err := mipsIns(tc.in, labels)
		if err != nil || got != tc.want {
			t.Errorf("mipsIns(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestMIPSLocations: herd7 digests the registers of the initial state and
// the condition as written, "$2" included, and the symbolic registers of
// the initial state without their '%'.
func TestMIPSLocations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		init bool
		want string
	}{
		{"0:$2=1; 1:v0=x", true, "0:$2=1; 1:v0=x"},
		{"%x0=x; uint64_t %P0_y=y", true, "x0=x; uint64_t P0_y=y"},
		{"exists (0:$2=1 /\\ 1:$10=0)", false, "exists (0:$2=1 /\\ 1:$10=0)"},
	} {
		if got := mipsFinish(mipsPrepare(tc.in), tc.init); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := mipsPrepare("0:$2=1"); got != "0:_D2=1" {
		t.Errorf("mipsPrepare: %q", got)
	}
}
