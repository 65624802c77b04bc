package cfront

import (
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// lkmmPrefix starts the names of the functions include/musket/lkmm.h
// declares for the Linux-kernel primitives.
const lkmmPrefix = "__musket_lkmm_"

// lkmmKinds are the tags of the kinds lkmm.h numbers (__MUSKET_ONCE, ...):
// herd7's set names for the Linux-kernel model, as the C litmus front-end
// tags its macros.
var lkmmKinds = []string{"ONCE", "ACQUIRE", "RELEASE", "MB", "Rmb", "Wmb", "Barrier",
	"Before-atomic", "After-atomic", "After-spinlock", "After-unlock-lock",
	"Rcu-lock", "Rcu-unlock", "Sync-rcu", "NORETURN"}

// lkmmCall lowers a primitive of lkmm.h into the Linux-kernel events.
func (l *lowerer) lkmmCall(fr *frame, name string, args []value.Value, dst string, pos prog.Pos) error {
	b := fr.b
	ops := make([]prog.Expr, len(args))
	for i, a := range args {
		e, err := l.operand(fr, a, pos)
		if err != nil {
			return err
		}
		ops[i] = e
	}
	konst := func(i int) (int64, error) {
		if i >= len(ops) {
			return 0, l.errAt(pos, "%s: missing argument", name)
		}
		c, ok := ops[i].(prog.Const)
		if !ok || c.V.IsAddr() {
			return 0, l.errAt(pos, "%s: argument %d must be a constant (use the macros of musket/lkmm.h)", name, i+1)
		}
		return c.V.Int, nil
	}
	kind := func(i int) ([]string, error) {
		k, err := konst(i)
		if err != nil {
			return nil, err
		}
		if k < 0 || int(k) >= len(lkmmKinds) {
			return nil, l.errAt(pos, "%s: unknown kind %d", name, k)
		}
		return []string{lkmmKinds[k]}, nil
	}
	rmw := func(tags []string) []string { return append(append([]string(nil), tags...), tagRMW, tagX) }
	want := func(n int) error {
		if len(ops) != n {
			return l.errAt(pos, "%s takes %d arguments, not %d", name, n, len(ops))
		}
		return nil
	}
	if dst == "" {
		dst = l.fresh("lk")
	}
	switch name {
	case lkmmPrefix + "load":
		if err := want(2); err != nil {
			return err
		}
		t, err := kind(1)
		if err != nil {
			return err
		}
		b.emit(prog.Load{Dst: dst, Addr: ops[0], Tags: t})
	case lkmmPrefix + "store":
		if err := want(3); err != nil {
			return err
		}
		t, err := kind(2)
		if err != nil {
			return err
		}
		b.emit(prog.Store{Addr: ops[0], Val: ops[1], Tags: t})
	case lkmmPrefix + "fence":
		if err := want(1); err != nil {
			return err
		}
		t, err := kind(0)
		if err != nil {
			return err
		}
		b.emit(prog.Fence{Tags: t})
	case lkmmPrefix + "xchg":
		if err := want(3); err != nil {
			return err
		}
		t, err := kind(2)
		if err != nil {
			return err
		}
		b.emit(prog.RMW{Dst: dst, Addr: ops[0], New: ops[1], RTags: rmw(t), WTags: rmw(t)})
	case lkmmPrefix + "cmpxchg":
		if err := want(4); err != nil {
			return err
		}
		t, err := kind(3)
		if err != nil {
			return err
		}
		b.emit(prog.RMW{Dst: dst, Addr: ops[0], Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: ops[1]}, New: ops[2], RTags: rmw(t), WTags: rmw(t)})
	case lkmmPrefix + "atomic_op":
		if err := want(5); err != nil {
			return err
		}
		t, err := kind(3)
		if err != nil {
			return err
		}
		op, err := konst(1)
		if err != nil {
			return err
		}
		ret, err := konst(4)
		if err != nil {
			return err
		}
		var nv prog.Expr
		switch op {
		case 0:
			nv = prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: ops[2]}
		case 1:
			nv = prog.Bin{Op: prog.OpSub, X: prog.Old{}, Y: ops[2]}
		case 2:
			nv = prog.Bin{Op: prog.OpAnd, X: prog.Old{}, Y: ops[2]}
		case 3:
			nv = prog.Bin{Op: prog.OpOr, X: prog.Old{}, Y: ops[2]}
		case 4:
			nv = prog.Bin{Op: prog.OpXor, X: prog.Old{}, Y: ops[2]}
		case 5:
			nv = prog.Bin{Op: prog.OpAnd, X: prog.Old{}, Y: prog.Un{Op: prog.OpBNot, X: ops[2]}}
		default:
			return l.errAt(pos, "%s: unknown operation %d", name, op)
		}
		old := l.fresh("lkold")
		b.emit(prog.RMW{Dst: old, Addr: ops[0], New: nv, RTags: rmw(t), WTags: rmw(t)})
		switch ret {
		case 1:
			b.emit(prog.Assign{Dst: dst, Val: replaceOld(nv, prog.Reg{Name: old})})
		default:
			b.emit(prog.Assign{Dst: dst, Val: prog.Reg{Name: old}})
		}
	case lkmmPrefix + "lock":
		if err := want(1); err != nil {
			return err
		}
		b.emit(prog.Located{Op: prog.LocLock, Addr: ops[0]})
	case lkmmPrefix + "unlock":
		if err := want(1); err != nil {
			return err
		}
		b.emit(prog.Located{Op: prog.LocUnlock, Addr: ops[0]})
	case lkmmPrefix + "trylock":
		if err := want(1); err != nil {
			return err
		}
		b.emit(prog.Located{Op: prog.LocTryLock, Addr: ops[0], Dst: dst})
	default:
		return l.errAt(pos, "unknown Linux-kernel primitive %s (not in musket/lkmm.h)", name)
	}
	return nil
}

// replaceOld puts x in place of Old in e.
func replaceOld(e prog.Expr, x prog.Expr) prog.Expr {
	switch e := e.(type) {
	case prog.Old:
		return x
	case prog.Bin:
		return prog.Bin{Op: e.Op, X: replaceOld(e.X, x), Y: replaceOld(e.Y, x)}
	case prog.Un:
		return prog.Un{Op: e.Op, X: replaceOld(e.X, x)}
	}
	return e
}
