package bmc

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/smt"
)

// The choices of the Linux kernel's lock.cat, encoded symbolically.
//
// `with co from S` when the model's W has events the engine does not order
// (lock.cat adds the lock writes LKW to W before it includes cos-opt.cat):
// co is then a total order of W per location, the initial write first,
// that agrees with the engine's co on the engine's writes and extends the
// partial order S is generated from (the relation in the argument of
// generate_cos or generate_orders) — the linearisations herd7 enumerates.
//
// `with x from cross(F)`, F a set of sets of relations (lock.cat: for
// each failed trylock LF, or spin_is_locked returning false RU, the set of
// the single rf edges it may read from): x is the union of one relation
// chosen from each member of F. Members that depend on the execution (F
// is built with map over a set of events that depends on control flow or
// on rf) are a symSetV; the choice is one Boolean variable per candidate,
// exactly one of them true for each member that exists, none when it
// does not, and no execution when a member that exists is empty.

// symSetV is a set of values whose members depend on the execution:
// elems[i] belongs to it exactly when in[i] (an absolute formula) holds.
type symSetV struct {
	elems []value
	in    []B
}

// members lists the elements of a set of values with the absolute
// formula under which each belongs; ok is false for other values.
func (ev *evaluator) members(v value) (elems []value, in []B, ok bool) {
	exec := ev.o.exec
	switch v := v.(type) {
	case emptyV:
		return nil, nil, true
	case eventV, pairV:
		return []value{v}, []B{bTrue}, true
	case *vsetV:
		for _, x := range v.elems {
			elems = append(elems, x)
			in = append(in, bTrue)
		}
		return elems, in, true
	case *symSetV:
		return v.elems, v.in, true
	case *Set:
		for _, k := range v.elems() {
			elems = append(elems, eventV(k))
			in = append(in, ev.f.and(exec[k], v.m[k]))
		}
		return elems, in, true
	case *Rel:
		v.each(func(i, j int, b B) {
			elems = append(elems, pairV{i, j})
			in = append(in, ev.f.and(exec[i], exec[j], b))
		})
		return elems, in, true
	}
	return nil, nil, false
}

// nativeMap is the standard library's map (map f S: the set of f e for the
// elements e of S), also over sets whose elements depend on the execution.
var nativeMap = &builtinV{name: "map", fn: func(ev *evaluator, f value) (value, error) {
	return &builtinV{name: "map f", fn: func(ev *evaluator, s value) (value, error) {
		elems, in, ok := ev.members(s)
		if !ok {
			return nil, &evalError{"map over " + kindName(s)}
		}
		out := &symSetV{}
		static := true
		for i, x := range elems {
			if in[i].isFalse() {
				continue
			}
			y, err := ev.apply(f, x, cat.Position{})
			if err != nil {
				return nil, err
			}
			out.elems = append(out.elems, y)
			out.in = append(out.in, in[i])
			static = static && in[i].isTrue()
		}
		if !static {
			return out, nil
		}
		return ev.setOf(out.elems), nil
	}}, nil
}}

// setOf builds the set of the values xs as a set literal does: an event
// set, a relation or a set of values.
func (ev *evaluator) setOf(xs []value) value {
	if len(xs) == 0 {
		return emptyV{}
	}
	allE, allP := true, true
	for _, x := range xs {
		_, isE := x.(eventV)
		_, isP := x.(pairV)
		allE, allP = allE && isE, allP && isP
	}
	switch {
	case allE:
		s := newSet()
		for _, x := range xs {
			s.m[int(x.(eventV))] = bTrue
		}
		return s
	case allP:
		r := newRel(ev.o.n())
		for _, x := range xs {
			p := x.(pairV)
			r.set(p[0], p[1], bTrue)
		}
		return r
	}
	out := &vsetV{}
	for _, x := range xs {
		if !out.has(x) {
			out.elems = append(out.elems, x)
		}
	}
	return out
}

// withCross binds x in `with x from cross(F)`; ok is false when the
// statement is not of that form or F is not a set of sets of relations
// (the caller then evaluates it as any other with).
func (ev *evaluator) withCross(s *cat.WithStmt, en *env) (value, bool, error) {
	app, isApp := s.Set.(*cat.AppExpr)
	if !isApp {
		return nil, false, nil
	}
	if id, isID := app.Fun.(*cat.Ident); !isID || id.Name != "cross" {
		return nil, false, nil
	}
	arg, err := ev.expr(app.Arg, en)
	if err != nil {
		return nil, false, err
	}
	outer, outerIn, ok := ev.members(arg)
	if !ok {
		return nil, false, nil
	}
	type cand struct {
		r  *Rel
		in B
	}
	families := make([][]cand, len(outer))
	for i, os := range outer {
		inner, innerIn, ok := ev.members(os)
		if !ok {
			return nil, false, nil
		}
		for j, o := range inner {
			r, ok := ev.asRel(o)
			if !ok {
				return nil, false, nil
			}
			families[i] = append(families[i], cand{r, innerIn[j]})
		}
	}
	f := ev.f
	out := newRel(ev.o.n())
	add := func(r *Rel, when B) {
		r.each(func(a, b int, x B) {
			y := f.and(when, x)
			if old, ok := out.get(a, b); ok {
				y = f.or(old, y)
			}
			out.set(a, b, y)
		})
	}
	for i, fam := range families {
		m := outerIn[i]
		if m.isFalse() {
			continue
		}
		if len(fam) == 1 && fam[0].in.isTrue() && m.isTrue() {
			add(fam[0].r, bTrue)
			continue
		}
		if ev.e.incons != nil {
			return nil, true, unsupported(s.At, "with %s from a choice that depends on the execution, in an inconsistency query", s.Var)
		}
		var vars []B
		for k, c := range fam {
			if c.in.isFalse() {
				continue
			}
			v := f.boolVar(fmt.Sprintf("%s%d_%d", s.Var, i, k))
			f.assert(f.implies(v, f.and(m, c.in)))
			vars = append(vars, v)
			add(c.r, v)
		}
		if len(vars) == 0 {
			f.assert(f.not(m))
			continue
		}
		f.assert(f.implies(m, ev.exactlyOne(vars)))
	}
	return out, true, nil
}

// exactlyOne is the constraint that exactly one of bs holds.
func (ev *evaluator) exactlyOne(bs []B) B {
	if len(bs) == 1 {
		return bs[0]
	}
	terms := make([]smt.Term, len(bs))
	for i, b := range bs {
		terms[i] = ev.f.term(b)
	}
	return B{t: ev.f.ctx.ExactlyOne(terms...)}
}

// withCo binds co in `with co from S`: the engine's coherence order when
// the model's W holds the engine's writes only, else (lock.cat's LKW) an
// order of W as the package comment says.
func (ev *evaluator) withCo(s *cat.WithStmt, en *env) (value, error) {
	engine := ev.e.inputs["co"]
	wv, err := ev.lookup("W", en, s.At)
	if err != nil {
		return engine, nil
	}
	w, ok := ev.asSet(wv)
	if !ok {
		return engine, nil
	}
	p := ev.e.p
	byLoc := map[string][]int{}
	extraLoc := map[string]bool{}
	for _, k := range w.elems() {
		e := p.events[k]
		if e.loc == "" || w.m[k].isFalse() {
			continue
		}
		if e.kind != event.Write && e.single == nil {
			extraLoc[e.loc] = true
		}
		byLoc[e.loc] = append(byLoc[e.loc], k)
	}
	if len(extraLoc) == 0 {
		return engine, nil
	}
	if ev.e.incons != nil {
		return nil, unsupported(s.At, "with co from an order of events the engine does not order, in an inconsistency query")
	}
	f, c := ev.f, ev.e.ctx
	engineCo := ev.e.co
	co := newRel(ev.o.n())
	// The engine's pairs stay as they are.
	engineCo.each(func(a, b int, x B) { co.set(a, b, x) })
	locs := make([]string, 0, len(extraLoc))
	for l := range extraLoc {
		locs = append(locs, l)
	}
	sort.Strings(locs)
	for _, l := range locs {
		ws := byLoc[l]
		clk := map[int]smt.Term{}
		clock := func(k int) smt.Term {
			if t, ok := clk[k]; ok {
				return t
			}
			t := f.intVar(fmt.Sprintf("lc%d", k))
			clk[k] = t
			return t
		}
		for i, a := range ws {
			ea := p.events[a]
			for _, b := range ws[i+1:] {
				eb := p.events[b]
				if ea.kind == event.Write && eb.kind == event.Write {
					if ea.thread < 0 || eb.thread < 0 {
						continue
					}
					// Engine writes: their order, on the common clocks.
					if v, ok := ev.e.coVar[[2]int{a, b}]; ok {
						f.assert(f.implies(v, B{t: c.Lt(clock(a), clock(b))}))
						f.assert(f.implies(f.not(v), B{t: c.Lt(clock(b), clock(a))}))
					}
					continue
				}
				if ea.thread < 0 || eb.thread < 0 {
					first, other := a, b
					if eb.thread < 0 {
						first, other = b, a
					}
					if p.events[first].kind == event.Write {
						co.set(first, other, w.m[other])
					}
					continue
				}
				if ev.e.exclusive(ea, eb) {
					continue
				}
				v := f.boolVar(fmt.Sprintf("lco%d_%d", a, b))
				f.assert(f.implies(v, B{t: c.Lt(clock(a), clock(b))}))
				f.assert(f.implies(f.not(v), B{t: c.Lt(clock(b), clock(a))}))
				co.set(a, b, f.and(v, w.m[a], w.m[b]))
				co.set(b, a, f.and(f.not(v), w.m[a], w.m[b]))
			}
		}
	}
	// co extends the partial order the choice is generated from.
	if pco := ev.coBase(s, en); pco != nil {
		pco.each(func(a, b int, x B) {
			if a == b || p.events[a].loc == "" || p.events[a].loc != p.events[b].loc || !extraLoc[p.events[a].loc] {
				return
			}
			wa, inA := w.m[a]
			wb, inB := w.m[b]
			if !inA || !inB {
				return // linearisations of W order W only
			}
			cab, _ := co.get(a, b)
			f.assert(f.implies(f.and(ev.o.exec[a], ev.o.exec[b], x, wa, wb), cab))
		})
	}
	return co, nil
}

// coBase is the relation in the argument of `with co from g(...)`: the
// partial order generate_cos(pco) or generate_orders(W, pco) extends; nil
// when there is none.
func (ev *evaluator) coBase(s *cat.WithStmt, en *env) *Rel {
	app, ok := s.Set.(*cat.AppExpr)
	if !ok {
		return nil
	}
	arg, err := ev.expr(app.Arg, en)
	if err != nil {
		return nil
	}
	if t, ok := arg.(tupleV); ok && len(t) > 0 {
		arg = t[len(t)-1]
	}
	if r, ok := arg.(*Rel); ok {
		return r
	}
	return nil
}
