package bmc

import (
	"github.com/musket-verify/musket/internal/prog"
)

// pick encodes x chosen by a condition computed from y (prog.OpPick:
// AArch64 CSEL and CAS): x's value and dependencies. The encoding
// tracks full dependencies only, so a pick through which a read would
// reach the value (y depends on a read) is refused: made a full
// dependency it would order too much, and dropped too little. The
// explicit engine computes them (herd7's pick-addr-dep, pick-data-dep,
// pick-ctrl-dep); without a read behind y the pick adds no dependency
// and the encoding is exact. So it is when the pick gives a register
// whose value, as the thread's code goes, never reaches an access or a
// branch (prog.PicksStayLocal): dependencies only matter to events.
func (p *progEnc) pick(st *tstate, e prog.Bin, old *sv) (*sv, error) {
	x, err := p.expr(st, e.X, old)
	if err != nil {
		return nil, err
	}
	y, err := p.expr(st, e.Y, old)
	if err != nil {
		return nil, err
	}
	if p.assigning && p.pickLocal {
		return x, nil
	}
	for r := range y.deps {
		if old == nil || !sameRead(old, r) {
			return nil, &UnsupportedError{What: "pick dependencies (AArch64 CSEL, CAS whose comparison depends on a read) are computed by the explicit engine only (-engine enum)", Program: true}
		}
	}
	return x, nil
}

// sameRead tells whether r is the read of the rmw whose old value is
// old: a CAS's write pick-depends on its own read, which herd leaves out
// (same-instance).
func sameRead(old *sv, r int) bool {
	_, ok := old.deps[r]
	return ok && len(old.deps) == 1
}
