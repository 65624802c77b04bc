package litmus

import "github.com/musket-verify/musket/internal/prog"

// RISC-V's pseudo-instructions and lui, as the RISC-V unprivileged
// specification defines them from base instructions (its "Assembly
// Programmer's Handbook" chapter): sext.w is addiw rd,rs,0; not is
// xori rd,rs,-1; neg is sub rd,x0,rs; negw is subw rd,x0,rs; seqz, snez,
// sltz and sgtz compare with zero; bgt, ble, bgtu and bleu swap the
// operands of blt, bge, bltu and bgeu; beqz's siblings blez, bgez, bltz
// and bgtz compare with zero. lui rd,imm sets rd to imm<<12, its low 32
// bits sign-extended on RV64.

// rvPseudo translates in when it is one of the above; false otherwise.
func (r *rvThread) rvPseudo(in rvInstr) bool {
	arity := func(n int) bool {
		if len(in.ops) != n {
			r.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, n, plural(n), len(in.ops))
			return false
		}
		return true
	}
	unary := func(f func(x prog.Expr) prog.Expr) {
		if arity(2) && r.isReg(in, 0) && r.isReg(in, 1) {
			r.assign(in.ops[0].reg, f(r.src(in.ops[1].reg)))
		}
	}
	zero := prog.Int(0)
	branch := func(cond func(x, y prog.Expr) prog.Expr) {
		if arity(3) && r.isReg(in, 0) && r.isReg(in, 1) && r.isLabel(in, 2) {
			r.emit(prog.Jump{Cond: cond(r.src(in.ops[0].reg), r.src(in.ops[1].reg)), Target: in.ops[2].word})
		}
	}
	branchZ := func(op prog.Op) {
		if arity(2) && r.isReg(in, 0) && r.isLabel(in, 1) {
			r.emit(prog.Jump{Cond: bin(op, r.src(in.ops[0].reg), zero), Target: in.ops[1].word})
		}
	}
	switch in.mn {
	case "sext.w":
		unary(func(x prog.Expr) prog.Expr { return a64Sext(x, 32) })
	case "not":
		unary(func(x prog.Expr) prog.Expr { return prog.Un{Op: prog.OpBNot, X: x} })
	case "neg":
		unary(func(x prog.Expr) prog.Expr { return bin(prog.OpSub, zero, x) })
	case "negw":
		unary(func(x prog.Expr) prog.Expr { return a64Sext(bin(prog.OpSub, zero, x), 32) })
	case "seqz":
		unary(func(x prog.Expr) prog.Expr { return bin(prog.OpEq, x, zero) })
	case "snez":
		unary(func(x prog.Expr) prog.Expr { return bin(prog.OpNe, x, zero) })
	case "sltz":
		unary(func(x prog.Expr) prog.Expr { return bin(prog.OpLt, x, zero) })
	case "sgtz":
		unary(func(x prog.Expr) prog.Expr { return bin(prog.OpGt, x, zero) })
	case "bgt":
		branch(func(x, y prog.Expr) prog.Expr { return bin(prog.OpGt, x, y) })
	case "ble":
		branch(func(x, y prog.Expr) prog.Expr { return bin(prog.OpLe, x, y) })
	case "bgtu":
		branch(func(x, y prog.Expr) prog.Expr { return a64ULt(y, x) })
	case "bleu":
		branch(func(x, y prog.Expr) prog.Expr { return prog.Un{Op: prog.OpNot, X: a64ULt(y, x)} })
	case "blez":
		branchZ(prog.OpLe)
	case "bgez":
		branchZ(prog.OpGe)
	case "bltz":
		branchZ(prog.OpLt)
	case "bgtz":
		branchZ(prog.OpGt)
	case "lui":
		// The 20-bit immediate (0..0xfffff), shifted into bits 12..31.
		if arity(2) && r.isReg(in, 0) && r.isImm(in, 1) {
			if imm := in.ops[1].imm; imm < 0 || imm > 0xfffff {
				r.errorf(in.mnPos, "lui's immediate %d is outside 0..0xfffff", imm)
				return true
			}
			r.assign(in.ops[0].reg, prog.Int(normInt(in.ops[1].imm<<12, 32, true)))
		}
	default:
		return false
	}
	return true
}
