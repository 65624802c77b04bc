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
// which is x mod m for every integer x: each of the first three cases
// is the definition of the non-negative remainder on its interval, the
// last is Z3's own. Measured under Power (CPU time, load 40 on 2
// cores): kticket3.c 40 s (26.8k conflicts) to 0.8 s (1.1k), own_sem.c
// no answer in 60 s to 16.5–35.8 s (its bound query).
//
// MUSKET_SMT_WRAP=guarded (an experiment, not the default) gives the
// last case by a fresh remainder r and quotient q constrained only
// outside the three cases (x ∉ [−m, 2m) → x = m·q + r ∧ 0 ≤ r < m),
// as exact: own_sem.c 10.7 s, but Z3's SMT solver answers unknown on
// cw3/ring_slots.c with it (and the engine's fallback to clocks then
// runs out of time), so it stays off.
// MUSKET_SMT_WRAP=mod gives Z3's mod alone (to compare).

// wrapByMod: MUSKET_SMT_WRAP=mod keeps Z3's mod for every remainder.
// MUSKET_SMT_WRAP=guarded gives the last case by a guarded remainder.
var wrapByMod = envSwitch("MUSKET_SMT_WRAP", "mod", "guarded") == "mod"
var wrapGuarded = envSwitch("MUSKET_SMT_WRAP", "mod", "guarded") == "guarded"

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
	in0, inNeg, inHi := in(zero, k), in(c.IntVal(-m), zero), in(k, c.IntVal(2*m))
	last := c.Mod(x, k)
	if wrapGuarded {
		q, r := p.f.intVar("wq"), p.f.intVar("wr")
		out := B{t: c.Not(c.Or(in0, inNeg, inHi))}
		p.f.assert(p.f.implies(out, B{t: c.And(c.Eq(x, c.Add(c.Mul(k, q), r)), c.Ge(r, zero), c.Lt(r, k))}))
		last = r
	}
	return c.Ite(in0, x, c.Ite(inNeg, c.Add(x, k), c.Ite(inHi, c.Sub(x, k), last)))
}
