package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Symmetry reduction, in the manner of Kokologiannakis, Marmanis,
// Vafeiadis, "SPORE: Combining Symmetry and Partial Order Reduction"
// (PLDI 2024), as GenMC's --symmetry-reduction decides it.
//
// Threads are symmetric when swapping them (and the locations private to
// each, Options.SymOwn: cfront's start and end flags) maps the program
// onto itself (the caller decides it: Options.Symmetric names each
// thread's symmetric predecessor). Among the executions that such a swap
// maps onto each other, the exploration keeps one: two symmetric threads
// p < q that did the same so far (the same kinds of events, their reads
// reading the same writes, no write but to their own private locations)
// differ first at some index i; when both have an event there, the one
// of q must not be eco-before the one of p (rf, co, fr; a read is
// eco-before a write coherence-after the write it reads, and before a
// read of such a write). A graph in which one is is not explored, and the
// po ∪ rf prefix of an event of q, which a backward revisit keeps,
// includes the events of p up to the index where q's events stopped
// matching p's (symPre), so that a revisit never keeps q ahead of a p it
// removes. The reduction applies where the engine's shortcuts apply (sc,
// tso, pso, rc11) and under IMM (immsym.go: there the dependency prefix
// is so extended), and the counts are then of executions up to the
// symmetry: Stats.Classes, when asked, counts the complete
// executions of a run up to the symmetry, which tests compare with a run
// without the reduction.

// symOn tells whether the run reduces symmetric threads.
func (x *engine) symOn() bool { return x.sym != nil }

// symMatch tells whether events a (of thread p) and b (of thread q), at
// the same index of their threads, did the same: the same kind, a read
// reading the same write (or a write of its own thread at the same
// index, or its own private location), a fence; a write only to its own
// private location.
func (x *engine) symMatch(g *graph, a, b int) bool {
	ea, eb := &g.evs[a], &g.evs[b]
	if ea.kind != eb.kind || ea.pc != eb.pc {
		return false
	}
	switch ea.kind {
	case event.Read:
		if ea.rf == eb.rf {
			return true
		}
		if x.symOwn(ea.loc) && x.symOwn(eb.loc) {
			return true
		}
		wa, wb := &g.evs[ea.rf], &g.evs[eb.rf]
		return wa.thread == ea.thread && wb.thread == eb.thread && g.posIn(ea.rf) == g.posIn(eb.rf)
	case event.Write:
		return x.symOwn(ea.loc) && x.symOwn(eb.loc)
	}
	return true
}

// symOwn tells whether loc is private to one thread (Options.SymOwn),
// asked once per location (SymOwn may be a regular expression's match,
// too slow for every comparison of two events).
func (x *engine) symOwn(loc string) bool {
	if x.opts.SymOwn == nil {
		return false
	}
	own, ok := x.ownLoc[loc]
	if !ok {
		if x.ownLoc == nil {
			x.ownLoc = map[string]bool{}
		}
		own = x.opts.SymOwn(loc)
		x.ownLoc[loc] = own
	}
	return own
}

// symEcoBefore tells whether event b is eco-before event a (both
// accesses; rf alone does not count).
func (g *graph) symEcoBefore(b, a int) bool {
	ea, eb := &g.evs[a], &g.evs[b]
	if ea.loc != eb.loc || (ea.kind != event.Read && ea.kind != event.Write) || (eb.kind != event.Read && eb.kind != event.Write) {
		return false
	}
	wa, wb := a, b
	if ea.kind == event.Read {
		wa = ea.rf
	}
	if eb.kind == event.Read {
		wb = eb.rf
	}
	pa, pb := g.coPos(wa), g.coPos(wb)
	return pa >= 0 && pb >= 0 && pa > pb
}

// symPre is the last index of thread p's events that the prefix of the
// event at index i of thread q includes (-1: none): the events of p
// that q's first i events match, and p's event at i when they all do.
func (x *engine) symPre(g *graph, p, q, i int) int {
	tp, tq := g.threads[p], g.threads[q]
	limit := min(i, len(tp)-1)
	for j := 0; j < limit; j++ {
		if !x.symMatch(g, tp[j], tq[j]) {
			return j - 1
		}
	}
	return limit
}

// noteSym records, for event e just added (or a read just revisited),
// the index of its thread's symmetric predecessor its prefix includes.
func (x *engine) noteSym(g *graph, e int) {
	ee := &g.evs[e]
	ee.symPre = -1
	if !x.symOn() || ee.thread < 0 {
		return
	}
	p := x.sym[ee.thread]
	if p < 0 {
		return
	}
	ee.symPre = x.symPre(g, p, ee.thread, g.posIn(e))
}

// symOK tells whether g is the representative the reduction keeps: for
// every two symmetric threads p < q, at the first index where their
// events differ, q's event is not eco-before p's.
func (x *engine) symOK(g *graph) bool {
	for q, p := range x.sym {
		for ; p >= 0; p = x.sym[p] {
			tp, tq := g.threads[p], g.threads[q]
			n := min(len(tp), len(tq))
			for i := 0; i < n; i++ {
				a, b := tp[i], tq[i]
				if g.evs[a].kind != g.evs[b].kind || x.deps && g.evs[a].pc != g.evs[b].pc {
					// (Under IMM a thread may have a hole a revisit left:
					// events at one index of two threads are compared
					// only when they are of one instruction.)
					break
				}
				if x.symMatch(g, a, b) {
					continue
				}
				if g.symEcoBefore(b, a) {
					return false
				}
				break
			}
		}
	}
	return true
}

// symKey is a canonical description of the complete graph g up to the
// symmetry: the least, over the permutations of each group of symmetric
// threads, of its description with the threads so renumbered.
func (x *engine) symKeyWith(g *graph, sym []int, stopped bool) string {
	groups := symGroups(sym)
	perm := make([]int, len(g.threads))
	for i := range perm {
		perm[i] = i
	}
	best := ""
	var rec func(k int)
	rec = func(k int) {
		if k == len(groups) {
			if s := x.describe(g, perm, stopped); best == "" || s < best {
				best = s
			}
			return
		}
		grp := groups[k]
		permute(grp, func(order []int) {
			for i, t := range grp {
				perm[t] = order[i]
			}
			rec(k + 1)
		})
		for _, t := range grp {
			perm[t] = t
		}
	}
	rec(0)
	return best
}

// symGroups are the groups of threads the symmetry relates (each with
// at least two threads), in thread order.
func symGroups(sym []int) [][]int {
	root := make([]int, len(sym))
	var groups [][]int
	at := map[int]int{}
	for t := range sym {
		r := t
		for sym[r] >= 0 {
			r = sym[r]
		}
		root[t] = r
		if _, ok := at[r]; !ok {
			at[r] = len(groups)
			groups = append(groups, nil)
		}
		groups[at[r]] = append(groups[at[r]], t)
	}
	var out [][]int
	for _, grp := range groups {
		if len(grp) > 1 {
			out = append(out, grp)
		}
	}
	return out
}

// permute calls f with every permutation of ts.
func permute(ts []int, f func([]int)) {
	a := append([]int(nil), ts...)
	var rec func(k int)
	rec = func(k int) {
		if k == len(a) {
			f(a)
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

// describe writes g with thread t numbered perm[t]: each thread's events
// (kind, location, value, pc, and for a read its write by thread and
// index) and each location's coherence order; a private location of a
// thread is named by the thread's new number (SymOwn's locations end
// with the thread's number).
func (x *engine) describe(g *graph, perm []int, stopped bool) string {
	name := func(e int) string {
		ee := &g.evs[e]
		if ee.thread < 0 {
			return "init"
		}
		return fmt.Sprintf("%d.%d", perm[ee.thread], g.posIn(e))
	}
	loc := func(l string) string {
		if x.symOwn(l) {
			if k := strings.LastIndexByte(l, '.'); k >= 0 {
				var n int
				if _, err := fmt.Sscan(l[k+1:], &n); err == nil && n >= 0 && n < len(perm) {
					return fmt.Sprintf("%s.%d", l[:k], perm[n])
				}
			}
		}
		return l
	}
	moved := make([]bool, len(perm))
	for t, n := range perm {
		moved[t] = t != n
	}
	for _, grp := range symGroups(x.opts.Symmetric) {
		for _, t := range grp {
			moved[t] = true
		}
	}
	lines := make([]string, len(g.threads))
	for t, th := range g.threads {
		var b strings.Builder
		for _, e := range th {
			ee := &g.evs[e]
			if !moved[t] && ee.kind == event.Read && x.symOwn(ee.loc) && stopped {
				// A join, when a thread stopped: which joins its
				// parent made before waiting depends on the threads'
				// numbers (and between joins it accesses only its own
				// variables and flags: symmetricThreads).
				break
			}
			l := ee.loc
			if moved[t] {
				l = loc(l)
			}
			fmt.Fprintf(&b, "%v %s %v %d", ee.kind, l, ee.val, ee.pc)
			if ee.kind == event.Read && !x.symOwn(ee.loc) {
				// (A private flag has one write: its value tells which.)
				fmt.Fprintf(&b, " <%s", name(ee.rf))
			}
			b.WriteString(";")
		}
		lines[perm[t]] = b.String()
	}
	var cos []string
	for l, o := range g.co {
		if x.symOwn(l) {
			continue // one write, which the reads' values tell
		}
		var b strings.Builder
		b.WriteString(loc(l))
		for _, w := range o {
			b.WriteString(" " + name(w))
		}
		cos = append(cos, b.String())
	}
	sort.Strings(cos)
	return strings.Join(lines, "\n") + "\n" + strings.Join(cos, "\n")
}

// symBlockedExplained tells whether the blocked execution g (final
// registers regs), met by a run that reduces symmetric threads which may
// stop in cut spin loops (Options.SymStops), is one whose verdict facts
// an execution in which no thread stopped on a stale read also has.
//
// The argument is prune.go's, applied at the end of a run. Take a thread
// t that stopped in a cut spin loop and a suffix S of its events that
// starts with a stale read (one that does not read the
// coherence-latest write left) and whose writes no event outside S
// reads. Removing S leaves a po ∪ rf prefix of g, so a consistent graph;
// adding S's first read back reading the coherence-latest write, and
// letting t run on with events added maximally, keeps it consistent
// under the models the reduction is used for (visit's "sink" argument).
// The events outside S and the happens-before among them stay, so do
// the assertion failures and bound hits of g, and its races when S's
// events take part in none (raceFree). Repeating this while some
// thread can be so repaired ends in an execution in which every thread
// ended (a complete execution, whose class the reduced run explores) or
// some thread stays stopped on coherence-latest values.
//
// g is explained when every thread that stopped can be repaired so, one
// after the other (a later repair may need an earlier one: a failed
// exchange that another thread's failed exchange reads), and no thread
// reached the unroller's cut. A blocked execution that is not explained
// makes the run give the reduction up and start again without it.
func (x *engine) symBlockedExplained(g *graph, regs []regFile) (bool, error) {
	if x.opts.SpinReg == "" || x.opts.BlockedReg == "" {
		return false, nil
	}
	var stopped []int
	for t := range g.threads {
		if x.opts.CutReg != "" && prog.Truth(regs[t].get(x.opts.CutReg)) {
			return false, nil
		}
		p, err := x.nextAny(g, t)
		if err != nil {
			return false, err
		}
		if !p.done || !prog.Truth(regs[t].get(x.opts.BlockedReg)) {
			continue // waits (for a flag a stopped thread would write), or ended
		}
		if !prog.Truth(regs[t].get(x.opts.SpinReg)) {
			return false, nil // an assumption failed
		}
		stopped = append(stopped, t)
	}
	if len(stopped) == 0 {
		return false, nil // threads wait for good
	}
	removed := make([]bool, len(g.evs))
	for len(stopped) > 0 {
		progress := false
		for i := 0; i < len(stopped); i++ {
			if k := x.repairable(g, stopped[i], removed); k >= 0 {
				for _, e := range g.threads[stopped[i]][k:] {
					removed[e] = true
				}
				stopped = append(stopped[:i], stopped[i+1:]...)
				i--
				progress = true
			}
		}
		if !progress {
			return false, nil
		}
	}
	return true, nil
}

// repairable is the index in thread t's events of the start of a suffix
// symBlockedExplained may remove (-1: none): the last read of t that is
// stale among the events not removed, such that no event outside the
// suffix reads a write in it and, when races are wanted, removing it
// keeps them.
func (x *engine) repairable(g *graph, t int, removed []bool) int {
	th := g.threads[t]
	for k := len(th) - 1; k >= 0; k-- {
		e := th[k]
		ee := &g.evs[e]
		switch ee.kind {
		case event.Write:
			for r := range g.evs {
				if er := &g.evs[r]; er.kind == event.Read && er.rf == e && !removed[r] && (er.thread != t || g.posIn(r) < k) {
					return -1 // read from outside the suffix
				}
			}
		case event.Read:
			latest := -1
			for _, w := range g.co[ee.loc] {
				if !removed[w] && (g.evs[w].thread != t || g.posIn(w) < k) {
					latest = w // (the suffix's own writes go with it)
				}
			}
			if latest == ee.rf {
				break
			}
			if !x.opts.NoFlags {
				if !x.raceKept(ee) {
					return -1
				}
				for _, y := range th[k+1:] {
					if !x.raceFree(g, &g.evs[y]) {
						return -1
					}
				}
			}
			return k
		}
	}
	return -1
}

// raceFree tells whether event e takes part in no data race: it is an
// atomic access of a location no plain access of g, nor a plain write of
// the program, accesses (or not an access).
func (x *engine) raceFree(g *graph, e *ev) bool {
	if e.kind != event.Read && e.kind != event.Write {
		return true
	}
	if e.mask&(tA|tX|tACQ|tACQREL|tSC) == 0 || x.naAny || x.naLocs[e.loc] {
		return false
	}
	for i := range g.evs {
		if y := &g.evs[i]; y.loc == e.loc && (y.kind == event.Read || y.kind == event.Write) && y.mask&(tA|tX|tACQ|tACQREL|tSC) == 0 && y.thread >= 0 {
			return false
		}
	}
	return true
}
