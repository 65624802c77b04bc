package symexec

import "github.com/musket-verify/musket/internal/prog"

// Pins: a constraint r == v (or r+k == v, r-k == v) on a path fixes the
// value of read r for the rest of the path. The explorer evaluates later
// addresses and conditions under these values, so that an address read
// from memory forks once over the locations and then stays put (top,
// then top+1, in a linked structure), and a condition the path already
// decides (old == top after a compare-and-swap that succeeded) does not
// fork into a path whose constraints contradict each other. The pins are
// implied by the path's constraints: evaluating under them changes no
// execution the path stands for, it only drops contradictory paths.

// pinned is s evaluated under st's pins; false when a read it needs is
// not pinned.
func (st *State[E]) pinned(s *Sym) (prog.Value, bool) {
	if s.Known {
		return s.V, true
	}
	if len(st.pins) == 0 && len(st.offs) == 0 {
		return prog.Value{}, false
	}
	if len(st.offs) == 0 {
		return s.Eval(func(r int) (prog.Value, bool) {
			v, ok := st.pins[r]
			return v, ok
		})
	}
	return st.evalPinned(s)
}

// symPin is an offset whose value a path's constraints fix: an address
// base+s+k computed at run time (a byte of a mixed-size access at an
// index read from memory) was found equal to one location.
type symPin struct {
	s *Sym
	v prog.Value
}

// evalPinned is s evaluated under st's pins, the pinned offsets
// included.
func (st *State[E]) evalPinned(s *Sym) (prog.Value, bool) {
	switch {
	case s.Known:
		return s.V, true
	case s.Read >= 0:
		v, ok := st.pins[s.Read]
		return v, ok
	}
	for _, p := range st.offs {
		if p.s == s || equalSym(p.s, s) {
			return p.v, true
		}
	}
	x, ok := st.evalPinned(s.X)
	if !ok {
		return prog.Value{}, false
	}
	if s.Unary {
		v, err := prog.ApplyUnary(s.Op, x)
		return v, err == nil
	}
	y, ok := st.evalPinned(s.Y)
	if !ok {
		return prog.Value{}, false
	}
	v, err := prog.ApplyTotal(s.Op, x, y)
	return v, err == nil
}

// pinOffset records that the offset s has value v.
func (st *State[E]) pinOffset(s *Sym, v prog.Value) {
	st.offs = append(append([]symPin(nil), st.offs...), symPin{s, v})
}

// splitOffset reads a symbolic address as base + s + k: base a known
// address, k a known integer and s the one unknown term of a sum; false
// when a is not of that form.
func splitOffset(a *Sym) (base prog.Value, s *Sym, k int64, ok bool) {
	var terms func(x *Sym, neg bool) bool
	haveBase := false
	terms = func(x *Sym, neg bool) bool {
		switch {
		case x.Known:
			if x.V.IsAddr() {
				if neg || haveBase {
					return false
				}
				base, haveBase = x.V, true
				return true
			}
			if neg {
				k -= x.V.Int
			} else {
				k += x.V.Int
			}
			return true
		case x.Read < 0 && !x.Unary && x.Op == prog.OpAdd:
			return terms(x.X, neg) && terms(x.Y, neg)
		case x.Read < 0 && !x.Unary && x.Op == prog.OpSub && x.Y.Known:
			return terms(x.X, neg) && terms(x.Y, !neg)
		}
		if neg || s != nil {
			return false
		}
		s = x
		return true
	}
	if !terms(a, false) || !haveBase || s == nil {
		return prog.Value{}, nil, 0, false
	}
	return base, s, k, true
}

// assume adds the constraint that c is true (want) or false on st's
// path, and pins the read an equality fixes.
func (st *State[E]) assume(c *Sym, want bool) {
	st.P.Cons = append(st.P.Cons, Constraint{c, want})
	if !want || c.Known || c.Unary || c.Read >= 0 || c.Op != prog.OpEq {
		return
	}
	if v, ok := st.pinned(c.Y); ok {
		st.pin(c.X, v)
	} else if v, ok := st.pinned(c.X); ok {
		st.pin(c.Y, v)
	}
}

// pin records that s has value v, when s is a read plus or minus a
// constant and the arithmetic inverts.
func (st *State[E]) pin(s *Sym, v prog.Value) {
	for !s.Known && s.Read < 0 && !s.Unary && (s.Op == prog.OpAdd || s.Op == prog.OpSub) {
		var err error
		switch {
		case s.Y.Known && s.Op == prog.OpAdd:
			v, err = prog.Apply(prog.OpSub, v, s.Y.V)
			s = s.X
		case s.Y.Known: // s.X - k = v
			v, err = prog.Apply(prog.OpAdd, v, s.Y.V)
			s = s.X
		case s.X.Known && s.Op == prog.OpAdd:
			v, err = prog.Apply(prog.OpSub, v, s.X.V)
			s = s.Y
		default:
			return // k - s.Y = v: left alone
		}
		if err != nil {
			return
		}
	}
	if s.Known || s.Read < 0 {
		return
	}
	if _, ok := st.pins[s.Read]; ok {
		return
	}
	m := make(map[int]prog.Value, len(st.pins)+1)
	for k, w := range st.pins {
		m[k] = w
	}
	m[s.Read] = v
	st.pins = m
}

// decided tells whether st's path already decides condition c, and
// which way: its value under the pins, or an earlier constraint on the
// same condition (up to negation, and to the order of == and !='s
// operands), as when a compare-and-swap failed and the code then tests
// old == top.
func (st *State[E]) decided(c *Sym) (truth, ok bool) {
	if v, ok := st.pinned(c); ok {
		return prog.Truth(v), true
	}
	for _, k := range st.P.Cons {
		if same, neg := sameCond(k.S, c); same {
			return k.Want != neg, true
		}
	}
	return false, false
}

// sameCond tells whether conditions a and b are the same (neg false) or
// each other's negation (neg true), syntactically.
func sameCond(a, b *Sym) (same, neg bool) {
	for a.Unary && a.Op == prog.OpNot {
		a, neg = a.X, !neg
	}
	for b.Unary && b.Op == prog.OpNot {
		b, neg = b.X, !neg
	}
	if a == b || equalSym(a, b) {
		return true, neg
	}
	if !a.Unary && !b.Unary && !a.Known && !b.Known && a.Read < 0 && b.Read < 0 &&
		(a.Op == prog.OpEq || a.Op == prog.OpNe) && (b.Op == prog.OpEq || b.Op == prog.OpNe) {
		if equalSym(a.X, b.X) && equalSym(a.Y, b.Y) || equalSym(a.X, b.Y) && equalSym(a.Y, b.X) {
			return true, neg != (a.Op != b.Op)
		}
	}
	return false, false
}

// equalSym tells whether two symbolic values are the same expression.
func equalSym(a, b *Sym) bool {
	if a == b {
		return true
	}
	if a.Known || b.Known {
		return a.Known && b.Known && a.V == b.V
	}
	if a.Read >= 0 || b.Read >= 0 {
		return a.Read == b.Read
	}
	if a.Op != b.Op || a.Unary != b.Unary || !equalSym(a.X, b.X) {
		return false
	}
	return a.Unary || equalSym(a.Y, b.Y)
}
