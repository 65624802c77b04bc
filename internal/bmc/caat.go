package bmc

import (
	"errors"
	"os"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/smt"
)

// Derived relations in the theory (after Haas, Meyer, Ponce-de-León,
// "CAAT: Consistency as a Theory", OOPSLA 2022). An `acyclic` or
// `irreflexive` check of the model is not evaluated into formulas:
// its relation is compiled into definitions of the solver's theory
// (smt.Derived) — union, sequence, intersection, inverse, closures and
// the least fixpoints of let rec — whose leaves (the relations the
// compiler does not take apart: rf, co, fr, po, dependencies, fences,
// differences, function applications...) are evaluated as before and
// reach the solver as one literal per may-pair. The theory derives the
// edges of the compiled relations from the leaves' literals as the
// solver makes them true and answers a cycle (or a reflexive edge) with
// a conflict explained by leaf literals. What the theory defines is
// never built as formulas: on Power, ppo's fixpoint (ii, ic, ci, cc), hb,
// hb* and prop are not encoded at all.
//
// A leaf is given whole, edge by edge, even when it is static: a
// relation the model builds from po through events (po; [F]; po) is
// derived from po's node, which every use of po shares, where
// fencerel(F) or a difference is a leaf of its own. So the built-in
// hardware models write their barriers through the fence events
// (aarch64.cat's bob, riscv.cat's fence edges, power.cat's strong and
// light: Power C msqueue.c 21 to 11 s of CPU).
//
// Only checks are compiled: a flag, a negated check or a model in
// inconsistent mode is evaluated as before, and so is a definition used
// elsewhere (a let binding is evaluated on its first ordinary use). A
// check the compiler cannot take (a set where it wants a relation,
// universe, a rec name inside a leaf) is evaluated as before, whole.
// Each satisfying model is checked again by a fresh derivation
// (checkLazy), so an answer never rests on edges the solver left
// unassigned.

// CAAT, when MUSKET_CAAT is "on" or "off" in the environment, overrides
// every caller's choice (Options.Derived).
var CAAT = envSwitch("MUSKET_CAAT", "on", "off")

// envSwitch is the value of the environment variable name when it is
// one of values, else "" (the caller's choice stands).
func envSwitch(name string, values ...string) string {
	v := os.Getenv(name)
	for _, w := range values {
		if v == w {
			return v
		}
	}
	return ""
}

// caatFor tells whether an encoding with opts compiles its checks into
// the theory (never without the relation analysis, nor after the lazy
// solver gave up).
func caatFor(opts Options) bool {
	c := CAAT
	if c == "" {
		c = opts.Derived
	}
	return c == "on" && !opts.NoAnalysis && !opts.forceEager
}

// DerivedFor is the Options.Derived of C programs under the built-in
// model named: "on" for the hardware models (power, aarch64, riscv,
// tso), "" (off) for the others (the C11 models go to the graph engine
// first, and the compiled checks were not measured there). Measured on
// examples/c with the compiled checks on: Power treiber.c from 14 s of
// CPU to 0.4 s, clh.c from no answer in 100 s to 0.5 s; AArch64,
// RISC-V, x86 mcs.c and msqueue.c 1.5-2.5x less; the corpus suites
// agree under both engines with them on. Under Power they say safe on
// mcs-bug.c and msqueue-bug.c, and that is right for Musket's mapping:
// an acquire load compiles to ld; lwsync, and the acquire loads between
// the data write and the relaxed hand-off store put an lwsync between
// the two stores (the same programs with those loads relaxed fail).
func DerivedFor(model string) string {
	switch model {
	case "power", "aarch64", "riscv", "tso":
		return "on"
	}
	return ""
}

// errNoCAAT: the compiler does not take this check (evaluated as before).
var errNoCAAT = errors.New("not compiled")

// cval is a compiled relation: a node of the theory, or a leaf's value
// not yet given to the theory (raw), or empty.
type cval struct {
	node  smt.Node
	raw   value
	empty bool
}

// caat is the compiler's state for one encoding.
type caat struct {
	d      *smt.Derived
	lazies map[*lazyV]cval
	groups map[*recGroup][]smt.Node
	mat    map[any]smt.Node
	lits   map[uint32]smt.Term // literal
	id     smt.Node
	// constrained counts the checks given to the theory; checks are
	// they, to be evaluated again as before if a let rec they compiled
	// is evaluated as before too (recouple).
	constrained int
	checks      []compiledCheck
	off         bool // compile nothing (recouple)
}

type compiledCheck struct {
	kind cat.CheckKind
	t    *cat.Test
	en   *env
	as   string
}

func newCAAT(n int) *caat {
	return &caat{d: smt.NewDerived(n), lazies: map[*lazyV]cval{}, groups: map[*recGroup][]smt.Node{},
		mat: map[any]smt.Node{}, lits: map[uint32]smt.Term{}, id: smt.NoNode}
}

// caatCheck gives an acyclic or irreflexive check to the theory; false
// when the compiler does not take it.
func (ev *evaluator) caatCheck(kind cat.CheckKind, t *cat.Test, en *env, as string) bool {
	c := ev.e.caat
	if c.off {
		return false
	}
	v, err := ev.compile(t.X, en, nil)
	if err != nil {
		return false
	}
	if v.empty {
		return true
	}
	if _, ok := v.raw.(*Set); ok {
		return false // acyclic of a set: its emptiness
	}
	n, err := ev.materialise(v)
	if err != nil {
		return false
	}
	if t.Kind == cat.Acyclic {
		c.d.Acyclic(n)
	} else {
		c.d.Irreflexive(n)
	}
	c.constrained++
	c.checks = append(c.checks, compiledCheck{kind: kind, t: t, en: en, as: as})
	return true
}

// recouple evaluates the compiled checks again as before when a let rec
// they compiled was also evaluated as before (for a flag, say). Its
// formulas are then the relaxed encoding (any fixpoint, letrec.go),
// which the checks themselves keep near the least one: without them a
// flag could be raised by a fixpoint the theory never sees.
func (ev *evaluator) recouple() error {
	c := ev.e.caat
	if c == nil {
		return nil
	}
	both := false
	for _, g := range ev.recGroups {
		both = both || g.done && g.compiled
	}
	if !both {
		return nil
	}
	c.off = true
	for _, k := range c.checks {
		if err := ev.check(k.kind, k.t, k.en, k.as); err != nil {
			return err
		}
	}
	return nil
}

// compile compiles x in en; rec maps the names of the let rec being
// compiled to their nodes.
func (ev *evaluator) compile(x cat.Expr, en *env, rec map[string]smt.Node) (cval, error) {
	if err := ev.step(x.Pos()); err != nil {
		return cval{}, err
	}
	c := ev.e.caat
	d := c.d
	switch x := x.(type) {
	case *cat.Ident:
		if n, ok := rec[x.Name]; ok {
			return cval{node: n}, nil
		}
		if v, ok := en.lookup(x.Name); ok {
			switch l := v.(type) {
			case *lazyV:
				if !l.done {
					return ev.compileLazy(l)
				}
			case *lazyRecV:
				if !l.g.done {
					ns, err := ev.compileRec(l.g)
					if err != nil {
						return cval{}, err
					}
					return cval{node: ns[l.i]}, nil
				}
			}
		}
		return ev.leaf(x, en, rec)
	case *cat.BinaryExpr:
		switch x.Op {
		case cat.OpUnion, cat.OpInter, cat.OpSeq:
		default:
			return ev.leaf(x, en, rec)
		}
		a, err := ev.compile(x.X, en, rec)
		if err != nil {
			return cval{}, err
		}
		b, err := ev.compile(x.Y, en, rec)
		if err != nil {
			return cval{}, err
		}
		if x.Op != cat.OpSeq && (isSet(a) || isSet(b)) {
			// Sets and relations mixed, or sets: as before.
			return cval{}, errNoCAAT
		}
		switch x.Op {
		case cat.OpUnion:
			if a.empty {
				return b, nil
			}
			if b.empty {
				return a, nil
			}
			na, nb, err := ev.materialisePair(a, b)
			if err != nil {
				return cval{}, err
			}
			return cval{node: d.Union(na, nb)}, nil
		case cat.OpInter:
			if a.empty || b.empty {
				return cval{empty: true}, nil
			}
			if r, ok := b.raw.(*Rel); ok && r.static() {
				na, err := ev.materialise(a)
				if err != nil {
					return cval{}, err
				}
				return cval{node: d.Filter(na, func(i, j int) bool { _, ok := r.get(i, j); return ok })}, nil
			}
			if r, ok := a.raw.(*Rel); ok && r.static() {
				nb, err := ev.materialise(b)
				if err != nil {
					return cval{}, err
				}
				return cval{node: d.Filter(nb, func(i, j int) bool { _, ok := r.get(i, j); return ok })}, nil
			}
			na, nb, err := ev.materialisePair(a, b)
			if err != nil {
				return cval{}, err
			}
			return cval{node: d.Inter(na, nb)}, nil
		default: // OpSeq
			if a.empty || b.empty {
				return cval{empty: true}, nil
			}
			na, nb, err := ev.materialisePair(a, b)
			if err != nil {
				return cval{}, err
			}
			return cval{node: d.Seq(na, nb)}, nil
		}
	case *cat.UnaryExpr:
		switch x.Op {
		case cat.OpPlus, cat.OpStar, cat.OpOpt, cat.OpInv:
		default:
			return ev.leaf(x, en, rec)
		}
		a, err := ev.compile(x.X, en, rec)
		if err != nil {
			return cval{}, err
		}
		if isSet(a) {
			return cval{}, errNoCAAT
		}
		if a.empty {
			if x.Op == cat.OpPlus || x.Op == cat.OpInv {
				return cval{empty: true}, nil
			}
			return cval{node: ev.identity()}, nil
		}
		na, err := ev.materialise(a)
		if err != nil {
			return cval{}, err
		}
		switch x.Op {
		case cat.OpPlus:
			return cval{node: d.Plus(na)}, nil
		case cat.OpStar:
			return cval{node: d.Union(ev.identity(), d.Plus(na))}, nil
		case cat.OpOpt:
			return cval{node: d.Union(ev.identity(), na)}, nil
		default:
			return cval{node: d.Inverse(na)}, nil
		}
	}
	return ev.leaf(x, en, rec)
}

func isSet(v cval) bool {
	_, ok := v.raw.(*Set)
	return ok
}

// leaf evaluates x as before; it must not name a relation of the let rec
// being compiled.
func (ev *evaluator) leaf(x cat.Expr, en *env, rec map[string]smt.Node) (cval, error) {
	if len(rec) > 0 && !names(x, rec, 0) {
		return cval{}, errNoCAAT
	}
	v, err := ev.expr(x, en)
	if err != nil {
		return cval{}, err
	}
	switch v := v.(type) {
	case emptyV:
		return cval{empty: true}, nil
	case *Rel:
		if v.isEmpty() {
			return cval{empty: true}, nil
		}
		return cval{node: smt.NoNode, raw: v}, nil
	case *Set:
		if len(v.m) == 0 {
			return cval{empty: true}, nil
		}
		return cval{node: smt.NoNode, raw: v}, nil
	}
	return cval{}, errNoCAAT
}

// names tells whether x certainly names nothing of rec (false when it
// cannot tell).
func names(x cat.Expr, rec map[string]smt.Node, depth int) bool {
	if depth > 200 {
		return false
	}
	switch x := x.(type) {
	case *cat.Ident:
		_, in := rec[x.Name]
		return !in
	case *cat.EmptyLit, *cat.UniverseLit, *cat.TagLit:
		return true
	case *cat.UnaryExpr:
		return names(x.X, rec, depth+1)
	case *cat.BinaryExpr:
		return names(x.X, rec, depth+1) && names(x.Y, rec, depth+1)
	case *cat.AppExpr:
		return names(x.Fun, rec, depth+1) && names(x.Arg, rec, depth+1)
	case *cat.TupleLit:
		for _, el := range x.Elems {
			if !names(el, rec, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// materialisePair materialises both operands of a binary operator.
func (ev *evaluator) materialisePair(a, b cval) (smt.Node, smt.Node, error) {
	na, err := ev.materialise(a)
	if err != nil {
		return 0, 0, err
	}
	nb, err := ev.materialise(b)
	return na, nb, err
}

// materialise gives a leaf's value to the theory: a base relation with
// a literal per may-pair (exec of both events and the pair's formula);
// a set is its identity.
func (ev *evaluator) materialise(v cval) (smt.Node, error) {
	if v.empty {
		return smt.NoNode, errNoCAAT
	}
	if v.node != smt.NoNode && v.raw == nil {
		return v.node, nil
	}
	c := ev.e.caat
	if n, ok := c.mat[v.raw]; ok {
		return n, nil
	}
	f, o := ev.f, ev.o
	var edges []smt.Edge
	add := func(i, j int, b B) {
		edge := f.and(o.exec[i], o.exec[j], b)
		if edge.isFalse() {
			return
		}
		e := smt.Edge{From: i, To: j}
		if !edge.isTrue() {
			e.Lit = f.term(edge)
		}
		edges = append(edges, e)
	}
	switch r := v.raw.(type) {
	case *Rel:
		if r.static() && !ev.allExec() {
			// A fixed relation (po, say) is [E] ; r ; [E]: its edges
			// always hold, the literals are one per event.
			for i, row := range r.rows {
				for j := range row {
					edges = append(edges, smt.Edge{From: i, To: j})
				}
			}
			id := ev.identity()
			n := c.d.Seq(id, c.d.Seq(c.d.Base(edges), id))
			c.mat[v.raw] = n
			return n, nil
		}
		r.each(add)
	case *Set:
		for _, k := range r.elems() {
			add(k, k, r.m[k])
		}
	default:
		return smt.NoNode, errNoCAAT
	}
	n := c.d.Base(edges)
	c.mat[v.raw] = n
	return n, nil
}

// wrap is a Boolean variable equivalent to t, once per term (the theory's
// Derived.Wrap).
func (e *encoding) wrap(t smt.Term) smt.Term {
	c := e.caat
	if x, ok := c.lits[t.ID()]; ok {
		return x
	}
	x := e.f.boolVar("edge")
	e.f.assert(e.f.iff(x, e.f.lift(t)))
	c.lits[t.ID()] = e.f.term(x)
	return c.lits[t.ID()]
}

// allExec tells whether every event is executed in every execution.
func (ev *evaluator) allExec() bool {
	for _, b := range ev.o.exec {
		if !b.isTrue() {
			return false
		}
	}
	return true
}

// identity is the identity on the events executed.
func (ev *evaluator) identity() smt.Node {
	c := ev.e.caat
	if c.id == smt.NoNode {
		s := newSet()
		for k := 0; k < ev.o.n(); k++ {
			s.m[k] = bTrue
		}
		c.id, _ = ev.materialise(cval{node: smt.NoNode, raw: s})
	}
	return c.id
}

// compileLazy compiles a lazy binding not evaluated yet, once.
func (ev *evaluator) compileLazy(l *lazyV) (cval, error) {
	c := ev.e.caat
	if v, ok := c.lazies[l]; ok {
		return v, nil
	}
	v, err := ev.compile(l.x, l.en, nil)
	if err != nil {
		return cval{}, err
	}
	c.lazies[l] = v
	l.compiled = true
	return v, nil
}

// compileRec compiles a let rec not evaluated yet, once: each name is a
// union of its definition's nodes, which may name it (the theory's least
// fixpoint).
func (ev *evaluator) compileRec(g *recGroup) ([]smt.Node, error) {
	c := ev.e.caat
	if ns, ok := c.groups[g]; ok {
		if ns == nil {
			return nil, errNoCAAT // failed before
		}
		return ns, nil
	}
	c.groups[g] = nil
	rec := map[string]smt.Node{}
	ns := make([]smt.Node, len(g.binds))
	for i, b := range g.binds {
		ns[i] = c.d.Union()
		rec[b.Pat.Names[0]] = ns[i]
	}
	for i, b := range g.binds {
		v, err := ev.compile(b.Value, g.en, rec)
		if err != nil {
			return nil, err
		}
		if v.empty {
			continue
		}
		if isSet(v) {
			return nil, errNoCAAT
		}
		n, err := ev.materialise(v)
		if err != nil {
			return nil, err
		}
		c.d.AddToUnion(ns[i], n)
	}
	c.groups[g] = ns
	g.compiled = true
	return ns, nil
}

// recGroup is a top-level let rec of values, evaluated at its first
// ordinary use (or compiled into the theory by a check).
type recGroup struct {
	binds    []*cat.Binding
	en       *env
	pos      cat.Position
	done     bool
	compiled bool
	out      *env
	err      error
}

// lazyRecV is the i-th name of a recGroup.
type lazyRecV struct {
	g *recGroup
	i int
}

// lazyRecOK tells whether a let rec may wait for its first use: values
// only (no functions, no tuples), when checks are compiled.
func (ev *evaluator) lazyRecOK(s *cat.LetStmt) bool {
	if ev.e.caat == nil || s.When != nil {
		return false
	}
	for _, b := range s.Binds {
		if b.Pat.Tuple {
			return false
		}
		if _, fun := b.Value.(*cat.FunExpr); fun {
			return false
		}
	}
	return true
}

// bindRec binds the names of a let rec to their lazy values.
func (ev *evaluator) bindRec(s *cat.LetStmt, en *env) *env {
	g := &recGroup{binds: s.Binds, en: en, pos: s.At}
	ev.recGroups = append(ev.recGroups, g)
	out := en
	for i, b := range s.Binds {
		out = out.bind(b.Pat.Names[0], &lazyRecV{g: g, i: i})
	}
	return out
}

// forceRec evaluates a lazy let rec (as letRec would have where it
// stands) and returns the value of one of its names.
func (ev *evaluator) forceRec(l *lazyRecV) (value, error) {
	g := l.g
	if !g.done {
		g.done = true
		was := ev.f.shape
		ev.f.shape = was && ev.shapePass == 0
		out, err := ev.letRec(g.binds, g.en, g.pos)
		ev.f.shape = was
		if err != nil {
			g.err = &lateError{err: err}
		}
		g.out = out
	}
	if g.err != nil {
		return nil, g.err
	}
	v, ok := g.out.lookup(g.binds[l.i].Pat.Names[0])
	if !ok {
		return nil, errf(g.pos, "let rec: %s unbound", g.binds[l.i].Pat.Names[0])
	}
	return v, nil
}

// addDerived hands the compiled checks to the solver.
func (e *encoding) addDerived() {
	if e.caat == nil || e.caat.constrained == 0 {
		return
	}
	e.caat.d.Wrap = e.wrap
	if !e.sol.AddDerived(e.caat.d) {
		e.f.assert(bFalse)
	}
}

// checkDerived looks, in the model md, for a violation of a compiled
// check; if it finds one it asserts that not all of its literals hold
// and returns true (the caller asks again).
func (e *encoding) checkDerived(md *smt.Model) bool {
	if e.caat == nil || e.caat.constrained == 0 {
		return false
	}
	lits, ok := e.caat.d.Violation(func(t smt.Term) bool {
		v, ok := md.Bool(t)
		return ok && v
	})
	if ok {
		return false
	}
	var clause []smt.Term
	for _, l := range lits {
		clause = append(clause, e.ctx.Not(l))
	}
	e.lazyMisses++
	e.sol.Assert(e.ctx.Or(clause...))
	return true
}
