package bmc

import (
	"errors"

	"github.com/musket-verify/musket/internal/cat"
)

// The evaluation of CAT expressions, and the application of functions.

func (ev *evaluator) expr(x cat.Expr, en *env) (value, error) {
	if err := ev.step(x.Pos()); err != nil {
		return nil, err
	}
	switch x := x.(type) {
	case *cat.Ident:
		return ev.lookup(x.Name, en, x.At)
	case *cat.EmptyLit:
		return emptyV{}, nil
	case *cat.UniverseLit:
		return univV{}, nil
	case *cat.TagLit:
		return tagV(x.Name), nil
	case *cat.SetLit:
		return ev.setLit(x, en)
	case *cat.TupleLit:
		t := make(tupleV, len(x.Elems))
		for i, el := range x.Elems {
			v, err := ev.expr(el, en)
			if err != nil {
				return nil, err
			}
			t[i] = v
		}
		return t, nil
	case *cat.UnaryExpr:
		a, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		return ev.unary(x.Op, a, x.At)
	case *cat.BinaryExpr:
		if x.Op == cat.OpSeq {
			return ev.seqChain(x, en)
		}
		a, err := ev.expr(x.X, en)
		if err != nil {
			return nil, err
		}
		if v, ok := ev.shortLeft(x.Op, a); ok {
			return v, nil
		}
		b, err := ev.expr(x.Y, en)
		if err != nil {
			return nil, err
		}
		return ev.binary(x.Op, a, b, x.At)
	case *cat.AppExpr:
		fn, err := ev.expr(x.Fun, en)
		if err != nil {
			return nil, err
		}
		arg, err := ev.expr(x.Arg, en)
		if err != nil {
			return nil, err
		}
		return ev.apply(fn, arg, x.At)
	case *cat.FunExpr:
		return &closureV{params: x.Params, body: x.Body, env: en, name: x.Name}, nil
	case *cat.LetExpr:
		return ev.letExpr(x, en)
	case *cat.IfExpr:
		c, err := ev.cond(x.Cond, en)
		if err != nil {
			return nil, err
		}
		if c {
			return ev.expr(x.Then, en)
		}
		return ev.expr(x.Else, en)
	case *cat.TryExpr:
		v, err := ev.expr(x.X, en)
		if err != nil {
			var u *UnsupportedError
			var l *lateError
			if errors.As(err, &u) || errors.As(err, &l) {
				return nil, err
			}
			return ev.expr(x.Y, en)
		}
		return v, nil
	case *cat.MatchTagExpr:
		return ev.matchTag(x, en)
	case *cat.MatchSetExpr:
		return ev.matchSet(x, en)
	}
	return nil, errf(x.Pos(), "unknown expression %T", x)
}

// setLit evaluates {e1, e2, ...}: a set of events, a relation (of pairs)
// or a set of other values.
func (ev *evaluator) setLit(x *cat.SetLit, en *env) (value, error) {
	if len(x.Elems) == 0 {
		return emptyV{}, nil
	}
	vals := make([]value, len(x.Elems))
	allE, allP := true, true
	for i, el := range x.Elems {
		v, err := ev.expr(el, en)
		if err != nil {
			return nil, err
		}
		vals[i] = v
		_, isE := v.(eventV)
		_, isP := v.(pairV)
		allE, allP = allE && isE, allP && isP
	}
	switch {
	case allE:
		s := newSet()
		for _, v := range vals {
			s.m[int(v.(eventV))] = bTrue
		}
		return s, nil
	case allP:
		r := newRel(ev.o.n())
		for _, v := range vals {
			p := v.(pairV)
			r.set(p[0], p[1], bTrue)
		}
		return r, nil
	}
	out := &vsetV{}
	for _, v := range vals {
		if !out.has(v) {
			out.elems = append(out.elems, v)
		}
	}
	return out, nil
}

// letExpr evaluates let [rec] binds in body.
func (ev *evaluator) letExpr(x *cat.LetExpr, en *env) (value, error) {
	var ne *env
	var err error
	if x.Rec {
		ne, err = ev.letRec(x.Binds, en, x.At)
	} else {
		ne, err = ev.let(x.Binds, en, false)
	}
	if err != nil {
		return nil, err
	}
	return ev.expr(x.Body, ne)
}

// matchTag evaluates the clause of a match on tags that the value selects.
func (ev *evaluator) matchTag(x *cat.MatchTagExpr, en *env) (value, error) {
	v, err := ev.expr(x.X, en)
	if err != nil {
		return nil, err
	}
	t, ok := v.(tagV)
	if !ok {
		return nil, errf(x.At, "match on tags applied to %s", kindName(v))
	}
	for _, cl := range x.Clauses {
		if cl.Tag == string(t) {
			return ev.expr(cl.Body, en)
		}
	}
	if x.Default != nil {
		return ev.expr(x.Default, en)
	}
	return nil, errf(x.At, "no clause matches '%s", string(t))
}

// matchSet evaluates a match on a set: empty, or one element and the rest.
func (ev *evaluator) matchSet(x *cat.MatchSetExpr, en *env) (value, error) {
	v, err := ev.expr(x.X, en)
	if err != nil {
		return nil, err
	}
	elems, err := ev.elements(v, x.At)
	if err != nil {
		return nil, err
	}
	if len(elems) == 0 {
		return ev.expr(x.Empty, en)
	}
	var rest value
	switch v := v.(type) {
	case *vsetV:
		rest = &vsetV{elems: v.elems[1:]}
	case *Set:
		one, _ := ev.asSet(elems[0])
		rest = ev.o.setDiff(v, one)
	case *Rel:
		one, _ := ev.asRel(elems[0])
		rest = ev.o.relDiff(v, one)
	case univV:
		one, _ := ev.asSet(elems[0])
		rest = ev.o.setDiff(ev.o.fullSet(), one)
	default:
		rest = emptyV{}
	}
	ne := en
	if x.Elem != "_" && x.Elem != "" {
		ne = ne.bind(x.Elem, elems[0])
	}
	if x.Rest != "_" && x.Rest != "" {
		ne = ne.bind(x.Rest, rest)
	}
	return ev.expr(x.NonEmpty, ne)
}

func (ev *evaluator) apply(fn, arg value, pos cat.Position) (value, error) {
	switch fn := fn.(type) {
	case *closureV:
		if ev.depth > 2000 {
			return nil, errf(pos, "recursion too deep")
		}
		ne, err := ev.bindPattern(fn.env, fn.params, arg, pos)
		if err != nil {
			return nil, err
		}
		ev.depth++
		v, err := ev.expr(fn.body, ne)
		ev.depth--
		return v, err
	case *builtinV:
		return fn.fn(ev, arg)
	}
	return nil, errf(pos, "cannot apply %s: not a function", kindName(fn))
}
