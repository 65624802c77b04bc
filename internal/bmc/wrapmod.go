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
// where the last case, x mod m, is a fresh r with a fresh quotient q
// and the constraint, asserted once,
//
//	x ∉ [−m, 2m) → x = m·q + r ∧ 0 ≤ r < m
//
// This is x mod m for every integer x: each of the first three cases
// is the definition of the non-negative remainder on its interval, and
// outside them q and r are the integer quotient and remainder, unique;
// the constraint can always be met (inside the intervals q and r are
// free and name nothing else), so it removes no execution. Z3's own mod
// in the last case would constrain its quotient in every case, and the
// integer solver still branches on it. Measured under Power (CPU time,
// load 40 on 2 cores): kticket3.c 40 s (26.8k conflicts) to 0.8 s
// (1.1k); own_sem.c no answer in 60 s to 10.7 s (its bound query; 29–36
// s with Z3's mod as the last case, and no answer under RISC-V).
//
// Z3's SMT solver answers unknown on some of these encodings
// (cw3/ring_slots.c under Power, at once): RunReport then encodes the
// program again with Z3's mod as the last case (wrapCases), which is as
// exact, before it falls back to clocks.
// MUSKET_SMT_WRAP=mod gives Z3's mod alone, =cases Z3's mod as the last
// case (to compare).

// wrapMode is how wrapMod gives the remainder.
type wrapMode uint8

const (
	wrapGuarded wrapMode = iota // the three cases, then a guarded remainder
	wrapCases                   // the three cases, then Z3's mod
	wrapMod1                    // Z3's mod alone
)

// wrapEnv is MUSKET_SMT_WRAP.
var wrapEnv = envSwitch("MUSKET_SMT_WRAP", "mod", "cases", "guarded")

// wrapsFor is the wrap mode of an encoding with opts.
func wrapsFor(opts Options) wrapMode {
	switch {
	case wrapEnv == "mod":
		return wrapMod1
	case wrapEnv == "cases" || opts.wrapCases:
		return wrapCases
	}
	return wrapGuarded
}

// wrapMin is the least modulus given by cases (the smaller ones are not
// type widths, and stay as they were measured).
const wrapMin = 256

// wrapMod is the non-negative remainder of x by the constant m > 0.
func (p *progEnc) wrapMod(x smt.Term, m int64) smt.Term {
	c := p.ctx
	k := c.IntVal(m)
	if p.wraps == wrapMod1 || m < wrapMin || m > 1<<61 {
		return c.Mod(x, k)
	}
	zero := c.IntVal(0)
	in := func(lo, hi smt.Term) smt.Term { return c.And(c.Ge(x, lo), c.Lt(x, hi)) }
	in0, inNeg, inHi := in(zero, k), in(c.IntVal(-m), zero), in(k, c.IntVal(2*m))
	last := c.Mod(x, k)
	if p.wraps == wrapGuarded {
		p.guarded++
		q, r := p.f.intVar("wq"), p.f.intVar("wr")
		out := B{t: c.Not(c.Or(in0, inNeg, inHi))}
		p.f.assert(p.f.implies(out, B{t: c.And(c.Eq(x, c.Add(c.Mul(k, q), r)), c.Ge(r, zero), c.Lt(r, k))}))
		last = r
	}
	return c.Ite(in0, x, c.Ite(inNeg, c.Add(x, k), c.Ite(inHi, c.Sub(x, k), last)))
}
