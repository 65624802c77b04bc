package enum

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// located runs a prog.Located instruction: events at a location that are
// neither reads nor writes (herd7's lock and SRCU events). spin_trylock and
// spin_is_locked fork: each outcome is a path, and the model decides which
// are consistent. The register a trylock or is_locked sets depends on the
// event that decides its value, as on a read.
func (x *explorer) located(st *state, in prog.Located) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	return x.address(st, a, func(st *state, loc string) error {
		ev := func(st *state, tag string, v int64) int {
			return x.emit(st, pathEvent{kind: event.Located, loc: loc, tags: []string{tag}, val: constSym(prog.IntValue(v)), addrDeps: a.deps})
		}
		result := func(st *state, e int, v int64) {
			if in.Dst != "" {
				s := constSym(prog.IntValue(v))
				s.deps = []int{e}
				st.regs[in.Dst] = s
			}
		}
		next := func(st *state) error {
			st.pc++
			return x.step(st)
		}
		switch in.Op {
		case prog.LocLock:
			ev(st, prog.TagLockRead, 0)
			ev(st, prog.TagLockWrite, 1)
		case prog.LocUnlock:
			ev(st, prog.TagUnlock, 0)
		case prog.LocTryLock:
			f := st.fork()
			result(f, ev(f, prog.TagLockFail, 1), 0)
			if err := next(f); err != nil {
				return err
			}
			r := ev(st, prog.TagLockRead, 0)
			ev(st, prog.TagLockWrite, 1)
			result(st, r, 1)
		case prog.LocIsLocked:
			f := st.fork()
			result(f, ev(f, prog.TagReadUnlock, 0), 0)
			if err := next(f); err != nil {
				return err
			}
			result(st, ev(st, prog.TagReadLocked, 1), 1)
		default:
			e := x.emit(st, pathEvent{kind: event.Located, loc: loc, tags: in.Tags, addrDeps: a.deps})
			st.p.events[e].val = constSym(prog.IntValue(0))
		}
		return next(st)
	})
}
