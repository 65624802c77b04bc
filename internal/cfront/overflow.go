package cfront

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// overflowOp lowers LLVM's arithmetic with an overflow bit
// (llvm.sadd/uadd/ssub/usub/smul/umul.with.overflow.iN), which clang
// emits for GCC's __builtin_add_overflow, __builtin_sub_overflow and
// __builtin_mul_overflow. The result is the pair { iN wrapped result,
// i1 overflow }, two registers (aggregates.go). On canonical values
// (sign-extended, intarith.go):
//   - a sum or difference overflows as a signed value when its operands'
//     signs make it leave the range: both of one sign and the result of
//     the other (sum), or the operands of different signs and the result
//     of the subtrahend's (difference); as unsigned values when the
//     wrapped sum is below an operand (a carry) or the subtrahend is
//     above the minuend (a borrow). These hold at every width up to 64.
//   - a product is computed exactly, so only where it fits in 63 bits:
//     signed operands of at most 32 bits, unsigned ones of at most 31;
//     an unsigned 32-bit product is cut into 16-bit halves (each partial
//     product fits). Wider products are refused by name.
func (l *lowerer) overflowOp(cs *callSite) error {
	a, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	c, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	w := intBits(cs.args[0].Type())
	op := strings.TrimPrefix(cs.name, "llvm.")
	op = op[:strings.Index(op, ".")]
	neg := func(x prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpLt, X: x, Y: prog.Int(0)} }
	eq := func(x, y prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpEq, X: x, Y: y} }
	ne := func(x, y prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpNe, X: x, Y: y} }
	and := func(x, y prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpLAnd, X: x, Y: y} }
	add := func(x, y prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpAdd, X: x, Y: y} }
	mul := func(x, y prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpMul, X: x, Y: y} }
	var r, ov prog.Expr
	switch op {
	case "sadd", "uadd":
		r = wrap(add(a, c), w)
		if op == "sadd" {
			ov = and(eq(neg(a), neg(c)), ne(neg(r), neg(a)))
		} else {
			ov = unsignedCmp(prog.OpLt, r, a)
		}
	case "ssub", "usub":
		r = wrap(prog.Bin{Op: prog.OpSub, X: a, Y: c}, w)
		if op == "ssub" {
			ov = and(ne(neg(a), neg(c)), eq(neg(r), neg(c)))
		} else {
			ov = unsignedCmp(prog.OpLt, a, c)
		}
	case "smul":
		if w > 32 {
			return l.errAt(cs.pos, "%s: a product with overflow of more than 32 bits (unsupported: values are kept in 64 bits)", cs.name)
		}
		p := mul(a, c)
		r = wrap(p, w)
		ov = ne(p, r)
	case "umul":
		switch {
		case w <= 31:
			p := mul(zext(a, w), zext(c, w))
			r = wrap(p, w)
			ov = ne(p, zext(r, w))
		case w == 32:
			za, zc := zext(a, w), zext(c, w)
			ah, al := floorDiv(za, 1<<16), umod(za, 1<<16)
			ch, cl := floorDiv(zc, 1<<16), umod(zc, 1<<16)
			// a*c = ah*ch*2^32 + (ah*cl + al*ch)*2^16 + al*cl.
			low := add(mul(add(mul(ah, cl), mul(al, ch)), prog.Int(1<<16)), mul(al, cl))
			r = wrap(low, w)
			ov = prog.Bin{Op: prog.OpLOr, X: and(ne(ah, prog.Int(0)), ne(ch, prog.Int(0))), Y: ne(low, zext(r, w))}
		default:
			return l.errAt(cs.pos, "%s: a product with overflow of more than 32 bits (unsupported: values are kept in 64 bits)", cs.name)
		}
	default:
		return l.errAt(cs.pos, "call to %s, which has no definition and is not supported", cs.name)
	}
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst + ".0", Val: r})
		cs.fr.b.emit(prog.Assign{Dst: cs.dst + ".1", Val: ov})
	}
	return nil
}
