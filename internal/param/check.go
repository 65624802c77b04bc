package param

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/source"
)

// ParseFile reads, parses and checks the .cub file at path.
func ParseFile(path string) (*System, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Load(path, src)
}

// Load parses and checks a .cub source.
func Load(name string, src []byte) (*System, error) {
	f, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	return Check(f)
}

// maxDNF bounds the size of a formula in disjunctive normal form.
const maxDNF = 4096

// ctxKind says where an expression is.
type ctxKind int

const (
	inTrans ctxKind = iota
	inInit
	inUnsafe
	inInvariant
)

func (k ctxKind) String() string {
	return [...]string{"a transition", "init", "unsafe", "an invariant"}[k]
}

// checker resolves names and checks the restrictions of Cubicle-W.
type checker struct {
	f       *File
	sys     *System
	errs    ErrorList
	types   map[string]Sort
	ctors   map[string]Term
	globals map[string]int32
	preds   map[string]*PredicateDecl
	// hidxUse: where each proc variable is first used as an index
	// outside init (procindex.go; noProcessHome)
	hidxUse map[string]Pos
	// scShared: the non-weak globals a transition reads or writes as
	// shared memory (another process's cell, or a variable); they make
	// System.SharedSC when some transition assigns them (sharedSC)
	scShared map[int32]bool
	// localWeak: the arrays declared local_weak (localweak.go)
	localWeak map[int32]bool
}

// scope is the environment of an expression.
type scope struct {
	kind   ctxKind
	vars   map[string]Term // process variables and predicate arguments
	actor  int32           // slot of the acting process (transitions), 0 if none
	params map[int32]bool  // slots of transition parameters
	trans  string
	quant  bool // inside a quantifier
	depth  int
	reads  *bool // set when a weak variable is read
	// hidx: the process each proc variable used as an index stands for
	// in a variant (procindex.go); fresh: the slots of the variant's new
	// parameters, which forall_other and exists_other range over too
	hidx  map[string]Term
	fresh []int32
}

func (s *scope) with(name string, t Term) *scope {
	n := *s
	n.vars = make(map[string]Term, len(s.vars)+1)
	for k, v := range s.vars {
		n.vars[k] = v
	}
	n.vars[name] = t
	return &n
}

// Check resolves a parsed file into a System.
func Check(f *File) (*System, error) {
	c := &checker{
		f:       f,
		sys:     &System{File: f.Name, NumberProcs: f.NumberProcs},
		types:   map[string]Sort{},
		ctors:   map[string]Term{},
		globals: map[string]int32{},
		preds:   map[string]*PredicateDecl{},
	}
	c.types["bool"] = Sort{Kind: SBool}
	c.types["int"] = Sort{Kind: SInt}
	c.types["real"] = Sort{Kind: SReal}
	c.types["proc"] = Sort{Kind: SProc}
	c.ctors["True"] = boolTerm(true)
	c.ctors["False"] = boolTerm(false)
	c.declarations()
	c.rewriteEarly()
	c.rewriteOutside()
	if len(c.errs) > 0 {
		c.errs.Sort()
		return nil, c.errs.Err()
	}
	c.formulas()
	c.transitions()
	c.sharedSC()
	c.noProcessHome()
	if len(c.f.Unsafes) == 0 {
		c.errs.Add(Pos{File: f.Name}, "no unsafe formula")
	}
	c.errs.Sort()
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	return c.sys, nil
}

// sharedSC sets System.SharedSC: the system has weak memory and some
// transition reads or writes shared sequentially consistent memory that
// some transition assigns. A non-weak variable that no transition
// assigns keeps its initial value in every state of every run: reading
// it tells a process nothing of the others' steps, so it cannot order
// two transitions while a write is still buffered (the reason the
// search offers late sources, model.go); it is a constant there, as a
// "const" is (Cubicle-W's tests/cubicle/lamportn.cub reads NullProc so).
func (c *checker) sharedSC() {
	if !c.sys.Weak {
		return
	}
	for gi := range c.scShared {
		if c.sys.Globals[gi].Assign {
			c.sys.SharedSC = true
			return
		}
	}
}

// sharedAccess records that a transition reads or writes global gi as
// shared memory (sharedSC).
func (c *checker) sharedAccess(gi int32) {
	if c.scShared == nil {
		c.scShared = map[int32]bool{}
	}
	c.scShared[gi] = true
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(pos, fmt.Sprintf(format, args...))
}

func (c *checker) declarations() {
	for _, t := range c.f.Types {
		if _, dup := c.types[t.Name]; dup {
			c.errorf(t.Pos, "type %s declared twice", t.Name)
			continue
		}
		e := &Enum{Name: t.Name}
		s := Sort{Kind: SEnum, Enum: int32(len(c.sys.Enums))}
		if len(t.Ctors) == 0 {
			// an abstract type: infinitely many values, compared by = and <>
			s.Kind = SAbs
		}
		c.sys.Enums = append(c.sys.Enums, e)
		c.types[t.Name] = s
		for i, k := range t.Ctors {
			if _, dup := c.ctors[k.Name]; dup {
				c.errorf(k.Pos, "constructor %s declared twice", k.Name)
				continue
			}
			e.Ctors = append(e.Ctors, k.Name)
			c.ctors[k.Name] = Term{Kind: KEnum, Sort: s, Sym: int32(i), Off: Rat{0, 1}}
		}
	}
	for _, g := range c.f.Globals {
		if _, dup := c.globals[g.Name]; dup {
			c.errorf(g.Pos, "%s declared twice", g.Name)
			continue
		}
		if _, isCtor := c.ctors[g.Name]; isCtor {
			c.errorf(g.Pos, "%s is already a constructor", g.Name)
			continue
		}
		s, ok := c.types[g.Type.Name]
		if !ok {
			c.errorf(g.Type.Pos, "unknown type %s", g.Type.Name)
			continue
		}
		for _, ix := range g.Indices {
			if ix.Name != "proc" {
				c.errorf(ix.Pos, "arrays are indexed by proc, not %s", ix.Name)
			}
		}
		if len(g.Indices) > maxArity {
			c.errorf(g.Pos, "arrays have at most %d indices", maxArity)
			continue
		}
		c.globals[g.Name] = int32(len(c.sys.Globals))
		c.sys.Globals = append(c.sys.Globals, &Global{
			Name: g.Name, Pos: g.Pos, Weak: g.Weak, Const: g.Kind == GConst,
			Arity: len(g.Indices), Sort: s,
		})
		if g.Weak {
			c.sys.Weak = true
		}
		if g.Local {
			c.declareLocalWeak(g)
		}
	}
	for _, p := range c.f.Predicates {
		if _, dup := c.preds[p.Name]; dup {
			c.errorf(p.Pos, "predicate %s declared twice", p.Name)
		}
		c.preds[p.Name] = p
	}
}

// formulas checks init, unsafe and invariant.
func (c *checker) formulas() {
	switch len(c.f.Inits) {
	case 0:
	case 1:
		in := c.f.Inits[0]
		if len(in.Params) > maxArity {
			c.errorf(in.Pos, "init has at most %d process parameters", maxArity)
		}
		sc := &scope{kind: inInit, vars: map[string]Term{}}
		for i, p := range in.Params {
			sc.vars[p.Name] = slotTerm(paramSlot(i))
		}
		if vars := c.procIndexVars(in.Params, []Expr{in.Body}, nil); len(vars) > 0 {
			// a proc variable as an index: a universal parameter
			// more for each (procinit.go)
			c.sys.Init, c.sys.InitArity = c.initProcIndex(in, vars)
		} else {
			c.sys.Init = c.dnf(in.Body, false, sc)
			c.sys.InitArity = len(in.Params)
		}
		for _, cj := range c.sys.Init {
			if len(cj.Foralls) > 0 || len(cj.Exists) > 0 {
				c.errorf(in.Pos, "init cannot use forall_other or exists_other")
				break
			}
		}
	default:
		c.errorf(c.f.Inits[1].Pos, "more than one init")
	}
	for i, u := range c.f.Unsafes {
		c.sys.Unsafe = append(c.sys.Unsafe, c.roots(u, i+1, inUnsafe)...)
	}
	for i, u := range c.f.Invariants {
		c.sys.Invariants = append(c.sys.Invariants, c.roots(u, i+1, inInvariant)...)
	}
}

// roots checks an unsafe or invariant formula: one root, or, when it
// indexes an array by a proc variable, one root for each process the
// variable may be (procindex.go), all with the formula's index.
func (c *checker) roots(f *Formula, index int, kind ctxKind) []*Root {
	vars := c.procIndexVars(f.Params, []Expr{f.Body}, nil)
	if len(vars) == 0 {
		return []*Root{c.root(f, index, kind, nil)}
	}
	c.usedAsIndex(vars, f.Pos)
	bs, ok := procBindings(vars, len(f.Params))
	if !ok {
		c.procIndexLimit(f.Pos, kind.String(), vars)
		return nil
	}
	var out []*Root
	for _, b := range bs {
		nerr := len(c.errs)
		out = append(out, c.root(f, index, kind, &b))
		if len(c.errs) > nerr {
			break
		}
	}
	return out
}

func (c *checker) root(f *Formula, index int, kind ctxKind, b *procBinding) *Root {
	sc := &scope{kind: kind, vars: map[string]Term{}}
	seen := map[string]bool{}
	for i, p := range f.Params {
		if seen[p.Name] {
			c.errorf(p.Pos, "parameter %s appears twice", p.Name)
		}
		seen[p.Name] = true
		sc.vars[p.Name] = slotTerm(paramSlot(i))
	}
	r := &Root{Index: index, Pos: f.Pos, Params: len(f.Params)}
	if b != nil {
		bound := c.bind(*b, f.Params, f.Pos, sc)
		r.Params += b.Fresh
		r.DNF = c.product(f.Pos, bound, c.dnf(f.Body, false, sc))
	} else {
		r.DNF = c.dnf(f.Body, false, sc)
	}
	for _, cj := range r.DNF {
		if len(cj.Foralls) > 0 || len(cj.Exists) > 0 {
			c.errorf(f.Pos, "%s cannot use forall_other or exists_other", kind)
			break
		}
	}
	return r
}

func (c *checker) transitions() {
	names := map[string]int{}
	for _, d := range c.f.Transitions {
		// Cubicle accepts two transitions of the same name; traces name
		// the second one name#2
		names[d.Name]++
		name := d.Name
		if k := names[d.Name]; k > 1 {
			name = fmt.Sprintf("%s#%d", d.Name, k)
		}
		exprs := []Expr{d.Guard}
		for _, l := range d.Lets {
			exprs = append(exprs, l.Value)
		}
		vars := c.procIndexVars(d.Params, exprs, d.Actions)
		if len(vars) == 0 {
			c.transition(d, name, nil)
			continue
		}
		// a proc variable as an index: one variant for each process
		// it may be (procindex.go)
		c.usedAsIndex(vars, d.Pos)
		bs, ok := procBindings(vars, len(d.Params))
		if !ok {
			c.procIndexLimit(d.Pos, "transition "+d.Name, vars)
			continue
		}
		for _, b := range bs {
			if !c.transition(d, name, &b) {
				break // the errors of one variant are those of all
			}
		}
	}
}

// transition checks d, or its variant b (procindex.go) when b is not
// nil, and adds it to the system; it reports whether it found no error.
func (c *checker) transition(d *TransDecl, name string, b *procBinding) bool {
	nerr := len(c.errs)
	t := &Trans{Name: variantName(name, b, d.Params), Pos: d.Pos, Actor: d.Actor}
	sc := &scope{kind: inTrans, vars: map[string]Term{}, params: map[int32]bool{}, trans: d.Name}
	for i, p := range d.Params {
		if _, dup := sc.vars[p.Name]; dup {
			c.errorf(p.Pos, "parameter %s appears twice", p.Name)
		}
		sc.vars[p.Name] = slotTerm(paramSlot(i))
		sc.params[paramSlot(i)] = true
		t.Params = append(t.Params, p.Name)
	}
	if d.Actor >= 0 {
		sc.actor = paramSlot(d.Actor)
	}
	reads := false
	sc.reads = &reads
	var bound []Conj
	if b != nil {
		// (after the actor: the actor reads a weak Home)
		bound = c.bind(*b, d.Params, d.Pos, sc)
		t.Params = append(t.Params, b.freshNames(d.Params)...)
	}
	if d.Guard != nil {
		t.Guard = c.dnf(d.Guard, false, sc)
	} else {
		t.Guard = []Conj{{}}
	}
	if b != nil {
		t.Guard = c.product(d.Pos, bound, t.Guard)
		if deadVariant(bound, t.Guard) {
			// Home = i and Home <> i: never enabled, as the
			// transition is not when Home holds i
			return len(c.errs) == nerr
		}
	}
	fenced := len(t.Guard) > 0
	for _, cj := range t.Guard {
		if !cj.Fence {
			fenced = false
		}
	}
	for _, l := range d.Lets {
		if _, dup := sc.vars[l.Name.Name]; dup {
			c.errorf(l.Name.Pos, "%s is already bound", l.Name.Name)
			continue
		}
		if v, _, ok := c.term(l.Value, sc); ok {
			sc = sc.with(l.Name.Name, v)
		}
	}
	assigned := map[string]bool{}
	for _, a := range d.Actions {
		if assigned[a.Name.Name] {
			c.errorf(a.Pos, "%s is assigned twice", a.Name.Name)
		}
		assigned[a.Name.Name] = true
		if u, ok := c.update(a, sc); ok {
			t.Updates = append(t.Updates, u)
			if c.sys.Globals[u.Global].Weak {
				t.WritesWeak = true
			}
		}
	}
	t.ReadsWeak = reads
	t.Fence = fenced || reads && t.WritesWeak
	if (t.ReadsWeak || t.WritesWeak || hasFence(t.Guard)) && d.Actor < 0 {
		c.errorf(d.Pos, "transition %s accesses weak memory: mark the process that performs it with [.], e.g. ([i] j)", d.Name)
	}
	c.sys.Trans = append(c.sys.Trans, t)
	return len(c.errs) == nerr
}

// badRead is the error for a read(…) that is not read(p, X) (early.go).
const badRead = "read takes a process and a variable or a cell: read(p, X), read(p, A[i])"

// fenceArgOK checks the argument of fence in a transition's guard.
// Cubicle-W's tso branch writes fence(), meaning the store buffer of the
// transition's [.] process is empty; its earlier grammar (the cubiclew
// and cubicletso folders of Cubicle's repository) writes fence(p), a
// literal on the buffer of process p. Both are read alike when p is the
// [.] process; a fence on another process's buffer is refused, as it
// has no meaning in Musket's model (a transition only waits on its own
// buffer).
func (c *checker) fenceArgOK(x *CallExpr, sc *scope) bool {
	switch len(x.Args) {
	case 0:
		return true
	case 1:
		id, ok := x.Args[0].(*IdentExpr)
		if !ok {
			c.errorf(x.Pos, "fence takes no argument or the transition's [.] process")
			return false
		}
		if t, ok := sc.vars[id.Name]; !ok || sc.actor == 0 || t != slotTerm(sc.actor) {
			c.errorf(x.Pos, "fence(%s): only the buffer of the transition's [.] process can be waited on", id.Name)
			return false
		}
		return true
	}
	c.errorf(x.Pos, "fence takes no argument or the transition's [.] process")
	return false
}

func hasFence(dnf []Conj) bool {
	for _, cj := range dnf {
		if cj.Fence {
			return true
		}
	}
	return false
}

// procTerm is the process constant #k.
func (c *checker) procTerm(x *ProcExpr) (Term, Sort, bool) {
	if n := c.sys.NumberProcs; n > 0 && x.N > n {
		c.errorf(x.Pos, "process #%d does not exist: number_procs is %d", x.N, n)
		return Term{}, Sort{}, false
	}
	if int32(x.N) > c.sys.Pinned {
		c.sys.Pinned = int32(x.N)
	}
	return slotTerm(int32(x.N)), Sort{Kind: SProc}, true
}

// procConst is the process constant of an array index "#k".
func (c *checker) procConst(ix Ident) (Term, bool) {
	n, err := strconv.Atoi(ix.Name[1:])
	if err != nil || n <= 0 {
		c.errorf(ix.Pos, "bad process constant %s", ix.Name)
		return Term{}, false
	}
	t, _, ok := c.procTerm(&ProcExpr{Pos: ix.Pos, N: n})
	return t, ok
}

// constIndexAction rewrites an assignment to a cell indexed by a process
// constant, A[#1] := e (or A[i, #2] := e), as Cubicle's parser does: an
// update of every cell, A[j] := case | j = #1 : e | _ : A[j], with one
// fresh universal index per index. On a weak array the default branch is
// left out, so that only the named cell is written (a case without a
// default writes no other cell of a weak array, see the package doc), as
// Cubicle-W writes that cell alone. Cubicle refuses a process constant in
// the index of a case update (its parser's update rule), and so does this.
// isProcConst reports whether an index names a process constant #k (not
// the parameter earlyActor, early.go).
func isProcConst(name string) bool {
	return strings.HasPrefix(name, "#") && name != earlyActor
}

func (c *checker) constIndexAction(a *Action, weak bool) (*Action, bool) {
	hasConst := false
	for _, ix := range a.Index {
		if isProcConst(ix.Name) {
			hasConst = true
		}
	}
	if !hasConst {
		return a, true
	}
	if _, isCase := a.Rhs.(*CaseExpr); isCase {
		c.errorf(a.Pos, "a case cannot update %s at a process constant: write %s[j] := case | j = #k : …", a.Name.Name, a.Name.Name)
		return nil, false
	}
	n := &Action{Pos: a.Pos, Name: a.Name}
	var cond Expr
	for k, ix := range a.Index {
		j := Ident{Pos: ix.Pos, Name: fmt.Sprintf("#j%d", k+1)}
		n.Index = append(n.Index, j)
		var r Expr = &IdentExpr{Pos: ix.Pos, Name: ix.Name}
		if isProcConst(ix.Name) {
			m, err := strconv.Atoi(ix.Name[1:])
			if err != nil || m <= 0 {
				c.errorf(ix.Pos, "bad process constant %s", ix.Name)
				return nil, false
			}
			r = &ProcExpr{Pos: ix.Pos, N: m}
		}
		eq := &BinExpr{Pos: ix.Pos, Op: OpEq, L: &IdentExpr{Pos: ix.Pos, Name: j.Name}, R: r}
		if cond == nil {
			cond = eq
		} else {
			cond = &BinExpr{Pos: ix.Pos, Op: OpAnd, L: cond, R: eq}
		}
	}
	ce := &CaseExpr{Pos: a.Pos, Conds: []Expr{cond}, Branches: []Expr{a.Rhs}}
	if !weak {
		ce.Conds = append(ce.Conds, nil)
		ce.Branches = append(ce.Branches, &IndexExpr{Pos: a.Pos, Name: a.Name.Name, Index: n.Index})
	}
	n.Rhs = ce
	return n, true
}

// update checks one action.
func (c *checker) update(a *Action, sc *scope) (Update, bool) {
	var u Update
	if gi, ok := c.globals[a.Name.Name]; ok {
		if a, ok = c.constIndexAction(a, c.sys.Globals[gi].Weak); !ok {
			return u, false
		}
	}
	gi, ok := c.globals[a.Name.Name]
	if !ok {
		c.errorf(a.Name.Pos, "unknown variable %s", a.Name.Name)
		return u, false
	}
	g := c.sys.Globals[gi]
	u.Global = gi
	g.Assign = true
	if g.Const {
		c.errorf(a.Name.Pos, "%s is a constant and cannot be assigned", g.Name)
		return u, false
	}
	if len(a.Index) != g.Arity {
		c.errorf(a.Name.Pos, "%s has %d indices, not %d", g.Name, g.Arity, len(a.Index))
		return u, false
	}
	usc := sc
	u.NArgs = len(a.Index)
	for i, ix := range a.Index {
		if t, ok := sc.vars[ix.Name]; ok {
			if t.Kind != KSlot {
				c.errorf(ix.Pos, "%s is not a process variable", ix.Name)
				return u, false
			}
			u.Args[i] = t.Sym
			continue
		}
		// the name of a variable is no universal index: A[Home] :=
		// ..., Home a proc variable, had updated every cell (a wrong
		// UNSAFE); it writes the cell of the process Home holds, the
		// parameter h of the variant (procindex.go)
		if h, ok := sc.hidx[ix.Name]; ok {
			u.Args[i] = h.Sym
			continue
		}
		if _, ok := c.globals[ix.Name]; ok {
			c.badIndex(ix)
			return u, false
		}
		// a universal index: A[j] := ... (or A[j, k] := ...)
		if t, ok := usc.vars[ix.Name]; ok {
			u.Args[i] = t.Sym // the same universal index again
			continue
		}
		s := uvarSlot - int32(u.NUniv)
		u.Univ = true
		u.NUniv++
		u.Args[i] = s
		usc = usc.with(ix.Name, slotTerm(s))
	}
	if !g.Weak && (u.Univ || !ownCell(u.Args[:u.NArgs], sc.actor)) {
		c.sharedAccess(gi)
	}
	if c.localWeak[gi] && !c.localWeakWrite(a, u, sc) {
		return u, false
	}
	switch rhs := a.Rhs.(type) {
	case *CaseExpr:
		for i, cond := range rhs.Conds {
			var cs Case
			if cond != nil {
				cs.Cond = c.dnf(cond, false, usc)
				if cs.Cond == nil {
					// a condition that never holds (false, a
					// contradiction): no disjunct, but not the
					// default branch, which a nil Cond is
					cs.Cond = []Conj{}
				}
			}
			cs.Value, cs.Nondet = c.value(rhs.Branches[i], g, usc)
			u.Cases = append(u.Cases, cs)
		}
		if n := len(rhs.Conds); n > 0 && rhs.Conds[n-1] != nil {
			// no default branch (see the package doc): when no
			// condition holds, a sequentially consistent cell takes
			// any value (Cubicle's pre-image drops the literal), a
			// weak cell is not written (Cubicle-W makes no write event)
			if g.Weak {
				u.Cases = append(u.Cases, Case{Skip: true})
			} else {
				u.Cases = append(u.Cases, Case{Nondet: true})
			}
		}
		if n := exclusiveCaseLits(u.Cases); n > maxCaseLits {
			c.errorf(rhs.Pos, "limit reached: this case's %d branches, each taken when the conditions before it fail, come to more than %d literals (Musket's bound on a case's size; the system may be fine)", len(rhs.Conds), maxCaseLits)
		}
	default:
		var cs Case
		cs.Value, cs.Nondet = c.value(a.Rhs, g, usc)
		u.Cases = []Case{cs}
	}
	return u, true
}

// value checks the value assigned to g.
func (c *checker) value(e Expr, g *Global, sc *scope) (Term, bool) {
	if _, ok := e.(*NondetExpr); ok {
		return Term{}, true
	}
	t, s, ok := c.term(e, sc)
	if ok && (!compatible(s, g.Sort) || intRealMix(Term{Kind: KVar}, g.Sort, t, s)) {
		c.errorf(e.exprPos(), "%s has type %s, not %s", g.Name, c.sortName(g.Sort), c.sortName(s))
	}
	if ok && g.Sort.Kind == SReal && t.Kind == KNum {
		t.Sort = g.Sort
	}
	return t, false
}

// intRealMix reports whether a and b, of sorts as and bs, mix an int
// with a real: Cubicle's typing keeps int and real apart, and Musket's
// procedures decide the atoms of an int term over the integers, so that
// X < 1.5 with X an int was read as X < 1 (a wrong SAFE). A constant
// whose value is an integer is taken for either sort (1 for 1.0, 2.0
// for 2).
func intRealMix(a Term, as Sort, b Term, bs Sort) bool {
	return intWithReal(a, as, b, bs) || intWithReal(b, bs, a, as)
}

func intWithReal(a Term, as Sort, b Term, bs Sort) bool {
	if as.Kind != SInt || bs.Kind != SReal {
		return false
	}
	if a.Kind == KNum || b.Kind == KNum && b.Off.Den == 1 {
		return false
	}
	return true
}

func compatible(a, b Sort) bool {
	if a.numeric() && b.numeric() {
		return true
	}
	return a == b
}

// ownCell reports whether a cell with these indices belongs to the
// acting process alone (a variable belongs to nobody).
func ownCell(args []int32, actor int32) bool {
	if len(args) == 0 || actor == 0 {
		return false
	}
	for _, a := range args {
		if a != actor {
			return false
		}
	}
	return true
}

func (c *checker) sortName(s Sort) string {
	switch s.Kind {
	case SBool:
		return "bool"
	case SInt:
		return "int"
	case SReal:
		return "real"
	case SProc:
		return "proc"
	}
	return c.sys.Enums[s.Enum].Name
}

// dnf translates a formula (negated when neg) to disjunctive normal form.
func (c *checker) dnf(e Expr, neg bool, sc *scope) []Conj {
	sc.depth++
	defer func() { sc.depth-- }()
	if sc.depth > maxDepth {
		c.errorf(e.exprPos(), "formula nested too deeply")
		return nil
	}
	switch x := e.(type) {
	case *BinExpr:
		switch x.Op {
		case OpAnd, OpOr:
			return c.chain(x, neg, sc)
		case OpImp:
			// a => b  is  not a || b
			if !neg {
				return c.union(x.Pos, c.dnf(x.L, true, sc), c.dnf(x.R, false, sc))
			}
			return c.product(x.Pos, c.dnf(x.L, false, sc), c.dnf(x.R, true, sc))
		case OpIff:
			a := c.product(x.Pos, c.dnf(x.L, false, sc), c.dnf(x.R, neg, sc))
			b := c.product(x.Pos, c.dnf(x.L, true, sc), c.dnf(x.R, !neg, sc))
			return c.union(x.Pos, a, b)
		case OpEq, OpNeq, OpLt, OpLe, OpGt, OpGe:
			return c.atom(x, neg, sc)
		}
		c.errorf(x.Pos, "expected a formula, found an arithmetic expression")
		return nil
	case *NotExpr:
		return c.dnf(x.E, !neg, sc)
	case *CallExpr:
		if x.Name == "fence" {
			if sc.kind == inTrans && !c.fenceArgOK(x, sc) {
				return nil
			}
			if sc.kind != inTrans {
				c.errorf(x.Pos, "fence() can only be used in the guard of a transition, not in %s", sc.kind)
				return nil
			}
			if neg {
				c.errorf(x.Pos, "fence() cannot be negated")
				return nil
			}
			if !c.sys.Weak {
				// no weak memory: a fence is always true
				return []Conj{{}}
			}
			return []Conj{{Fence: true}}
		}
		p, ok := c.preds[x.Name]
		if !ok {
			if x.Name == "read" {
				c.errorf(x.Pos, "%s", badRead)
				return nil
			}
			c.errorf(x.Pos, "unknown predicate %s", x.Name)
			return nil
		}
		if len(p.Params) != len(x.Args) {
			c.errorf(x.Pos, "predicate %s takes %d arguments, not %d", x.Name, len(p.Params), len(x.Args))
			return nil
		}
		psc := *sc
		psc.vars = map[string]Term{}
		for i, a := range x.Args {
			t, _, ok := c.term(a, sc)
			if !ok {
				return nil
			}
			psc.vars[p.Params[i].Name] = t
		}
		return c.dnf(p.Body, neg, &psc)
	case *QuantExpr:
		if x.All {
			return c.allQuant(x, neg, sc)
		}
		if sc.kind != inTrans {
			c.errorf(x.Pos, "forall_other and exists_other can only be used in transitions, not in %s", sc.kind)
			return nil
		}
		if sc.quant {
			c.errorf(x.Pos, "nested forall_other/exists_other is not supported: a guard quantifies over one other process at a time (as in Cubicle); use a transition parameter for the outer one")
			return nil
		}
		qsc := sc.with(x.Var.Name, slotTerm(qvarSlot))
		qsc.quant = true
		body := c.dnf(x.Body, neg, qsc)
		for _, cj := range body {
			if cj.Fence {
				// fence() does not depend on the quantified process
				body = hoistFence(body)
				return c.freshQuant(x, neg, sc, []Conj{{Fence: true, Foralls: pick(x.Forall != neg, body), Exists: pick(x.Forall == neg, body)}})
			}
		}
		return c.freshQuant(x, neg, sc, []Conj{{Foralls: pick(x.Forall != neg, body), Exists: pick(x.Forall == neg, body)}})
	case *IdentExpr, *IndexExpr, *AtExpr:
		if id, ok := e.(*IdentExpr); ok && (id.Name == "true" || id.Name == "false") {
			// Cubicle's keywords true and false (its grammar's
			// literals): the empty conjunction, or no conjunction
			if (id.Name == "true") != neg {
				return []Conj{{}}
			}
			return nil
		}
		t, s, ok := c.term(e, sc)
		if !ok {
			return nil
		}
		if s.Kind != SBool {
			c.errorf(e.exprPos(), "expected a formula, found a term of type %s", c.sortName(s))
			return nil
		}
		return c.lit(e.exprPos(), Eq, t, boolTerm(!neg))
	}
	c.errorf(e.exprPos(), "expected a formula")
	return nil
}

// allQuant translates forall k. e or exists k. e in a transition's
// guard: k ranges over every process, so the formula is e on each of
// the transition's parameters and e over the other processes (forall
// k. e is e(p1) && … && e(pn) && forall_other k. e; exists k. e the
// disjunction). Elsewhere it is refused: in unsafe, invariant and init
// the process is a parameter of the formula.
func (c *checker) allQuant(x *QuantExpr, neg bool, sc *scope) []Conj {
	word := "exists"
	if x.Forall {
		word = "forall"
	}
	if sc.kind != inTrans {
		c.errorf(x.Pos, "%s %s. … can only be used in a transition's guard: in %s, make %s a parameter", word, x.Var.Name, sc.kind, x.Var.Name)
		return nil
	}
	var slots []int32
	for s := range sc.params {
		slots = append(slots, s)
	}
	// parameters first to last (paramSlot(i) = -(i+1))
	slices.Sort(slots)
	slices.Reverse(slots)
	universal := x.Forall != neg
	out := c.dnf(&QuantExpr{Pos: x.Pos, Forall: x.Forall, Var: x.Var, Body: x.Body}, neg, sc)
	for _, s := range slots {
		part := c.dnf(x.Body, neg, sc.with(x.Var.Name, slotTerm(s)))
		if universal {
			out = c.product(x.Pos, out, part)
		} else {
			out = c.union(x.Pos, out, part)
		}
	}
	return out
}

func pick(b bool, body []Conj) [][]Conj {
	if b {
		return [][]Conj{body}
	}
	return nil
}

func hoistFence(body []Conj) []Conj {
	out := make([]Conj, len(body))
	for i, cj := range body {
		cj.Fence = false
		out[i] = cj
	}
	return out
}

// chain translates a chain of one connective, a && b && c (which the
// parser groups to the left) or any grouping of it, without recursion
// along the chain: a flat chain of 10^5 atoms is not nested (it was
// refused as "formula nested too deeply"), and its operands are combined
// at once. Combining them pair by pair copied the partial conjunction
// at each step, quadratic in the chain's length. The result is the
// same as the pairwise fold: the same conjunctions in the same order
// (the leftmost operand varies slowest; both product and union are
// associative in that order), the same literals in the same order, and,
// for the parser's grouping to the left, the same error at the first
// connective whose fold goes past maxDNF (TestChainAsPairwise).
func (c *checker) chain(x *BinExpr, neg bool, sc *scope) []Conj {
	var ops []Expr // the operands, left to right
	var at []Pos   // at[i]: the connective that joins ops[i] (i > 0) to its left
	stack := []Expr{x}
	parent := []Pos{x.Pos}
	for len(stack) > 0 {
		e, p := stack[len(stack)-1], parent[len(parent)-1]
		stack, parent = stack[:len(stack)-1], parent[:len(parent)-1]
		if b, ok := e.(*BinExpr); ok && b.Op == x.Op {
			stack, parent = append(stack, b.R, b.L), append(parent, b.Pos, b.Pos)
			continue
		}
		ops, at = append(ops, e), append(at, p)
	}
	ds := make([][]Conj, len(ops))
	for i, e := range ops {
		ds[i] = c.dnf(e, neg, sc)
	}
	if (x.Op == OpAnd) != neg {
		return c.products(at, ds)
	}
	out := append([]Conj{}, ds[0]...)
	for i := 1; i < len(ds); i++ {
		if len(out)+len(ds[i]) > maxDNF {
			c.tooLarge(at[i])
			return nil
		}
		out = append(out, ds[i]...)
	}
	return out
}

// products is the product of the disjunctions ds (ds[i] joined at
// at[i]), as product folded from the left would give it.
func (c *checker) products(at []Pos, ds [][]Conj) []Conj {
	n := len(ds[0])
	for i := 1; i < len(ds); i++ {
		if n*len(ds[i]) > maxDNF {
			c.tooLarge(at[i])
			return nil
		}
		n *= len(ds[i])
	}
	if n == 0 {
		return nil
	}
	out := make([]Conj, 0, n)
	idx := make([]int, len(ds)) // the conjunction taken from each ds[i]
	for {
		var z Conj
		for i, d := range ds {
			x := d[idx[i]]
			z.Fence = z.Fence || x.Fence
			z.Lits = append(z.Lits, x.Lits...)
			z.Foralls = append(z.Foralls, x.Foralls...)
			z.Exists = append(z.Exists, x.Exists...)
		}
		out = append(out, z)
		i := len(ds) - 1 // the rightmost operand varies fastest
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(ds[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

// maxCaseLits bounds the literals of a case update's branches made
// exclusive (caseAlts): branch i holds when its condition does and the
// conditions of branches 0..i-1 do not, so the literals grow with the
// square of the number of branches, and the negated conditions multiply
// when they have several conjunctions. A case of 20000 branches, one
// equality each, took 12 GB within one pre-image, past -memory and
// -timeout, whose checks come between pre-images (robust7). At the bound
// a pre-image of the case takes about 100 MB; a case of 1000 branches
// of one equality each comes to about 10^6 literals.
const maxCaseLits = 1 << 21

// exclusiveCaseLits counts, without building them, the literals that
// caseAlts builds for cases, as if no literal were found true or false
// on instantiation (an upper bound): the alternatives of every branch,
// and the negation of the conditions before it. It saturates past
// maxCaseLits.
func exclusiveCaseLits(cases []Case) float64 {
	// p conjunctions, with pl literals in all, hold when every branch
	// so far fails.
	p, pl := 1.0, 0.0
	total := 0.0
	for _, cs := range cases {
		c, cl := 1.0, 0.0 // the default branch: true
		if cs.Cond != nil {
			c = float64(len(cs.Cond))
			cl = 0
			for _, cj := range cs.Cond {
				cl += float64(len(cj.Lits))
			}
		}
		total += pl*c + cl*p
		if cs.Cond == nil || total > maxCaseLits {
			break
		}
		// not (c1 or ... or ck): one negated literal of each ci, in
		// every combination.
		nn := 1.0
		for _, cj := range cs.Cond {
			nn *= float64(max(len(cj.Lits), 1))
		}
		p, pl = p*nn, pl*nn+nn*c*p
		total += pl
		if p == 0 || total > maxCaseLits {
			break
		}
	}
	return total
}

// tooLarge refuses a formula whose disjunctive normal form goes past
// maxDNF: a limit of Musket, not an error of the system, so the message
// begins "limit reached:" (exit status 3) and names the bound.
func (c *checker) tooLarge(pos Pos) {
	c.errorf(pos, "limit reached: this formula has more than %d conjunctions in disjunctive normal form (Musket's bound on a formula's size; the system may be fine)", maxDNF)
}

func (c *checker) product(pos Pos, a, b []Conj) []Conj {
	if len(a)*len(b) > maxDNF {
		c.tooLarge(pos)
		return nil
	}
	var out []Conj
	for _, x := range a {
		for _, y := range b {
			z := Conj{Fence: x.Fence || y.Fence}
			z.Lits = append(append(z.Lits, x.Lits...), y.Lits...)
			z.Foralls = append(append(z.Foralls, x.Foralls...), y.Foralls...)
			z.Exists = append(append(z.Exists, x.Exists...), y.Exists...)
			out = append(out, z)
		}
	}
	return out
}

func (c *checker) union(pos Pos, a, b []Conj) []Conj {
	if len(a)+len(b) > maxDNF {
		c.tooLarge(pos)
		return nil
	}
	return append(append([]Conj{}, a...), b...)
}

var relOps = map[string]Op{OpEq: Eq, OpNeq: Ne, OpLt: Lt, OpLe: Le, OpGt: Gt, OpGe: Ge}

func (c *checker) atom(x *BinExpr, neg bool, sc *scope) []Conj {
	l, ls, ok1 := c.term(x.L, sc)
	r, rs, ok2 := c.term(x.R, sc)
	if !ok1 || !ok2 {
		return nil
	}
	op := relOps[x.Op]
	if !compatible(ls, rs) || intRealMix(l, ls, r, rs) {
		c.errorf(x.Pos, "cannot compare %s with %s", c.sortName(ls), c.sortName(rs))
		return nil
	}
	if op != Eq && op != Ne && !ls.numeric() && ls.Kind != SProc {
		c.errorf(x.Pos, "%s is only defined on int, real and proc", x.Op)
		return nil
	}
	// constants take the sort of the other side
	if l.Kind == KNum && rs.Kind == SReal {
		l.Sort = rs
	}
	if r.Kind == KNum && ls.Kind == SReal {
		r.Sort = ls
	}
	if ls.numeric() {
		if _, ok := linearOf(l).plus(linearOf(r), Rat{-1, 1}); !ok {
			c.errorf(x.Pos, "number out of range")
			return nil
		}
	}
	if neg {
		op = op.negate()
	}
	return c.lit(x.Pos, op, l, r)
}

func (c *checker) lit(pos Pos, op Op, l, r Term) []Conj {
	return []Conj{{Lits: []Lit{{Op: op, L: l, R: r}}}}
}

// term translates a term.
func (c *checker) term(e Expr, sc *scope) (Term, Sort, bool) {
	switch x := e.(type) {
	case *IdentExpr:
		return c.nameTerm(x, sc)
	case *IndexExpr:
		gi, ok := c.globals[x.Name]
		if !ok {
			c.errorf(x.Pos, "unknown array %s", x.Name)
			return Term{}, Sort{}, false
		}
		return c.access(x.Pos, gi, x.Index, nil, sc)
	case *AtExpr:
		return c.atTerm(x, sc)
	case *NumExpr:
		return c.numberTerm(x)
	case *ProcExpr:
		return c.procTerm(x)
	case *BinExpr:
		return c.arithTerm(x, sc)
	case *NegExpr:
		t, s, ok := c.term(x.E, sc)
		if !ok {
			return t, s, ok
		}
		if !s.numeric() {
			c.errorf(x.Pos, "- is only defined on int and real")
			return Term{}, Sort{}, false
		}
		n, _ := linearOf(t).scale(Rat{-1, 1})
		return n.term(s), s, true
	case *NondetExpr:
		c.errorf(x.Pos, "'.' (any value) can only be assigned")
		return Term{}, Sort{}, false
	case *CallExpr:
		if x.Name == "fence" {
			c.errorf(x.Pos, "fence() is a formula, not a term")
		} else if _, ok := c.preds[x.Name]; !ok && x.Name == "read" {
			c.errorf(x.Pos, "%s", badRead)
		} else {
			c.errorf(x.Pos, "predicate %s is a formula, not a term", x.Name)
		}
		return Term{}, Sort{}, false
	}
	c.errorf(e.exprPos(), "expected a term")
	return Term{}, Sort{}, false
}

// nameTerm translates a name: a bound variable, a constructor or a
// global variable without index.
func (c *checker) nameTerm(x *IdentExpr, sc *scope) (Term, Sort, bool) {
	if t, ok := sc.vars[x.Name]; ok {
		return t, t.Sort, true
	}
	if t, ok := c.ctors[x.Name]; ok {
		return t, t.Sort, true
	}
	gi, ok := c.globals[x.Name]
	if !ok {
		c.errorf(x.Pos, "unknown name %s", x.Name)
		return Term{}, Sort{}, false
	}
	return c.access(x.Pos, gi, nil, nil, sc)
}

// atTerm translates p@X (or p@X[i]): a global variable as process p
// sees it.
func (c *checker) atTerm(x *AtExpr, sc *scope) (Term, Sort, bool) {
	p, ok := sc.vars[x.Proc.Name]
	if !ok || p.Kind != KSlot {
		c.errorf(x.Proc.Pos, "%s is not a process variable", x.Proc.Name)
		return Term{}, Sort{}, false
	}
	var name string
	var idx []Ident
	switch of := x.Of.(type) {
	case *IdentExpr:
		name = of.Name
	case *IndexExpr:
		name, idx = of.Name, of.Index
	}
	gi, ok := c.globals[name]
	if !ok {
		c.errorf(x.Pos, "unknown variable %s", name)
		return Term{}, Sort{}, false
	}
	return c.access(x.Pos, gi, idx, &p, sc)
}

// numberTerm translates a number: an int (at most 2^40) or a real (a
// fraction of 64-bit integers).
func (c *checker) numberTerm(x *NumExpr) (Term, Sort, bool) {
	if x.Real {
		r, ok := new(big.Rat).SetString(x.Text)
		if !ok || !r.Num().IsInt64() || !r.Denom().IsInt64() {
			c.errorf(x.Pos, "number %s out of range", x.Text)
			return Term{}, Sort{}, false
		}
		s := Sort{Kind: SReal}
		return numTerm(rat(r.Num().Int64(), r.Denom().Int64()), s), s, true
	}
	n, ok := new(big.Int).SetString(x.Text, 10)
	if !ok || !n.IsInt64() || n.Int64() > 1<<40 {
		c.errorf(x.Pos, "number %s out of range", x.Text)
		return Term{}, Sort{}, false
	}
	s := Sort{Kind: SInt}
	return numTerm(rat(n.Int64(), 1), s), s, true
}

// arithTerm translates a sum, a difference or a product (one side of
// which must be constant: terms are linear).
func (c *checker) arithTerm(x *BinExpr, sc *scope) (Term, Sort, bool) {
	if x.Op != OpAdd && x.Op != OpSub && x.Op != OpMul {
		c.errorf(x.Pos, "a formula is not a term")
		return Term{}, Sort{}, false
	}
	l, ls, ok1 := c.term(x.L, sc)
	r, rs, ok2 := c.term(x.R, sc)
	if !ok1 || !ok2 {
		return Term{}, Sort{}, false
	}
	if !ls.numeric() || !rs.numeric() {
		c.errorf(x.Pos, "%s is only defined on int and real", x.Op)
		return Term{}, Sort{}, false
	}
	if intRealMix(l, ls, r, rs) {
		c.errorf(x.Pos, "%s of an int and a real: int and real are different types", x.Op)
		return Term{}, Sort{}, false
	}
	s := linSort(ls, rs)
	a, b := linearOf(l), linearOf(r)
	var sum linear
	ok := true
	switch {
	case x.Op == OpAdd:
		sum, ok = a.plus(b, Rat{1, 1})
	case x.Op == OpSub:
		sum, ok = a.plus(b, Rat{-1, 1})
	case len(a.terms) == 0:
		sum, ok = b.scale(a.c)
	case len(b.terms) == 0:
		sum, ok = a.scale(b.c)
	default:
		c.errorf(x.Pos, "the product of two non-constant terms is not linear")
		return Term{}, Sort{}, false
	}
	if !ok {
		c.errorf(x.Pos, "number out of range")
		return Term{}, Sort{}, false
	}
	return sum.term(s), s, true
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// access translates a read of global gi (indexed by idx), by the process
// at (for p@X).
func (c *checker) access(pos Pos, gi int32, idx []Ident, at *Term, sc *scope) (Term, Sort, bool) {
	g := c.sys.Globals[gi]
	if len(idx) != g.Arity {
		if g.Arity == 0 {
			c.errorf(pos, "%s is not an array", g.Name)
		} else {
			c.errorf(pos, "%s has %d indices, not %d", g.Name, g.Arity, len(idx))
		}
		return Term{}, Sort{}, false
	}
	t := Term{Sort: g.Sort, Sym: gi, NArgs: int32(len(idx)), Off: Rat{0, 1}}
	for i, ix := range idx {
		v, ok := sc.vars[ix.Name]
		if !ok && strings.HasPrefix(ix.Name, "#") {
			v, ok = c.procConst(ix)
			if !ok {
				return Term{}, Sort{}, false
			}
		}
		if !ok {
			// a proc variable bound by the variant (procindex.go)
			v, ok = sc.hidx[ix.Name]
		}
		if !ok || v.Kind != KSlot {
			c.badIndex(ix)
			return Term{}, Sort{}, false
		}
		t.Args[i] = v.Sym
	}
	// Cubicle-W reads p@X of a non-weak X as X (anywhere), and p@X of a
	// weak X in a transition as X when p is the transition's [.] process
	// (it refuses any other process there).
	if at != nil && sc.kind == inTrans && sc.actor != 0 && at.Sym == sc.actor {
		at = nil
	}
	if at != nil && !g.Weak {
		at = nil
	}
	if at != nil {
		if sc.kind != inUnsafe && sc.kind != inInvariant {
			c.errorf(pos, "p@X can only be used in unsafe and invariant formulas, or in a transition with p its [.] process, not in %s", sc.kind)
			return Term{}, Sort{}, false
		}
		t.Kind, t.Node, t.Proc = KVal, newNode, at.Sym
		return t, g.Sort, true
	}
	if !g.Weak {
		t.Kind = KVar
		// non-weak variables and arrays, whoever owns the cell, are
		// sequentially consistent shared memory (as in Cubicle-W)
		if sc.kind == inTrans && !g.Const && !ownCell(t.Args[:t.NArgs], sc.actor) {
			c.sharedAccess(gi)
		}
		return t, g.Sort, true
	}
	switch sc.kind {
	case inInit:
		t.Kind = KInit
	case inTrans:
		if sc.actor == 0 {
			c.errorf(pos, "transition %s reads weak %s: mark the process that performs it with [.]", sc.trans, g.Name)
			return Term{}, Sort{}, false
		}
		t.Kind, t.Node, t.Proc = KVal, newNode, sc.actor
		*sc.reads = true
	default:
		c.errorf(pos, "weak %s must be read by a process in %s: write p@%s", g.Name, sc.kind, g.Name)
		return Term{}, Sort{}, false
	}
	return t, g.Sort, true
}

// badIndex reports an index that is not a process variable or constant.
// A proc variable is read as an index in transitions, unsafe and
// invariant formulas (procindex.go); a weak one is refused by name.
func (c *checker) badIndex(ix Ident) {
	if gi, ok := c.globals[ix.Name]; ok && c.sys.Globals[gi].Sort.Kind == SProc && c.sys.Globals[gi].Arity == 0 {
		weak := ""
		if c.sys.Globals[gi].Weak {
			weak = "weak "
		}
		c.errorf(ix.Pos, "unsupported: the %sproc variable %s as an index here; make it a parameter: add a parameter h with %s = h and write h as the index", weak, ix.Name, ix.Name)
		return
	}
	c.errorf(ix.Pos, "%s is not a process variable", ix.Name)
}
