package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Lock and SRCU events (prog.Located): events at a location that are
// neither reads nor writes. They take no part in the engine's rf and co;
// the model sees them through loc, po, int/ext and their tags (herd7's
// LKR, LKW, UL, LF, RL, RU and Sync-srcu), and the kernel's lock.cat
// builds their rf and co itself (see lockco.go).

// located encodes one prog.Located instruction executed under g.
// spin_trylock and spin_is_locked choose their outcome with a Boolean
// variable: true is the successful trylock (LKR and LKW) or the
// is_locked that returns 1 (RL), false the failed trylock (LF) or RU.
// Their register depends on the event that gives its value, as on a
// read.
func (p *progEnc) located(ti, pc int, th *prog.Thread, g B, st *tstate, ins prog.Located) error {
	a, err := p.expr(st, ins.Addr, nil)
	if err != nil {
		return err
	}
	alts, err := p.alternatives(th, g, a, nil)
	if err != nil {
		return err
	}
	choice := bTrue
	if ins.Op == prog.LocTryLock || ins.Op == prog.LocIsLocked {
		choice = p.f.boolVar(fmt.Sprintf("lk%d_%d", ti, pc))
	}
	deps := map[int]B{}
	mk := func(k int, alt alternative, tag string, when B, v int64) *evt {
		tags := ins.Tags
		if tag != "" {
			tags = []string{tag}
		}
		e := p.newEvent(ti, pc, k, event.Located, alt.loc, tags, p.f.and(g, alt.cond, when))
		e.val = p.ctx.IntVal(v)
		p.setDeps(e, a.deps, nil, p.ctrlOf(st))
		return e
	}
	for k, alt := range alts {
		switch ins.Op {
		case prog.LocLock:
			mk(k, alt, prog.TagLockRead, bTrue, 0)
			mk(k, alt, prog.TagLockWrite, bTrue, 1)
		case prog.LocUnlock:
			mk(k, alt, prog.TagUnlock, bTrue, 0)
		case prog.LocTryLock:
			fail := mk(k, alt, prog.TagLockFail, p.f.not(choice), 1)
			r := mk(k, alt, prog.TagLockRead, choice, 0)
			mk(k, alt, prog.TagLockWrite, choice, 1)
			deps[fail.id] = p.f.and(alt.cond, p.f.not(choice))
			deps[r.id] = p.f.and(alt.cond, choice)
		case prog.LocIsLocked:
			ru := mk(k, alt, prog.TagReadUnlock, p.f.not(choice), 0)
			rl := mk(k, alt, prog.TagReadLocked, choice, 1)
			deps[ru.id] = p.f.and(alt.cond, p.f.not(choice))
			deps[rl.id] = p.f.and(alt.cond, choice)
		default:
			mk(k, alt, "", bTrue, 0)
		}
	}
	if ins.Dst != "" {
		// The outcome is no constant for the explicit engine: a branch on
		// it is a control dependency.
		v := &sv{t: p.ctx.Ite(p.f.term(choice), p.ctx.IntVal(1), p.ctx.IntVal(0)), deps: deps, b01: true, vrefs: deps}
		if choice.isTrue() {
			v = &sv{known: true, v: prog.IntValue(1), t: p.ctx.IntVal(1), deps: deps}
		}
		st.regs[ins.Dst] = v
	}
	return nil
}
