package graph

import (
	"fmt"
	"os"

	"github.com/musket-verify/musket/internal/event"
)

// IMM's consistency decided incrementally, for an event added last in
// its thread to a consistent graph.
//
// visitDep extends a graph g that is consistent under IMM (it was
// checked, or extended from a consistent graph by an event with no
// outgoing edge: mustCheck) by one event e of thread t, placed after
// every event of t (no hole of t is filled). When no event of g + e is
// SC (psc-base and psc-fence are then empty, and ar's psc too), g + e is
// decided without the whole check (immFast.decide), by the edges e
// brings, as follows. The relations of imm.cat built on g + e differ
// from g's only by pairs with e:
//   - nothing is sb-after e, so e has no outgoing sb, sb-loc, deps, bob,
//     ppo or detour edge, and every chain of ppo's (deps ∪ rfi)+ or of
//     rs's (sb-loc? ; rf ; rmw1)* through e would need an edge out of e
//     by sb or rmw (e's read-modify-write partner, when e is a read of
//     one, is not in the graph yet; when e is the write of one, nothing
//     reads e yet);
//   - no event reads e, so e has no outgoing rf, rfe, rfi, and no sw
//     starts at e's release sequences (a release sequence reaches a
//     reader through rf);
//   - sw ends in acquire reads and in acquire fences sb-after a read:
//     the only new sw edges end in e (a read), none for a write;
//   - so hb gains only edges into e, and hb between g's events is g's;
//     eco (rf, mo ; rf?, fr ; rf?, each one step) gains only pairs with
//     e as one end.
// Hence the axioms, on g + e:
//   - no-thin-air: ar = rfe ∪ bob ∪ ppo ∪ detour ∪ psc has no edge out
//     of e (psc is empty), so a cycle of ar would be one of g: none;
//   - sc: empty relations without SC events;
//   - atomicity (rmw1 ∩ fre ; coe): for a read e, its pair is not in
//     the graph and the other pairs' fre ; coe are g's; for a write e
//     placed at position p of its location's coherence order, a pair
//     (a, b) gains a path a fre e coe b only when e is placed between
//     the write a reads and b, which (rmwPlace's argument, immsym.go) is
//     inconsistent whatever e's thread (immSplitsRMW rules these places
//     out); and when e is the write of a read-modify-write, its own pair
//     holds atomicity exactly when no write is placed between the write
//     its read reads and e (rmwPlace: the only place visitDep builds);
//   - coherence (hb ; eco? irreflexive): hb gains no cycle (nothing
//     after e), and a new pair of hb ; eco must have e at one end with
//     hb into e, so the graph is inconsistent exactly when an access a
//     happening before e (a ≠ e) is eco-after e: for a read e reading
//     w, a is a write of e's location coherence-after w (e fr a) or
//     reads one (e fr ; rf a); for a write e placed at p, a is a write
//     placed after e (e mo a) or reads one (e mo ; rf a).
// So, with v the latest coherence position of e's location that an
// access happening before e writes or reads (immHbMax, IMM's hb:
// sb ∪ sw with IMM's release sequences, walked backwards thread prefix by
// thread prefix as hbLow walks rc11's), a read reading the write at
// position q is consistent exactly when q ≥ v, and a write placed at
// position p (the writes at p and above moving up) exactly when p > v,
// it splits no read-modify-write and, the write of one, it is placed
// right after the write its read reads. The check of a graph so decided
// costs two walks of the events, where immFast.decide builds clocks
// for every event, sw, and the ar rows. The data-race flag is not
// decided here: for a complete graph whose flags it wants, complete
// asks immFlags, which computes the graph's clocks alone (immLeaf).
//
// Options.CrossCheck checks every graph so decided with the CAT model
// (and every choice ruled out), and fails the run on a disagreement;
// MUSKET_IMM_NOINCR=1 in the environment turns the decision off (the
// tests compare the counts of runs with and without it).

// immIncr is the scratch and state of the incremental decision.
type immIncr struct {
	// decided: the graph visitDep is called with next was found
	// consistent by this decision (visitDep takes it at once).
	decided bool
	// coDecided: visitCOsAbove's places not ruled out are consistent.
	coDecided bool
	// off: MUSKET_IMM_NOINCR turns the decision off (read once: inited).
	off, inited bool
	have        []int // per thread: how many of its first events happen before e, then how many were looked at
	base        []int
	pos         []int32 // coherence position of each write of the location, -1 for other events
	heads       []int   // immHeads's work list
	at          []int   // each event's place in its thread
	// seen marks the writes immHeads has taken as chain steps: baseMark
	// for those of the base prefixes (which every extension holds),
	// curMark for those of the current extension.
	seen              []int
	gen               int
	baseMark, curMark int
}

// start begins a decision on g: places, and fresh marks.
func (s *immIncr) start(g *graph) {
	s.at = resize(s.at, len(g.evs))
	for _, th := range g.threads {
		for j, e := range th {
			s.at[e] = j
		}
	}
	s.seen = resize(s.seen, len(g.evs))
	if s.gen == 0 {
		clear(s.seen)
	}
	s.gen++
	s.baseMark, s.curMark = -1, s.gen
}

// fixBase ends the base prefixes: their marks hold for every extension.
func (s *immIncr) fixBase() { s.baseMark = s.curMark }

// extend begins an extension of the base prefixes (its own marks).
func (s *immIncr) extend() {
	s.gen++
	s.curMark = s.gen
}

// immIncrOn tells whether the incremental decision applies to p's event,
// about to be added to thread t of g.
func (x *engine) immIncrOn(g *graph, t int, p pending) bool {
	s := &x.arena.incr
	if !s.inited {
		s.inited, s.off = true, immNoIncrEnv()
	}
	if !x.imm || s.off || p.pos != len(g.threads[t]) || p.e.mask&tSC != 0 {
		return false
	}
	for i := range g.evs {
		if g.evs[i].mask&tSC != 0 {
			return false
		}
	}
	return true
}

// immNoIncrEnv tells whether MUSKET_IMM_NOINCR turns the decision off.
func immNoIncrEnv() bool { return os.Getenv("MUSKET_IMM_NOINCR") != "" }

// immReadOK decides, for each write ws[i] of loc that the read e about
// to be added last to thread t of g may read, whether g + e reading it
// is consistent under IMM (see above); ok is false when a read of g has
// no write yet (not decided).
func (x *engine) immReadOK(g *graph, t int, e *ev, ws []int) (dec []bool, ok bool) {
	s := &x.arena.incr
	if !s.positions(g, e.loc) {
		return nil, false
	}
	T := len(g.threads)
	s.start(g)
	s.base = x.immHave(g, t, len(g.threads[t]), s.base)
	if s.base == nil {
		return nil, false
	}
	v := s.hbMax(g, s.base[:T], e.loc)
	s.fixBase()
	dec = make([]bool, len(ws))
	acq := e.mask&immAcq != 0
	for i, w := range ws {
		vw := v
		if acq && g.evs[w].thread >= 0 {
			// sw into e: the release heads of w, and what happens
			// before them.
			s.have = append(s.have[:0], s.base...)
			s.extend()
			if x.immHeads(g, w, s.have) {
				if !x.immClose(g, s.have) {
					return nil, false
				}
				vw = s.hbMax(g, s.have[:T], e.loc)
			}
		}
		dec[i] = int(s.pos[w]) >= vw
	}
	return dec, true
}

// immWriteAbove is, for the write e about to be added last to thread t
// of g, the coherence position at or below which placing it is
// inconsistent (see above); ok is false when not decided.
func (x *engine) immWriteAbove(g *graph, t int, e *ev) (int, bool) {
	s := &x.arena.incr
	if !s.positions(g, e.loc) {
		return 0, false
	}
	s.start(g)
	s.base = x.immHave(g, t, len(g.threads[t]), s.base)
	if s.base == nil {
		return 0, false
	}
	return s.hbMax(g, s.base[:len(g.threads)], e.loc), true
}

// positions fills s.pos with the coherence positions of loc's writes;
// false when a read of g has no write.
func (s *immIncr) positions(g *graph, loc string) bool {
	s.pos = s.pos[:0]
	for i := range g.evs {
		if g.evs[i].kind == event.Read && g.evs[i].rf < 0 {
			return false
		}
		s.pos = append(s.pos, -1)
	}
	for k, w := range g.co[loc] {
		s.pos[w] = int32(k)
	}
	return true
}

// hbMax is the latest coherence position of loc that an access among
// the first have[u] events of each thread u writes or reads (0: none).
func (s *immIncr) hbMax(g *graph, have []int, loc string) int {
	return coPosMax(g, have, loc, s.pos)
}

// immHave is, in have (2 rows of len(g.threads), reused), how many of
// each thread's first events happen before (IMM's hb) an event added
// after the first k events of thread t that no sw edge ends in: the
// first k of t, closed under sw (immClose). nil when a read has no
// write.
func (x *engine) immHave(g *graph, t, k int, have []int) []int {
	T := len(g.threads)
	have = resize(have, 2*T)
	clear(have)
	have[t] = k
	if !x.immClose(g, have) {
		return nil
	}
	return have
}

// immClose closes the prefixes have[:T] under IMM's sw: each acquire read
// among them, and each read sb-before an acquire fence among them, adds
// the release heads of the write it reads (immHeads) with their
// prefixes; have[T:] counts, per thread, the events already looked at.
// False when a read has no write.
func (x *engine) immClose(g *graph, have []int) bool {
	T := len(g.threads)
	for changed := true; changed; {
		changed = false
		for u, tu := range g.threads {
			for ; have[T+u] < have[u]; have[T+u]++ {
				k := have[T+u]
				y := &g.evs[tu[k]]
				if y.mask&immAcq == 0 {
					continue
				}
				switch y.kind {
				case event.Read:
					if y.rf < 0 {
						return false
					}
					changed = x.immHeads(g, y.rf, have) || changed
				case event.Fence:
					for _, r := range tu[:k] {
						if er := &g.evs[r]; er.kind == event.Read {
							if er.rf < 0 {
								return false
							}
							changed = x.immHeads(g, er.rf, have) || changed
						}
					}
				}
			}
		}
	}
	return true
}

// immHeads raises have to the release heads of IMM's sw into a read of
// write w: release = ([Wrel] | [Frel] ; sb) ; rs, rs = [W] ; sb-loc ;
// [W] | [W] ; (sb-loc? ; rf ; rmw1)*. The writes whose rs holds w are
// w, the writes sb-loc-before w, and, back along the chain, for a
// read-modify-write's write w' reached (w first), the write z its read
// reads and the writes sb-loc-before z, and so on from each of those
// that is a read-modify-write's write. For each such write w0 the heads
// are w0 when it is a release write, and the release fences sb-before
// it; the prefix they bring ends at the last release write to w0's
// location or release fence at or before w0 (one at or before a later
// write of the group covers those before it). It tells whether have
// grew.
func (x *engine) immHeads(g *graph, w int, have []int) bool {
	s := &x.arena.incr
	grew := false
	work := append(s.heads[:0], w)
	top := true // w itself: the sb-loc-before writes are heads, not chain steps
	for len(work) > 0 {
		z := work[len(work)-1]
		work = work[:len(work)-1]
		ez := &g.evs[z]
		if ez.thread < 0 || ez.kind != event.Write {
			top = false
			continue
		}
		th := g.threads[ez.thread]
		k := s.at[z]
		for j := k; j >= 0; j-- {
			y := &g.evs[th[j]]
			if y.mask&immRel != 0 && (y.kind == event.Fence || y.kind == event.Write && y.loc == ez.loc) {
				if j+1 > have[ez.thread] {
					have[ez.thread] = j + 1
					grew = true
				}
				break
			}
		}
		// Chain steps back: from z (and, below w itself, from each
		// write sb-loc-before z) when it is a read-modify-write's write.
		lo := 0
		if top {
			lo = k
		}
		for j := k; j >= lo; j-- {
			y := &g.evs[th[j]]
			if y.kind != event.Write || y.loc != ez.loc || !y.rmwW {
				continue
			}
			// (its read right before it, as the native checks pair them)
			if j > 0 {
				if r := &g.evs[th[j-1]]; r.rmwR && r.pc == y.pc && r.rf >= 0 && s.visit(r.rf) {
					work = append(work, r.rf)
				}
			}
		}
		top = false
	}
	s.heads = work[:0]
	return grew
}

// visit marks write w as taken by immHeads's current walk; false when it
// was already.
func (s *immIncr) visit(w int) bool {
	if s.seen[w] == s.curMark || s.seen[w] == s.baseMark {
		return false
	}
	s.seen[w] = s.curMark
	return true
}

// immDecided notes a graph the incremental decision found consistent:
// immFlags must not take the clocks of the graph checked before it for
// its own. Under Options.CrossCheck the graph is checked again and a
// disagreement fails the run.
func (x *engine) immDecided(g *graph) error {
	x.arena.fast.lastOK = false
	if !x.opts.CrossCheck {
		return nil
	}
	ok, err := x.consistent(g, nil)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("internal error: the incremental IMM check found consistent a graph the model does not: %s", x.dump(g))
	}
	return nil
}

// immCounted counts a graph so decided as checked, when visitDep goes on
// from it. A complete one is counted by immLeaf.
func (x *engine) immCounted(g *graph) {
	if x.opts.CrossCheck {
		return // (counted by its check)
	}
	x.countGraph(g)
}

// immLeaf counts as checked a complete graph known consistent without
// a check: the incremental decision found it so, or it extends a
// consistent graph by an event with no outgoing edge (mustCheck), as
// the inner graphs visitDep goes on from without a check. complete then
// wants its data-race flag only (immFlags computes the clocks of the
// graph for it, when the flags are wanted); the count is that of the
// whole check complete made of such a graph before.
func (x *engine) immLeaf(g *graph) {
	x.arena.fast.lastOK = false
	x.countGraph(g)
}

// immRevisitAbove is, for the graph c a backward revisit made (read r
// now reading write w, w not yet placed in coherence), the coherence
// position at or below which placing w makes c inconsistent; decided is
// false when the decision does not apply, and every place above it
// (that visitCOsAbove does not rule out by atomicity) is consistent.
//
// c without r and w is a restriction of the graph w was added to, which
// was consistent, and IMM's consistency holds on restrictions (its
// axioms are acyclicity and emptiness conditions on relations built
// from po, rf, co, fr, the dependencies and the tags by union,
// sequence, closure and intersection with static sets: a restriction's
// relations are within the whole graph's; immsym.go). When w is last in
// its thread, r last in its own, and no event is SC, c is that
// consistent graph extended by w and then by r, each last in its
// thread, and the decision above applies twice: w at position p (the
// writes at p and above moving up) keeps the graph consistent exactly
// when p exceeds vW, the latest coherence position an access happening
// before w writes or reads (r is not one: nothing happens after r, and
// r is not sb-before w, revisits leaving out a read of a write of its
// own thread's later instruction), it splits no read-modify-write and,
// the write of one, it follows the write its read reads; then r
// reading w is consistent exactly when no access happening before r
// (IMM's hb, with sw from w's release heads when r is an acquire) is at
// a position above p, that is when p exceeds vR, the latest position
// of such an access before w is placed (a read of w among them is at
// w's place).
func (x *engine) immRevisitAbove(c *graph, w, r int) (above int, decided bool) {
	s := &x.arena.incr
	if !s.inited {
		s.inited, s.off = true, immNoIncrEnv()
	}
	if !x.imm || s.off || !x.immRMW || x.opts.NoCoFilter {
		return -1, false
	}
	ew, er := &c.evs[w], &c.evs[r]
	tw, tr := c.threads[ew.thread], c.threads[er.thread]
	if ew.thread == er.thread || tw[len(tw)-1] != w || tr[len(tr)-1] != r {
		return -1, false
	}
	for i := range c.evs {
		if c.evs[i].mask&tSC != 0 {
			return -1, false
		}
	}
	if !s.positions(c, ew.loc) {
		return -1, false
	}
	T := len(c.threads)
	s.start(c)
	s.base = x.immHave(c, ew.thread, len(tw)-1, s.base)
	if s.base == nil {
		return -1, false
	}
	vW := s.hbMax(c, s.base[:T], ew.loc)
	s.start(c) // (fresh marks: the prefixes start again)
	s.base = x.immHave(c, er.thread, len(tr)-1, s.base)
	if s.base == nil {
		return -1, false
	}
	if er.mask&immAcq != 0 && x.immHeads(c, w, s.base) && !x.immClose(c, s.base) {
		return -1, false
	}
	vR := s.hbMax(c, s.base[:T], ew.loc)
	return max(vW, vR), true
}
