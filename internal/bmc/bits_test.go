package bmc

import (
	"fmt"
	"math"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/smt"
)

// TestBitwiseExact checks the linear encoding of &, |, ^, << and >>
// (bits.go) against Go's int64 operations, the explicit engine's
// semantics: operands symbolic or constant, negative and positive, at
// the edges of 8, 16, 32 and 64 bits, under the QF_LIA solver the
// engine asks first (it once found int8 -56 & -1 different from -56
// through Z3's bit-vector conversions).
func TestBitwiseExact(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	s := zc.NewSolverFor("QF_LIA")
	s.SetTimeout(60000)
	p := &progEnc{ctx: zc, f: newFB(zc, s)}
	vals := []int64{0, 1, -1, -56, 127, -32768, 0x12345678, math.MinInt32, math.MaxInt64, math.MinInt64}
	counts := []int64{0, 1, 31, 63, 65, -1}
	type mode struct {
		name       string
		symX, symY bool
	}
	modes := []mode{{"sym,sym", true, true}, {"sym,const", true, false}, {"const,sym", false, true}}
	ops := []prog.Op{prog.OpAnd, prog.OpOr, prog.OpXor, prog.OpShl, prog.OpShr}
	n := 0
	for _, op := range ops {
		ys := vals
		if op == prog.OpShl || op == prog.OpShr {
			ys = counts
		}
		for _, m := range modes {
			for _, xv := range vals {
				for _, yv := range ys {
					want, err := prog.Apply(op, prog.IntValue(xv), prog.IntValue(yv))
					if err != nil {
						t.Fatal(err)
					}
					operand := func(name string, v int64, sym bool) *sv {
						if !sym {
							return p.known(prog.IntValue(v))
						}
						x := zc.Int(fmt.Sprintf("%s%d", name, n))
						s.Assert(zc.Eq(x, zc.IntVal(v)))
						return &sv{t: x, wide: true}
					}
					s.Push()
					a, b := operand("x", xv, m.symX), operand("y", yv, m.symY)
					var got smt.Term
					if op == prog.OpShl || op == prog.OpShr {
						got = p.shift(op, a, b)
					} else {
						got = p.bitwise(op, a, b)
					}
					s.Assert(zc.Not(zc.Eq(got, zc.IntVal(want.Int))))
					if r := s.Check(); r != smt.Unsat {
						t.Errorf("%s %d %s %d = %d: the encoding allows another value (%v)", m.name, xv, op, yv, want.Int, r)
					}
					s.Pop(1)
					n++
				}
			}
		}
	}
}

// TestBitwiseWraps: operands past 64 bits (unbounded sums of the SMT
// engine) are read modulo 2^64, as the explicit engine's int64 wrap.
func TestBitwiseWraps(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	s := zc.NewSolverFor("QF_LIA")
	p := &progEnc{ctx: zc, f: newFB(zc, s)}
	x := zc.Int("x")
	// x = 2^64 - 56: its low 64 bits are -56.
	s.Assert(zc.Eq(x, zc.Sub(p.pow2(64), zc.IntVal(56))))
	y := zc.Int("y")
	s.Assert(zc.Eq(y, zc.IntVal(-1)))
	for _, c := range []struct {
		name string
		got  smt.Term
		want int64
	}{
		{"and", p.bitwise(prog.OpAnd, &sv{t: x, wide: true}, &sv{t: y}), -56},
		{"andconst", p.bitwise(prog.OpAnd, &sv{t: x, wide: true}, p.known(prog.IntValue(0xff))), 200},
		{"orconst", p.bitwise(prog.OpOr, &sv{t: x, wide: true}, p.known(prog.IntValue(1))), -55},
		{"shl", p.shift(prog.OpShl, &sv{t: x, wide: true}, p.known(prog.IntValue(1))), -112},
		{"shr", p.shift(prog.OpShr, &sv{t: x, wide: true}, p.known(prog.IntValue(3))), -7},
		{"shrsym", p.shift(prog.OpShr, &sv{t: x, wide: true}, &sv{t: zc.Int("three")}), -7},
	} {
		s.Push()
		s.Assert(zc.Eq(zc.Int("three"), zc.IntVal(3)))
		s.Assert(zc.Not(zc.Eq(c.got, zc.IntVal(c.want))))
		if r := s.Check(); r != smt.Unsat {
			t.Errorf("%s: not %d (%v)", c.name, c.want, r)
		}
		s.Pop(1)
	}
}

func TestRuns(t *testing.T) {
	for _, c := range []struct {
		m    uint64
		want string
	}{
		{0, "[]"}, {1, "[[0 1]]"}, {0xff, "[[0 8]]"}, {0x8081, "[[0 1] [7 8] [15 16]]"},
		{math.MaxInt64, "[[0 63]]"}, {math.MaxUint64, "[[0 64]]"}, {1 << 63, "[[63 64]]"},
	} {
		if got := fmt.Sprint(runs(c.m)); got != c.want {
			t.Errorf("runs(%#x) = %s, want %s", c.m, got, c.want)
		}
	}
}
