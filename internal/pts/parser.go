package pts

import (
	"fmt"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// Arch is the architecture word of the tests Parse returns: a program in
// the C11-like language of "BMC with Memory Models as Modules" (FMCAD 2018), whose loads and stores carry C11 memory
// orders (see Orders) and must be compiled to a target before a hardware
// model can run them.
const Arch = "PTS"

// The memory orders of Fig. 3, as tags of the loads and stores.
const (
	SC  = "sc"
	Rel = "rel"
	Acq = "acq"
	Con = "con"
	Rx  = "rx"
)

// Orders lists the memory-order tags a parsed program may carry.
func Orders() []string { return []string{SC, Rel, Acq, Con, Rx} }

// loadOrders and storeOrders are the orders each access accepts (C11
// has no acquire or consume store and no release load).
var (
	loadOrders  = map[string]bool{Rx: true, Con: true, Acq: true, SC: true}
	storeOrders = map[string]bool{Rx: true, Rel: true, SC: true}
)

// orderSpellings maps the accepted spellings of an order (after a leading
// '_' and "memory_order_" are removed) to its tag.
var orderSpellings = map[string]string{
	"sc": SC, "rel": Rel, "acq": Acq, "con": Con, "rx": Rx,
	"seq_cst": SC, "release": Rel, "acquire": Acq, "consume": Con, "relaxed": Rx,
}

// reserved words cannot name locations, registers or threads.
var reserved = map[string]bool{
	"thread": true, "while": true, "if": true, "then": true, "else": true,
	"exists": true, "forall": true, "program": true,
	"true": true, "True": true, "false": true, "False": true,
	"and": true, "or": true, "not": true,
}

// maxDepth bounds the nesting of statements, expressions and conditions.
const maxDepth = 200

// maxErrors is how many errors the parser collects before it stops.
const maxErrors = 10

// ParseFile reads and parses the program in the file at path.
func ParseFile(path string) (*spec.Test, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses a program in that C11-like language; file names the source
// in positions and, without its directory and extension, names the test.
// Errors are a source.ErrorList whose messages read "file:line:col: what
// is wrong".
func Parse(file string, src []byte) (*spec.Test, error) {
	p := &parser{
		t:       &spec.Test{File: file, Arch: Arch, Name: testName(file)},
		locs:    map[string]bool{},
		threads: map[string]int{},
	}
	p.sc = newScanner(file, src, p.error)
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.t, nil
}

func testName(file string) string {
	base := filepath.Base(file)
	if base == "." || base == string(filepath.Separator) {
		return ""
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// item is one scanned token.
type item struct {
	off int
	tok token
	lit string
}

// parser reads a program. Syntax errors stop it at once (a bailout);
// other errors (undeclared names, bad orders) are collected, up to
// maxErrors.
type parser struct {
	sc    *scanner
	cur   item
	ahead []item // tokens scanned past cur
	errs  source.ErrorList
	t     *spec.Test

	locs    map[string]bool // declared locations
	threads map[string]int  // thread names to numbers
	regs    []map[string]bool
	depth   int

	// The thread being translated.
	th     *prog.Thread
	thRegs map[string]bool
	labels int
}

// bailout is the panic value that stops parsing.
type bailout struct{}

func (p *parser) run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		if len(p.errs) > 0 {
			p.errs.Sort()
			err = p.errs
		}
	}()
	p.next()
	p.program()
	return nil
}

func (p *parser) error(off int, msg string) {
	p.errs.Add(p.sc.pos(off), msg)
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

func (p *parser) fail(off int, msg string) {
	p.error(off, msg)
	panic(bailout{})
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.cur = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.cur = p.scan()
}

func (p *parser) scan() item {
	off, tok, lit := p.sc.scan()
	return item{off, tok, lit}
}

// peek returns the i-th token after the current one (1 is the next).
func (p *parser) peek(i int) item {
	for len(p.ahead) < i {
		p.ahead = append(p.ahead, p.scan())
	}
	return p.ahead[i-1]
}

func (it item) describe() string {
	switch it.tok {
	case tIdent:
		if reserved[it.lit] {
			return "keyword " + it.lit
		}
		return "identifier " + it.lit
	case tInt:
		return "integer " + it.lit
	case tIllegal:
		return "illegal character " + it.lit
	}
	return it.tok.String()
}

func (p *parser) expect(t token, what string) item {
	it := p.cur
	if it.tok != t {
		p.fail(it.off, fmt.Sprintf("expected %s %s, found %s", t, what, it.describe()))
	}
	p.next()
	return it
}

func (p *parser) is(word string) bool { return p.cur.tok == tIdent && p.cur.lit == word }

// name consumes an identifier that is not a reserved word.
func (p *parser) name(what string) item {
	it := p.cur
	if it.tok != tIdent || reserved[it.lit] {
		p.fail(it.off, fmt.Sprintf("expected %s, found %s", what, it.describe()))
	}
	p.next()
	return it
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.cur.off, "nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

// program: ["program" [NAME]] [header] thread+ condition
func (p *parser) program() {
	if p.is("program") {
		p.next()
		if p.cur.tok == tIdent && !reserved[p.cur.lit] {
			p.t.Name = p.cur.lit
			p.next()
		}
	}
	if p.cur.tok == tLBrace {
		p.header()
	}
	if !p.is("thread") {
		p.fail(p.cur.off, "expected thread, found "+p.cur.describe())
	}
	for p.is("thread") {
		p.thread()
	}
	p.condition()
	if p.cur.tok != tEOF {
		p.fail(p.cur.off, "expected end of file after the condition, found "+p.cur.describe())
	}
}

// header: '{' [decl {(',' | ';') decl}] [',' | ';'] '}'
// decl: NAME ['=' value]
func (p *parser) header() {
	p.expect(tLBrace, "to open the locations")
	for p.cur.tok != tRBrace {
		it := p.name("a location name")
		if p.locs[it.lit] {
			p.error(it.off, "location "+it.lit+" declared twice")
		}
		p.locs[it.lit] = true
		v := int64(0)
		if p.cur.tok == tAssign {
			p.next()
			v = p.value()
		}
		p.t.Init = append(p.t.Init, spec.InitEntry{
			Ref:  spec.Ref{Thread: -1, Name: it.lit},
			Val:  prog.IntValue(v),
			Type: "int",
			Pos:  p.sc.pos(it.off),
		})
		if p.cur.tok == tComma || p.cur.tok == tSemi {
			p.next()
			continue
		}
		if p.cur.tok != tRBrace {
			p.fail(p.cur.off, "expected ',' or '}' in the locations, found "+p.cur.describe())
		}
	}
	p.next()
}

// value: ['-'] INT | true | false
func (p *parser) value() int64 {
	neg := false
	if p.cur.tok == tSub {
		neg = true
		p.next()
	}
	it := p.cur
	switch {
	case it.tok == tInt:
		p.next()
		return p.integer(it, neg)
	case !neg && (it.lit == "true" || it.lit == "True"):
		p.next()
		return 1
	case !neg && (it.lit == "false" || it.lit == "False"):
		p.next()
		return 0
	}
	p.fail(it.off, "expected a value, found "+it.describe())
	return 0
}

// integer converts an integer token (decimal, or hexadecimal with 0x).
func (p *parser) integer(it item, neg bool) int64 {
	s := it.lit
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.error(it.off, "integer "+it.lit+" out of range")
		} else {
			p.error(it.off, "malformed integer "+it.lit)
		}
	}
	return v
}

// thread: "thread" NAME ('{' stmts '}' | stmts)
func (p *parser) thread() {
	p.next()
	it := p.name("a thread name")
	if _, dup := p.threads[it.lit]; dup {
		p.error(it.off, "thread "+it.lit+" defined twice")
	}
	id := len(p.t.Threads)
	p.threads[it.lit] = id
	p.th = &prog.Thread{ID: id, Name: it.lit}
	p.thRegs = map[string]bool{}
	p.labels = 0
	if p.cur.tok == tLBrace {
		p.block()
	} else {
		for !p.threadEnds() {
			p.stmt()
		}
	}
	p.t.Threads = append(p.t.Threads, p.th)
	p.regs = append(p.regs, p.thRegs)
}

// threadEnds tells whether the statements of a thread without braces end
// at the current token.
func (p *parser) threadEnds() bool {
	switch p.cur.tok {
	case tEOF, tTilde, tNot:
		return true
	case tIdent:
		switch p.cur.lit {
		case "thread", "exists", "forall", "not":
			return true
		}
	}
	return false
}

// block: '{' {stmt} '}'
func (p *parser) block() {
	p.expect(tLBrace, "to open a block")
	for p.cur.tok != tRBrace {
		if p.cur.tok == tEOF {
			p.fail(p.cur.off, "expected '}' to close the block, found end of file")
		}
		p.stmt()
	}
	p.next()
}

func (p *parser) emit(off int, in prog.Instr) {
	p.th.Code = append(p.th.Code, in)
	p.th.Pos = append(p.th.Pos, p.sc.pos(off))
}

// label returns a fresh label name "kindN.suffix" for the thread.
func (p *parser) newLabel(kind string) string {
	p.labels++
	return kind + strconv.Itoa(p.labels)
}

// jump emits a jump to target when cond holds; a constant condition gives
// an unconditional jump or none.
func (p *parser) jump(off int, cond prog.Expr, target string) {
	if c, ok := cond.(prog.Const); ok && !c.V.IsAddr() {
		if c.V.Int == 0 {
			return
		}
		cond = nil
	}
	p.emit(off, prog.Jump{Cond: cond, Target: target})
}

func (p *parser) stmt() {
	p.enter()
	defer p.leave()
	it := p.cur
	switch {
	case it.tok == tSemi:
		p.next()
		return
	case it.tok == tLBrace:
		p.block()
		return
	case p.is("while"):
		p.whileStmt()
		return
	case p.is("if"):
		p.ifStmt()
		return
	case it.tok != tIdent || reserved[it.lit]:
		p.fail(it.off, "expected a statement, found "+it.describe())
	}
	switch p.peek(1).tok {
	case tDot:
		p.methodStmt()
	case tArrow:
		p.next()
		p.next()
		p.assign(it, p.expr())
	case tAssign:
		a, b := p.peek(2), p.peek(3)
		switch {
		case a.tok == tIdent && b.tok == tDot:
			p.next()
			p.next()
			p.loadMethod(it)
		case a.tok == tIdent && a.lit == "load" && b.tok == tLParen:
			p.next()
			p.next()
			p.loadCall(it)
		case a.tok == tIdent && a.lit == "store" && b.tok == tLParen:
			p.next()
			p.next()
			p.storeCall(it)
		default:
			p.next()
			p.next()
			p.assign(it, p.expr())
		}
	default:
		p.next()
		p.fail(p.cur.off, fmt.Sprintf("expected '.', '=' or '<-' after %s, found %s", it.lit, p.cur.describe()))
	}
	if p.cur.tok == tSemi {
		p.next()
	}
}

// register checks that it names a register (not a location) and records
// it as a register of the thread.
func (p *parser) register(it item) string {
	if p.locs[it.lit] {
		p.error(it.off, fmt.Sprintf("%s is a shared location: write it with %s.store(...)", it.lit, it.lit))
	}
	p.thRegs[it.lit] = true
	return it.lit
}

// location checks that it names a declared location.
func (p *parser) location(it item) prog.Expr {
	if it.tok != tIdent || reserved[it.lit] {
		p.fail(it.off, "expected a location, found "+it.describe())
	}
	if !p.locs[it.lit] {
		p.error(it.off, "undeclared location "+it.lit)
	}
	return prog.Addr(it.lit)
}

func (p *parser) assign(dst item, val prog.Expr) {
	p.emit(dst.off, prog.Assign{Dst: p.register(dst), Val: val})
}

// order reads a memory order and checks that the access accepts it.
func (p *parser) order(load bool) string {
	it := p.cur
	if it.tok != tIdent {
		p.fail(it.off, "expected a memory order (sc, rel, acq, con, rx), found "+it.describe())
	}
	p.next()
	s := strings.TrimPrefix(it.lit, "_")
	s = strings.TrimPrefix(s, "memory_order_")
	o, ok := orderSpellings[s]
	if !ok {
		p.error(it.off, "unknown memory order "+it.lit+" (want sc, rel, acq, con or rx)")
		return Rx
	}
	if load && !loadOrders[o] {
		p.error(it.off, "a load cannot have order "+o+" (want rx, con, acq or sc)")
	}
	if !load && !storeOrders[o] {
		p.error(it.off, "a store cannot have order "+o+" (want rx, rel or sc)")
	}
	return o
}

// methodStmt: LOC '.' "store" '(' order ',' expr ')'
func (p *parser) methodStmt() {
	loc := p.cur
	p.next()
	p.next() // '.'
	m := p.cur
	if m.tok != tIdent || m.lit != "store" {
		if m.tok == tIdent && m.lit == "load" {
			p.fail(m.off, "the value of "+loc.lit+".load(...) must be assigned to a register")
		}
		p.fail(m.off, "expected store after '.', found "+m.describe())
	}
	addr := p.location(loc)
	p.next()
	p.expect(tLParen, "after store")
	o := p.order(false)
	p.expect(tComma, "after the memory order")
	v := p.expr()
	p.expect(tRParen, "to close store(...)")
	p.emit(loc.off, prog.Store{Addr: addr, Val: v, Tags: []string{o}})
}

// loadMethod: (after "REG =") LOC '.' "load" '(' order ')'
func (p *parser) loadMethod(dst item) {
	loc := p.cur
	p.next()
	p.next() // '.'
	m := p.cur
	if m.tok != tIdent || m.lit != "load" {
		p.fail(m.off, "expected load after '.', found "+m.describe())
	}
	addr := p.location(loc)
	p.next()
	p.expect(tLParen, "after load")
	o := p.order(true)
	p.expect(tRParen, "to close load(...)")
	p.emit(dst.off, prog.Load{Dst: p.register(dst), Addr: addr, Tags: []string{o}})
}

// loadCall: (after "REG =") "load" '(' LOC ',' order ')'  (Fig. 3)
func (p *parser) loadCall(dst item) {
	p.next() // load
	p.expect(tLParen, "after load")
	loc := p.cur
	addr := p.location(loc)
	p.next()
	p.expect(tComma, "after the location")
	o := p.order(true)
	p.expect(tRParen, "to close load(...)")
	p.emit(dst.off, prog.Load{Dst: p.register(dst), Addr: addr, Tags: []string{o}})
}

// storeCall: (after "LOC =") "store" '(' expr ',' order ')'  (Fig. 3)
func (p *parser) storeCall(loc item) {
	addr := p.location(loc)
	p.next() // store
	p.expect(tLParen, "after store")
	v := p.expr()
	p.expect(tComma, "after the stored value")
	o := p.order(false)
	p.expect(tRParen, "to close store(...)")
	p.emit(loc.off, prog.Store{Addr: addr, Val: v, Tags: []string{o}})
}

// body is a block or a single statement.
func (p *parser) body() {
	if p.cur.tok == tLBrace {
		p.block()
		return
	}
	if p.cur.tok == tEOF || p.cur.tok == tRBrace {
		p.fail(p.cur.off, "expected a statement or a block, found "+p.cur.describe())
	}
	p.stmt()
}

// whileStmt: "while" expr body, translated as a guarded do-while loop.
func (p *parser) whileStmt() {
	kw := p.cur
	p.next()
	cond := p.expr()
	name := p.newLabel("while")
	bodyL, endL := name+".body", name+".end"
	p.jump(kw.off, negate(cond), endL)
	p.emit(kw.off, prog.Label{Name: bodyL})
	p.body()
	p.jump(kw.off, cond, bodyL)
	p.emit(kw.off, prog.Label{Name: endL})
}

// ifStmt: "if" expr ["then"] body ["else" (ifStmt | body)]
func (p *parser) ifStmt() {
	kw := p.cur
	p.next()
	cond := p.expr()
	if p.is("then") {
		p.next()
	}
	name := p.newLabel("if")
	elseL, endL := name+".else", name+".end"
	// The jump goes to the else branch; without one, to the end.
	at := len(p.th.Code)
	p.jump(kw.off, negate(cond), elseL)
	p.body()
	if !p.is("else") {
		p.retarget(at, elseL, endL)
		p.emit(kw.off, prog.Label{Name: endL})
		return
	}
	p.next()
	p.jump(kw.off, prog.Int(1), endL)
	p.emit(kw.off, prog.Label{Name: elseL})
	if p.is("if") {
		p.enter()
		p.ifStmt()
		p.leave()
	} else {
		p.body()
	}
	p.emit(kw.off, prog.Label{Name: endL})
}

// retarget renames the target of the jump at index at (if any) from old
// to new.
func (p *parser) retarget(at int, old, new string) {
	if at < len(p.th.Code) {
		if j, ok := p.th.Code[at].(prog.Jump); ok && j.Target == old {
			j.Target = new
			p.th.Code[at] = j
		}
	}
}

// negate returns a condition that holds exactly when c does not, as far
// as a jump can tell (it only looks at truth): comparisons are inverted,
// !c becomes c, constants are folded.
func negate(c prog.Expr) prog.Expr {
	switch c := c.(type) {
	case prog.Const:
		if !c.V.IsAddr() {
			return prog.Int(b2i(c.V.Int == 0))
		}
	case prog.Bin:
		inv := map[prog.Op]prog.Op{
			prog.OpEq: prog.OpNe, prog.OpNe: prog.OpEq,
			prog.OpLt: prog.OpGe, prog.OpGe: prog.OpLt,
			prog.OpLe: prog.OpGt, prog.OpGt: prog.OpLe,
		}
		if op, ok := inv[c.Op]; ok {
			return prog.Bin{Op: op, X: c.X, Y: c.Y}
		}
	case prog.Un:
		if c.Op == prog.OpNot {
			return c.X
		}
	}
	return prog.Un{Op: prog.OpNot, X: c}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Expressions, by increasing precedence:
//
//	|| or;  && and;  == !=;  < <= > >=;  + -;  * / %;  unary ! not -

type level struct {
	ops   map[token]prog.Op
	words map[string]prog.Op
}

var levels = []level{
	{ops: map[token]prog.Op{tLOr: prog.OpLOr}, words: map[string]prog.Op{"or": prog.OpLOr}},
	{ops: map[token]prog.Op{tLAnd: prog.OpLAnd}, words: map[string]prog.Op{"and": prog.OpLAnd}},
	{ops: map[token]prog.Op{tEql: prog.OpEq, tNeq: prog.OpNe}},
	{ops: map[token]prog.Op{tLss: prog.OpLt, tLeq: prog.OpLe, tGtr: prog.OpGt, tGeq: prog.OpGe}},
	{ops: map[token]prog.Op{tAdd: prog.OpAdd, tSub: prog.OpSub}},
	{ops: map[token]prog.Op{tMul: prog.OpMul, tQuo: prog.OpDiv, tRem: prog.OpMod}},
}

func (p *parser) expr() prog.Expr { return p.binary(0) }

func (p *parser) binary(l int) prog.Expr {
	if l == len(levels) {
		return p.unary()
	}
	x := p.binary(l + 1)
	for {
		op, ok := levels[l].ops[p.cur.tok]
		if !ok && p.cur.tok == tIdent {
			op, ok = levels[l].words[p.cur.lit]
		}
		if !ok {
			return x
		}
		it := p.cur
		p.next()
		y := p.binary(l + 1)
		x = p.fold(it, prog.Bin{Op: op, X: x, Y: y})
	}
}

func (p *parser) unary() prog.Expr {
	p.enter()
	defer p.leave()
	it := p.cur
	switch {
	case it.tok == tNot || p.is("not"):
		p.next()
		return p.fold(it, prog.Un{Op: prog.OpNot, X: p.unary()})
	case it.tok == tSub:
		p.next()
		if p.cur.tok == tInt {
			n := p.cur
			p.next()
			return prog.Int(p.integer(n, true))
		}
		return p.fold(it, prog.Un{Op: prog.OpNeg, X: p.unary()})
	case it.tok == tAdd:
		p.next()
		return p.unary()
	}
	return p.primary()
}

func (p *parser) primary() prog.Expr {
	it := p.cur
	switch it.tok {
	case tInt:
		p.next()
		return prog.Int(p.integer(it, false))
	case tLParen:
		p.next()
		x := p.expr()
		p.expect(tRParen, "to close the parenthesis")
		return x
	case tIdent:
		switch it.lit {
		case "true", "True":
			p.next()
			return prog.Int(1)
		case "false", "False":
			p.next()
			return prog.Int(0)
		}
		if reserved[it.lit] {
			break
		}
		p.next()
		if p.cur.tok == tDot || p.cur.tok == tLParen {
			p.fail(p.cur.off, "a load must be a statement of its own: r = "+it.lit+".load(...)")
		}
		if p.locs[it.lit] {
			p.error(it.off, fmt.Sprintf("%s is a shared location: read it with r = %s.load(...)", it.lit, it.lit))
			return prog.Int(0)
		}
		p.thRegs[it.lit] = true
		return prog.Reg{Name: it.lit}
	}
	p.fail(it.off, "expected an expression, found "+it.describe())
	return nil
}

// fold computes an operation on constants now; a constant division by
// zero is an error.
func (p *parser) fold(at item, e prog.Expr) prog.Expr {
	switch e := e.(type) {
	case prog.Bin:
		x, ok1 := e.X.(prog.Const)
		y, ok2 := e.Y.(prog.Const)
		if ok1 && ok2 {
			v, err := prog.Apply(e.Op, x.V, y.V)
			if err != nil {
				p.error(at.off, err.Error())
				return e
			}
			return prog.Const{V: v}
		}
	case prog.Un:
		if x, ok := e.X.(prog.Const); ok {
			if v, err := prog.ApplyUnary(e.Op, x.V); err == nil {
				return prog.Const{V: v}
			}
		}
	}
	return e
}

// condition: quantifier prop
func (p *parser) condition() {
	it := p.cur
	switch {
	case p.is("exists"):
		p.t.Quant = spec.Exists
	case p.is("forall"):
		p.t.Quant = spec.Forall
	case it.tok == tTilde || it.tok == tNot || p.is("not"):
		p.next()
		if !p.is("exists") {
			p.fail(p.cur.off, "expected exists after "+it.lit+", found "+p.cur.describe())
		}
		p.t.Quant = spec.NotExists
	case it.tok == tEOF:
		p.fail(it.off, "missing final condition (exists, ~exists or forall)")
	default:
		p.fail(it.off, "expected thread or a final condition (exists, ~exists or forall), found "+it.describe())
	}
	p.next()
	p.t.Cond = p.disj()
}

func (p *parser) disj() spec.Cond {
	c := p.conj()
	for p.cur.tok == tDisj || p.cur.tok == tLOr || p.is("or") {
		p.next()
		c = spec.Or{L: c, R: p.conj()}
	}
	return c
}

func (p *parser) conj() spec.Cond {
	c := p.prop()
	for p.cur.tok == tConj || p.cur.tok == tLAnd || p.is("and") {
		p.next()
		c = spec.And{L: c, R: p.prop()}
	}
	return c
}

func (p *parser) prop() spec.Cond {
	p.enter()
	defer p.leave()
	it := p.cur
	switch {
	case it.tok == tTilde || it.tok == tNot || p.is("not"):
		p.next()
		return spec.Not{C: p.prop()}
	case it.tok == tLParen:
		p.next()
		c := p.disj()
		p.expect(tRParen, "to close the parenthesis")
		return c
	case p.is("true") || p.is("True"):
		p.next()
		return spec.Bool{V: true}
	case p.is("false") || p.is("False"):
		p.next()
		return spec.Bool{V: false}
	}
	l := p.ref()
	var neq bool
	switch p.cur.tok {
	case tAssign, tEql:
	case tNeq:
		neq = true
	default:
		p.fail(p.cur.off, "expected '=' or '!=' after "+l.String()+", found "+p.cur.describe())
	}
	p.next()
	if p.cur.tok == tLBrack || p.cur.tok == tIdent && !reserved[p.cur.lit] || p.cur.tok == tInt && p.peek(1).tok == tColon {
		return spec.RefEq{L: l, R: p.ref(), Neq: neq}
	}
	return spec.Atom{Ref: l, Val: prog.IntValue(p.value()), Neq: neq}
}

// ref: LOC | '[' LOC ']' | THREAD ':' REG | INT ':' REG
func (p *parser) ref() spec.Ref {
	it := p.cur
	switch {
	case it.tok == tLBrack:
		p.next()
		loc := p.name("a location")
		p.expect(tRBrack, "after the location")
		p.checkLoc(loc)
		return spec.Ref{Thread: -1, Name: loc.lit}
	case it.tok == tInt && p.peek(1).tok == tColon:
		p.next()
		p.next()
		reg := p.name("a register")
		n, err := strconv.Atoi(it.lit)
		if err != nil || n < 0 || n >= len(p.t.Threads) {
			p.error(it.off, "no thread "+it.lit)
			return spec.Ref{Thread: 0, Name: reg.lit}
		}
		p.checkReg(n, reg)
		return spec.Ref{Thread: n, Name: reg.lit}
	case it.tok == tIdent && !reserved[it.lit]:
		p.next()
		if p.cur.tok != tColon {
			p.checkLoc(it)
			return spec.Ref{Thread: -1, Name: it.lit}
		}
		p.next()
		reg := p.name("a register")
		n, ok := p.threads[it.lit]
		if !ok {
			p.error(it.off, "no thread "+it.lit)
			return spec.Ref{Thread: 0, Name: reg.lit}
		}
		p.checkReg(n, reg)
		return spec.Ref{Thread: n, Name: reg.lit}
	}
	p.fail(it.off, "expected a location or THREAD:register, found "+it.describe())
	return spec.Ref{}
}

func (p *parser) checkLoc(it item) {
	if !p.locs[it.lit] {
		p.error(it.off, "undeclared location "+it.lit)
	}
}

func (p *parser) checkReg(thread int, it item) {
	if !p.regs[thread][it.lit] {
		p.error(it.off, fmt.Sprintf("thread %s has no register %s", p.t.Threads[thread].Name, it.lit))
	}
}
