package cfront

import (
	"math/bits"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Or of disjoint bits.
//
// Programs put a wide value together from narrower ones: a 64-bit
// counter read as two 32-bit halves, ((uint64_t)hi << 32) | lo, bytes
// assembled into a word. The operands of such an or have no bit in
// common: one is shifted left by k (its k low bits are 0), the other
// has only k significant bits (zero-extended from k bits or fewer, or a
// small constant). The or is then the sum, which the SMT engine solves
// as linear arithmetic, where a bitwise or of integers took it tens of
// seconds on a two-thread program (ck_split64 style: 25 s for 164
// constraints). disjointOr tells when the operands are so.

// lowZeros is a number of low bits of v known to be 0.
func lowZeros(v value.Value) uint64 {
	switch v := v.(type) {
	case *ir.InstShl:
		if c, ok := v.Y.(*constant.Int); ok && c.X.IsUint64() {
			return c.X.Uint64() + lowZeros(v.X)
		}
	case *ir.InstMul:
		return max(lowZeros(v.X), lowZeros(v.Y))
	case *ir.InstZExt:
		return lowZeros(v.From)
	case *constant.Int:
		if c := v.X; c.Sign() > 0 && c.IsUint64() {
			return uint64(bits.TrailingZeros64(c.Uint64()))
		}
		if v.X.Sign() == 0 {
			return 64
		}
	}
	return 0
}

// sigBits is a number of low bits of v above which every bit is known
// to be 0 (its width when nothing is known).
func sigBits(v value.Value) uint64 {
	w := uint64(64)
	if t, ok := v.Type().(*types.IntType); ok {
		w = t.BitSize
	}
	switch v := v.(type) {
	case *ir.InstZExt:
		if t, ok := v.From.Type().(*types.IntType); ok {
			return min(w, t.BitSize)
		}
	case *ir.InstAnd:
		if c, ok := v.Y.(*constant.Int); ok && c.X.Sign() >= 0 && c.X.IsUint64() {
			return min(w, uint64(bits.Len64(c.X.Uint64())))
		}
	case *constant.Int:
		if v.X.Sign() >= 0 && v.X.IsUint64() {
			return min(w, uint64(bits.Len64(v.X.Uint64())))
		}
	}
	return w
}

// disjointOr tells whether x and y have no set bit in common.
func disjointOr(x, y value.Value) bool {
	return sigBits(y) <= lowZeros(x) || sigBits(x) <= lowZeros(y)
}
