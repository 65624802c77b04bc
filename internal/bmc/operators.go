package bmc

import (
	"github.com/musket-verify/musket/internal/cat"
)

// The operators of CAT on the evaluator's values: union, intersection,
// difference, sequence and cartesian product, ++, the unary operators
// (complement, [e], inverse, closures, ?) and the elements of a set.

func (ev *evaluator) binary(op cat.Op, a, b value, pos cat.Position) (value, error) {
	if op == cat.OpAdd {
		return ev.add(a, b, pos)
	}
	ca, cb := classOf(a), classOf(b)
	if ca == cOther || cb == cOther {
		return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
	}
	if v, ok := shortcut(op, ca, cb, a, b); ok {
		return v, nil
	}
	switch op {
	case cat.OpCross:
		s, ok1 := ev.asSet(a)
		t, ok2 := ev.asSet(b)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply * to %s and %s", kindName(a), kindName(b))
		}
		return ev.o.cross(s, t), nil
	case cat.OpSeq:
		x, ok1 := ev.asRel(a)
		y, ok2 := ev.asRel(b)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply ; to %s and %s", kindName(a), kindName(b))
		}
		return ev.o.seq(x, y), nil
	}
	kind := ca
	if kind == cUniv {
		kind = cb
	}
	if cb != cUniv && cb != kind {
		return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
	}
	switch kind {
	case cSet:
		x, _ := ev.asSet(a)
		y, _ := ev.asSet(b)
		switch op {
		case cat.OpUnion:
			return ev.o.setUnion(x, y), nil
		case cat.OpInter:
			return ev.o.setInter(x, y), nil
		}
		return ev.o.setDiff(x, y), nil
	case cRel:
		x, _ := ev.asRel(a)
		y, _ := ev.asRel(b)
		switch op {
		case cat.OpUnion:
			return ev.o.relUnion(x, y), nil
		case cat.OpInter:
			return ev.o.relInter(x, y), nil
		}
		return ev.o.relDiff(x, y), nil
	case cValSet:
		x, ok1 := a.(*vsetV)
		y, ok2 := b.(*vsetV)
		if !ok1 || !ok2 {
			return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
		}
		return valSetOp(op, x, y), nil
	case cUniv:
		if op == cat.OpDiff {
			return emptyV{}, nil
		}
		return univV{}, nil
	}
	return nil, errf(pos, "cannot apply %s to %s and %s", op, kindName(a), kindName(b))
}

// shortcut answers a binary operator at once when one side is empty or
// the universe (of events: sets of other values are left to valSetOp).
func shortcut(op cat.Op, ca, cb class, a, b value) (value, bool) {
	switch op {
	case cat.OpUnion:
		if ca == cEmpty {
			return b, true
		}
		if cb == cEmpty {
			return a, true
		}
		if ca == cUniv && cb != cValSet {
			return a, true
		}
		if cb == cUniv && ca != cValSet {
			return b, true
		}
	case cat.OpInter:
		if ca == cEmpty || cb == cEmpty {
			return emptyV{}, true
		}
		if ca == cUniv && cb != cValSet {
			return b, true
		}
		if cb == cUniv && ca != cValSet {
			return a, true
		}
	case cat.OpDiff:
		if ca == cEmpty || cb == cUniv {
			return emptyV{}, true
		}
		if cb == cEmpty {
			return a, true
		}
	case cat.OpSeq, cat.OpCross:
		if ca == cEmpty || cb == cEmpty {
			return emptyV{}, true
		}
	}
	return nil, false
}

// valSetOp is union, intersection or difference of sets of values (tags,
// tuples, sets), in the order of their elements.
func valSetOp(op cat.Op, x, y *vsetV) *vsetV {
	out := &vsetV{}
	switch op {
	case cat.OpUnion:
		out.elems = append(out.elems, x.elems...)
		for _, v := range y.elems {
			if !x.has(v) {
				out.elems = append(out.elems, v)
			}
		}
	case cat.OpInter:
		for _, v := range x.elems {
			if y.has(v) {
				out.elems = append(out.elems, v)
			}
		}
	default:
		for _, v := range x.elems {
			if !y.has(v) {
				out.elems = append(out.elems, v)
			}
		}
	}
	return out
}

func (ev *evaluator) add(x, s value, pos cat.Position) (value, error) {
	switch s := s.(type) {
	case emptyV:
		switch x := x.(type) {
		case eventV:
			return &Set{m: map[int]B{int(x): bTrue}}, nil
		case pairV:
			r := newRel(ev.o.n())
			r.set(x[0], x[1], bTrue)
			return r, nil
		}
		return &vsetV{elems: []value{x}}, nil
	case *vsetV:
		if s.has(x) {
			return s, nil
		}
		return &vsetV{elems: append(append([]value(nil), s.elems...), x)}, nil
	case *Set:
		if e, ok := x.(eventV); ok {
			one, _ := ev.asSet(e)
			return ev.o.setUnion(s, one), nil
		}
		if len(s.m) == 0 {
			return &vsetV{elems: []value{x}}, nil
		}
	case *Rel:
		if p, ok := x.(pairV); ok {
			one, _ := ev.asRel(p)
			return ev.o.relUnion(s, one), nil
		}
		if s.isEmpty() {
			return &vsetV{elems: []value{x}}, nil
		}
	}
	return nil, errf(pos, "cannot apply ++ to %s and %s", kindName(x), kindName(s))
}

func (ev *evaluator) unary(op cat.Op, a value, pos cat.Position) (value, error) {
	o := ev.o
	switch op {
	case cat.OpCompl:
		switch a.(type) {
		case emptyV:
			return univV{}, nil
		case univV:
			return emptyV{}, nil
		case *Set, eventV:
			s, _ := ev.asSet(a)
			return o.setCompl(s), nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			return o.relCompl(r), nil
		}
	case cat.OpToID:
		switch a.(type) {
		case emptyV:
			return emptyV{}, nil
		case univV:
			return o.idRel(), nil
		case *Set, eventV:
			s, _ := ev.asSet(a)
			return o.toID(s), nil
		}
	case cat.OpInv:
		switch a := a.(type) {
		case emptyV, univV:
			return a, nil
		case pairV:
			return pairV{a[1], a[0]}, nil
		case *Rel:
			return o.inverse(a), nil
		}
	case cat.OpPlus:
		switch a.(type) {
		case emptyV, univV:
			return a, nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			return o.plus(r), nil
		}
	case cat.OpStar, cat.OpOpt:
		switch a.(type) {
		case emptyV:
			return o.idRel(), nil
		case univV:
			return a, nil
		case *Rel, pairV:
			r, _ := ev.asRel(a)
			if op == cat.OpOpt {
				return o.relUnion(r, o.idRel()), nil
			}
			return o.relUnion(o.plus(r), o.idRel()), nil
		}
	}
	return nil, errf(pos, "cannot apply %s to %s", op, kindName(a))
}

// elements lists the elements of a set-like value whose membership is
// known statically.
func (ev *evaluator) elements(v value, pos cat.Position) ([]value, error) {
	switch v := v.(type) {
	case emptyV:
		return nil, nil
	case univV:
		return ev.elements(ev.o.fullSet(), pos)
	case *Set:
		var out []value
		for _, k := range v.elems() {
			if !v.m[k].isTrue() || !ev.o.exec[k].isTrue() {
				return nil, unsupported(pos, "iterating over a set whose elements depend on the execution")
			}
			out = append(out, eventV(k))
		}
		return out, nil
	case *Rel:
		var out []value
		var err error
		v.each(func(i, j int, b B) {
			if !b.isTrue() || !ev.o.exec[i].isTrue() || !ev.o.exec[j].isTrue() {
				err = unsupported(pos, "iterating over a relation whose pairs depend on the execution")
			}
			out = append(out, pairV{i, j})
		})
		return out, err
	case eventV, pairV:
		return []value{v}, nil
	case *vsetV:
		return v.elems, nil
	case *symSetV:
		for _, b := range v.in {
			if !b.isTrue() {
				return nil, unsupported(pos, "iterating over a set whose elements depend on the execution")
			}
		}
		return v.elems, nil
	}
	return nil, errf(pos, "cannot iterate over %s", kindName(v))
}
