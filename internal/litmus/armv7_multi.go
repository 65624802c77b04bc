package litmus

import (
	"slices"
	"strconv"

	"github.com/musket-verify/musket/internal/prog"
)

// ARM's accesses of several words: LDRD and STRD, LDM and STM.

// pair translates LDRD and STRD, "LDRD Rt,Rt2,[Rn]" or "LDRD Rt,[Rn]"
// (Rt2 is then R(t+1), as herd7 reads it): two word accesses, Rt at the
// address and Rt2 four bytes further (each single-copy atomic, as the Arm
// ARM has them without LPAE). The second address is an immediate offset,
// so a test without an array refuses it by name (CheckTest).
func (a *armThread) pair(in armInstr, base string) {
	n := len(in.ops)
	if n != 2 && n != 3 {
		a.errorf(in.mnPos, "%s takes 2 or 3 operands, found %d", in.mn, n)
		return
	}
	for i := 0; i < n-1; i++ {
		if !a.isReg(in, i) {
			return
		}
	}
	if !a.isMem(in, n-1) {
		return
	}
	rt, rt2 := in.ops[0].reg, ""
	if n == 3 {
		rt2 = in.ops[1].reg
	} else {
		k, ok := armRegNum(rt)
		if !ok || k >= 14 {
			a.errorf(in.ops[0].pos, "%s with one register needs Rt below R14 (Rt2 is R(t+1))", in.mn)
			return
		}
		rt2 = "R" + strconv.Itoa(k+1)
	}
	addr := in.ops[n-1].addr
	next := prog.Expr(prog.Bin{Op: prog.OpAdd, X: addr, Y: prog.Int(4)})
	if b, ok := addr.(prog.Bin); ok && b.Op == prog.OpAdd {
		if c, ok := b.Y.(prog.Const); ok && !c.V.IsAddr() {
			next = prog.Bin{Op: prog.OpAdd, X: b.X, Y: prog.Int(c.V.Int + 4)}
		}
	}
	if base == "LDRD" {
		if rt == rt2 {
			a.errorf(in.ops[1].pos, "LDRD with Rt2 = Rt is unpredictable")
			return
		}
		a.emit(prog.Load{Dst: rt, Addr: addr}, prog.Load{Dst: rt2, Addr: next})
		return
	}
	a.emit(prog.Store{Addr: addr, Val: prog.Reg{Name: rt}}, prog.Store{Addr: next, Val: prog.Reg{Name: rt2}})
}

// armMultiple gives the addressing mode of LDM and STM: increment after
// (the default) or before, decrement after or before.
var armMultiple = map[string]string{
	"LDM": "IA", "LDMIA": "IA", "LDMIB": "IB", "LDMDA": "DA", "LDMDB": "DB",
	"STM": "IA", "STMIA": "IA", "STMIB": "IB", "STMDA": "DA", "STMDB": "DB",
}

// regList reads a register list "{R1, R2, ...}" (ranges R1-R3 too), in
// ascending order of register numbers.
func (a *armThread) regList(c Cell, mn string, toks []cellTok) (armOp, bool) {
	op := armOp{kind: armList, pos: at(c.Pos, toks[0].off)}
	if toks[len(toks)-1].kind != '}' {
		a.errorf(at(c.Pos, toks[len(toks)-1].off), "missing '}' in the register list of %s", mn)
		return op, false
	}
	seen := map[int]bool{}
	add := func(t cellTok) (int, bool) {
		n, ok := armRegNum(t.text)
		if t.kind != 'w' || !ok {
			a.errorf(at(c.Pos, t.off), "expected a register in the register list of %s, found %q", mn, t.text)
			return 0, false
		}
		return n, true
	}
	inner := toks[1 : len(toks)-1]
	for len(inner) > 0 {
		lo, ok := add(inner[0])
		if !ok {
			return op, false
		}
		hi := lo
		inner = inner[1:]
		if len(inner) >= 2 && inner[0].kind == '-' {
			if hi, ok = add(inner[1]); !ok {
				return op, false
			}
			inner = inner[2:]
		}
		for n := lo; n <= hi; n++ {
			seen[n] = true
		}
		if len(inner) > 0 {
			if inner[0].kind != ',' || len(inner) == 1 {
				a.errorf(at(c.Pos, inner[0].off), "expected ',' between the registers of %s", mn)
				return op, false
			}
			inner = inner[1:]
		}
	}
	for n := 0; n <= 14; n++ {
		if seen[n] {
			op.list = append(op.list, n)
		}
	}
	if len(op.list) == 0 {
		a.errorf(op.pos, "empty register list in %s", mn)
		return op, false
	}
	return op, true
}

// multiple translates LDM and STM "Rn, {registers}": a word access per
// register, the lowest-numbered register at the lowest address; the
// addresses start at Rn (IA), Rn+4 (IB), Rn-4(n-1) (DA) or Rn-4n (DB)
// for n registers. Write-back (Rn!) is not supported. As LDRD, the
// accesses past the first are immediate offsets: arrays' cells.
func (a *armThread) multiple(in armInstr, base string) {
	if len(in.ops) != 2 || !a.isReg(in, 0) {
		if len(in.ops) != 2 {
			a.errorf(in.mnPos, "%s takes a base register and a register list, found %d operands", in.mn, len(in.ops))
		}
		return
	}
	if in.ops[1].kind != armList {
		a.errorf(in.ops[1].pos, "expected a register list {R1, ...} as operand 2 of %s", in.mn)
		return
	}
	regs := in.ops[1].list
	n := int64(len(regs))
	first := map[string]int64{"IA": 0, "IB": 4, "DA": -4 * (n - 1), "DB": -4 * n}[armMultiple[base]]
	rn := prog.Reg{Name: in.ops[0].reg}
	if k, ok := armRegNum(rn.Name); ok && base[0] == 'L' && slices.Contains(regs, k) {
		// A load of the base register: the later addresses use its
		// value before the instruction.
		a.emit(prog.Assign{Dst: "%base", Val: rn})
		rn = prog.Reg{Name: "%base"}
	}
	for i, r := range regs {
		var addr prog.Expr = rn
		if off := first + 4*int64(i); off != 0 {
			addr = prog.Bin{Op: prog.OpAdd, X: rn, Y: prog.Int(off)}
		}
		reg := "R" + strconv.Itoa(r)
		if base[0] == 'L' {
			a.emit(prog.Load{Dst: reg, Addr: addr})
		} else {
			a.emit(prog.Store{Addr: addr, Val: prog.Reg{Name: reg}})
		}
	}
}
