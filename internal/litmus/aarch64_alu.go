package litmus

// The less common AArch64 data-processing instructions (shifts, bitwise
// with an inverted operand, bit-field extracts, extensions, multiply and
// divide), the sign-extending loads and the atomic minimum and maximum.
// Values are 64-bit two's complement; an instruction whose destination is
// a W register leaves the low 32 bits of its result, zero-extended, as the
// Arm Architecture Reference Manual says of every write to a W register.

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

const a64Mask32 = 0xffffffff

func a64Bin(op prog.Op, x, y prog.Expr) prog.Expr { return prog.Bin{Op: op, X: x, Y: y} }

// a64Zext32 is the low 32 bits of e, zero-extended (a constant folded).
// a64DropMasks removes it where the operand provably fits.
func a64Zext32(e prog.Expr) prog.Expr {
	if c, ok := e.(prog.Const); ok && !c.V.IsAddr() {
		return prog.Int(c.V.Int & a64Mask32)
	}
	return a64Bin(prog.OpAnd, e, prog.Int(a64Mask32))
}

// a64Sext is the low bits bits of e, sign-extended to 64 bits: e moved
// to the top and arithmetically shifted back.
func a64Sext(e prog.Expr, bits int64) prog.Expr {
	if bits >= 64 {
		return e
	}
	if c, ok := e.(prog.Const); ok && !c.V.IsAddr() {
		return prog.Int(c.V.Int << (64 - bits) >> (64 - bits))
	}
	s := prog.Int(64 - bits)
	return a64Bin(prog.OpShr, a64Bin(prog.OpShl, e, s), s)
}

// a64ULt is the unsigned order of two 64-bit values, in linear
// arithmetic: x <u y when x is non-negative and y negative, or both have
// the same sign and x < y.
func a64ULt(x, y prog.Expr) prog.Expr {
	xn, yn := a64Bin(prog.OpLt, x, prog.Int(0)), a64Bin(prog.OpLt, y, prog.Int(0))
	return a64Bin(prog.OpLOr, a64Bin(prog.OpLAnd, prog.Un{Op: prog.OpNot, X: xn}, yn),
		a64Bin(prog.OpLAnd, a64Bin(prog.OpEq, xn, yn), a64Bin(prog.OpLt, x, y)))
}

// a64Result is the value a write of e to the register of operand op
// leaves: e itself for an X register, its low 32 bits zero-extended for a
// W one (the Arm ARM: a write to Wn clears bits 63:32 of Xn).
func a64Result(op armOp, e prog.Expr) prog.Expr {
	if op.wide {
		return e
	}
	return a64Zext32(e)
}

// cmpOperands is the pair %cmpL, %cmpR that CMP (add false) or CMN (add
// true) of x and y leaves, at the width of operand op. On X registers
// it is x and y, or x and -y. On W registers the conditions read the low
// 32 bits: a thread that reads a signed condition (LT, LE, GT, GE)
// compares them sign-extended (CMN: x against the negated sign-extended
// y, whose sum then has the sign the flags give it); one that reads only
// EQ, NE and the conditions of aarch64_nzcv.go compares them
// zero-extended (CMN: x against the low 32 bits of -y), which is equal
// exactly when the low words are and needs no extension at all when the
// values are known to fit in 32 bits (aarch64_masks.go).
func (a *a64Thread) cmpOperands(op armOp, x, y prog.Expr, add bool) (prog.Expr, prog.Expr) {
	switch {
	case op.wide && add:
		return x, a64Neg(y)
	case op.wide:
		return x, y
	case a.signed && add:
		return a64Sext(x, 32), a64Neg(a64Sext(y, 32))
	case a.signed:
		return a64Sext(x, 32), a64Sext(y, 32)
	case add:
		return a64Zext32(x), a64Zext32(a64Neg(y))
	}
	return a64Zext32(x), a64Zext32(y)
}

// readsSignedCond tells whether instruction in reads LT, LE, GT or GE.
func readsSignedCond(in armInstr) bool {
	signed := func(c string) bool {
		switch strings.ToUpper(c) {
		case "LT", "LE", "GT", "GE":
			return true
		}
		return false
	}
	if strings.HasPrefix(in.mn, "B.") {
		return signed(in.mn[2:])
	}
	switch in.mn {
	case "CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM":
		if n := len(in.ops); n > 0 && in.ops[n-1].kind == armSym {
			return signed(in.ops[n-1].name)
		}
	}
	return false
}

// a64LogicalShr is the logical right shift of the 64-bit x by n (0..63):
// the arithmetic shift with the n top bits cleared.
func a64LogicalShr(x, n prog.Expr) prog.Expr {
	// ((MinInt64 >> n) << 1) has exactly the n top bits set (none for n = 0).
	top := a64Bin(prog.OpShl, a64Bin(prog.OpShr, prog.Int(-1<<63), n), prog.Int(1))
	return a64Bin(prog.OpAnd, a64Bin(prog.OpShr, x, n), prog.Un{Op: prog.OpBNot, X: top})
}

// a64InvALU are the bitwise instructions whose second operand is
// inverted: ORN, BIC, EON.
var a64InvALU = map[string]prog.Op{"ORN": prog.OpOr, "BIC": prog.OpAnd, "EON": prog.OpXor}

// a64SignedLoads are the sign-extending loads: the size of the access
// and the plain load they are.
var a64SignedLoads = map[string]struct {
	size int
	base string
}{
	"LDRSB": {1, "LDR"}, "LDRSH": {2, "LDR"}, "LDRSW": {4, "LDR"},
	"LDURSB": {1, "LDUR"}, "LDURSH": {2, "LDUR"}, "LDURSW": {4, "LDUR"},
}

// dataProc translates the instructions of this file but the atomics;
// false when mn is none of them.
func (a *a64Thread) dataProc(in armInstr, mn string) bool {
	if op, ok := a64InvALU[mn]; ok {
		a.aluWith(in, op, true)
		return true
	}
	if s, ok := a64SignedLoads[mn]; ok {
		if a.arity(in, 2) && a.isReg(in, 0) && a.isMem(in, 1) {
			a.emitAccess(s.size, prog.Load{Dst: in.ops[0].reg, Addr: in.ops[1].addr, Tags: a64Loads[s.base]})
			if in.ops[0].reg != "" {
				a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Sext(prog.Reg{Name: in.ops[0].reg}, int64(8*s.size))))
			}
		}
		return true
	}
	switch mn {
	case "LSR", "ASR", "ROR", "LSRV", "ASRV", "RORV":
		// The V forms are the register forms' own names.
		if a.arity(in, 3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isRegOrImm(in, 2) {
			a.assign(in.ops[0].reg, a.shift(mn[:3], in.ops[0].wide, a.value(in.ops[1]), a.value(in.ops[2])))
		}
		return true
	case "EXTR":
		a.extract(in)
		return true
	case "MVN":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isReg(in, 1) {
			a.assign(in.ops[0].reg, a64Result(in.ops[0], prog.Un{Op: prog.OpBNot, X: a.value(in.ops[1])}))
		}
		return true
	case "MOVN":
		if k, ok := a.moveWide(in, mn, true); ok {
			v := ^(in.ops[1].imm << k)
			if !in.ops[0].wide {
				v &= a64Mask32
			}
			a.assign(in.ops[0].reg, prog.Int(v))
		}
		return true
	case "UBFX", "SBFX":
		a.bitfield(in, mn)
		return true
	case "UBFM", "SBFM", "UBFIZ", "SBFIZ":
		a.bitfieldMove(in, mn)
		return true
	case "SXTB", "SXTH", "SXTW", "UXTB", "UXTH":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isReg(in, 1) {
			bits := map[byte]int64{'B': 8, 'H': 16, 'W': 32}[mn[3]]
			x := a.value(in.ops[1])
			if mn[0] == 'S' {
				a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Sext(x, bits)))
			} else {
				a.assign(in.ops[0].reg, a64Bin(prog.OpAnd, x, prog.Int(int64(1)<<bits-1)))
			}
		}
		return true
	case "MUL", "MNEG":
		if a.arity(in, 3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isReg(in, 2) {
			v := a64Bin(prog.OpMul, a.value(in.ops[1]), a.value(in.ops[2]))
			if mn == "MNEG" {
				v = prog.Un{Op: prog.OpNeg, X: v}
			}
			a.assign(in.ops[0].reg, a64Result(in.ops[0], v))
		}
		return true
	case "MADD", "MSUB":
		if a.arity(in, 4) && a.isReg(in, 0) && a.isReg(in, 1) && a.isReg(in, 2) && a.isReg(in, 3) {
			op := prog.OpAdd
			if mn == "MSUB" {
				op = prog.OpSub
			}
			v := a64Bin(op, a.value(in.ops[3]), a64Bin(prog.OpMul, a.value(in.ops[1]), a.value(in.ops[2])))
			a.assign(in.ops[0].reg, a64Result(in.ops[0], v))
		}
		return true
	case "SDIV", "UDIV":
		a.divide(in, mn)
		return true
	}
	return false
}

// shift is LSR, ASR or ROR of x by n, on 64 or 32 bits; the amount is
// taken modulo the width, as the register forms do.
func (a *a64Thread) shift(mn string, wide bool, x, n prog.Expr) prog.Expr {
	width := int64(32)
	if wide {
		width = 64
	}
	n = a64Bin(prog.OpAnd, n, prog.Int(width-1))
	if !wide {
		// On 32 bits: the operand zero-extended (LSR, ROR) or
		// sign-extended (ASR), shifted on 64 bits, the low 32 bits kept.
		switch mn {
		case "LSR":
			return a64Bin(prog.OpShr, a64Zext32(x), n)
		case "ASR":
			return a64Zext32(a64Bin(prog.OpShr, a64Sext(x, 32), n))
		}
		z := a64Zext32(x)
		back := a64Bin(prog.OpAnd, a64Bin(prog.OpSub, prog.Int(32), n), prog.Int(31))
		return a64Zext32(a64Bin(prog.OpOr, a64Bin(prog.OpShr, z, n), a64Bin(prog.OpShl, z, back)))
	}
	switch mn {
	case "LSR":
		return a64LogicalShr(x, n)
	case "ASR":
		return a64Bin(prog.OpShr, x, n)
	}
	// ROR: x >>> n | x << (64-n); the left part is x itself shifted by 0
	// when n is 0, which the OR with x >>> 0 = x leaves unchanged.
	back := a64Bin(prog.OpAnd, a64Bin(prog.OpSub, prog.Int(64), n), prog.Int(63))
	return a64Bin(prog.OpOr, a64LogicalShr(x, n), a64Bin(prog.OpShl, x, back))
}

// extract is EXTR Rd,Rn,Rm,#lsb: bits lsb.. of the concatenation Rn:Rm,
// as wide as the register (ROR Rd,Rs,#lsb is EXTR Rd,Rs,Rs,#lsb).
func (a *a64Thread) extract(in armInstr) {
	if !a.arity(in, 4) || !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isReg(in, 2) {
		return
	}
	width := int64(32)
	if in.ops[0].wide {
		width = 64
	}
	lsb := in.ops[3]
	if lsb.kind != armImm || lsb.imm < 0 || lsb.imm >= width {
		a.errorf(lsb.pos, "EXTR takes Rd,Rn,Rm,#lsb with 0 <= lsb < %d", width)
		return
	}
	hi, lo := a.value(in.ops[1]), a.value(in.ops[2])
	if lsb.imm == 0 {
		a.assign(in.ops[0].reg, a64Result(in.ops[0], lo))
		return
	}
	n := prog.Int(lsb.imm)
	if width == 32 {
		v := a64Bin(prog.OpOr, a64Bin(prog.OpShr, a64Zext32(lo), n), a64Bin(prog.OpShl, a64Zext32(hi), prog.Int(32-lsb.imm)))
		a.assign(in.ops[0].reg, a64Zext32(v))
		return
	}
	a.assign(in.ops[0].reg, a64Bin(prog.OpOr, a64LogicalShr(lo, n), a64Bin(prog.OpShl, hi, prog.Int(64-lsb.imm))))
}

// bitfield is UBFX and SBFX Rd,Rn,#lsb,#width.
func (a *a64Thread) bitfield(in armInstr, mn string) {
	if !a.arity(in, 4) || !a.isReg(in, 0) || !a.isReg(in, 1) {
		return
	}
	regBits := int64(32)
	if in.ops[0].wide {
		regBits = 64
	}
	lsb, width := in.ops[2], in.ops[3]
	if lsb.kind != armImm || width.kind != armImm || lsb.imm < 0 || width.imm < 1 || lsb.imm+width.imm > regBits {
		a.errorf(lsb.pos, "%s takes Rd,Rn,#lsb,#width with 0 <= lsb, 1 <= width and lsb+width <= %d", mn, regBits)
		return
	}
	x := a.value(in.ops[1])
	if mn == "SBFX" {
		// The field moved to the top, arithmetically shifted back down.
		up := a64Bin(prog.OpShl, x, prog.Int(64-lsb.imm-width.imm))
		a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Bin(prog.OpShr, up, prog.Int(64-width.imm))))
		return
	}
	v := a64Bin(prog.OpShr, x, prog.Int(lsb.imm))
	if width.imm < 64 {
		v = a64Bin(prog.OpAnd, v, prog.Int(int64(1)<<width.imm-1))
	}
	a.assign(in.ops[0].reg, v)
}

// bitfieldMove is UBFM and SBFM Rd,Rn,#immr,#imms, and their aliases
// UBFIZ and SBFIZ Rd,Rn,#lsb,#width. With imms >= immr, UBFM and SBFM
// extract bits immr..imms to the bottom (UBFX, SBFX); otherwise they
// move bits 0..imms up to bit datasize-immr, the bits below zero
// (UBFIZ, SBFIZ, which is UBFM with immr = -lsb mod datasize and imms =
// width-1). SBFM sign-extends the field from its top bit.
func (a *a64Thread) bitfieldMove(in armInstr, mn string) {
	if !a.arity(in, 4) || !a.isReg(in, 0) || !a.isReg(in, 1) {
		return
	}
	regBits := int64(32)
	if in.ops[0].wide {
		regBits = 64
	}
	p, q := in.ops[2], in.ops[3]
	if p.kind != armImm || q.kind != armImm || p.imm < 0 || q.imm < 0 || p.imm >= regBits || q.imm >= regBits+btoi64(mn[3] == 'I') {
		a.errorf(p.pos, "%s takes Rd,Rn,#%s,#%s within the register's %d bits", mn, map[bool]string{true: "lsb", false: "immr"}[mn[3] == 'I'], map[bool]string{true: "width", false: "imms"}[mn[3] == 'I'], regBits)
		return
	}
	immr, imms := p.imm, q.imm
	if mn[3] == 'I' {
		// UBFIZ/SBFIZ #lsb,#width
		if q.imm < 1 || p.imm+q.imm > regBits {
			a.errorf(p.pos, "%s takes Rd,Rn,#lsb,#width with 1 <= width and lsb+width <= %d", mn, regBits)
			return
		}
		immr, imms = (regBits-p.imm)%regBits, q.imm-1
	}
	signed := mn[0] == 'S'
	x := a.value(in.ops[1])
	if imms >= immr {
		width := imms - immr + 1
		if signed {
			up := a64Bin(prog.OpShl, x, prog.Int(64-immr-width))
			a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Bin(prog.OpShr, up, prog.Int(64-width))))
			return
		}
		v := a64Bin(prog.OpShr, x, prog.Int(immr))
		if width < 64 {
			v = a64Bin(prog.OpAnd, v, prog.Int(int64(1)<<width-1))
		}
		a.assign(in.ops[0].reg, v)
		return
	}
	width, shift := imms+1, regBits-immr
	var field prog.Expr
	if signed {
		field = a64Sext(x, width)
	} else {
		field = a64Bin(prog.OpAnd, x, prog.Int(int64(1)<<width-1))
	}
	a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Bin(prog.OpShl, field, prog.Int(shift))))
}

func btoi64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// divide is SDIV and UDIV Rd,Rn,Rm: the quotient rounded towards zero,
// and 0 for a division by zero (the architecture raises no exception).
// UDIV on X registers reads its operands as signed values: a 64-bit
// operand of 2^63 or more is not supported (such values do not occur in
// litmus tests, whose values are small).
func (a *a64Thread) divide(in armInstr, mn string) {
	if !a.arity(in, 3) || !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isReg(in, 2) {
		return
	}
	x, y := a.value(in.ops[1]), a.value(in.ops[2])
	switch {
	case !in.ops[0].wide && mn == "UDIV":
		x, y = a64Zext32(x), a64Zext32(y)
	case !in.ops[0].wide:
		x, y = a64Sext(x, 32), a64Sext(y, 32)
	}
	// (y != 0) * (x / (y + (y == 0))): never a division by zero.
	nz := a64Bin(prog.OpNe, y, prog.Int(0))
	q := a64Bin(prog.OpDiv, x, a64Bin(prog.OpAdd, y, a64Bin(prog.OpEq, y, prog.Int(0))))
	a.assign(in.ops[0].reg, a64Result(in.ops[0], a64Bin(prog.OpMul, nz, q)))
}

// a64MinMax are the operations of LD<op> and ST<op> for the atomic
// minimum and maximum: new value from the old one and the operand, on
// size bytes.
func a64MinMax(op string, size int) func(old, v prog.Expr) prog.Expr {
	return func(old, v prog.Expr) prog.Expr {
		bits := int64(8 * size)
		x, y := old, v
		switch op[0] {
		case 'S':
			x, y = a64Sext(old, bits), a64Sext(v, bits)
		case 'U':
			if bits < 64 {
				m := prog.Int(int64(1)<<bits - 1)
				x, y = a64Bin(prog.OpAnd, old, m), a64Bin(prog.OpAnd, v, m)
			}
		}
		// MAX keeps old when old > v, MIN when old < v.
		var keepOld prog.Expr
		switch {
		case op == "UMAX" && bits == 64:
			keepOld = a64ULt(y, x)
		case op == "UMIN" && bits == 64:
			keepOld = a64ULt(x, y)
		case op[1:] == "MAX":
			keepOld = a64Bin(prog.OpGt, x, y)
		default:
			keepOld = a64Bin(prog.OpLt, x, y)
		}
		// keepOld ? old : v, as data: v ^ ((old ^ v) & -keepOld), bitwise
		// (a product with keepOld would be non-linear for the SMT engine).
		keep := prog.Un{Op: prog.OpNeg, X: keepOld}
		return a64Bin(prog.OpXor, v, a64Bin(prog.OpAnd, a64Bin(prog.OpXor, old, v), keep))
	}
}
