package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The Z flag of a thread that reads a signed condition. There a W
// comparison leaves its operands sign-extended (cmpOperands), so that
// LT, LE, GT and GE compare the exact signed values: the sign of the
// exact result is what N != V says. Z, though, is set when the result is
// 0 modulo 2^32, and an addition (CMN, ADDS) of two W values of -2^31
// has the exact result -2^32: Z set (EQ holds) and the result negative
// (LT holds). No one comparison of two numbers gives both, so such a
// thread, when it also reads Z (EQ, NE, HI, LS) and has such an
// addition, keeps Z itself (%cmpZ) and those conditions read it. A
// subtraction of sign-extended W values, or any X comparison, is 0
// exactly when its operands are equal: their Z is cmpL == cmpR.

// setCmp writes the comparison operands l, r that a CMP, CMN, TST, ADDS
// or SUBS of width operand w leaves (add: CMN or ADDS), and Z in a
// thread that reads a signed condition.
func (a *a64Thread) setCmp(l, r prog.Expr, w armOp, add bool) {
	a.emit(prog.Assign{Dst: a64CmpL, Val: l}, prog.Assign{Dst: a64CmpR, Val: r})
	if !a.zApart {
		return
	}
	z := a64Bin(prog.OpEq, a64RegExpr(a64CmpL), a64RegExpr(a64CmpR))
	if add && !w.wide {
		// the exact sum sext(x) + sext(y) modulo 2^32
		diff := a64Bin(prog.OpSub, a64RegExpr(a64CmpL), a64RegExpr(a64CmpR))
		z = a64Bin(prog.OpEq, a64Zext32(diff), prog.Int(0))
	}
	a.emit(prog.Assign{Dst: a64CmpZ, Val: z})
}

// zFlag is the Z flag as 0 or 1.
func (a *a64Thread) zFlag() prog.Expr {
	if a.zApart {
		return a64RegExpr(a64CmpZ)
	}
	return a64Bin(prog.OpEq, a64RegExpr(a64CmpL), a64RegExpr(a64CmpR))
}

// cmpCond is condition name (one of a64Conds, whose operator is op) on
// the comparison operands; EQ and NE read Z.
func (a *a64Thread) cmpCond(name string, op prog.Op) prog.Expr {
	if a.zApart {
		switch name {
		case "EQ":
			return a64Bin(prog.OpNe, a64RegExpr(a64CmpZ), prog.Int(0))
		case "NE":
			return a64Bin(prog.OpEq, a64RegExpr(a64CmpZ), prog.Int(0))
		}
	}
	return prog.Bin{Op: op, X: a64RegExpr(a64CmpL), Y: a64RegExpr(a64CmpR)}
}

// readsZCond tells whether instruction in reads EQ, NE, HI or LS.
func readsZCond(in armInstr) bool {
	z := func(c string) bool {
		switch strings.ToUpper(c) {
		case "EQ", "NE", "HI", "LS":
			return true
		}
		return false
	}
	if strings.HasPrefix(in.mn, "B.") {
		return z(in.mn[2:])
	}
	switch in.mn {
	case "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM":
		if n := len(in.ops); n > 0 && in.ops[n-1].kind == armSym {
			return z(in.ops[n-1].name)
		}
	}
	return false
}

// isWAdd tells whether instruction in is a CMN or an ADDS on W
// registers.
func isWAdd(in armInstr) bool {
	return (in.mn == "CMN" || in.mn == "ADDS") && len(in.ops) > 0 && in.ops[0].kind == armReg && !in.ops[0].wide
}
