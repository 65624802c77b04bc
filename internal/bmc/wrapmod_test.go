package bmc

import (
	"testing"

	"github.com/musket-verify/musket/internal/smt"
)

// TestWrapMod checks that the remainder by cases (both forms) is Z3's mod: on values
// in each case and outside them, and for every integer (the solver finds
// no x where they differ).
func TestWrapMod(t *testing.T) {
	zc := smt.NewContext()
	defer zc.Close()
	var mode wrapMode
	enc := func() (*progEnc, *smt.Solver) {
		s := zc.NewSolver()
		return &progEnc{ctx: zc, f: newFB(zc, s), wraps: mode}, s
	}
	for _, mode = range []wrapMode{wrapGuarded, wrapCases} {
		for _, m := range []int64{256, 1 << 16, 1 << 32} {
			for _, v := range []int64{0, 1, m - 1, m, m + 5, 2*m - 1, 2 * m, 3*m + 7, -1, -m, -m - 1, -5*m + 3, 1 << 62, -(1 << 62)} {
				p, s := enc()
				s.Assert(zc.Not(zc.Eq(p.wrapMod(zc.IntVal(v), m), zc.IntVal(((v%m)+m)%m))))
				if r := s.Check(); r != smt.Unsat {
					t.Errorf("m=%d, x=%d: %v, want the remainder %d", m, v, r, ((v%m)+m)%m)
				}
				// Its constraints remove no value of x.
				p, s = enc()
				s.Assert(zc.Eq(p.wrapMod(zc.IntVal(v), m), zc.IntVal(((v%m)+m)%m)))
				if r := s.Check(); r != smt.Sat {
					t.Errorf("m=%d, x=%d: the constraints of the cases are %v", m, v, r)
				}
			}
			x := zc.Int("x")
			p, s := enc()
			s.Assert(zc.Not(zc.Eq(p.wrapMod(x, m), zc.Mod(x, zc.IntVal(m)))))
			if r := s.Check(); r != smt.Unsat {
				t.Errorf("m=%d: the cases differ from mod for some x (%v)", m, r)
			}
		}
	}
}
