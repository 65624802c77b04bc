package bmc

import (
	"fmt"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/smt"
)

// TestAndMaskSameAsBitVectors checks that the linear encoding of x & c
// (constant masks of a few bits) is the 64-bit vector one, on negative
// values, address codes and values past 64 bits.
func TestAndMaskSameAsBitVectors(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	p := &progEnc{ctx: zc}
	xs := []int64{0, 1, 128, 255, -1, -129, 3<<40 + 130, -(1 << 62)}
	masks := []int64{0, 1, 128, 0x8081, 1<<62 | 1<<40}
	for _, xv := range xs {
		for _, m := range masks {
			t.Run(fmt.Sprintf("%d&%d", xv, m), func(t *testing.T) {
				s := zc.NewSolver()
				x := zc.Int("x")
				s.Assert(zc.Eq(x, zc.IntVal(xv)))
				got, ok := p.andMask(&sv{t: x}, &sv{known: true, v: prog.IntValue(m)})
				if !ok {
					t.Fatalf("mask %d not encoded", m)
				}
				want := p.binTerm(prog.OpAnd, x, zc.IntVal(m))
				s.Assert(zc.Not(zc.Eq(got, want)))
				if r := s.Check(); r != smt.Unsat {
					t.Errorf("%d & %d: the encodings differ (%v)", xv, m, r)
				}
			})
		}
	}
	if _, ok := p.andMask(&sv{t: zc.Int("y")}, &sv{known: true, v: prog.IntValue(-1)}); ok {
		t.Error("a negative mask must go through bit-vectors")
	}
}
