package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the atomic instructions: cmpxchg (and the extractvalue
// of its result pair), atomicrmw and fence, with the C11 tags of their
// orderings.

// cmpxchg lowers a compare-and-swap into a conditional RMW; its result
// pair goes to the registers reg.0 (the old value) and reg.1 (success).
func (l *lowerer) cmpxchg(fr *frame, in *ir.InstCmpXchg, pos prog.Pos) error {
	b := fr.b
	a, err := l.operand(fr, in.Ptr, pos)
	if err != nil {
		return err
	}
	cmp, err := l.operand(fr, in.Cmp, pos)
	if err != nil {
		return err
	}
	nv, err := l.operand(fr, in.New, pos)
	if err != nil {
		return err
	}
	old := fr.reg(in) + ".0"
	okr := fr.reg(in) + ".1"
	cond := prog.Expr(prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: cmp})
	if in.Weak {
		// A weak compare-and-swap may fail spuriously: a coin (see
		// coins) decides whether it may succeed (C11 7.17.7.4; on
		// x86, whose LOCK CMPXCHG never fails spuriously, CompileFor
		// sets the coin).
		c := l.coinAs(b, weakCASCoin)
		cond = prog.Bin{Op: prog.OpLAnd, X: cond, Y: prog.Reg{Name: c}}
	}
	r := prog.RMW{Dst: old, Addr: a, Cond: cond, New: nv, RTags: withSize(rmwTags(in.SuccessOrdering), in.New.Type()), WTags: rmwTags(in.SuccessOrdering)}
	if in.FailureOrdering != in.SuccessOrdering {
		r.FailRTags = rmwTags(in.FailureOrdering)
	}
	b.emit(r)
	ok := prog.Expr(prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: old}, Y: cmp})
	if in.Weak {
		ok = prog.Bin{Op: prog.OpLAnd, X: ok, Y: prog.Reg{Name: l.lastCoin}}
	}
	b.emit(prog.Assign{Dst: okr, Val: ok})
	return nil
}

// atomicRMW lowers an atomicrmw into an unconditional RMW.
func (l *lowerer) atomicRMW(fr *frame, in *ir.InstAtomicRMW, pos prog.Pos) error {
	a, err := l.operand(fr, in.Dst, pos)
	if err != nil {
		return err
	}
	x, err := l.operand(fr, in.X, pos)
	if err != nil {
		return err
	}
	nv, err := rmwNew(in.Op, x, intBits(in.X.Type()))
	if err != nil {
		return l.errAt(pos, "%v", err)
	}
	fr.b.emit(prog.RMW{Dst: fr.reg(in), Addr: a, New: nv, RTags: withSize(rmwTags(in.Ordering), in.X.Type()), WTags: rmwTags(in.Ordering)})
	if fr.loops.inSpin(in) {
		// The spin cut asks that an atomicrmw of the iteration wrote
		// back what it read, when the iteration ran it (see edgeCode).
		fr.b.emit(prog.Assign{Dst: ranReg(fr.reg(in)), Val: prog.Int(1)})
	}
	return nil
}

// ranReg names the register that says whether the atomicrmw whose result
// is in reg ran in the current iteration of its spin loop.
func ranReg(reg string) string { return reg + ".ran" }

// fence lowers a fence; a single-thread one (atomic_signal_fence) is a
// compiler barrier only and emits nothing.
func (l *lowerer) fence(fr *frame, in *ir.InstFence) error {
	if in.SyncScope == "singlethread" {
		return nil
	}
	fr.b.emit(prog.Fence{Tags: []string{orderTag(in.Ordering)}})
	return nil
}

// orderTag is the C11 tag of an LLVM ordering.
func orderTag(o enum.AtomicOrdering) string {
	switch o {
	case enum.AtomicOrderingAcquire:
		return "ACQ"
	case enum.AtomicOrderingRelease:
		return "REL"
	case enum.AtomicOrderingAcquireRelease:
		return "ACQ_REL"
	case enum.AtomicOrderingSequentiallyConsistent:
		return "SC"
	}
	return "RLX"
}

func accessTags(atomic bool, o enum.AtomicOrdering) []string {
	if !atomic {
		return []string{tagNA}
	}
	return []string{tagA, orderTag(o)}
}

func rmwTags(o enum.AtomicOrdering) []string {
	return []string{tagA, orderTag(o), tagRMW, tagX}
}

// rmwNew is the value an atomicrmw writes, over Old.
func rmwNew(o enum.AtomicOp, x prog.Expr, bits uint64) (prog.Expr, error) {
	old := prog.Old{}
	switch o {
	case enum.AtomicOpXChg:
		return x, nil
	case enum.AtomicOpAdd:
		return wrap(prog.Bin{Op: prog.OpAdd, X: old, Y: x}, bits), nil
	case enum.AtomicOpSub:
		return wrap(prog.Bin{Op: prog.OpSub, X: old, Y: x}, bits), nil
	case enum.AtomicOpAnd:
		return prog.Bin{Op: prog.OpAnd, X: old, Y: x}, nil
	case enum.AtomicOpOr:
		return prog.Bin{Op: prog.OpOr, X: old, Y: x}, nil
	case enum.AtomicOpXor:
		return prog.Bin{Op: prog.OpXor, X: old, Y: x}, nil
	case enum.AtomicOpNAnd:
		return prog.Un{Op: prog.OpBNot, X: prog.Bin{Op: prog.OpAnd, X: old, Y: x}}, nil
	case enum.AtomicOpMax, enum.AtomicOpMin, enum.AtomicOpUMax, enum.AtomicOpUMin:
		cmp := prog.OpGt
		if o == enum.AtomicOpMin || o == enum.AtomicOpUMin {
			cmp = prog.OpLt
		}
		var test prog.Expr = prog.Bin{Op: cmp, X: old, Y: x}
		if o == enum.AtomicOpUMax || o == enum.AtomicOpUMin {
			test = unsignedCmp(cmp, old, x) // canonical values, read unsigned
		}
		// old if old cmp x, else x: x + (old - x)·(old cmp x).
		return prog.Bin{Op: prog.OpAdd, X: x, Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpSub, X: old, Y: x}, Y: test}}, nil
	}
	return nil, fmt.Errorf("unsupported atomicrmw %s (floating point)", o)
}
