package litmus

import (
	"github.com/musket-verify/musket/internal/spec"

	"github.com/musket-verify/musket/internal/prog"
)

// maxCondDepth bounds the nesting of a condition (parentheses and
// negations), so that no input exhausts the stack.
const maxCondDepth = 1000

// cond reads a condition. Precedence, from tightest: '~' (or "not"),
// '/\', '\/'; the binary operators associate to the left.
func (p *parser) cond() spec.Cond {
	p.depth++
	if p.depth > maxCondDepth {
		p.fail(p.tok.off, "condition nested too deeply")
	}
	defer func() { p.depth-- }()
	c := p.conj()
	for p.tok.kind == tOr {
		p.next()
		c = spec.Or{L: c, R: p.conj()}
	}
	return c
}

func (p *parser) conj() spec.Cond {
	c := p.unary()
	for p.tok.kind == tAnd {
		p.next()
		c = spec.And{L: c, R: p.unary()}
	}
	return c
}

// isCompare tells whether t compares (so that the word before it is a
// location, not a keyword).
func isCompare(t token) bool { return t.kind == tEq || t.kind == tEqEq || t.kind == tNeq }

func (p *parser) unary() spec.Cond {
	switch {
	case p.tok.kind == tTilde, p.isWord("not") && !isCompare(p.peek()):
		p.depth++
		if p.depth > maxCondDepth {
			p.fail(p.tok.off, "condition nested too deeply")
		}
		defer func() { p.depth-- }()
		p.next()
		return spec.Not{C: p.unary()}
	case p.tok.kind == tLParen:
		p.next()
		c := p.cond()
		p.expect(tRParen, "to close the condition")
		return c
	case (p.isWord("true") || p.isWord("false")) && !isCompare(p.peek()):
		v := p.tok.text == "true"
		p.next()
		return spec.Bool{V: v}
	}
	return p.atom()
}

// atom reads "ref = value", "ref != value", "ref = ref" or "ref != ref".
// A bare name on the right is an address (herd's "0:EAX=x", "p=x"); a
// register "1:EAX" or a bracketed location "[y]" on the right compares
// two final values.
func (p *parser) atom() spec.Cond {
	if p.tok.kind == tEOF {
		p.fail(p.tok.off, "expected a condition, found end of file")
	}
	p.refuseFault()
	l, _ := p.ref()
	neq := false
	switch p.tok.kind {
	case tEq, tEqEq:
	case tNeq:
		neq = true
	default:
		p.fail(p.tok.off, "expected '=' or '!=' after "+l.String()+", found "+p.tok.describe())
	}
	p.next()
	t := p.tok
	switch {
	case t.kind == tLBrace:
		return p.arrayAtom(l, neq)
	case isThreadToken(t) && p.peek().kind == tColon, t.kind == tLBrack:
		r, _ := p.ref()
		return spec.RefEq{L: l, R: r, Neq: neq}
	case t.kind == tInt:
		p.next()
		return spec.Atom{Ref: l, Val: prog.IntValue(p.intValue(t, false)), Neq: neq}
	case t.kind == tMinus || t.kind == tPlus:
		p.next()
		if p.tok.kind != tInt {
			p.fail(p.tok.off, "expected an integer after "+t.describe()+", found "+p.tok.describe())
		}
		v := p.intValue(p.tok, t.kind == tMinus)
		p.next()
		return spec.Atom{Ref: l, Val: prog.IntValue(v), Neq: neq}
	case t.kind == tIdent && t.text == "instr" && p.peek().kind == tColon:
		p.next()
		p.next()
		s := p.expect(tString, "(an instruction in quotes) after instr:")
		return spec.Atom{Ref: l, Val: instrValue(s.text), Neq: neq}
	case t.kind == tIdent:
		p.next()
		return spec.Atom{Ref: l, Val: prog.AddrValue(t.text), Neq: neq}
	case t.kind == tAmp:
		p.next()
		if p.tok.kind != tIdent {
			p.fail(p.tok.off, "expected a location after '&', found "+p.tok.describe())
		}
		name := p.tok.text
		p.next()
		return spec.Atom{Ref: l, Val: prog.AddrValue(name), Neq: neq}
	}
	p.fail(t.off, "expected a value after '=', found "+t.describe())
	panic("unreachable")
}

// parseCond parses a condition alone, with the registers of fe.
func parseCond(file string, src []byte, fe Frontend) (spec.Cond, error) {
	p := newParser(file, src)
	p.fe = fe
	var c spec.Cond
	err := p.run(func() {
		p.next()
		c = p.cond()
		if p.tok.kind != tEOF {
			p.fail(p.tok.off, "unexpected "+p.tok.describe()+" after the condition")
		}
	})
	return c, err
}

// refuseFault refuses by name herd7's fault atoms "fault(P0,x)" and
// "Fault(P0:L0,...)" (its virtual-memory, MTE and UDF tests), in a
// condition or a locations list: Musket's executions have no faults.
func (p *parser) refuseFault() {
	if p.tok.kind == tIdent && (p.tok.text == "fault" || p.tok.text == "Fault") && p.peek().kind == tLParen {
		p.fail(p.tok.off, "unsupported condition: "+p.tok.text+"(...): faults are not modelled")
	}
}
