package graph

import "os"

// Symmetry reduction and stale-read pruning under IMM.
//
// Both reductions are used under the built-in IMM as under rc11
// (symmetry.go, prune.go), with the changes below; MUSKET_IMM_NOREDUCE=1
// in the environment turns both off under IMM (for comparisons: tests
// and the command line), as Options.NoSymmetry and Options.NoSpinPrune
// turn each off under every model, and with them the two shortcuts of
// IMM's exploration below that leave out inconsistent graphs only: the
// placement of a read-modify-write's write by atomicity (rmwPlace) and
// the coherence filter of reads (immLow).
//
// What differs under IMM is the exploration (visitDep, after HMC): a
// backward revisit of read r by write w keeps the events added before r
// and w's dependency prefix (depPrefix), not its po ∪ rf prefix, so
// events po-after removed ones may stay and holes are filled later,
// an event may be added po-before events added earlier, and whether an
// event was added maximally is hwMaximal (coherence given the kept later
// events of its thread).
//
// Stale reads. visitDep leaves out a graph in which thread T stopped in
// a cut spin loop (Options.SpinReg) with a last event r, a read reading
// w0, while a write w1 coherence-after w0 was added before r (stamps),
// as prune.go does, when in addition r was added after every other
// event of T (lastAdded: no hole of T was filled after r). The closure
// part of prune.go's argument then holds under IMM: every graph the
// exploration builds from such a graph keeps T stopped after r, r
// reading w0, w1 coherence-after it.
//   - Forward steps insert events in the threads whose replay has an
//     event to add; T's replay consumed its events and ended, and its
//     events and their values do not change, so it stays ended. A write
//     is placed in coherence without reordering the others.
//   - A revisit of read r' removes the events added after r' outside the
//     prefix, only when they and r' were added maximally (hwMaximal, with
//     prev: added no later than the event, or in the prefix). r is
//     never such an event: it has no later event in T, so coherence
//     allows every write (lim is the whole order), and w1, added before
//     r, is coherence-after the write it reads. So r is never revisited
//     nor removed (a removal of r needs its maximality; r is in no
//     dependency prefix, being last in T with no event reading it, but
//     see the symmetry below). Nor are w1 and the other events of T,
//     added before r: a revisit removing one, or changing a read of T,
//     has r' added before them, so before r, and would remove r. Nor is
//     w0: a write a read added earlier reads (prev) is not maximal.
// The rest of prune.go's argument is about complete executions and
// holds under IMM as it is: removing r, last in its thread and read by
// no event, leaves a consistent graph (IMM's axioms are acyclicity and
// emptiness conditions on relations built from po, rf, co, fr, the
// dependencies and the tags by union, sequence, closure and
// intersection with static relations, so a subgraph's relations are
// within the whole graph's); an event added last in its thread that
// reads the coherence-latest write, is a write placed coherence-last
// (a read-modify-write's right after the write its read reads) or a
// fence has no outgoing edge in any relation of IMM (mustCheck), so the
// repair keeps the graph consistent; HMC's exploration builds every
// consistent complete execution along one path, which crosses no graph
// left out. symBlockedExplained's repairs are the same argument, and
// use the replay of dependency tracking (nextAny).
//
// Symmetry. The canonical-order condition (symOK: for symmetric threads
// p < q, at the first index where their events differ, q's event is not
// eco-before p's) is checked on every graph visitDep builds, as visit
// does; events at one index are compared only when they are of one
// instruction (a hole a revisit left in one thread shifts the indices:
// no graph is left out on such a comparison). The prefix IMM keeps is
// extended as the po ∪ rf prefix is under rc11: with every event of q
// it keeps, depPrefix keeps p's events up to the index q's matched
// (symPre, noted when the event is added or its read revisited, as
// visit does) and what determines them (symKept), so that a revisit
// never keeps q ahead of a p it removes over the prefix IMM keeps. Not
// proven, as under rc11: that the reduced exploration meets one
// execution of every class (its argument needs the revisit's kept
// graph, not only its prefix, to keep p's matching events, and under
// IMM the events kept for being added before r' are not closed under
// po); and, with both reductions on, the symmetric extension may keep a
// stale read r of p in a prefix (when q's event at r's index matches
// it), which the closure above excludes without symmetry. Both are
// checked by tests instead: the same verdicts with and without the
// reductions on every C program of the repository, and the complete
// executions of a reduced run are the classes of a full run
// (internal/graph/immsym_test.go).

// immReduceOff tells whether MUSKET_IMM_NOREDUCE turns the reductions
// off under IMM.
func immReduceOff() bool { return os.Getenv("MUSKET_IMM_NOREDUCE") != "" }

// immReduced tells whether visitDep leaves g out: the thread of the read
// just added or revisited (engine.fresh) stopped on a stale read, or a
// symmetric thread is ahead of its predecessor.
func (x *engine) immReduced(g *graph) (bool, error) {
	if x.spinPrune && x.fresh >= 0 {
		stale, err := x.staleBlocked(g, x.fresh)
		if err != nil {
			return false, err
		}
		if stale {
			x.stats.Pruned++
			return true, nil
		}
	}
	if x.sym != nil && !x.symOK(g) {
		x.stats.SymPruned++
		return true, nil
	}
	return false, nil
}

// lastAdded tells whether the last event of thread th was added after
// every other event of the thread.
func lastAdded(g *graph, th []int) bool {
	n := len(th)
	last := g.evs[th[n-1]].stamp
	for _, y := range th[:n-1] {
		if g.evs[y].stamp > last {
			return false
		}
	}
	return true
}

// symKept calls keep with the events of e's thread's symmetric
// predecessor that a prefix holding e holds too (its first symPre+1).
func (g *graph) symKept(e int, sym []int, keep func(int)) {
	ee := &g.evs[e]
	if ee.thread < 0 || ee.symPre < 0 || sym[ee.thread] < 0 {
		return
	}
	tp := g.threads[sym[ee.thread]]
	for _, y := range tp[:min(ee.symPre+1, len(tp))] {
		keep(y)
	}
}

// nextAny is the next event of thread t: by the replay of dependency
// tracking under a model with dependencies, by next otherwise.
func (x *engine) nextAny(g *graph, t int) (pending, error) {
	if x.deps {
		return x.nextDep(g, t)
	}
	return x.next(g, t)
}

// rmwPlace is the place in coherence of the write w of a
// read-modify-write that atomicity leaves it under IMM: right after the
// write its read reads (ok false when the read is not found).
//
// IMM requires rmw ∩ (fre ; coe) to be empty: no write of another
// thread between the two in coherence. A write w' of the same thread
// between them is ruled out by coherence (hb ; eco irreflexive): before
// the read in po, the read would read a write coherence-before one its
// thread wrote; after w in po, w' would be coherence-before a write
// po-before it. So every consistent graph has w right after the write
// its read reads, and the other places are not built. Placed there
// when that write is coherence-last, w is placed coherence-last, and
// has no outgoing edge when last in its thread (mustCheck); atomicity
// holds, no write being between the two.
func (g *graph) rmwPlace(w int) (int, bool) {
	ew := &g.evs[w]
	for _, y := range g.threads[ew.thread] {
		if ey := &g.evs[y]; ey.rmwR && ey.pc == ew.pc && ey.rf >= 0 {
			if p := g.coPos(ey.rf); p >= 0 {
				return p + 1, true
			}
		}
	}
	return 0, false
}

// immLow is, for the read of p about to be added to thread t of g (n
// writes to choose from), the coherence position below which a write it
// reads makes g inconsistent under IMM (0: none known); for a write (n
// writes in coherence), the position at or below which it may not be
// placed: hbLow, when the event is added last in its thread (no later
// event of t kept by a revisit, so the events of t that happen before
// it are those hbLow takes).
//
// hbLow walks rc11's hb; IMM's holds it on the same graph. IMM's
// release sequence ([W] ; sb-loc ; [W]) | ([W] ; (sb-loc? ; rf ; rmw)*)
// holds rc11's [W] ; sb-loc? ; [W ∩ atomic] ; (rf ; rmw)*; IMM's sw,
// ([Wrel] | [Frel] ; sb) ; rs ; rf ; ([Racq] | sb ; [Facq]), holds
// rc11's, which further asks the write that starts the sequence and the
// read to be atomic; so rc11's hb = (sb ∪ sw)+ is within IMM's. IMM's
// coherence axiom is rc11's (hb ; eco? irreflexive, eco the same), so
// a read or a write's place hbLow rules out under rc11 (hbview.go's
// argument) is inconsistent under IMM too. Options.CrossCheck evaluates each choice
// left out and fails the run if one is consistent.
func (x *engine) immLow(g *graph, t int, p pending, n int) int {
	if !x.immRMW || x.opts.NoCoFilter || n < 2 || p.pos != len(g.threads[t]) {
		return 0
	}
	return x.hbLow(g, t, p.e.loc)
}

// immSplitsRMW tells whether a write placed at position pos of loc's
// coherence order goes between the write of a read-modify-write and the
// write its read reads (splitsRMW, finding the read by its instruction:
// under IMM a thread may have a hole before the write). IMM's atomicity
// forbids it for a write of another thread, and coherence for one of the
// same thread (rmwPlace's argument).
func (g *graph) immSplitsRMW(loc string, pos int) bool {
	o := g.co[loc]
	if pos < 1 || pos >= len(o) {
		return false
	}
	ew := &g.evs[o[pos]]
	if !ew.rmwW || ew.thread < 0 {
		return false
	}
	for _, y := range g.threads[ew.thread] {
		if ey := &g.evs[y]; ey.rmwR && ey.pc == ew.pc {
			return ey.rf == o[pos-1]
		}
	}
	return false
}
