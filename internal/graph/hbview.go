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
// (sb ∪ sw)+. x.vchk is the scratch space; x.chk, which the
// consistency checks and nativeFlags share, is left alone.
func (x *engine) hbLow(g *graph, t int, loc string) int {
	th := g.threads[t]
	if len(th) == 0 {
		return 0
	}
	c := &x.vchk
	c.tagN = x.opts.TagNames
	c.prepare(g)
	c.swLists(c.synchronisesWith)
	T := len(g.threads)
	have := resize(c.starts, 2*T) // per thread: events hb-before e (a prefix), and how many of them were scanned
	c.starts = have
	clear(have)
	have[t] = len(th)
	for changed := true; changed; {
		changed = false
		for u, tu := range g.threads {
			for ; have[T+u] < have[u]; have[T+u]++ {
				for _, a := range c.sw[tu[have[T+u]]] {
					if ta, k := g.evs[a].thread, c.ponum[a]+1; ta >= 0 && k > have[ta] {
						have[ta] = k
						changed = true
					}
				}
			}
		}
	}
	v := 0
	for u, tu := range g.threads {
		for _, y := range tu[:have[u]] {
			ey := &g.evs[y]
			if ey.loc != loc {
				continue
			}
			switch ey.kind {
			case event.Read:
				v = max(v, c.copos[ey.rf])
			case event.Write:
				v = max(v, c.copos[y])
			}
		}
	}
	return v
}

// coFilter tells whether the coherence filter above applies: the native
// rc11 check decides the run.
func (x *engine) coFilter() bool { return x.native == nativeRC11 && !x.deps && !x.opts.NoCoFilter }

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
