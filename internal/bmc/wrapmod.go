package bmc

import "github.com/musket-verify/musket/internal/smt"

// The remainder by a type's modulus, by cases (wrapMod).
//
// C programs wrap their arithmetic at each type's width (package cfront
// writes ((x % m) + m) % m with m = 2^8, 2^16, 2^32), which byConstant
// gives Z3 as x mod m. Z3 decides an integer mod by a quotient variable
// q with x = m·q + r, 0 ≤ r < m, and its linear relaxation leaves q
// fractional: the integer solver then branches and cuts on every such q
// at each final check (Power kticket3.c: 15.7k conflicts, own_sem.c's
// bound query no answer in 60 s of CPU, arith-branch and gomory-cut
// counts as high as the final checks). The operand of a wrap is nearly
// always the sum or difference of two values of the type, so within one
// modulus of the range: the remainder is then x, x + m or x − m, which
// linear arithmetic decides without integrality. wrapMod says so by
// cases and keeps Z3's mod for the operands outside [−m, 2m):
//
//	ite(0 ≤ x < m, x, ite(−m ≤ x < 0, x + m, ite(m ≤ x < 2m, x − m, x mod m)))
//
// which is x mod m for every integer x (each case is the definition of
// the non-negative remainder on its interval), so the encoding means the
// same; measured on kticket3.c under Power 16.4 s of CPU to 0.7 s (950
// conflicts), own_sem.c's bound query answered in 16.5 s.
// MUSKET_SMT_WRAP=mod gives Z3's mod alone (to compare).

// wrapByMod: MUSKET_SMT_WRAP=mod keeps Z3's mod for every remainder.
var wrapByMod = envSwitch("MUSKET_SMT_WRAP", "mod", "cases") == "mod"

// wrapMin is the least modulus given by cases (the smaller ones are not
// type widths, and stay as they were measured).
const wrapMin = 256

// wrapMod is the non-negative remainder of x by the constant m > 0.
func (p *progEnc) wrapMod(x smt.Term, m int64) smt.Term {
	c := p.ctx
	k := c.IntVal(m)
	if wrapByMod || m < wrapMin || m > 1<<61 {
		return c.Mod(x, k)
	}
	zero := c.IntVal(0)
	in := func(lo, hi smt.Term) smt.Term { return c.And(c.Ge(x, lo), c.Lt(x, hi)) }
	return c.Ite(in(zero, k), x,
		c.Ite(in(c.IntVal(-m), zero), c.Add(x, k),
			c.Ite(in(k, c.IntVal(2*m)), c.Sub(x, k), c.Mod(x, k))))
}
