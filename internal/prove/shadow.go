package prove

import (
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// shadow instruments thread ti for invariants that mention [x]: the
// register memReg(x) starts as x's initial value and, after each write of
// the thread to x, holds the value written (a store's value, the new
// value of a read-modify-write whose condition holds, the value of a
// store-conditional that succeeded). It is a register like the others:
// the loop abstraction makes it arbitrary at the head of an iteration
// that writes x, and the invariant constrains it. Every write of the
// thread must name its location, so that none can write x unnoticed.
func shadow(t *spec.Test, ti int, locs []string) (*prog.Thread, error) {
	th := t.Threads[ti]
	if len(locs) == 0 {
		return th, nil
	}
	want := map[string]bool{}
	for _, l := range locs {
		want[l] = true
	}
	out := &prog.Thread{ID: th.ID, Name: th.Name, NonAtomic: th.NonAtomic}
	posAt := func(i int) prog.Pos {
		if i < len(th.Pos) {
			return th.Pos[i]
		}
		return prog.Pos{}
	}
	emit := func(i int, ins ...prog.Instr) {
		out.Code = append(out.Code, ins...)
		if len(th.Pos) > 0 {
			for range ins {
				out.Pos = append(out.Pos, posAt(i))
			}
		}
	}
	for _, l := range locs {
		v := prog.IntValue(0)
		for _, e := range t.Init {
			if !e.Ref.IsReg() && e.Ref.Name == l {
				v = e.Val
			}
		}
		emit(0, prog.Assign{Dst: memReg(l), Val: prog.Const{V: v}})
	}
	n := 0
	skip := func() string {
		n++
		return fmt.Sprintf("%%prove_s%d", n)
	}
	errAt := func(i int, format string, args ...any) error {
		where := th.Name
		if p := posAt(i); p.Line > 0 {
			where = p.String() + ": " + th.Name
		}
		return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
	}
	for i, in := range th.Code {
		addr, ok := prog.WriteAddr(in)
		if !ok {
			emit(i, in)
			continue
		}
		loc, ok := addrOf(t, th, ti, addr)
		if !ok {
			return nil, errAt(i, "%s writes through an address Musket cannot name: an invariant that mentions [%s] needs every write of %s to name its location", prog.InstrString(in), locs[0], th.Name)
		}
		if !want[loc] {
			emit(i, in)
			continue
		}
		r := memReg(loc)
		switch in := in.(type) {
		case prog.Store:
			emit(i, in, prog.Assign{Dst: r, Val: in.Val})
		case prog.RMW:
			if in.Dst == "" && (hasOld(in.New) || in.Cond != nil && hasOld(in.Cond)) {
				return nil, errAt(i, "%s: the value it read is not kept, so the value it writes to %s, and [%s], cannot be computed", prog.InstrString(in), loc, loc)
			}
			// The registers the new value and the condition use, as
			// they were before the RMW; its destination then holds the
			// old value.
			pre := map[string]bool{}
			for _, x := range append(prog.ExprRegs(in.New), prog.ExprRegs(in.Cond)...) {
				pre[x] = true
			}
			for _, x := range sortedRegs(pre) {
				emit(i, prog.Assign{Dst: "%prove_t_" + x, Val: prog.Reg{Name: x}})
			}
			emit(i, in)
			val := func(e prog.Expr) prog.Expr {
				return prog.ReplaceOld(renameRegs(e, "%prove_t_"), prog.Reg{Name: in.Dst})
			}
			if in.Cond == nil {
				emit(i, prog.Assign{Dst: r, Val: val(in.New)})
				continue
			}
			s := skip()
			emit(i, prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: val(in.Cond)}, Target: s}, prog.Assign{Dst: r, Val: val(in.New)}, prog.Label{Name: s})
		case prog.StoreCond:
			if in.Status == "" {
				return nil, errAt(i, "%s: whether it wrote %s cannot be told after it, so [%s] cannot follow it", prog.InstrString(in), loc, loc)
			}
			// The value, as it was before the status is set.
			tmp := "%prove_t_sc"
			s := skip()
			emit(i, prog.Assign{Dst: tmp, Val: in.Val}, in)
			emit(i, prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: in.Status}, Y: prog.Const{V: in.OkVal}}, Target: s}, prog.Assign{Dst: r, Val: prog.Reg{Name: tmp}}, prog.Label{Name: s})
		}
	}
	return out, nil
}

// renameRegs prefixes the registers of e.
func renameRegs(e prog.Expr, prefix string) prog.Expr {
	switch e := e.(type) {
	case prog.Reg:
		return prog.Reg{Name: prefix + e.Name}
	case prog.Bin:
		return prog.Bin{Op: e.Op, X: renameRegs(e.X, prefix), Y: renameRegs(e.Y, prefix)}
	case prog.Un:
		return prog.Un{Op: e.Op, X: renameRegs(e.X, prefix)}
	}
	return e
}

func hasOld(e prog.Expr) bool {
	switch e := e.(type) {
	case prog.Old:
		return true
	case prog.Bin:
		return hasOld(e.X) || hasOld(e.Y)
	case prog.Un:
		return hasOld(e.X)
	}
	return false
}
