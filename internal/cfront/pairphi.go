package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers cmpxchg's result pair { iN old value, i1 success }
// where it flows through a phi. A cmpxchg defines two registers, its
// name with ".0" and ".1" (atomics.go). When the orders of a
// compare-and-swap are values (memory_order parameters, a table of
// orders), clang emits one cmpxchg per order under a switch, and -O1
// sinks the extractvalues below a phi of the pairs. A phi of pairs is
// lowered as two phis, one per part, and an extractvalue of it reads
// its part's register.

// isPairType tells whether t can be the type of cmpxchg's result: a
// struct of an integer (or pointer) and an integer flag (i1 in clang's
// output; the IR reader may give the flag another width).
func isPairType(t types.Type) bool {
	st, ok := t.(*types.StructType)
	if !ok || len(st.Fields) != 2 {
		return false
	}
	_, ok = st.Fields[1].(*types.IntType)
	return ok
}

// pairReg is the register of part k of the pair value v.
func pairReg(fr *frame, v value.Named, k int) string {
	return fr.reg(v) + fmt.Sprintf(".%d", k)
}

// pairParts are the two parts of the pair value v: the registers of a
// cmpxchg or of a phi of pairs, or 0 for an undefined pair.
func (l *lowerer) pairParts(fr *frame, v value.Value, pos prog.Pos) ([2]prog.Expr, error) {
	switch v := v.(type) {
	case *ir.InstCmpXchg, *ir.InstPhi:
		n := v.(value.Named)
		return [2]prog.Expr{prog.Reg{Name: pairReg(fr, n, 0)}, prog.Reg{Name: pairReg(fr, n, 1)}}, nil
	case *constant.Undef, *constant.Poison, *constant.ZeroInitializer:
		return [2]prog.Expr{prog.Int(0), prog.Int(0)}, nil
	}
	return [2]prog.Expr{}, l.errAt(pos, "extractvalue of %s (aggregate values other than cmpxchg's result, directly or through a phi)", v.Ident())
}
