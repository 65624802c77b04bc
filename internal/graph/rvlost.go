package graph

import "github.com/musket-verify/musket/internal/event"

// The revisits under RVWMO that riscv.go's argument does not cover, found
// when they are skipped (rvLost), and the check that lets most of them
// through (rvBefore).

// rvLost is called when a backward revisit of read r by write w is not
// made because r is in w's prefix pref, and refuses the program when the
// argument of riscv.go does not show that r reading w would be
// inconsistent:
//
//   - when r is of w's thread, after w in po with no write to the
//     location between (r would read w by rfi, and the argument closes
//     its cycle with w rfe r);
//   - when pref holds a step the argument does not put in the global
//     order (rvUncovered) and r is not before w in that order through
//     the events of pref (rvBefore).
//
// Otherwise every chain of the prefix from r to w is in ppo ∪ rfe ∪ co ∪
// fr (as the relations of the kept events stay when r reads w), and w
// rfe r closes a cycle of the global order.
func (x *engine) rvLost(g *graph, r, w int, pref []bool) error {
	er := &g.evs[r]
	th := x.t.Threads[er.thread]
	if er.thread == g.evs[w].thread {
		if er.pc <= g.evs[w].pc || g.lastWriteBefore(r) != w {
			// A read of a later write of its thread, of its own
			// atomic's write, or past a write of its thread to the
			// location after w: incoherent.
			return nil
		}
		return &UnsupportedError{replayAt(th, er.pc) + "a read that a later write of its own thread (in the order the engine added them) may be read by, kept by the revisit that write makes: under riscv the graph engine does not explore such a revisit (left to the SMT engine)"}
	}
	why := x.rvUncovered(g, pref)
	if why == "" || x.rvBefore(g, r, w, pref) {
		return nil // the argument holds, or r is before w in the global order all the same
	}
	return &UnsupportedError{why}
}

// rvUncovered names a step of pref that riscv.go's argument does not put
// in the global order ("" when none): a read y of pref taking the write
// x of a read-modify-write of its thread that is not an AMO (no X: rule
// 3 does not order x before y), whose read a is not an acquire, with no
// fence ordering reads before reads between a and y (the stretch a rmw
// x rfi y is then not in ppo); or the write of a read-modify-write that
// is not an AMO, kept with its read (rvWhole) while its value depends
// on another read (which need not be before the read).
func (x *engine) rvUncovered(g *graph, pref []bool) string {
	for y := range g.evs {
		ey := &g.evs[y]
		if !pref[y] || ey.thread < 0 {
			continue
		}
		if ey.rmwW && !x.rvSingle(g, y) && len(ey.dataD()) > 0 {
			th := x.t.Threads[ey.thread]
			return replayAt(th, ey.pc) + "a read-modify-write whose written value depends on another read, kept with its read by a backward revisit whose read is not before the revisiting write: under riscv the graph engine does not explore such a revisit (left to the SMT engine)"
		}
		if ey.kind != event.Read || ey.rf < 0 || g.evs[ey.rf].thread != ey.thread || !g.evs[ey.rf].rmwW {
			continue
		}
		xw := ey.rf
		if x.rvSingle(g, xw) || hasTag(g.evs[xw].tags, "X") {
			continue // rule 3
		}
		a := g.rmwReadOf(xw)
		if a < 0 || rvAcquire(g.evs[a].tags) || g.rvFencedBetween(a, y) {
			continue
		}
		yt := x.t.Threads[ey.thread]
		return replayAt(yt, ey.pc) + "a read that takes the write of a read-modify-write of its own thread (line " + lineOf(yt, g.evs[a].pc) + ") whose read is not an acquire, with no fence r,r between: under riscv it may take that write's value before the read-modify-write reads, a load buffering the graph engine does not explore (left to the SMT engine)"
	}
	return ""
}

// rvBefore tells whether r is before w in the global order of g (ppo ∪
// rfe ∪ co ∪ fr, w not yet in co), through events of pref: then w rfe r
// closes a cycle whatever chain put r in pref, and the revisit lost
// nothing (rvLost).
func (x *engine) rvBefore(g *graph, r, w int, pref []bool) bool {
	reads := g.readAtInto(nil)
	seen := make([]bool, len(g.evs))
	stack := []int{w}
	seen[w] = true
	push := func(y int) {
		if y >= 0 && pref[y] && !seen[y] && g.evs[y].kind != event.Fence {
			seen[y] = true
			stack = append(stack, y)
		}
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e == r {
			return true
		}
		ee := &g.evs[e]
		if ee.thread >= 0 {
			x.rvPpoPreds(g, e, reads, push)
		}
		switch ee.kind {
		case event.Read:
			if ee.rf >= 0 && g.evs[ee.rf].thread != ee.thread {
				push(ee.rf) // rfe
			}
		case event.Write:
			at := g.coPos(e)
			if at < 0 {
				continue // w: not yet in co
			}
			o := g.co[ee.loc]
			for k := 0; k < at; k++ {
				push(o[k]) // co
			}
			for y := range g.evs {
				// (Not r's: reading w, r has other fr edges.)
				if ey := &g.evs[y]; ey.kind == event.Read && ey.loc == ee.loc && y != r && ey.rf >= 0 {
					if p := g.coPos(ey.rf); p >= 0 && p < at {
						push(y) // fr
					}
				}
			}
		}
	}
	return false
}

// rvFencedBetween tells whether a fence ordering reads before reads lies
// between events a and y of one thread (a before y) in g.
func (g *graph) rvFencedBetween(a, y int) bool {
	in := false
	for _, z := range g.threads[g.evs[a].thread] {
		switch {
		case z == a:
			in = true
		case z == y:
			return false
		case in && g.evs[z].kind == event.Fence:
			if rr, _, _, _ := rvFence(g.evs[z].tags); rr {
				return true
			}
		}
	}
	return false
}
