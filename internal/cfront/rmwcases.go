package cfront

import (
	"github.com/musket-verify/musket/internal/prog"
)

// Read-modify-writes whose old value the analysis knows to be one of a
// few integers.
//
// The SMT engine keeps values as unbounded integers and encodes a bitwise
// operator on a value it does not know bit by bit, by divisions and
// remainders (64 of each for a 64-bit value). The atomic and/or/xor of a
// C program's threads (atomic_fetch_and(&flags, mask)) apply one to the
// old value of the location, which the engine chooses by rf: every such
// RMW is a large arithmetic term, and random C programs whose workers
// and-ed, or-ed and xor-ed shared atomics had no answer in minutes,
// whatever else they computed.
//
// The flow-insensitive analysis of mixed.go (trusted as ownStores trusts
// it) gives the values a location may hold; for and/or/xor with
// constants they are few ({0, c} for x ^= c from 0). When the old value
// is one of at most maxRMWCases integers, the new value (and the
// condition) becomes the sum of (old == v)·f(v) over them, f(v) computed
// now: comparisons and products by 0 or 1, which the engine encodes as
// choices. The read, the write and the value they carry are unchanged.

// maxRMWCases bounds the values of a case split.
const maxRMWCases = 8

// rmwByCases rewrites in's new value and condition by the cases of old,
// when they use a bitwise operator on it and old is one of the integers
// olds; ok false leaves in as it is.
func rmwByCases(in prog.RMW, olds *aval) (prog.RMW, bool) {
	if olds == nil || olds.anyInt || len(olds.ptrs) > 0 || len(olds.ints) == 0 || len(olds.ints) > maxRMWCases {
		return in, false
	}
	if !bitwiseOnOld(in.New) && (in.Cond == nil || !bitwiseOnOld(in.Cond)) {
		return in, false
	}
	split := func(e prog.Expr) (prog.Expr, bool) {
		var sum prog.Expr
		for _, v := range olds.ints {
			r, ok := foldOld(e, v)
			if !ok {
				return nil, false
			}
			at := prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(v)}
			sum = addExpr(sum, prog.Bin{Op: prog.OpMul, X: at, Y: prog.Const{V: r}})
		}
		return sum, true
	}
	out := in
	n, ok := split(in.New)
	if !ok {
		return in, false
	}
	out.New = n
	if in.Cond != nil {
		c, ok := split(in.Cond)
		if !ok {
			return in, false
		}
		out.Cond = c
	}
	return out, true
}

// bitwiseOnOld tells whether e applies a bitwise operator to a term
// that uses the old value.
func bitwiseOnOld(e prog.Expr) bool {
	switch e := e.(type) {
	case prog.Bin:
		switch e.Op {
		case prog.OpAnd, prog.OpOr, prog.OpXor, prog.OpShl, prog.OpShr:
			if usesOldValue(e.X) || usesOldValue(e.Y) {
				return true
			}
		}
		return bitwiseOnOld(e.X) || bitwiseOnOld(e.Y)
	case prog.Un:
		if e.Op == prog.OpBNot && usesOldValue(e.X) {
			return true
		}
		return bitwiseOnOld(e.X)
	}
	return false
}

func usesOldValue(e prog.Expr) bool {
	switch e := e.(type) {
	case prog.Old:
		return true
	case prog.Bin:
		return usesOldValue(e.X) || usesOldValue(e.Y)
	case prog.Un:
		return usesOldValue(e.X)
	}
	return false
}

// foldOld evaluates e with old = v; ok false when e uses anything but
// old and constants (a register), or an operation fails.
func foldOld(e prog.Expr, v int64) (prog.Value, bool) {
	switch e := e.(type) {
	case prog.Const:
		return e.V, true
	case prog.Old:
		return prog.IntValue(v), true
	case prog.Bin:
		a, ok := foldOld(e.X, v)
		if !ok {
			return prog.Value{}, false
		}
		b, ok := foldOld(e.Y, v)
		if !ok {
			return prog.Value{}, false
		}
		r, err := prog.ApplyTotal(e.Op, a, b)
		if err != nil {
			return prog.Value{}, false
		}
		return r, true
	case prog.Un:
		a, ok := foldOld(e.X, v)
		if !ok {
			return prog.Value{}, false
		}
		r, err := prog.ApplyUnary(e.Op, a)
		if err != nil {
			return prog.Value{}, false
		}
		return r, true
	}
	return prog.Value{}, false
}
