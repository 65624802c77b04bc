package enum

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/symexec"
)

// located runs a prog.Located instruction: events at a location that are
// neither reads nor writes (herd7's lock and SRCU events). spin_trylock and
// spin_is_locked fork: each outcome is a path, and the model decides which
// are consistent. The register a trylock or is_locked sets depends on the
// event that decides its value, as on a read.
func (x *explorer) located(st *state, in prog.Located) error {
	a, err := x.Expr(st, in.Addr, nil)
	if err != nil {
		return x.ErrAt(st, err)
	}
	return x.Address(st, a, func(st *state, loc string) error {
		ev := func(st *state, tag string, v int64) int {
			return x.Add(st, symexec.Event{Kind: event.Located, Loc: loc, Tags: []string{tag}, Val: symexec.Const(prog.IntValue(v)), AddrDeps: a.Deps})
		}
		// The register is 1 or 0 computed from the deciding event's value
		// (a constant), not a known constant, so that branching on it is
		// a control dependency, as on a read.
		result := func(st *state, e int, one bool) error {
			if in.Dst == "" {
				return nil
			}
			op := prog.OpNe
			if one {
				op = prog.OpEq
			}
			v, err := symexec.Bin(op, symexec.ReadOf(e), st.P.Events[e].val)
			if err != nil {
				return x.ErrAt(st, err)
			}
			st.Regs[in.Dst] = v
			return nil
		}
		next := func(st *state) error {
			st.PC++
			return x.Step(st)
		}
		switch in.Op {
		case prog.LocLock:
			ev(st, prog.TagLockRead, 0)
			ev(st, prog.TagLockWrite, 1)
		case prog.LocUnlock:
			ev(st, prog.TagUnlock, 0)
		case prog.LocTryLock:
			f := st.Fork()
			if err := result(f, ev(f, prog.TagLockFail, 1), false); err != nil {
				return err
			}
			if err := next(f); err != nil {
				return err
			}
			r := ev(st, prog.TagLockRead, 0)
			ev(st, prog.TagLockWrite, 1)
			if err := result(st, r, true); err != nil {
				return err
			}
		case prog.LocIsLocked:
			f := st.Fork()
			if err := result(f, ev(f, prog.TagReadUnlock, 0), false); err != nil {
				return err
			}
			if err := next(f); err != nil {
				return err
			}
			if err := result(st, ev(st, prog.TagReadLocked, 1), true); err != nil {
				return err
			}
		default:
			x.Add(st, symexec.Event{Kind: event.Located, Loc: loc, Tags: in.Tags, Val: symexec.Const(prog.IntValue(0)), AddrDeps: a.Deps})
		}
		return next(st)
	})
}
