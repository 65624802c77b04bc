package param

import "slices"

// This file is the deep phase of the approximation (approx.go). The lazy
// sample of a finite instance (a breadth-first prefix of at most
// maxSample states) is a weak oracle on protocols whose instances have
// hundreds of thousands of states, such as FLASH: guesses that only deep
// states refute are taken, the backward search spends thousands of nodes
// under them, and it never closes. After deepAfter nodes (over all the
// restarts; see deepEarly) on a system without weak memory nor numbers, the search
// starts again with a sample of up to deepSample states, explored at
// once, and two more rules:
//
//   - (exact samples) a node that descends from a guess and that a
//     sampled state satisfies refutes its nearest guess at once (the node is then
//     reachable in the instance, so the guess is not an invariant),
//     instead of waiting for a pre-image to meet the initial states;
//   - a guess of three literals may mention two array cells (such as a
//     message and its destination: UnetMtype[#1] = Get && UnetProc[#1] =
//     #2 && Pending = False), not one.
//
// Both only choose and drop guesses: every guess is still checked by
// the backward search (a SAFE verdict needs an inductive set of cubes
// that excludes the initial states), as in Conchon, Goel, Krstić,
// Mebsout and Zaïdi's "Invariants for finite instances and beyond"
// (FMCAD 2013). The searches that end within deepAfter nodes, all the
// corpus but FLASH, are unchanged.
//
// The phase starts at the first visited node already when the sample
// of the first instance is then not complete: the lazy sample has
// grown to sampleBase+samplePerNode states, and an instance that large
// is one whose prefix lets wrong guesses through (FLASH's first 500
// nodes cost two thirds of its time, and closed nothing). Waiting for
// more nodes before going deep only pays for nodes that are searched
// again (the deep phase starts the search over) under guesses the deep
// sample may not take: with 50 nodes, FLASH's exact examples (the
// corpus's only instances larger than that slice) spent 50 nodes of
// lazy sampling first, and challenges_flash2_exclusive_putx_nodata
// closed in 83 nodes after them instead of 73. What a short search on
// such an instance pays more is one deep sample (at most deepSample
// states). The searches whose first instance is sampled completely by
// then keep deepAfter, and so do abstract samples (the deep phase
// refutes no guess early there: challenges_flash2_exclusive took 183
// nodes without it, and had no verdict after 322 with it), unless their
// first search, productive (search.go), stops being so: it goes on past
// approxFirstNodes because it generalises one cube in productiveRatio,
// and the same ratio, checked again every approxFirstNodes nodes over
// the whole phase, tells when the lazy sample no longer yields guesses
// (unproductive). challenges_flash2 made 28 and 21 guesses in its first
// two windows of 50 nodes, then 5, 4, 2, 2, 1, 0, 3 and 1 up to node
// 500, where it went deep and closed in 144 nodes: it now goes deep at
// node 200 (58 guesses). challenges_hierarchical_snoop_cygc keeps 11 to
// 27 guesses a window (138 in 391 nodes, its unsafe path) and
// challenges_flash2_exclusive 68 in 183, and neither goes deep.
//
// The deep sample is one state per orbit of the permutations of the
// processes (symmetry, below) when the system treats its processes
// alike, and it then covers the instance with one more process too
// (deepNext orbits, sampled side by side with the first instance):
// FLASH's 2-process instance is complete in 216 316 orbits, and the
// guesses over two processes that a third one refutes are dropped
// before the search visits them.
//
// On challenges_flash2_nodata.cub the full instance with 2 processes has
// 428 887 states; with the lazy sample the search had no verdict after
// 60 s, with a sample of 200 000 states it proves the system in about
// 200 nodes.

// deepSample: 250 000 states (orbits) keep the peak under 300 MB; the
// FLASH files get the same guesses as with 400 000 (ctc_home_nodata's
// 2-process instance is the only one not complete within it).
const (
	deepAfter  = 500
	deepEarly  = 1
	deepSample = 250000
	// deepNext: the states (orbits) of the instance with one more
	// process in the deep phase
	deepNext = 20000
	// deepGuessArrays replaces maxGuessArrays in the deep phase
	deepGuessArrays = 2
)

// deepStart is the first bound of an exact deep sample: a quarter of
// deepSample, doubled at each refuted guess (widen, backtrack.go) up to
// deepSample. In an exact deep phase a guess is refuted as soon as one
// of its descendants is a sampled state (sampleReaches), a few nodes
// under it, and is then undone in place at the cost of its own subtree:
// a sample too shallow for the system shows itself early and cheaply,
// and the search pays for the full sample only then. The instances that
// a quarter serves pay a quarter of the exploration: the deep sample
// was 60 % of challenges_flash.ctc_home_nodata's time (0.56 -> 0.27 s,
// same 142 nodes). Those it does not serve grow it to deepSample after
// one or two refutations (challenges_flash2_nodata: 12 guesses undone,
// 170 nodes instead of 144, the same time within noise); starts of an
// eighth and a sixteenth gave the same times on both, so the choice is
// not a fitted one. Abstract samples start at deepSample: they refute
// no guess early (the backward search must reach the initial states),
// and guesses taken from a shallower abstract sample are kept wrong
// for hundreds of nodes (challenges_flash2 from an eighth had no
// verdict after 1500 nodes, the sample grown to deepSample by then).
const deepStart = 62500

// sampleLimit is the largest sample of a.
func (a *approximator) sampleLimit() int {
	if a.deep {
		if a.deepCap > 0 {
			return a.deepCap
		}
		return deepSample
	}
	return maxSample
}

// guessArrays bounds the array cells of a guess of three literals.
func (a *approximator) guessArrays() int {
	if a.deep {
		return deepGuessArrays
	}
	return maxGuessArrays
}

// goDeep reports whether the search should start again in the deep
// phase, and enters it.
func (r *run) goDeep() bool {
	a := r.e.approx
	if a == nil || a.weak != nil || a.deep || a.done || a.unsafe || r.work < deepEarly {
		return false
	}
	if r.work < deepAfter && !(a.abstract && r.unproductive) && (a.abstract || a.insts[0].res.complete) {
		return false
	}
	if a.abstract {
		// an abstract sample of numbers says little more when deeper
		// (distrib_channels: 3 times the CPU for the same nodes); one
		// whose abstract cells are data (FLASH's) is sampled deeper
		for _, g := range r.e.sys.Globals {
			if g.Sort.numeric() {
				return false
			}
		}
	}
	a.deep = true
	if !a.abstract {
		a.deepCap = deepStart // (see deepStart)
	}
	// the deep sample starts again, one state per orbit of the
	// permutations of the processes when the system allows it
	// (a system without the symmetry keeps its lazy sample, which grows
	// on to deepSample states)
	if len(a.insts) == 1 && !a.insts[0].res.complete && newSymmetry(a.insts[0].fin) != nil {
		fin := a.insts[0].fin
		a.insts = []*sampler{a.newSampler(fin)}
		a.sets = []*sampleSet{newSampleSet(fin, nil)}
		// with the symmetry, the instance with one more process is
		// sampled beside it (deepNext states)
		if a.insts[0].sym != nil && !a.fixed && fin.n+1 <= maxProcs {
			if next := newFinite(fin.sys, fin.n+1); next.cells <= maxCells {
				a.insts = append(a.insts, a.newSampler(next))
				a.sets = append(a.sets, newSampleSet(next, nil))
				a.pair = true
			}
		}
	}
	if r.e.opts.Verbose != nil {
		r.e.opts.Verbose.Write([]byte("no verdict yet: search again with a deeper sample\n"))
	}
	return true
}

// sampleReaches reports whether c descends from a guess and a state of
// the exact sample satisfies c (deep phase only).
func (e *engine) sampleReaches(c *Cube) bool {
	a := e.approx
	if a == nil || !a.deep || a.weak != nil || a.abstract || a.unsafe || len(c.Nodes) > 0 || guessOn(c) == nil {
		return false
	}
	for _, l := range c.Lits {
		if !groundable(l) {
			return false
		}
	}
	return a.reached(c.Lits, c.Slots, e.sys.Pinned)
}

// symmetry is the group of the permutations of the processes
// Pinned+1..n of a finite instance of a system that treats its
// processes alike (no process constant beyond Pinned, no order
// comparison of processes): a permuted reachable state is reachable.
// The deep phase samples one state of each orbit, its smallest
// permutation: the sample answers what the full one would, since a
// conjunction is reached when some state satisfies it under some map
// of its slots to processes (sampleSet.reaches tries them all), and
// the states of an orbit differ by such a map. With two processes
// (FLASH) it halves the states explored and kept.
type symmetry struct {
	n     int32
	perms [][]int32 // perms[k][p]: the image of process p (perms[k][0] = 0)
	cell  [][]int   // cell[k][c]: the cell that cell c becomes under perms[k]
	inv   [][]int   // inv[k][j]: the cell that becomes cell j under perms[k]
	proc  []bool    // the cells of process sort
}

// newSymmetry returns the symmetry of fin, or nil when the system does
// not treat its processes alike or the instance has fewer than two
// interchangeable processes.
func newSymmetry(fin *finite) *symmetry {
	sys := fin.sys
	if sys.Weak || fin.size != fin.cells || fin.n-sys.Pinned < 2 || fin.n > maxProcs || !procsAlike(sys) {
		return nil
	}
	y := &symmetry{n: fin.n, proc: make([]bool, fin.cells)}
	for g, gl := range sys.Globals {
		if gl.Sort.Kind == SProc {
			for c := fin.base[g]; c < fin.base[g]+fin.cellCount(g); c++ {
				y.proc[c] = true
			}
		}
	}
	// the permutations, the identity first
	free := make([]int32, 0, fin.n)
	for p := sys.Pinned + 1; p <= fin.n; p++ {
		free = append(free, p)
	}
	var rec func(k int, used uint64, img []int32)
	rec = func(k int, used uint64, img []int32) {
		if k == len(free) {
			y.perms = append(y.perms, slices.Clone(img))
			return
		}
		for _, q := range free {
			if used&(1<<uint(q)) == 0 {
				img[free[k]] = q
				rec(k+1, used|1<<uint(q), img)
			}
		}
	}
	img := make([]int32, fin.n+1)
	for p := int32(1); p <= sys.Pinned && p <= fin.n; p++ {
		img[p] = p
	}
	rec(0, 0, img)
	for _, pm := range y.perms {
		m := make([]int, fin.cells)
		for g, gl := range sys.Globals {
			nargs := int32(gl.Arity)
			var args [maxArity]int32
			for i := 0; i < fin.cellCount(g); i++ {
				// the arguments of cell i of g (the first varies fastest)
				x := i
				for a := int32(0); a < nargs; a++ {
					args[a] = pm[int32(x%int(fin.n))+1]
					x /= int(fin.n)
				}
				m[fin.base[g]+i] = fin.cell(int32(g), nargs, args)
			}
		}
		y.cell = append(y.cell, m)
		inv := make([]int, fin.cells)
		for c, j := range m {
			inv[j] = c
		}
		y.inv = append(y.inv, inv)
	}
	return y
}

// cellCount is the number of cells of global g.
func (l *cellLayout) cellCount(g int) int {
	if g+1 < len(l.base) {
		return l.base[g+1] - l.base[g]
	}
	return l.cells - l.base[g]
}

// apply returns the state st under the permutation k.
func (y *symmetry) apply(st []int64, k int) []int64 {
	out := make([]int64, len(st))
	y.applyTo(out, st, k)
	return out
}

// smaller reports whether st under the permutation k is smaller than
// cur (in the order of slices.Compare), and then leaves it in buf. It
// makes the permuted state cell by cell, in order, and stops at the
// first cell that differs from cur's: most permutations are not smaller,
// and are told so after a few cells.
func (y *symmetry) smaller(buf, st, cur []int64, k int) bool {
	pm, inv := y.perms[k], y.inv[k]
	for j := range cur {
		c := inv[j]
		v := st[c]
		if y.proc[c] && v >= 1 && v <= int64(y.n) {
			v = int64(pm[v])
		}
		if v != cur[j] {
			if v > cur[j] {
				return false
			}
			y.applyTo(buf, st, k)
			return true
		}
	}
	return false
}

func (y *symmetry) applyTo(out, st []int64, k int) {
	pm, m := y.perms[k], y.cell[k]
	for c, v := range st {
		if y.proc[c] && v >= 1 && v <= int64(y.n) {
			v = int64(pm[v])
		}
		out[m[c]] = v
	}
}

// canon returns the smallest permutation of st (in the order of the
// cells' values) and the index of the permutation that gives it; st
// itself when the identity does. buf has len(st) cells (scratch), and
// so has best when given: the result is then built in it (no
// allocation).
func (y *symmetry) canon(st []int64, buf []int64, best ...[]int64) ([]int64, int) {
	cur, bk := st, 0
	for k := 1; k < len(y.perms); k++ {
		if y.smaller(buf, st, cur, k) {
			if bk == 0 {
				if len(best) > 0 && len(best[0]) == len(st) {
					cur = best[0]
				} else {
					cur = make([]int64, len(st))
				}
			}
			copy(cur, buf)
			bk = k
		}
	}
	return cur, bk
}

// compose returns the index of the permutation a∘b (b first).
func (y *symmetry) compose(a, b int) int {
	pa, pb := y.perms[a], y.perms[b]
	for k, pk := range y.perms {
		ok := true
		for p := int32(1); p <= y.n; p++ {
			if pk[p] != pa[pb[p]] {
				ok = false
				break
			}
		}
		if ok {
			return k
		}
	}
	return 0
}

// inverse returns the index of the inverse of permutation a.
func (y *symmetry) inverse(a int) int {
	for k := range y.perms {
		if y.compose(a, k) == 0 {
			return k
		}
	}
	return 0
}

// procsAlike reports whether no formula of sys compares processes by
// their order (i < j), the only way a system that names no process
// constant tells its processes apart.
func procsAlike(sys *System) bool {
	ordered := func(l Lit) bool {
		if l.Op == Eq || l.Op == Ne {
			return false
		}
		for _, t := range [2]Term{l.L, l.R} {
			if t.Kind == KSlot || t.Sort.Kind == SProc {
				return true
			}
		}
		return false
	}
	var dnf func(cs []Conj) bool
	dnf = func(cs []Conj) bool {
		for _, c := range cs {
			for _, l := range c.Lits {
				if ordered(l) {
					return false
				}
			}
			for _, f := range c.Foralls {
				if !dnf(f) {
					return false
				}
			}
			for _, f := range c.Exists {
				if !dnf(f) {
					return false
				}
			}
		}
		return true
	}
	if !dnf(sys.Init) {
		return false
	}
	for _, t := range sys.Trans {
		if !dnf(t.Guard) {
			return false
		}
		for _, u := range t.Updates {
			for _, cs := range u.Cases {
				if !dnf(cs.Cond) {
					return false
				}
			}
		}
	}
	for _, rs := range [][]*Root{sys.Unsafe, sys.Invariants} {
		for _, r := range rs {
			if !dnf(r.DNF) {
				return false
			}
		}
	}
	return true
}

// newSampler returns a sampler of the instance fin: in the deep phase,
// one that keeps a state per orbit of the symmetry of fin (if any).
func (a *approximator) newSampler(fin *finite) *sampler {
	x := newSampler(fin, a.abstract)
	x.parallel = a.parallel
	if a.deep {
		if y := newSymmetry(fin); y != nil {
			x.sym, x.symBuf, x.symBest = y, make([]int64, fin.cells), make([]int64, fin.cells)
		}
	}
	return x
}

// symPath returns the steps of a path from an initial state to a state
// whose permutation to the sampled state i (an orbit's representative)
// is returned too: the sampler keeps, for each state, the permutation
// that made the successor of its parent the representative.
func (x *sampler) symPath(i int) ([]forwardStep, int) {
	var chain []int
	for j := i; j >= 0; j = int(x.res.parent[j]) {
		chain = append(chain, j)
	}
	slices.Reverse(chain)
	y := x.sym
	// sigma: the concrete state reached so far is sigma(representative)
	sigma := y.inverse(int(x.perm[chain[0]]))
	var out []forwardStep
	for _, j := range chain[1:] {
		st := x.step(j)
		args := make([]int32, len(st.args))
		for k, p := range st.args {
			args[k] = p
			if p >= 1 && p <= y.n {
				args[k] = y.perms[sigma][p]
			}
		}
		out = append(out, forwardStep{t: st.t, args: args, flush: st.flush, cell: st.cell})
		sigma = y.compose(sigma, y.inverse(int(x.perm[j])))
	}
	return out, sigma
}

// growPair samples the two instances of the deep phase: the larger one
// first, up to deepNext states (few, but they refute at once the
// guesses over two processes that only a third one makes reachable:
// Dir_HeadPtr <> #3 && ShWbMsg_Proc = #2 && ... in FLASH, which took a
// restart each), then the first one up to the bound of the deep sample
// in all (sampleLimit: deepStart, doubled up to deepSample by widen).
func (a *approximator) growPair() {
	if a.done || a.unsafe {
		return
	}
	for _, k := range []int{1, 0} {
		x, s := a.insts[k], a.sets[k]
		limit := deepNext
		if k == 0 {
			limit = a.sampleLimit() - a.insts[1].count()
		}
		if !x.res.complete && x.count() < limit {
			x.grow(a.stop, limit)
		}
		if x.unsafe {
			a.unsafe, a.errPath, a.errRoot, a.errProcs = true, x.errPath, x.errRoot, x.errProcs
			return
		}
		s.follow(x)
		if !x.res.complete && x.count() < limit {
			return // stopped
		}
	}
	a.done = a.sampleLimit() >= deepSample
}
