package param

import "slices"

// This file is the elimination of time steps ("ticks") from pre-images,
// after Cubicle (Conchon, Goel, Krstić, Mebsout, Zaïdi, "Cubicle: A
// Parallel SMT-based Model Checker for Parameterized Systems", CAV 2012;
// its option -noqe turns it off). A tick is a numeric constant C ("const
// C : real") that a pre-image cube bounds by C > 0 (C >= 1 for an
// integer), as a transition "time_elapse" that adds C to every clock
// requires. Each literal that mentions C is replaced by its projection
// on the other atoms (there is a positive C that satisfies it): "s + kC
// <= 0" with k > 0 becomes "s < 0", "s + kC >= 0" becomes true, and so
// on; the literal C > 0 goes. The cube loses every mention of C, so the
// next time step may take another value: the cubes grow (an
// over-approximation, never smaller than the exact pre-image), which
// keeps SAFE verdicts sound and lets chains of time steps meet the
// cubes already visited. An UNSAFE verdict reached through such a cube
// is confirmed by the exact pre-images along its path (confirmTicks);
// when they do not reach the initial states, the search starts again
// without the elimination.

// tickOf reports whether l is "C > 0" for a constant real global C,
// and returns C. (Integer ticks are left alone: over the integers the
// elimination below would not be exact for one step.)
func (e *engine) tickOf(l Lit) (Term, bool) {
	if l.L.Kind != KVar || l.L.NArgs != 0 || !l.L.Off.isZero() || l.R.Kind != KNum {
		return Term{}, false
	}
	g := e.sys.Globals[l.L.Sym]
	if !g.Const || g.Assign {
		return Term{}, false
	}
	switch {
	case g.Sort.Kind == SReal && l.Op == Gt && l.R.Off.isZero():
	default:
		return Term{}, false
	}
	return l.L, true
}

// eliminateTicks eliminates the ticks of lits (see above): changed
// reports whether there was one; ok is false when the result is empty.
func (e *engine) eliminateTicks(lits []Lit) (out []Lit, changed, ok bool) {
	out = lits
	for {
		var tick Term
		found := false
		for _, l := range out {
			if t, ok := e.tickOf(l); ok {
				tick, found = t, true
				break
			}
		}
		if !found {
			return out, changed, true
		}
		changed = true
		if out, ok = eliminate(out, tick); !ok {
			return nil, true, false
		}
	}
}

// bound is "C op b" for a tick C: lower (op > or >=), upper (< or <=)
// or equal.
type bound struct {
	b      linear
	strict bool
}

// eliminate projects the conjunction lits on the atoms other than tick
// (Fourier-Motzkin: every lower bound of the tick below every upper
// bound; an equality is substituted), over the reals. Disequalities
// over the tick and literals too large to handle are dropped, which
// only weakens the cube.
func eliminate(lits []Lit, tick Term) (out []Lit, ok bool) {
	var lower, upper, equal []bound
	sort := tick.Sort
	base := tick.base()
	for _, l := range lits {
		if !termMentions(l.L, base) && !termMentions(l.R, base) {
			out = append(out, l) // left as it is, as below, without the arithmetic
			continue
		}
		d, fine := linearOf(l.L).plus(linearOf(l.R), Rat{-1, 1})
		if !fine || !l.L.Sort.numeric() && !l.R.Sort.numeric() {
			if !mentions(l, tick) {
				out = append(out, l)
			}
			continue
		}
		var k Rat
		var s linear
		s.c = d.c
		for _, p := range d.terms {
			if p.Atom == tick.base() {
				k = p.Coef
				continue
			}
			s.terms = append(s.terms, p)
		}
		if k.Num == 0 {
			out = append(out, l)
			continue
		}
		// s + kC op 0  <=>  C op' -s/k
		b, fine := s.scale(rat(-k.Den, k.Num))
		if !fine {
			continue
		}
		op := l.Op
		if k.Num < 0 {
			op = op.flip()
		}
		switch op {
		case Eq:
			equal = append(equal, bound{b: b})
		case Lt, Le:
			upper = append(upper, bound{b: b, strict: op == Lt})
		case Gt, Ge:
			lower = append(lower, bound{b: b, strict: op == Gt})
		}
	}
	add := func(op Op, x, y linear) bool {
		d, fine := x.plus(y, Rat{-1, 1})
		if !fine {
			return true
		}
		nl, r := linLit(op, d, sort)
		switch r {
		case litFalse:
			return false
		case litOpen:
			out = append(out, nl)
		}
		return true
	}
	rel := func(a, b bound) Op {
		if a.strict || b.strict {
			return Lt
		}
		return Le
	}
	if len(equal) > 0 {
		x := equal[0]
		for _, l := range lower {
			if !add(rel(l, x), l.b, x.b) {
				return nil, false
			}
		}
		for _, u := range upper {
			if !add(rel(x, u), x.b, u.b) {
				return nil, false
			}
		}
		for _, y := range equal[1:] {
			if !add(Eq, x.b, y.b) {
				return nil, false
			}
		}
		return out, true
	}
	for _, l := range lower {
		for _, u := range upper {
			if !add(rel(l, u), l.b, u.b) {
				return nil, false
			}
		}
	}
	return out, true
}

// termMentions reports whether the atom a (without offset) is one of
// the atoms of t.
func termMentions(t, a Term) bool {
	switch {
	case t.Kind == KLin:
		for _, p := range linSum(t) {
			if p.Atom == a {
				return true
			}
		}
		return false
	case t.isAtom():
		return t.base() == a
	}
	return false
}

// mentions reports whether l mentions the atom t.
func mentions(l Lit, t Term) bool {
	for _, x := range []Term{l.L, l.R} {
		for _, a := range linAtoms(x) {
			if a == t.base() {
				return true
			}
		}
	}
	return false
}

// confirmTicks tells whether the path of c (a cube that meets the
// initial states, made with the elimination of ticks) is a real one:
// from the nearest guess on it, or from its unsafe formula, the exact
// pre-images by the same transition instances must meet the initial
// states too. An eliminated tick stood for a time step of any length,
// which a fixed constant may only make in several steps: the steps that
// eliminated a tick may be repeated (at most maxRepeats more steps in
// all). trace is the path that holds, from the initial states on.
func (e *engine) confirmTicks(c *Cube) (trace []Step, ok bool) {
	var path []*Cube // from c up to the start
	for x := c; x != nil; x = x.Parent {
		path = append(path, x)
		if x.Origin != nil {
			break
		}
	}
	start := path[len(path)-1]
	saved := e.noTicks
	e.noTicks = true
	defer func() { e.noTicks = saved }()
	// the steps, from the start on
	var steps []*Cube
	var ticks []int
	for i := len(path) - 2; i >= 0; i-- {
		if path[i].tickHere {
			ticks = append(ticks, len(steps))
		}
		steps = append(steps, path[i])
	}
	extra := make([]int, len(steps))
	var try func(k, left int) bool
	try = func(k, left int) bool {
		if e.stopped() {
			return false
		}
		if k == len(ticks) {
			var ok bool
			trace, ok = e.replayExact(start, steps, extra)
			return ok
		}
		for n := 0; n <= left; n++ {
			extra[ticks[k]] = n
			if try(k+1, left-n) {
				return true
			}
		}
		extra[ticks[k]] = 0
		return false
	}
	const maxRepeats = 2
	if try(0, maxRepeats) {
		return trace, true
	}
	return nil, false
}

// replayExact computes the exact pre-images of start along steps, step
// i taken 1+extra[i] times, and reports whether they meet the initial
// states, with the path from there.
func (e *engine) replayExact(start *Cube, steps []*Cube, extra []int) (trace []Step, ok bool) {
	frontier := []*Cube{{Slots: start.Slots, Lits: start.Lits, Nodes: start.Nodes, GHB: start.GHB, Root: start.Root}}
	const maxFrontier = 256
	for i, step := range steps {
		from := start
		if i > 0 {
			from = steps[i-1]
		}
		// every transition of that name (Cubicle does not require
		// distinct names: selfcheck.go, transByName)
		var ts []*Trans
		for _, tr := range e.sys.Trans {
			if tr.Name == step.Trans {
				ts = append(ts, tr)
			}
		}
		if len(ts) == 0 {
			return nil, false
		}
		for range 1 + extra[i] {
			var next []*Cube
			for _, x := range frontier {
				if e.stopped() {
					return nil, false
				}
				fresh := e.sys.Pinned
				for _, s := range x.Slots {
					fresh = max(fresh, s)
				}
				for _, a := range step.Args {
					// an argument new to the approximate cube must be new
					// to the exact one (slots keep their numbers otherwise)
					if x.hasSlot(a) != from.hasSlot(a) && a > e.sys.Pinned {
						return nil, false
					}
					fresh = max(fresh, a)
				}
				for _, t := range ts {
					for _, p := range e.preImage(x, t, slices.Clone(step.Args), fresh+1, nil) {
						p.Parent = nil
						next = append(next, p)
					}
				}
				if len(next) > maxFrontier {
					return nil, false
				}
			}
			frontier = next
			if len(frontier) == 0 {
				return nil, false
			}
			trace = append(trace, Step{step.Trans, step.Args})
		}
	}
	for _, x := range frontier {
		e.prepare(x)
		if x.open && !e.z.sat(x.Slots, x.Lits, nil) {
			continue
		}
		if e.reachesInit(x) {
			slices.Reverse(trace)
			return trace, true
		}
	}
	return nil, false
}
