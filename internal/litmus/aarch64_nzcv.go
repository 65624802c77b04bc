package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The condition flags beyond the compared pair. EQ, NE, LT, LE, GT and
// GE read the pair %cmpL, %cmpR that CMP leaves (aarch64_translate.go).
// The other conditions (MI, PL, HS/CS, LO/CC, HI, LS, VS, VC, AL, NV)
// need the N, C and V flags as the architecture defines them, at the
// width of the instruction that sets them: a thread that reads one of
// them gets, at each CMP, CMN, TST, ADDS and SUBS, the temporaries
// %nf, %cf and %vf (0 or 1). Threads that do not read them are
// translated as before.
//
// For a subtraction a-b (CMP, SUBS) on w bits: N is bit w-1 of the
// result, C is "no borrow" (a >= b unsigned), V is the signed overflow.
// For an addition (CMN, ADDS): C is the carry out of bit w-1. For TST,
// N is bit w-1 of a AND b, C and V are 0. On 32 bits the operands are
// their low words (zero-extended for N and C, sign-extended for V); on
// 64 bits the values are taken as 64-bit integers.
const (
	a64N = "%nf"
	a64C = "%cf"
	a64V = "%vf"
)

// a64ExtConds are the conditions that read N, C or V.
var a64ExtConds = map[string]bool{
	"MI": true, "PL": true, "HS": true, "CS": true, "LO": true, "CC": true,
	"HI": true, "LS": true, "VS": true, "VC": true, "AL": true, "NV": true,
}

// readsNZCV tells whether instruction in reads one of a64ExtConds.
func readsNZCV(in armInstr) bool {
	if strings.HasPrefix(in.mn, "B.") {
		return a64ExtConds[in.mn[2:]]
	}
	switch in.mn {
	case "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM":
		if n := len(in.ops); n > 0 && in.ops[n-1].kind == armSym {
			return a64ExtConds[strings.ToUpper(in.ops[n-1].name)]
		}
	}
	return false
}

func not01(e prog.Expr) prog.Expr { return prog.Un{Op: prog.OpNot, X: e} }

// setNZCV emits N, C and V of an instruction of kind sub, add or logic
// on a and b, on 64 bits when wide (else 32).
func (a *a64Thread) setNZCV(kind string, x, y prog.Expr, wide bool) {
	if !a.nzcv {
		return
	}
	var n, c, v prog.Expr
	if wide {
		neg := func(e prog.Expr) prog.Expr { return a64Bin(prog.OpLt, e, prog.Int(0)) }
		switch kind {
		case "sub":
			d := a64Bin(prog.OpSub, x, y)
			n, c = neg(d), not01(a64ULt(x, y))
			v = a64Bin(prog.OpLAnd, a64Bin(prog.OpNe, neg(x), neg(y)), a64Bin(prog.OpNe, neg(d), neg(x)))
		case "add":
			s := a64Bin(prog.OpAdd, x, y)
			n, c = neg(s), a64ULt(s, x)
			v = a64Bin(prog.OpLAnd, a64Bin(prog.OpEq, neg(x), neg(y)), a64Bin(prog.OpNe, neg(s), neg(x)))
		default:
			n, c, v = neg(a64Bin(prog.OpAnd, x, y)), prog.Int(0), prog.Int(0)
		}
	} else {
		ux, uy := a64Zext32(x), a64Zext32(y)
		sx, sy := a64Sext(x, 32), a64Sext(y, 32)
		bit31 := func(e prog.Expr) prog.Expr {
			return a64Bin(prog.OpAnd, a64Bin(prog.OpShr, a64Zext32(e), prog.Int(31)), prog.Int(1))
		}
		outside := func(e prog.Expr) prog.Expr {
			return a64Bin(prog.OpLOr, a64Bin(prog.OpLt, e, prog.Int(-1<<31)), a64Bin(prog.OpGt, e, prog.Int(1<<31-1)))
		}
		switch kind {
		case "sub":
			n, c = bit31(a64Bin(prog.OpSub, ux, uy)), a64Bin(prog.OpGe, ux, uy)
			v = outside(a64Bin(prog.OpSub, sx, sy))
		case "add":
			s := a64Bin(prog.OpAdd, ux, uy)
			n, c = bit31(s), a64Bin(prog.OpGt, s, prog.Int(a64Mask32))
			v = outside(a64Bin(prog.OpAdd, sx, sy))
		default:
			n, c, v = bit31(a64Bin(prog.OpAnd, x, y)), prog.Int(0), prog.Int(0)
		}
	}
	a.emit(prog.Assign{Dst: a64N, Val: n}, prog.Assign{Dst: a64C, Val: c}, prog.Assign{Dst: a64V, Val: v})
}

// extCond is condition name (one of a64ExtConds) as 0 or 1.
func (a *a64Thread) extCond(name string) prog.Expr {
	nf, cf, vf := a64RegExpr(a64N), a64RegExpr(a64C), a64RegExpr(a64V)
	z := a.zFlag()
	switch name {
	case "MI":
		return a64Bin(prog.OpNe, nf, prog.Int(0))
	case "PL":
		return not01(nf)
	case "HS", "CS":
		return a64Bin(prog.OpNe, cf, prog.Int(0))
	case "LO", "CC":
		return not01(cf)
	case "HI":
		return a64Bin(prog.OpLAnd, cf, not01(z))
	case "LS":
		return a64Bin(prog.OpLOr, not01(cf), z)
	case "VS":
		return a64Bin(prog.OpNe, vf, prog.Int(0))
	case "VC":
		return not01(vf)
	}
	return prog.Int(1) // AL, NV: always
}
