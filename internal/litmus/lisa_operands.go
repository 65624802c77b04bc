package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// lisaLexer reads a LISA cell: words ('w': names, registers,
// annotations; '-' and '.' may occur inside one), numbers ('n') and the
// punctuation [ ] { } ( ) , : + - ('o'). A symbolic register %r is
// refused by name.
var lisaLexer = cellLexer{arch: "LISA", punct: "[]{}(),:+-", opKind: true, inWord: "-.", inNumber: "-.", noSymRegs: true}

// lisaCursor reads the lexemes of one cell.
type lisaCursor struct {
	cellCursor
	l *lisaThread
}

func (p *lisaCursor) isReg() bool {
	t := p.peek(0)
	_, ok := lisaFrontend{}.RegName(t.text)
	return t.kind == 'w' && ok
}

func (p *lisaCursor) reg() string {
	if !p.bad && p.isReg() {
		p.i++
		return p.toks[p.i-1].text
	}
	p.fail("a register (r0, r1, ...)")
	return ""
}

// annots reads an optional annotation list "[a, b]" and gives its tags;
// an unknown annotation is refused by name.
func (p *lisaCursor) annots() []string {
	if !p.is("[") {
		return nil
	}
	p.i++
	var tags []string
	for !p.bad && !p.is("]") {
		t := p.peek(0)
		if t.kind != 'w' {
			p.fail("an annotation")
			return nil
		}
		tag, ok := lisaAnnots[t.text]
		if !ok {
			p.l.errorf(at(p.c.Pos, t.off), "unsupported LISA annotation %q: the Linux-kernel model has no such tag", t.text)
			p.bad = true
			return nil
		}
		tags = append(tags, tag)
		p.i++
		if p.is(",") {
			p.i++
		}
	}
	p.op("]")
	return tags
}

// value reads a register, a location name (its address) or an integer.
func (p *lisaCursor) value() prog.Expr {
	t := p.peek(0)
	switch {
	case p.isReg():
		return reg(p.reg())
	case t.kind == 'w':
		p.i++
		return prog.Addr(t.text)
	}
	return prog.Int(p.int())
}

func (p *lisaCursor) regOrInt() prog.Expr {
	if p.isReg() {
		return reg(p.reg())
	}
	return prog.Int(p.int())
}

// addr reads a register or location name, optionally "+ k" with k a
// register or an integer.
func (p *lisaCursor) addr() prog.Expr {
	t := p.peek(0)
	var a prog.Expr
	switch {
	case p.isReg():
		a = reg(p.reg())
	case t.kind == 'w':
		p.i++
		a = prog.Addr(t.text)
	default:
		p.fail("a register or a location")
		return nil
	}
	if p.is("+") {
		p.i++
		a = bin(prog.OpAdd, a, p.regOrInt())
	}
	return a
}

// lisaOps maps the operators of mov and rmw.
var lisaOps = map[string]prog.Op{"add": prog.OpAdd, "xor": prog.OpXor, "and": prog.OpAnd, "eq": prog.OpEq, "neq": prog.OpNe}

// operation reads a value or "(f x y)".
func (p *lisaCursor) operation() prog.Expr {
	if !p.is("(") {
		return p.value()
	}
	p.i++
	t := p.peek(0)
	op, ok := lisaOps[strings.ToLower(t.text)]
	if t.kind != 'w' || !ok {
		p.fail("one of add, xor, and, eq, neq")
		return nil
	}
	p.i++
	x := p.value()
	y := p.value()
	p.op(")")
	return bin(op, x, y)
}
