package cat

import (
	"fmt"

	"github.com/musket-verify/musket/internal/rel"
)

// The operators of CAT on run-time values. Event sets and relations are
// the common case; 0, {} and _ adapt to the other operand; single events
// and pairs act as singletons.

// class groups values by what the operators do with them.
type class int

const (
	cEmpty class = iota
	cUniv
	cSet
	cRel
	cValSet
	cOther
)

func classOf(v value) class {
	switch v.(type) {
	case emptyVal:
		return cEmpty
	case univVal:
		return cUniv
	case setVal, eventVal:
		return cSet
	case relVal, pairVal:
		return cRel
	case *valSet:
		return cValSet
	}
	return cOther
}

// asSet converts a set-like value to an event set.
func (r *run) asSet(v value) (rel.Set, bool) {
	switch v := v.(type) {
	case setVal:
		return v.s, true
	case eventVal:
		return rel.SetOf(r.n, int(v)), true
	case emptyVal:
		return r.emptySet(), true
	case univVal:
		return r.fullSet(), true
	}
	return rel.Set{}, false
}

// asRel converts a relation-like value to a relation.
func (r *run) asRel(v value) (rel.Rel, bool) {
	switch v := v.(type) {
	case relVal:
		return v.r, true
	case pairVal:
		return rel.RelOf(r.n, [2]int(v)), true
	case emptyVal:
		return r.emptyRel(), true
	case univVal:
		return r.fullRel(), true
	}
	return rel.Rel{}, false
}

// The constants of a universe of n events, cached with the memo (which
// is per n).
func (r *run) fullSet() rel.Set {
	m := r.memo
	if !m.haveFull {
		m.full, m.haveFull = rel.Full(r.n), true
	}
	return m.full
}

func (r *run) fullRel() rel.Rel {
	m := r.memo
	if !m.haveFullRel {
		m.fullRel, m.haveFullRel = rel.Cross(r.fullSet(), r.fullSet()), true
	}
	return m.fullRel
}

func (r *run) idRel() rel.Rel {
	m := r.memo
	if !m.haveID {
		m.id, m.haveID = rel.Identity(r.fullSet()), true
	}
	return m.id
}

func (r *run) emptySet() rel.Set {
	m := r.memo
	if !m.haveEmpty {
		m.emptySet, m.emptyRel, m.haveEmpty = rel.NewSet(r.n), rel.NewRel(r.n), true
	}
	return m.emptySet
}

func (r *run) emptyRel() rel.Rel {
	r.emptySet()
	return r.memo.emptyRel
}

func typeError(pos Position, op string, a, b value) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf("cannot apply %s to %s and %s", op, kindName(a), kindName(b))}
}

func typeError1(pos Position, op string, a value) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf("cannot apply %s to %s", op, kindName(a))}
}

// binary applies a binary operator.
func (r *run) binary(op Op, a, b value, pos Position) (value, error) {
	if op == OpAdd {
		return r.add(a, b, pos)
	}
	ca, cb := classOf(a), classOf(b)
	if ca == cOther || cb == cOther {
		return nil, typeError(pos, op.String(), a, b)
	}
	// The polymorphic constants first.
	switch op {
	case OpUnion:
		if ca == cEmpty {
			return b, nil
		}
		if cb == cEmpty {
			return a, nil
		}
		if ca == cUniv && cb != cValSet {
			return a, nil
		}
		if cb == cUniv && ca != cValSet {
			return b, nil
		}
	case OpInter:
		if ca == cEmpty || cb == cEmpty {
			return theEmpty, nil
		}
		if ca == cUniv && cb != cValSet {
			return b, nil
		}
		if cb == cUniv && ca != cValSet {
			return a, nil
		}
	case OpDiff:
		if ca == cEmpty || cb == cUniv {
			return theEmpty, nil
		}
		if cb == cEmpty {
			return a, nil
		}
	case OpSeq, OpCross:
		if ca == cEmpty || cb == cEmpty {
			return theEmpty, nil
		}
	}
	if op == OpCross {
		s, ok1 := r.asSet(a)
		t, ok2 := r.asSet(b)
		if !ok1 || !ok2 {
			return nil, typeError(pos, "*", a, b)
		}
		o := r.newRel()
		o.SetCross(s, t)
		return r.mkRel(o), nil
	}
	if op == OpSeq {
		x, ok1 := r.asRel(a)
		y, ok2 := r.asRel(b)
		if !ok1 || !ok2 {
			return nil, typeError(pos, ";", a, b)
		}
		o := r.newRel()
		o.SetSeq(x, y)
		return r.mkRel(o), nil
	}
	// |, & and \ on two operands of one kind (the universe takes the kind
	// of the other operand).
	kind := ca
	if kind == cUniv {
		kind = cb
	}
	if cb != cUniv && cb != kind {
		return nil, typeError(pos, op.String(), a, b)
	}
	switch kind {
	case cSet:
		x, _ := r.asSet(a)
		y, _ := r.asSet(b)
		o := r.newSet()
		boolOp(op, o, x, y)
		return r.mkSet(o), nil
	case cRel:
		x, _ := r.asRel(a)
		y, _ := r.asRel(b)
		o := r.newRel()
		boolOp(op, o, x, y)
		return r.mkRel(o), nil
	case cValSet:
		x, ok1 := a.(*valSet)
		y, ok2 := b.(*valSet)
		if !ok1 || !ok2 {
			return nil, typeError(pos, op.String(), a, b)
		}
		switch op {
		case OpUnion:
			return x.union(y), nil
		case OpInter:
			return x.filter(y, true), nil
		default:
			return x.filter(y, false), nil
		}
	case cUniv: // _ op _
		if op == OpDiff {
			return theEmpty, nil
		}
		return theUniv, nil
	}
	return nil, typeError(pos, op.String(), a, b)
}

// add is x ++ s: s with the element x.
func (r *run) add(x, s value, pos Position) (value, error) {
	switch s := s.(type) {
	case emptyVal:
		switch x := x.(type) {
		case eventVal:
			return r.mkSet(rel.SetOf(r.n, int(x))), nil
		case pairVal:
			return r.mkRel(rel.RelOf(r.n, [2]int(x))), nil
		}
		return newValSet(x), nil
	case *valSet:
		return s.with(x), nil
	case setVal:
		if e, ok := x.(eventVal); ok {
			return r.mkSet(s.s.With(int(e))), nil
		}
		if s.s.IsEmpty() {
			return newValSet(x), nil
		}
	case relVal:
		if p, ok := x.(pairVal); ok {
			return r.mkRel(s.r.Union(rel.RelOf(r.n, [2]int(p)))), nil
		}
		if s.r.IsEmpty() {
			return newValSet(x), nil
		}
	}
	return nil, typeError(pos, "++", x, s)
}

// unary applies a prefix or postfix operator.
func (r *run) unary(op Op, a value, pos Position) (value, error) {
	switch op {
	case OpCompl:
		switch a := a.(type) {
		case emptyVal:
			return theUniv, nil
		case univVal:
			return theEmpty, nil
		case setVal, eventVal:
			s, _ := r.asSet(a)
			return r.mkSet(s.Complement()), nil
		case relVal, pairVal:
			x, _ := r.asRel(a)
			return r.mkRel(x.Complement()), nil
		}
	case OpToID:
		switch a := a.(type) {
		case emptyVal:
			return theEmpty, nil
		case univVal:
			return r.mkRel(r.idRel()), nil
		case setVal, eventVal:
			s, _ := r.asSet(a)
			return r.mkRel(rel.Identity(s)), nil
		}
	case OpInv:
		switch a := a.(type) {
		case emptyVal, univVal:
			return a, nil
		case pairVal:
			return pairVal{a[1], a[0]}, nil
		case relVal:
			o := r.newRel()
			o.SetInverse(a.r)
			return r.mkRel(o), nil
		}
	case OpPlus:
		switch a := a.(type) {
		case emptyVal, univVal:
			return a, nil
		case relVal, pairVal:
			x, _ := r.asRel(a)
			o := r.newRel()
			o.OrWith(x)
			o.Close()
			return r.mkRel(o), nil
		}
	case OpStar, OpOpt:
		switch a := a.(type) {
		case emptyVal:
			return r.mkRel(r.idRel()), nil
		case univVal:
			return a, nil
		case relVal, pairVal:
			x, _ := r.asRel(a)
			o := r.newRel()
			o.OrWith(x)
			if op == OpStar {
				o.Close()
			}
			o.OrWith(r.idRel())
			return r.mkRel(o), nil
		}
	}
	return nil, typeError1(pos, op.String(), a)
}

// elements lists the elements of a set-like value, for with, forall and
// the matches on sets.
func (r *run) elements(v value, pos Position) ([]value, error) {
	switch v := v.(type) {
	case emptyVal:
		return nil, nil
	case univVal:
		return r.elements(r.mkSet(r.fullSet()), pos)
	case setVal:
		out := make([]value, 0, v.s.Len())
		v.s.Each(func(e int) { out = append(out, eventVal(e)) })
		return out, nil
	case relVal:
		out := make([]value, 0, v.r.Len())
		v.r.Each(func(i, j int) { out = append(out, pairVal{i, j}) })
		return out, nil
	case eventVal, pairVal:
		return []value{v}, nil
	case *valSet:
		return v.elems, nil
	}
	return nil, &Error{Pos: pos, Msg: fmt.Sprintf("cannot iterate over %s", kindName(v))}
}

// split takes one element out of a non-empty set-like value: the least
// event, the first pair, the first value.
func (r *run) split(v value, pos Position) (elem, rest value, ok bool, err error) {
	switch v := v.(type) {
	case emptyVal:
		return nil, nil, false, nil
	case univVal:
		return r.split(r.mkSet(r.fullSet()), pos)
	case setVal:
		e := -1
		v.s.Each(func(x int) {
			if e < 0 {
				e = x
			}
		})
		if e < 0 {
			return nil, nil, false, nil
		}
		return eventVal(e), r.mkSet(v.s.Without(e)), true, nil
	case relVal:
		var p [2]int
		found := false
		v.r.Each(func(i, j int) {
			if !found {
				p, found = [2]int{i, j}, true
			}
		})
		if !found {
			return nil, nil, false, nil
		}
		return pairVal(p), r.mkRel(v.r.Diff(rel.RelOf(r.n, p))), true, nil
	case eventVal:
		return v, theEmpty, true, nil
	case pairVal:
		return v, theEmpty, true, nil
	case *valSet:
		if len(v.elems) == 0 {
			return nil, nil, false, nil
		}
		return v.elems[0], &valSet{elems: v.elems[1:len(v.elems):len(v.elems)], hashes: v.hashes[1:len(v.hashes):len(v.hashes)]}, true, nil
	}
	return nil, nil, false, &Error{Pos: pos, Msg: fmt.Sprintf("cannot match %s against {} or e ++ s", kindName(v))}
}

// member tells whether x is an element of s.
func (r *run) member(x, s value, pos Position) (bool, error) {
	switch s := s.(type) {
	case emptyVal:
		return false, nil
	case univVal:
		return true, nil
	case setVal:
		if e, ok := x.(eventVal); ok {
			return s.s.Has(int(e)), nil
		}
	case relVal:
		if p, ok := x.(pairVal); ok {
			return s.r.Has(p[0], p[1]), nil
		}
	case *valSet:
		return s.has(x, hashValue(x)), nil
	}
	return false, typeError(pos, "in", x, s)
}

// subset tells whether a ⊆ b.
func (r *run) subset(a, b value, pos Position) (bool, error) {
	d, err := r.binary(OpDiff, a, b, pos)
	if err != nil {
		return false, err
	}
	e, ok := isEmptyValue(d, r.n)
	if !ok {
		return false, typeError(pos, "subset", a, b)
	}
	return e, nil
}

// test evaluates acyclic, irreflexive or empty on v.
func (r *run) test(kind TestKind, v value, pos Position) (bool, error) {
	switch kind {
	case IsEmpty:
		e, ok := isEmptyValue(v, r.n)
		if !ok {
			return false, typeError1(pos, "empty", v)
		}
		return e, nil
	case Acyclic, Irreflexive:
		switch v := v.(type) {
		case emptyVal:
			return true, nil
		case setVal:
			// A set stands for its identity: cyclic as soon as non-empty.
			return v.s.IsEmpty(), nil
		}
		x, ok := r.asRel(v)
		if !ok {
			return false, typeError1(pos, kind.String(), v)
		}
		if kind == Irreflexive {
			return x.Irreflexive(), nil
		}
		return x.Acyclic(), nil
	}
	return false, nil
}

// bitOps are the in-place operations of rel.Set and rel.Rel.
type bitOps[T any] interface {
	OrWith(T)
	AndWith(T)
	SetDiff(a, b T)
}

// boolOp makes o, empty, x op y for op one of |, & and \.
func boolOp[T bitOps[T]](op Op, o, x, y T) {
	switch op {
	case OpUnion:
		o.OrWith(x)
		o.OrWith(y)
	case OpInter:
		o.OrWith(x)
		o.AndWith(y)
	default:
		o.SetDiff(x, y)
	}
}
