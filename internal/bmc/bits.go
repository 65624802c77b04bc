package bmc

import (
	"math/bits"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/smt"
)

// Bitwise operators in linear integer arithmetic.
//
// A value of a program is a 64-bit two's complement integer (package
// prog: Go's int64, as the explicit engine computes). The SMT engine
// keeps values as Z3 Ints and encodes &, |, ^, << and >> with no
// conversion to bit-vectors: their result is the int64 the explicit
// engine computes from the low 64 bits of the operands. Z3's conversions
// between integers and bit-vectors were both wrong (its QF_LIA solver
// answered that -56 & -1 can differ from -56) and slow (a RISC-V 'and' of
// a negative value read got no answer in minutes).
//
//   - bit i of an operand x is the atom ⌊x / 2^i⌋ mod 2 = 1 (bit 63 of
//     an int64: x < 0); the result of two operands not known at encoding
//     time is Σ_{i<63} 2^i·r_i − 2^63·r_63 of its bits r_i. A value's
//     bits are made once and shared by every operator that reads them;
//   - with a constant k whose ones (or, k < 0, whose zeros) form a few
//     runs, no bits at all: a run [lo, hi) of ones of k ≥ 0 gives
//     ((x div 2^lo) mod 2^(hi−lo))·2^lo, x & k = x − (x & ^k) for k < 0,
//     x | k = x + k − (x & k) and x ^ k = x + k − 2·(x & k);
//   - x << s is wrap(x·2^s) and x >> s is ⌊x / 2^s⌋ (arithmetic), for s
//     the low 6 bits of the count; for a count not known at encoding
//     time, by stages: s's bit j multiplies (divides) by 2^(2^j);
//   - wrap(x) = x − 2^64·⌊(x + 2^63) / 2^64⌋ is the int64 of x's low 64
//     bits.
//
// Addition, subtraction, multiplication, division and negation of
// values the encoding does not know are Z3's unbounded integers: they
// agree with the explicit engine's int64 results as long as these do not
// overflow. Their results (and havocs) are marked wide, and a bitwise
// operator or shift wraps a wide operand first, so that one reads its
// low 64 bits. A value read from memory is taken as an int64: a test
// whose arithmetic overflows and stores the result is the one case where
// the engines may differ. C programs wrap their own arithmetic at each
// type's width (package cfront), so that none overflows here.

// maxRuns bounds the runs of ones of a constant mask encoded by div and
// mod; a mask of more runs takes the operand's bits.
const maxRuns = 8

// pow2 is the integer term 2^k, 0 ≤ k ≤ 127.
func (p *progEnc) pow2(k int) smt.Term {
	c := p.ctx
	if k < 62 {
		return c.IntVal(int64(1) << k)
	}
	t := c.IntVal(int64(1) << 61)
	for k -= 61; k > 0; {
		s := k
		if s > 61 {
			s = 61
		}
		t = c.Mul(t, c.IntVal(int64(1)<<s))
		k -= s
	}
	return t
}

// wrap64 is the int64 whose two's complement is x's low 64 bits.
func (p *progEnc) wrap64(x smt.Term) smt.Term {
	c := p.ctx
	two64, two63 := p.pow2(64), p.pow2(63)
	return c.Sub(x, c.Mul(two64, c.Div(c.Add(x, two63), two64)))
}

// canonical is a value's term as an int64: wrapped when it may be wide.
func (p *progEnc) canonical(v *sv) smt.Term {
	if v.wide {
		return p.wrap64(v.t)
	}
	return v.t
}

// chainKey names the bits of a term, read as wide or not.
type chainKey struct {
	id   uint32
	wide bool
}

// lowBits gives the low n bits of v's two's complement (n ≤ 64), low
// first: bit i is the atom ⌊x / 2^i⌋ mod 2 = 1 (Z3's div and mod by a
// positive constant are floor division, which reads the two's complement
// of any integer, so this holds of a wide term too), bit 63 of an int64
// the atom x < 0. Once x's value is bounded Z3 propagates these atoms
// (measured: milliseconds, where a chain x = 2·q1 + b0, q1 = 2·q2 + b1,
// ... with fresh integers q_i took seconds to prove 0 & 0 = 0, and
// Int2BV/BV2Int minutes).
func (p *progEnc) lowBits(v *sv, n int) []B {
	if p.chains == nil {
		p.chains = map[chainKey][]B{}
	}
	k := chainKey{v.t.ID(), v.wide}
	bs := p.chains[k]
	c := p.ctx
	for len(bs) < n {
		i := len(bs)
		var b B
		if i == 63 && !v.wide {
			b = B{t: c.Lt(v.t, c.IntVal(0))}
		} else {
			x := v.t
			if i > 0 {
				x = c.Div(x, p.pow2(i))
			}
			b = B{t: c.Eq(c.Mod(x, c.IntVal(2)), c.IntVal(1))}
		}
		bs = append(bs, b)
	}
	p.chains[k] = bs
	return bs[:n]
}

// valueBits gives the 64 bits of a value, constant when it is known.
func (p *progEnc) valueBits(v *sv) []B {
	if v.known {
		x := uint64(p.enc(v.v))
		out := make([]B, 64)
		for i := range out {
			out[i] = bFalse
			if x>>i&1 == 1 {
				out[i] = bTrue
			}
		}
		return out
	}
	return p.lowBits(v, 64)
}

// fromBits is the int64 of 64 bits.
func (p *progEnc) fromBits(bs []B) smt.Term {
	c := p.ctx
	zero := c.IntVal(0)
	var parts []smt.Term
	var k int64
	for i, b := range bs {
		w := int64(1) << i // bit 63: -2^63
		switch b.k {
		case 1:
			k += w
		case 0:
			parts = append(parts, c.Ite(b.t, c.IntVal(w), zero))
		}
	}
	if k != 0 || len(parts) == 0 {
		parts = append(parts, c.IntVal(k))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return c.Add(parts...)
}

// runs are the maximal runs of ones of a constant, as [lo, hi).
func runs(m uint64) [][2]int {
	var out [][2]int
	for m != 0 {
		lo := bits.TrailingZeros64(m)
		n := bits.TrailingZeros64(^(m >> lo))
		out = append(out, [2]int{lo, lo + n})
		if lo+n >= 64 {
			break
		}
		m &^= (uint64(1)<<n - 1) << lo
	}
	return out
}

// andRuns encodes x & m for a mask 0 ≤ m < 2^63 of at most maxRuns runs
// of ones, in linear arithmetic with div and mod by constants (exact on
// any integer x: floor division reads x's two's complement).
func (p *progEnc) andRuns(x smt.Term, m uint64) (smt.Term, bool) {
	rs := runs(m)
	if len(rs) > maxRuns || m>>63 != 0 {
		return smt.Term{}, false
	}
	c := p.ctx
	if len(rs) == 0 {
		return c.IntVal(0), true
	}
	var parts []smt.Term
	for _, r := range rs {
		t := x
		if r[0] > 0 {
			t = c.Div(t, p.pow2(r[0]))
		}
		t = c.Mod(t, p.pow2(r[1]-r[0]))
		if r[0] > 0 {
			t = c.Mul(p.pow2(r[0]), t)
		}
		parts = append(parts, t)
	}
	if len(parts) == 1 {
		return parts[0], true
	}
	return c.Add(parts...), true
}

// andConst encodes v & k for a constant k, by runs when k or ^k has few
// of them.
func (p *progEnc) andConst(v *sv, k int64) (smt.Term, bool) {
	if k >= 0 {
		return p.andRuns(v.t, uint64(k))
	}
	t, ok := p.andRuns(v.t, uint64(^k))
	if !ok {
		return smt.Term{}, false
	}
	return p.ctx.Sub(p.canonical(v), t), true
}

// bitwise encodes &, | and ^ of two values, one of them at least not
// known at encoding time.
func (p *progEnc) bitwise(op prog.Op, a, b *sv) smt.Term {
	c := p.ctx
	if !a.known && b.known {
		a, b = b, a
	}
	if a.known && !a.v.IsAddr() {
		// a constant and a term: x | k = x + k − (x & k), x ^ k = x + k
		// − 2·(x & k) on int64s.
		k := a.v.Int
		if t, ok := p.andConst(b, k); ok {
			switch op {
			case prog.OpAnd:
				return t
			case prog.OpOr:
				return c.Sub(c.Add(p.canonical(b), c.IntVal(k)), t)
			case prog.OpXor:
				return c.Sub(c.Add(p.canonical(b), c.IntVal(k)), c.Mul(c.IntVal(2), t))
			}
		}
	} else if !a.known && a.t.Equal(b.t) {
		switch op {
		case prog.OpAnd, prog.OpOr:
			return p.canonical(&sv{t: a.t, wide: a.wide || b.wide})
		case prog.OpXor:
			return c.IntVal(0)
		}
	}
	xs, ys := p.valueBits(a), p.valueBits(b)
	rs := make([]B, 64)
	for i := range rs {
		switch op {
		case prog.OpAnd:
			rs[i] = p.f.and(xs[i], ys[i])
		case prog.OpOr:
			rs[i] = p.f.or(xs[i], ys[i])
		default:
			rs[i] = p.f.not(p.f.iff(xs[i], ys[i]))
		}
	}
	return p.fromBits(rs)
}

// shift encodes x << y and x >> y (arithmetic), the count taken modulo
// 64 as the explicit engine does.
func (p *progEnc) shift(op prog.Op, a, b *sv) smt.Term {
	c := p.ctx
	x := a.t
	if op == prog.OpShr {
		x = p.canonical(a)
	}
	if b.known && !b.v.IsAddr() {
		s := int(b.v.Int & 63)
		if op == prog.OpShl {
			if s == 0 {
				return p.canonical(a)
			}
			return p.wrap64(c.Mul(x, p.pow2(s)))
		}
		if s == 0 {
			return x
		}
		return c.Div(x, p.pow2(s))
	}
	var sb []B
	if b.known {
		sb = p.valueBits(b)[:6]
	} else {
		sb = p.lowBits(b, 6)
	}
	for j, bit := range sb {
		var moved smt.Term
		if op == prog.OpShl {
			moved = c.Mul(x, p.pow2(1<<j))
		} else {
			moved = c.Div(x, p.pow2(1<<j))
		}
		switch bit.k {
		case 1:
			x = moved
		case 0:
			x = c.Ite(bit.t, moved, x)
		}
	}
	if op == prog.OpShl {
		return p.wrap64(x)
	}
	return x
}
