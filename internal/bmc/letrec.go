package bmc

import (
	"github.com/musket-verify/musket/internal/cat"
)

// Recursive definitions (let rec): functions see themselves; monotone
// values get the relaxed encoding (any fixpoint; leastfix.go makes it the
// least in inconsistent mode); others are iterated as herd7 does
// (kleene.go).

// letRec binds recursive functions, and encodes recursive values with the
// relaxed ("any fixpoint") encoding of "BMC with Memory Models as Modules"
// (FMCAD 2018): a variable per may-pair
// of each recursive relation, equivalent to its definition applied to
// the variables. The may-pairs are the least fixpoint of the shapes.
func (ev *evaluator) letRec(binds []*cat.Binding, en *env, pos cat.Position) (*env, error) {
	// Functions first: their environment holds every binding of the let.
	var recEnv *env = en
	var vals []recSlot
	for _, b := range binds {
		if b.Pat.Tuple {
			return en, unsupported(b.At, "let rec of a tuple")
		}
		recEnv = recEnv.bind(b.Pat.Names[0], emptyV{})
		if fe, ok := b.Value.(*cat.FunExpr); ok {
			recEnv.v = &closureV{params: fe.Params, body: fe.Body, name: fe.Name}
		} else {
			vals = append(vals, recSlot{node: recEnv, b: b})
		}
	}
	for x := recEnv; x != en; x = x.up {
		if c, ok := x.v.(*closureV); ok {
			c.env = recEnv
		}
	}
	if len(vals) == 0 {
		return recEnv, nil
	}
	// Shapes: iterate with fresh placeholders until the may-sets settle.
	shapes := make([]value, len(vals))
	for i := range shapes {
		shapes[i] = emptyV{}
	}
	placeholder := func(shape value) value {
		switch s := shape.(type) {
		case *Set:
			out := newSet()
			for k := range s.m {
				out.m[k] = ev.f.boolVar("rec")
			}
			return out
		case *Rel:
			out := newRel(ev.o.n())
			s.each(func(i, j int, _ B) { out.set(i, j, ev.f.boolVar("rec")) })
			return out
		}
		return shape
	}
	// The passes only want the keys of the values (constants fold the
	// same way in shape mode): no formula is built, nothing asserted.
	wasShape := ev.f.shape
	ev.f.shape = true
	if !wasShape {
		ev.shapePass++
	}
	endPass := func() {
		ev.f.shape = wasShape
		if !wasShape {
			ev.shapePass--
		}
	}
	for it := 0; ; it++ {
		if it > ev.o.n()*ev.o.n()+10 {
			endPass()
			return en, errf(pos, "recursive definition does not converge")
		}
		for i, s := range vals {
			s.node.v = placeholder(shapes[i])
		}
		changed := false
		next := make([]value, len(vals))
		for i, s := range vals {
			v, err := ev.expr(s.b.Value, recEnv)
			if err != nil {
				endPass()
				return en, err
			}
			next[i] = v
		}
		for i := range vals {
			u, grew, err := ev.shapeUnion(shapes[i], next[i], pos)
			if err != nil {
				endPass()
				return en, err
			}
			shapes[i] = u
			changed = changed || grew
		}
		if !changed {
			break
		}
	}
	endPass()
	if !monotoneGroup(binds) {
		// herd7's iteration from empty, exactly (kleene.go).
		return recEnv, ev.kleene(vals, shapes, recEnv, pos)
	}
	// The final variables and their definitions: each variable is
	// equivalent to its definition or, when every question asked of the
	// encoding wants the values small (polarity.go), implied by it.
	oneWay := ev.e.incons == nil && ev.e.pol.smallOnly(binds)
	define := func(x, d B) B {
		if oneWay {
			return ev.f.implies(d, x)
		}
		return ev.f.iff(x, d)
	}
	for i, s := range vals {
		s.node.v = placeholder(shapes[i])
	}
	for _, s := range vals {
		v, err := ev.expr(s.b.Value, recEnv)
		if err != nil {
			return en, err
		}
		switch x := s.node.v.(type) {
		case *Set:
			d, _ := ev.asSet(v)
			for k, b := range x.m {
				ev.f.assert(define(b, entry(d.m, k)))
			}
		case *Rel:
			d, _ := ev.asRel(v)
			x.each(func(i, j int, b B) {
				y, _ := d.get(i, j)
				ev.f.assert(define(b, y))
			})
		}
	}
	if ev.e.incons != nil {
		return recEnv, ev.leastFixpoint(binds, recEnv, en, pos)
	}
	return recEnv, nil
}

// shapeUnion adds the keys of v to the shape s; grew says whether any was
// new.
func (ev *evaluator) shapeUnion(s, v value, pos cat.Position) (value, bool, error) {
	switch v.(type) {
	case emptyV:
		return s, false, nil
	case *Set, eventV:
		vs, _ := ev.asSet(v)
		out, ok := s.(*Set)
		if !ok {
			if _, e := s.(emptyV); !e {
				return nil, false, errf(pos, "recursive value changes kind")
			}
			out = newSet()
		}
		grew := false
		for k := range vs.m {
			if _, have := out.m[k]; !have {
				out.m[k] = bTrue
				grew = true
			}
		}
		return out, grew, nil
	case *Rel, pairV, univV:
		vr, _ := ev.asRel(v)
		out, ok := s.(*Rel)
		if !ok {
			if _, e := s.(emptyV); !e {
				return nil, false, errf(pos, "recursive value changes kind")
			}
			out = newRel(ev.o.n())
		}
		grew := false
		vr.each(func(i, j int, _ B) {
			if _, have := out.get(i, j); !have {
				out.set(i, j, bTrue)
				grew = true
			}
		})
		return out, grew, nil
	}
	return nil, false, unsupported(pos, "recursive definition of a %s", kindName(v))
}
