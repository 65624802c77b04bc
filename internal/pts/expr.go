package pts

import (
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
)

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
