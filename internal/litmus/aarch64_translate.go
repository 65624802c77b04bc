package litmus

// Translation of the AArch64 instructions into the program IR: one method
// per instruction class (accesses, flags, moves, branches, atomics,
// barriers, arithmetic).

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

func a64RegExpr(name string) prog.Expr { return prog.Reg{Name: name} }

// a64ALU are the three-operand arithmetic instructions.
var a64ALU = map[string]prog.Op{
	"ADD": prog.OpAdd, "SUB": prog.OpSub, "EOR": prog.OpXor, "AND": prog.OpAnd, "ORR": prog.OpOr,
}

// a64Conds are the conditions of B.cond, on the flags %cmpL and %cmpR.
var a64Conds = map[string]prog.Op{
	"EQ": prog.OpEq, "NE": prog.OpNe, "LT": prog.OpLt, "LE": prog.OpLe, "GT": prog.OpGt, "GE": prog.OpGe,
}

// a64Loads are the plain, acquire and exclusive loads: their read tags.
var a64Loads = map[string][]string{
	"LDR":    nil,
	"LDUR":   nil,
	"LDAR":   {TagA64Acquire},
	"LDAPR":  {TagA64AcquirePC},
	"LDAPUR": {TagA64AcquirePC},
	"LDXR":   {TagA64Exclusive},
	"LDAXR":  {TagA64Exclusive, TagA64Acquire},
}

// a64AMOOps are the operations of LD<op> and ST<op>.
var a64AMOOps = map[string]func(old, v prog.Expr) prog.Expr{
	"ADD": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpAdd, X: old, Y: v} },
	"EOR": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpXor, X: old, Y: v} },
	"SET": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpOr, X: old, Y: v} },
	"CLR": func(old, v prog.Expr) prog.Expr {
		return prog.Bin{Op: prog.OpAnd, X: old, Y: prog.Un{Op: prog.OpBNot, X: v}}
	},
}

// a64Unsupported names instructions the front-end knows and refuses, with
// the reason.
func a64Unsupported(mn string) (string, bool) {
	switch {
	case mn == "LDPSW" || mn == "LDXP" || mn == "STXP" || mn == "LDAXP" || mn == "STLXP" || strings.HasPrefix(mn, "CASP"):
		return "pair accesses (mixed-size) are not supported", true
	case mn == "TLBI" || mn == "DC" || mn == "IC" || mn == "MRS" || mn == "MSR" || mn == "SVC" || mn == "ERET" || mn == "HVC":
		return "system instructions are not supported", true
	case mn == "UDF":
		return "faults (herd7's fault events) are not modelled", true
	case mn == "BL" || mn == "BLR" || mn == "RET":
		return "procedure calls (the link register's return address) are not modelled", true
	case mn == "ADR" || mn == "ADRP":
		return "an address computed from the program counter (of a code label, or of a location as herd7's test A139 has it) is not modelled", true
	}
	return "", false
}

// a64MinMaxOps are the atomic minimum and maximum operations of LD<op>
// and ST<op>.
var a64MinMaxOps = map[string]bool{"SMAX": true, "SMIN": true, "UMAX": true, "UMIN": true}

// a64AMOOp splits the operation off LD<op><order> or ST<op><order>: the
// operation, and the rest of the mnemonic.
func a64AMOOp(mn string) (op, rest string, ok bool) {
	if len(mn) < 5 || !strings.HasPrefix(mn, "LD") && !strings.HasPrefix(mn, "ST") {
		return "", "", false
	}
	if len(mn) >= 6 && a64MinMaxOps[mn[2:6]] {
		return mn[2:6], mn[6:], true
	}
	if _, ok := a64AMOOps[mn[2:5]]; ok {
		return mn[2:5], mn[5:], true
	}
	return "", "", false
}

// a64AccessMnemonic tells whether mn is a load, store or atomic whose
// byte and half-word forms add B or H.
func a64AccessMnemonic(mn string) bool {
	if _, ok := a64Loads[mn]; ok {
		return true
	}
	switch mn {
	case "STR", "STLR", "STUR", "STLUR", "STXR", "STLXR":
		return true
	}
	for _, p := range []string{"SWP", "CAS"} {
		if strings.HasPrefix(mn, p) {
			_, _, ok := a64Ordering(mn[len(p):])
			return ok
		}
	}
	if _, rest, ok := a64AMOOp(mn); ok {
		_, _, ok := a64Ordering(rest)
		return ok
	}
	return false
}

// a64Ordering splits the acquire/release suffix of an atomic: "", "A", "L"
// or "AL".
func a64Ordering(suffix string) (rtags, wtags []string, ok bool) {
	switch suffix {
	case "":
	case "A":
		rtags = []string{TagA64Acquire}
	case "L":
		wtags = []string{TagA64Release}
	case "AL":
		rtags, wtags = []string{TagA64Acquire}, []string{TagA64Release}
	default:
		return nil, nil, false
	}
	return append([]string{TagA64Atomic}, rtags...), append([]string{TagA64Atomic}, wtags...), true
}

// a64NoRet gives the read tags of an atomic whose destination register is
// WZR or XZR: the Arm ARM drops the acquire semantics of SWPA, CASA,
// LD<op>A and their AL forms whose destination is the zero register, and
// such a read is not one that DMB LD orders (aarch64hwreqs.cat's [R \
// NoRet]). herd7 marks that read NoRet and not acquire, as it marks the read
// of ST<op>; the write keeps its tags (release included).
func a64NoRet(rtags []string) []string {
	out := make([]string, 0, len(rtags)+1)
	for _, t := range rtags {
		if t != TagA64Acquire && t != TagA64AcquirePC {
			out = append(out, t)
		}
	}
	return append(out, TagA64NoRet)
}

func (a *a64Thread) translate(in armInstr) {
	a.pos = in.pos
	if in.label != "" {
		a.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	mn := in.mn
	// Byte and half-word forms: LDRB, STLRH, SWPALB, LDADDH, ...
	size := 0
	if n := len(mn); n > 3 && (mn[n-1] == 'B' || mn[n-1] == 'H') && a64AccessMnemonic(mn[:n-1]) {
		size, mn = 1, mn[:n-1]
		if in.mn[n-1] == 'H' {
			size = 2
		}
	}
	in, wb, ok := a.writeback(in, mn)
	if !ok {
		return
	}
	if wb.pre {
		a.emit(wb.update)
	}
	if !wb.pre && wb.update != nil {
		defer a.emit(wb.update)
	}
	if a.pair(in, mn) || a.access(in, mn, size) || a.flags(in, mn) || a.move(in, mn) || a.branch(in, mn) || a.dataProc(in, mn) {
		return
	}
	if op, ok := a64ALU[mn]; ok {
		a.alu(in, op)
		return
	}
	if strings.HasPrefix(mn, "B.") {
		op, ok := a64Conds[mn[2:]]
		if !ok && !a64ExtConds[mn[2:]] {
			a.errorf(in.mnPos, "unknown AArch64 branch condition %s", mn)
			return
		}
		if a.arity(in, 1) && a.isLabel(in, 0) {
			var c prog.Expr
			if ok {
				c = a.cmpCond(mn[2:], op)
			} else {
				c = a.extCond(mn[2:])
			}
			a.emit(prog.Jump{Cond: c, Target: in.ops[0].name})
		}
		return
	}
	in.mn = mn
	if a.atomic(in, a.width(in, size, 0)) {
		return
	}
	a.errorf(in.mnPos, "unknown AArch64 instruction %q", mn)
}

// width is the size in bytes of the access whose register is operand
// i: size for a byte or half-word form, else 8 for an X register and 4
// for a W one.
func (a *a64Thread) width(in armInstr, size, i int) int {
	switch {
	case size != 0:
		return size
	case i < len(in.ops) && in.ops[i].wide:
		return 8
	}
	return 4
}

// access translates loads, stores, barriers and the store exclusives;
// false when mn is none of them.
func (a *a64Thread) access(in armInstr, mn string, size int) bool {
	if tags, ok := a64Loads[mn]; ok {
		if len(in.ops) == 2 && in.ops[1].kind == armSym {
			// LDR (literal): the value at a label, PC-relative (herd7's
			// test A245 loads a location so).
			a.errorf(in.ops[1].pos, "unsupported AArch64 instruction %s from the label %s (a load from a PC-relative label, LDR (literal)): only loads from a memory operand [Xn] are modelled", in.mn, in.ops[1].name)
			return true
		}
		if a.arity(in, 2) && a.isReg(in, 0) && a.isMem(in, 1) {
			a.emitAccess(a.width(in, size, 0), prog.Load{Dst: in.ops[0].reg, Addr: in.ops[1].addr, Tags: tags})
		}
		return true
	}
	switch mn {
	case "NOP":
		a.arity(in, 0)
		return true
	case "ISB":
		if a.arity(in, 0) {
			a.emit(prog.Fence{Tags: []string{TagA64ISB}})
		}
		return true
	case "DMB", "DSB":
		a.barrier(in)
		return true
	case "STR", "STLR", "STUR", "STLUR":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isMem(in, 1) {
			var tags []string
			if mn == "STLR" || mn == "STLUR" {
				tags = []string{TagA64Release}
			}
			a.emitAccess(a.width(in, size, 0), prog.Store{Addr: in.ops[1].addr, Val: a.value(in.ops[0]), Tags: tags})
		}
		return true
	case "STXR", "STLXR":
		if a.arity(in, 3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			tags := []string{TagA64Exclusive}
			if mn == "STLXR" {
				tags = append(tags, TagA64Release)
			}
			a.emitAccess(a.width(in, size, 1), prog.StoreCond{Addr: in.ops[2].addr, Val: a.value(in.ops[1]), Status: in.ops[0].reg,
				OkVal: prog.IntValue(0), FailVal: prog.IntValue(1), Tags: tags})
		}
		return true
	}
	return false
}

// flags translates the instructions that set or read the condition
// flags (CMP, CMN, TST, ADDS, SUBS, ANDS, BICS, CSEL and its variants,
// CSET);
// false when mn is none of them.
func (a *a64Thread) flags(in armInstr, mn string) bool {
	switch mn {
	case "CMP":
		if rhs, ok := a.flagOperands(in, 1); ok {
			l, r := a.cmpOperands(in.ops[0], a.value(in.ops[0]), rhs, false)
			a.setCmp(l, r, in.ops[0], false)
			a.setNZCV("sub", a.value(in.ops[0]), rhs, in.ops[0].wide)
		}
		return true
	case "CMN", "TST":
		// The flags as CMP leaves them: Rn+op compared with 0 is Rn
		// compared with -op; TST compares Rn AND op with 0.
		if rhs, ok := a.flagOperands(in, 1); ok {
			l, r := a.cmpOperands(in.ops[0], a.value(in.ops[0]), rhs, true)
			if mn == "TST" {
				l, r = a.cmpOperands(in.ops[0], prog.Bin{Op: prog.OpAnd, X: a.value(in.ops[0]), Y: rhs}, prog.Int(0), false)
			}
			a.setCmp(l, r, in.ops[0], mn == "CMN")
			kind := "add"
			if mn == "TST" {
				kind = "logic"
			}
			a.setNZCV(kind, a.value(in.ops[0]), rhs, in.ops[0].wide)
		}
		return true
	case "ADDS", "SUBS":
		if rhs, ok := a.flagOperands(in, 2); ok {
			op := prog.OpSub
			if mn == "ADDS" {
				op = prog.OpAdd
			}
			l, r := a.cmpOperands(in.ops[0], a.value(in.ops[1]), rhs, mn == "ADDS")
			a.setCmp(l, r, in.ops[0], mn == "ADDS")
			kind := "sub"
			if mn == "ADDS" {
				kind = "add"
			}
			a.setNZCV(kind, a.value(in.ops[1]), rhs, in.ops[0].wide)
			a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Bin{Op: op, X: a.value(in.ops[1]), Y: rhs}))
		}
		return true
	case "ANDS", "BICS":
		// AND and BIC that set the flags as TST does: N and Z from the
		// result, C and V cleared.
		if rhs, ok := a.flagOperands(in, 2); ok {
			if mn == "BICS" {
				rhs = prog.Un{Op: prog.OpBNot, X: rhs}
			}
			res := prog.Bin{Op: prog.OpAnd, X: a.value(in.ops[1]), Y: rhs}
			l, r := a.cmpOperands(in.ops[0], res, prog.Int(0), false)
			a.setCmp(l, r, in.ops[0], false)
			a.setNZCV("logic", a.value(in.ops[1]), rhs, in.ops[0].wide)
			a.assign(in.ops[0].reg, a64Result(in.ops[0], res))
		}
		return true
	case "CSEL", "CSINC", "CSINV", "CSNEG":
		if a.arity(in, 4) && a.isReg(in, 0) && a.isReg(in, 1) && a.isReg(in, 2) {
			c, ok := a.cond(in.ops[3])
			if !ok {
				return true
			}
			x, y := a.value(in.ops[1]), a.value(in.ops[2])
			switch mn {
			case "CSINC":
				y = prog.Bin{Op: prog.OpAdd, X: y, Y: prog.Int(1)}
			case "CSINV":
				y = prog.Un{Op: prog.OpBNot, X: y}
			case "CSNEG":
				y = prog.Un{Op: prog.OpNeg, X: y}
			}
			a.pick(in.ops[0].reg, c, a64Result(in.ops[0], prog.Pick(x, c)), a64Result(in.ops[0], prog.Pick(y, c)))
		}
		return true
	case "CSET", "CSETM":
		if a.arity(in, 2) && a.isReg(in, 0) {
			c, ok := a.cond(in.ops[1])
			if !ok {
				return true
			}
			if mn == "CSETM" {
				c = prog.Un{Op: prog.OpNeg, X: c}
			}
			a.assign(in.ops[0].reg, a64Result(in.ops[0], c))
		}
		return true
	}
	return false
}

// move translates the register moves (MOV, NEG, LSL, MOVZ, MOVK); false
// when mn is none of them.
func (a *a64Thread) move(in armInstr, mn string) bool {
	switch mn {
	case "MOV":
		if a.arity(in, 2) && a.isReg(in, 0) {
			if in.ops[1].kind != armReg && in.ops[1].kind != armImm {
				a.errorf(in.ops[1].pos, "MOV needs a register or an immediate source")
				return true
			}
			a.assign(in.ops[0].reg, a64Result(in.ops[0], a.value(in.ops[1])))
		}
		return true
	case "NEG":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isReg(in, 1) {
			a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Un{Op: prog.OpNeg, X: a.value(in.ops[1])}))
		}
		return true
	case "LSL", "LSLV":
		if a.arity(in, 3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isRegOrImm(in, 2) {
			a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Bin{Op: prog.OpShl, X: a.value(in.ops[1]), Y: a.value(in.ops[2])}))
		}
		return true
	case "MOVZ", "MOVK":
		// MOVZ Rd,#imm[,LSL #k]; MOVK keeps the other bits of Rd.
		if k, ok := a.moveWide(in, mn, false); ok {
			v := prog.Expr(prog.Int(in.ops[1].imm << k))
			if mn == "MOVK" {
				keep := prog.Bin{Op: prog.OpAnd, X: a.value(in.ops[0]), Y: prog.Int(^(int64(0xffff) << k))}
				v = prog.Bin{Op: prog.OpOr, X: keep, Y: v}
			}
			a.assign(in.ops[0].reg, a64Result(in.ops[0], v))
		}
		return true
	}
	return false
}

// moveWide reads the operands Rd,#imm[,LSL #k] of MOVZ, MOVK and MOVN
// (mn): it returns the shift k, a multiple of 16 (up to 16 for a W
// register when narrow is set, as MOVN checks). False (reported) when
// they are wrong.
func (a *a64Thread) moveWide(in armInstr, mn string, narrow bool) (int64, bool) {
	if (len(in.ops) != 2 && !a.arity(in, 3)) || !a.isReg(in, 0) {
		return 0, false
	}
	if in.ops[1].kind != armImm || len(in.ops) == 3 && (in.ops[2].kind != armShift || in.ops[2].name != "LSL") {
		a.errorf(in.ops[1].pos, "%s takes Rd,#imm[,LSL #k]", mn)
		return 0, false
	}
	k := int64(0)
	if len(in.ops) == 3 {
		k = in.ops[2].imm
	}
	if in.ops[1].imm < 0 || in.ops[1].imm > 0xffff || k%16 != 0 || k > 48 || narrow && !in.ops[0].wide && k > 16 {
		a.errorf(in.ops[1].pos, "%s: bad immediate or shift (#0..#65535, LSL #0, #16, #32 or #48)", mn)
		return 0, false
	}
	return k, true
}

// branch translates TBZ, TBNZ, CBZ, CBNZ and B; false when mn is none of
// them (B.cond is translated with the flags it reads).
func (a *a64Thread) branch(in armInstr, mn string) bool {
	switch mn {
	case "TBZ", "TBNZ":
		// TBZ Rt,#bit,label: branch when bit number bit of Rt is 0.
		if a.arity(in, 3) && a.isReg(in, 0) && a.isLabel(in, 2) {
			if in.ops[1].kind != armImm || in.ops[1].imm < 0 || in.ops[1].imm > 63 {
				a.errorf(in.ops[1].pos, "%s needs a bit number #0..#63 as operand 2", mn)
				return true
			}
			bit := prog.Bin{Op: prog.OpAnd, X: prog.Bin{Op: prog.OpShr, X: a.value(in.ops[0]), Y: prog.Int(in.ops[1].imm)}, Y: prog.Int(1)}
			op := prog.OpEq
			if mn == "TBNZ" {
				op = prog.OpNe
			}
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: bit, Y: prog.Int(0)}, Target: in.ops[2].name})
		}
		return true
	case "CBZ", "CBNZ":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isLabel(in, 1) {
			op := prog.OpEq
			if mn == "CBNZ" {
				op = prog.OpNe
			}
			// CBZ Wn tests the low 32 bits.
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: a64Result(in.ops[0], a.value(in.ops[0])), Y: prog.Int(0)}, Target: in.ops[1].name})
		}
		return true
	case "B":
		if a.arity(in, 1) && a.isLabel(in, 0) {
			a.emit(prog.Jump{Target: in.ops[0].name})
		}
		return true
	}
	return false
}

// atomic translates SWP, CAS, LD<op> and ST<op>; false when mn is none.
func (a *a64Thread) atomic(in armInstr, size int) bool {
	mn := in.mn
	arity := func(n int) bool {
		if len(in.ops) != n {
			a.errorf(in.mnPos, "%s takes %d operands, found %d", mn, n, len(in.ops))
			return false
		}
		return true
	}
	switch {
	case strings.HasPrefix(mn, "SWP"):
		rt, wt, ok := a64Ordering(mn[3:])
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			if in.ops[1].reg == "" {
				rt = a64NoRet(rt)
			}
			a.emitAccess(size, prog.RMW{Dst: in.ops[1].reg, Addr: in.ops[2].addr, New: a.value(in.ops[0]), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "CAS"):
		rt, wt, ok := a64Ordering(mn[3:])
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			// The comparison is on the access's bytes: a W form compares
			// the low word of Ws (whose upper half may hold anything).
			if in.ops[0].reg == "" {
				rt = a64NoRet(rt)
			}
			var old, exp prog.Expr = prog.Old{}, a.value(in.ops[0])
			if sz := max(size, -size); sz < 8 {
				m := prog.Int(int64(1)<<(8*sz) - 1)
				old, exp = a64Bin(prog.OpAnd, old, m), a64Bin(prog.OpAnd, exp, m)
			}
			a.cas(size, in.ops[0].reg, old, exp, prog.RMW{Addr: in.ops[2].addr,
				Cond: prog.Bin{Op: prog.OpEq, X: old, Y: exp},
				New:  a.value(in.ops[1]), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "LD") && len(mn) >= 5:
		f, suffix, ok := a.amoOp(mn, size)
		if !ok {
			return false
		}
		rt, wt, ok := a64Ordering(suffix)
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			if in.ops[1].reg == "" {
				rt = a64NoRet(rt)
			}
			a.emitAccess(size, prog.RMW{Dst: in.ops[1].reg, Addr: in.ops[2].addr, New: f(prog.Old{}, a.value(in.ops[0])), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "ST") && len(mn) >= 5:
		f, suffix, ok := a.amoOp(mn, size)
		if !ok {
			return false
		}
		if suffix != "" && suffix != "L" {
			return false
		}
		rt, wt, _ := a64Ordering(suffix)
		if arity(2) && a.isReg(in, 0) && a.isMem(in, 1) {
			a.emitAccess(size, prog.RMW{Addr: in.ops[1].addr, New: f(prog.Old{}, a.value(in.ops[0])), RTags: append(rt, TagA64NoRet), WTags: wt})
		}
		return true
	}
	return false
}

func (a *a64Thread) barrier(in armInstr) {
	if opt, ok := a.barrierOpt(in, a64BarrierOpts); ok {
		a.emit(prog.Fence{Tags: []string{in.mn + "." + opt}})
	}
}

// amoOp is the operation of LD<op> or ST<op> on size bytes, and the
// ordering suffix after it.
func (a *a64Thread) amoOp(mn string, size int) (func(old, v prog.Expr) prog.Expr, string, bool) {
	op, rest, ok := a64AMOOp(mn)
	if !ok {
		return nil, "", false
	}
	if a64MinMaxOps[op] {
		return a64MinMax(op, size), rest, true
	}
	return a64AMOOps[op], rest, true
}

// alu is ADD, SUB, EOR, AND, ORR Rd,Rn,Rm|#imm[,extend|LSL #k].
func (a *a64Thread) alu(in armInstr, op prog.Op) { a.aluWith(in, op, false) }

// aluWith is alu, with the second operand inverted for ORN, BIC and EON
// (whose W forms keep the low 32 bits of the result).
func (a *a64Thread) aluWith(in armInstr, op prog.Op, invert bool) {
	if len(in.ops) != 3 && len(in.ops) != 4 {
		a.errorf(in.mnPos, "%s takes 3 operands, found %d", in.mn, len(in.ops))
		return
	}
	if !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isRegOrImm(in, 2) {
		return
	}
	rhs, ok := a.operand2(in, 2, op == prog.OpAdd || op == prog.OpSub)
	if !ok {
		return
	}
	if invert {
		a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Bin{Op: op, X: a.value(in.ops[1]), Y: prog.Un{Op: prog.OpBNot, X: rhs}}))
		return
	}
	a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Bin{Op: op, X: a.value(in.ops[1]), Y: rhs}))
}

// a64Neg is -e, a constant folded.
func a64Neg(e prog.Expr) prog.Expr {
	if c, ok := e.(prog.Const); ok && !c.V.IsAddr() {
		return prog.Int(-c.V.Int)
	}
	return prog.Un{Op: prog.OpNeg, X: e}
}

// cond is a condition operand (EQ, NE, LT, LE, GT, GE) as 0 or 1 from
// the flags CMP left.
func (a *a64Thread) cond(op armOp) (prog.Expr, bool) {
	if op.kind == armSym {
		if o, ok := a64Conds[strings.ToUpper(op.name)]; ok {
			return a.cmpCond(strings.ToUpper(op.name), o), true
		}
		if a64ExtConds[strings.ToUpper(op.name)] {
			return a.extCond(strings.ToUpper(op.name)), true
		}
	}
	a.errorf(op.pos, "unknown AArch64 condition %q", op.name)
	return nil, false
}

// assign writes a register; writes to the zero register vanish.
func (a *a64Thread) assign(dst string, v prog.Expr) {
	if dst != "" {
		a.emit(prog.Assign{Dst: dst, Val: v})
	}
}

// value is the expression of a register or immediate operand.
func (a *a64Thread) value(op armOp) prog.Expr {
	if op.kind == armImm {
		return prog.Int(op.imm)
	}
	if op.reg == "" {
		return prog.Int(0)
	}
	return a64RegExpr(op.reg)
}

// a64Writeback is the base register update of a pre- or post-indexed
// access: an ordinary register write, before the access (pre) or after
// it.
type a64Writeback struct {
	pre    bool
	update prog.Instr // nil: no writeback
}

// a64WritebackForms are the instructions with pre- and post-indexed
// forms (after the B and H suffixes are removed).
var a64WritebackForms = map[string]bool{"LDR": true, "STR": true, "LDRSB": true, "LDRSH": true, "LDRSW": true, "LDP": true, "STP": true}

// writeback reads the pre-indexed [Xn,#imm]! and post-indexed [Xn],#imm
// addressing modes: in is returned with the access at Xn (the update
// comes before it) or with the offset operand removed (the update comes
// after it).
func (a *a64Thread) writeback(in armInstr, mn string) (armInstr, a64Writeback, bool) {
	var wb a64Writeback
	for i, op := range in.ops {
		if op.kind != armMem {
			continue
		}
		post := i == len(in.ops)-2 && in.ops[i+1].kind == armImm
		if !op.pre && !post {
			continue
		}
		mode := "post-indexed"
		if op.pre {
			mode = "pre-indexed"
		}
		switch {
		case !a64WritebackForms[mn]:
			a.errorf(op.pos, "unsupported AArch64 addressing mode: %s %s (only LDR, STR, their B, H and sign-extending forms, LDP and STP have it)", mode, in.mn)
			return in, wb, false
		case op.pre && post:
			a.errorf(in.ops[i+1].pos, "%s: both pre- and post-indexed", in.mn)
			return in, wb, false
		case post && op.index:
			a.errorf(op.pos, "post-indexed memory operand of %s takes no offset inside the brackets", in.mn)
			return in, wb, false
		}
		for j, r := range in.ops {
			if j != i && r.kind == armReg && r.reg == op.base {
				a.errorf(r.pos, "unsupported AArch64 instruction %s: a %s access whose register is its base register %s (CONSTRAINED UNPREDICTABLE)", in.mn, mode, op.base)
				return in, wb, false
			}
		}
		ops := append([]armOp(nil), in.ops...)
		base := prog.Reg{Name: op.base}
		if op.pre {
			wb = a64Writeback{pre: true, update: prog.Assign{Dst: op.base, Val: prog.Bin{Op: prog.OpAdd, X: base, Y: prog.Int(op.off)}}}
			ops[i].addr, ops[i].pre, ops[i].index = base, false, false
		} else {
			wb = a64Writeback{update: prog.Assign{Dst: op.base, Val: prog.Bin{Op: prog.OpAdd, X: base, Y: prog.Int(in.ops[i+1].imm)}}}
			ops = ops[:i+1]
		}
		in.ops = ops
		return in, wb, true
	}
	return in, wb, true
}

// pair translates LDP, STP, LDNP and STNP Rt1,Rt2,[addr] as herd7 does
// outside exclusives: two single-copy-atomic accesses, Rt1 at addr and
// Rt2 at addr plus the register width (a location too small for both is
// refused by the mixed-size lowering); false when mn is none of them.
func (a *a64Thread) pair(in armInstr, mn string) bool {
	var tags []string
	switch mn {
	case "LDP", "STP", "LDNP", "STNP":
	case "LDIAPP":
		// FEAT_LRCPC3's ordered pairs: two accesses, each with the
		// ordering of LDAPR (LDIAPP) or STLR (STILP), the first
		// register's, at the lower address, first in program order; so
		// the load of Rt1 is ordered before that of Rt2, and the store
		// of Rt1 before that of Rt2 (herd's readers-guide catalogue:
		// MP+dmb.st+LDIAPP and MP+STILP+dmb.ld are Forbidden).
		tags = []string{TagA64AcquirePC}
	case "STILP":
		tags = []string{TagA64Release}
	default:
		return false
	}
	if !a.arity(in, 3) || !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isMem(in, 2) {
		return true
	}
	if in.ops[0].wide != in.ops[1].wide {
		a.errorf(in.ops[1].pos, "%s needs two registers of the same width", in.mn)
		return true
	}
	if tags != nil && in.ops[2].index {
		a.errorf(in.ops[2].pos, "unsupported AArch64 addressing mode: %s takes [Xn] only (its writeback forms are not modelled)", in.mn)
		return true
	}
	w := a.width(in, 0, 0)
	addrs := []prog.Expr{in.ops[2].addr, prog.Bin{Op: prog.OpAdd, X: in.ops[2].addr, Y: prog.Int(int64(w))}}
	for i, addr := range addrs {
		if mn[0] == 'L' {
			a.emitAccess(w, prog.Load{Dst: in.ops[i].reg, Addr: addr, Tags: tags})
		} else {
			a.emitAccess(w, prog.Store{Addr: addr, Val: a.value(in.ops[i]), Tags: tags})
		}
	}
	return true
}

// operand2 is the value of the flexible second operand in.ops[i]: a
// register or an immediate, with the shift or extension in.ops[i+1] if
// the instruction has one. addSub allows ADD and SUB's shifted immediate
// (#imm, LSL #12); false (reported) for an operand the instruction
// cannot take.
func (a *a64Thread) operand2(in armInstr, i int, addSub bool) (prog.Expr, bool) {
	rhs := a.value(in.ops[i])
	if len(in.ops) <= i+1 {
		return rhs, true
	}
	ext := in.ops[i+1]
	switch {
	case in.ops[i].kind == armImm && ext.kind == armShift && ext.name == "LSL" && (ext.imm == 0 || ext.imm == 12) && addSub:
		// ADD and SUB's shifted immediate: #imm, LSL #12.
		rhs = prog.Int(in.ops[i].imm << ext.imm)
	case in.ops[i].kind != armReg:
		a.errorf(ext.pos, "%s: a shift or extension needs a register operand", in.mn)
		return nil, false
	case ext.kind == armSym && (strings.EqualFold(ext.name, "SXTW") || strings.EqualFold(ext.name, "UXTW") || strings.EqualFold(ext.name, "SXTX") || strings.EqualFold(ext.name, "UXTX")):
		// The register's low word, sign- or zero-extended (it was
		// taken whole); the X forms take it whole.
		switch strings.ToUpper(ext.name) {
		case "SXTW":
			rhs = a64Sext(rhs, 32)
		case "UXTW":
			rhs = a64Zext32(rhs)
		}
	case ext.kind == armShift && ext.name != "LSL":
		// A shifted register: LSR, ASR or ROR by a constant, at
		// the instruction's width.
		rhs = a.shift(ext.name, in.ops[0].wide, rhs, prog.Int(ext.imm))
	case ext.kind == armShift:
		if ext.imm != 0 {
			rhs = prog.Bin{Op: prog.OpShl, X: rhs, Y: prog.Int(ext.imm)}
		}
	default:
		a.errorf(ext.pos, "unsupported operand of %s", in.mn)
		return nil, false
	}
	return rhs, true
}

// flagOperands checks the operands of a flag-setting instruction whose
// first n operands are registers and whose next is the flexible second
// operand (with an optional shift or extension), and returns that
// operand's value; false (reported) otherwise.
func (a *a64Thread) flagOperands(in armInstr, n int) (prog.Expr, bool) {
	if len(in.ops) != n+1 && len(in.ops) != n+2 {
		a.errorf(in.mnPos, "%s takes %d operands, found %d", in.mn, n+1, len(in.ops))
		return nil, false
	}
	for i := 0; i < n; i++ {
		if !a.isReg(in, i) {
			return nil, false
		}
	}
	if !a.isRegOrImm(in, n) {
		return nil, false
	}
	return a.operand2(in, n, true)
}
