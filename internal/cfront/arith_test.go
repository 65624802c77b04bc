package cfront

import (
	"math"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// evalExpr evaluates an expression over register x as the explicit
// engine does (Go's truncated / and %).
func evalExpr(t *testing.T, e prog.Expr, x int64) int64 {
	t.Helper()
	switch e := e.(type) {
	case prog.Const:
		return e.V.Int
	case prog.Reg:
		return x
	case prog.Bin:
		v, err := prog.Apply(e.Op, prog.IntValue(evalExpr(t, e.X, x)), prog.IntValue(evalExpr(t, e.Y, x)))
		if err != nil {
			t.Fatal(err)
		}
		return v.Int
	case prog.Un:
		v, err := prog.ApplyUnary(e.Op, prog.IntValue(evalExpr(t, e.X, x)))
		if err != nil {
			t.Fatal(err)
		}
		return v.Int
	}
	t.Fatalf("expression %T", e)
	return 0
}

// TestAndConst checks the arithmetic form of x & mask against Go's &,
// and the byte cutting of the mixed-size pass against the bytes.
func TestAndConst(t *testing.T) {
	xs := []int64{0, 1, -1, 2, -2, 255, 256, 0x00f0f000, -8388608, math.MaxInt64, math.MinInt64, -9223372036854775552, 0x123456789abcdef, -0x123456789abcdef}
	for _, m := range []int64{1, 511, -8380417, -9223372036854775297, 0xff00, -256, math.MinInt64, 0x7fffffff, 6} {
		e, ok := andConst(prog.Reg{Name: "x"}, prog.Int(m))
		if !ok {
			continue
		}
		for _, x := range xs {
			if got := evalExpr(t, e, x); got != x&m {
				t.Errorf("%d & %d: %d, want %d", x, m, got, x&m)
			}
		}
	}
	for _, x := range xs {
		for _, c := range []struct{ rel, w int64 }{{0, 1}, {1, 1}, {0, 2}, {2, 2}, {4, 4}, {0, 4}, {7, 1}} {
			want := x >> (8 * c.rel)
			s := 64 - 8*c.w
			want = want << s >> s
			if got := evalExpr(t, chunkValue(prog.Reg{Name: "x"}, c.rel, c.w), x); got != want {
				t.Errorf("chunk %d+%d of %d: %d, want %d", c.rel, c.w, x, got, want)
			}
		}
	}
}
