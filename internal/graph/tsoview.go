package graph

import "github.com/musket-verify/musket/internal/event"

// Choices coherence rules out under x86-TSO (tso, x86tso), without a
// consistency check: hbview.go's filter, with TSO's global order ghb =
// ppo ∪ mfence ∪ implied ∪ rfe ∪ co ∪ fr (tso.cat; native.go's tso) in
// place of rc11's hb.
//
// When visit adds an event e last in its thread t to a consistent graph
// g, let S be a set of events of g each of which is ghb+-before e, and v
// the latest coherence position of e's location that an event of S
// writes, or reads from a write in S or of another thread. Then:
//   - e, a read, reading a write w below v is inconsistent: let a be the
//     write at v; w co a, so e fr a, and a is in S or read by rfe by an
//     event of S (a read of S reading its own thread's write a has a
//     po-before it, in S too: see the prefixes below), so a ghb+ e, a
//     cycle of ghb.
//   - e, a write, placed at a position p ≤ v is inconsistent: the write
//     a at old position v then follows e in coherence (e co a), and a ghb+
//     e as above, a cycle.
//
// S is, in each thread u, a prefix of u's events (have[u]) every one of
// which is ghb+-before e:
//   - in t: before a write e, every event (ppo orders all but a write
//     before a read; a write before e is before it in ppo); before a read
//     e, the events up to t's last MFENCE (mfence) or last locked write
//     (implied: a write of a locked instruction before a read), or every
//     event when e is itself locked (implied again; not for a read whose
//     tags depend on the value it reads, ev.retag: a compare-and-swap's
//     failure may drop them); t's reads after
//     that prefix are ghb-before e too (ppo: a read before a read), and
//     are used for their rfe steps only (for e's location they are
//     po-loc-before e, which coherence, g.seen, handles already);
//   - in another thread u, when an event of S reads from u's write y
//     (rfe), every event of u up to y (ppo into a write: every access
//     before it).
// co and fr steps into S are left out: S is only a subset of what is
// ghb-before e, which leaves more choices to the check, never fewer.
// The choices left are checked as before. Under Options.CrossCheck every
// choice left out is checked, and the run fails if one is consistent
// (hbview.go's ruledOut); TestTSOFilter compares the executions with
// the filter off (Options.NoCoFilter).

// tsoLow is the latest coherence position of loc that S (above) writes
// or reads, for an event e (kind, mask) added last to thread t of g.
func (x *engine) tsoLow(g *graph, t int, loc string, e ev) int {
	th := g.threads[t]
	T := len(g.threads)
	have := resize(x.hbHave, 2*T) // per thread: prefix in S, and how many of it were looked at
	x.hbHave = have
	clear(have)
	if e.kind == event.Write || e.mask&tX != 0 && e.retag == nil {
		have[t] = len(th)
	} else {
		for k, y := range th {
			ey := &g.evs[y]
			if ey.mask&tMFENCE != 0 || ey.kind == event.Write && ey.mask&tX != 0 {
				have[t] = k + 1
			}
		}
	}
	// raise puts the prefix of the thread of w, up to w, in S (rfe into
	// a read r of S from another thread).
	raise := func(r *ev) bool {
		w := r.rf
		if w < 0 {
			return false
		}
		ew := &g.evs[w]
		if ew.thread < 0 || ew.thread == r.thread {
			return false
		}
		tw := g.threads[ew.thread]
		for k := len(tw) - 1; k >= have[ew.thread]; k-- {
			if tw[k] == w {
				have[ew.thread] = k + 1
				return true
			}
		}
		return false
	}
	changed := false
	for _, y := range th[have[t]:] {
		if ey := &g.evs[y]; ey.kind == event.Read {
			changed = raise(ey) || changed
		}
	}
	for changed = true; changed; {
		changed = false
		for u, tu := range g.threads {
			for ; have[T+u] < have[u]; have[T+u]++ {
				if ey := &g.evs[tu[have[T+u]]]; ey.kind == event.Read {
					changed = raise(ey) || changed
				}
			}
		}
	}
	return coPosMax(g, have[:T], loc, x.coPositions(g, loc))
}

// coLow is the bound of the coherence filter (coFilter) for event e
// added last to thread t: hbLow under rc11, tsoLow under x86-TSO.
func (x *engine) coLow(g *graph, t int, e ev) int {
	if x.native == nativeTSO {
		return x.tsoLow(g, t, e.loc, e)
	}
	return x.hbLow(g, t, e.loc)
}
