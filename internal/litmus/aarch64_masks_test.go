package litmus

import (
	"math"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestDropUselessExt: an extension goes only when its operand provably
// lies in the range it leaves unchanged.
func TestDropUselessExt(t *testing.T) {
	x0 := prog.Reg{Name: "X0"}
	and := func(e prog.Expr, m int64) prog.Expr { return a64Bin(prog.OpAnd, e, prog.Int(m)) }
	sext := func(e prog.Expr, s int64) prog.Expr {
		return a64Bin(prog.OpShr, a64Bin(prog.OpShl, e, prog.Int(s)), prog.Int(s))
	}
	ints := func(lo, hi int64) vrange { return vrange{ints: true, lo: lo, hi: hi} }
	for _, tc := range []struct {
		name string
		x0   vrange
		e    prog.Expr
		want string
	}{
		{"W mask of a small value", ints(0, 5), and(x0, a64Mask32), "X0"},
		{"W mask of a value that may be negative", ints(-1, 5), and(x0, a64Mask32), "(X0 & 4294967295)"},
		{"W mask of an address", vrange{addr: true}, and(x0, a64Mask32), "(X0 & 4294967295)"},
		{"W mask at the top of its range", ints(0, a64Mask32), and(x0, a64Mask32), "X0"},
		{"W mask past its range", ints(0, a64Mask32+1), and(x0, a64Mask32), "(X0 & 4294967295)"},
		{"byte mask in range", ints(0, 255), and(x0, 255), "X0"},
		{"byte mask past its range", ints(0, 256), and(x0, 255), "(X0 & 255)"},
		{"a mask that is not 2^k-1", ints(0, 1), and(x0, 6), "(X0 & 6)"},
		{"sign extension of a small value", ints(0, 1<<31-1), sext(x0, 32), "X0"},
		{"sign extension of a value with bit 31 set", ints(0, 1<<31), sext(x0, 32), "((X0 << 32) >> 32)"},
		{"sign extension of a negative value", ints(-1, 0), sext(x0, 32), "((X0 << 32) >> 32)"},
		{"shifts of different amounts", ints(0, 1), a64Bin(prog.OpShr, a64Bin(prog.OpShl, x0, prog.Int(32)), prog.Int(31)), "((X0 << 32) >> 31)"},
		{"nested: inner first, then the outer one", ints(0, 10), and(a64Bin(prog.OpAdd, and(x0, a64Mask32), prog.Int(1)), a64Mask32), "(X0 + 1)"},
		{"an ADD that may carry out of 32 bits", ints(0, a64Mask32), and(a64Bin(prog.OpAdd, x0, prog.Int(1)), a64Mask32), "((X0 + 1) & 4294967295)"},
		{"EOR of a register with itself", fullRange, and(a64Bin(prog.OpXor, x0, x0), a64Mask32), "(X0 ^ X0)"},
		{"unknown value", ints(math.MinInt64, math.MaxInt64), and(x0, a64Mask32), "(X0 & 4294967295)"},
	} {
		reg := func(name string) vrange {
			if name == "X0" {
				return tc.x0
			}
			return vrange{ints: true}
		}
		if got := prog.ExprString(dropUselessExt(tc.e, reg)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}
