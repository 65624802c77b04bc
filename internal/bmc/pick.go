package bmc

import (
	"github.com/musket-verify/musket/internal/prog"
)

// Pick dependencies (herd7 7.58's pick-addr-dep, pick-data-dep,
// pick-ctrl-dep): a read reaches an address, a value written or a branch
// condition through the registers, where some step is a pick
// (prog.OpPick: AArch64 CSEL's flags, CAS's comparison; herd's
// iico_ctrl inside an instruction). A value's deps map holds both kinds
// of reads: a read r it depends on fully under the key r, one it reaches
// by a pick only under pickKey(r) (a negative key). Every operation
// merges its operands' maps whatever the keys, so a pick dependency is
// carried as far as a full one; setDeps splits the keys into the full
// relations (addr, data, ctrl) and the pick ones, as the explicit engine
// does (symexec.Sym.Pick).

// pickKey is the deps key of read r reached by a pick only.
func pickKey(r int) int { return -r - 1 }

// depRead is the read of deps key k, and whether k is a pick.
func depRead(k int) (r int, pick bool) {
	if k < 0 {
		return -k - 1, true
	}
	return k, false
}

// pick encodes x chosen by a condition computed from y: x's value and
// dependencies, and y's reads as pick dependencies. When the pick gives
// a register whose value, as the thread's code goes, never reaches an
// access or a branch (prog.PicksStayLocal), its dependencies reach no
// event and x alone is exact.
func (p *progEnc) pick(st *tstate, e prog.Bin, old *sv) (*sv, error) {
	x, err := p.expr(st, e.X, old)
	if err != nil {
		return nil, err
	}
	y, err := p.expr(st, e.Y, old)
	if err != nil {
		return nil, err
	}
	if p.assigning && p.pickLocal || len(y.deps) == 0 {
		return x, nil
	}
	picks := make(map[int]B, len(y.deps))
	for k, c := range y.deps {
		r, _ := depRead(k)
		picks[pickKey(r)] = c
	}
	out := *x
	out.deps = mergeDeps(p.f, x.deps, picks)
	return &out, nil
}

// hasPick tells whether deps holds a pick dependency.
func hasPick(deps map[int]B) bool {
	for k := range deps {
		if k < 0 {
			return true
		}
	}
	return false
}
