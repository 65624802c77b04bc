package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file defines abs, labs, llabs (C11 7.22.6.1: |x|; of the most
// negative value, which C leaves undefined, glibc's result, the value
// itself), strdup and strndup (POSIX: a new heap object holding a copy
// of the string, at most n characters for strndup, and its terminating
// 0), and refuses by name vprintf and vfprintf whose result is used (a
// va_list format's length is not computed).
//
// strdup of a string literal makes an object of its exact size. Of any
// other string, the length is known only when the program runs, and a
// heap object's size must be known when its code is unrolled: the object
// then has the size of the string functions' bound plus one (strfuncs.go:
// the longest string they follow), its bytes after the copy's 0
// indeterminate (uninit.go: a read of one is reported as a read of
// uninitialised memory); an access past the bound's end is an invalid
// memory access, but one between the copy's end and the bound's is not
// reported as out of bounds.

func init() {
	for _, name := range []string{"abs", "labs", "llabs"} {
		knownCalls[name] = ownFirst((*lowerer).absCall)
	}
	knownCalls["strdup"] = ownFirst((*lowerer).strdupCall)
	knownCalls["strndup"] = ownFirst((*lowerer).strdupCall)
	knownCalls["vprintf"] = ownFirst((*lowerer).vprintfCall)
	knownCalls["vfprintf"] = ownFirst((*lowerer).vprintfCall)
}

// absCall lowers abs, labs and llabs.
func (l *lowerer) absCall(cs *callSite) error {
	x, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	bits := uint64(64)
	if cs.name == "abs" {
		bits = 32
	}
	b := cs.fr.b
	cs.result(x)
	skip := l.label("abs")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: x, Y: prog.Int(0)}, Target: skip})
	cs.result(wrap(prog.Un{Op: prog.OpNeg, X: x}, bits))
	b.emit(prog.Label{Name: skip})
	return nil
}

// vprintfCall lowers vprintf and vfprintf: no event; their result is
// refused.
func (l *lowerer) vprintfCall(cs *callSite) error {
	if cs.dst != "" {
		return l.errAt(cs.pos, "the result of %s (the length of a format whose arguments are a va_list) is not supported", cs.name)
	}
	return nil
}

// newHeap makes a heap object of size bytes whose contents are
// indeterminate until written (as malloc's) and returns a register
// holding its address (the unrolling gives each instance of the code an
// object of its own, through that assignment, as for malloc).
func (l *lowerer) newHeap(b *builder, size int64) prog.Expr {
	if l.heapRaw == nil {
		l.heapRaw = map[int]bool{}
	}
	l.heapRaw[len(l.heap)] = true
	l.markHeapBytes(len(l.heap))
	l.heap = append(l.heap, size)
	r := l.fresh("heap")
	b.emit(prog.Assign{Dst: r, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(len(l.heap) - 1)}}})
	return prog.Reg{Name: r}
}

// strdupCall lowers strdup and strndup.
func (l *lowerer) strdupCall(cs *callSite) error {
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	var limit prog.Expr
	if cs.name == "strndup" {
		n, err := l.arg(cs, 1)
		if err != nil {
			return err
		}
		limit = l.limitReg(cs.fr.b, n)
	}
	b := cs.fr.b
	store := func(p, at, v prog.Expr) {
		b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: p, Y: at}, Val: v, Tags: withSize([]string{tagNA}, types.I8)})
	}
	lit, isLit := l.literalString(cs.args[0])
	if limit != nil {
		// strndup of a literal with a length known when lowering; any
		// other takes the loop below.
		if c, ok := limit.(prog.Const); ok && !c.V.IsAddr() && c.V.Int >= 0 {
			if c.V.Int < int64(len(lit)) {
				lit = lit[:c.V.Int]
			}
		} else {
			isLit = false
		}
	}
	if isLit {
		p := l.newHeap(b, int64(len(lit))+1)
		for i := 0; i <= len(lit); i++ {
			var c int64
			if i < len(lit) {
				c = int64(int8(lit[i]))
			}
			store(p, prog.Int(int64(i)), prog.Int(c))
		}
		cs.result(p)
		return nil
	}
	p := l.newHeap(b, l.strLoopBound()+1)
	i, head, done, iv := l.boundedLoop(b, limit)
	c := l.fresh("sdup")
	b.emit(prog.Load{Dst: c, Addr: prog.Bin{Op: prog.OpAdd, X: s, Y: iv}, Tags: withSize([]string{tagNA}, types.I8)})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: c}, Y: prog.Int(0)}, Target: done})
	store(p, iv, prog.Reg{Name: c})
	next(b, i, head)
	b.emit(prog.Label{Name: done})
	store(p, iv, prog.Int(0))
	cs.result(p)
	return nil
}
