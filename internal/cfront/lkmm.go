package cfront

import (
	"strings"

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

// lkmmArgs are the evaluated arguments of a call to a primitive of
// lkmm.h.
type lkmmArgs struct {
	l    *lowerer
	name string
	ops  []prog.Expr
	pos  prog.Pos
}

// konst is argument i, which must be a constant (a kind or an operation
// number of lkmm.h).
func (a *lkmmArgs) konst(i int) (int64, error) {
	if i >= len(a.ops) {
		return 0, a.l.errAt(a.pos, "%s: missing argument", a.name)
	}
	c, ok := a.ops[i].(prog.Const)
	if !ok || c.V.IsAddr() {
		return 0, a.l.errAt(a.pos, "%s: argument %d must be a constant (use the macros of musket/lkmm.h)", a.name, i+1)
	}
	return c.V.Int, nil
}

// kind is the tag of the kind that argument i numbers.
func (a *lkmmArgs) kind(i int) ([]string, error) {
	k, err := a.konst(i)
	if err != nil {
		return nil, err
	}
	if k < 0 || int(k) >= len(lkmmKinds) {
		return nil, a.l.errAt(a.pos, "%s: unknown kind %d", a.name, k)
	}
	return []string{lkmmKinds[k]}, nil
}

// want checks that the primitive has n arguments.
func (a *lkmmArgs) want(n int) error {
	if len(a.ops) != n {
		return a.l.errAt(a.pos, "%s takes %d arguments, not %d", a.name, n, len(a.ops))
	}
	return nil
}

// kindOf checks that the primitive has n arguments and returns the tag
// of the kind its last one numbers.
func (a *lkmmArgs) kindOf(n int) ([]string, error) {
	if err := a.want(n); err != nil {
		return nil, err
	}
	return a.kind(n - 1)
}

// lkmmRMW are the tags of the events of a read-modify-write of kind tags.
func lkmmRMW(tags []string) []string { return append(append([]string(nil), tags...), tagRMW, tagX) }

// lkmmLowering lowers one primitive of lkmm.h; its result goes to dst.
type lkmmLowering func(l *lowerer, b *builder, a *lkmmArgs, dst string) error

// lkmmPrimitives are the primitives of lkmm.h, by name after lkmmPrefix.
var lkmmPrimitives = map[string]lkmmLowering{
	"load":      (*lowerer).lkmmLoad,
	"store":     (*lowerer).lkmmStore,
	"fence":     (*lowerer).lkmmFence,
	"xchg":      (*lowerer).lkmmXchg,
	"cmpxchg":   (*lowerer).lkmmCmpxchg,
	"atomic_op": (*lowerer).lkmmAtomicOp,
	"lock":      lkmmLocked(prog.LocLock, false),
	"unlock":    lkmmLocked(prog.LocUnlock, false),
	"trylock":   lkmmLocked(prog.LocTryLock, true),
}

// lkmmCall lowers a primitive of lkmm.h into the Linux-kernel events.
func (l *lowerer) lkmmCall(cs *callSite) error {
	a := &lkmmArgs{l: l, name: cs.name, ops: make([]prog.Expr, len(cs.args)), pos: cs.pos}
	for i, arg := range cs.args {
		e, err := l.operand(cs.fr, arg, cs.pos)
		if err != nil {
			return err
		}
		a.ops[i] = e
	}
	dst := cs.dst
	spin := cs.fr.loops.inLKSpin(cs.in)
	if spin {
		dst = cs.fr.reg(cs.in) // the spin cut reads what it read (control.go)
	}
	if dst == "" {
		dst = l.fresh("lk")
	}
	lower := lkmmPrimitives[strings.TrimPrefix(cs.name, lkmmPrefix)]
	if lower == nil {
		return l.errAt(cs.pos, "unknown Linux-kernel primitive %s (not in musket/lkmm.h)", cs.name)
	}
	if err := lower(l, cs.fr.b, a, dst); err != nil {
		return err
	}
	if spin {
		cs.fr.b.emit(prog.Assign{Dst: ranReg(dst), Val: prog.Int(1)})
	}
	return nil
}

// lkmmLoad lowers a load of a kind (READ_ONCE, smp_load_acquire...).
func (l *lowerer) lkmmLoad(b *builder, a *lkmmArgs, dst string) error {
	t, err := a.kindOf(2)
	if err != nil {
		return err
	}
	b.emit(prog.Load{Dst: dst, Addr: a.ops[0], Tags: t})
	return nil
}

// lkmmStore lowers a store of a kind (WRITE_ONCE, smp_store_release...).
func (l *lowerer) lkmmStore(b *builder, a *lkmmArgs, dst string) error {
	t, err := a.kindOf(3)
	if err != nil {
		return err
	}
	b.emit(prog.Store{Addr: a.ops[0], Val: a.ops[1], Tags: t})
	return nil
}

// lkmmFence lowers a fence of a kind (smp_mb, smp_rmb, rcu_read_lock...).
func (l *lowerer) lkmmFence(b *builder, a *lkmmArgs, dst string) error {
	t, err := a.kindOf(1)
	if err != nil {
		return err
	}
	b.emit(prog.Fence{Tags: t})
	return nil
}

// lkmmXchg lowers an exchange of a kind.
func (l *lowerer) lkmmXchg(b *builder, a *lkmmArgs, dst string) error {
	t, err := a.kindOf(3)
	if err != nil {
		return err
	}
	b.emit(prog.RMW{Dst: dst, Addr: a.ops[0], New: a.ops[1], RTags: lkmmRMW(t), WTags: lkmmRMW(t)})
	return nil
}

// lkmmCmpxchg lowers a compare-and-exchange of a kind.
func (l *lowerer) lkmmCmpxchg(b *builder, a *lkmmArgs, dst string) error {
	t, err := a.kindOf(4)
	if err != nil {
		return err
	}
	b.emit(prog.RMW{Dst: dst, Addr: a.ops[0], Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: a.ops[1]}, New: a.ops[2], RTags: lkmmRMW(t), WTags: lkmmRMW(t)})
	return nil
}

// lkmmAtomicOp lowers an atomic operation of a kind (atomic_add,
// atomic_fetch_or, atomic_add_return...): its result is the new value
// when the last argument is 1, else the old one.
func (l *lowerer) lkmmAtomicOp(b *builder, a *lkmmArgs, dst string) error {
	if err := a.want(5); err != nil {
		return err
	}
	t, err := a.kind(3)
	if err != nil {
		return err
	}
	op, err := a.konst(1)
	if err != nil {
		return err
	}
	ret, err := a.konst(4)
	if err != nil {
		return err
	}
	nv, ok := lkmmAtomicNew(op, a.ops[2])
	if !ok {
		return l.errAt(a.pos, "%s: unknown operation %d", a.name, op)
	}
	old := l.fresh("lkold")
	b.emit(prog.RMW{Dst: old, Addr: a.ops[0], New: nv, RTags: lkmmRMW(t), WTags: lkmmRMW(t)})
	switch ret {
	case 1:
		b.emit(prog.Assign{Dst: dst, Val: prog.ReplaceOld(nv, prog.Reg{Name: old})})
	default:
		b.emit(prog.Assign{Dst: dst, Val: prog.Reg{Name: old}})
	}
	return nil
}

// lkmmLocked lowers a spin-lock primitive into the located event op
// (spin_lock, spin_unlock; spin_trylock, whose result goes to dst when
// withDst).
func lkmmLocked(op prog.LocatedOp, withDst bool) lkmmLowering {
	return func(l *lowerer, b *builder, a *lkmmArgs, dst string) error {
		if err := a.want(1); err != nil {
			return err
		}
		in := prog.Located{Op: op, Addr: a.ops[0]}
		if withDst {
			in.Dst = dst
		}
		b.emit(in)
		return nil
	}
}

// lkmmAtomicNew is the value the atomic operation number op of lkmm.h
// (add, sub, and, or, xor, andnot) writes, over Old.
func lkmmAtomicNew(op int64, x prog.Expr) (prog.Expr, bool) {
	switch op {
	case 0:
		return prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: x}, true
	case 1:
		return prog.Bin{Op: prog.OpSub, X: prog.Old{}, Y: x}, true
	case 2:
		return prog.Bin{Op: prog.OpAnd, X: prog.Old{}, Y: x}, true
	case 3:
		return prog.Bin{Op: prog.OpOr, X: prog.Old{}, Y: x}, true
	case 4:
		return prog.Bin{Op: prog.OpXor, X: prog.Old{}, Y: x}, true
	case 5:
		return prog.Bin{Op: prog.OpAnd, X: prog.Old{}, Y: prog.Un{Op: prog.OpBNot, X: x}}, true
	}
	return nil, false
}
