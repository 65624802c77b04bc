package cfront

import (
	"context"

	"fmt"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Narrowing accesses through pointers.
//
// The engines resolve an address they cannot compute statically against
// every location of the program, which multiplies the events of pointer
// code (a node's next field read through a pointer loaded from the
// stack's top) by the number of locations. Most locations are never
// pointed to: their address is used only directly. narrow rewrites an
// access whose address is not a constant into a choice among the cells it
// can reach: the cells of the object its address expression names (a
// getelementptr on a global), or else the cells of the objects whose
// address is taken (appears as a value: stored, assigned, passed); each
// choice is an access at a constant address. An address outside them all
// (a null or dangling pointer, an index out of bounds) is a failure of
// the program: "invalid memory access".
//
// The choice is a branch on the address. Under a C-level model (rc11,
// c11, sc, imm) dependencies do not count, so the rewrite keeps every
// execution. For a hardware target (keepAddr) an access at a constant
// address would lose the address dependency the compiled code has, and
// the branch would add a control dependency it does not have, which the
// models order differently (AArch64's dob orders addr before any
// access, ctrl before writes only). There the branches make no control
// dependency (prog.Jump.NoCtrl: the compiled code has no branch; a
// thread whose access faults does not go on), and each choice keeps the
// access's computed address, with its dependencies, naming the one cell
// it denotes on that branch (prog.Load.Cells): the SMT engine resolves
// it against that cell alone, where it would try every location, and
// the address analysis (ownStores) reads the cell as the address.
func (p *Program) narrow(ctx context.Context, t *spec.Test, keepAddr bool) *spec.Test {
	objects := map[string][]string{} // object -> its cells
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			continue
		}
		o := objectOf(e.Ref.Name)
		objects[o] = append(objects[o], e.Ref.Name)
	}
	taken := map[string]bool{}
	var walk func(e prog.Expr)
	walk = func(e prog.Expr) {
		switch e := e.(type) {
		case prog.Const:
			if e.V.IsAddr() {
				taken[e.V.Loc] = true
			}
		case prog.Bin:
			walk(e.X)
			walk(e.Y)
		case prog.Un:
			walk(e.X)
		}
	}
	for _, e := range t.Init {
		if e.Val.IsAddr() {
			taken[e.Val.Loc] = true
		}
	}
	for _, th := range t.Threads {
		for _, in := range th.Code {
			switch in := in.(type) {
			case prog.Assign:
				walk(in.Val)
			case prog.Store:
				walk(in.Val)
			case prog.RMW:
				walk(in.New)
				if in.Cond != nil {
					walk(in.Cond)
				}
			case prog.Jump:
				if in.Cond != nil {
					walk(in.Cond)
				}
			}
		}
	}
	var anyCells []string
	for o := range taken {
		anyCells = append(anyCells, objects[o]...)
	}
	sort.Strings(anyCells)
	// The analysis's cells, where it knows them (narrowcells.go).
	byAccess := accessCells(ctx, t)
	exists := map[string]bool{}
	for _, cs := range objects {
		for _, c := range cs {
			exists[c] = true
		}
	}
	out := *t
	out.Threads = make([]*prog.Thread, len(t.Threads))
	n := 0
	for i, th := range t.Threads {
		nt := &prog.Thread{ID: th.ID, Name: th.Name, NonAtomic: th.NonAtomic}
		emit := func(in prog.Instr, pos prog.Pos) {
			nt.Code = append(nt.Code, in)
			nt.Pos = append(nt.Pos, pos)
		}
		for k, in := range th.Code {
			// Each access may become a branch per cell (thousands for a
			// character buffer): the deadline is looked at as it goes,
			// and a narrowing stopped halfway gives back t unchanged (the
			// caller, seeing ctx done, reports the time limit).
			if k%256 == 0 && ctx.Err() != nil {
				return t
			}
			pos := th.Pos[k]
			a, isAccess := prog.AddrOf(in)
			// A mixed-size access over several parts (see mixed.go) keeps
			// its parts together: it is left to the engines.
			if !isAccess || prog.IsPart(in) || k+1 < len(th.Code) && prog.IsPart(th.Code[k+1]) {
				emit(in, pos)
				continue
			}
			if _, ok := a.(prog.Const); ok {
				emit(in, pos)
				continue
			}
			cells := anyCells
			if o := baseObject(a); o != "" {
				cells = objects[o]
			}
			cells = narrowedCells(byAccess, i, k, exists, cells)
			n++
			after := fmt.Sprintf("%%nw%d", n)
			for j, c := range cells {
				emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: a, Y: prog.Const{V: prog.LocValue(c)}}, Target: fmt.Sprintf("%s.%d", after, j), NoCtrl: keepAddr}, pos)
			}
			p.Asserts = append(p.Asserts, Assertion{Pos: pos, Text: "invalid memory access"})
			emit(prog.Assign{Dst: failReg, Val: prog.Int(int64(len(p.Asserts)))}, pos)
			emit(prog.Jump{Target: exitLabel}, pos)
			for j, c := range cells {
				emit(prog.Label{Name: fmt.Sprintf("%s.%d", after, j)}, pos)
				if keepAddr {
					emit(withCells(in, []string{c}), pos)
				} else {
					emit(withAddr(in, prog.Const{V: prog.LocValue(c)}), pos)
				}
				emit(prog.Jump{Target: after}, pos)
			}
			emit(prog.Label{Name: after}, pos)
		}
		out.Threads[i] = nt
	}
	return &out
}

// objectOf is the object a cell belongs to ("pool" for "pool+8").
func objectOf(cell string) string {
	if i := strings.LastIndexByte(cell, '+'); i > 0 {
		return cell[:i]
	}
	return cell
}

// baseObject is the object an address expression is an offset into,
// when it adds integers to one constant address; "" otherwise.
func baseObject(e prog.Expr) string {
	switch e := e.(type) {
	case prog.Const:
		if e.V.IsAddr() {
			return e.V.Loc
		}
	case prog.Bin:
		if e.Op != prog.OpAdd && e.Op != prog.OpSub {
			return ""
		}
		x := baseObject(e.X)
		if e.Op == prog.OpAdd && x == "" {
			return baseObject(e.Y)
		}
		return x
	}
	return ""
}

// withCells is the access in with the cells its address may denote.
func withCells(in prog.Instr, cells []string) prog.Instr {
	switch in := in.(type) {
	case prog.Load:
		in.Cells = cells
		return in
	case prog.Store:
		in.Cells = cells
		return in
	case prog.RMW:
		in.Cells = cells
		return in
	case prog.StoreCond:
		in.Cells = cells
		return in
	}
	return in
}

// withAddr is the access in at address a.
func withAddr(in prog.Instr, a prog.Expr) prog.Instr {
	switch in := in.(type) {
	case prog.Load:
		in.Addr = a
		return in
	case prog.Store:
		in.Addr = a
		return in
	case prog.RMW:
		in.Addr = a
		return in
	case prog.StoreCond:
		in.Addr = a
		return in
	}
	return in
}
