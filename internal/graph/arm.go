package graph

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// ARMv8 (the built-in aarch64.cat: Pulte, Flur, Deacon, French, Sarkar,
// Sewell, "Simplifying ARM Concurrency: Multicopy-atomic Axiomatic and
// Operational Models for ARMv8", POPL 2018), decided as Kokologiannakis,
// Vafeiadis, "HMC: Model Checking for Hardware Memory Models" (ASPLOS
// 2020) asks: the exploration of deps.go (events inserted into holes,
// threads replayed with their dependencies), each graph checked by
// the model's axioms (armnative.go; the CAT model under CrossCheck or
// MUSKET_ARM_NONATIVE), and a backward revisit of read r by write w
// keeping, besides the events added before r, the prefix of w
// (armPrefix): what ordered-before puts before w through external
// reads-from and the local orders (lob), and what determines each of
// those events (the events it depends on by address, data or control,
// the writes their reads read, the read and, when its value depends on
// no other read, the write of a read-modify-write), closed under the
// same. HMC's three requirements, for aarch64.cat:
//
// Prefix-closedness: a consistent graph restricted to a set of its
// events that holds the write of each read it holds is consistent. Every
// relation of aarch64.cat grows with the events but lrs (a read after
// the po-latest write of its thread to its location), which gains an
// edge when a write between the two is left out. In a graph that
// satisfies internal (which does grow with the events), lrs can be read
// as rfi in ob's cycles: when a read does not read the write w lrs
// relates it to, it reads a write of another thread coherence-after w
// (internal), and w coe;rfe the read is in ob. So acyclicity of ob is
// that of a relation that grows with the events, and holds on the
// restriction. (Mixed-size accesses, where haz and sca-class add more,
// are refused.)
//
// Extensibility: an event added last in its thread that reads the
// coherence-latest write, a write placed coherence-last, or a fence, has
// no outgoing edge in po, rf, co, fr, nor in what aarch64.cat builds from
// them (obs, dob, aob, bob, lws, haz, lrs, ca): the graph stays
// consistent. Any other addition is checked (mustCheck).
//
// No revisit is lost to the prefix: in a consistent graph where r reads
// w, r is not in w's prefix. Its first part holds events ob-before w
// (external reads-from and lob are in ob), the determining part of an
// event x is ob-before x by the argument below, and w rfe r closes a
// cycle of ob. For the determining part (w's dependency prefix): such a
// cycle r → … → w → r is
// made of steps between threads (rfe, in ob) and stretches inside one
// thread from a read a to a write b; each stretch has a ob+ b. Its steps
// go forward in po: a dependency (addr is in dob; data and ctrl to a
// write are; a read after a branch on a makes every later event of the
// thread, b included, ctrl-dependent on a, since in the code the engine
// runs, assembly and cfront's lowered C, a branch's control dependency
// covers every later event), reads-from within the thread, and the
// step from an atomic's read to its write (rmw, in aob). A write reached
// by address or data from a read a and read by a later read of its
// thread gives a ob that read ((addr | data); lrs, rfi being lrs under
// internal). The one stretch this does not cover is an atomic's write
// read by a later read of its thread, reached through the atomic's read
// (rmw; rfi), which aarch64.cat orders only when the later read is an
// acquire (A or Q), the atomic's read is one ([A|Q]; po), or a DMB
// orders them: armRMWRefuse (armrmw.go) refuses a program where it may
// close a cycle, by name. The prefix takes an atomic's write with its
// read only when its value depends on no other read (a CAS's or an exchange's constant,
// an addition of a constant): the write then brings no read its read
// does not; one whose value depends on another read is not taken (that
// read need not be ordered before the atomic's read: LDADD of a loaded
// value, whose read a later write depends on by control, would put
// that loaded read in the prefix), and a revisit that would keep such
// an atomic's read without its write is refused (armSplitRMW).
// herd7's scoped control dependencies (Jump.Join) and jumps without a
// dependency (Jump.NoCtrl) are refused: the argument needs a branch to
// order every later event.
//
// Maximality needs the events a removed read may read in the prefix:
// HMC's graph before a revisit of r by w has r and each removed event
// reading the coherence-latest write among the events added before it
// and the prefix, and when the prefix held only w's dependencies that
// graph was often inconsistent, so the revisit was never made. Two
// threads taking a lock by a CAS acquire and releasing it by a release
// store: the second thread's CAS, revisited by the first's unlock, must
// read the first's CAS write before (the write the unlock depends on by
// nothing), and its read of the counter the lock protects, removed,
// must read the first thread's increment, which the release orders
// before the unlock (bob) but no dependency does: the failing
// executions of such programs were missed. With what ordered-before
// puts before w in the prefix, those writes are there. Barriers that
// order events of the prefix (a DMB between two of them, the atomic of
// [A]; amo; [L]) are kept with them, so that a later revisit computes
// its prefix with them (a removed DMB comes back into its hole; without
// it in the prefix, executions were built twice).
//
// Power (herd7's power.cat, whose preserved program order is a fixpoint
// over ii, ic, ci, cc with read-different-writes and detours, and whose
// propagation and observation axioms hold fences and coherence
// together) is not shown to meet these requirements here, and is left
// to the SMT engine. So is RISC-V: its model evaluated with the
// exploration's coherence (riscv.cat less cos-opt.cat's generation of
// co) and the same prefix, maximality and a refusal stated by RVWMO's
// rules 3 and 5 gave the explicit engine's counts on 2998 of the 3013
// RISC-V tests of the corpus it decided, and fewer executions on 15
// (read-modify-writes whose writes carry .aq or .rl, among others): not
// sound yet.

// armModel tells whether the built-in model name is ARMv8's.
func armModel(name string) bool { return normModel(name) == "aarch64" }

// armPrefix is what a backward revisit by write w keeps under ARMv8 (w
// included), in two parts, as depPrefix has them for IMM. The first (A)
// holds w and what ordered-before puts before it through the edges that
// determine an event: external reads-from, and the local orders of
// aarch64.cat (lob: lws, dob, aob, bob; armLobPreds). The second (D)
// holds what determines each kept event: the reads it depends on (addr,
// data, ctrl, and every branch before it), the write each kept read
// reads, the read of a read-modify-write whose write is kept, closed
// under the same; a write reached only as the write a read of its own
// thread reads (rfi, not in ordered-before) brings what determines it,
// not what ordered-before puts before it. lob gives the local orders
// (armLobPreds for ARMv8; another model's, RISC-V's rvPpoPreds, the same
// way); whole, when not nil, says which atomics' writes are kept with
// their reads whatever their values depend on.
func (g *graph) armPrefix(w int, sc *prefScratch, lob func(x int, reads pcReads, f func(int)), whole func(y int) bool) []bool {
	reads := g.readAtInto(sc.rows)
	sc.rows = reads
	inA := sc.bools(len(g.evs))
	in := make([]bool, len(g.evs))
	aStack, dStack := sc.a[:0], sc.d[:0]
	defer func() { sc.a, sc.d = aStack[:0], dStack[:0] }()
	toA := func(y int) {
		if !inA[y] {
			inA[y] = true
			aStack = append(aStack, y)
		}
	}
	toD := func(y int) {
		if !in[y] {
			in[y] = true
			dStack = append(dStack, y)
		}
	}
	toA(w)
	for len(aStack) > 0 || len(dStack) > 0 {
		if len(aStack) > 0 {
			x := aStack[len(aStack)-1]
			aStack = aStack[:len(aStack)-1]
			toD(x)
			ex := &g.evs[x]
			if ex.thread < 0 {
				continue
			}
			if ex.kind == event.Read && ex.rf >= 0 && g.evs[ex.rf].thread != ex.thread {
				toA(ex.rf) // rfe
			}
			lob(x, reads, toA)
			continue
		}
		x := dStack[len(dStack)-1]
		dStack = dStack[:len(dStack)-1]
		ex := &g.evs[x]
		if ex.thread < 0 {
			continue
		}
		for _, pcs := range [...][]int{ex.addrD(), ex.dataD(), ex.ctrlD(), ex.sctrlD()} {
			for _, pc := range pcs {
				if r, ok := reads.at(ex.thread, pc); ok {
					toD(r)
				}
			}
		}
		if ex.kind == event.Read && ex.rf >= 0 {
			toD(ex.rf)
			if y := g.lastWriteBefore(x); y >= 0 {
				toD(y) // see lastWriteBefore
			}
		}
		if ex.rmwW {
			if r := g.rmwReadOf(x); r >= 0 {
				toD(r)
			}
		}
		if ex.rmwR {
			if y := g.rmwWriteOf(x); y >= 0 && (len(g.evs[y].dataD()) == 0 || whole != nil && whole(y)) {
				toD(y)
			}
		}
		if sc.sym != nil {
			g.symKept(x, sc.sym, toD) // (armsym.go)
		}
	}
	return in
}

// rmwWriteOf is the write of the read-modify-write whose read is x, or
// -1 (none in g).
func (g *graph) rmwWriteOf(x int) int {
	ex := &g.evs[x]
	th := g.threads[ex.thread]
	for j, y := range th {
		if y == x {
			if j+1 < len(th) && g.evs[th[j+1]].rmwW && g.evs[th[j+1]].pc == ex.pc {
				return th[j+1]
			}
			return -1
		}
	}
	return -1
}

// armLobPreds calls f on the events of x's thread that aarch64.cat's
// locally-ordered-before (lob = lws | dob | aob | bob, without mixed
// sizes) puts before x, but fences.
func (g *graph) armLobPreds(x int, reads pcReads, f func(int)) {
	g.armLobPredsExact(x, reads, false, f)
}

// armLobPredsExact is armLobPreds, without, when exact, the barriers the
// prefix keeps beside x (the last DMBs and ISB before it, the atomic of
// an [A]; amo; [L] before it), which lob does not put before x (the
// native check, armnative.go).
func (g *graph) armLobPredsExact(x int, reads pcReads, exact bool, f func(int)) {
	ex := &g.evs[x]
	t := ex.thread
	th := g.threads[t]
	p := 0
	for p < len(th) && th[p] != x {
		p++
	}
	dep := func(pcs []int) {
		for _, pc := range pcs {
			if r, ok := reads.at(t, pc); ok {
				f(r)
			}
		}
	}
	isW, isR := ex.kind == event.Write, ex.kind == event.Read
	acq := isR && hasTag(ex.tags, "A")
	// dob: addr | data | ctrl; [W]
	dep(ex.addrD())
	dep(ex.dataD())
	if isW {
		dep(ex.ctrlD())
	}
	// aob: rmw
	if ex.rmwW {
		if r := g.rmwReadOf(x); r >= 0 {
			f(r)
		}
	}
	// (addr | data); lrs and rmw; lrs; [A | Q] (herd7 7.58's aob: the
	// atomic's read, not its write, is ordered before the acquire): the
	// write lrs relates to x is its thread's latest write to its location
	// before it. The prefix (not exact) keeps the write as well, as it did
	// when aob had [range(rmw)]; lrs: a larger prefix, within porf, is
	// sound.
	if isR {
		for j := p - 1; j >= 0; j-- {
			if ey := &g.evs[th[j]]; ey.kind == event.Write && ey.loc == ex.loc {
				dep(ey.addrD())
				dep(ey.dataD())
				if ey.rmwW && (acq || hasTag(ex.tags, "Q")) {
					if r := g.rmwReadOf(th[j]); r >= 0 {
						f(r)
					}
					if !exact {
						f(th[j])
					}
				}
				break
			}
		}
	}
	// The barriers before x: the last full, load and store DMB, the last
	// ISB, and the read of the last atomic that is an acquire and a
	// release ([A]; amo; [L]).
	full, ld, st, isb, amo := -1, -1, -1, -1, -1
	for j := 0; j < p; j++ {
		ey := &g.evs[th[j]]
		if ey.kind == event.Fence {
			for _, tg := range ey.tags {
				switch {
				case armFullDMB[tg]:
					full = j
				case armLdDMB[tg]:
					ld = j
				case armStDMB[tg]:
					st = j
				case tg == "ISB":
					isb = j
				}
			}
			continue
		}
		if ey.rmwW && hasTag(ey.tags, "L") && j > 0 && g.evs[th[j-1]].rmwR && hasTag(g.evs[th[j-1]].tags, "A") && j < p &&
			(!exact || hasTag(ey.tags, "X") && hasTag(g.evs[th[j-1]].tags, "X")) {
			// (amo is rmw between X events, single-instruction atomics:
			// an exclusive pair, EX, is not one. The prefix keeps both.)
			amo = j - 1
		}
	}
	// The barriers that order events before x after them are kept with x
	// (a revisit that removed one would hide the order from the next
	// revisit's prefix, while the barrier comes back into its hole).
	for _, j := range [...]int{full, ld, amo} {
		if j >= 0 && !exact {
			f(th[j])
		}
	}
	if amo >= 0 && !exact {
		f(th[amo+1])
	}
	if isW && st >= 0 && !exact {
		f(th[st])
	}
	if isR && isb >= 0 && !exact {
		f(th[isb])
	}
	rel := isW && hasTag(ex.tags, "L")
	for j := 0; j < p; j++ {
		y := th[j]
		ey := &g.evs[y]
		if ey.kind == event.Fence {
			if isR && j == isb {
				dep(ey.ctrlD()) // ctrl; [ISB]; po; [R]
			}
			continue
		}
		if isW {
			dep(ey.addrD()) // addr; po; [W]
		}
		if isR && j < isb {
			dep(ey.addrD()) // addr; po; [ISB]; po; [R]
		}
		if isW && ey.loc == ex.loc || // lws
			j < full || // po; [dmb.full]; po
			j < ld && ey.kind == event.Read && !hasTag(ey.tags, "NoRet") || // [R \ NoRet]; po; [dmb.ld]; po
			j < st && isW && ey.kind == event.Write || // [W]; po; [dmb.st]; po; [W]
			j < amo || // po; ([A]; amo; [L]); po
			acq && ey.kind == event.Write && hasTag(ey.tags, "L") || // [L]; po; [A]
			ey.kind == event.Read && (hasTag(ey.tags, "A") || hasTag(ey.tags, "Q")) || // [A | Q]; po
			rel { // po; [L]
			f(y)
		}
	}
}

// hwMaximal is maximal under the models with dependency tracking
// (ARMv8, IMM), where a revisit keeps events po-after ones it removes
// (holes): an event removed is maximal
// when it reads the coherence-latest write, or is placed coherence-last,
// among the events prev says (added no later than it, or kept by the
// revisit) but for those coherence forbids it given the events of its
// thread after it on its location that prev holds: a read reads
// coherence-before every such write and no later than what every such
// read reads; a write goes coherence-before them. (TruSt's condition
// without that exception would never hold for a read removed before a
// write of its thread the revisit keeps, and the graphs needing it
// would not be built.)
func (g *graph) hwMaximal(e int, prev func(int) bool) bool {
	ee := &g.evs[e]
	// lim is the highest coherence position coherence allows e given
	// the later events of its thread (len(co): none).
	o := g.co[ee.loc]
	lim := len(o)
	after := false
	for _, y := range g.threads[ee.thread] {
		if y == e {
			after = true
			continue
		}
		ey := &g.evs[y]
		if !after || ey.loc != ee.loc || !prev(y) {
			continue
		}
		switch {
		case ey.kind == event.Write:
			if p := g.coPos(y); p >= 0 {
				lim = min(lim, p)
			}
		case ey.kind == event.Read && ey.rf >= 0 && ey.rf != e:
			if p := g.coPos(ey.rf); p >= 0 {
				if ee.kind == event.Read {
					p++ // a read may read what a later read reads
				}
				lim = min(lim, p)
			}
		}
	}
	switch ee.kind {
	case event.Read:
		if !prev(ee.rf) {
			return false
		}
		at := g.coPos(ee.rf)
		for k := at + 1; k < lim; k++ {
			if prev(o[k]) {
				return false
			}
		}
		return at >= 0 && at < lim
	case event.Write:
		for y := range g.evs {
			if ey := &g.evs[y]; ey.kind == event.Read && ey.rf == e && prev(y) {
				return false
			}
		}
		at := g.coPos(e)
		for k := at + 1; k < lim; k++ {
			if prev(o[k]) {
				return false
			}
		}
		return at >= 0
	}
	return true
}

// hwRules say, for a model, when the read of an atomic's write by a later
// read of its thread is ordered after the atomic's read.
type hwRules struct {
	ordered func(rmw prog.RMW) bool         // by the atomic itself
	exempt  func(tags []string) bool        // by the later read's tags
	fence   func(tags, rtags []string) bool // by a fence between (rtags: the atomic read's)
	target  string
}

// hwRefuse is the rule ARMv8's refusal followed before armRMWRefuse
// (armrmw.go), stated by a model's rules so that another model's,
// RVWMO's rule 3 and 5 say, can be stated the same way: any such read
// after such an atomic, whose value is used, with a write after.
func hwRefuse(th *prog.Thread, h hwRules) string {
	at := func(pc int) string { return hwAt(th, pc) }
	if why := jumpRefuse(th, h.target); why != "" {
		return why
	}
	for i, in := range th.Code {
		rmw, ok := in.(prog.RMW)
		if !ok || h.ordered(rmw) {
			continue
		}
		for j := i + 1; j < len(th.Code); j++ {
			var addr prog.Expr
			var dst string
			switch r := th.Code[j].(type) {
			case prog.Load:
				if !h.exempt(r.Tags) {
					addr, dst = r.Addr, r.Dst
				}
			case prog.RMW:
				if !h.exempt(r.RTags) {
					addr, dst = r.Addr, r.Dst
				}
			}
			// A read whose value goes nowhere (no later instruction reads
			// its register) leads on only through its own write, if it
			// has one: on the same location, which the model orders after
			// the atomic's read (lws). And a read with no write
			// after it in its thread is in no such cycle: the cycle
			// leaves the thread by a write after it; one to the atomic's
			// location is after the atomic's read in the same way.
			if addr == nil || !usedAfter(th, j, dst) || !writesAfter(th, j, rmw.Addr) || !mayAlias(rmw.Addr, addr) || hwFenced(th, i, j, rmw.RTags, h.fence) {
				continue
			}
			return at(j) + fmt.Sprintf("a read that is not an acquire after a read-modify-write (line %s) that is not one either, of a location that may be the same: under %s it may take that write's value before the read-modify-write reads, a load buffering the graph engine does not explore (left to the SMT engine)", lineOf(th, i), h.target)
		}
	}
	return ""
}

// jumpRefuse says why the engine does not decide thread th under a model
// with dependencies (target names it): a jump whose control dependency
// does not cover the rest of the thread ("" when none).
func jumpRefuse(th *prog.Thread, target string) string {
	for pc, in := range th.Code {
		if j, ok := in.(prog.Jump); ok && j.Cond != nil && (j.Join != "" || j.NoCtrl) {
			return hwAt(th, pc) + "a branch whose control dependency does not reach the end of the thread: the graph engine decides " + target + " only where it does (left to the SMT engine)"
		}
	}
	return ""
}

// hwAt is the position of instruction pc of th in a refusal.
func hwAt(th *prog.Thread, pc int) string {
	if pc < len(th.Pos) && th.Pos[pc].File != "" {
		return fmt.Sprintf("%s:%d: %s: ", th.Pos[pc].File, th.Pos[pc].Line, th.Name)
	}
	return th.Name + ": "
}

// usedAfter tells whether an instruction after j of th reads register
// reg.
func usedAfter(th *prog.Thread, j int, reg string) bool {
	if reg == "" {
		return false
	}
	for _, in := range th.Code[j+1:] {
		for _, u := range prog.Uses(in) {
			if u == reg {
				return true
			}
		}
	}
	return false
}

// writesAfter tells whether an instruction after j of th may write a
// location other than the one at addr (a constant one).
func writesAfter(th *prog.Thread, j int, addr prog.Expr) bool {
	c, ok := addr.(prog.Const)
	for _, in := range th.Code[j+1:] {
		if a, _, w, isAcc := prog.Access(in); isAcc && w {
			if ca, same := a.(prog.Const); !ok || !same || ca.V != c.V {
				return true
			}
		}
	}
	return false
}

// lineOf is the line of instruction pc of th, or its number.
func lineOf(th *prog.Thread, pc int) string {
	if pc < len(th.Pos) && th.Pos[pc].File != "" {
		return fmt.Sprint(th.Pos[pc].Line)
	}
	return fmt.Sprintf("instruction %d", pc)
}

// armAcquire tells whether tags make a read an acquire under aarch64.cat
// (A: LDAR and the A forms; Q: LDAPR).
func armAcquire(tags []string) bool {
	for _, t := range tags {
		if t == "A" || t == "Q" {
			return true
		}
	}
	return false
}

// mayAlias tells whether two addresses may be the same location: unless
// both are constants that differ.
func mayAlias(a, b prog.Expr) bool {
	ca, ok1 := a.(prog.Const)
	cb, ok2 := b.(prog.Const)
	if !ok1 || !ok2 {
		return true
	}
	return ca.V == cb.V
}

// hwFenced tells whether a fence that fence accepts (one that orders the
// atomic's read, of tags rtags, before every later read) lies between
// instructions i and j of th on every path (no label between it and j
// that a jump could reach it by).
func hwFenced(th *prog.Thread, i, j int, rtags []string, fence func(tags, rtags []string) bool) bool {
	for k := j - 1; k > i; k-- {
		switch in := th.Code[k].(type) {
		case prog.Label:
			return false
		case prog.Fence:
			if fence(in.Tags, rtags) {
				return true
			}
		}
	}
	return false
}

// The DMB and DSB options of aarch64.cat's dmb.full and dmb.ld.
var (
	armFullDMB = map[string]bool{"DMB.SY": true, "DMB.ISH": true, "DMB.OSH": true, "DMB.NSH": true,
		"DSB.SY": true, "DSB.ISH": true, "DSB.OSH": true, "DSB.NSH": true}
	armLdDMB = map[string]bool{"DMB.LD": true, "DMB.ISHLD": true, "DMB.OSHLD": true, "DMB.NSHLD": true,
		"DSB.LD": true, "DSB.ISHLD": true, "DSB.OSHLD": true, "DSB.NSHLD": true}
	armStDMB = map[string]bool{"DMB.ST": true, "DMB.ISHST": true, "DMB.OSHST": true, "DMB.NSHST": true,
		"DSB.ST": true, "DSB.ISHST": true, "DSB.OSHST": true, "DSB.NSHST": true}
)

// DecidesTarget tells whether the engine decides C programs compiled for
// target ("": not compiled, the C11 events as they are) under the model
// named model. For a hardware target: x86 under its model, tso (the
// compiled program's locked read-modify-writes and MFENCEs are the
// events the engine decides on the X86 litmus suite, with the explicit
// engine's counts on all 359 tests; on every C file of the repository
// it agreed with the SMT engine on all 120 both answered), and aarch64
// under ARMv8's (aarch64.cat: the engine's counts are the explicit
// engine's on the 2570 AArch64 litmus tests of the corpus it takes, and
// its verdicts the SMT engine's on the C files of the repository both
// answer), and riscv under RVWMO's (riscv.cat, riscv.go); the others
// are left to the SMT engine.
func DecidesTarget(target, model string) bool {
	return Supported(model) && (target == "" || target == "x86" && normModel(model) == "tso" || target == "aarch64" && armModel(model) || target == "riscv" && rvModel(model))
}

// rmwReadOf is the read of the read-modify-write whose write is y, or -1
// (y is not such a write).
func (g *graph) rmwReadOf(y int) int {
	ey := &g.evs[y]
	if !ey.rmwW || ey.thread < 0 {
		return -1
	}
	for _, z := range g.threads[ey.thread] {
		if ez := &g.evs[z]; ez.rmwR && ez.pc == ey.pc {
			return z
		}
	}
	return -1
}

// armSplitRMW refuses a revisit whose prefix pref keeps the read of an
// atomic read-modify-write of g without its write: armPrefix keeps the
// write with the read unless the value written depends on another read
// (which the prefix may not take along: an atomic's read is not ordered
// after what its write's value depends on). The revisit would remove
// the write and add it again, and a read of another thread that took it
// could not be revisited again (HMC's maximality needs what it reads in
// the prefix), nor could two atomics that read one write be told apart:
// executions would be missed.
func (x *engine) armSplitRMW(g *graph, pref []bool) error {
	for r := range g.evs {
		if !pref[r] || !g.evs[r].rmwR {
			continue
		}
		if y := g.rmwWriteOf(r); y >= 0 && !pref[y] {
			th := x.t.Threads[g.evs[r].thread]
			return &UnsupportedError{replayAt(th, g.evs[r].pc) + "an atomic read-modify-write whose written value depends on another read, kept without its write by a backward revisit: under " + normModel(x.res.Model) + " the graph engine does not explore such a revisit (left to the SMT engine)"}
		}
	}
	return nil
}
