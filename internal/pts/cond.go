package pts

// The final condition of a program: a quantifier and a proposition over
// the final values of registers and locations.

import (
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"strconv"

	"github.com/musket-verify/musket/internal/prog"
)

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
