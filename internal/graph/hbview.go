package graph

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
)

// Choices coherence rules out, under rc11, without a consistency check.
//
// When visit adds an event e last in its thread t to a consistent graph
// g (a read, with each write it may read; a write, at each place of its
// location's coherence order), no event reads e and nothing happens
// after e, so a cycle of g + e goes through e. rc11's coherence axiom
// (hb ; eco? irreflexive) already rules out many of the choices: let v
// be the latest coherence position of e's location that an access
// happening before e writes (or reads: the position of the write it
// reads).
//
//   - A read e reading a write w at a position below v is inconsistent:
//     the access a at v happens before e, and e is eco-before it (e fr
//     a when a is a write, e fr ; rf a when a reads), a cycle of
//     hb ; eco.
//   - A write e placed at a position p ≤ v is inconsistent: the write at
//     old position v then follows e in coherence, and the access a that
//     writes or reads it happens before e (e co a, or e co ; rf a).
//
//
// Atomicity rules out more places of a write: rc11 (rb ; mo) and the
// other models (fre ; coe) forbid a write between the write a
// read-modify-write reads and its own write, so a new write may not go
// right before a read-modify-write's write whose read reads the write
// right before it (splitsRMW).
//
// What happens before e: before a read, at least what happens before or
// is the last event of t (rc11's sw may add more through the write the
// read reads: leaving it out only keeps more choices for the check);
// before a write, exactly that (sw ends in acquire reads and fences).
// The choices left are checked as before; those left out were
// inconsistent, so the exploration builds the same executions and
// checks fewer graphs (Stats.Graphs). Under Options.CrossCheck every
// choice left out is checked, and the run fails if one is consistent.

// hbLow is the latest coherence position of location loc that an access
// happening before, or being, the last event of thread t of g writes or
// reads (0: the initial write, or t has no event), under rc11's hb
// (sb ∪ sw)+. It walks hb backwards: the events of a thread that happen
// before form a prefix of it, and an acquire read (or an acquire fence,
// through the atomic reads sb-before it) adds the release heads of the
// write it reads (swHeads).
func (x *engine) hbLow(g *graph, t int, loc string) int {
	th := g.threads[t]
	if len(th) == 0 {
		return 0
	}
	have := x.hbPrefix(g, t, len(th))
	return coPosMax(g, have, loc, x.coPositions(g, loc))
}

// hbPrefix is, for each thread u of g (have[u]), how many of u's first
// events happen before, or are among, the first k events of thread t,
// under rc11's hb, walked as hbLow says; in the engine's reused buffer
// (its entries past the threads' are scratch).
func (x *engine) hbPrefix(g *graph, t, k int) []int {
	T := len(g.threads)
	have := resize(x.hbHave, 2*T) // per thread: how many of its first events happen before, and how many of them were looked at
	x.hbHave = have
	clear(have)
	have[t] = k
	for changed := true; changed; {
		changed = false
		for u, tu := range g.threads {
			for ; have[T+u] < have[u]; have[T+u]++ {
				k := have[T+u]
				y := &g.evs[tu[k]]
				if y.mask&(tACQ|tACQREL|tSC) == 0 {
					continue
				}
				switch y.kind {
				case event.Read:
					if y.mask&(tRLX|tREL|tACQ|tACQREL|tSC) != 0 {
						changed = x.swHeads(g, y.rf, have) || changed
					}
				case event.Fence:
					for _, r := range tu[:k] {
						if er := &g.evs[r]; er.kind == event.Read && er.mask&(tRLX|tREL|tACQ|tACQREL|tSC) != 0 {
							changed = x.swHeads(g, er.rf, have) || changed
						}
					}
				}
			}
		}
	}
	return have
}

// coPositions is each event's position in loc's coherence order (-1:
// not a write of loc), in the engine's reused buffer.
func (x *engine) coPositions(g *graph, loc string) []int32 {
	pos := x.hbPos[:0]
	for range g.evs {
		pos = append(pos, -1)
	}
	x.hbPos = pos
	for k, w := range g.co[loc] {
		pos[w] = int32(k)
	}
	return pos
}

// coPosMax is the latest coherence position (pos, by event) of loc that
// an access among the first have[u] events of each thread u writes or
// reads (0: none): the bound below which hbLow and IMM's incremental
// decision (immincr.go) rule a write's places out.
func coPosMax(g *graph, have []int, loc string, pos []int32) int {
	v := 0
	for u, tu := range g.threads {
		for _, y := range tu[:have[u]] {
			ey := &g.evs[y]
			switch {
			case ey.loc != loc:
			case ey.kind == event.Read:
				v = max(v, int(pos[ey.rf]))
			case ey.kind == event.Write:
				v = max(v, int(pos[y]))
			}
		}
	}
	return v
}

// swHeads raises have (hbLow's prefixes) to the release heads of
// rc11's sw into an atomic read of write w: the release writes and
// fences a whose release sequence holds w. A release sequence starts with
// an atomic write s: its head s itself, or a release write to s's
// location or a release fence sb-before s; it goes on by rf ; rmw steps,
// so w's sequences start at w or, when w is a read-modify-write's write,
// at one that starts the sequence of the write its read reads. In a
// thread the heads of s end at the last such write or fence at or before
// s. It tells whether have grew.
func (x *engine) swHeads(g *graph, w int, have []int) bool {
	grew := false
	for w >= 0 {
		ew := &g.evs[w]
		if ew.thread < 0 || ew.kind != event.Write {
			return grew
		}
		th := g.threads[ew.thread]
		k := len(th) - 1
		for k >= 0 && th[k] != w {
			k--
		}
		if k < 0 {
			return grew
		}
		if ew.mask&(tRLX|tREL|tACQREL|tACQ|tSC) != 0 {
			for j := k; j >= 0; j-- {
				z := &g.evs[th[j]]
				if z.mask&(tREL|tACQREL|tSC) != 0 && (z.kind == event.Fence || z.kind == event.Write && z.loc == ew.loc) {
					if j+1 > have[ew.thread] {
						have[ew.thread] = j + 1
						grew = true
					}
					break
				}
			}
		}
		if !ew.rmwW || k == 0 || !g.evs[th[k-1]].rmwR {
			return grew
		}
		w = g.evs[th[k-1]].rf
	}
	return grew
}

// coFilter tells whether the coherence filter above applies: the native
// rc11 check decides the run.
func (x *engine) coFilter() bool {
	return (x.native == nativeRC11 || x.native == nativeTSO) && !x.deps && !x.opts.NoCoFilter
}

// ruledOut handles a choice the filter leaves out: nothing, unless
// Options.CrossCheck asks to confirm that the graph add makes (the
// function it returns reverts it) is inconsistent.
func (x *engine) ruledOut(g *graph, add func() func()) error {
	if !x.opts.CrossCheck {
		return nil
	}
	undo := add()
	defer undo()
	ok, err := x.consistent(g, nil)
	if err != nil {
		return err
	}
	if ok {
		return fmt.Errorf("internal error: the graph engine's coherence filter left out a consistent graph: %s", x.dump(g))
	}
	return nil
}

// splitsRMW tells whether a write placed at position pos of loc's
// coherence order would come between a read-modify-write's read and its
// write: the write now at pos is such a write, and its read reads the
// write now at pos-1.
func (g *graph) splitsRMW(loc string, pos int) bool {
	o := g.co[loc]
	if pos < 1 || pos >= len(o) {
		return false
	}
	w := o[pos]
	ew := &g.evs[w]
	if !ew.rmwW || ew.thread < 0 {
		return false
	}
	th := g.threads[ew.thread]
	for k := len(th) - 1; k > 0; k-- {
		if th[k] == w {
			r := &g.evs[th[k-1]]
			return r.rmwR && r.rf == o[pos-1]
		}
	}
	return false
}
