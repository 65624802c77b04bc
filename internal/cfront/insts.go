package cfront

import (
	"fmt"
	"math"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file dispatches an instruction to the lowering of its class and
// lowers the register-only ones: arithmetic, comparisons, casts and
// select. Memory instructions are in memory.go, atomic ones in
// atomics.go, calls in calls.go, terminators in control.go.

// at makes pos (when it is known) the current source position and
// returns the current one.
func (b *builder) at(pos prog.Pos) prog.Pos {
	if pos.Line != 0 {
		b.cur = pos
	}
	return b.cur
}

// assign emits the assignment of e to the register of dst.
func (fr *frame) assign(dst value.Named, e prog.Expr) {
	fr.b.emit(prog.Assign{Dst: fr.reg(dst), Val: e})
}

// isAlloca tells whether in is an alloca.
func isAlloca(in ir.Instruction) bool {
	_, ok := in.(*ir.InstAlloca)
	return ok
}

// inst1 lowers one instruction.
func (l *lowerer) inst1(fr *frame, in ir.Instruction) error {
	pos := fr.b.at(l.posOf(instMD(in)))
	if ld, ok := in.(*ir.InstLoad); ok && l.posOf(instMD(in)).Line == 0 {
		if up, ok := l.userPosOf(fr.f, ld); ok {
			// A load the optimiser hoisted (userpos.go): its events
			// have its user's position, the next instructions the
			// position they had.
			saved := fr.b.cur
			pos, fr.b.cur = up, up
			defer func() { fr.b.cur = saved }()
		}
	}
	if err := wideInts(in); err != nil {
		return l.errAt(pos, "%v", err)
	}
	if v, ok := in.(value.Value); ok && !isAlloca(in) {
		if _, ok := l.lateAddr(fr, v); ok {
			// An address in a local whose lifetime a loop repeats:
			// evaluated where it is used (lifetime.go).
			return nil
		}
	}
	switch in := in.(type) {
	case *ir.InstAdd, *ir.InstSub, *ir.InstMul, *ir.InstSDiv, *ir.InstUDiv, *ir.InstSRem, *ir.InstURem,
		*ir.InstAnd, *ir.InstOr, *ir.InstXor, *ir.InstShl, *ir.InstLShr, *ir.InstAShr:
		return l.arith(fr, in, pos)
	case *ir.InstICmp:
		return l.icmp(fr, in, pos)
	case *ir.InstZExt, *ir.InstSExt, *ir.InstTrunc, *ir.InstBitCast, *ir.InstPtrToInt, *ir.InstIntToPtr,
		*ir.InstAddrSpaceCast, *ir.InstFreeze:
		return l.cast(fr, in, pos)
	case *ir.InstSelect:
		return l.selectInst(fr, in, pos)
	case *ir.InstGetElementPtr:
		return l.gep(fr, in, pos)
	case *ir.InstAlloca:
		return l.alloca(fr, in, pos)
	case *ir.InstLoad:
		return l.load(fr, in, pos)
	case *ir.InstStore:
		return l.store(fr, in, pos)
	case *ir.InstCmpXchg:
		return l.cmpxchg(fr, in, pos)
	case *ir.InstAtomicRMW:
		return l.atomicRMW(fr, in, pos)
	case *ir.InstFence:
		return l.fence(fr, in)
	case *ir.InstExtractValue:
		return l.extractValue(fr, in, pos)
	case *ir.InstInsertValue:
		return l.insertValue(fr, in, pos)
	case *ir.InstPhi:
		return nil // assigned on the edges into the block (see term)
	case *ir.InstCall:
		return l.call(fr, in, pos)
	}
	return l.errAt(pos, "unsupported LLVM instruction %s", instName(in))
}

// binary assigns x o y to dst; unsigned operands are zero-extended from
// their width first.
func (l *lowerer) binary(fr *frame, dst value.Named, o prog.Op, x, y value.Value, unsigned bool, pos prog.Pos) error {
	a, err := l.operand(fr, x, pos)
	if err != nil {
		return err
	}
	c, err := l.operand(fr, y, pos)
	if err != nil {
		return err
	}
	if unsigned {
		bits := intBits(x.Type())
		a, c = zext(a, bits), zext(c, bits)
	}
	if o == prog.OpAnd {
		if e, ok := andConst(a, c); ok {
			fr.assign(dst, e)
			return nil
		}
		if e, ok := andConst(c, a); ok {
			fr.assign(dst, e)
			return nil
		}
	}
	fr.assign(dst, prog.Bin{Op: o, X: a, Y: c})
	return nil
}

// andConst writes x & m, for a constant mask m of at most four runs of
// 1 bits, with arithmetic: each run [lo, hi) of m keeps the bits
// (x / 2^lo mod 2^(hi-lo)) · 2^lo, and a run that goes on to the sign
// (m negative) keeps x / 2^lo · 2^lo (floor division, non-negative
// remainder: exact on negative values). The SMT engine encodes this in
// linear arithmetic, where its bit-vector & of a symbolic value with a
// negative constant was found to answer wrongly (a clang -O1 bit test
// such as x & -8380417 == 8392704).
func andConst(x, m prog.Expr) (prog.Expr, bool) {
	c, ok := m.(prog.Const)
	if !ok || c.V.IsAddr() {
		return nil, false
	}
	if _, isConst := x.(prog.Const); isConst {
		return nil, false
	}
	u := uint64(c.V.Int)
	var sum prog.Expr
	add := func(e prog.Expr) {
		if sum == nil {
			sum = e
		} else {
			sum = prog.Bin{Op: prog.OpAdd, X: sum, Y: e}
		}
	}
	runs := 0
	for lo := 0; lo < 64; {
		if u>>lo&1 == 0 {
			lo++
			continue
		}
		hi := lo
		for hi < 64 && u>>hi&1 == 1 {
			hi++
		}
		runs++
		if runs > 4 {
			return nil, false
		}
		switch {
		case hi == 64 && lo == 63: // the sign bit alone: -2^63 when x < 0
			add(prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)}, Y: prog.Int(math.MinInt64)})
		case hi == 64: // up to the sign: every higher bit
			e := x
			if lo > 0 {
				e = prog.Bin{Op: prog.OpMul, X: floorDiv(x, int64(1)<<lo), Y: prog.Int(int64(1) << lo)}
			}
			add(e)
		case hi-lo >= 63:
			return nil, false
		default:
			e := x
			if lo > 0 {
				e = floorDiv(x, int64(1)<<lo)
			}
			e = umod(e, int64(1)<<(hi-lo))
			if lo > 0 {
				e = prog.Bin{Op: prog.OpMul, X: e, Y: prog.Int(int64(1) << lo)}
			}
			add(e)
		}
		lo = hi
	}
	if sum == nil {
		return prog.Int(0), true
	}
	return sum, true
}

// arith lowers an integer arithmetic or bitwise instruction at its
// width (see intarith.go).
func (l *lowerer) arith(fr *frame, in ir.Instruction, pos prog.Pos) error {
	var k intKind
	var x, y value.Value
	var flags []enum.OverflowFlag
	switch in := in.(type) {
	case *ir.InstAdd:
		k, x, y, flags = kAdd, in.X, in.Y, in.OverflowFlags
	case *ir.InstSub:
		k, x, y, flags = kSub, in.X, in.Y, in.OverflowFlags
	case *ir.InstMul:
		k, x, y, flags = kMul, in.X, in.Y, in.OverflowFlags
	case *ir.InstShl:
		k, x, y, flags = kShl, in.X, in.Y, in.OverflowFlags
	case *ir.InstSDiv:
		k, x, y = kSDiv, in.X, in.Y
	case *ir.InstUDiv:
		k, x, y = kUDiv, in.X, in.Y
	case *ir.InstSRem:
		k, x, y = kSRem, in.X, in.Y
	case *ir.InstURem:
		k, x, y = kURem, in.X, in.Y
	case *ir.InstAnd:
		k, x, y = kAnd, in.X, in.Y
	case *ir.InstOr:
		k, x, y = kOr, in.X, in.Y
		if disjointOr(x, y) {
			k = kAdd // no bit in common: the sum (disjointor.go)
		}
	case *ir.InstXor:
		k, x, y = kXor, in.X, in.Y
	case *ir.InstLShr:
		k, x, y = kLShr, in.X, in.Y
	case *ir.InstAShr:
		k, x, y = kAShr, in.X, in.Y
	default:
		return l.errAt(pos, "unsupported LLVM instruction %s", instName(in))
	}
	if _, ok := x.Type().(*types.IntType); !ok {
		return l.errAt(pos, "%s on %s", instName(in), x.Type())
	}
	a, err := l.operand(fr, x, pos)
	if err != nil {
		return err
	}
	c, err := l.operand(fr, y, pos)
	if err != nil {
		return err
	}
	nsw := false
	for _, f := range flags {
		nsw = nsw || f == enum.OverflowFlagNSW
	}
	if k == kSDiv || k == kUDiv || k == kSRem || k == kURem {
		l.divChecks(fr, k, a, c, intBits(x.Type()), pos)
	}
	fr.assign(in.(value.Named), intArith(k, a, c, intBits(x.Type()), nsw))
	return nil
}

// divChecks makes a division by zero, and a signed division of the
// smallest value by -1 (its quotient does not fit), failures of the
// program: C11 6.5.5 leaves both undefined and x86's IDIV and DIV trap
// on them (SIGFPE: the program dies). The engines' own division gives 0
// there, which hid them (PASS). LLVM never executes a division
// speculatively unless its divisor is a constant other than 0 and -1
// (isSafeToSpeculativelyExecute), so each division here is one the
// program runs. Nothing is emitted for such a constant divisor.
func (l *lowerer) divChecks(fr *frame, k intKind, a, c prog.Expr, bits uint64, pos prog.Pos) {
	cc, isConst := c.(prog.Const)
	if isConst && cc.V.Loc == "" && cc.V.Int != 0 && (cc.V.Int != -1 || k == kUDiv || k == kURem) {
		return
	}
	b := fr.b
	ok := l.label("divok")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: c, Y: prog.Int(0)}, Target: ok})
	l.fail(b, pos, "division by zero")
	b.emit(prog.Label{Name: ok})
	if k == kUDiv || k == kURem || bits > 64 {
		return
	}
	minVal := int64(math.MinInt64)
	if bits < 64 {
		minVal = -(int64(1) << (bits - 1))
	}
	fine := l.label("divok")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLOr,
		X: prog.Bin{Op: prog.OpNe, X: c, Y: prog.Int(-1)},
		Y: prog.Bin{Op: prog.OpNe, X: a, Y: prog.Int(minVal)}}, Target: fine})
	l.fail(b, pos, "signed division overflow (the smallest value divided by -1)")
	b.emit(prog.Label{Name: fine})
}

// icmpOps are the operators of the integer comparisons (the unsigned
// ones compare zero-extended values).
var icmpOps = map[enum.IPred]prog.Op{
	enum.IPredEQ: prog.OpEq, enum.IPredNE: prog.OpNe,
	enum.IPredSGE: prog.OpGe, enum.IPredSGT: prog.OpGt, enum.IPredSLE: prog.OpLe, enum.IPredSLT: prog.OpLt,
	enum.IPredUGE: prog.OpGe, enum.IPredUGT: prog.OpGt, enum.IPredULE: prog.OpLe, enum.IPredULT: prog.OpLt,
}

// icmp lowers an integer or pointer comparison.
func (l *lowerer) icmp(fr *frame, in *ir.InstICmp, pos prog.Pos) error {
	o, ok := icmpOps[in.Pred]
	if !ok {
		return l.errAt(pos, "unsupported comparison %s", in.Pred)
	}
	unsigned := in.Pred >= enum.IPredUGE && in.Pred <= enum.IPredULT
	if _, isPtr := in.X.Type().(*types.PointerType); isPtr && o != prog.OpEq && o != prog.OpNe {
		// Compared by their offsets into one object after unrolling
		// (ptrcmp.go): unsigned and signed orders agree there.
		return l.binary(fr, in, o, in.X, in.Y, false, pos)
	}
	if !unsigned && intBits(in.X.Type()) == 1 && o != prog.OpEq && o != prog.OpNe {
		// an i1 is kept as its bit: its signed value is minus that
		a, err := l.operand(fr, in.X, pos)
		if err != nil {
			return err
		}
		c, err := l.operand(fr, in.Y, pos)
		if err != nil {
			return err
		}
		neg := func(x prog.Expr) prog.Expr { return prog.Un{Op: prog.OpNeg, X: x} }
		fr.assign(in, prog.Bin{Op: o, X: neg(a), Y: neg(c)})
		return nil
	}
	if unsigned && intBits(in.X.Type()) > 1 {
		a, err := l.operand(fr, in.X, pos)
		if err != nil {
			return err
		}
		c, err := l.operand(fr, in.Y, pos)
		if err != nil {
			return err
		}
		fr.assign(in, unsignedCmp(o, a, c))
		return nil
	}
	return l.binary(fr, in, o, in.X, in.Y, unsigned, pos)
}

// cast lowers a conversion: values are kept sign-extended (canonical, see
// intarith.go) and addresses are values, so only zext (of the source
// width) and trunc change the value.
func (l *lowerer) cast(fr *frame, in ir.Instruction, pos prog.Pos) error {
	var from value.Value
	switch in := in.(type) {
	case *ir.InstZExt:
		from = in.From
	case *ir.InstSExt:
		from = in.From
	case *ir.InstTrunc:
		from = in.From
	case *ir.InstBitCast:
		from = in.From
	case *ir.InstPtrToInt:
		from = in.From
	case *ir.InstIntToPtr:
		from = in.From
	case *ir.InstAddrSpaceCast:
		from = in.From
	case *ir.InstFreeze:
		from = in.X
	default:
		return l.errAt(pos, "unsupported LLVM instruction %s", instName(in))
	}
	x, err := l.operand(fr, from, pos)
	if err != nil {
		return err
	}
	switch in := in.(type) {
	case *ir.InstZExt:
		x = zext(x, intBits(in.From.Type()))
	case *ir.InstSExt:
		if intBits(in.From.Type()) == 1 {
			// an i1 is kept as its bit (0 or 1): true extends to -1
			x = prog.Un{Op: prog.OpNeg, X: x}
		}
	case *ir.InstTrunc:
		if intBits(in.To) == 1 {
			x = prog.Bin{Op: prog.OpAnd, X: x, Y: prog.Int(1)}
		} else {
			x = wrap(x, intBits(in.To))
		}
	}
	fr.assign(in.(value.Named), x)
	return nil
}

// selectInst lowers a select into a branch over two assignments.
func (l *lowerer) selectInst(fr *frame, in *ir.InstSelect, pos prog.Pos) error {
	b := fr.b
	c, err := l.operand(fr, in.Cond, pos)
	if err != nil {
		return err
	}
	t, err := l.operand(fr, in.ValueTrue, pos)
	if err != nil {
		return err
	}
	f, err := l.operand(fr, in.ValueFalse, pos)
	if err != nil {
		return err
	}
	lt, le := l.label("sel"), l.label("sel")
	b.emit(prog.Jump{Cond: c, Target: lt})
	fr.assign(in, f)
	b.emit(prog.Jump{Target: le})
	b.emit(prog.Label{Name: lt})
	fr.assign(in, t)
	b.emit(prog.Label{Name: le})
	return nil
}

// instMD is the metadata attached to an instruction (its !dbg location).
func instMD(in ir.Instruction) ir.Metadata {
	if m, ok := in.(interface{ MDAttachments() []*metadata.Attachment }); ok {
		return m.MDAttachments()
	}
	return nil
}

// instName is the LLVM opcode of an instruction, for messages.
func instName(in ir.Instruction) string {
	s := in.LLString()
	if i := strings.Index(s, " = "); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	return s
}

// intBits is the width of an integer type (64 for pointers and others).
func intBits(t types.Type) uint64 {
	if it, ok := t.(*types.IntType); ok {
		return it.BitSize
	}
	return 64
}

// zext is x as an unsigned N-bit value (values are kept sign-extended).
func zext(x prog.Expr, bits uint64) prog.Expr {
	if bits >= 64 || bits == 1 {
		return x
	}
	return prog.Bin{Op: prog.OpAnd, X: x, Y: prog.Int(int64(1)<<bits - 1)}
}

// unsignedCmp compares two sign-extended values as unsigned ones of their
// width, in linear arithmetic: when their signs agree, as signed values;
// else the negative one is the larger (its unsigned value is at least
// 2^(N-1)).
func unsignedCmp(o prog.Op, a, b prog.Expr) prog.Expr {
	if o == prog.OpGt || o == prog.OpGe {
		a, b = b, a
		o = map[prog.Op]prog.Op{prog.OpGt: prog.OpLt, prog.OpGe: prog.OpLe}[o]
	}
	neg := func(x prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)} }
	same := prog.Bin{Op: prog.OpEq, X: neg(a), Y: neg(b)}
	return prog.Bin{Op: prog.OpLOr,
		X: prog.Bin{Op: prog.OpLAnd, X: same, Y: prog.Bin{Op: o, X: a, Y: b}},
		Y: prog.Bin{Op: prog.OpLAnd, X: prog.Un{Op: prog.OpNot, X: same}, Y: neg(b)}}
}

// wideInts refuses an instruction that computes, reads or writes an
// integer wider than 64 bits (__int128): values are kept as 64-bit
// numbers, so such a value would lose its high bits (a silent wrong
// verdict before this check).
func wideInts(in ir.Instruction) error {
	wide := func(t types.Type) bool {
		if pt, ok := t.(*types.PointerType); ok {
			t = pt.ElemType
		}
		it, ok := t.(*types.IntType)
		return ok && it.BitSize > 64
	}
	if v, ok := in.(value.Value); ok && wide(v.Type()) {
		return fmt.Errorf("unsupported: an integer of more than 64 bits (%s, e.g. __int128, or an _Atomic object of 16 bytes, which clang accesses as one 128-bit integer): values are kept in 64 bits", v.Type())
	}
	for _, op := range in.Operands() {
		if op != nil && *op != nil && wide((*op).Type()) {
			return fmt.Errorf("unsupported: an integer of more than 64 bits (%s, e.g. __int128, or an _Atomic object of 16 bytes, which clang accesses as one 128-bit integer): values are kept in 64 bits", (*op).Type())
		}
	}
	return nil
}
