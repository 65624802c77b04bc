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

// evalExpr2 evaluates an expression over registers a and c as the
// explicit and graph engines do.
func evalExpr2(t *testing.T, e prog.Expr, a, c int64) int64 {
	t.Helper()
	switch e := e.(type) {
	case prog.Const:
		return e.V.Int
	case prog.Reg:
		if e.Name == "a" {
			return a
		}
		return c
	case prog.Bin:
		v, err := prog.ApplyTotal(e.Op, prog.IntValue(evalExpr2(t, e.X, a, c)), prog.IntValue(evalExpr2(t, e.Y, a, c)))
		if err != nil {
			t.Fatal(err)
		}
		return v.Int
	case prog.Un:
		v, err := prog.ApplyUnary(e.Op, prog.IntValue(evalExpr2(t, e.X, a, c)))
		if err != nil {
			t.Fatal(err)
		}
		return v.Int
	}
	t.Fatalf("expression %T", e)
	return 0
}

// refInt is the N-bit machine operation, on the N bits of a and c, read
// back signed (the reference for intArith, written with Go's unsigned
// arithmetic). ok is false where the operation is undefined.
func refInt(k intKind, a, c int64, bits uint64) (int64, bool) {
	mask := uint64(math.MaxUint64) >> (64 - bits)
	ua, uc := uint64(a)&mask, uint64(c)&mask
	sext := func(u uint64) int64 { return int64(u<<(64-bits)) >> (64 - bits) }
	var r uint64
	switch k {
	case kAdd:
		r = ua + uc
	case kSub:
		r = ua - uc
	case kMul:
		r = ua * uc
	case kAnd:
		r = ua & uc
	case kOr:
		r = ua | uc
	case kXor:
		r = ua ^ uc
	case kShl, kLShr, kAShr:
		if uc >= bits {
			return 0, false
		}
		switch k {
		case kShl:
			r = ua << uc
		case kLShr:
			r = ua >> uc
		default:
			r = uint64(sext(ua) >> uc)
		}
	case kUDiv, kURem:
		if uc == 0 {
			return 0, false
		}
		if k == kUDiv {
			r = ua / uc
		} else {
			r = ua % uc
		}
	case kSDiv, kSRem:
		x, y := sext(ua), sext(uc)
		if y == 0 || y == -1 && x == sext(1<<(bits-1)) {
			return 0, false
		}
		if k == kSDiv {
			r = uint64(x / y)
		} else {
			r = uint64(x % y)
		}
	}
	return sext(r & mask), true
}

// TestIntArith checks the lowering of every LLVM integer operation at 8,
// 16, 32 and 64 bits against the machine's, on canonical operands
// (edge values, negative ones), evaluated as the explicit and graph
// engines do, with the right operand a register and a constant.
func TestIntArith(t *testing.T) {
	t.Parallel() // no global switch or environment: it runs beside the other long tests
	vals := []int64{0, 1, 2, 3, 7, 15, 31, 62, 63, -1, -2, -3, 100, -100, 127, -128, 200, 255, 256, -32768, 32767, 40000, 65535,
		math.MaxInt32, math.MinInt32, 0x12345678, -8380417, 1 << 40, -(1 << 40) - 5, math.MaxInt64, math.MinInt64, 0x12345678deadbeef}
	kinds := []struct {
		k    intKind
		name string
	}{{kAdd, "add"}, {kSub, "sub"}, {kMul, "mul"}, {kSDiv, "sdiv"}, {kUDiv, "udiv"}, {kSRem, "srem"}, {kURem, "urem"},
		{kAnd, "and"}, {kOr, "or"}, {kXor, "xor"}, {kShl, "shl"}, {kLShr, "lshr"}, {kAShr, "ashr"}}
	for _, bits := range []uint64{8, 16, 32, 64} {
		var vs []int64
		seen := map[int64]bool{}
		for _, v := range vals {
			if c := canonInt(v, bits); !seen[c] {
				seen[c] = true
				vs = append(vs, c)
			}
		}
		for _, k := range kinds {
			for _, konst := range []bool{false, true} {
				for _, a := range vs {
					for _, c := range vs {
						want, ok := refInt(k.k, a, c, bits)
						if !ok {
							continue
						}
						var ce prog.Expr = prog.Reg{Name: "c"}
						if konst {
							ce = prog.Int(c)
						}
						e := intArith(k.k, prog.Reg{Name: "a"}, ce, bits, false)
						if got := evalExpr2(t, e, a, c); got != want {
							t.Errorf("i%d %s %d, %d (constant %v): %d, want %d", bits, k.name, a, c, konst, got, want)
						}
					}
				}
			}
		}
		for _, v := range vs {
			if got := evalExpr2(t, wrap(prog.Reg{Name: "a"}, bits), v<<3+5, 0); got != canonInt(v<<3+5, bits) {
				t.Errorf("wrap%d(%d): %d", bits, v<<3+5, got)
			}
		}
	}
}
