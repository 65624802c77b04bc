package bmc

import (
	"fmt"
	"path/filepath"

	"github.com/musket-verify/musket/internal/cat"
)

// The symbolic evaluator of CAT models. It walks the model's syntax (after
// include expansion) with values that are either concrete (tags, tuples,
// sets of values, functions, procedures) or symbolic sets and relations
// (see rel.go). Checks become constraints; flags become formulas asked
// about after the encoding.

type evaluator struct {
	e        *encoding
	o        *ops
	f        *fb
	variants map[string]bool
	depth    int
	steps    int
	lazies   []*lazyV // the lazy bindings made (lazy.go)
	// recGroups are the let rec waiting for their first use (caat.go).
	recGroups []*recGroup
	// shapePass counts the let rec shape passes under way: a lazy
	// binding first used there is still evaluated for real.
	shapePass int
}

const maxEvalSteps = 5_000_000

func (ev *evaluator) step(pos cat.Position) error {
	ev.steps++
	if ev.steps > maxEvalSteps {
		return errf(pos, "evaluation takes too many steps")
	}
	return nil
}

// model encodes the model's checks.
func (e *encoding) model() error {
	e.inputs = e.buildInputs()
	ss, err := e.uafStmts()
	if err != nil {
		return err
	}
	if e.opts.FreedMark != nil {
		if e.uafProbe != nil {
			e.inputs[probeName] = e.uafProbe
		} else {
			ss = e.m.Syntax() // no access to a freed object's cell
		}
	}
	e.pol = nil
	if e.incons == nil && e.oneWay {
		e.pol = analysePolarity(ss)
	}
	e.caat = nil
	if e.caatOn && e.incons == nil {
		e.caat = newCAAT(e.o.n())
	}
	ev := &evaluator{e: e, o: e.o, f: e.f, variants: e.opts.Variants}
	if _, err := ev.stmts(ss, nil, ""); err != nil {
		return err
	}
	if err := ev.recouple(); err != nil {
		return err
	}
	if err := ev.checkUnused(); err != nil {
		return err
	}
	e.addDerived()
	return nil
}

func (ev *evaluator) stmts(ss []cat.Stmt, en *env, as string) (*env, error) {
	var err error
	for _, s := range ss {
		if en, err = ev.stmt(s, en, as); err != nil {
			return en, err
		}
	}
	return en, nil
}

func (ev *evaluator) stmt(s cat.Stmt, en *env, as string) (*env, error) {
	switch s := s.(type) {
	case *cat.LetStmt:
		return ev.letStmt(s, en, as)
	case *cat.CheckStmt:
		return en, ev.check(s.Kind, s.Test, en, as)
	case *cat.ShowStmt, *cat.DebugStmt, *cat.EventsStmt:
		return en, nil
	case *cat.IncludeStmt:
		return en, errf(s.At, "include %q was not resolved", s.Path)
	case *cat.BlockStmt:
		en, err := ev.stmts(s.Stmts, en, as)
		if _, ok := en.lookup("map"); ok && err == nil && filepath.Base(s.File) == "stdlib.cat" {
			// The library's map, also over sets that depend on the
			// execution (lockco.go).
			en = en.bind("map", nativeMap)
		}
		return en, err
	case *cat.ProcStmt:
		return en.bind(s.Name, &procV{params: s.Params, body: s.Body, env: nil}).fixProc(), nil
	case *cat.CallStmt:
		return ev.call(s, en, as)
	case *cat.ForallStmt:
		return ev.forall(s, en, as)
	case *cat.WithStmt:
		return ev.with(s, en)
	case *cat.EnumStmt:
		tags := make([]value, len(s.Tags))
		for i, t := range s.Tags {
			tags[i] = tagV(t)
		}
		return en.bind(s.Name, &vsetV{elems: tags}), nil
	case *cat.IfStmt:
		c, err := ev.cond(s.Cond, en)
		if err != nil {
			return en, err
		}
		if c {
			return ev.stmts(s.Then, en, as)
		}
		return ev.stmts(s.Else, en, as)
	case *cat.MatchStmt:
		return ev.matchStmt(s, en, as)
	}
	return en, errf(s.Pos(), "unknown statement %T", s)
}

// letStmt binds a let or let rec, and checks its `when`.
func (ev *evaluator) letStmt(s *cat.LetStmt, en *env, as string) (*env, error) {
	var err error
	if s.Rec && ev.lazyRecOK(s) {
		return ev.bindRec(s, en), nil
	}
	if s.Rec {
		en, err = ev.letRec(s.Binds, en, s.At)
	} else {
		en, err = ev.let(s.Binds, en, true)
	}
	if err != nil {
		return en, err
	}
	if s.When != nil {
		return en, ev.check(cat.Check, s.When, en, as)
	}
	return en, nil
}

// call runs a procedure's body on its argument; its checks are named
// after the call's `as`, if any.
func (ev *evaluator) call(s *cat.CallStmt, en *env, as string) (*env, error) {
	pv, err := ev.lookup(s.Name, en, s.At)
	if err != nil {
		return en, err
	}
	p, ok := pv.(*procV)
	if !ok {
		return en, errf(s.At, "cannot call %s: not a procedure", s.Name)
	}
	arg, err := ev.expr(s.Arg, en)
	if err != nil {
		return en, err
	}
	pe, err := ev.bindPattern(p.env, p.params, arg, s.At)
	if err != nil {
		return en, err
	}
	name := as
	if s.As != "" {
		name = s.As
	}
	if ev.depth > 2000 {
		return en, errf(s.At, "recursion too deep")
	}
	ev.depth++
	_, err = ev.stmts(p.body, pe, name)
	ev.depth--
	return en, err
}

// forall runs the body once per element of a set known statically.
func (ev *evaluator) forall(s *cat.ForallStmt, en *env, as string) (*env, error) {
	v, err := ev.expr(s.Set, en)
	if err != nil {
		return en, err
	}
	elems, err := ev.elements(v, s.At)
	if err != nil {
		return en, err
	}
	for _, x := range elems {
		if _, err := ev.stmts(s.Body, en.bind(s.Var, x), as); err != nil {
			return en, err
		}
	}
	return en, nil
}

// with binds the variable of `with x from S`: co (the engine's own
// coherence order), cross(F) of the kernel's lock.cat, or the one value
// of S; other choices are refused by name.
func (ev *evaluator) with(s *cat.WithStmt, en *env) (*env, error) {
	if s.Var == "co" {
		// The engine's coherence order is a total order of the writes
		// of each location with the initial write first: what
		// generate_cos and linearisations of the writes per location
		// enumerate (lockco.go when W has other events).
		co, err := ev.withCo(s, en)
		if err != nil {
			return en, err
		}
		return en.bind("co", co), nil
	}
	if x, ok, err := ev.withCross(s, en); err != nil {
		return en, err
	} else if ok {
		return en.bind(s.Var, x), nil
	}
	v, err := ev.expr(s.Set, en)
	if err != nil {
		return en, err
	}
	elems, err := ev.elements(v, s.At)
	if err != nil || len(elems) != 1 {
		return en, unsupported(s.At, "with %s from a set of several values", s.Var)
	}
	return en.bind(s.Var, elems[0]), nil
}

// matchStmt runs the clause of a match on tags that the value selects.
func (ev *evaluator) matchStmt(s *cat.MatchStmt, en *env, as string) (*env, error) {
	v, err := ev.expr(s.X, en)
	if err != nil {
		return en, err
	}
	t, ok := v.(tagV)
	if !ok {
		return en, errf(s.At, "match on tags applied to %s", kindName(v))
	}
	for _, cl := range s.Clauses {
		if cl.Tag == string(t) {
			return ev.stmts(cl.Body, en, as)
		}
	}
	if !s.HasDef {
		return en, errf(s.At, "no clause matches '%s", string(t))
	}
	return ev.stmts(s.Default, en, as)
}

func (ev *evaluator) let(binds []*cat.Binding, en *env, top bool) (*env, error) {
	vals := make([]value, len(binds))
	lazy := make([]bool, len(binds))
	for i, b := range binds {
		if fe, ok := b.Value.(*cat.FunExpr); ok {
			vals[i] = &closureV{params: fe.Params, body: fe.Body, env: en, name: fe.Name}
			continue
		}
		if top && ev.lazyOK(b) {
			l := &lazyV{x: b.Value, en: en, pat: b.Pat}
			ev.lazies = append(ev.lazies, l)
			vals[i] = l
			lazy[i] = true
			continue
		}
		v, err := ev.expr(b.Value, en)
		if err != nil {
			return en, err
		}
		vals[i] = v
	}
	out := en
	for i, b := range binds {
		v := vals[i]
		if top && !lazy[i] {
			v = ev.named(b.Pat, v)
		}
		var err error
		if out, err = ev.bindPattern(out, b.Pat, v, b.At); err != nil {
			return en, err
		}
	}
	return out, nil
}

// named records the size of a top-level relation and, without relation
// analysis, turns it into a full matrix of variables.
func (ev *evaluator) named(p cat.Pattern, v value) value {
	r, ok := v.(*Rel)
	if !ok {
		if ev.e.opts.NoAnalysis {
			if _, isU := v.(univV); isU {
				return v
			}
			if _, isE := v.(emptyV); isE && !p.Tuple {
				r = newRel(ev.o.n())
			}
		}
		if r == nil {
			return v
		}
	}
	may, must := r.size()
	ev.f.stats.RelPairs += may
	ev.f.stats.MustPairs += must
	if !ev.e.opts.NoAnalysis {
		return r
	}
	out := newRel(ev.o.n())
	for i := 0; i < ev.o.n(); i++ {
		for j := 0; j < ev.o.n(); j++ {
			x := ev.f.boolVar("r")
			b, _ := r.get(i, j)
			ev.f.assert(ev.f.iff(x, b))
			out.set(i, j, x)
		}
	}
	return out
}

func (ev *evaluator) bindPattern(en *env, p cat.Pattern, v value, pos cat.Position) (*env, error) {
	if !p.Tuple {
		if p.Names[0] != "_" {
			en = en.bind(p.Names[0], v)
		}
		return en, nil
	}
	t, ok := v.(tupleV)
	if !ok || len(t) != len(p.Names) {
		return en, errf(pos, "expected a tuple of %d, got %s", len(p.Names), kindName(v))
	}
	for i, name := range p.Names {
		if name != "_" {
			en = en.bind(name, t[i])
		}
	}
	return en, nil
}

func (ev *evaluator) lookup(name string, en *env, pos cat.Position) (value, error) {
	if v, ok := en.lookup(name); ok {
		if l, lazy := v.(*lazyV); lazy {
			return ev.force(l)
		}
		if l, lazy := v.(*lazyRecV); lazy {
			return ev.forceRec(l)
		}
		return v, nil
	}
	if b, ok := builtins[name]; ok {
		return b, nil
	}
	if v, ok := ev.e.inputs[name]; ok {
		return v, nil
	}
	switch set, rel := cat.EmptyByDefault(name); {
	case set:
		return newSet(), nil
	case rel:
		return newRel(ev.o.n()), nil
	}
	switch name {
	case "co0":
		// herd7's co0: the initial write of each location before its
		// other writes.
		iw, w := ev.e.inputs["IW"].(*Set), ev.e.inputs["W"].(*Set)
		return ev.o.relInter(ev.e.inputs["loc"].(*Rel), ev.o.cross(iw, ev.o.setDiff(w, iw))), nil
	case "pco":
		return nil, unsupported(pos, "pco")
	}
	return nil, errf(pos, "unbound name %s%s", name, cat.UnboundHint(name))
}

// cond decides the condition of an if; it must be static.
func (ev *evaluator) cond(c cat.Cond, en *env) (bool, error) {
	switch c := c.(type) {
	case *cat.VariantCond:
		return ev.variants[c.Name], nil
	case *cat.NotCond:
		b, err := ev.cond(c.X, en)
		return !b, err
	case *cat.AndCond:
		b, err := ev.cond(c.X, en)
		if err != nil || !b {
			return false, err
		}
		return ev.cond(c.Y, en)
	case *cat.OrCond:
		b, err := ev.cond(c.X, en)
		if err != nil || b {
			return b, err
		}
		return ev.cond(c.Y, en)
	case *cat.CompareCond:
		a, err := ev.expr(c.X, en)
		if err != nil {
			return false, err
		}
		b, err := ev.expr(c.Y, en)
		if err != nil {
			return false, err
		}
		switch c.Op {
		case cat.IN:
			if s, ok := b.(*vsetV); ok {
				return s.has(a), nil
			}
			return false, unsupported(c.At, "membership test on %s", kindName(b))
		case cat.EQ:
			if eq, known := staticEqual(a, b); known {
				return eq, nil
			}
			ea, ka := ev.staticEmpty(a)
			eb, kb := ev.staticEmpty(b)
			if ka && kb && (ea || eb) {
				return ea == eb, nil
			}
			return false, unsupported(c.At, "comparison of values that depend on the execution")
		default:
			d, err := ev.binary(cat.OpDiff, a, b, c.At)
			if err != nil {
				return false, err
			}
			if e, known := ev.staticEmpty(d); known {
				return e, nil
			}
			return false, unsupported(c.At, "subset test on values that depend on the execution")
		}
	}
	return false, fmt.Errorf("unknown condition %T", c)
}
