package litmus

import "github.com/musket-verify/musket/internal/prog"

// AArch64 selections (CSEL and its variants, CAS's result register), as
// herd7 7.58 gives them: the register written takes a data dependency
// from the value selected only, and a pick dependency from what the
// condition was computed from (herd's iico_ctrl from the flags or the
// comparison to the register write; aarch64deps.cat's pick-basic-dep).
// The choice is a jump inside the instruction that makes no control
// dependency (prog.Jump.NoCtrl); the condition's reads reach the value
// through prog.OpPick.

// pick writes dst = c ? x : y, where x and y already carry c as a pick
// (prog.Pick).
func (a *a64Thread) pick(dst string, c, x, y prog.Expr) {
	a.picks++
	other, end := "%pick"+itoa(a.picks)+".else", "%pick"+itoa(a.picks)+".end"
	a.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: c}, Target: other, NoCtrl: true})
	a.assign(dst, x)
	a.emit(prog.Jump{Target: end}, prog.Label{Name: other})
	a.assign(dst, y)
	a.emit(prog.Label{Name: end})
}

// a64CASOld is the register that receives the value a CAS reads.
const a64CASOld = "%casold"

// cas emits the compare-and-swap rmw (without its destination) and the
// write of its compare register rs, as herd7 7.58's CAS has them (its
// event structures for the succeeding and the failing CAS):
//   - the write to memory takes its data from Rt, and a pick dependency
//     from Rs and from the value read (the comparison);
//   - when the comparison succeeds, Rs gets the value read, which equals
//     what it holds: its data dependency is on Rs, its pick dependency on
//     the read;
//   - when it fails, Rs gets the value read, with a data dependency on
//     the read and a pick dependency on Rs.
//
// herd7 has a second event structure for each (since 2023): Rs written
// with the value read and a data dependency on the read alone, no pick.
// A test is allowed when one of them allows it, so the write of Rs is
// either of the two, a choice the engines make both ways
// (prog.Jump.Either). herdtools7's catalogue/aarch64-cas has the tests
// (LB+rel+CAS-ok-RsRs-addr, LB+rel+CAS-no-RsRs-addr: allowed through the
// second; MP+rel+CAS-ok-bothRs-addr: forbidden through both).
//
// exp is Rs as compared (masked to the access size), old the value read
// as compared (prog.Old, masked).
func (a *a64Thread) cas(size int, rs string, old, exp prog.Expr, rmw prog.RMW) {
	rmw.New = prog.Pick(rmw.New, exp)
	if rs == "" {
		a.emitAccess(size, rmw)
		return
	}
	rmw.Dst = a64CASOld
	a.emitAccess(size, rmw)
	read := prog.ReplaceOld(old, a64RegExpr(a64CASOld))
	ok := prog.Bin{Op: prog.OpEq, X: read, Y: exp}
	a.picks++
	data, end := "%cas"+itoa(a.picks)+".data", "%cas"+itoa(a.picks)+".end"
	a.emit(prog.Jump{Cond: a64RegExpr(a64CASOld), Target: data, NoCtrl: true, Either: true})
	a.pick(rs, ok, prog.Pick(exp, a64RegExpr(a64CASOld)), prog.Pick(a64RegExpr(a64CASOld), exp))
	a.emit(prog.Jump{Target: end}, prog.Label{Name: data})
	a.assign(rs, a64RegExpr(a64CASOld))
	a.emit(prog.Label{Name: end})
}
