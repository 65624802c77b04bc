package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// calleeName is the name of the function a call calls ("" for an
// indirect call).
func calleeName(c *ir.InstCall) string {
	if f, ok := c.Callee.(*ir.Func); ok {
		return f.Name()
	}
	return ""
}

// nondetFuncs are the SV-COMP generators of arbitrary values.
func isNondet(name string) bool {
	return strings.HasPrefix(name, "__VERIFIER_nondet_")
}

// call lowers a call: an inlined function, a thread primitive, a
// verification primitive or an LKMM primitive; anything else is refused.
func (l *lowerer) call(fr *frame, c *ir.InstCall, pos prog.Pos) error {
	b := fr.b
	name := calleeName(c)
	args := make([]value.Value, len(c.Args))
	for i, a := range c.Args {
		if x, ok := a.(*ir.Arg); ok {
			a = x.Value
		}
		args[i] = a
	}
	arg := func(i int) (prog.Expr, error) {
		if i >= len(args) {
			return nil, l.errAt(pos, "%s: missing argument %d", name, i+1)
		}
		return l.operand(fr, args[i], pos)
	}
	dst := ""
	if !isVoid(c) {
		dst = fr.reg(c)
	}
	switch {
	case name == "":
		return l.errAt(pos, "indirect call (through a function pointer)")
	case strings.HasPrefix(name, "llvm.dbg.") || strings.HasPrefix(name, "llvm.lifetime.") || name == "llvm.assume" ||
		name == "pthread_mutex_destroy" || name == "pthread_attr_init" || name == "pthread_attr_destroy":
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case name == "pthread_create":
		f, ok := args[2].(*ir.Func)
		if !ok {
			if bc, ok2 := args[2].(*constant.ExprBitCast); ok2 {
				f, ok = bc.From.(*ir.Func)
			}
		}
		if !ok {
			return l.errAt(pos, "pthread_create: the thread function must be named directly")
		}
		if _, isNull := args[1].(*constant.Null); !isNull {
			return l.errAt(pos, "pthread_create: thread attributes (the second argument must be NULL)")
		}
		tid, err := arg(0)
		if err != nil {
			return err
		}
		a, err := arg(3)
		if err != nil {
			return err
		}
		l.sites = append(l.sites, site{fn: f, arg: a, tid: tid, pos: pos})
		b.emit(prog.Fence{Tags: []string{placeholder, fmt.Sprint(len(l.sites) - 1)}})
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case name == "pthread_join":
		if _, isNull := args[1].(*constant.Null); !isNull {
			return l.errAt(pos, "pthread_join: the thread's result (the second argument must be NULL)")
		}
		tid, err := arg(0)
		if err != nil {
			return err
		}
		l.sites = append(l.sites, site{join: true, tid: tid, pos: pos})
		b.emit(prog.Fence{Tags: []string{placeholder, fmt.Sprint(len(l.sites) - 1)}})
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case name == "pthread_mutex_init":
		m, err := arg(0)
		if err != nil {
			return err
		}
		b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: []string{tagNA}})
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case name == "pthread_mutex_trylock" || name == "pthread_spin_trylock":
		m, err := arg(0)
		if err != nil {
			return err
		}
		r := l.fresh("mtx")
		b.emit(prog.RMW{Dst: r, Addr: m, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, New: prog.Int(1),
			RTags: []string{tagA, "ACQ", tagRMW, tagX}, WTags: []string{tagA, "ACQ", tagRMW, tagX}})
		if dst != "" {
			// 0 when taken, EBUSY (16) when held.
			b.emit(prog.Assign{Dst: dst, Val: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Y: prog.Int(16)}})
		}
		return nil
	case name == "pthread_mutex_lock" || name == "pthread_mutex_unlock" || name == "pthread_spin_lock" || name == "pthread_spin_unlock":
		m, err := arg(0)
		if err != nil {
			return err
		}
		if name == "pthread_mutex_lock" || name == "pthread_spin_lock" {
			// A lock is a compare-and-swap from 0 to 1 that succeeds: a
			// failing attempt writes nothing and can be left out (the
			// spin-loop argument), so the thread waits (blocks) unless
			// it succeeds.
			r := l.fresh("mtx")
			b.emit(prog.RMW{Dst: r, Addr: m, Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: prog.Int(0)}, New: prog.Int(1),
				RTags: []string{tagA, "ACQ", tagRMW, tagX}, WTags: []string{tagA, "ACQ", tagRMW, tagX}})
			site := spinSite{pos: pos, real: true}
			site.add(r, m)
			l.spinAt(b, site)
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Target: spinLabel})
		} else {
			b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: []string{tagA, "REL"}})
		}
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case name == "__assert_fail":
		text := "assertion"
		if len(args) > 0 {
			if s, ok := l.constString(args[0]); ok {
				text = "assertion " + s
			}
		}
		l.fail(b, pos, text)
		return nil
	case name == "reach_error":
		l.fail(b, pos, "reach_error()")
		return nil
	case name == "__VERIFIER_error":
		l.fail(b, pos, "__VERIFIER_error()")
		return nil
	case name == "__VERIFIER_assert" || name == "__VERIFIER_assume":
		x, err := arg(0)
		if err != nil {
			return err
		}
		ok := l.label("ok")
		b.emit(prog.Jump{Cond: x, Target: ok})
		if name == "__VERIFIER_assert" {
			l.fail(b, pos, "__VERIFIER_assert")
		} else {
			b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
			b.emit(prog.Jump{Target: blockLabel})
		}
		b.emit(prog.Label{Name: ok})
		return nil
	case name == "abort" || name == "exit" || name == "_Exit":
		b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
		b.emit(prog.Jump{Target: blockLabel})
		return nil
	case isNondet(name):
		if dst == "" {
			return nil
		}
		b.emit(prog.Havoc{Dst: dst})
		if strings.HasSuffix(name, "_bool") {
			b.emit(prog.Assign{Dst: dst, Val: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: dst}, Y: prog.Int(0)}})
		}
		return nil
	case strings.HasPrefix(name, "llvm.expect."):
		x, err := arg(0)
		if err != nil {
			return err
		}
		b.emit(prog.Assign{Dst: dst, Val: x})
		return nil
	case strings.HasPrefix(name, "llvm.smax.") || strings.HasPrefix(name, "llvm.smin.") ||
		strings.HasPrefix(name, "llvm.umax.") || strings.HasPrefix(name, "llvm.umin.") || strings.HasPrefix(name, "llvm.abs."):
		// Integer intrinsics of -O1: a choice between two values.
		x, err := arg(0)
		if err != nil {
			return err
		}
		var y prog.Expr = prog.Un{Op: prog.OpNeg, X: x}
		op := prog.OpGe // abs: x if x >= 0
		cx, cy := x, prog.Expr(prog.Int(0))
		if !strings.HasPrefix(name, "llvm.abs.") {
			if y, err = arg(1); err != nil {
				return err
			}
			cy = y
			bits := intBits(args[0].Type())
			if strings.HasPrefix(name, "llvm.u") {
				cx, cy = zext(x, bits), zext(y, bits)
			}
			if strings.Contains(name, "min.") {
				op = prog.OpLe
			}
		}
		lt, le := l.label("sel"), l.label("sel")
		b.emit(prog.Jump{Cond: prog.Bin{Op: op, X: cx, Y: cy}, Target: lt})
		b.emit(prog.Assign{Dst: dst, Val: y})
		b.emit(prog.Jump{Target: le})
		b.emit(prog.Label{Name: lt})
		b.emit(prog.Assign{Dst: dst, Val: x})
		b.emit(prog.Label{Name: le})
		return nil
	case name == "malloc" || name == "calloc":
		// A heap object per call instance of the unrolled code (see
		// expand), with a cell at every 4 bytes; initially 0.
		size := int64(-1)
		if len(args) == 1 || len(args) == 2 {
			n := int64(1)
			for i := range args {
				x, err := arg(i)
				if err != nil {
					return err
				}
				c, ok := x.(prog.Const)
				if !ok || c.V.IsAddr() {
					return l.errAt(pos, "%s of a size that is not a constant", name)
				}
				n *= c.V.Int
			}
			size = n
		}
		if size < 0 || size > maxHeapObject {
			return l.errAt(pos, "%s: size %d (at most %d bytes)", name, size, maxHeapObject)
		}
		l.heap = append(l.heap, size)
		b.emit(prog.Assign{Dst: dst, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
		return nil
	case name == "free" || name == "printf" || name == "puts" || name == "putchar" || name == "fflush" ||
		name == "sched_yield" || name == "pthread_yield" || name == "usleep" || name == "sleep" || name == "nanosleep" ||
		strings.HasPrefix(name, "llvm.x86.sse2.pause") || name == "pthread_spin_init" || name == "pthread_spin_destroy":
		// No memory event: free never reuses an object; output is not
		// modelled.
		if dst != "" {
			b.emit(prog.Assign{Dst: dst, Val: prog.Int(0)})
		}
		return nil
	case strings.HasPrefix(name, lkmmPrefix):
		return l.lkmmCall(fr, name, args, dst, pos)
	}
	f := l.funcs[name]
	if f == nil || len(f.Blocks) == 0 {
		return l.errAt(pos, "call to %s, which has no definition and is not supported", name)
	}
	var as []prog.Expr
	for i := range args {
		a, err := arg(i)
		if err != nil {
			return err
		}
		as = append(as, a)
	}
	return l.lowerFunc(b, f, as, dst, fr.depth+1, pos)
}

func isVoid(c *ir.InstCall) bool {
	return c.Type().String() == "void"
}

// fail records an assertion site and emits its failure: failReg gets its
// number and the thread stops.
func (l *lowerer) fail(b *builder, pos prog.Pos, text string) {
	l.asserts = append(l.asserts, assertion{pos: pos, text: text})
	b.emit(prog.Assign{Dst: failReg, Val: prog.Int(int64(len(l.asserts)))})
	b.emit(prog.Jump{Target: exitLabel})
}

// constString reads a C string constant (the text of an assertion).
func (l *lowerer) constString(v value.Value) (string, bool) {
	var g *ir.Global
	switch v := v.(type) {
	case *constant.ExprGetElementPtr:
		g, _ = v.Src.(*ir.Global)
	case *ir.Global:
		g = v
	}
	if g == nil || g.Init == nil {
		return "", false
	}
	ca, ok := g.Init.(*constant.CharArray)
	if !ok {
		return "", false
	}
	return strings.TrimRight(string(ca.X), "\x00"), true
}

// coin emits the read of a coin: a location that an extra thread sets to
// 1, so that the read returns 0 or 1 as the execution chooses (on every
// model: no other access touches it). The coin locations are numbered
// after unrolling.
func (l *lowerer) coin(b *builder) string {
	r := l.fresh("coin")
	b.emit(prog.Load{Dst: r, Addr: prog.Addr(coinLoc), Tags: []string{tagA, "RLX"}})
	l.lastCoin = r
	return r
}

const coinLoc = "%coin"

// heapLoc marks the placeholder address of a malloc call (its Int is the
// call's index in lowerer.heap) until expand gives the instance its object.
const heapLoc = "%heap"

// maxHeapObject bounds the size of an allocated object.
const maxHeapObject = 1 << 12
