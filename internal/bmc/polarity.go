package bmc

import "github.com/musket-verify/musket/internal/cat"

// Polarity of the model's names: for each binding, whether the questions
// asked of the encoding (the checks asserted, the flags asked about) are
// helped by its value being smaller, bigger, or either.
//
// A check `acyclic r` holds of a smaller r whenever it holds of a bigger
// one; a flag `~empty r` is raised by a bigger r. The operators carry
// this back through the definitions: union, intersection, sequence,
// closures, inverse, [_], domain and range keep the direction, the
// right of \ and ~ reverse it, anything else (a function applied, a
// procedure's body, a comparison) asks for both.
//
// What it buys: a monotone let rec whose names only ever want to be
// small can be encoded by "each may-pair is in the relation when its
// definition holds" (x ⇐ F(x)) instead of "exactly when" (x ⇔ F(x)).
// Every solution then has x ⊇ lfp F; since every question holds of the
// least fixpoint whenever it holds of a bigger relation, the answers are
// those of the least fixpoint (the solver can always pick it), which is
// what herd7 computes. The one-way implications are Horn clauses the
// solver settles by propagation; the equivalences of the relaxed
// encoding leave it to search among the fixpoints (the Linux-kernel
// model's rcu-order on the 19-thread RCU tests: minutes against
// milliseconds). This is the polarity argument of the relation analysis
// of Gavrilenko, Ponce-de-León, Furbach, Heljanko, Meyer, "BMC for Weak
// Memory Models: Relation Analysis for Compact SMT Encodings", CAV 2019.

// Directions: bit wantSmall says a question holds more easily when the
// value is smaller, wantBig when it is bigger.
const (
	wantSmall uint8 = 1
	wantBig   uint8 = 2
	wantBoth        = wantSmall | wantBig
)

// Signs of an occurrence: signSame keeps the direction, signFlip
// reverses it; both bits: either.
const (
	signSame uint8 = 1
	signFlip uint8 = 2
	signAny        = signSame | signFlip
)

// apply is what an occurrence of sign s in a value wanted in direction w
// wants of the name.
func apply(s, w uint8) uint8 {
	var out uint8
	if s&signSame != 0 {
		out |= w
	}
	if s&signFlip != 0 {
		out |= (w&wantSmall)<<1 | (w&wantBig)>>1
	}
	return out
}

// polarity is the result of the analysis of one model.
type polarity struct {
	need []uint8
	deps []pdep
	// node of each value binding of a let rec.
	recNode map[*cat.Binding]int
}

// pdep says that node from occurs with sign in the definition of node to.
type pdep struct {
	from, to int
	sign     uint8
}

// penv is the analysis' environment: names to nodes.
type penv struct {
	name string
	node int
	up   *penv
}

func (e *penv) lookup(name string) (int, bool) {
	for x := e; x != nil; x = x.up {
		if x.name == name {
			return x.node, true
		}
	}
	return 0, false
}

func (e *penv) bind(name string, node int) *penv { return &penv{name: name, node: node, up: e} }

// analysePolarity runs the analysis on the statements of a model.
func analysePolarity(ss []cat.Stmt) *polarity {
	p := &polarity{recNode: map[*cat.Binding]int{}}
	p.stmts(ss, nil, false)
	for changed := true; changed; {
		changed = false
		for _, d := range p.deps {
			if w := p.need[d.from] | apply(d.sign, p.need[d.to]); w != p.need[d.from] {
				p.need[d.from] = w
				changed = true
			}
		}
	}
	return p
}

// smallOnly tells whether every value binding of a let rec only ever
// wants to be small (or is not used at all).
func (p *polarity) smallOnly(binds []*cat.Binding) bool {
	if p == nil {
		return false
	}
	for _, b := range binds {
		if _, fun := b.Value.(*cat.FunExpr); fun {
			continue
		}
		n, ok := p.recNode[b]
		if !ok || p.need[n]&wantBig != 0 {
			return false
		}
	}
	return true
}

func (p *polarity) node() int {
	p.need = append(p.need, 0)
	return len(p.need) - 1
}

// into is an emitter: the occurrences of an expression become
// dependencies of node to.
func (p *polarity) into(to int) func(int, uint8) {
	return func(from int, s uint8) { p.deps = append(p.deps, pdep{from: from, to: to, sign: s}) }
}

// wanting is an emitter: the occurrences of an expression are wanted in
// direction w.
func (p *polarity) wanting(w uint8) func(int, uint8) {
	return func(from int, s uint8) { p.need[from] |= apply(s, w) }
}

// stmts walks statements; opaque says every name they mention wants
// both directions (a procedure's body).
func (p *polarity) stmts(ss []cat.Stmt, en *penv, opaque bool) *penv {
	for _, s := range ss {
		en = p.stmt(s, en, opaque)
	}
	return en
}

func (p *polarity) stmt(s cat.Stmt, en *penv, opaque bool) *penv {
	both := p.wanting(wantBoth)
	switch s := s.(type) {
	case *cat.LetStmt:
		en = p.let(s.Binds, s.Rec, en, opaque)
		if s.When != nil {
			p.test(cat.Check, s.When, en, opaque)
		}
		return en
	case *cat.CheckStmt:
		p.test(s.Kind, s.Test, en, opaque)
	case *cat.BlockStmt:
		return p.stmts(s.Stmts, en, opaque)
	case *cat.ProcStmt:
		// The body runs at each call: its names want both directions.
		p.stmts(s.Body, en, true)
		return en.bind(s.Name, p.node())
	case *cat.CallStmt:
		p.expr(s.Arg, signAny, en, both)
		if n, ok := en.lookup(s.Name); ok {
			p.need[n] = wantBoth
		}
	case *cat.ForallStmt:
		p.expr(s.Set, signAny, en, both)
		p.stmts(s.Body, en.bind(s.Var, p.node()), opaque)
	case *cat.WithStmt:
		p.expr(s.Set, signAny, en, both)
		return en.bind(s.Var, p.node())
	case *cat.EnumStmt:
		return en.bind(s.Name, p.node())
	case *cat.IfStmt:
		p.cond(s.Cond, en)
		return p.merge(en, p.stmts(s.Then, en, opaque), p.stmts(s.Else, en, opaque))
	case *cat.MatchStmt:
		p.expr(s.X, signAny, en, both)
		outs := []*penv{p.stmts(s.Default, en, opaque)}
		for _, cl := range s.Clauses {
			outs = append(outs, p.stmts(cl.Body, en, opaque))
		}
		return p.merge(en, outs...)
	}
	return en
}

// merge joins the environments of the branches of a statement: a name
// bound differently by them gets a node that depends on each.
func (p *polarity) merge(base *penv, outs ...*penv) *penv {
	seen := map[string]bool{}
	en := base
	for _, o := range outs {
		for x := o; x != base && x != nil; x = x.up {
			if seen[x.name] {
				continue
			}
			seen[x.name] = true
			m := p.node()
			for _, o2 := range outs {
				if n, ok := o2.lookup(x.name); ok {
					p.deps = append(p.deps, pdep{from: n, to: m, sign: signSame})
				}
			}
			en = en.bind(x.name, m)
		}
	}
	return en
}

func (p *polarity) let(binds []*cat.Binding, rec bool, en *penv, opaque bool) *penv {
	nodes := make([]int, len(binds))
	out := en
	for i := range binds {
		nodes[i] = p.node()
		if opaque {
			p.need[nodes[i]] = wantBoth
		}
	}
	if rec {
		for i, b := range binds {
			for _, name := range b.Pat.Names {
				out = out.bind(name, nodes[i])
			}
		}
	}
	scope := en
	if rec {
		scope = out
	}
	monotone := !rec || monotoneGroup(binds)
	for i, b := range binds {
		sign := signSame
		if b.Pat.Tuple {
			sign = signAny
		}
		if _, fun := b.Value.(*cat.FunExpr); fun {
			sign = signAny
		}
		emit := p.into(nodes[i])
		if opaque {
			emit = p.wanting(wantBoth)
		}
		p.expr(b.Value, sign, scope, emit)
		if rec {
			p.recNode[b] = nodes[i]
			if !monotone {
				// Iterated as herd7 does (kleene.go), and asked
				// whether it settled: exact values wanted.
				p.need[nodes[i]] = wantBoth
			}
		}
	}
	if !rec {
		for i, b := range binds {
			for _, name := range b.Pat.Names {
				out = out.bind(name, nodes[i])
			}
		}
	}
	return out
}

// test records what a check or flag wants of the names of its test.
func (p *polarity) test(kind cat.CheckKind, t *cat.Test, en *penv, opaque bool) {
	var w uint8
	switch kind {
	case cat.Check, cat.Assert:
		// The check is asserted: it holds of smaller values; negated,
		// of bigger ones.
		w = wantSmall
		if t.Negate {
			w = wantBig
		}
	case cat.Flag:
		// The flag is asked about: raised by a test that holds (smaller
		// values), or, negated, fails (bigger values).
		w = wantSmall
		if t.Negate {
			w = wantBig
		}
	case cat.UndefinedUnless:
		// The flag undef is raised by a test that fails (bigger
		// values), or, negated, holds.
		w = wantBig
		if t.Negate {
			w = wantSmall
		}
	default:
		return
	}
	if opaque {
		w = wantBoth
	}
	p.expr(t.X, signSame, en, p.wanting(w))
}

// cond: the names of a condition want both directions (its comparisons
// are decided on the values).
func (p *polarity) cond(c cat.Cond, en *penv) {
	switch c := c.(type) {
	case *cat.NotCond:
		p.cond(c.X, en)
	case *cat.AndCond:
		p.cond(c.X, en)
		p.cond(c.Y, en)
	case *cat.OrCond:
		p.cond(c.X, en)
		p.cond(c.Y, en)
	case *cat.CompareCond:
		p.expr(c.X, signAny, en, p.wanting(wantBoth))
		p.expr(c.Y, signAny, en, p.wanting(wantBoth))
	}
}

// expr emits the occurrences of names in x with their signs (s is the
// sign of x itself).
func (p *polarity) expr(x cat.Expr, s uint8, en *penv, emit func(int, uint8)) {
	switch x := x.(type) {
	case *cat.Ident:
		if n, ok := en.lookup(x.Name); ok {
			emit(n, s)
		}
	case *cat.SetLit:
		for _, y := range x.Elems {
			p.expr(y, s, en, emit)
		}
	case *cat.TupleLit:
		for _, y := range x.Elems {
			p.expr(y, s, en, emit)
		}
	case *cat.UnaryExpr:
		switch x.Op {
		case cat.OpCompl:
			p.expr(x.X, flipSign(s), en, emit)
		case cat.OpStar, cat.OpPlus, cat.OpOpt, cat.OpInv, cat.OpToID:
			p.expr(x.X, s, en, emit)
		default:
			p.expr(x.X, signAny, en, emit)
		}
	case *cat.BinaryExpr:
		switch x.Op {
		case cat.OpDiff:
			p.expr(x.X, s, en, emit)
			p.expr(x.Y, flipSign(s), en, emit)
		case cat.OpUnion, cat.OpInter, cat.OpSeq, cat.OpCross, cat.OpAdd:
			p.expr(x.X, s, en, emit)
			p.expr(x.Y, s, en, emit)
		default:
			p.expr(x.X, signAny, en, emit)
			p.expr(x.Y, signAny, en, emit)
		}
	case *cat.AppExpr:
		if id, ok := x.Fun.(*cat.Ident); ok && (id.Name == "domain" || id.Name == "range") {
			if _, shadowed := en.lookup(id.Name); !shadowed {
				p.expr(x.Arg, s, en, emit)
				return
			}
		}
		p.expr(x.Fun, signAny, en, emit)
		p.expr(x.Arg, signAny, en, emit)
	case *cat.FunExpr:
		// The body runs where the function is applied.
		p.expr(x.Body, signAny, en, emit)
	case *cat.LetExpr:
		for _, b := range x.Binds {
			p.expr(b.Value, signAny, en, emit)
		}
		p.expr(x.Body, signAny, en, emit)
	case *cat.IfExpr:
		p.cond(x.Cond, en)
		p.expr(x.Then, s, en, emit)
		p.expr(x.Else, s, en, emit)
	case *cat.TryExpr:
		p.expr(x.X, s, en, emit)
		p.expr(x.Y, s, en, emit)
	case *cat.MatchTagExpr:
		p.expr(x.X, signAny, en, emit)
		for _, cl := range x.Clauses {
			p.expr(cl.Body, signAny, en, emit)
		}
		if x.Default != nil {
			p.expr(x.Default, signAny, en, emit)
		}
	case *cat.MatchSetExpr:
		p.expr(x.X, signAny, en, emit)
		p.expr(x.Empty, signAny, en, emit)
		p.expr(x.NonEmpty, signAny, en, emit)
	}
}

func flipSign(s uint8) uint8 { return (s&signSame)<<1 | (s&signFlip)>>1 }
