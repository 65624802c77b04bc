package litmus

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// The C front-end reads herd7's C litmus tests: threads are functions
//
//	P0(int *x, atomic_int *y) { int r0 = atomic_load_explicit(y, memory_order_acquire); *x = 1; }
//
// whose parameters name shared locations (x is the address of location
// x) and whose locals are the registers a condition names ("0:r0"). The
// statements are declarations, assignments, calls, if/else, while,
// do-while and for loops with break and continue (backward jumps,
// unrolled by the engine's bound, herd's -unroll); a register the initial
// state gives a value ("0:r4=y;") is a variable of its thread; the
// expressions are C's, with pointers (*p reads, &x, pointer-valued
// registers), arrays (a[i] is *(a+i); each cell of an array of the
// initial state is a location) and casts (ignored).
//
// Control dependencies are herd7's for C: the reads an if's condition
// depends on are ctrl-before the events of its branches only, not the
// events after the if/else (those stay covered by the ifs they are
// nested in). The front-end marks where the branches join
// (prog.Jump.Join); a loop is the ifs of its unrolling (a test covers the
// later iterations, up to the loop's exit), and so are the short-circuit
// operators with side effects, the conditional operator and the
// write-back of a failing compare-and-swap. Assembly front-ends leave
// Join empty: a branch there covers everything after it.
//
// Plain accesses (*p) are tagged NA. The C11 atomics
// (atomic_load_explicit, atomic_store_explicit, atomic_exchange_explicit,
// atomic_fetch_{add,sub,and,or,xor}_explicit,
// atomic_compare_exchange_{strong,weak}_explicit, atomic_thread_fence, and
// their seq_cst forms without _explicit) make events tagged A and their
// memory order: RLX, CON, ACQ, REL, ACQ_REL, SC. A read-modify-write is a
// read and a write in the rmw relation, both tagged RMW and X (herd's
// standard library finds C's rmw pairs as the X events of one instance).
//
// Everything else is a macro: herd's -macros .def file (see Macros),
// layered over a built-in table of the usual Linux-kernel primitives.
// Macro bodies use herd's primitives, whose tags become sets named as herd
// names them (herdTagSet: 'mb is Mb, 'ONCE is ONCE):
//
//	__load{t}(L)  __store{t}(L,V)  __fence{t}  __xchg{t}(P,V)
//	__cmpxchg{t}(P,O,N)  __atomic_op{t}(P,op,V)  __atomic_op_return{t}(P,op,V)
//	__atomic_fetch_op{t}(P,op,V)  __atomic_add_unless{t}(P,A,U)
//	__lock(P)  __unlock(P)  __trylock(P)  __islocked(P)  __srcu{t}(P)
//
// where L is a location (an lvalue, *p) and P a pointer. The events of
// __xchg, __cmpxchg and the atomic operations carry their tag, RMW and X.
// The lock primitives __lock(P), __unlock(P), __trylock(P) and
// __islocked(P) (spin_lock, spin_unlock, spin_trylock, spin_is_locked) and
// __srcu{t}(P) (synchronize_srcu) make prog.Located instructions: events
// at the location P points to that are neither reads nor writes, tagged as
// herd7 tags them (LKR and LKW, UL, LKR and LKW or LF, RL or RU, the
// primitive's tag); the Linux kernel's lock.cat gives them their rf and
// co. __trylock and __islocked return 1 or 0, both explored.

func init() { Register("C", NewCFrontend(nil)) }

// C11 tags.
const (
	TagAtomic    = "A"
	TagNonAtomic = "NA"
	TagRMW       = "RMW"
)

// cMemOrders maps C11 memory orders to their tags.
var cMemOrders = map[string]string{
	"memory_order_relaxed": "RLX",
	"memory_order_consume": "CON",
	"memory_order_acquire": "ACQ",
	"memory_order_release": "REL",
	"memory_order_acq_rel": "ACQ_REL",
	"memory_order_seq_cst": "SC",
}

// cLockTags are herd7's lock event tags (lock.cat).
var cLockTags = []string{"LKR", "LKW", "UL", "LF", "RL", "RU"}

// cKernelTags are the tags of the Linux-kernel model that a model may name
// even when no macro makes them.
var cKernelTags = []string{
	"ONCE", "ACQUIRE", "RELEASE", "MB", "NORETURN", "Rmb", "Wmb", "Barrier",
	"Rcu-lock", "Rcu-unlock", "Sync-rcu", "Before-atomic", "After-atomic",
	"After-spinlock", "After-unlock-lock", "After-srcu-read-unlock",
	"Srcu-lock", "Srcu-unlock", "Sync-srcu",
}

// cFrontend is the C front-end. Its macros and tags are made on first
// use (setup, tagsOnce): the front-end is registered at init, and every
// musket command would otherwise pay for parsing the built-in macros.
// Its tags do not need that parse (builtinMacroTags): a C program's
// check asks for the tags only, and the parse cost it ~0.4 ms of its
// ~12 ms of Go CPU.
type cFrontend struct {
	user     *Macros // the .def file's macros, nil for none
	once     sync.Once
	macros   *Macros
	tagsOnce sync.Once
	tags     []string
}

// NewCFrontend returns the C front-end with the macros m (a .def file;
// nil for none) over the built-in ones. Parse a test with it through
// ParseWith.
func NewCFrontend(m *Macros) Frontend {
	return &cFrontend{user: m}
}

// setup makes f's macros (the built-in ones under the user's) and tags.
func (f *cFrontend) setup() {
	f.once.Do(f.build)
}

func (f *cFrontend) build() {
	f.macros = builtinMacros().over(f.user)
}

// buildTags makes f's tags: C11's, the lock and kernel tags, and those
// of the macros (the built-in ones and the user's).
func (f *cFrontend) buildTags() {
	set := map[string]bool{TagAtomic: true, TagNonAtomic: true, TagRMW: true, TagX: true, "NAL": true}
	for _, t := range cMemOrders {
		set[t] = true
	}
	lists := [][]string{cLockTags, cKernelTags, builtinMacroTags}
	if f.user != nil {
		lists = append(lists, f.user.Tags())
	}
	for _, list := range lists {
		for _, t := range list {
			set[t] = true
		}
	}
	for t := range set {
		f.tags = append(f.tags, t)
	}
	sort.Strings(f.tags)
}

func (f *cFrontend) Arch() string { return "C" }

// RegName accepts any C identifier: registers are the threads' locals.
func (f *cFrontend) RegName(name string) (string, bool) {
	if name == "" || !isLetter(name[0]) {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		if !isIdentByte(name[i]) {
			return "", false
		}
	}
	return name, true
}

func (f *cFrontend) Tags() []string { f.tagsOnce.Do(f.buildTags); return f.tags }

func (f *cFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	return nil, errors.New("C threads are functions, not a table")
}

// Code reads the thread functions and translates them.
func (f *cFrontend) Code(src []byte, off int, pos func(int) prog.Pos, init []spec.InitEntry) ([]*prog.Thread, int, error) {
	var errs source.ErrorList
	p := newCParser(src, off, pos, &errs)
	var funcs []*cFunc
	end := len(src)
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		funcs = p.funcs()
		end = p.tok.off
	}()
	if len(errs) > 0 {
		return nil, end, errs
	}
	if len(funcs) == 0 {
		errs.Add(pos(off), "missing thread functions P0(...) { ... }")
		return nil, end, errs
	}
	threads := make([]*prog.Thread, len(funcs))
	for i, fn := range funcs {
		g := &cGen{fe: f, t: &prog.Thread{ID: i, Name: fn.Name}, params: map[string]bool{}, locals: map[string]bool{}, errs: &errs, pos: pos}
		for _, name := range fn.Params {
			g.params[name] = true
		}
		for _, e := range init {
			if e.Ref.Thread == i && !g.params[e.Ref.Name] {
				g.locals[e.Ref.Name] = true
			}
		}
		g.cur = pos(fn.Off)
		g.stmts(fn.Body)
		threads[i] = g.t
	}
	// Locations that some thread declares non-atomic and none atomic are
	// Dat3M's non-atomic locations (their initial writes are tagged NAL).
	atomic, plain := map[string]bool{}, map[string]bool{}
	for _, fn := range funcs {
		for i, name := range fn.Params {
			if fn.Atomic[i] {
				atomic[name] = true
			} else {
				plain[name] = true
			}
		}
	}
	var nal []string
	for name := range plain {
		if !atomic[name] {
			nal = append(nal, name)
		}
	}
	sort.Strings(nal)
	for _, t := range threads {
		t.NonAtomic = nal
	}
	errs.Sort()
	return threads, end, errs.Err()
}

// cGen translates one thread function into the IR.
type cGen struct {
	fe     *cFrontend
	t      *prog.Thread
	params map[string]bool
	locals map[string]bool
	errs   *source.ErrorList
	pos    func(int) prog.Pos
	cur    prog.Pos // the position of the statement being translated
	ntmp   int
	nlab   int
	expand int // depth of macro expansion
	loops  []*cLoop
}

// cLoop is an enclosing loop: where break and continue go, and whether
// a continue went there.
type cLoop struct {
	brk, cont string
	contUsed  bool
}

const maxMacroDepth = 64

//go:noinline // see asmThread.emit
func (g *cGen) emit(in prog.Instr) {
	g.t.Code = append(g.t.Code, in)
	g.t.Pos = append(g.t.Pos, g.cur)
}

func (g *cGen) tmp() string {
	g.ntmp++
	return "%t" + itoa(g.ntmp)
}

func (g *cGen) label() string {
	g.nlab++
	return "%L" + itoa(g.nlab)
}

func (g *cGen) errorf(off int, format string, args ...any) {
	g.errs.Add(g.pos(off), fmt.Sprintf(format, args...))
}

func (g *cGen) unsupported(off int, what string) {
	g.errorf(off, "unsupported C feature: %s", what)
}

func (g *cGen) stmts(list []cStmt) {
	for _, s := range list {
		g.stmt(s)
	}
}

func (g *cGen) stmt(s cStmt) {
	g.cur = g.pos(s.cOff())
	switch s := s.(type) {
	case *cDecl:
		if g.params[s.Name] {
			g.errorf(s.Off, "local %s hides the parameter of the same name", s.Name)
			return
		}
		g.locals[s.Name] = true
		if s.Init != nil {
			v := g.expr(s.Init)
			g.emit(prog.Assign{Dst: s.Name, Val: v})
		}
	case *cExprStmt:
		g.effect(s.X)
	case *cBlock:
		g.stmts(s.Body)
	case *cIf:
		// The condition's control dependency covers the branches, up to
		// the label where they join (herd7's C; see prog.Jump.Join). A
		// branch that leaves the loop (break, continue) puts the rest of
		// the loop in the other branch of the unrolled ifs: the dependency
		// then covers the loop up to its exit.
		c := g.expr(s.Cond)
		els := g.label()
		leaves := len(g.loops) > 0 && (hasLoopJump(s.Then) || hasLoopJump(s.Else))
		if len(s.Else) == 0 {
			join := els
			if leaves {
				join = g.loops[len(g.loops)-1].brk
			}
			g.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: els, Join: join})
			g.stmts(s.Then)
			g.emit(prog.Label{Name: els})
			return
		}
		end := g.label()
		join := end
		if leaves {
			join = g.loops[len(g.loops)-1].brk
		}
		g.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: els, Join: join})
		g.stmts(s.Then)
		g.emit(prog.Jump{Target: end})
		g.emit(prog.Label{Name: els})
		g.stmts(s.Else)
		g.emit(prog.Label{Name: end})
	case *cWhile:
		g.loop(s)
	case *cLoopJump:
		if len(g.loops) == 0 {
			what := "continue"
			if s.Break {
				what = "break"
			}
			g.errorf(s.Off, "%s outside a loop", what)
			return
		}
		l := g.loops[len(g.loops)-1]
		if s.Break {
			g.emit(prog.Jump{Target: l.brk})
		} else {
			l.contUsed = true
			g.emit(prog.Jump{Target: l.cont})
		}
	case *cUnsupportedSt:
		g.unsupported(s.Off, s.What)
	default:
		g.errorf(s.cOff(), "unexpected statement %T", s)
	}
}

// loop translates while, do-while and for loops. A loop is the if
// statements of its unrolling: each test's control dependency covers the
// later iterations and ends where the loop exits.
func (g *cGen) loop(s *cWhile) {
	g.stmts(s.Init)
	g.cur = g.pos(s.Off)
	top, end := g.label(), g.label()
	cont := top
	if s.Do || s.Step != nil {
		cont = g.label()
	}
	g.emit(prog.Label{Name: top})
	if !s.Do && s.Cond != nil {
		c := g.expr(s.Cond)
		g.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: end, Join: end})
	}
	l := &cLoop{brk: end, cont: cont}
	g.loops = append(g.loops, l)
	g.stmts(s.Body)
	g.loops = g.loops[:len(g.loops)-1]
	if cont != top && l.contUsed {
		g.emit(prog.Label{Name: cont})
	}
	g.cur = g.pos(s.Off)
	if s.Step != nil {
		g.effect(s.Step)
	}
	if s.Do {
		c := g.expr(s.Cond)
		g.emit(prog.Jump{Cond: c, Target: top, Join: end})
	} else {
		g.emit(prog.Jump{Target: top})
	}
	g.emit(prog.Label{Name: end})
}

// hasLoopJump reports whether the statements break or continue out of
// the loop that encloses them (a nested loop keeps its own).
func hasLoopJump(list []cStmt) bool {
	for _, s := range list {
		switch s := s.(type) {
		case *cLoopJump:
			return true
		case *cBlock:
			if hasLoopJump(s.Body) {
				return true
			}
		case *cIf:
			if hasLoopJump(s.Then) || hasLoopJump(s.Else) {
				return true
			}
		}
	}
	return false
}

// effect evaluates e for its side effects.
func (g *cGen) effect(e cExpr) {
	if c, ok := e.(*cCall); ok {
		g.call(c, false)
		return
	}
	g.expr(e)
}

var cBinOps = map[string]prog.Op{
	"+": prog.OpAdd, "-": prog.OpSub, "*": prog.OpMul, "/": prog.OpDiv, "%": prog.OpMod,
	"&": prog.OpAnd, "|": prog.OpOr, "^": prog.OpXor, "<<": prog.OpShl, ">>": prog.OpShr,
	"==": prog.OpEq, "!=": prog.OpNe, "<": prog.OpLt, "<=": prog.OpLe, ">": prog.OpGt, ">=": prog.OpGe,
	"&&": prog.OpLAnd, "||": prog.OpLOr,
}

// expr evaluates e: it emits the events e makes and returns its value as
// a side-effect-free IR expression.
func (g *cGen) expr(e cExpr) prog.Expr {
	switch e := e.(type) {
	case *cInt:
		return prog.Int(e.V)
	case *cIdent:
		switch {
		case g.locals[e.Name]:
			return prog.Reg{Name: e.Name}
		case g.params[e.Name]:
			return prog.Addr(e.Name)
		case cMemOrders[e.Name] != "":
			g.errorf(e.Off, "memory order %s outside an atomic operation", e.Name)
		case e.Name == "true" || e.Name == "false":
			// Not keywords in herd7's C: undeclared names there, read
			// as registers never written, whose value is 0 — so true
			// is 0, as herd7 answers (LKMM's C-bool-const-01).
		default:
			g.errorf(e.Off, "undeclared identifier %s", quote(e.Name))
		}
		return prog.Int(0)
	case *cCast:
		return g.expr(e.X)
	case *cUnary:
		switch e.Op {
		case "*":
			a := g.expr(e.X)
			r := g.tmp()
			g.emit(prog.Load{Dst: r, Addr: a, Tags: []string{TagNonAtomic}})
			return prog.Reg{Name: r}
		case "&":
			return g.addrOf(e.X)
		case "-":
			return prog.Un{Op: prog.OpNeg, X: g.expr(e.X)}
		case "!":
			return prog.Un{Op: prog.OpNot, X: g.expr(e.X)}
		case "~":
			return prog.Un{Op: prog.OpBNot, X: g.expr(e.X)}
		case "+":
			return g.expr(e.X)
		}
	case *cBinary:
		op := cBinOps[e.Op]
		if (e.Op == "&&" || e.Op == "||") && hasEffects(e.Y) {
			// Short-circuit: the right operand's events happen only when
			// needed, as in an if statement (whose control dependency
			// ends at end). The value is computed from both operands, as
			// herd7 computes x && y: it depends on both.
			r, end := g.tmp(), g.label()
			x := g.expr(e.X)
			g.emit(prog.Assign{Dst: r, Val: prog.Un{Op: prog.OpNot, X: prog.Un{Op: prog.OpNot, X: x}}})
			skip := prog.Expr(prog.Un{Op: prog.OpNot, X: prog.Reg{Name: r}})
			if e.Op == "||" {
				skip = prog.Reg{Name: r}
			}
			g.emit(prog.Jump{Cond: skip, Target: end, Join: end})
			y := g.expr(e.Y)
			g.emit(prog.Assign{Dst: r, Val: prog.Bin{Op: op, X: prog.Reg{Name: r}, Y: y}})
			g.emit(prog.Label{Name: end})
			return prog.Reg{Name: r}
		}
		x := g.expr(e.X)
		y := g.expr(e.Y)
		return prog.Bin{Op: op, X: x, Y: y}
	case *cTernary:
		r, els, end := g.tmp(), g.label(), g.label()
		c := g.expr(e.C)
		g.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: els, Join: end})
		g.emit(prog.Assign{Dst: r, Val: g.expr(e.T)})
		g.emit(prog.Jump{Target: end})
		g.emit(prog.Label{Name: els})
		g.emit(prog.Assign{Dst: r, Val: g.expr(e.E)})
		g.emit(prog.Label{Name: end})
		return prog.Reg{Name: r}
	case *cAssign:
		return g.assign(e)
	case *cIncDec:
		one := &cInt{V: 1, Off: e.Off}
		op := "+="
		if e.Op == "--" {
			op = "-="
		}
		if e.Prefix {
			return g.assign(&cAssign{Op: op, L: e.X, R: one, Off: e.Off})
		}
		old := g.tmp()
		g.emit(prog.Assign{Dst: old, Val: g.expr(e.X)})
		g.assign(&cAssign{Op: op, L: e.X, R: one, Off: e.Off})
		return prog.Reg{Name: old}
	case *cCall:
		return g.call(e, true)
	case *cOpArg:
		g.errorf(e.Off, "operator %s outside an atomic operation", e.Op)
		return prog.Int(0)
	case *cUnsupported:
		g.unsupported(e.Off, e.What)
		return prog.Int(0)
	}
	g.errorf(e.cOff(), "unexpected expression %T", e)
	return prog.Int(0)
}

// hasEffects tells whether evaluating e may make events or assign.
func hasEffects(e cExpr) bool {
	switch e := e.(type) {
	case *cUnary:
		return e.Op == "*" || hasEffects(e.X)
	case *cBinary:
		return hasEffects(e.X) || hasEffects(e.Y)
	case *cTernary:
		return hasEffects(e.C) || hasEffects(e.T) || hasEffects(e.E)
	case *cCast:
		return hasEffects(e.X)
	case *cCall, *cAssign, *cIncDec:
		return true
	}
	return false
}

// addrOf returns the address of the location the lvalue e designates.
func (g *cGen) addrOf(e cExpr) prog.Expr {
	switch e := e.(type) {
	case *cUnary:
		if e.Op == "*" {
			return g.expr(e.X)
		}
	case *cCast:
		return g.addrOf(e.X)
	case *cIdent:
		if g.params[e.Name] {
			// The parameters are the shared locations themselves.
			return prog.Addr(e.Name)
		}
		if g.locals[e.Name] {
			g.errorf(e.Off, "the address of local %s: locals are registers", e.Name)
			return prog.Int(0)
		}
		g.errorf(e.Off, "undeclared identifier %s", quote(e.Name))
		return prog.Int(0)
	case *cUnsupported:
		g.unsupported(e.Off, e.What)
		return prog.Int(0)
	}
	g.errorf(e.cOff(), "expected a location (*p or a parameter)")
	return prog.Int(0)
}

// assign performs L op= R and returns the value assigned.
func (g *cGen) assign(a *cAssign) prog.Expr {
	l := a.L
	for {
		c, ok := l.(*cCast)
		if !ok {
			break
		}
		l = c.X
	}
	var v prog.Expr
	compound := func(old prog.Expr) prog.Expr {
		if a.Op == "=" {
			return g.expr(a.R)
		}
		op, ok := cBinOps[strings.TrimSuffix(a.Op, "=")]
		if !ok {
			g.errorf(a.Off, "unknown operator %s", a.Op)
			return prog.Int(0)
		}
		return prog.Bin{Op: op, X: old, Y: g.expr(a.R)}
	}
	switch l := l.(type) {
	case *cIdent:
		if g.params[l.Name] {
			g.errorf(l.Off, "assignment to parameter %s (a location: write *%s)", l.Name, l.Name)
			return prog.Int(0)
		}
		if a.Op != "=" && !g.locals[l.Name] {
			g.errorf(l.Off, "undeclared identifier %s", quote(l.Name))
		}
		v = compound(prog.Reg{Name: l.Name})
		g.locals[l.Name] = true
		g.emit(prog.Assign{Dst: l.Name, Val: v})
		return prog.Reg{Name: l.Name}
	case *cUnary:
		if l.Op != "*" {
			break
		}
		addr := g.expr(l.X)
		var old prog.Expr
		if a.Op != "=" {
			r := g.tmp()
			g.emit(prog.Load{Dst: r, Addr: addr, Tags: []string{TagNonAtomic}})
			old = prog.Reg{Name: r}
		}
		v = compound(old)
		g.emit(prog.Store{Addr: addr, Val: v, Tags: []string{TagNonAtomic}})
		return v
	case *cUnsupported:
		g.unsupported(l.Off, l.What)
		return prog.Int(0)
	}
	g.errorf(a.Off, "cannot assign to this expression")
	return prog.Int(0)
}

// call translates a call: a macro, a herd primitive or a C11 atomic.
// When want is false the value is not needed.
func (g *cGen) call(c *cCall, want bool) prog.Expr {
	if _, prim := cPrimArgs[c.Name]; !c.Prim && !prim {
		g.fe.setup()
		if m, ok := g.fe.macros.defs[c.Name]; ok {
			return g.expandMacro(c, m, want)
		}
		if v, ok := g.c11(c); ok {
			return v
		}
		g.errorf(c.Off, "unknown C function %s", quote(c.Name))
		return prog.Int(0)
	}
	return g.prim(c)
}

func (g *cGen) expandMacro(c *cCall, m *cMacro, want bool) prog.Expr {
	if len(c.Args) != len(m.params) {
		g.errorf(c.Off, "macro %s takes %d arguments, not %d", c.Name, len(m.params), len(c.Args))
		return prog.Int(0)
	}
	if g.expand >= maxMacroDepth {
		g.errorf(c.Off, "macro %s expands too deeply (recursive?)", c.Name)
		return prog.Int(0)
	}
	env := map[string]cExpr{}
	for i, p := range m.params {
		env[p] = c.Args[i]
	}
	g.expand++
	defer func() { g.expand-- }()
	sub := &cSubst{env: env, off: c.Off}
	if m.isStmt {
		if want {
			g.errorf(c.Off, "macro %s is a statement: it has no value", c.Name)
		}
		save := g.cur
		for _, s := range m.stmts {
			g.stmt(sub.stmt(s))
			g.cur = save
		}
		return prog.Int(0)
	}
	body := sub.expr(m.expr)
	if !want {
		g.effect(body)
		return prog.Int(0)
	}
	return g.expr(body)
}

// cSubst copies a macro body, putting the arguments in place of the
// parameters and the call's offset on the body's own nodes.
type cSubst struct {
	env map[string]cExpr
	off int
}

func (s *cSubst) expr(e cExpr) cExpr {
	switch e := e.(type) {
	case nil:
		return nil
	case *cInt:
		return &cInt{V: e.V, Off: s.off}
	case *cIdent:
		if a, ok := s.env[e.Name]; ok {
			return a
		}
		return &cIdent{Name: e.Name, Off: s.off}
	case *cUnary:
		return &cUnary{Op: e.Op, X: s.expr(e.X), Off: s.off}
	case *cBinary:
		return &cBinary{Op: e.Op, X: s.expr(e.X), Y: s.expr(e.Y), Off: s.off}
	case *cTernary:
		return &cTernary{C: s.expr(e.C), T: s.expr(e.T), E: s.expr(e.E), Off: s.off}
	case *cCall:
		c := &cCall{Name: e.Name, Tags: e.Tags, Prim: e.Prim, NoParens: e.NoParens, Off: s.off}
		for _, a := range e.Args {
			c.Args = append(c.Args, s.expr(a))
		}
		return c
	case *cOpArg:
		return &cOpArg{Op: e.Op, Off: s.off}
	case *cAssign:
		return &cAssign{Op: e.Op, L: s.expr(e.L), R: s.expr(e.R), Off: s.off}
	case *cIncDec:
		return &cIncDec{Op: e.Op, X: s.expr(e.X), Prefix: e.Prefix, Off: s.off}
	case *cCast:
		return &cCast{X: s.expr(e.X), Off: s.off}
	case *cUnsupported:
		return &cUnsupported{What: e.What, Off: s.off}
	}
	return e
}

func (s *cSubst) stmt(st cStmt) cStmt {
	list := func(l []cStmt) []cStmt {
		out := make([]cStmt, len(l))
		for i, x := range l {
			out[i] = s.stmt(x)
		}
		return out
	}
	switch st := st.(type) {
	case *cDecl:
		return &cDecl{Name: st.Name, Init: s.expr(st.Init), Off: s.off}
	case *cExprStmt:
		return &cExprStmt{X: s.expr(st.X), Off: s.off}
	case *cIf:
		return &cIf{Cond: s.expr(st.Cond), Then: list(st.Then), Else: list(st.Else), Off: s.off}
	case *cWhile:
		return &cWhile{Cond: s.expr(st.Cond), Body: list(st.Body), Do: st.Do, Off: s.off}
	case *cBlock:
		return &cBlock{Body: list(st.Body), Off: s.off}
	case *cUnsupportedSt:
		return &cUnsupportedSt{What: st.What, Off: s.off}
	}
	return st
}
