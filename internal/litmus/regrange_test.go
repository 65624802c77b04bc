package litmus

import (
	"math"
	"math/rand"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestRangeSound checks the interval arithmetic of regrange.go against
// prog.Apply: for operands drawn from two intervals (their bounds and
// random values between), every result lies in the interval computed.
func TestRangeSound(t *testing.T) {
	bounds := []int64{math.MinInt64, -1 << 40, -1 << 31, -300, -1, 0, 1, 5, 255, 1 << 31, 1 << 40, math.MaxInt64}
	ops := []prog.Op{prog.OpAdd, prog.OpSub, prog.OpMul, prog.OpAnd, prog.OpOr, prog.OpXor, prog.OpShl, prog.OpShr, prog.OpMod, prog.OpDiv}
	rng := rand.New(rand.NewSource(1))
	pick := func(r vrange) int64 {
		switch rng.Intn(3) {
		case 0:
			return r.lo
		case 1:
			return r.hi
		}
		span := uint64(r.hi - r.lo)
		if span == math.MaxUint64 {
			return int64(rng.Uint64())
		}
		return r.lo + int64(rng.Uint64()%(span+1))
	}
	for i, xl := range bounds {
		for _, xh := range bounds[i:] {
			for j, yl := range bounds {
				for _, yh := range bounds[j:] {
					x := vrange{ints: true, lo: xl, hi: xh}
					y := vrange{ints: true, lo: yl, hi: yh}
					for _, op := range ops {
						out := binRange(op, x, y)
						for n := 0; n < 8; n++ {
							a, b := pick(x), pick(y)
							v, err := prog.Apply(op, prog.IntValue(a), prog.IntValue(b))
							if err != nil {
								continue
							}
							if v.Int < out.lo || v.Int > out.hi {
								t.Fatalf("%d %s %d = %d, outside %d..%d computed for %d..%d %s %d..%d", a, op, b, v.Int, out.lo, out.hi, xl, xh, op, yl, yh)
							}
						}
					}
				}
			}
		}
	}
}

// TestRangeOfLoads checks the analysis on a test: a register loaded from
// memory holding small values stays small; a word loaded zero-extended
// from a negative value does not.
func TestRangeOfLoads(t *testing.T) {
	for _, tc := range []struct {
		src    string
		lo, hi int64
	}{
		{"RISCV T\n{ int x=3; 0:x2=x; }\n P0 ;\n lw x5,0(x2) ;\nexists (0:x5=1)\n", 0, 3},
		{"RISCV T\n{ 0:x2=x; }\n P0 ;\n li x6,7 ;\n sw x6,0(x2) ;\n lw x5,0(x2) ;\n addi x5,x5,1 ;\nexists (0:x5=1)\n", 1, 8},
		// A loop: each round adds 1, so x5 has no upper bound.
		{"RISCV T\n{ 0:x2=x; }\n P0 ;\n L: ;\n addi x5,x5,1 ;\n bne x5,x0,L ;\nexists (0:x5=1)\n", 0, math.MaxInt64},
		// A forward jump: either path's value.
		{"RISCV T\n{ int x=3; 0:x2=x; }\n P0 ;\n lw x5,0(x2) ;\n beq x5,x0,L ;\n li x5,9 ;\n L: ;\nexists (0:x5=1)\n", 0, 9},
		{"RISCV T\n{ int x=-1; 0:x2=x; }\n P0 ;\n lwu x5,0(x2) ;\nexists (0:x5=1)\n", -1, 1<<32 - 1},
	} {
		lt, err := Parse("t.litmus", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		r := regRanges(lt)[regKey{0, "x5"}]
		if r.addr || r.lo > tc.lo || r.hi < tc.hi {
			t.Errorf("%q: x5 in %+v, want at least %d..%d", tc.src, r, tc.lo, tc.hi)
		}
		if tc.hi < 100 && r.hi > tc.hi {
			t.Errorf("%q: x5 in %+v, want at most %d", tc.src, r, tc.hi)
		}
	}
}
