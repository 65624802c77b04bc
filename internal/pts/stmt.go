package pts

// Statements of a thread (assignments, loads and stores with their memory
// orders, while and if), translated into prog instructions and
// labels as they are read.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

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
