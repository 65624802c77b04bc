package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// The memory accesses of a thread: loads, stores, store-conditionals and
// read-modify-writes, each an event per location its address may denote.

// alternative is one location a memory access may go to.
type alternative struct {
	loc  string
	cond B // relative to the instruction being executed
}

// alternatives resolves an address: one location when it is known, else
// one alternative per location (per cell of cells when the front-end
// names them: prog.Load.Cells), and the constraint that it is one of
// them.
func (p *progEnc) alternatives(th *prog.Thread, g B, a *sv, cells []string) ([]alternative, error) {
	if a.known {
		if !a.v.IsAddr() {
			return nil, fmt.Errorf("%s: access to non-address %s", th.Name, a.v)
		}
		l := locName(a.v)
		p.locCode(l)
		return []alternative{{loc: l, cond: bTrue}}, nil
	}
	var out []alternative
	var any []B
	locs := append([]string(nil), p.locs...)
	if cells != nil {
		locs = cells
		for _, l := range cells {
			p.locCode(l)
		}
	}
	for _, l := range locs {
		c := B{t: p.ctx.Eq(a.t, p.ctx.IntVal(p.enc(prog.LocValue(l))))}
		out = append(out, alternative{loc: l, cond: c})
		any = append(any, c)
	}
	p.f.assert(p.f.implies(g, p.f.or(any...)))
	return out, nil
}

// operands evaluates an access's address and, when val is not nil, the
// value it writes (in that order, then the address's alternatives, so
// that the terms are made in the same order for every kind of access).
func (t *threadEnc) operands(g B, st *tstate, addr, val prog.Expr, cells []string) (a, v *sv, alts []alternative, err error) {
	p := t.p
	if a, err = p.expr(st, addr, nil); err != nil {
		return nil, nil, nil, err
	}
	if val != nil {
		if v, err = p.expr(st, val, nil); err != nil {
			return nil, nil, nil, err
		}
	}
	if alts, err = p.alternatives(t.th, g, a, cells); err != nil {
		return nil, nil, nil, err
	}
	return a, v, alts, nil
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

// load encodes a load: a read event per location alternative, whose value
// the destination register gets.
func (t *threadEnc) load(pc int, g B, st *tstate, ins prog.Load) error {
	p, ti := t.p, t.ti
	a, _, alts, err := t.operands(g, st, ins.Addr, nil, ins.Cells)
	if err != nil {
		return err
	}
	var val *sv
	ll := map[int]B{}
	for k, alt := range alts {
		e := p.newEvent(ti, pc, k, event.Read, alt.loc, ins.Tags, p.f.and(g, alt.cond))
		if ins.Part {
			e.inst = t.head
		}
		e.val = p.f.intVar(fmt.Sprintf("v%d", e.id))
		p.setDeps(e, a.deps, nil, p.ctrlOf(st))
		v := &sv{t: e.val, deps: map[int]B{e.id: alt.cond}}
		if len(alts) == 1 {
			v.deps[e.id] = bTrue
		}
		v.vrefs = v.deps
		val = p.chooseAlt(val, v, alt.cond, k == len(alts)-1)
		if hasTag(ins.Tags, "EX") {
			ll[e.id] = alt.cond
		}
	}
	if ins.Dst != "" {
		st.regs[ins.Dst] = val
	}
	if hasTag(ins.Tags, "EX") {
		if ins.Part {
			// A further chunk of an exclusive load: one more reservation.
			merged := map[int]B{}
			for r, c := range st.ll {
				merged[r] = c
			}
			for r, c := range ll {
				merged[r] = c
			}
			st.ll = merged
		} else {
			st.ll = ll
		}
	}
	return nil
}

// store encodes a store: a write event per location alternative.
func (t *threadEnc) store(pc int, g B, st *tstate, ins prog.Store) error {
	p, ti := t.p, t.ti
	a, v, alts, err := t.operands(g, st, ins.Addr, ins.Val, ins.Cells)
	if err != nil {
		return err
	}
	for k, alt := range alts {
		e := p.newEvent(ti, pc, k, event.Write, alt.loc, ins.Tags, p.f.and(g, alt.cond))
		if ins.Part {
			e.inst = t.head
		}
		e.val, e.vrefs = v.t, v.vrefs
		p.setDeps(e, a.deps, v.deps, p.ctrlOf(st))
	}
	return nil
}

// storeCond encodes a store-conditional: it may succeed (a free choice)
// only on a location the thread's last load-exclusive reserved; its write
// and that load form an rmw pair, and the status register says whether it
// succeeded.
func (t *threadEnc) storeCond(pc int, g B, st *tstate, ins prog.StoreCond) error {
	p, ti := t.p, t.ti
	a, v, alts, err := t.operands(g, st, ins.Addr, ins.Val, ins.Cells)
	if err != nil {
		return err
	}
	// A further part of a store exclusive succeeds with its first part.
	choice := t.scChoice
	if !ins.Part {
		choice = p.f.boolVar(fmt.Sprintf("sc%d_%d", ti, pc))
		t.scChoice = choice
	}
	var okAll []B
	statusDeps := map[int]B{}
	for k, alt := range alts {
		var res []B
		for r, c := range st.ll {
			if p.events[r].loc == alt.loc {
				res = append(res, c)
			}
		}
		reserved := p.f.or(res...)
		ok := p.f.and(choice, alt.cond, reserved)
		okAll = append(okAll, ok)
		if ok.isFalse() {
			continue
		}
		e := p.newEvent(ti, pc, k, event.Write, alt.loc, ins.Tags, p.f.and(g, ok))
		if ins.Part {
			e.inst = t.head
		}
		e.val, e.vrefs = v.t, v.vrefs
		p.setDeps(e, a.deps, v.deps, p.ctrlOf(st))
		statusDeps[e.id] = ok
		for r, c := range st.ll {
			if p.events[r].loc == alt.loc {
				p.addPair(p.rmw, r, e.id, c)
			}
		}
	}
	if pc+1 >= len(t.th.Code) || !prog.IsPart(t.th.Code[pc+1]) {
		st.ll = nil // the reservations of all the parts are consumed
	}
	if ins.Status != "" {
		ok := p.f.or(okAll...)
		okV, failV := p.known(ins.OkVal), p.known(ins.FailVal)
		switch {
		case ok.isTrue():
			st.regs[ins.Status] = okV
		case ok.isFalse():
			st.regs[ins.Status] = failV
		default:
			st.regs[ins.Status] = &sv{t: p.ctx.Ite(ok.t, okV.t, failV.t)}
		}
		if ins.StatusDeps && len(statusDeps) > 0 {
			st.regs[ins.Status].deps = statusDeps
		}
	}
	return nil
}

// rmw encodes a read-modify-write: per location alternative a read, and a
// write of the new value when the condition (of a compare-and-swap) holds.
func (t *threadEnc) rmw(pc int, g B, st *tstate, ins prog.RMW) error {
	p, ti := t.p, t.ti
	a, _, alts, err := t.operands(g, st, ins.Addr, nil, ins.Cells)
	if err != nil {
		return err
	}
	var dst *sv
	for k, alt := range alts {
		r := p.newEvent(ti, pc, k, event.Read, alt.loc, ins.RTags, p.f.and(g, alt.cond))
		if ins.Part {
			r.inst = t.head
		}
		r.val = p.f.intVar(fmt.Sprintf("v%d", r.id))
		p.setDeps(r, a.deps, nil, p.ctrlOf(st))
		old := &sv{t: r.val, deps: map[int]B{r.id: bTrue}}
		p.guard = p.f.and(g, alt.cond)
		old.vrefs = old.deps
		nv, err := p.expr(st, ins.New, old)
		if err != nil {
			return err
		}
		do := bTrue
		if ins.Cond != nil {
			c, err := p.expr(st, ins.Cond, old)
			if err != nil {
				return err
			}
			do = p.truth(c)
		}
		if ins.FailRTags != nil {
			p.failTags(r, ins.RTags, ins.FailRTags, do)
		}
		if !do.isFalse() {
			t.rmwWrite(pc, k, g, st, ins, alt, a, r, nv, do)
		}
		o := &sv{t: r.val, deps: map[int]B{r.id: alt.cond}}
		if len(alts) == 1 {
			o.deps[r.id] = bTrue
		}
		o.vrefs = o.deps
		dst = p.chooseAlt(dst, o, alt.cond, k == len(alts)-1)
	}
	if ins.Dst != "" {
		st.regs[ins.Dst] = dst
	}
	return nil
}

// rmwWrite is the write of a read-modify-write whose read is r, of the
// new value nv, performed when do holds.
func (t *threadEnc) rmwWrite(pc, k int, g B, st *tstate, ins prog.RMW, alt alternative, a *sv, r *evt, nv *sv, do B) {
	p := t.p
	w := p.newEvent(t.ti, pc, k, event.Write, alt.loc, ins.WTags, p.f.and(g, alt.cond, do))
	if ins.Part {
		w.inst = t.head
	}
	w.val, w.vrefs = nv.t, nv.vrefs
	data := map[int]B{}
	for d, c := range nv.deps {
		// herd leaves out the pairs within one instruction (same-instance)
		if d != r.id && d != pickKey(r.id) {
			data[d] = c
		}
	}
	p.setDeps(w, a.deps, data, p.ctrlOf(st))
	p.addPair(p.rmw, r.id, w.id, bTrue)
	if ins.Single {
		r.single, w.single = w, r
	}
	if _, ok := nv.deps[r.id]; ok {
		p.addPair(p.iico, r.id, w.id, bTrue)
	}
}

// chooseAlt folds the value of one location alternative into the value
// of a load (an ite over the alternatives).
func (p *progEnc) chooseAlt(acc, v *sv, cond B, last bool) *sv {
	if acc == nil {
		return v
	}
	return &sv{t: p.ctx.Ite(p.f.term(cond), v.t, acc.t), deps: mergeDeps(p.f, acc.deps, v.deps), vrefs: mergeDeps(p.f, acc.vrefs, v.vrefs), wide: acc.wide || v.wide}
}

// failTags gives read r the tags ok when its compare-and-swap succeeds (do)
// and fail when it fails: the tags of both are unconditional, the others
// conditional.
func (p *progEnc) failTags(r *evt, ok, fail []string, do B) {
	in := func(t string, list []string) bool {
		for _, x := range list {
			if x == t {
				return true
			}
		}
		return false
	}
	r.tags = nil
	r.condTags = map[string]B{}
	for _, t := range ok {
		if in(t, fail) {
			r.tags = append(r.tags, t)
		} else {
			r.condTags[t] = do
		}
	}
	for _, t := range fail {
		if !in(t, ok) {
			r.condTags[t] = p.f.not(do)
		}
	}
}
