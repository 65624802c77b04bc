package graph

import (
	"sync"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// RISC-V (the built-in riscv.cat: RVWMO, the RISC-V Unprivileged ISA's
// "RVWMO Memory Consistency Model"), decided as ARMv8 is (arm.go), by the
// argument of Kokologiannakis, Vafeiadis, "HMC: Model Checking for
// Hardware Memory Models" (ASPLOS 2020): the exploration of deps.go, each
// graph checked natively against the model's axioms (rvnative.go; the CAT
// model under Options.CrossCheck or MUSKET_RV_NONATIVE), and a backward revisit by
// write w keeping w's prefix (armPrefix with rvPpoPreds): what the global
// memory order puts before w through external reads-from and preserved
// program order (ppo, rules 1 and 3 to 13; rule 2 below), and what
// determines each of those events (addr, data, ctrl, the write each read
// reads, the two halves of an atomic). RVWMO is other-multi-copy atomic
// like ARMv8: its axioms are the load value axiom (acyclic po-loc | rf |
// co | fr), the global order (acyclic ppo | rfe | co | fr) and
// atomicity. HMC's three requirements:
//
// Prefix-closedness: every relation of riscv.cat grows with the events
// but rule 2 (two reads of one location with no write between them in
// po, not reading the same write), which gains an edge when a write
// between is left out. Under the load value axiom rule 2 is in fr; rfe:
// if r1 po-loc r2 read w1 ≠ w2, coherence puts w1 co w2 (so r1 fr w2),
// and w2 is not of their thread (before r1 it would be co-before w1;
// between them it would be the store between; after r2 it could not be
// read by it). So acyclicity of the global order is that of ppo without
// rule 2, with rfe, co and fr: relations that grow with the events, and
// a restriction of a consistent graph (keeping the write of each read
// kept) is consistent. riscv.cat takes its coherence orders from herd's
// cos-opt.cat (every order containing what po and rf show, which the
// load value axiom forces anyway); the engine gives co itself and
// evaluates the model with that include left out (rvCoGiven).
//
// Extensibility: an event added last in its thread that reads the
// coherence-latest write, a write placed coherence-last, or a fence, has
// no outgoing edge in po, rf, co, fr, nor in ppo (which goes forward in
// po): the graph stays consistent. Other additions are checked
// (mustCheck).
//
// No revisit is lost to the prefix: in a consistent graph where r reads
// w from another thread, r is not in w's prefix. Were it, a chain of the
// prefix's steps would lead from r to w: first steps of the determining
// part (addr, data, ctrl, rf, the two halves of an atomic), then steps
// of the global order (rfe, ppo). Every step but ctrl to a read and rfi
// is in the global order (addr is rule 9, data and ctrl to a write 10
// and 11, an atomic's read to its write 8, or the same event for an AMO,
// which the model sees as one event). Cut the chain into stretches
// inside one thread, each from a read (r, or a read entered by rfe) to a
// write (left by rfe, or w). In a stretch, a branch on read c makes
// every later event ctrl-dependent on c (the engine refuses branches
// whose dependency does not cover the rest of the thread, rvRefuse), so
// c ppo the stretch's write by rule 11, and the stretch up to c is what
// remains. An rfi step from write x to read y then follows a step into
// x by addr or data from a (rule 12: a ppo y), or from the read of x's
// atomic: an AMO's write is X, and rule 3 ([X & W]; rfi; [R]) orders it
// before y; the write of another atomic (C's read-modify-writes compiled
// for RISC-V, without X) is ordered so only when its read is an acquire
// or a fence r,r (or stronger) lies between: when a revisit is not made
// because its read is in the prefix, and the prefix holds a read taking
// such a write without that order, rvLost refuses the program by name
// (armRefuse refuses such programs before the run for ARMv8; refusing
// at the revisit keeps the lock and queue programs whose atomics are
// relaxed or release). So each stretch is in ppo+, and w rfe r closes a
// cycle of the global order. A read of w's own thread after it (r would
// read w by rfi) is not covered: rvLost refuses it too, when met.
//
// An atomic's write kept with its read adds nothing its read does not
// when it is an AMO (one event for the model) or its value depends on no
// read. The prefix keeps the two halves together always (so no revisit
// splits them, which armSplitRMW would refuse); when a revisit is
// skipped while the prefix holds the write of another atomic whose value
// depends on a read, or a read taking such a write early (above), rvLost
// checks that r is before w in the global order all the same (rvBefore),
// or refuses.
//
// Maximality is hwMaximal's, with the same reason as under ARMv8 for
// keeping in the prefix what the global order puts before w (the release
// and acquire fences of a lock, which no dependency orders), and the
// fences that order kept events are kept with them.
//
// Stale-read pruning (prune.go) is on under RVWMO as under ARMv8:
// hwprune.go gives the argument for both. MUSKET_HW_NOPRUNE=1 (or
// MUSKET_IMM_NOREDUCE=1) turns it off.
//
// Store-conditionals (lr/sc) are not supported by the engine; mixed-size
// accesses are refused.

// rvModel tells whether the built-in model name is RVWMO's.
func rvModel(name string) bool { return normModel(name) == "riscv" }

var (
	rvOnce       sync.Once
	rvModelGiven *cat.Model
	rvErr        error
)

// rvCoGiven is the built-in riscv.cat with its include of cos-opt.cat (the
// coherence orders it generates) replaced by nothing: the engine gives
// co, coi, coe, fr, fri and fre of each graph, and the load value axiom,
// which the model keeps, rejects the orders cos-opt.cat would not give.
func rvCoGiven() (*cat.Model, error) {
	rvOnce.Do(func() {
		src, err := cat.BuiltinSource("riscv")
		if err != nil {
			rvErr = err
			return
		}
		files := map[string][]byte{
			"riscv.cat":   src,
			"cos-opt.cat": []byte("\"coherence given by Musket's graph engine\"\n"),
		}
		rvModelGiven, rvErr = cat.LoadText("riscv.cat", files, cat.LoadOptions{})
	})
	return rvModelGiven, rvErr
}

// rvSingle tells whether event y is a half of an AMO the model sees as
// one event (prog.RMW.Single).
func (x *engine) rvSingle(g *graph, y int) bool {
	ey := &g.evs[y]
	if !x.rvFused || ey.thread < 0 || !ey.rmwR && !ey.rmwW {
		return false
	}
	if x.rvSingles == nil {
		// Once per run: which instructions are AMOs the model fuses.
		x.rvSingles = make([][]bool, len(x.t.Threads))
		for t, th := range x.t.Threads {
			x.rvSingles[t] = make([]bool, len(th.Code))
			for pc, in := range th.Code {
				rmw, ok := in.(prog.RMW)
				x.rvSingles[t][pc] = ok && rmw.Single
			}
		}
	}
	at := x.rvSingles[ey.thread]
	return ey.pc >= 0 && ey.pc < len(at) && at[ey.pc]
}

// rvPrefix is what a backward revisit by write w keeps under RVWMO.
func (x *engine) rvPrefix(g *graph, w int) []bool {
	return g.armPrefix(w, &x.arena.pref,
		func(e int, reads pcReads, f func(int)) { x.rvPpoPreds(g, e, reads, f) },
		func(int) bool { return true })
}

// rvFence says which orders a fence of tags makes, by riscv.cat's fence
// classes fences-rr, -rw, -wr, -ww.
func rvFence(tags []string) (rr, rw, wr, ww bool) {
	for _, t := range tags {
		switch t {
		case "Fence.r.r":
			rr = true
		case "Fence.r.w":
			rw = true
		case "Fence.w.r":
			wr = true
		case "Fence.w.w":
			ww = true
		case "Fence.r.rw":
			rr, rw = true, true
		case "Fence.w.rw":
			wr, ww = true, true
		case "Fence.rw.r":
			rr, wr = true, true
		case "Fence.rw.w":
			rw, ww = true, true
		case "Fence.rw.rw":
			rr, rw, wr, ww = true, true, true, true
		case "Fence.tso":
			rr, rw, ww = true, true, true
		}
	}
	return
}

// rvAcquire, rvRelease: riscv.cat's acquire and release annotations.
func rvAcquire(tags []string) bool {
	return hasTag(tags, "Acq") || hasTag(tags, "AcqRel") || hasTag(tags, "Sc")
}

func rvRelease(tags []string) bool {
	return hasTag(tags, "Rel") || hasTag(tags, "AcqRel") || hasTag(tags, "Sc")
}

// rvPpoPreds calls f on the events of e's thread that riscv.cat's
// preserved program order puts before e (rules 1 and 3 to 13; rule 2 is
// in fr; rfe, see above), on the fences that order them before e, and
// on the other half of e when e is half of an AMO (one event for the
// model: its orders are those of both halves). Nothing for a fence.
func (x *engine) rvPpoPreds(g *graph, e int, reads pcReads, f func(int)) {
	ee := &g.evs[e]
	if ee.kind != event.Read && ee.kind != event.Write {
		return
	}
	t := ee.thread
	th := g.threads[t]
	p := 0
	for p < len(th) && th[p] != e {
		p++
	}
	var memberBuf [2]int
	members := append(memberBuf[:0], e)
	start := p // the first of e's halves
	tags := ee.tags
	if x.rvSingle(g, e) {
		other := g.rmwReadOf(e)
		if ee.rmwR {
			other = g.rmwWriteOf(e)
		}
		if other >= 0 {
			members = append(members, other)
			f(other)
			if ee.rmwW {
				start = p - 1
			}
			tags = append(append([]string(nil), ee.tags...), g.evs[other].tags...)
		}
	} else if ee.rmwW {
		if r := g.rmwReadOf(e); r >= 0 {
			f(r) // rule 8
		}
	}
	isR, isW := false, false
	for _, m := range members {
		isR = isR || g.evs[m].kind == event.Read
		isW = isW || g.evs[m].kind == event.Write
	}
	dep := func(pcs []int) {
		for _, pc := range pcs {
			if r, ok := reads.at(t, pc); ok {
				f(r)
			}
		}
	}
	for _, m := range members {
		em := &g.evs[m]
		dep(em.addrD()) // rule 9
		if isW {
			dep(em.dataD()) // rule 10
			dep(em.ctrlD()) // rule 11
		}
		// Rules 3 and 12: the write of e's thread e reads.
		if em.kind == event.Read && em.rf >= 0 && g.evs[em.rf].thread == t {
			y := em.rf
			ws := []int{y}
			if x.rvSingle(g, y) {
				if r := g.rmwReadOf(y); r >= 0 {
					ws = append(ws, r)
				}
			}
			if hasTag(g.evs[y].tags, "X") {
				f(y) // rule 3
			}
			for _, z := range ws {
				dep(g.evs[z].addrD()) // rule 12
				dep(g.evs[z].dataD())
			}
		}
	}
	rel := rvRelease(tags) // (rule 6: any event of release; a read so tagged is an AMO's read whose write is not in g yet)
	rcsc := hasTag(tags, "X") && (rvAcquire(tags) || rvRelease(tags))
	// Fences before e that order something before it (rule 4), with
	// what they order.
	var rr, rw, wr, ww bool // ordered through a fence after the event
	for j := start - 1; j >= 0; j-- {
		y := th[j]
		ey := &g.evs[y]
		if ey.kind == event.Fence {
			frr, frw, fwr, fww := rvFence(ey.tags)
			if isR && (frr || fwr) || isW && (frw || fww) {
				f(y)
			}
			rr, rw, wr, ww = rr || frr, rw || frw, wr || fwr, ww || fww
			continue
		}
		if ey.kind != event.Read && ey.kind != event.Write {
			continue
		}
		yR, yW := ey.kind == event.Read, ey.kind == event.Write
		if x.rvSingle(g, y) {
			yR, yW = true, true
		}
		switch {
		case isW && ey.loc == ee.loc, // rule 1
			yR && isR && rr, yR && isW && rw, yW && isR && wr, yW && isW && ww, // rule 4
			rvAcquire(ey.tags), // rule 5
			rel,                // rule 6
			rcsc && hasTag(ey.tags, "X") && (rvAcquire(ey.tags) || rvRelease(ey.tags)): // rule 7
			f(y)
		}
		if isW {
			dep(ey.addrD()) // rule 13: addr; po; [W]
		}
	}
}

// rvRefuse says why the engine does not decide thread th under RVWMO
// ("" when it does): a jump whose control dependency does not cover the
// rest of the thread (the argument above needs a branch to order every
// later write). The load buffering through an atomic's write read early
// by its own thread, which armRefuse refuses for ARMv8 before the run,
// is refused during the run, when a revisit would be lost to it
// (rvLost).
func rvRefuse(th *prog.Thread) string {
	return hwRefuse(th, hwRules{
		ordered: func(prog.RMW) bool { return true },
		exempt:  func([]string) bool { return true },
		fence:   func(_, _ []string) bool { return true },
		target:  "riscv",
	})
}
