package cfront

import (
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// realloc(p, n) moves the object p points to (C11 7.22.3.5): a new
// object of n bytes is made, as malloc makes one (its contents past the
// old size are indeterminate), the old contents are copied up to the
// smaller of the two sizes, and the old object is freed, as free(p)
// frees it (a double free, a pointer malloc did not return, a later use
// of the old pointer are failures: free.go). realloc(NULL, n) is
// malloc(n). The old size is known only at run time, through p: each
// heap object of a program that calls realloc has a hidden cell at
// byte sizeOff, past its end, whose initial value is its size. The copy
// reads it, then each 4-byte unit below the new size while below the
// old size: a unit is read and written plainly (the object's owner is
// the calling thread: another thread's access to the old object races
// with the free).
//
// Not done: a new size known only once the loops are unrolled (refused
// by name); realloc failing (it never returns NULL here, as malloc).

// sizeOff is the offset of a heap object's size cell (realloc), past
// the freed mark.
const sizeOff = freedOff + 8

// realloc lowers realloc(p, n); l.reallocs is set (check.go) when the
// program declares realloc.
func (l *lowerer) realloc(cs *callSite) error {
	if len(cs.args) != 2 {
		return l.errAt(cs.pos, "realloc takes two arguments")
	}
	p, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	dst := cs.dst
	if dst == "" {
		dst = l.fresh("realloc")
	}
	mcs := *cs
	mcs.args, mcs.dst = cs.args[1:], dst
	if err := l.malloc(&mcs); err != nil {
		return err
	}
	if _, ok := cs.args[0].(*constant.Null); ok {
		return nil // malloc(n)
	}
	n := l.heap[len(l.heap)-1]
	if n < 0 {
		return l.errAt(cs.pos, "realloc of a size that is not a constant when the program is lowered")
	}
	b := cs.fr.b
	done := l.label("realloced")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: p, Y: prog.Int(0)}, Target: done})
	old := l.fresh("oldsize")
	b.emit(prog.Load{Dst: old, Addr: addrPlus(p, sizeOff), Tags: withSize([]string{tagNA}, types.I64)})
	copied := l.label("copied")
	for off := int64(0); off < n; off += 4 {
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLe, X: prog.Reg{Name: old}, Y: prog.Int(off)}, Target: copied})
		u := l.fresh("unit")
		b.emit(prog.Load{Dst: u, Addr: addrPlus(p, off), Tags: withSize([]string{tagNA}, types.I32)})
		b.emit(prog.Store{Addr: addrPlus(prog.Reg{Name: dst}, off), Val: prog.Reg{Name: u}, Tags: withSize([]string{tagNA}, types.I32)})
	}
	b.emit(prog.Label{Name: copied})
	l.freePtr(b, p, cs.pos)
	b.emit(prog.Label{Name: done})
	return nil
}
