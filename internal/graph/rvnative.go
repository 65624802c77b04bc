package graph

import (
	"fmt"
	"os"

	"github.com/musket-verify/musket/internal/event"
)

// The native check of RVWMO: the three axioms of the built-in riscv.cat
// (with co given, rvCoGiven) stated on the graph, without evaluating the
// CAT model, which took most of the time of a run under -target riscv
// (about 250 µs a graph on cw5/pc_cond.c, against tens for the native
// check).
//
// The model sees an AMO (prog.RMW.Single, rvSingle) as one event: its two
// halves are one node here (rep), and the edges between the halves are
// dropped, as event.Fusion drops the pairs within a fused pair.
//
//   - load-value: po-loc ∪ rf ∪ co ∪ fr is acyclic. Its edges, per
//     location, as armNative's internal axiom: each access to the next
//     access of its thread to the location (po-loc is the transitive
//     closure of those steps), each write to the next in coherence, each
//     write to the reads that read it, and each read to the write
//     coherence-after the one it reads (fr = rf⁻¹; co, the rest by co's
//     steps).
//   - atomicity: rmw ∩ (fre; coe) is empty: no write of another thread
//     lies in coherence between the write a read-modify-write's read
//     reads and its write. For an AMO, which the model sees as one event
//     (its rmw pair is dropped by the fusion), such a write w' closes the
//     cycle AMO fr w' co AMO of the load value axiom, which the contracted
//     graph finds as well.
//   - global-order: ppo ∪ rfe ∪ co ∪ fr is acyclic. The edges taken: the
//     co and fr steps above, rfe, and ppo as rvPpoPreds gives it (rules 1
//     and 3 to 13, on the events of e's thread; the fences it also
//     reports are not ordered before e and are left out). Rule 2 is left
//     out: once load-value holds, a rule 2 pair r1 po-loc r2 reading
//     writes w1 ≠ w2 has r1 fr w2 rfe r2 (riscv.go), a path of the
//     global order already, so leaving it out changes no cycle.
//
// Options.CrossCheck evaluates riscv.cat on every graph as well and fails
// the run where the two differ (TestRVNativeCrossCheck);
// MUSKET_RV_NONATIVE=1 in the environment evaluates the CAT model
// instead (comparisons). The model raises no flags, so none are computed.

// rvNativeOff tells whether MUSKET_RV_NONATIVE turns the native check off
// under RVWMO.
func rvNativeOff() bool { return os.Getenv("MUSKET_RV_NONATIVE") != "" }

// rvNative decides g under riscv.cat with co given (see above).
func (x *engine) rvNative(g *graph) bool {
	n := len(g.evs)
	// rep: the node of each event; the write of an AMO is its read's.
	sc := &x.arena.rv
	rep := grow(sc.rep, n)
	for i := range rep {
		rep[i] = i
	}
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			if g.evs[th[j]].rmwW && g.evs[th[j-1]].rmwR && x.rvSingle(g, th[j]) {
				rep[th[j]] = th[j-1]
			}
		}
	}
	// lv: the load-value graph; gord: the global-order graph.
	lv, gord := growRows(sc.lv, n), growRows(sc.gord, n)
	sc.rep, sc.lv, sc.gord = rep, lv, gord
	edge := func(succ [][]int, a, b int) {
		if ra, rb := rep[a], rep[b]; ra != rb {
			succ[ra] = append(succ[ra], rb)
		}
	}
	both := func(a, b int) { edge(lv, a, b); edge(gord, a, b) }
	// co and fr steps, rf (rfe in both, rfi in load-value only).
	for _, o := range g.co {
		for k := 1; k < len(o); k++ {
			both(o[k-1], o[k])
		}
	}
	for r := range g.evs {
		er := &g.evs[r]
		if er.kind != event.Read || er.rf < 0 {
			continue
		}
		if p := g.coPos(er.rf); p >= 0 && p+1 < len(g.co[er.loc]) {
			both(r, g.co[er.loc][p+1])
		}
		if t := g.evs[er.rf].thread; t >= 0 && t == er.thread {
			edge(lv, er.rf, r)
		} else {
			both(er.rf, r)
		}
	}
	// po-loc steps: load-value only.
	for _, th := range g.threads {
		for j, y := range th {
			ey := &g.evs[y]
			if ey.kind != event.Read && ey.kind != event.Write {
				continue
			}
			// (The next access to the location: threads are short.)
			for _, z := range th[j+1:] {
				if ez := &g.evs[z]; (ez.kind == event.Read || ez.kind == event.Write) && ez.loc == ey.loc {
					edge(lv, y, z)
					break
				}
			}
		}
	}
	if cyclic(lv) {
		return false
	}
	// atomicity, for the read-modify-writes the model sees as two events
	// (an AMO's is part of load-value's cycles, above).
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			r, w := th[j-1], th[j]
			if !g.evs[r].rmwR || !g.evs[w].rmwW || g.evs[r].rf < 0 || rep[w] == rep[r] {
				continue
			}
			o := g.co[g.evs[w].loc]
			a, b := g.coPos(g.evs[r].rf), g.coPos(w)
			for k := a + 1; a >= 0 && k < b; k++ {
				if g.evs[o[k]].thread != g.evs[w].thread {
					return false
				}
			}
		}
	}
	// global-order: ppo added to the co and fr steps and rfe.
	reads := g.readAtInto(x.arena.pref.rows)
	x.arena.pref.rows = reads
	for e := range g.evs {
		ee := &g.evs[e]
		if ee.thread < 0 || ee.kind != event.Read && ee.kind != event.Write {
			continue
		}
		x.rvPpoPreds(g, e, reads, func(y int) {
			if g.evs[y].kind != event.Fence {
				edge(gord, y, e)
			}
		})
	}
	return !cyclic(gord)
}

// rvScratch is rvNative's storage, reused from one graph to the next.
type rvScratch struct {
	rep      []int
	lv, gord [][]int
}

// grow is s with length n, reusing its storage.
func grow(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// growRows is rows with n empty rows, reusing their storage.
func growRows(rows [][]int, n int) [][]int {
	if cap(rows) < n {
		rows = append(rows[:cap(rows)], make([][]int, n-cap(rows))...)
	}
	rows = rows[:n]
	for i := range rows {
		rows[i] = rows[i][:0]
	}
	return rows
}

// rvCross compares the native check with the CAT model's answer on g
// (Options.CrossCheck).
func (x *engine) rvCross(g *graph, want bool) error {
	if got := x.rvNative(g); got != want {
		return fmt.Errorf("internal error: the native check of riscv says consistent=%v, the CAT model %v, on %s", got, want, x.dump(g))
	}
	return nil
}
