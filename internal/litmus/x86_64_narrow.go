package litmus

import "github.com/musket-verify/musket/internal/prog"

// X86_64's 8- and 16-bit registers (al, ax, r8b, r8w, ...).
//
// Writing one of them changes the register's low byte or two and keeps
// its upper bits, unlike a write to a 32-bit name, which zero-extends.
// An instruction of size n (1 or 2 bytes) with register operands is
// translated on views: for each register R it names, a temporary holds
// R's low n bytes (zero-extended, as the bytes a load of n bytes gives);
// the instruction is translated by the x86 front-end on the views, with
// its immediates cut to n bytes; then each R takes its view's low n bytes
// back, its upper bits kept: R = (R &^ mask) | (view & mask). A view the
// instruction did not write gives R back unchanged, so merging every
// view is exact. The flags of a flag-setting instruction are recomputed
// on n bytes: both compared values are sign-extended from their low n
// bytes, so that equality and the signed jumps read what a byte or word
// comparison sets. CMPXCHG's accumulator is al or ax, rax's view.

// x8664FlagSetters are the instructions that set the flags.
var x8664FlagSetters = map[string]bool{
	"ADD": true, "SUB": true, "AND": true, "OR": true, "XOR": true, "INC": true, "DEC": true,
	"XADD": true, "CMPXCHG": true, "CMP": true, "TEST": true,
}

// hasRegOp tells whether in has a register operand.
func (in x86Instr) hasRegOp() bool {
	for _, op := range in.ops {
		if op.kind == opReg {
			return true
		}
	}
	return false
}

// translateNarrow translates in, of size n bytes (1 or 2), on views of
// its registers (see above).
func (x *x86Thread) translateNarrow(in x86Instr, n int) {
	x.pos = in.pos
	if in.label != "" {
		// The label comes before the views, for a jump to it reads them.
		x.emit(prog.Label{Name: in.label})
		in.label = ""
	}
	mask := int64(1)<<(8*n) - 1
	view := func(r string) string { return "%" + r + "." + itoa(n) }
	var regs []string
	seen := map[string]bool{}
	use := func(r string) {
		if !seen[r] {
			seen[r] = true
			regs = append(regs, r)
			x.emit(prog.Assign{Dst: view(r), Val: bin(prog.OpAnd, reg(r), prog.Int(mask))})
		}
	}
	ops := make([]x86Op, len(in.ops))
	for i, op := range in.ops {
		switch {
		case op.kind == opReg:
			use(op.reg)
			op.reg = view(op.reg)
		case op.kind == opImm && !op.imm.IsAddr():
			op.imm = prog.IntValue(op.imm.Int & mask)
		}
		ops[i] = op
	}
	in.ops = ops
	acc := x.acc
	if in.mn == "CMPXCHG" {
		use(acc)
		x.acc = view(acc)
	}
	x.translate(in)
	x.acc = acc
	for _, r := range regs {
		x.emit(prog.Assign{Dst: r, Val: bin(prog.OpOr,
			bin(prog.OpAnd, reg(r), prog.Int(^mask)),
			bin(prog.OpAnd, reg(view(r)), prog.Int(mask)))})
	}
	if x.flags && x8664FlagSetters[in.mn] {
		x.emit(prog.Assign{Dst: x86CmpL, Val: a64Sext(reg(x86CmpL), int64(8*n))},
			prog.Assign{Dst: x86CmpR, Val: a64Sext(reg(x86CmpR), int64(8*n))})
	}
}
