package cfront

// Ordering comparisons and differences of pointers.
//
// In the engines an address is a value of its own (an object and a byte
// offset) that compares only for equality and adds integers: the three
// engines (the explicit one through prog.Apply, the SMT engine, the graph
// engine) agree on that and on nothing more. C orders pointers into one
// object by their offsets (p < q, q - p, as a loop over an array by a
// pointer does); pointers into different objects are not ordered (their
// comparison is undefined). So the front-end answers these questions
// itself, after unrolling, with the address analysis of mixed.go (which
// gives each register the objects and offsets it may hold): a comparison
// or a difference of two pointers into one object o becomes one of their
// offsets, the offset of a pointer p written as the sum over the offsets
// k that p may have of k·(p == o+k), which uses only the equality of
// addresses every engine has. Operands that may point into two objects,
// or that may be integers too (a null pointer) are checked at run time:
// when they are not pointers into one object the program fails there
// (undefined behaviour, as an invalid memory access does). A pointer whose
// offset the analysis does not know (an index read from memory) may have
// any offset of its object, one past its end included; only when that is
// more than maxOffsetTerms offsets is the comparison refused by name.

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// ordersPointers tells whether op is an ordering comparison or a
// difference: the operators that need the offsets of two pointers.
func ordersPointers(op prog.Op) bool {
	switch op {
	case prog.OpLt, prog.OpLe, prog.OpGt, prog.OpGe, prog.OpSub:
		return true
	}
	return false
}

// mayOrderPointers tells whether an expression of in has an operator
// that ordersPointers (a quick filter before the analysis is asked).
func mayOrderPointers(in prog.Instr) bool {
	found := false
	for _, e := range prog.Exprs(in) {
		prog.WalkExpr(e, func(x prog.Expr) {
			if b, ok := x.(prog.Bin); ok && ordersPointers(b.Op) {
				found = true
			}
		})
	}
	return found
}

// pointerOrder rewrites the comparisons and differences of pointers of
// t's threads into ones of their offsets (see the top of this file).
// Where the analysis cannot tell that both operands point into one
// object, a check before the instruction fails the program (undefined
// behaviour, as an invalid memory access does). size gives an object's
// size in bytes (0: not known). It returns, for each thread whose code
// grew, where each old instruction went (nil for the others).
func (l *lowerer) pointerOrder(t *spec.Test, m *mixedAnalysis, size func(string) int64) ([][]int, error) {
	var moved [][]int
	for ti, th := range t.Threads {
		var code []prog.Instr
		var pos []prog.Pos
		var where []int
		for pc, in := range th.Code {
			p := th.Pos[pc]
			if !mayOrderPointers(in) {
				code, pos, where = append(code, in), append(pos, p), append(where, len(code))
				continue
			}
			var err error
			var checks []prog.Expr
			in = mapExprs(in, func(e prog.Expr) prog.Expr {
				return l.offsets(m, ti, e, p, size, &checks, &err)
			})
			if err != nil {
				return nil, err
			}
			for _, c := range checks {
				l.ptrChecks++
				ok := fmt.Sprintf("%%ptrok%d", l.ptrChecks)
				l.asserts = append(l.asserts, assertion{pos: p, text: "comparison or difference of pointers not into one object (undefined behaviour)"})
				code = append(code,
					prog.Jump{Cond: c, Target: ok},
					prog.Assign{Dst: failReg, Val: prog.Int(int64(len(l.asserts)))},
					prog.Jump{Target: exitLabel},
					prog.Label{Name: ok})
				pos = append(pos, p, p, p, p)
			}
			code, pos, where = append(code, in), append(pos, p), append(where, len(code))
		}
		if len(code) != len(th.Code) {
			if moved == nil {
				moved = make([][]int, len(t.Threads))
			}
			moved[ti] = where
		}
		th.Code, th.Pos = code, pos
	}
	return moved, nil
}

// maxOffsetTerms bounds the offsets a pointer's offset is written over.
const maxOffsetTerms = 256

// offsets rewrites e (see pointerOrder); the conditions under which
// the operands are pointers into one object, when the analysis does not
// show it, go to *checks; the first error goes to *errp.
func (l *lowerer) offsets(m *mixedAnalysis, ti int, e prog.Expr, pos prog.Pos, size func(string) int64, checks *[]prog.Expr, errp *error) prog.Expr {
	switch x := e.(type) {
	case prog.Un:
		return prog.Un{Op: x.Op, X: l.offsets(m, ti, x.X, pos, size, checks, errp)}
	case prog.Bin:
		a, b := l.offsets(m, ti, x.X, pos, size, checks, errp), l.offsets(m, ti, x.Y, pos, size, checks, errp)
		if !ordersPointers(x.Op) {
			return prog.Bin{Op: x.Op, X: a, Y: b}
		}
		va, vb := m.eval(ti, x.X, nil), m.eval(ti, x.Y, nil)
		if len(va.ptrs) == 0 && len(vb.ptrs) == 0 || x.Op == prog.OpSub && len(vb.ptrs) == 0 {
			// integers, or a pointer minus an integer (which the
			// engines compute)
			return prog.Bin{Op: x.Op, X: a, Y: b}
		}
		what := "ordering comparison of pointers"
		if x.Op == prog.OpSub {
			what = "difference of pointers"
		}
		if len(va.ptrs) == 0 || len(vb.ptrs) == 0 {
			// A pointer against an integer: a comparison the user wrote,
			// or the arithmetic a mask or a shift of a pointer's bits is
			// lowered to (andConst's floor divisions compare with 0),
			// as with a tag kept in a pointer's high bits.
			if *errp == nil {
				one := "an ordering comparison of a pointer with an integer"
				if x.Op == prog.OpSub {
					one = "a difference of a pointer and an integer"
				}
				*errp = l.errAt(pos, "unsupported: %s, or a pointer's bits used as a number (a mask, a shift, a tag in its high bits): Musket's pointers are an object and an offset, not bits", one)
			}
			return prog.Bin{Op: x.Op, X: a, Y: b}
		}
		// The objects both may point into, with the offsets each may
		// have there (every offset of the object when the analysis
		// does not know it).
		guessed := false // an offset not known: every offset of the object
		offs := func(v *aval, o string) ([]int64, bool) {
			var ks []int64
			for k := range v.ptrs[o] {
				if k == anyOff {
					guessed = true
					n := size(o)
					if n <= 0 || n+1 > maxOffsetTerms {
						return nil, false
					}
					ks = ks[:0]
					for k := int64(0); k <= n; k++ {
						ks = append(ks, k)
					}
					return ks, true
				}
				ks = append(ks, k)
			}
			sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
			return ks, true
		}
		var objs []string
		for o := range va.ptrs {
			if vb.ptrs[o] != nil {
				objs = append(objs, o)
			}
		}
		sort.Strings(objs)
		if len(objs) == 0 {
			if *errp == nil {
				*errp = l.errAt(pos, "%s that never point into one object (undefined in C)", what)
			}
			return prog.Bin{Op: x.Op, X: a, Y: b}
		}
		var oa, ob, valid prog.Expr
		sure := len(objs) == 1 && len(va.ptrs) == 1 && len(vb.ptrs) == 1 && !va.hasInt() && !vb.hasInt()
		for _, o := range objs {
			ka, ok1 := offs(va, o)
			kb, ok2 := offs(vb, o)
			if !ok1 || !ok2 {
				if *errp == nil {
					*errp = l.errAt(pos, "%s at offsets the front-end cannot bound (an index read from memory into an object of more than %d bytes)", what, maxOffsetTerms-1)
				}
				return prog.Bin{Op: x.Op, X: a, Y: b}
			}
			sa, ia := offsetExpr(a, o, ka, sure && !guessed)
			sb, ib := offsetExpr(b, o, kb, sure && !guessed)
			oa, ob = addExpr(oa, sa), addExpr(ob, sb)
			valid = orExpr(valid, prog.Bin{Op: prog.OpLAnd, X: ia, Y: ib})
		}
		if !sure || guessed {
			*checks = append(*checks, valid)
		}
		return prog.Bin{Op: x.Op, X: oa, Y: ob}
	}
	return e
}

// offsetExpr gives, for a pointer p into object o at one of the offsets
// ks, its offset (the sum of k·(p == o+k); k itself when there is one
// and sure says p surely points into o) and the condition that p points
// into o at one of them.
func offsetExpr(p prog.Expr, o string, ks []int64, sure bool) (off, in prog.Expr) {
	if sure && len(ks) == 1 {
		return prog.Int(ks[0]), prog.Int(1)
	}
	for _, k := range ks {
		eq := prog.Bin{Op: prog.OpEq, X: p, Y: prog.Const{V: prog.Value{Loc: o, Int: k}}}
		in = orExpr(in, eq)
		if k != 0 {
			off = addExpr(off, prog.Bin{Op: prog.OpMul, X: eq, Y: prog.Int(k)})
		}
	}
	if off == nil {
		off = prog.Int(0)
	}
	return off, in
}

func addExpr(a, b prog.Expr) prog.Expr {
	if a == nil {
		return b
	}
	return prog.Bin{Op: prog.OpAdd, X: a, Y: b}
}

func orExpr(a, b prog.Expr) prog.Expr {
	if a == nil {
		return b
	}
	return prog.Bin{Op: prog.OpLOr, X: a, Y: b}
}

// mapExprs applies f to each expression of in (those prog.Exprs lists).
func mapExprs(in prog.Instr, f func(prog.Expr) prog.Expr) prog.Instr {
	opt := func(e prog.Expr) prog.Expr {
		if e == nil {
			return nil
		}
		return f(e)
	}
	switch x := in.(type) {
	case prog.Load:
		x.Addr = f(x.Addr)
		return x
	case prog.Store:
		x.Addr, x.Val = f(x.Addr), f(x.Val)
		return x
	case prog.RMW:
		x.Addr, x.New, x.Cond = f(x.Addr), f(x.New), opt(x.Cond)
		return x
	case prog.StoreCond:
		x.Addr, x.Val = f(x.Addr), f(x.Val)
		return x
	case prog.Assign:
		x.Val = f(x.Val)
		return x
	case prog.Jump:
		x.Cond = opt(x.Cond)
		return x
	}
	return in
}
