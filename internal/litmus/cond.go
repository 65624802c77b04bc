package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// maxCondDepth bounds the nesting of a condition (parentheses and
// negations), so that no input exhausts the stack.
const maxCondDepth = 1000

// cond reads a condition. Precedence, from tightest: '~' (or "not"),
// '/\', '\/'; the binary operators associate to the left.
func (p *parser) cond() Cond {
	p.depth++
	if p.depth > maxCondDepth {
		p.fail(p.tok.off, "condition nested too deeply")
	}
	defer func() { p.depth-- }()
	c := p.conj()
	for p.tok.kind == tOr {
		p.next()
		c = Or{L: c, R: p.conj()}
	}
	return c
}

func (p *parser) conj() Cond {
	c := p.unary()
	for p.tok.kind == tAnd {
		p.next()
		c = And{L: c, R: p.unary()}
	}
	return c
}

// isCompare tells whether t compares (so that the word before it is a
// location, not a keyword).
func isCompare(t token) bool { return t.kind == tEq || t.kind == tEqEq || t.kind == tNeq }

func (p *parser) unary() Cond {
	switch {
	case p.tok.kind == tTilde, p.isWord("not") && !isCompare(p.peek()):
		p.depth++
		if p.depth > maxCondDepth {
			p.fail(p.tok.off, "condition nested too deeply")
		}
		defer func() { p.depth-- }()
		p.next()
		return Not{C: p.unary()}
	case p.tok.kind == tLParen:
		p.next()
		c := p.cond()
		p.expect(tRParen, "to close the condition")
		return c
	case (p.isWord("true") || p.isWord("false")) && !isCompare(p.peek()):
		v := p.tok.text == "true"
		p.next()
		return Bool{V: v}
	}
	return p.atom()
}

// atom reads "ref = value", "ref != value", "ref = ref" or "ref != ref".
// A bare name on the right is an address (herd's "0:EAX=x", "p=x"); a
// register "1:EAX" or a bracketed location "[y]" on the right compares
// two final values.
func (p *parser) atom() Cond {
	if p.tok.kind == tEOF {
		p.fail(p.tok.off, "expected a condition, found end of file")
	}
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
	case isThreadToken(t) && p.peek().kind == tColon, t.kind == tLBrack:
		r, _ := p.ref()
		return RefEq{L: l, R: r, Neq: neq}
	case t.kind == tInt:
		p.next()
		return Atom{Ref: l, Val: prog.IntValue(p.intValue(t, false)), Neq: neq}
	case t.kind == tMinus || t.kind == tPlus:
		p.next()
		if p.tok.kind != tInt {
			p.fail(p.tok.off, "expected an integer after "+t.describe()+", found "+p.tok.describe())
		}
		v := p.intValue(p.tok, t.kind == tMinus)
		p.next()
		return Atom{Ref: l, Val: prog.IntValue(v), Neq: neq}
	case t.kind == tIdent:
		p.next()
		return Atom{Ref: l, Val: prog.AddrValue(t.text), Neq: neq}
	case t.kind == tAmp:
		p.next()
		if p.tok.kind != tIdent {
			p.fail(p.tok.off, "expected a location after '&', found "+p.tok.describe())
		}
		name := p.tok.text
		p.next()
		return Atom{Ref: l, Val: prog.AddrValue(name), Neq: neq}
	}
	p.fail(t.off, "expected a value after '=', found "+t.describe())
	panic("unreachable")
}

// parseCond parses a condition alone, with the registers of fe.
func parseCond(file string, src []byte, fe Frontend) (Cond, error) {
	p := newParser(file, src)
	p.fe = fe
	var c Cond
	err := p.run(func() {
		p.next()
		c = p.cond()
		if p.tok.kind != tEOF {
			p.fail(p.tok.off, "unexpected "+p.tok.describe()+" after the condition")
		}
	})
	return c, err
}

// Precedence levels for printing.
const (
	precOr = iota + 1
	precAnd
	precUnary
)

// FormatCond prints c as herd prints conditions: "\/" and "/\" between
// operands, "~" for negation, parentheses only where precedence needs
// them (so "0:EAX=0 /\ (1:EAX=1 \/ 1:EAX=0) \/ 0:EAX=1 /\ 1:EAX=0").
// Memory atoms print as "x=1"; a comparison of two final values prints
// its right-hand location in brackets ("x=[y]") so that the text parses
// back to the same condition.
func FormatCond(c Cond) string {
	var b strings.Builder
	formatCond(&b, c, precOr)
	return b.String()
}

func formatCond(b *strings.Builder, c Cond, prec int) {
	open := func(p int) bool {
		if p < prec {
			b.WriteByte('(')
			return true
		}
		return false
	}
	switch c := c.(type) {
	case Or:
		paren := open(precOr)
		formatCond(b, c.L, precOr)
		b.WriteString(` \/ `)
		formatCond(b, c.R, precOr)
		if paren {
			b.WriteByte(')')
		}
	case And:
		paren := open(precAnd)
		formatCond(b, c.L, precAnd)
		b.WriteString(` /\ `)
		formatCond(b, c.R, precAnd)
		if paren {
			b.WriteByte(')')
		}
	case Not:
		b.WriteByte('~')
		formatCond(b, c.C, precUnary)
	case Bool:
		if c.V {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Atom:
		b.WriteString(c.Ref.String())
		b.WriteString(eqOp(c.Neq))
		b.WriteString(c.Val.String())
	case RefEq:
		b.WriteString(c.L.String())
		b.WriteString(eqOp(c.Neq))
		if c.R.IsReg() {
			b.WriteString(c.R.String())
		} else {
			b.WriteString("[" + c.R.Name + "]")
		}
	case nil:
		b.WriteString("true")
	default:
		b.WriteString("?")
	}
}

func eqOp(neq bool) string {
	if neq {
		return "!="
	}
	return "="
}

// ConditionLine prints the final condition as herd does after
// "Condition ": the quantifier, then the condition in parentheses
// ("exists (0:EAX=0 /\ 1:EAX=0)"). A test written with the old "final"
// form prints as exists.
func (t *Test) ConditionLine() string {
	return t.Quant.String() + " (" + FormatCond(t.Cond) + ")"
}
