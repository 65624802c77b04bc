package cfront

import (
	"math"
	"math/big"

	"github.com/musket-verify/musket/internal/prog"
)

// Integer arithmetic of N bits.
//
// The front-end keeps every value of an N-bit integer type in one
// canonical form: the signed number its N bits denote (an unsigned char
// holding 200 is -56, as LLVM writes it). Comparisons, sign extension and
// the equality of a loaded value with a constant then need no conversion,
// and unsigned operations zero-extend their operands first. An operation
// whose exact result may fall outside the N-bit range (a sum, a product, a
// left shift, an unsigned quotient, a truncation) is reduced back to it,
// wrapping around as the machine does; LLVM's nsw flag (C's signed
// arithmetic, whose overflow is undefined) exempts a sum, a difference, a
// product or a left shift.
//
// The reductions are written with arithmetic by constants (+, *, and /,
// % by powers of two), which the SMT engine encodes in linear integer
// arithmetic; a 64-bit reduction is x ^ 0, which the explicit and graph
// engines compute on int64 (wrapping already) and the SMT engine encodes
// as the 64-bit value of x.

// wrap is x reduced to the canonical form of an N-bit value.
func wrap(x prog.Expr, bits uint64) prog.Expr {
	if c, ok := x.(prog.Const); ok && !c.V.IsAddr() {
		return prog.Int(canonInt(c.V.Int, bits))
	}
	switch {
	case bits <= 1:
		// i1 is kept as 0 or 1 (its bit), not as its signed value
		return umod(x, 2)
	case bits >= 64:
		return wrap64(x)
	}
	h := int64(1) << (bits - 1)
	return prog.Bin{Op: prog.OpSub, X: umod(prog.Bin{Op: prog.OpAdd, X: x, Y: prog.Int(h)}, 2*h), Y: prog.Int(h)}
}

// wrap64 is x reduced to 64 bits (see above).
func wrap64(x prog.Expr) prog.Expr {
	if c, ok := x.(prog.Const); ok && !c.V.IsAddr() {
		return x
	}
	return prog.Bin{Op: prog.OpXor, X: x, Y: prog.Int(0)}
}

// canonInt is the canonical form of the low N bits of v (i1: 0 or 1).
func canonInt(v int64, bits uint64) int64 {
	switch {
	case bits >= 64:
		return v
	case bits == 1:
		return v & 1
	}
	s := 64 - bits
	return v << s >> s
}

// canonBig is the canonical form of an N-bit constant as LLVM wrote it
// (signed, or unsigned past the signed range).
func canonBig(x *big.Int, bits uint64) int64 {
	if bits == 1 {
		if x.Sign() != 0 {
			return 1
		}
		return 0
	}
	m := new(big.Int).Lsh(big.NewInt(1), 64)
	m.Sub(m, big.NewInt(1))
	u := new(big.Int).And(x, m) // two's complement of negative x too
	return canonInt(int64(u.Uint64()), bits)
}

// intKind is an LLVM integer operation.
type intKind int

const (
	kAdd intKind = iota
	kSub
	kMul
	kSDiv
	kUDiv
	kSRem
	kURem
	kAnd
	kOr
	kXor
	kShl
	kLShr
	kAShr
)

func constOf(e prog.Expr) (int64, bool) {
	if c, ok := e.(prog.Const); ok && !c.V.IsAddr() {
		return c.V.Int, true
	}
	return 0, false
}

func bin(o prog.Op, x, y prog.Expr) prog.Expr { return prog.Bin{Op: o, X: x, Y: y} }

// intArith is the expression of an N-bit LLVM integer operation on
// canonical operands a and c, canonical too. nsw: the instruction has
// LLVM's nsw flag (a signed overflow is undefined: no reduction).
func intArith(k intKind, a, c prog.Expr, bits uint64, nsw bool) prog.Expr {
	if bits == 1 {
		// i1: 0 or 1; only the bitwise operations occur.
		switch k {
		case kAnd:
			return bin(prog.OpAnd, a, c)
		case kOr:
			return bin(prog.OpOr, a, c)
		case kXor, kAdd, kSub:
			return bin(prog.OpNe, a, c)
		case kMul:
			return bin(prog.OpAnd, a, c)
		}
		return bin(prog.OpAnd, intArith(k, a, c, 8, nsw), prog.Int(1))
	}
	ka, aConst := constOf(a)
	kc, cConst := constOf(c)
	if aConst && cConst {
		if v, ok := foldInt(k, ka, kc, bits); ok {
			return prog.Int(v)
		}
	}
	reduce := func(e prog.Expr) prog.Expr {
		if nsw {
			return e
		}
		return wrap(e, bits)
	}
	switch k {
	case kAdd:
		return reduce(bin(prog.OpAdd, a, c))
	case kSub:
		return reduce(bin(prog.OpSub, a, c))
	case kMul:
		return reduce(bin(prog.OpMul, a, c))
	case kSDiv:
		return bin(prog.OpDiv, a, c)
	case kSRem:
		return bin(prog.OpMod, a, c)
	case kAnd, kOr, kXor:
		return bitwise(k, a, c, bits)
	case kShl:
		if cConst {
			if kc < 0 || uint64(kc) >= bits {
				return prog.Int(0) // poison
			}
			if kc == 0 {
				return a
			}
			e := bin(prog.OpMul, a, prog.Int(int64(1)<<kc))
			if kc == 63 {
				return wrap64(e) // 2^63 is -2^63 in the engines' int64
			}
			return reduce(e)
		}
		return wrap(bin(prog.OpShl, a, c), bits)
	case kAShr:
		if cConst {
			if kc < 0 || uint64(kc) >= bits {
				return prog.Int(0)
			}
			if kc == 0 {
				return a
			}
			if kc == 63 { // 2^63 is no int64: the sign, spread
				return bin(prog.OpSub, prog.Int(0), bin(prog.OpLt, a, prog.Int(0)))
			}
			return floorDiv(a, int64(1)<<kc)
		}
		return bin(prog.OpShr, a, c)
	case kLShr:
		if cConst {
			if kc < 0 || uint64(kc) >= bits {
				return prog.Int(0)
			}
			if kc == 0 {
				return a
			}
			// The bits above k of x, read unsigned: below 2^(N-k).
			if kc == 63 { // the sign bit
				return bin(prog.OpLt, a, prog.Int(0))
			}
			if bits-uint64(kc) == 63 {
				return lshr64by1(a)
			}
			return umod(floorDiv(a, int64(1)<<kc), int64(1)<<(bits-uint64(kc)))
		}
		if bits < 64 {
			return wrap(bin(prog.OpShr, zext(a, bits), c), bits)
		}
		// (x >> k) & ~((-2^63 >> k) << 1): the arithmetic shift without
		// the k copies of the sign.
		mask := prog.Un{Op: prog.OpBNot, X: bin(prog.OpShl, bin(prog.OpShr, prog.Int(math.MinInt64), c), prog.Int(1))}
		return bin(prog.OpAnd, bin(prog.OpShr, a, c), mask)
	case kUDiv, kURem:
		if bits < 64 {
			x, y := zext(a, bits), zext(c, bits)
			if k == kUDiv {
				e := bin(prog.OpDiv, x, y)
				if cConst && uint64(kc)&(1<<bits-1) >= 2 {
					return e // below 2^(N-1)
				}
				return wrap(e, bits)
			}
			e := bin(prog.OpMod, x, y)
			if cConst && uint64(kc)&(1<<bits-1) <= 1<<(bits-1) {
				return e // below the divisor
			}
			return wrap(e, bits)
		}
		return udiv64(k, a, c)
	}
	panic("cfront: integer operation")
}

// udiv64 is the unsigned 64-bit quotient or remainder of x and d, whose
// values are the signed readings of their bits. For a divisor below
// 2^63: q0 = 2·((x >>> 1) / d) leaves a remainder r0 = x - q0·d below 2d,
// and q = q0 + (r0 ≥ d) unsigned; for a divisor of 2^63 or more, the
// quotient is x ≥ d unsigned (0 or 1).
func udiv64(k intKind, x, d prog.Expr) prog.Expr {
	uge := func(a, b prog.Expr) prog.Expr { return prog.Un{Op: prog.OpNot, X: unsignedCmp(prog.OpLt, a, b)} }
	half := lshr64by1(x)
	small := func() (q, r prog.Expr) {
		q0 := bin(prog.OpMul, bin(prog.OpDiv, half, d), prog.Int(2))
		r0 := wrap64(bin(prog.OpSub, x, bin(prog.OpMul, q0, d)))
		ge := uge(r0, d)
		return bin(prog.OpAdd, q0, ge), wrap64(bin(prog.OpSub, r0, bin(prog.OpMul, d, ge)))
	}
	big := func() (q, r prog.Expr) {
		ge := uge(x, d)
		return ge, wrap64(bin(prog.OpSub, x, bin(prog.OpMul, d, ge)))
	}
	pick := func(q, r prog.Expr) prog.Expr {
		if k == kUDiv {
			return q
		}
		return r
	}
	if kd, ok := constOf(d); ok {
		if kd < 0 {
			return pick(big())
		}
		if kd == 1 {
			if k == kUDiv {
				return x
			}
			return prog.Int(0)
		}
		return pick(small())
	}
	// A divisor known only when running: both, chosen by its sign.
	neg := bin(prog.OpLt, d, prog.Int(0))
	sel := func(a, b prog.Expr) prog.Expr { // neg ? a : b
		return bin(prog.OpAdd, b, bin(prog.OpMul, neg, bin(prog.OpSub, a, b)))
	}
	qs, rs := small()
	qb, rb := big()
	if k == kUDiv {
		return sel(qb, qs)
	}
	return wrap64(sel(rb, rs))
}

// bitwise is x & y, x | y or x ^ y of canonical N-bit values in
// arithmetic: with a constant (of few runs of 1 bits), through andConst
// (x | c = x + c - (x & c), x ^ c = x + c - 2(x & c)); else bit by bit,
// bit i being (x / 2^i) mod 2 (the sign bit, of weight -2^(N-1): x < 0).
// The SMT engine's encoding of these operators goes through 64-bit
// vectors (int2bv, bv2int), which Z3 answered wrongly on symbolic values
// (int8 -56 & -1 found different from -56 under QF_LIA) or not at all.
func bitwise(k intKind, x, y prog.Expr, bits uint64) prog.Expr {
	if _, ok := constOf(x); ok {
		x, y = y, x
	}
	if _, ok := constOf(y); ok {
		if m, ok := andConst(x, y); ok {
			switch k {
			case kAnd:
				return m
			case kOr:
				return bin(prog.OpSub, bin(prog.OpAdd, x, y), m)
			default:
				return bin(prog.OpSub, bin(prog.OpAdd, x, y), bin(prog.OpMul, m, prog.Int(2)))
			}
		}
	}
	bit := func(v prog.Expr, i uint64) prog.Expr {
		if i == bits-1 {
			return bin(prog.OpLt, v, prog.Int(0))
		}
		if c, ok := constOf(v); ok {
			return prog.Int(c >> i & 1)
		}
		if i == 0 {
			return umod(v, 2)
		}
		return umod(floorDiv(v, int64(1)<<i), 2)
	}
	op := map[intKind]prog.Op{kAnd: prog.OpLAnd, kOr: prog.OpLOr, kXor: prog.OpNe}[k]
	var sum prog.Expr
	for i := uint64(0); i < bits; i++ {
		b := bin(op, bit(x, i), bit(y, i))
		var term prog.Expr
		switch {
		case i == bits-1:
			term = bin(prog.OpMul, b, prog.Int(-1<<i))
		case i == 0:
			term = b
		default:
			term = bin(prog.OpMul, b, prog.Int(int64(1)<<i))
		}
		if sum == nil {
			sum = term
		} else {
			sum = bin(prog.OpAdd, sum, term)
		}
	}
	return sum
}

// lshr64by1 is x >>> 1 on 64 bits: the floor of x/2, plus 2^63 when x
// is negative (written as minus -2^63, which both int64 and the integers
// compute exactly: the sum stays below 2^63).
func lshr64by1(x prog.Expr) prog.Expr {
	return bin(prog.OpSub, floorDiv(x, 2), bin(prog.OpMul, bin(prog.OpLt, x, prog.Int(0)), prog.Int(math.MinInt64)))
}

// foldInt computes an operation on two constants (false: undefined,
// left to the engines, which report a division by zero).
func foldInt(k intKind, a, c int64, bits uint64) (int64, bool) {
	mask := uint64(math.MaxUint64)
	if bits < 64 {
		mask = 1<<bits - 1
	}
	ua, uc := uint64(a)&mask, uint64(c)&mask
	var r int64
	switch k {
	case kAdd:
		r = a + c
	case kSub:
		r = a - c
	case kMul:
		r = a * c
	case kSDiv:
		if c == 0 || a == math.MinInt64 && c == -1 {
			return 0, false
		}
		r = a / c
	case kSRem:
		if c == 0 || a == math.MinInt64 && c == -1 {
			return 0, false
		}
		r = a % c
	case kUDiv:
		if uc == 0 {
			return 0, false
		}
		r = int64(ua / uc)
	case kURem:
		if uc == 0 {
			return 0, false
		}
		r = int64(ua % uc)
	case kAnd:
		r = a & c
	case kOr:
		r = a | c
	case kXor:
		r = a ^ c
	case kShl:
		if uc >= bits {
			return 0, true
		}
		r = a << uc
	case kLShr:
		if uc >= bits {
			return 0, true
		}
		r = int64(ua >> uc)
	case kAShr:
		if uc >= bits {
			return 0, true
		}
		r = a >> uc
	}
	return canonInt(r, bits), true
}
