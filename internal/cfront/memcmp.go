package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// memCompare lowers memcmp(a, b, n) and bcmp(a, b, n) (clang's -O1 form
// of a memcmp whose result is only compared with 0) for a length known
// when the program is lowered. Both regions are read by the units of a
// copy between them (copyUnits: the cells of their common type, else
// the widest unit the length and alignment allow), all of a's before
// b's, as plain reads. bcmp's result is the number of units that differ
// (0 exactly when the regions are equal, as C asks). memcmp's is the
// difference of the first differing bytes, read unsigned, in address
// order (C asks only for its sign): each unit is cut into its bytes,
// little-endian, and the first byte difference that is not 0 is kept (0
// when there is none).
func (l *lowerer) memCompare(cs *callSite) error {
	a, b2, n, err := l.twoRegions(cs)
	if err != nil {
		return err
	}
	units := l.copyUnits(n, cs.args[0], cs.args[1])
	b := cs.fr.b
	xs := make([]prog.Expr, len(units))
	ys := make([]prog.Expr, len(units))
	for k, c := range units {
		r := l.fresh("cmpa")
		b.emit(prog.Load{Dst: r, Addr: addrPlus(a, c.off), Tags: withSize([]string{tagNA}, types.NewInt(uint64(8*c.size)))})
		xs[k] = prog.Reg{Name: r}
	}
	for k, c := range units {
		r := l.fresh("cmpb")
		b.emit(prog.Load{Dst: r, Addr: addrPlus(b2, c.off), Tags: withSize([]string{tagNA}, types.NewInt(uint64(8*c.size)))})
		ys[k] = prog.Reg{Name: r}
	}
	if cs.dst == "" {
		return nil
	}
	if cs.name == "bcmp" {
		var res prog.Expr = prog.Int(0)
		for k := range units {
			res = prog.Bin{Op: prog.OpAdd, X: res, Y: prog.Bin{Op: prog.OpNe, X: xs[k], Y: ys[k]}}
		}
		b.emit(prog.Assign{Dst: cs.dst, Val: res})
		return nil
	}
	// The byte differences in address order: the first that is not 0 is
	// the result, by forward jumps (no product of two values, which the
	// SMT engine would find hard).
	done := l.label("cmpdone")
	for k, c := range units {
		for j := int64(0); j < c.size; j++ {
			b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpSub, X: unitByte(xs[k], j), Y: unitByte(ys[k], j)}})
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: cs.dst}, Y: prog.Int(0)}, Target: done})
		}
	}
	b.emit(prog.Label{Name: done})
	return nil
}

// unitByte is byte j (from the least significant) of the value x, read
// unsigned.
func unitByte(x prog.Expr, j int64) prog.Expr {
	if j == 0 {
		return umod(x, 256)
	}
	return umod(floorDiv(x, int64(1)<<(8*j)), 256)
}
