package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the first-class aggregate values of clang's IR:
// structs of integers and pointers held in registers rather than in
// memory. Two C idioms make them:
//   - cmpxchg's result pair { iN old value, i1 success }. A cmpxchg
//     defines two registers (atomics.go). When the orders of a
//     compare-and-swap are values (memory_order parameters, a table of
//     orders), clang emits one cmpxchg per order under a switch, and -O1
//     sinks the extractvalues below a phi of the pairs.
//   - a small struct returned by value (struct pair { long a, b; }):
//     built by insertvalue, returned by ret, taken apart by extractvalue
//     in the caller.
// An aggregate value v of n fields is n registers, v's register with
// ".0" ... ".n-1" (aggReg): insertvalue, phi and ret assign them field
// by field, extractvalue reads one.

// aggFields is the number of fields of t when t is a struct of integers
// and pointers (0 otherwise).
func aggFields(t types.Type) int {
	st, ok := t.(*types.StructType)
	if !ok || len(st.Fields) == 0 {
		return 0
	}
	for _, f := range st.Fields {
		switch f.(type) {
		case *types.IntType, *types.PointerType:
		default:
			return 0
		}
	}
	return len(st.Fields)
}

// aggReg is the register of field k of the aggregate value v.
func aggReg(fr *frame, v value.Named, k int) string {
	return fr.reg(v) + fmt.Sprintf(".%d", k)
}

// aggParts are the fields of the aggregate value v of n fields: the
// registers of an instruction that defines one, or constants.
func (l *lowerer) aggParts(fr *frame, v value.Value, n int, pos prog.Pos) ([]prog.Expr, error) {
	out := make([]prog.Expr, n)
	switch v := v.(type) {
	case *ir.InstCmpXchg, *ir.InstPhi, *ir.InstInsertValue, *ir.InstCall:
		for k := range out {
			out[k] = prog.Reg{Name: aggReg(fr, v.(value.Named), k)}
		}
		return out, nil
	case *constant.Undef, *constant.Poison, *constant.ZeroInitializer:
		for k := range out {
			out[k] = prog.Int(0)
		}
		return out, nil
	case *constant.Struct:
		if len(v.Fields) != n {
			break
		}
		for k, f := range v.Fields {
			x, err := l.operand(fr, f, pos)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	}
	return nil, l.errAt(pos, "aggregate value %s (unsupported: only structs of integers and pointers made by insertvalue, cmpxchg, a call or a phi)", v.Ident())
}

// extractValue lowers extractvalue: a field of an aggregate value.
func (l *lowerer) extractValue(fr *frame, in *ir.InstExtractValue, pos prog.Pos) error {
	n := aggFields(in.X.Type())
	if _, ok := in.X.(*ir.InstCmpXchg); ok {
		n = 2
	}
	if len(in.Indices) != 1 || n == 0 || in.Indices[0] >= uint64(n) {
		return l.errAt(pos, "extractvalue (unsupported: aggregates other than a struct of integers and pointers, or nested)")
	}
	parts, err := l.aggParts(fr, in.X, n, pos)
	if err != nil {
		return err
	}
	fr.assign(in, parts[in.Indices[0]])
	return nil
}

// insertValue lowers insertvalue: the aggregate with one field
// replaced, field by field.
func (l *lowerer) insertValue(fr *frame, in *ir.InstInsertValue, pos prog.Pos) error {
	n := aggFields(in.X.Type())
	if len(in.Indices) != 1 || n == 0 || in.Indices[0] >= uint64(n) {
		return l.errAt(pos, "insertvalue (unsupported: aggregates other than a struct of integers and pointers, or nested)")
	}
	parts, err := l.aggParts(fr, in.X, n, pos)
	if err != nil {
		return err
	}
	x, err := l.operand(fr, in.Elem, pos)
	if err != nil {
		return err
	}
	parts[in.Indices[0]] = x
	for k, p := range parts {
		fr.b.emit(prog.Assign{Dst: aggReg(fr, in, k), Val: p})
	}
	return nil
}
