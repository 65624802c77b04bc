package cat

import (
	"fmt"
	"maps"
	"slices"
)

// The compiler turns the statements of a model (includes already
// expanded) into code whose names are resolved to slots: each binding
// gets its own slot in the frame of its function (or of the top level),
// in textual order; names nothing binds become inputs, looked up in the
// execution once per Check, or built-in functions.

type frameInfo struct{ nslots int }

type scope struct {
	names  map[string]int
	fi     *frameInfo
	parent *scope
}

type compiler struct {
	errs      ErrorList
	top       *frameInfo
	inputs    map[string]int
	inputList []string
	withNames map[string]bool

	// Memoisation analysis of the top-level lets (see memo.go).
	collect    *depCollector
	slotStatic map[int]bool  // top slots whose value depends on inputs only
	slotDeps   map[int][]int // and on which inputs
	nmemo      int
}

// depCollector gathers what the right-hand side of a top-level let reads.
type depCollector struct {
	lo     int // the first top slot the statement allocates
	inputs map[int]bool
	slots  map[int]bool // top slots defined before the statement
	impure bool         // reads the variants or the execution by name
}

// compileModel compiles the expanded statements of a model.
func compileModel(title, path string, stmts []Stmt) (*Model, error) {
	c := &compiler{top: &frameInfo{}, inputs: map[string]int{}, withNames: map[string]bool{},
		slotStatic: map[int]bool{}, slotDeps: map[int][]int{}}
	if errs := typeCheck(stmts); len(errs) > 0 {
		return nil, errs
	}
	s := &scope{names: map[string]int{}, fi: c.top}
	prog := c.stmts(s, stmts)
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs
	}
	return &Model{
		title:      title,
		path:       path,
		prog:       prog,
		topSlots:   c.top.nslots,
		inputNames: c.inputList,
		noDefault:  noDefaults(c.inputList),
		inputIndex: c.inputs,
		topNames:   s.names,
		withNames:  c.withNames,
		memoCount:  c.nmemo,
		staticSlot: staticSlots(c.slotStatic, c.top.nslots),
	}, nil
}

func staticSlots(m map[int]bool, n int) []bool {
	out := make([]bool, n)
	for s := range m {
		out[s] = true
	}
	return out
}

func (c *compiler) alloc(s *scope) int {
	n := s.fi.nslots
	s.fi.nslots++
	return n
}

func (c *compiler) input(name string) int {
	if i, ok := c.inputs[name]; ok {
		return i
	}
	i := len(c.inputList)
	c.inputs[name] = i
	c.inputList = append(c.inputList, name)
	return i
}

// resolve finds what name means in scope s. It runs for every name of a
// model, so its parts are functions of their own, kept out of line (see
// expr).
func (c *compiler) resolve(s *scope, name string, pos Position) slotRef {
	if sc, slot, depth, ok := findName(s, name); ok {
		return c.local(sc, slot, depth, name, pos)
	}
	if b, ok := builtinFuncs[name]; ok {
		return c.builtin(b)
	}
	return c.inputRef(name, pos)
}

// findName finds name in s or the scopes around it: the scope, its slot,
// and how many frames out it is.
//
//go:noinline
func findName(s *scope, name string) (*scope, int, int, bool) {
	depth := 0
	fi := s.fi
	for sc := s; sc != nil; sc = sc.parent {
		if sc.fi != fi {
			depth++
			fi = sc.fi
		}
		if slot, ok := sc.names[name]; ok {
			return sc, slot, depth, true
		}
	}
	return nil, 0, 0, false
}

// local is name bound in sc, depth frames out.
//
//go:noinline
func (c *compiler) local(sc *scope, slot, depth int, name string, pos Position) slotRef {
	if c.collect != nil && sc.fi == c.top && slot < c.collect.lo {
		c.collect.slots[slot] = true
	}
	if depth == 0 {
		return &localNode{slot: slot, name: name, pos: pos, err: unbound(pos, name)}
	}
	return &outerNode{depth: depth, slot: slot, name: name, pos: pos, err: unbound(pos, name)}
}

// builtin is the builtin function b.
//
//go:noinline
func (c *compiler) builtin(b *builtinFn) slotRef {
	if c.collect != nil {
		switch {
		case b.impure:
			c.collect.impure = true
		default:
			for _, in := range b.reads {
				c.collect.inputs[c.input(in)] = true
			}
		}
	}
	return &constNode{b}
}

// inputRef is name as an input of the model.
//
//go:noinline
func (c *compiler) inputRef(name string, pos Position) slotRef {
	idx := c.input(name)
	if c.collect != nil {
		c.collect.inputs[idx] = true
	}
	return &inputNode{idx: idx, name: name, pos: pos, err: unbound(pos, name)}
}

// beginLet starts the analysis of a top-level let.
func (c *compiler) beginLet(s *scope) *depCollector {
	if s.fi != c.top || c.collect != nil {
		return nil
	}
	c.collect = &depCollector{lo: c.top.nslots, inputs: map[int]bool{}, slots: map[int]bool{}}
	return c.collect
}

// endLet ends the analysis: a let that reads neither the variants nor
// the execution by name is memoised. Its key is the versions of the
// inputs it reads directly and the values of the top-level slots it reads
// (see memo.go), so that a change of rf stops at the first let whose
// value does not change (herd7's stdlib rebinds rfi from rf, but rfi is
// empty for most rf choices of most tests). A let whose value depends on
// the execution's inputs only (not on a with) has static slots: the same
// in every branch of a with.
func (c *compiler) endLet(col *depCollector) *memoInfo {
	if col == nil {
		return nil
	}
	c.collect = nil
	if col.impure {
		return nil
	}
	deps := map[int]bool{}
	for in := range col.inputs {
		deps[in] = true
	}
	static := true
	for slot := range col.slots {
		if !c.slotStatic[slot] {
			static = false
			continue
		}
		for _, in := range c.slotDeps[slot] {
			deps[in] = true
		}
	}
	hi := c.top.nslots
	if static {
		list := slices.Sorted(maps.Keys(deps))
		for slot := col.lo; slot < hi; slot++ {
			c.slotStatic[slot] = true
			c.slotDeps[slot] = list
		}
	}
	mi := &memoInfo{id: c.nmemo, deps: slices.Sorted(maps.Keys(col.inputs)), lo: col.lo, hi: hi, dataOnly: !static}
	for _, slot := range slices.Sorted(maps.Keys(col.slots)) {
		mi.slots = append(mi.slots, memoSlot{slot: slot, static: c.slotStatic[slot]})
	}
	c.nmemo++
	return mi
}

// bindPat allocates slots for a pattern's names in s.
func (c *compiler) bindPat(s *scope, p Pattern) patSlots {
	ps := patSlots{slots: make([]int, len(p.Names)), tuple: p.Tuple}
	for i, name := range p.Names {
		if name == "_" {
			ps.slots[i] = -1
			continue
		}
		ps.slots[i] = c.alloc(s)
		s.names[name] = ps.slots[i]
	}
	return ps
}

func (c *compiler) child(s *scope) *scope {
	return &scope{names: map[string]int{}, fi: s.fi, parent: s}
}

// expr compiles e in scope s. Each kind of expression is compiled by a
// function of its own, kept out of line: in WebAssembly a Go function is
// one loop over its basic blocks, and V8 charges a function's tier-up
// budget, at each jump back to that loop, about the distance jumped, so
// a large function that runs many times, as this one does over a
// model's syntax tree, is optimised (an optimising compile of tens of
// milliseconds on a first visit) although it runs only when a model is
// loaded. Small, it stays on the baseline compiler.
func (c *compiler) expr(s *scope, e Expr) node {
	switch e := e.(type) {
	case *Ident:
		return c.resolve(s, e.Name, e.At)
	case *EmptyLit:
		return &constNode{theEmpty}
	case *UniverseLit:
		return &constNode{theUniv}
	case *TagLit:
		return c.tagLit(e)
	case *SetLit:
		return c.setLit(s, e)
	case *TupleLit:
		return c.tupleLit(s, e)
	case *UnaryExpr:
		return c.unary(s, e)
	case *BinaryExpr:
		if e.Op == OpSeq {
			return c.seq(s, e)
		}
		return c.binary(s, e)
	case *AppExpr:
		return c.app(s, e)
	case *FunExpr:
		return c.funExpr(s, e)
	case *LetExpr:
		return c.let(s, e)
	case *IfExpr:
		return c.ifExpr(s, e)
	case *TryExpr:
		return c.try(s, e)
	case *MatchTagExpr:
		return c.matchTag(s, e)
	case *MatchSetExpr:
		return c.matchSet(s, e)
	}
	return c.unknown(e)
}

//go:noinline
func (c *compiler) tagLit(e *TagLit) node { return &constNode{tagVal(e.Name)} }

//go:noinline
func (c *compiler) setLit(s *scope, e *SetLit) node {
	n := &setLitNode{elems: make([]node, len(e.Elems))}
	for i, x := range e.Elems {
		n.elems[i] = c.expr(s, x)
	}
	return n
}

//go:noinline
func (c *compiler) tupleLit(s *scope, e *TupleLit) node {
	if len(e.Elems) == 0 {
		return &constNode{tupleVal{}}
	}
	n := &tupleNode{elems: make([]node, len(e.Elems))}
	for i, x := range e.Elems {
		n.elems[i] = c.expr(s, x)
	}
	return n
}

//go:noinline
func (c *compiler) unary(s *scope, e *UnaryExpr) node {
	return &unaryNode{op: e.Op, x: c.expr(s, e.X), pos: e.At}
}

//go:noinline
func (c *compiler) binary(s *scope, e *BinaryExpr) node {
	return &binaryNode{op: e.Op, x: c.expr(s, e.X), y: c.expr(s, e.Y), pos: e.At}
}

//go:noinline
func (c *compiler) app(s *scope, e *AppExpr) node {
	return &appNode{fn: c.expr(s, e.Fun), arg: c.expr(s, e.Arg), pos: e.At}
}

//go:noinline
func (c *compiler) funExpr(s *scope, e *FunExpr) node { return &funNode{code: c.fun(s, e)} }

//go:noinline
func (c *compiler) let(s *scope, e *LetExpr) node {
	if e.Rec {
		ls := c.child(s)
		rec := c.rec(ls, e.Binds, e.At)
		return &letRecNode{rec: rec, body: c.expr(ls, e.Body)}
	}
	binds := c.binds(s, e.Binds)
	ls := c.child(s)
	for i, b := range e.Binds {
		binds[i].pat = c.bindPat(ls, b.Pat)
	}
	return &letNode{binds: binds, body: c.expr(ls, e.Body)}
}

//go:noinline
func (c *compiler) ifExpr(s *scope, e *IfExpr) node {
	return &ifNode{cond: c.cond(s, e.Cond), x: c.expr(s, e.Then), y: c.expr(s, e.Else)}
}

//go:noinline
func (c *compiler) try(s *scope, e *TryExpr) node {
	return &tryNode{x: c.expr(s, e.X), y: c.expr(s, e.Y)}
}

//go:noinline
func (c *compiler) matchTag(s *scope, e *MatchTagExpr) node {
	n := &matchTagNode{x: c.expr(s, e.X), pos: e.At}
	for _, cl := range e.Clauses {
		n.tags = append(n.tags, cl.Tag)
		n.bodies = append(n.bodies, c.expr(s, cl.Body))
	}
	if e.Default != nil {
		n.def = c.expr(s, e.Default)
	}
	return n
}

//go:noinline
func (c *compiler) matchSet(s *scope, e *MatchSetExpr) node {
	n := &matchSetNode{x: c.expr(s, e.X), empty: c.expr(s, e.Empty), pos: e.At}
	ms := c.child(s)
	n.elem = c.bindPat(ms, single(e.Elem)).slots[0]
	n.rest = c.bindPat(ms, single(e.Rest)).slots[0]
	n.nonEmpty = c.expr(ms, e.NonEmpty)
	return n
}

//go:noinline
func (c *compiler) unknown(e Expr) node {
	c.errs.Add(e.Pos(), fmt.Sprintf("unknown expression %T", e))
	return &constNode{theEmpty}
}

// seq compiles a sequence a ; b ; ... (grouped to the right) into one
// seqNode.
func (c *compiler) seq(s *scope, e *BinaryExpr) node {
	n := &seqNode{}
	var x Expr = e
	for {
		b, ok := x.(*BinaryExpr)
		if !ok || b.Op != OpSeq {
			break
		}
		n.xs = append(n.xs, c.expr(s, b.X))
		n.ops = append(n.ops, b.At)
		x = b.Y
	}
	n.xs = append(n.xs, c.expr(s, x))
	return n
}

// fun compiles a function: a new frame holding its parameters and locals.
func (c *compiler) fun(s *scope, e *FunExpr) *funCode {
	fs := &scope{names: map[string]int{}, fi: &frameInfo{}, parent: s}
	code := &funCode{name: e.Name}
	code.params = c.bindPat(fs, e.Params)
	code.body = c.expr(fs, e.Body)
	code.nslots = fs.fi.nslots
	return code
}

// binds compiles the right-hand sides of a non-recursive let in s.
func (c *compiler) binds(s *scope, bs []*Binding) []bindCode {
	out := make([]bindCode, len(bs))
	for i, b := range bs {
		out[i] = bindCode{x: c.expr(s, b.Value), pos: b.At}
	}
	return out
}

// rec compiles the bindings of a let rec; their names are bound in s
// first.
func (c *compiler) rec(s *scope, bs []*Binding, pos Position) *recCode {
	rc := &recCode{pos: pos}
	slots := make([]int, len(bs))
	for i, b := range bs {
		if b.Pat.Tuple || len(b.Pat.Names) != 1 {
			c.errs.Add(b.At, "let rec binds names, not tuples")
			continue
		}
		slots[i] = c.bindPat(s, b.Pat).slots[0]
	}
	for i, b := range bs {
		if b.Pat.Tuple || len(b.Pat.Names) != 1 || slots[i] < 0 {
			continue
		}
		if fe, ok := b.Value.(*FunExpr); ok {
			rc.funSlots = append(rc.funSlots, slots[i])
			rc.funs = append(rc.funs, c.fun(s, fe))
			continue
		}
		rc.valSlots = append(rc.valSlots, slots[i])
		rc.vals = append(rc.vals, c.expr(s, b.Value))
	}
	rec := map[int]bool{}
	for _, slot := range slots {
		rec[slot] = true
	}
	for i, x := range rc.vals {
		rc.vals[i] = c.hoist(s, x, rec, &rc.invSlots)
	}
	return rc
}

// hoist wraps the parts of the body of a let rec that do not read the
// names it defines (herd7's rcu-order: (rcu-gp ; rcu-link ; rcu-rscsi)
// and the like) into nodes that compute them once per fixpoint rather
// than once per iteration; each gets a slot of s's frame, which bindRec
// clears (slots lists them). It looks through the relational operators
// only.
func (c *compiler) hoist(s *scope, n node, rec map[int]bool, slots *[]int) node {
	if invariant(n, rec) {
		switch n := n.(type) {
		case *localNode, *outerNode, *inputNode, *constNode:
			return n
		case *unaryNode:
			if n.op == OpToID {
				return n
			}
		}
		slot := c.alloc(s)
		*slots = append(*slots, slot)
		return &onceNode{slot: slot, x: n}
	}
	switch n := n.(type) {
	case *unaryNode:
		n.x = c.hoist(s, n.x, rec, slots)
	case *binaryNode:
		n.x = c.hoist(s, n.x, rec, slots)
		n.y = c.hoist(s, n.y, rec, slots)
	case *seqNode:
		// a ; (b ; (c ; d)): the invariant operands, and the longest
		// invariant tail as one.
		k := len(n.xs)
		for k > 0 && invariant(n.xs[k-1], rec) {
			k--
		}
		if len(n.xs)-k >= 2 {
			tail := c.hoist(s, &seqNode{xs: n.xs[k:], ops: n.ops[k:]}, rec, slots)
			n.xs = append(n.xs[:k:k], tail)
			n.ops = n.ops[:k:k]
		}
		for i, x := range n.xs {
			n.xs[i] = c.hoist(s, x, rec, slots)
		}
	}
	return n
}

// invariant tells whether n is made of relational operators on names
// other than those of rec.
func invariant(n node, rec map[int]bool) bool {
	switch n := n.(type) {
	case *localNode:
		return !rec[n.slot]
	case *outerNode, *inputNode, *constNode:
		return true
	case *unaryNode:
		return invariant(n.x, rec)
	case *binaryNode:
		return invariant(n.x, rec) && invariant(n.y, rec)
	case *seqNode:
		for _, x := range n.xs {
			if !invariant(x, rec) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *compiler) cond(s *scope, cd Cond) condCode {
	switch cd := cd.(type) {
	case *VariantCond:
		if c.collect != nil {
			c.collect.impure = true
		}
		return &variantCode{name: cd.Name}
	case *NotCond:
		return &notCode{x: c.cond(s, cd.X)}
	case *AndCond:
		return &andCode{x: c.cond(s, cd.X), y: c.cond(s, cd.Y)}
	case *OrCond:
		return &orCode{x: c.cond(s, cd.X), y: c.cond(s, cd.Y)}
	case *CompareCond:
		return &compareCode{op: cd.Op, x: c.expr(s, cd.X), y: c.expr(s, cd.Y), pos: cd.At}
	}
	return &variantCode{}
}

func (c *compiler) test(s *scope, kind CheckKind, t *Test) *checkCode {
	name := t.Name
	if name == "" {
		name = t.Text
	}
	return &checkCode{kind: kind, negate: t.Negate, test: t.Kind, x: c.expr(s, t.X), name: name, pos: t.At}
}

// stmts compiles a list of statements in scope s, whose names it updates.
func (c *compiler) stmts(s *scope, list []Stmt) []stmtCode {
	var out []stmtCode
	for _, st := range list {
		out = c.stmt(s, st, out)
	}
	return out
}

// stmt compiles one statement, appending its code to out. Each kind of
// statement has a function of its own, never inlined: compiled to
// WebAssembly the whole switch was 28.6 KB, which the browser's
// optimising compiler took long to compile although it runs only while a
// model loads.
func (c *compiler) stmt(s *scope, st Stmt, out []stmtCode) []stmtCode {
	switch st := st.(type) {
	case *LetStmt:
		return c.stmtLet(s, st, out)
	case *CheckStmt:
		return c.stmtCheck(s, st, out)
	case *ShowStmt, *DebugStmt, *EventsStmt:
		// no effect on checking
	case *IncludeStmt:
		c.errs.Add(st.At, fmt.Sprintf("include %q was not resolved", st.Path))
	case *BlockStmt:
		for _, x := range st.Stmts {
			out = c.stmt(s, x, out)
		}
	case *ProcStmt:
		return c.stmtProc(s, st, out)
	case *CallStmt:
		return c.stmtCall(s, st, out)
	case *ForallStmt:
		return c.stmtForall(s, st, out)
	case *WithStmt:
		return c.stmtWith(s, st, out)
	case *EnumStmt:
		return c.stmtEnum(s, st, out)
	case *IfStmt:
		return c.stmtIf(s, st, out)
	case *MatchStmt:
		return c.stmtMatch(s, st, out)
	default:
		c.errs.Add(st.Pos(), fmt.Sprintf("unknown statement %T", st))
	}
	return out
}

//go:noinline
func (c *compiler) stmtLet(s *scope, st *LetStmt, out []stmtCode) []stmtCode {
	col := c.beginLet(s)
	if st.Rec {
		code := &letRecCode{rec: c.rec(s, st.Binds, st.At)}
		code.memo = c.endLet(col)
		out = append(out, code)
	} else {
		binds := c.binds(s, st.Binds)
		for i, b := range st.Binds {
			binds[i].pat = c.bindPat(s, b.Pat)
		}
		code := &letCode{binds: binds}
		code.memo = c.endLet(col)
		out = append(out, code)
	}
	if st.When != nil {
		out = append(out, c.test(s, Check, st.When))
	}
	return out
}

//go:noinline
func (c *compiler) stmtCheck(s *scope, st *CheckStmt, out []stmtCode) []stmtCode {
	// A check on the inputs only is memoised like a let: its verdict
	// is the same for every rf and co of one candidate structure.
	col := c.beginLet(s)
	code := c.test(s, st.Kind, st.Test)
	code.memo = c.endLet(col)
	out = append(out, code)
	return out
}

//go:noinline
func (c *compiler) stmtProc(s *scope, st *ProcStmt, out []stmtCode) []stmtCode {
	ps := &scope{names: map[string]int{}, fi: &frameInfo{}, parent: s}
	code := &procCode{name: st.Name}
	code.params = c.bindPat(ps, st.Params)
	code.body = c.stmts(ps, st.Body)
	code.nslots = ps.fi.nslots
	slot := c.alloc(s)
	s.names[st.Name] = slot
	out = append(out, &procDefCode{slot: slot, code: code})
	return out
}

//go:noinline
func (c *compiler) stmtCall(s *scope, st *CallStmt, out []stmtCode) []stmtCode {
	out = append(out, &callCode{proc: c.resolve(s, st.Name, st.At), arg: c.expr(s, st.Arg), as: st.As, pos: st.At})
	return out
}

//go:noinline
func (c *compiler) stmtForall(s *scope, st *ForallStmt, out []stmtCode) []stmtCode {
	set := c.expr(s, st.Set)
	bs := &scope{names: map[string]int{}, fi: &frameInfo{}, parent: s}
	code := &procCode{name: "forall"}
	code.params = c.bindPat(bs, single(st.Var))
	code.body = c.stmts(bs, st.Body)
	code.nslots = bs.fi.nslots
	out = append(out, &forallCode{set: set, code: code, pos: st.At, simple: !mayBranch(st.Body)})
	return out
}

//go:noinline
func (c *compiler) stmtWith(s *scope, st *WithStmt, out []stmtCode) []stmtCode {
	var set node
	if col := c.beginLet(s); col != nil {
		// The set is computed by a hidden let, memoised like the others.
		set = c.expr(s, st.Set)
		hidden := c.alloc(s)
		out = append(out, &letCode{binds: []bindCode{{pat: patSlots{slots: []int{hidden}}, x: set, pos: st.At}}, memo: c.endLet(col)})
		set = &localNode{slot: hidden, name: st.Var, pos: st.At, err: unbound(st.At, st.Var)}
	} else {
		set = c.expr(s, st.Set)
	}
	slot := c.alloc(s)
	s.names[st.Var] = slot
	if s.fi == c.top {
		c.withNames[st.Var] = true
	}
	out = append(out, &withCode{slot: slot, set: set, pos: st.At})
	return out
}

//go:noinline
func (c *compiler) stmtEnum(s *scope, st *EnumStmt, out []stmtCode) []stmtCode {
	tags := make([]value, len(st.Tags))
	for i, t := range st.Tags {
		tags[i] = tagVal(t)
	}
	slot := c.alloc(s)
	s.names[st.Name] = slot
	out = append(out, &letCode{binds: []bindCode{{pat: patSlots{slots: []int{slot}}, x: &constNode{newValSet(tags...)}, pos: st.At}}})
	return out
}

//go:noinline
func (c *compiler) stmtIf(s *scope, st *IfStmt, out []stmtCode) []stmtCode {
	codes := c.branches(s, [][]Stmt{st.Then, st.Else})
	out = append(out, &ifCode{cond: c.cond(s, st.Cond), then: codes[0], els: codes[1]})
	return out
}

//go:noinline
func (c *compiler) stmtMatch(s *scope, st *MatchStmt, out []stmtCode) []stmtCode {
	x := c.expr(s, st.X)
	bodies := make([][]Stmt, 0, len(st.Clauses)+1)
	mc := &matchCode{x: x, hasDef: st.HasDef, pos: st.At}
	for _, cl := range st.Clauses {
		mc.tags = append(mc.tags, cl.Tag)
		bodies = append(bodies, cl.Body)
	}
	bodies = append(bodies, st.Default)
	codes := c.branches(s, bodies)
	mc.bodies = codes[:len(st.Clauses)]
	mc.def = codes[len(st.Clauses)]
	out = append(out, mc)
	return out
}

// branches compiles alternative statement lists (the arms of an if or a
// match). Names an arm binds get one common slot after the arms: each arm
// ends by copying its own binding (or the one from before) there.
func (c *compiler) branches(s *scope, bodies [][]Stmt) [][]stmtCode {
	before := s.names
	codes := make([][]stmtCode, len(bodies))
	after := make([]map[string]int, len(bodies))
	changed := map[string]bool{}
	for i, b := range bodies {
		bs := &scope{names: maps.Clone(before), fi: s.fi, parent: s.parent}
		codes[i] = c.stmts(bs, b)
		after[i] = bs.names
		for name, slot := range bs.names {
			if old, ok := before[name]; !ok || old != slot {
				changed[name] = true
			}
		}
	}
	merged := maps.Clone(before)
	for _, name := range slices.Sorted(maps.Keys(changed)) {
		slot := c.alloc(s)
		for i := range bodies {
			var from slotRef
			if own, ok := after[i][name]; ok {
				from = &localNode{slot: own, name: name, err: unbound(Position{}, name)}
			} else {
				from = c.resolve(&scope{names: before, fi: s.fi, parent: s.parent}, name, Position{})
			}
			codes[i] = append(codes[i], &copyCode{from: from, to: slot})
		}
		merged[name] = slot
	}
	s.names = merged
	return codes
}

// mayBranch tells whether statements may run their continuation more than
// once: they hold a with, or a call (whose procedure may hold one).
func mayBranch(list []Stmt) bool {
	for _, st := range list {
		switch st := st.(type) {
		case *WithStmt, *CallStmt:
			return true
		case *BlockStmt:
			if mayBranch(st.Stmts) {
				return true
			}
		case *IfStmt:
			if mayBranch(st.Then) || mayBranch(st.Else) {
				return true
			}
		case *MatchStmt:
			for _, cl := range st.Clauses {
				if mayBranch(cl.Body) {
					return true
				}
			}
			if mayBranch(st.Default) {
				return true
			}
		case *ForallStmt:
			if mayBranch(st.Body) {
				return true
			}
		}
	}
	return false
}
