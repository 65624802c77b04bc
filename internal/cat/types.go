package cat

import "fmt"

// The static check of a model: event sets against relations. herd7
// refuses "acyclic W" or "W ; po" when it loads a model; so does Musket,
// with the position of the faulty operator, instead of an error (or a
// made-up answer) per test at run time.
//
// The check infers for each expression one of: an event set, a relation,
// a function (with the kind of what it returns), or "unknown". Unknown is
// what cannot be told without running the model (a parameter of a
// function, a tag, a tuple, a name the execution may give either way,
// 0 and _ which take the kind of their context): it is accepted
// everywhere. Only a definite set where a relation is needed, or the
// reverse, is an error.

type kind uint8

const (
	kAny kind = iota // unknown: accepted everywhere
	kSet             // a set of events
	kRel             // a relation on events
	kFun             // a function; ty.ret is what it returns
)

type ty struct {
	k   kind
	ret *ty // for kFun
}

var (
	tAny = ty{k: kAny}
	tSet = ty{k: kSet}
	tRel = ty{k: kRel}
)

func (t ty) String() string {
	switch t.k {
	case kSet:
		return "an event set"
	case kRel:
		return "a relation"
	case kFun:
		return "a function"
	}
	return "a value"
}

// join is the type of a value that is either a or b.
func join(a, b ty) ty {
	if a.k == b.k && a.k != kFun {
		return a
	}
	if a.k == kFun && b.k == kFun {
		r := join(*a.ret, *b.ret)
		return ty{k: kFun, ret: &r}
	}
	return tAny
}

// inputKinds are the names an execution gives, by kind; a model may
// rebind them.
var inputKinds = func() map[string]ty {
	m := map[string]ty{}
	for _, n := range []string{"W", "R", "M", "F", "IW", "FW", "Exp"} {
		m[n] = tSet
	}
	for n := range emptyByDefault {
		m[n] = tSet
	}
	for _, n := range []string{"po", "loc", "int", "ext", "id", "same-instance", "sm", "si",
		"rmw", "amo", "rf", "rfi", "rfe", "co", "coi", "coe", "fr", "fri", "fre", "co0", "pco"} {
		m[n] = tRel
	}
	for n := range emptyRelByDefault {
		m[n] = tRel
	}
	return m
}()

// builtinSig is what a built-in function takes and returns, where known.
type builtinSig struct{ arg, ret ty }

var builtinSigs = map[string]builtinSig{
	"domain":   {tRel, tSet},
	"range":    {tRel, tSet},
	"fencerel": {tSet, tRel},
}

// tyScope maps the names a model binds to their types.
type tyScope struct {
	names  map[string]ty
	parent *tyScope
}

func (s *tyScope) child() *tyScope { return &tyScope{names: map[string]ty{}, parent: s} }

func (s *tyScope) lookup(name string) (ty, bool) {
	for ; s != nil; s = s.parent {
		if t, ok := s.names[name]; ok {
			return t, true
		}
	}
	return tAny, false
}

type typer struct {
	errs ErrorList // the first maxErrors errors
	n    int       // all the errors found
}

// typeCheck checks the expanded statements of a model.
func typeCheck(stmts []Stmt) ErrorList {
	tc := &typer{}
	tc.stmts(&tyScope{names: map[string]ty{}}, stmts)
	tc.errs.Sort()
	return tc.errs
}

func (tc *typer) errorf(pos Position, format string, args ...any) {
	tc.n++
	if len(tc.errs) < maxErrors {
		tc.errs.Add(pos, fmt.Sprintf(format, args...))
	}
}

// name gives the type of a name, as the compiler resolves it: the
// model's bindings, then the built-in functions, then the execution.
func (tc *typer) name(s *tyScope, n string) ty {
	if t, ok := s.lookup(n); ok {
		return t
	}
	if sig, ok := builtinSigs[n]; ok {
		r := sig.ret
		return ty{k: kFun, ret: &r}
	}
	if _, ok := builtinFuncs[n]; ok {
		return ty{k: kFun, ret: &tAny}
	}
	if t, ok := inputKinds[n]; ok {
		return t
	}
	return tAny
}

// describe names an operand for messages: "W (an event set)".
func describe(e Expr, t ty) string {
	if id, ok := e.(*Ident); ok {
		return id.Name + " (" + t.String() + ")"
	}
	return t.String()
}

// need reports e of type t where want is needed.
func (tc *typer) need(what string, e Expr, t, want ty) {
	if t.k != kAny && want.k != kAny && t.k != want.k {
		tc.errorf(e.Pos(), "%s needs %s, found %s", what, want, describe(e, t))
	}
}

// expr types e in scope s. As the compiler's expr (compile.go), it hands
// each kind of expression to a function of its own, kept out of line, so
// that it stays small: large, run for every node of a model's syntax
// tree, V8 optimised it in WebAssembly although it runs only when a model
// is loaded.
func (tc *typer) expr(s *tyScope, e Expr) ty {
	switch e := e.(type) {
	case *Ident:
		return tc.name(s, e.Name)
	case *EmptyLit, *UniverseLit, *TagLit:
		return tAny
	case *SetLit:
		return tc.elems(s, e.Elems)
	case *TupleLit:
		return tc.elems(s, e.Elems)
	case *UnaryExpr:
		return tc.unary(s, e)
	case *BinaryExpr:
		return tc.binary(s, e)
	case *AppExpr:
		return tc.app(s, e)
	case *FunExpr:
		return tc.fun(s, e)
	case *LetExpr:
		ls := tc.let(s, e.Rec, e.Binds)
		return tc.expr(ls, e.Body)
	case *IfExpr:
		return tc.ifExpr(s, e)
	case *TryExpr:
		return tc.try(s, e)
	case *MatchTagExpr:
		return tc.matchTag(s, e)
	case *MatchSetExpr:
		return tc.matchSet(s, e)
	}
	return tAny
}

// elems types the elements of a set or tuple literal.
//
//go:noinline
func (tc *typer) elems(s *tyScope, xs []Expr) ty {
	for _, x := range xs {
		tc.expr(s, x)
	}
	return tAny
}

//go:noinline
func (tc *typer) unary(s *tyScope, e *UnaryExpr) ty {
	t := tc.expr(s, e.X)
	switch e.Op {
	case OpCompl:
		if t.k == kFun {
			tc.errorf(e.X.Pos(), "~ needs an event set or a relation, found %s", describe(e.X, t))
			return tAny
		}
		return t
	case OpToID:
		tc.need("[...]", e.X, t, tSet)
		return tRel
	default: // ^-1, +, *, ?
		tc.need(e.Op.String(), e.X, t, tRel)
		return tRel
	}
}

//go:noinline
func (tc *typer) app(s *tyScope, e *AppExpr) ty {
	f := tc.expr(s, e.Fun)
	a := tc.expr(s, e.Arg)
	if id, ok := e.Fun.(*Ident); ok {
		if _, bound := s.lookup(id.Name); !bound {
			if sig, ok := builtinSigs[id.Name]; ok {
				tc.need(id.Name, e.Arg, a, sig.arg)
			}
		}
	}
	switch f.k {
	case kFun:
		return *f.ret
	case kSet, kRel:
		tc.errorf(e.Fun.Pos(), "%s is not a function", describe(e.Fun, f))
	}
	return tAny
}

//go:noinline
func (tc *typer) fun(s *tyScope, e *FunExpr) ty {
	fs := s.child()
	for _, n := range e.Params.Names {
		fs.names[n] = tAny
	}
	r := tc.expr(fs, e.Body)
	return ty{k: kFun, ret: &r}
}

//go:noinline
func (tc *typer) ifExpr(s *tyScope, e *IfExpr) ty {
	tc.cond(s, e.Cond)
	return join(tc.expr(s, e.Then), tc.expr(s, e.Else))
}

//go:noinline
func (tc *typer) try(s *tyScope, e *TryExpr) ty {
	// try catches the errors of X, type errors included: they are
	// not the model's.
	saved, n := tc.errs, tc.n
	x := tc.expr(s, e.X)
	failed := tc.n > n
	tc.errs, tc.n = saved[:len(saved):len(saved)], n
	y := tc.expr(s, e.Y)
	if failed {
		return y
	}
	return join(x, y)
}

//go:noinline
func (tc *typer) matchTag(s *tyScope, e *MatchTagExpr) ty {
	tc.expr(s, e.X)
	var t *ty
	add := func(x ty) {
		if t == nil {
			t = &x
		} else {
			j := join(*t, x)
			t = &j
		}
	}
	for _, cl := range e.Clauses {
		add(tc.expr(s, cl.Body))
	}
	if e.Default != nil {
		add(tc.expr(s, e.Default))
	}
	if t == nil {
		return tAny
	}
	return *t
}

//go:noinline
func (tc *typer) matchSet(s *tyScope, e *MatchSetExpr) ty {
	tc.expr(s, e.X)
	empty := tc.expr(s, e.Empty)
	ms := s.child()
	ms.names[e.Elem] = tAny
	ms.names[e.Rest] = tAny
	return join(empty, tc.expr(ms, e.NonEmpty))
}

func (tc *typer) binary(s *tyScope, e *BinaryExpr) ty {
	a, b := tc.expr(s, e.X), tc.expr(s, e.Y)
	op := e.Op.String()
	switch e.Op {
	case OpAdd:
		return tAny
	case OpSeq:
		tc.need(op, e.X, a, tRel)
		tc.need(op, e.Y, b, tRel)
		return tRel
	case OpCross:
		tc.need("the cartesian product *", e.X, a, tSet)
		tc.need("the cartesian product *", e.Y, b, tSet)
		return tRel
	}
	// |, & and \: two operands of one kind.
	if a.k == kFun || b.k == kFun {
		x, t := e.X, a
		if b.k == kFun {
			x, t = e.Y, b
		}
		tc.errorf(x.Pos(), "%s needs event sets or relations, found %s", op, describe(x, t))
		return tAny
	}
	if a.k != kAny && b.k != kAny && a.k != b.k {
		tc.errorf(e.At, "%s of %s and %s", op, describe(e.X, a), describe(e.Y, b))
		return tAny
	}
	if a.k != kAny {
		return a
	}
	return b
}

func (tc *typer) cond(s *tyScope, c Cond) {
	switch c := c.(type) {
	case *NotCond:
		tc.cond(s, c.X)
	case *AndCond:
		tc.cond(s, c.X)
		tc.cond(s, c.Y)
	case *OrCond:
		tc.cond(s, c.X)
		tc.cond(s, c.Y)
	case *CompareCond:
		tc.expr(s, c.X)
		tc.expr(s, c.Y)
	}
}

// let checks bindings and returns the scope they make.
func (tc *typer) let(s *tyScope, rec bool, binds []*Binding) *tyScope {
	ls := s.child()
	if rec {
		for _, b := range binds {
			for _, n := range b.Pat.Names {
				ls.names[n] = tAny
			}
		}
		types := make([]ty, len(binds))
		for i, b := range binds {
			types[i] = tc.expr(ls, b.Value)
		}
		for i, b := range binds {
			bindPatType(ls, b.Pat, types[i])
		}
		return ls
	}
	types := make([]ty, len(binds))
	for i, b := range binds {
		types[i] = tc.expr(s, b.Value)
	}
	for i, b := range binds {
		bindPatType(ls, b.Pat, types[i])
	}
	return ls
}

func bindPatType(s *tyScope, p Pattern, t ty) {
	if p.Tuple || len(p.Names) != 1 {
		for _, n := range p.Names {
			s.names[n] = tAny
		}
		return
	}
	s.names[p.Names[0]] = t
}

func (tc *typer) test(s *tyScope, t *Test) {
	x := tc.expr(s, t.X)
	switch t.Kind {
	case Acyclic, Irreflexive:
		tc.need(t.Kind.String(), t.X, x, tRel)
	case IsEmpty:
		if x.k == kFun {
			tc.errorf(t.X.Pos(), "empty needs an event set or a relation, found %s", describe(t.X, x))
		}
	}
}

func (tc *typer) stmts(s *tyScope, list []Stmt) {
	for _, st := range list {
		tc.stmt(s, st)
	}
}

// stmt checks one statement; the names it binds go into s.
func (tc *typer) stmt(s *tyScope, st Stmt) {
	switch st := st.(type) {
	case *LetStmt:
		ls := tc.let(s, st.Rec, st.Binds)
		for n, t := range ls.names {
			s.names[n] = t
		}
		if st.When != nil {
			tc.test(s, st.When)
		}
	case *CheckStmt:
		tc.test(s, st.Test)
	case *ShowStmt:
		if st.X != nil {
			tc.expr(s, st.X)
		}
	case *DebugStmt:
		tc.expr(s, st.X)
	case *EventsStmt:
		for _, x := range st.Args {
			tc.expr(s, x)
		}
	case *BlockStmt:
		tc.stmts(s, st.Stmts)
	case *ProcStmt:
		ps := s.child()
		for _, n := range st.Params.Names {
			ps.names[n] = tAny
		}
		s.names[st.Name] = tAny // a procedure is no value
		tc.stmts(ps, st.Body)
	case *CallStmt:
		tc.expr(s, st.Arg)
	case *ForallStmt:
		tc.expr(s, st.Set)
		fs := s.child()
		fs.names[st.Var] = tAny
		tc.stmts(fs, st.Body)
	case *WithStmt:
		tc.expr(s, st.Set)
		s.names[st.Var] = tAny
	case *EnumStmt:
		s.names[st.Name] = tAny
	case *IfStmt:
		tc.cond(s, st.Cond)
		tc.branches(s, [][]Stmt{st.Then, st.Else})
	case *MatchStmt:
		tc.expr(s, st.X)
		bodies := make([][]Stmt, 0, len(st.Clauses)+1)
		for _, cl := range st.Clauses {
			bodies = append(bodies, cl.Body)
		}
		bodies = append(bodies, st.Default)
		tc.branches(s, bodies)
	}
}

// branches checks the arms of an if or a match: a name an arm binds has
// after them the join of its types in every arm (or from before).
func (tc *typer) branches(s *tyScope, bodies [][]Stmt) {
	arms := make([]*tyScope, len(bodies))
	changed := map[string]bool{}
	for i, b := range bodies {
		arms[i] = s.child()
		tc.stmts(arms[i], b)
		for n := range arms[i].names {
			changed[n] = true
		}
	}
	for n := range changed {
		var t *ty
		for _, a := range arms {
			x, ok := a.names[n]
			if !ok {
				x, ok = s.lookup(n)
				if !ok {
					x = tc.name(s, n)
				}
			}
			if t == nil {
				t = &x
			} else {
				j := join(*t, x)
				t = &j
			}
		}
		s.names[n] = *t
	}
}
