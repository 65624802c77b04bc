package cfront

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the LLVM intrinsics, the allocator and the library
// functions without a memory event.

// noEvent lowers a call with no memory event: debug and lifetime
// intrinsics, destructors, output (not modelled), yields and sleeps, and
// free (which never reuses an object). Its result, if used, is 0.
func (l *lowerer) noEvent(cs *callSite) error {
	cs.returnZero()
	return nil
}

// expect lowers llvm.expect: its first argument.
func (l *lowerer) expect(cs *callSite) error {
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: x})
	return nil
}

// minMax lowers the integer intrinsics of -O1 (llvm.smax, smin, umax,
// umin, abs): a choice between two values.
func (l *lowerer) minMax(cs *callSite) error {
	b, name, dst := cs.fr.b, cs.name, cs.dst
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	var y prog.Expr = prog.Un{Op: prog.OpNeg, X: x}
	op := prog.OpGe // abs: x if x >= 0
	cx, cy := x, prog.Expr(prog.Int(0))
	if !strings.HasPrefix(name, "llvm.abs.") {
		if y, err = l.arg(cs, 1); err != nil {
			return err
		}
		cy = y
		if strings.Contains(name, "min.") {
			op = prog.OpLe
		}
	} else {
		y = wrap(y, intBits(cs.args[0].Type())) // -INT_MIN
	}
	var test prog.Expr = prog.Bin{Op: op, X: cx, Y: cy}
	if strings.HasPrefix(name, "llvm.u") {
		test = unsignedCmp(op, cx, cy) // canonical values, read unsigned
	}
	lt, le := l.label("sel"), l.label("sel")
	b.emit(prog.Jump{Cond: test, Target: lt})
	b.emit(prog.Assign{Dst: dst, Val: y})
	b.emit(prog.Jump{Target: le})
	b.emit(prog.Label{Name: lt})
	b.emit(prog.Assign{Dst: dst, Val: x})
	b.emit(prog.Label{Name: le})
	return nil
}

// malloc lowers malloc and calloc of a constant size: a heap object per
// call instance of the unrolled code (see expand), with a cell at every 4
// bytes; initially 0.
func (l *lowerer) malloc(cs *callSite) error {
	size := int64(-1)
	first := 0
	if cs.name == "aligned_alloc" {
		first = 1 // aligned_alloc(alignment, size): every object is aligned
	}
	if len(cs.args) == 1 || len(cs.args) == 2 {
		n := int64(1)
		for i := first; i < len(cs.args); i++ {
			x, err := l.arg(cs, i)
			if err != nil {
				return err
			}
			c, ok := x.(prog.Const)
			if !ok || c.V.IsAddr() {
				return l.errAt(cs.pos, "%s of a size that is not a constant", cs.name)
			}
			n *= c.V.Int
		}
		size = n
	}
	if size < 0 || size > maxHeapObject {
		return l.errAt(cs.pos, "%s: size %d (at most %d bytes)", cs.name, size, maxHeapObject)
	}
	l.heap = append(l.heap, size)
	cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
	return nil
}
