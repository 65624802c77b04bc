package param

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// This file is the BRAB mode (Options.Brab, the command line's -brab N
// and -forward-depth D): the algorithm of Cubicle, as its source decides
// it, for a user who brings Cubicle's options ("Cubicle: A Parallel
// SMT-based Model Checker for Parameterized Systems", Conchon, Goel,
// Krstić, Mebsout and Zaïdi; the approximations of "Invariants
// inference for model checking of parameterized systems", Mebsout).
// The default mode (approx.go, deep.go, backtrack.go) approximates with
// a lazy sample that grows with the search and undoes a refuted guess
// in place; this mode differs in four ways.
//
//   - The oracle is the breadth-first exploration of the instance with
//     N processes, cut at depth D (no cut when D <= 0), done once
//     before the search. Its states are Cubicle's enumerative ones:
//     a cell that init does not fix is undefined, and an undefined
//     cell satisfies any literal, of a guard as of a candidate (the
//     abstract sampler of absexplore.go, whose unknown is that); a
//     process variable that init says differs from every process
//     holds a process outside the instance. One state is kept per
//     orbit of the permutations of the processes when the system
//     treats them alike: a candidate is tried under every map of its
//     processes, so an orbit answers as its states do, and a permuted
//     state has the same depth.
//   - The candidates of a cube are Cubicle's: the subsets of its
//     literals over at most N processes with at most max(2, N+1)
//     literals (a subset of three literals or more with more than N-1
//     array cells is dropped), made of the literals the oracle answers
//     and without a bare process side (X = #1, A[#1] = #2 are left
//     out); the literals over an array named Sort or comparing a
//     global named Home with a process are set aside and put back into
//     a candidate that mentions their process. They are sorted by
//     processes, then literals, then more disequalities, then fewer
//     array cells, and the first one that no explored state satisfies
//     (under any map of its processes) replaces the cube; if that one
//     meets the initial states, the cube stays as it is. A cube that
//     is itself a candidate is not approximated again.
//   - A candidate that generalises a refuted one, or that one refuted
//     candidate generalises (a subset or a superset of a bad one, up to
//     a renaming of the processes), is not made.
//   - When a cube that descends from a candidate meets the initial
//     states, the candidate is bad: it is remembered, and the search
//     restarts from the unsafe formula, with the other candidates of
//     the run pushed first (Cubicle keeps them; they are checked again
//     by their own pre-images).
//
// The queue is first in, first out (Cubicle's breadth-first search),
// a pre-image with more processes than its cube waiting until the
// queue is empty (its -postpone 1), a candidate's pre-images included.
//
// Left out: Cubicle also drops a queued cube when a cube on its path was
// deleted (subsumed by a later visited one). Built and measured
// (flash15): the visited cubes were then not closed under pre-images at
// the end of the search on bakery_lamport_na, its _wb variant,
// challenges_msi.lock and challenges_flash2_exclusive (a visited
// descendant of the deleted cube keeps its place while its pre-images
// are dropped), so no SAFE could rest on them; without it the mode
// closes bakery_lamport_na in 128 nodes (Cubicle: 119).
//
// Soundness is the default mode's: SAFE is a fixpoint of the visited
// cubes, candidates included, every one of whose pre-images was
// explored (so they form an inductive invariant that excludes the
// unsafe states), and UNSAFE is only given for a path without
// candidates (or a state of the exploration, replayed on the system).
// After maxRestarts bad candidates the search goes on without
// approximation, as the default mode does.

// Two things differ from Cubicle, both choices of Musket's that only
// steer the guesses (soundness does not rest on the oracle):
//
//   - A process variable that init says differs from every process
//     (FLASH's Home) is unknown in the oracle, where Cubicle gives it
//     the process outside the instance. With Cubicle's choice the
//     FLASH examples reach no verdict within 15 s at depth 6 or 8 (277
//     to 522 nodes, restarts); with this one they close at depth 8 in
//     21 to 41 nodes (Cubicle: 19 to 42). What lets Cubicle close them
//     at depth 6 was not found (flash15: its subtyping, its guard
//     learning, the queue order and postponing change nothing).
//   - A restart deepens the oracle by deepenBy levels and drops the
//     candidates kept from the last search (they were checked against
//     the shallower oracle): with -forward-depth 6 the FLASH examples
//     refute one guess at depth 6 (after 120 to 680 nodes) and close at
//     depth 8.
//
// Measured (lead, load about 25, CPU): with -brab 2 -forward-depth 6 the
// seven FLASH examples are SAFE in 21 to 41 nodes, 0.02 to 0.9 s (most of
// it the search at depth 6 before its first refutation);
// bakery_lamport_na (-brab 2) 128 nodes 0.03 s, its _wb variant 470
// nodes 0.32 s, challenges_msi.lock 137 nodes 0.14 s;
// challenges_hierarchical_snoop_cygc (-brab 2, no depth) does not finish
// exploring its instance (1 GB). The default mode (shallowFirst below)
// does better on every one of them.

// brabState is the state of the BRAB mode that outlives a restart.
type brabState struct {
	n, depth int
	// cands: the candidates made or pushed in the current search;
	// kept: those that survive a restart, pushed first into the next
	cands, kept []*Cube
	// states: the states explored (for -v and the tests)
	states int
	// x, set: the oracle and its index, deepened at each restart; stop
	// ends the exploration
	x    *sampler
	set  *sampleSet
	stop func() bool
}

// deepenBy is how many levels a restart adds to the oracle.
const deepenBy = 2

// newBrabApproximator explores the instance of sys with n processes up
// to depth (all of it when depth <= 0), once. It returns nil, with an
// error, when the system has weak memory or its instance is too large.
func newBrabApproximator(sys *System, n, depth int, stop func() bool) (*approximator, error) {
	if sys.Weak {
		return nil, fmt.Errorf("-brab: Cubicle's algorithm is for systems without weak memory")
	}
	// n is compared before it is narrowed: -brab 9223372036854775807
	// became int32 -1 and ran a small instance silently (robust5).
	if n > maxProcs {
		return nil, fmt.Errorf("-brab %d: at most %d processes", n, maxProcs)
	}
	np := max(int32(n), sys.Pinned)
	if np > maxProcs {
		return nil, fmt.Errorf("-brab %d: at most %d processes", n, maxProcs)
	}
	fin := newFinite(sys, np)
	if fin.cells > maxCells {
		return nil, fmt.Errorf("-brab %d: the instance has %d cells, more than %d", n, fin.cells, maxCells)
	}
	// (abstract: Cubicle's enumerative states leave undefined what
	// init does not fix, and an undefined cell satisfies any literal,
	// in a guard as in a candidate: the abstract sampler's unknown)
	a := &approximator{stop: stop, abstract: true, fixed: true}
	x := newSampler(fin, true)
	// the oracle stops at brabMaxStates states: without -forward-depth
	// the exploration of the whole instance had no bound but the time
	// limit (Cubicle's examples/challenges/flash.ctc_home.cub: 3 GB in
	// 120 s). A smaller oracle only accepts more candidates, which the
	// search refutes as any wrong guess (a restart): it stays sound
	limit := stop
	stop = func() bool { return limit != nil && limit() || x.count() >= brabMaxStates }
	x.outsideUnknown = true
	if y := newSymmetry(fin); y != nil {
		x.sym, x.symBuf, x.symBest = y, make([]int64, fin.cells), make([]int64, fin.cells)
	}
	x.growDepth(stop, depth)
	if x.unsafe {
		a.unsafe, a.errPath, a.errRoot, a.errProcs = true, x.errPath, x.errRoot, x.errProcs
	}
	s := newSampleSet(fin, nil)
	s.follow(x)
	a.insts, a.sets = []*sampler{x}, []*sampleSet{s}
	a.guessProcs = n
	a.done = true // the oracle never grows
	a.brab = &brabState{n: n, depth: depth, states: x.count(), x: x, set: s, stop: stop}
	return a, nil
}

// growDepth explores breadth first, level by level, the states up to
// depth steps from an initial state (all of them when depth <= 0), or
// until an unsafe state (exact mode) or stop.
func (x *sampler) growDepth(stop func() bool, depth int) {
	if !x.started {
		x.started = true
		for _, s := range x.initialStates() {
			x.add(s, -1, forwardStep{})
			if x.unsafe {
				return
			}
		}
	}
	for d := 0; depth <= 0 || d < depth; d++ {
		end := x.count()
		if x.next >= end {
			break
		}
		for x.next < end {
			lo, hi := x.next, min(x.next+batchStates, end)
			if stop != nil && stop() {
				return
			}
			x.expand(lo, hi, &x.batch)
			x.touch(&x.batch)
			if x.addBatch(&x.batch, math.MaxInt) {
				return // unsafe
			}
			x.next = hi
		}
	}
	x.res.complete = x.next >= x.count()
}

// brabLit reports whether a literal may be part of a candidate: the
// oracle answers it, and no side is a bare process.
func (a *approximator) brabLit(l Lit) bool {
	if l.L.Kind == KSlot || l.R.Kind == KSlot {
		return false
	}
	if a.abstract {
		return trackedLit(l)
	}
	return groundable(l)
}

// brabSorted reports whether l is set aside and put back into the
// candidates that mention its process: a literal over the array Sort,
// or one comparing the global Home with a process (Cubicle's names for
// FLASH's home node); its process is returned.
func (e *engine) brabSorted(l Lit) (int32, bool) {
	for _, p := range [2][2]Term{{l.L, l.R}, {l.R, l.L}} {
		t, o := p[0], p[1]
		if t.Kind != KVar || int(t.Sym) >= len(e.sys.Globals) {
			continue
		}
		switch g := e.sys.Globals[t.Sym]; {
		case g.Name == "Sort" && t.NArgs == 1:
			return t.Args[0], true
		case g.Name == "Home" && t.NArgs == 0 && o.Kind == KSlot:
			return o.Sym, true
		case g.Name == "Home" && t.NArgs == 0:
			return 0, true // set aside, never put back
		}
	}
	return 0, false
}

// brabCand is a candidate being ranked.
type brabCand struct {
	mask               uint64 // over the literals of the cube
	procs, lits        int
	neq, arrays, order int
}

// brabGuess returns the candidate that replaces c, or nil.
func (e *engine) brabGuess(c *Cube) *Cube {
	a, b := e.approx, e.approx.brab
	if a.unsafe || c.Origin != nil || len(c.Nodes) > 0 || len(c.Lits) < 2 || len(c.Lits) > 64 {
		return nil
	}
	pinned := e.sys.Pinned
	slotBit := func(s int32) uint64 {
		if s <= pinned {
			return 0
		}
		if k, ok := slices.BinarySearch(c.Slots, s); ok {
			return 1 << uint(k)
		}
		return 0
	}
	litSlots := make([]uint64, len(c.Lits))
	var pool []int
	var sorted []int // set aside (Sort, Home)
	sortProc := make([]uint64, len(c.Lits))
	for i, l := range c.Lits {
		for _, t := range [2]Term{l.L, l.R} {
			for _, s := range termSlots(t) {
				litSlots[i] |= slotBit(s)
			}
		}
		if p, ok := e.brabSorted(l); ok {
			if p != 0 {
				sortProc[i] = slotBit(p)
				if sortProc[i] != 0 {
					sorted = append(sorted, i)
				}
			}
			continue
		}
		if a.brabLit(l) {
			pool = append(pool, i)
		}
	}
	maxLits := max(2, b.n+1)
	var cands []brabCand
	var rec func(start int, mask, slots uint64, k int)
	rec = func(start int, mask, slots uint64, k int) {
		if k > 0 {
			cands = append(cands, brabCand{mask: mask})
		}
		if k == maxLits {
			return
		}
		for j := start; j < len(pool); j++ {
			i := pool[j]
			s := slots | litSlots[i]
			if bits.OnesCount64(s) > b.n {
				continue
			}
			rec(j+1, mask|1<<uint(i), s, k+1)
		}
	}
	rec(0, 0, 0, 0)
	all := uint64(1)<<uint(len(c.Lits)) - 1
	if len(c.Lits) == 64 {
		all = math.MaxUint64
	}
	kept := cands[:0]
	for _, cd := range cands {
		m := cd.mask
		var lits []Lit
		for i := range c.Lits {
			if m&(1<<uint(i)) != 0 {
				lits = append(lits, c.Lits[i])
			}
		}
		if len(lits) >= 3 && arrayCells(lits) > b.n-1 {
			continue
		}
		var slots uint64
		for i := range c.Lits {
			if m&(1<<uint(i)) != 0 {
				slots |= litSlots[i]
			}
		}
		for _, i := range sorted {
			if sortProc[i]&slots != 0 {
				m |= 1 << uint(i)
			}
		}
		if m == all {
			continue
		}
		cd.mask = m
		cd.procs = bits.OnesCount64(slots)
		cd.lits = bits.OnesCount64(m)
		for i := range c.Lits {
			if m&(1<<uint(i)) != 0 {
				if c.Lits[i].Op == Ne {
					cd.neq++
				}
				cd.arrays += arrayCells(c.Lits[i : i+1])
			}
		}
		cd.order = len(kept)
		kept = append(kept, cd)
	}
	slices.SortStableFunc(kept, func(x, y brabCand) int {
		switch {
		case x.procs != y.procs:
			return x.procs - y.procs
		case x.lits != y.lits:
			return x.lits - y.lits
		case x.neq != y.neq:
			return y.neq - x.neq
		}
		return x.arrays - y.arrays
	})
	for _, cd := range kept {
		if e.stopped() {
			return nil
		}
		var lits []Lit
		for i := range c.Lits {
			if cd.mask&(1<<uint(i)) != 0 {
				lits = append(lits, c.Lits[i])
			}
		}
		g := &Cube{Parent: c.Parent, Trans: c.Trans, Args: c.Args, Root: c.Root, Depth: c.Depth, Origin: c, Lits: lits}
		g.Slots = slices.Clone(c.Slots)
		dropUnusedSlots(g, pinned)
		if e.brabBad(g) {
			continue
		}
		ok := true
		for _, l := range lits {
			if !groundable(l) {
				ok = false // the oracle cannot say (Cubicle: ECantSay)
			}
		}
		if !ok || a.reached(lits, g.Slots, pinned) {
			continue
		}
		// the first good candidate; one that meets the initial
		// states is forgotten, and the cube stays
		if e.cheap(g) == cheapUnsat || e.reachesInit(g) {
			return nil
		}
		return g
	}
	return nil
}

// brabBad reports whether g is a subset or a superset of a bad
// candidate, up to a renaming of the processes.
func (e *engine) brabBad(g *Cube) bool {
	a := e.approx
	if len(a.bad) == 0 {
		return false
	}
	if e.refuted(g) {
		return true
	}
	idx := e.index(g)
	for _, b := range a.bad {
		if freeSlots(b, e.sys.Pinned) <= freeSlots(g, e.sys.Pinned) && e.match(b, g, idx, false, func(*matcher) bool { return true }) {
			return true
		}
	}
	return false
}

// brabRestart forgets the bad candidate g and keeps the other
// candidates of the search for the next one.
func (b *brabState) restart(g *Cube) {
	b.kept = b.kept[:0]
	for _, c := range b.cands {
		if c == g || c.Origin == g.Origin || slices.Equal(c.Lits, g.Lits) && slices.Equal(c.Slots, g.Slots) {
			continue
		}
		b.kept = append(b.kept, c)
	}
	b.cands = nil
	if b.x != nil && b.depth > 0 && !b.x.res.complete {
		b.x.growDepth(b.stop, deepenBy)
		b.set.follow(b.x)
		b.depth += deepenBy
		b.states = b.x.count()
		b.kept = nil // (checked against the shallower oracle)
	}
}

// pushKept pushes the kept candidates into the queue of a new search,
// as fresh cubes (their search bookkeeping starts again).
func (b *brabState) pushKept(q *queue) {
	cands := b.kept
	b.kept = nil
	for _, c := range cands {
		// (no parent: the path of the last search is gone, and its
		// deleted marks with it)
		n := &Cube{Slots: c.Slots, Lits: c.Lits, Trans: c.Trans, Args: c.Args, Root: c.Root, Depth: c.Depth, Origin: c.Origin}
		b.cands = append(b.cands, n)
		q.push(n)
	}
}

// The default mode's first attempt on a system it samples abstractly
// (shallowFirst): the BRAB mode's search with the 2-process instance
// explored to shallowDepth, abandoned at its first refuted guess, past
// shallowNodes visited cubes or when the exploration passes
// shallowStates states. Measured (lead, on top of flash15): the seven
// FLASH examples of Cubicle's distribution close in it without a
// restart, in 21 to 41 nodes over 269 to 2438 states (Cubicle with
// -brab 2 -forward-depth 6: 19 to 42 nodes); at depth 6 they do not.
// brabMaxStates bounds the states of -brab's oracle (newBrabApproximator;
// a variable for the tests).
var brabMaxStates = 1 << 19

const (
	shallowDepth  = 8
	shallowNodes  = 200
	shallowStates = 20000
)

// shallowTraceHolds reports whether the UNSAFE trace the first attempt
// found may stand: it replays on the finite instance it names. A
// backward trace may not
// replay: a forall_other guard is checked on the cube's processes only,
// as Cubicle does, and a cell that an update without a default branch
// leaves free may need a value the forward explorer does not draw. The
// searches below, which look at a forward sample first, then find one
// that does, as they did before the first attempt existed.
func (r *run) shallowTraceHolds(ctx context.Context) bool {
	e := r.e
	ok, _, _ := replayTrace(e.sys, r.res, e.opts.Model, confirmStates, e.opts.replayWordsOr(), func() bool { return ctx.Err() != nil })
	if !ok {
		r.res.Trace, r.res.Root = nil, 0
	}
	return ok
}

// shallowFirst runs the first attempt; done reports a verdict that
// stands (SAFE closes with the guesses as any search does; UNSAFE comes
// from a path without guesses). When it is abandoned, the searches that
// follow are those that ran before it existed.
func (r *run) shallowFirst(ctx context.Context) (v Verdict, done bool) {
	e := r.e
	budget := shallowNodes
	switch {
	case e.opts.noShallow:
		return 0, false
	case e.opts.shallowBudget > 0:
		budget = e.opts.shallowBudget
	case e.opts.MaxNodes > 0 && e.opts.MaxNodes <= shallowNodes:
		return 0, false
	}
	// (the exploration asks stop once per batch of batchStates states)
	batches := 0
	tooMany := func() bool { return batches > shallowStates/batchStates }
	stop := func() bool {
		batches++
		return e.stop() || tooMany()
	}
	a, err := newBrabApproximator(e.sys, 2, shallowDepth, stop)
	if err != nil || a.unsafe || tooMany() || a.brab.states > shallowStates {
		return 0, false
	}
	// the attempt ends at its first refuted guess: its restart need
	// not deepen an oracle that is then dropped
	a.brab.x = nil
	if ctx.Err() != nil {
		return Timeout, true
	}
	saved := e.opts.MaxNodes
	e.opts.MaxNodes, e.approx = budget, a
	v, restart := r.search(ctx)
	e.opts.MaxNodes, e.approx = saved, nil
	if !restart && v != NodeLimit && v != NumberLimit && (v != Unsafe || r.shallowTraceHolds(ctx)) {
		return v, true
	}
	if e.opts.Verbose != nil {
		fmt.Fprintf(e.opts.Verbose, "no verdict from the shallow oracle after %d cubes: search again\n", r.res.Visited)
	}
	r.work = 0
	r.res.Restarts, r.res.Guesses = 0, 0
	return 0, false
}
