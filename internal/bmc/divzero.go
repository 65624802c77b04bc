package bmc

import (
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/smt"
)

// A division or remainder by zero has the value 0 in the encoding, as in
// the explicit engine (prog.DividesByZero): Z3 would leave x/0 free, and
// a program whose paths all divide by zero would then have unboundedly
// many final states. An execution that the model allows and that divides
// by zero is an error of the program, which divisionByZero looks for.

// divSite is one division of the program: cond says when it is
// performed with a zero divisor.
type divSite struct {
	cond B
	at   string
}

// division records a division or remainder by divisor b, performed when
// p.guard holds.
func (p *progEnc) division(op prog.Op, b *sv) {
	var zero B
	switch {
	case b.known && prog.DividesByZero(op, b.v):
		zero = bTrue
	case b.known:
		return
	default:
		zero = B{t: p.ctx.Eq(b.t, p.ctx.IntVal(0))}
	}
	if c := p.f.and(p.guard, zero); !c.isFalse() {
		p.divs = append(p.divs, divSite{cond: c, at: p.at})
	}
}

// divisionByZero asks whether an execution of the encoding (the model
// and the filter asserted) divides by zero, and returns the error that
// names the division, or nil.
func (e *encoding) divisionByZero(check func(...smt.Term) (smt.Result, error)) error {
	if len(e.p.divs) == 0 {
		return nil
	}
	f := e.f
	var any []B
	for _, d := range e.p.divs {
		any = append(any, d.cond)
	}
	r, err := check(f.term(f.or(any...)))
	if err != nil || r != smt.Sat {
		return err
	}
	md := e.sol.Model()
	for _, d := range e.p.divs {
		if v, ok := md.Bool(f.term(d.cond)); ok && v {
			return &prog.DivisionByZeroError{At: d.at}
		}
	}
	return &prog.DivisionByZeroError{At: e.p.divs[0].at}
}
