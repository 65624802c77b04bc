package cat

import "github.com/musket-verify/musket/internal/rel"

// Fresh values. The operators |, & and \ on two relations (or two event
// sets) make a new value, and the operand that an operator has just made
// is referenced nowhere else: the union a | b | c of a model (grouped to
// the right, a | (b | c)) need not copy b | c to add a to it. evalOwned
// evaluates a node and tells whether its value is such a fresh relation or
// set, which the caller may then change in place (rel's *With methods)
// and return as its own value. Values read from names, from the memo or
// from an input are never fresh.

// evalOwned evaluates n; fresh reports that the value is a relation or
// event set made by this evaluation and shared with nothing.
func (r *run) evalOwned(n node, f *frame) (v value, fresh bool, err error) {
	switch n := n.(type) {
	case *binaryNode:
		return n.evalOwned(r, f)
	case *seqNode:
		v, err := n.eval(r, f)
		_, isRel := v.(relVal)
		return v, isRel && err == nil, err
	case *unaryNode:
		return n.evalOwned(r, f)
	}
	v, err = n.eval(r, f)
	return v, false, err
}

// evalOwned evaluates a prefix or postfix operator; the closures +, * and
// ? of a fresh relation are computed in it.
func (n *unaryNode) evalOwned(r *run, f *frame) (value, bool, error) {
	var a value
	var err error
	if n.op == OpPlus || n.op == OpStar || n.op == OpOpt {
		var fresh bool
		a, fresh, err = r.evalOwned(n.x, f)
		if err != nil {
			return nil, false, err
		}
		if x, ok := a.(relVal); ok && fresh {
			if n.op != OpOpt {
				x.r.Close()
			}
			if n.op != OpPlus {
				x.r.OrWith(r.idRel())
			}
			return a, true, nil
		}
	} else {
		a, err = n.x.eval(r, f)
		if err != nil {
			return nil, false, err
		}
	}
	v, err := r.unary(n.op, a, n.pos)
	if err != nil {
		return nil, false, err
	}
	// The operators make a new value from a relation, pair, set or
	// event; from 0 and _ they return constants.
	switch a.(type) {
	case emptyVal, univVal:
		return v, false, nil
	}
	switch v.(type) {
	case relVal, setVal:
		return v, true, nil
	}
	return v, false, nil
}

// evalOwned evaluates a binary operator, in place in a fresh operand
// where it can.
func (n *binaryNode) evalOwned(r *run, f *frame) (value, bool, error) {
	if n.op != OpUnion && n.op != OpInter && n.op != OpDiff {
		a, err := n.x.eval(r, f)
		if err != nil {
			return nil, false, err
		}
		b, err := n.y.eval(r, f)
		if err != nil {
			return nil, false, err
		}
		v, err := r.binary(n.op, a, b, n.pos)
		return v, false, err
	}
	if n.op == OpInter {
		if v, fresh, ok, err := n.evalInterCross(r, f); ok || err != nil {
			return v, fresh, err
		}
	}
	a, fa, err := r.evalOwned(n.x, f)
	if err != nil {
		return nil, false, err
	}
	b, fb, err := r.evalOwned(n.y, f)
	if err != nil {
		return nil, false, err
	}
	if fa || fb {
		if v, ok := inPlace(n.op, a, b, fa); ok {
			return v, true, nil
		}
	}
	v, err := r.binary(n.op, a, b, n.pos)
	return v, false, err
}

// inPlace computes a op b (|, & or \) in the fresh one of two relations
// or two event sets (a when fa, else b) and returns it; it reports false
// when the operands are not two relations or two sets.
func inPlace(op Op, a, b value, fa bool) (value, bool) {
	switch x := a.(type) {
	case relVal:
		y, ok := b.(relVal)
		if !ok {
			return nil, false
		}
		if fa {
			relWith(op, x.r, y.r)
			return a, true
		}
		switch op {
		case OpUnion:
			y.r.OrWith(x.r)
		case OpInter:
			y.r.AndWith(x.r)
		default:
			y.r.SetDiff(x.r, y.r)
		}
		return b, true
	case setVal:
		y, ok := b.(setVal)
		if !ok {
			return nil, false
		}
		if fa {
			setWith(op, x.s, y.s)
			return a, true
		}
		switch op {
		case OpUnion:
			y.s.OrWith(x.s)
		case OpInter:
			y.s.AndWith(x.s)
		default:
			y.s.SetDiff(x.s, y.s)
		}
		return b, true
	}
	return nil, false
}

func relWith(op Op, x, y rel.Rel) {
	switch op {
	case OpUnion:
		x.OrWith(y)
	case OpInter:
		x.AndWith(y)
	default:
		x.AndNotWith(y)
	}
}

func setWith(op Op, x, y rel.Set) {
	switch op {
	case OpUnion:
		x.OrWith(y)
	case OpInter:
		x.AndWith(y)
	default:
		x.AndNotWith(y)
	}
}

// evalInterCross computes r & (S * T) and (S * T) & r, common in models
// (herd7's cos-opt.cat: po-loc & (W * W)), by keeping the rows of r in S
// and the columns in T, without building S * T. It reports false when
// neither operand is a product (the caller evaluates n as usual); the
// operands are evaluated in the usual order, and any that are not an
// event set (for S and T) or a relation (for r) take the general
// operators.
func (n *binaryNode) evalInterCross(r *run, f *frame) (value, bool, bool, error) {
	cx, okx := n.x.(*binaryNode)
	cy, oky := n.y.(*binaryNode)
	crossFirst := okx && cx.op == OpCross
	if !crossFirst && (!oky || cy.op != OpCross) {
		return nil, false, false, nil
	}
	var other value
	if !crossFirst {
		v, err := n.x.eval(r, f)
		if err != nil {
			return nil, false, true, err
		}
		other, cx = v, cy
	}
	s, err := cx.x.eval(r, f)
	if err != nil {
		return nil, false, true, err
	}
	t, err := cx.y.eval(r, f)
	if err != nil {
		return nil, false, true, err
	}
	if crossFirst {
		v, err := n.y.eval(r, f)
		if err != nil {
			return nil, false, true, err
		}
		other = v
	}
	ss, ok1 := s.(setVal)
	ts, ok2 := t.(setVal)
	o, ok3 := other.(relVal)
	if ok1 && ok2 && ok3 {
		x := r.newRel()
		x.SetRestrict(o.r, ss.s, ts.s)
		return r.mkRel(x), true, true, nil
	}
	prod, err := r.binary(OpCross, s, t, cx.pos)
	if err != nil {
		return nil, false, true, err
	}
	a, b := other, prod
	if crossFirst {
		a, b = prod, other
	}
	v, err := r.binary(OpInter, a, b, n.pos)
	return v, false, true, err
}
