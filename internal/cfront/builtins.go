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

// loopBoundReg is the register a __VERIFIER_loop_bound(n) call sets to n:
// a mark (no event) that loopBounds reads before unrolling.
const loopBoundReg = "%loop_bound"

// loopBound lowers __VERIFIER_loop_bound(n), as Dartagnan reads it: n is
// the bound of the next loop of the thread's code (in the order of the
// inlined code), in place of -bound and with its meaning (a loop whose
// body runs k times needs k+1; at least 1).
func (l *lowerer) loopBound(cs *callSite) error {
	if len(cs.args) != 1 {
		return l.errAt(cs.pos, "%s takes one argument", cs.name)
	}
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	c, ok := x.(prog.Const)
	if !ok || c.V.IsAddr() || c.V.Int < 0 {
		return l.errAt(cs.pos, "%s of a bound that is not a non-negative constant", cs.name)
	}
	cs.fr.b.emit(prog.Assign{Dst: loopBoundReg, Val: c})
	cs.returnZero()
	return nil
}

// loopBounds adds to counts (the loops' constant trip counts) the bounds
// __VERIFIER_loop_bound gives: each mark's bound goes to the first loop
// whose header follows it in the code (a label a later jump goes back
// to). It is that loop's bound also where its trip count is known, as
// Dartagnan reads it: a bound smaller than the count stops the loop there
// (the bound is reached: no claim beyond it, BOUND); a larger one changes
// nothing, the loop is unrolled exactly.
func loopBounds(th *prog.Thread, counts map[string]int) map[string]int {
	labels, err := th.Labels()
	if err != nil {
		return counts
	}
	header := map[int]bool{}
	for j, in := range th.Code {
		if jmp, ok := in.(prog.Jump); ok {
			if h, ok := labels[jmp.Target]; ok && h <= j {
				header[h] = true
			}
		}
	}
	for i, in := range th.Code {
		a, ok := in.(prog.Assign)
		if !ok || a.Dst != loopBoundReg {
			continue
		}
		c, ok := a.Val.(prog.Const)
		if !ok {
			continue
		}
		for h := i + 1; h < len(th.Code); h++ {
			if !header[h] {
				continue
			}
			name := th.Code[h].(prog.Label).Name
			b := max(1, int(c.V.Int))
			if n, known := counts[name]; !known || b < n {
				if counts == nil {
					counts = map[string]int{}
				}
				counts[name] = b
			}
			break
		}
	}
	return counts
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
	var sizeExpr prog.Expr // a size known only once the code is unrolled
	if len(cs.args) == 1 || len(cs.args) == 2 {
		n := int64(1)
		for i := first; i < len(cs.args); i++ {
			x, err := l.arg(cs, i)
			if err != nil {
				return err
			}
			if c, ok := x.(prog.Const); ok && c.V.IsAddr() {
				return l.errAt(cs.pos, "%s of a size that is an address", cs.name)
			}
			if sizeExpr == nil {
				sizeExpr = x
			} else {
				sizeExpr = prog.Bin{Op: prog.OpMul, X: sizeExpr, Y: x}
			}
			if c, ok := x.(prog.Const); ok {
				n *= c.V.Int
			}
		}
		size = n
		if _, ok := sizeExpr.(prog.Const); ok || len(cs.args) == first {
			sizeExpr = nil
		} else if k, ok := foldConst(sizeExpr, nil); ok {
			size, sizeExpr = k, nil
		}
	}
	if cs.name != "calloc" {
		// Its contents are indeterminate until written (uninit.go).
		if l.heapRaw == nil {
			l.heapRaw = map[int]bool{}
		}
		l.heapRaw[len(l.heap)] = true
	}
	if cs.in != nil && l.charHeap(cs.fr.f, cs.in) {
		l.markHeapBytes(len(l.heap))
	}
	if sizeExpr != nil {
		// expand computes the size of each instance of the call.
		l.heap = append(l.heap, -1)
		if l.heapSize == nil {
			l.heapSize = map[int]heapSite{}
		}
		l.heapSize[len(l.heap)-1] = heapSite{size: sizeExpr, pos: cs.pos, name: cs.name}
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
		return nil
	}
	if size < 0 || size > maxHeapObject {
		// A limit of Musket (exit status 3), not an error of the program.
		return &LimitError{Msg: l.errAt(cs.pos, "%s: size %d (at most %d bytes)", cs.name, size, maxHeapObject).Error()}
	}
	l.heap = append(l.heap, size)
	cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
	return nil
}

// heapSite is a malloc call whose size is an expression of registers,
// known only once the code is unrolled.
type heapSite struct {
	size prog.Expr
	pos  prog.Pos
	name string
}
