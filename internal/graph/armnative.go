package graph

import (
	"fmt"
	"os"

	"github.com/musket-verify/musket/internal/event"
)

// The native check of ARMv8: the three axioms of the built-in aarch64.cat
// stated on the graph, without evaluating the CAT model (which takes most
// of the time of a run under -target aarch64).
//
//   - internal: po-loc ∪ co ∪ fr ∪ rf is acyclic. Its edges, per
//     location: each event to the next access of its thread to the
//     location (po-loc is the transitive closure of those), each write to
//     the next in coherence (co likewise), each write to the reads that
//     read it, and each read to the write coherence-after the one it reads
//     (fr = rf⁻¹; co is rf⁻¹ followed by co's steps).
//   - atomic: rmw ∩ (fre; coe) is empty: no write of another thread
//     lies in coherence between the write a read-modify-write's read
//     reads and its write (a write of another thread is in fre from the
//     read and in coe to the write exactly then).
//   - external: ordered-before is acyclic, ob = obs ∪ lob (haz and
//     sca-class are about mixed sizes, which the engine refuses). obs =
//     rfe ∪ coe ∪ fre. The edges taken: rfe; every step of co and the
//     step of fr above, internal or external. Once internal holds, an
//     internal step is in lob: a write coherence-before another of its
//     thread is po-before it (po-loc; [W] is lws), and a read fr-before a
//     write of its thread is po-before it (else po-loc; fr would close a
//     cycle of internal), so lws again. So the closure of the steps taken
//     is obs ∪ (part of lws) within ob+, and holds obs. lob is armLobPreds
//     with exact set (the same rules, without the barriers the prefix keeps
//     beside an event, which are not ordered before it).
//
// Options.CrossCheck evaluates aarch64.cat on every graph as well and
// fails the run where the two differ (TestARMCorpusCrossCheck,
// TestARMNativeCrossCheck); MUSKET_ARM_NONATIVE=1 in the environment
// evaluates the CAT model instead (comparisons). The model's one flag is
// raised by armFlags (armflags.go).

// armNativeOff tells whether MUSKET_ARM_NONATIVE turns the native check
// off under ARMv8.
func armNativeOff() bool { return os.Getenv("MUSKET_ARM_NONATIVE") != "" }

// armNative decides g under aarch64.cat (see above).
func (x *engine) armNative(g *graph) bool {
	n := len(g.evs)
	succ := make([][]int, n)
	edge := func(a, b int) { succ[a] = append(succ[a], b) }
	// internal
	for _, o := range g.co {
		for k := 1; k < len(o); k++ {
			edge(o[k-1], o[k])
		}
	}
	for r := range g.evs {
		er := &g.evs[r]
		if er.kind != event.Read || er.rf < 0 {
			continue
		}
		edge(er.rf, r)
		if p := g.coPos(er.rf); p >= 0 && p+1 < len(g.co[er.loc]) {
			edge(r, g.co[er.loc][p+1])
		}
	}
	base := make([]int, n)
	for i := range base {
		base[i] = len(succ[i])
	}
	for _, th := range g.threads {
		last := map[string]int{}
		for _, y := range th {
			ey := &g.evs[y]
			if ey.kind != event.Read && ey.kind != event.Write {
				continue
			}
			if p, ok := last[ey.loc]; ok {
				edge(p, y)
			}
			last[ey.loc] = y
		}
	}
	if cyclic(succ) {
		return false
	}
	// atomic
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			r, w := th[j-1], th[j]
			if !g.evs[r].rmwR || !g.evs[w].rmwW || g.evs[r].rf < 0 {
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
	// external: the co and fr steps (base), rfe, lob.
	for i := range succ {
		succ[i] = succ[i][:base[i]]
		// (rf edges are among them: keep only rfe.)
		kept := succ[i][:0]
		for _, b := range succ[i] {
			if g.evs[b].kind == event.Read && g.evs[b].rf == i && g.evs[b].thread == g.evs[i].thread && g.evs[i].thread >= 0 {
				continue // rfi
			}
			kept = append(kept, b)
		}
		succ[i] = kept
	}
	reads := g.readAtInto(x.arena.pref.rows)
	x.arena.pref.rows = reads
	for xx := range g.evs {
		ex := &g.evs[xx]
		if ex.thread < 0 || ex.kind == event.Fence {
			continue
		}
		g.armLobPredsExact(xx, reads, true, func(y int) {
			if g.evs[y].kind != event.Fence {
				edge(y, xx)
			}
		})
	}
	x.arena.armOb = succ // ordered-before's steps, for useAfterFree (uaf.go)
	return !cyclic(succ)
}

// cyclic tells whether the graph of successor lists succ has a cycle.
func cyclic(succ [][]int) bool {
	state := make([]uint8, len(succ)) // 0 new, 1 on the stack, 2 done
	type frame struct{ v, i int }
	var stack []frame
	for s := range succ {
		if state[s] != 0 {
			continue
		}
		stack = append(stack[:0], frame{s, 0})
		state[s] = 1
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.i < len(succ[f.v]) {
				w := succ[f.v][f.i]
				f.i++
				switch state[w] {
				case 1:
					return true
				case 0:
					state[w] = 1
					stack = append(stack, frame{w, 0})
				}
				continue
			}
			state[f.v] = 2
			stack = stack[:len(stack)-1]
		}
	}
	return false
}

// armCross compares the native check with the CAT model's answer on g
// (Options.CrossCheck).
func (x *engine) armCross(g *graph, want bool) error {
	if got := x.armNative(g); got != want {
		return fmt.Errorf("internal error: the native check of aarch64 says consistent=%v, the CAT model %v, on %s", got, want, x.dump(g))
	}
	return nil
}
