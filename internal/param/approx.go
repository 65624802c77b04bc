package param

import (
	"math/bits"
	"slices"
)

// This file is the approximation of the backward search (the idea of
// Cubicle's BRAB, "backward reachability with approximations and
// backtracking"): before a new cube is explored, it is replaced by a
// generalisation, a small subset of its literals that no state of a
// sample of reachable states of a finite instance satisfies (explore.go).
// The generalisation covers more states, so the search converges sooner
// with fewer, more general cubes.
//
// A guess can be wrong. When a cube that descends from a guess meets the
// initial states, the nearest guess on its path is refuted, remembered,
// and undone: the search drops it and what descends from it, and goes on
// without it (nor any guess that generalises it; backtrack.go). An
// unsafe verdict is reported only for a path without guesses, and
// a safe verdict means that the visited cubes, guesses included, form an
// inductive invariant that excludes the unsafe states: both are as sound
// as without approximations.

// maxGuessLits bounds the number of literals of a guess; a guess with
// three literals mentions at most maxGuessArrays array cells (Cubicle's
// BRAB heuristic, made for FLASH: wide guesses over many cells are
// rarely invariants, and their pre-images are many).
const (
	maxGuessLits   = 3
	maxGuessArrays = 1
)

// maxProcs and maxCells bound the finite instances that are sampled.
const (
	maxProcs = 4
	maxCells = 4096
)

// maxRestarts bounds the number of refuted guesses; past it the search
// runs once more without approximation.
const maxRestarts = 200

// approximator makes the guesses.
type approximator struct {
	// sets: the samples of finite instances with more and more
	// processes (sampleSet), explored by insts; guessProcs bounds the
	// processes of a guess
	sets       []*sampleSet
	insts      []*sampler
	guessProcs int
	bad        []*Cube // refuted guesses
	badIdx     []*matchIndex
	// unsafe: the sample reaches an unsafe state (no guesses then), by
	// errPath, for the formula errRoot on the processes errProcs
	unsafe   bool
	errPath  []forwardStep
	errRoot  *Root
	errProcs []int32
	stop     func() bool // polled while the samples are taken
	// abstract: the samples are abstract (absexplore.go): guesses keep
	// the literals over tracked cells only
	abstract bool
	fixed    bool // number_procs: one instance only
	done     bool // no instance left to explore
	deep     bool // the deep phase (deep.go)
	// pair: (deep phase) insts are the first instance and the one with
	// a process more, sampled side by side (deep.go)
	pair bool
	// parallel: the deep samples grow on two goroutines (parsample.go)
	parallel bool
	// deepCap: (deep phase) the current bound of the deep sample, from
	// deepStart up to deepSample (widen, backtrack.go); 0: deepSample
	deepCap int
	// weak: the sample of a system with weak memory (wguess.go); sets
	// is then unused
	weak *weakSampler
	// brab: Cubicle's BRAB mode (brab.go), nil in the default mode
	brab *brabState
}

// The budget of the lazy sample: sampleBase states when the backward
// search visits its first node, samplePerNode more for each node it
// visits, maxSample in all. The search's work pays for the sample: a search
// that ends after a few nodes never explores thousands of states.
const (
	sampleBase    = 2000
	samplePerNode = 500
)

// newApproximator prepares the samples of finite instances of sys, or
// returns nil when sys has weak memory or too many cells. The first
// instance has two processes (or the number_procs of sys, and then it
// is the only one); when a sample is complete, the instance with one
// more process is sampled next: a guess over k processes may need k+1
// of them to be seen reachable (a process that the guess does not
// mention but that the others wait for). Systems with integers, reals or
// abstract types are sampled abstractly (absexplore.go). Nothing is
// explored yet: grow explores as the search goes (the sample may meet
// an unsafe state: a.unsafe).
func newApproximator(sys *System, stop func() bool) *approximator {
	if sys.Weak {
		return nil
	}
	n := max(sys.Pinned, 2)
	fixed := sys.NumberProcs > 0
	if fixed {
		n = int32(sys.NumberProcs)
	}
	if n > maxProcs {
		return nil
	}
	a := &approximator{stop: stop, abstract: !explorable(sys), fixed: fixed}
	fin := newFinite(sys, n)
	if fin.cells > maxCells {
		return nil
	}
	a.insts = append(a.insts, newSampler(fin, a.abstract))
	a.sets = append(a.sets, newSampleSet(fin, nil))
	return a
}

// sampled returns the number of states sampled.
func (a *approximator) sampled() int {
	k := 0
	for _, s := range a.sets {
		k += s.count()
	}
	return k
}

// grow extends the samples up to limit states in all (at most
// maxSample, deepSample in the deep phase). In exact mode, a state that meets an unsafe formula stops
// the sampling and sets a.unsafe.
func (a *approximator) grow(want int) {
	if a.pair {
		a.growPair() // deep.go
	}
	for !a.pair && !a.done && !a.unsafe {
		limit := min(want, a.sampleLimit())
		total := a.sampled()
		if total >= limit {
			break
		}
		k := len(a.insts) - 1
		x, s := a.insts[k], a.sets[k]
		if x.res.complete {
			n := x.fin.n + 1
			if a.fixed || n > maxProcs {
				a.done = true
				break
			}
			fin := newFinite(x.fin.sys, n)
			if fin.cells > maxCells {
				a.done = true
				break
			}
			a.insts = append(a.insts, a.newSampler(fin))
			a.sets = append(a.sets, newSampleSet(fin, nil))
			continue
		}
		grew := x.grow(a.stop, s.count()+limit-total)
		if x.unsafe {
			a.unsafe, a.errPath, a.errRoot, a.errProcs = true, x.errPath, x.errRoot, x.errProcs
			break
		}
		s.follow(x)
		if !grew && !x.res.complete {
			break // stopped
		}
	}
	// a guess has at most the processes of the first instance, or one
	// fewer than the largest one sampled
	last := len(a.sets) - 1
	if last > 0 && a.sets[last].count() == 0 {
		last--
	}
	a.guessProcs = max(int(a.sets[0].n), int(a.sets[last].n)-1)
}

// sampleSet is the sample of one finite instance, with, for every
// literal over its cells that a guess asked about, the set of sampled
// states where it holds (a bitset, computed once): a conjunction is
// reached when the intersection of the sets of its literals is not
// empty, for some map of its slots to processes. The SC and the TSO
// samples (wexplore.go) both use it.
type sampleSet struct {
	layout *cellLayout
	n      int32
	states [][]int64
	// packed: instead of states (states.go), its first nPacked states
	// (the weak sample's, a sampler's)
	packed  *stateStore
	nPacked int
	holds   map[groundLit]stateBits
	acc     []uint64 // reaches' buffer
	// constant evaluates a term without cells
	constant func(t Term, e *fenv) (int64, bool)
}

// stateBits is the bitset of the first n sampled states where a literal
// holds.
type stateBits struct {
	bits []uint64
	n    int
}

// operand is the value of a cell of a finite instance plus val, or the
// constant val (cell -1).
type operand struct {
	cell int
	val  int64
}

// groundLit is a literal of a cube whose slots are mapped to processes
// of a finite instance.
type groundLit struct {
	op   Op
	l, r operand
}

func newSampleSet(fin *finite, states [][]int64) *sampleSet {
	return &sampleSet{layout: &fin.cellLayout, n: fin.n, states: states, holds: map[groundLit]stateBits{},
		constant: func(t Term, e *fenv) (int64, bool) { return fin.value(nil, t, e) }}
}

// groundable reports whether a literal is a comparison of cells (plus
// an integer) and constants, which the sets of states answer.
func groundable(l Lit) bool {
	for _, t := range [2]Term{l.L, l.R} {
		switch t.Kind {
		case KVar:
			if t.Off.Den != 1 {
				return false
			}
		case KBool, KEnum, KSlot:
		case KNum:
			if t.Off.Den != 1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// operand compiles a term under the map e of slots to processes; ok is
// false when a process is not one of the instance.
func (s *sampleSet) operand(t Term, e *fenv) (operand, bool) {
	if t.Kind == KVar {
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		cell := s.layout.cell(t.Sym, t.NArgs, args)
		return operand{cell: cell, val: t.Off.Num}, cell >= 0
	}
	v, ok := s.constant(t, e)
	return operand{cell: -1, val: v}, ok
}

// count is the number of sampled states.
func (s *sampleSet) count() int {
	if s.packed != nil {
		return s.nPacked
	}
	return len(s.states)
}

// follow makes s the sample of x's states (after x grew). The store of
// a sampler only grows (its states are appended, never changed: a
// wider cell keeps its value), so that the sets of states where
// literals hold stay right for the states they cover, and statesOf
// extends them to the new ones: the lazy sample grows at every node,
// and making every set again over the whole sample each time was most
// of statesOf's time. Another store starts them again.
func (s *sampleSet) follow(x *sampler) {
	if x.count() > s.count() {
		if s.packed != x.store {
			clear(s.holds)
		}
		s.packed, s.nPacked = x.store, x.count()
	}
}

// statesOf returns the bitset of the sampled states where g holds.
func (s *sampleSet) statesOf(g groundLit) []uint64 {
	old, ok := s.holds[g]
	if ok && old.n == s.count() {
		return old.bits
	}
	// (the states from `from` on are new: old covers those before)
	from := 0
	var b []uint64
	if ok {
		from = old.n
		b = append(old.bits, make([]uint64, (s.count()+63)/64-len(old.bits))...)
	} else {
		b = make([]uint64, (s.count()+63)/64)
	}
	value := func(v int64, o operand) (int64, bool) {
		if o.cell < 0 {
			return o.val, true
		}
		if v == unknown {
			return 0, false
		}
		return v + o.val, true
	}
	cell := func(st []int64, o operand) int64 {
		if o.cell < 0 {
			return 0
		}
		return st[o.cell]
	}
	set := func(i int, lv, rv int64) {
		l, lok := value(lv, g.l)
		r, rok := value(rv, g.r)
		// a literal over an unknown cell (abstract sample) may hold
		if !lok || !rok || evalInt(g.op, l, r) {
			b[i/64] |= 1 << uint(i%64)
		}
	}
	if p := s.packed; p != nil && p.width == 1 && (g.l.cell < 0) != (g.r.cell < 0) {
		// a cell against a constant, a byte a cell: the literal's truth
		// for each of the 256 bytes, then one look-up per state
		// (tbl[x] is 1 or 0: the bits of a word are or-ed in a register
		// without a branch, and the word is written once)
		var tbl [256]uint64
		for x := range 256 {
			v := int64(int8(x))
			if p.unknownAs && v == -1 {
				v = unknown
			}
			l, lok := value(v, g.l)
			r, rok := value(v, g.r)
			if !lok || !rok || evalInt(g.op, l, r) {
				tbl[x] = 1
			}
		}
		c := g.l.cell
		if c < 0 {
			c = g.r.cell
		}
		for i := from; i < s.nPacked; {
			wi := i / 64
			end := min(s.nPacked, (wi+1)*64)
			w := b[wi]
			for off := i*p.size + c; i < end; i, off = i+1, off+p.size {
				w |= tbl[uint8(p.b8[off])] << uint(i%64)
			}
			b[wi] = w
		}
	} else if p != nil {
		at := func(i int, o operand) int64 {
			if o.cell < 0 {
				return 0
			}
			return p.at(i, o.cell)
		}
		for i := from; i < s.nPacked; i++ {
			set(i, at(i, g.l), at(i, g.r))
		}
	} else {
		for i := from; i < len(s.states); i++ {
			set(i, cell(s.states[i], g.l), cell(s.states[i], g.r))
		}
	}
	s.holds[g] = stateBits{b, s.count()}
	return b
}

// intersect sets acc to the sampled states where the groundable lits
// hold under the map e, and reports whether there is one.
func (s *sampleSet) intersect(lits []Lit, e *fenv, acc []uint64) bool {
	for i := range acc {
		acc[i] = ^uint64(0)
	}
	if k := s.count() % 64; k != 0 {
		acc[len(acc)-1] = 1<<uint(k) - 1
	}
	for _, l := range lits {
		lo, ok1 := s.operand(l.L, e)
		ro, ok2 := s.operand(l.R, e)
		if !ok1 || !ok2 {
			return false
		}
		if lo.cell < 0 && ro.cell < 0 {
			if !evalInt(l.Op, lo.val, ro.val) {
				return false
			}
			continue
		}
		b := s.statesOf(groundLit{l.Op, lo, ro})
		any := uint64(0)
		for i := range acc {
			acc[i] &= b[i]
			any |= acc[i]
		}
		if any == 0 {
			return false
		}
	}
	return len(acc) > 0
}

// slotMaps calls fn with every injective map m of slots to the processes
// 1..n (a pinned slot, a process constant, maps to itself), through the
// environment e, until fn returns true; it reports whether one did.
func slotMaps(slots []int32, pinned, n int32, fn func(e *fenv) bool) bool {
	m := make([]int32, len(slots))
	used := make([]bool, n+1)
	e := &fenv{slot: func(x int32) int32 {
		if i := slices.Index(slots, x); i >= 0 {
			return m[i]
		}
		return 0
	}}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(slots) {
			return fn(e)
		}
		if x := slots[k]; x <= pinned {
			if x > n || used[x] {
				return false
			}
			used[x], m[k] = true, x
			ok := rec(k + 1)
			used[x] = false
			return ok
		}
		for p := int32(1); p <= n; p++ {
			if !used[p] {
				used[p], m[k] = true, p
				ok := rec(k + 1)
				used[p] = false
				if ok {
					return true
				}
			}
		}
		return false
	}
	return rec(0)
}

// reaches reports whether a sampled state satisfies lits (groundable,
// over slots) for some injective map of the slots to the processes of
// the instance.
func (s *sampleSet) reaches(lits []Lit, slots []int32, pinned int32) bool {
	k := (s.count() + 63) / 64
	if cap(s.acc) < k {
		s.acc = make([]uint64, k)
	}
	acc := s.acc[:k]
	return slotMaps(slots, pinned, s.n, func(e *fenv) bool { return s.intersect(lits, e, acc) })
}

// reached reports whether a state of some sample satisfies lits.
func (a *approximator) reached(lits []Lit, slots []int32, pinned int32) bool {
	for _, s := range a.sets {
		if s.reaches(lits, slots, pinned) {
			return true
		}
	}
	return false
}

// guess returns a generalisation of c, or nil.
func (e *engine) guess(c *Cube) *Cube {
	a := e.approx
	if a != nil && a.brab != nil {
		return e.brabGuess(c) // brab.go
	}
	if a != nil && a.weak != nil && len(c.Lits) >= 2 {
		return e.weakGuess(c)
	}
	if a == nil || a.unsafe || len(c.Nodes) > 0 || len(c.Lits) < 2 || len(c.Lits) > 64 || a.sampled() == 0 {
		return nil
	}
	// the literals a guess may keep: in an abstract sample, those over
	// tracked cells (the others hold in every abstract state)
	pool := c.Lits
	if a.abstract {
		pool = nil
		for _, l := range c.Lits {
			if trackedLit(l) {
				pool = append(pool, l)
			}
		}
		if len(pool) == 0 {
			return nil
		}
	}
	// the slots of each literal
	litSlots := make([]uint64, len(pool))
	for i, l := range pool {
		for _, t := range [2]Term{l.L, l.R} {
			for _, s := range termSlots(t) {
				if k, ok := slices.BinarySearch(c.Slots, s); ok {
					litSlots[i] |= 1 << uint(k)
				}
			}
		}
	}
	var pinnedSlots uint64
	for k, s := range c.Slots {
		if s <= e.sys.Pinned {
			pinnedSlots |= 1 << uint(k)
		}
	}
	n := len(pool)
	var best *Cube
	try := func(sub uint64) bool {
		var slotSet uint64
		var lits []Lit
		for i := range n {
			if sub&(1<<uint(i)) != 0 {
				slotSet |= litSlots[i]
				lits = append(lits, pool[i])
			}
		}
		if bits.OnesCount64(slotSet&^pinnedSlots) > a.guessProcs {
			return false
		}
		if len(lits) >= 3 && arrayCells(lits) > a.guessArrays() {
			return false
		}
		var slots []int32
		for k, s := range c.Slots {
			if slotSet&(1<<uint(k)) != 0 {
				slots = append(slots, s)
			}
		}
		if a.reached(lits, slots, e.sys.Pinned) {
			return false
		}
		g := &Cube{Parent: c.Parent, Trans: c.Trans, Args: c.Args, Root: c.Root, Depth: c.Depth, Origin: c, Lits: lits}
		g.Slots = slices.Clone(c.Slots)
		dropUnusedSlots(g, e.sys.Pinned)
		if e.cheap(g) == cheapUnsat || e.reachesInit(g) || e.refuted(g) {
			return false
		}
		best = g
		return true
	}
	procs := func(sub uint64) int {
		var s uint64
		for i := range n {
			if sub&(1<<uint(i)) != 0 {
				s |= litSlots[i]
			}
		}
		return bits.OnesCount64(s &^ pinnedSlots)
	}
	// Fewer literals first, then fewer processes. Cubicle's BRAB
	// (Conchon, Goel, Krstić, Mebsout and Zaïdi) sorts the other way
	// round, processes first, then literals, more disequalities and fewer
	// array cells; it also leaves out a literal with a bare process side
	// (UnetProc[#1] = #2) unless another literal of the candidate has
	// that process bare too. The two orders pick different guesses only
	// when the sample leaves unreached both a subset with fewer processes
	// and more literals and one with more processes and fewer literals:
	// the sample, not the order, decides. Measured with backtracking in
	// place (backtrack.go), on the six FLASH files of the corpus: Cubicle's
	// order gave the same guesses and nodes on five and two nodes fewer
	// on challenges_flash2_nodata (168 against 170, the same CPU time);
	// its pool of literals gave 1 to 22 more nodes on five and no verdict
	// on challenges_flash.ctc_home_nodata (guesses such as
	// InvMarked[#2] = True && ShWbMsg_Cmd = SHWB_FAck, true only with the
	// left-out ShWbMsg_Proc = #2, refuted one after the other).
	for size := 1; size <= maxGuessLits && size <= n && size < len(c.Lits); size++ {
		// subsets of the given size, fewer processes first
		subs := subsets(n, size)
		slices.SortStableFunc(subs, func(x, y uint64) int { return procs(x) - procs(y) })
		for _, sub := range subs {
			if e.stopped() {
				return nil
			}
			if try(sub) {
				return best
			}
		}
	}
	return nil
}

// arrayCells counts the array cells the literals mention.
func arrayCells(lits []Lit) int {
	k := 0
	for _, l := range lits {
		for _, t := range [2]Term{l.L, l.R} {
			if t.Kind == KVar && t.NArgs > 0 {
				k++
			}
		}
	}
	return k
}

// trackedLit reports whether both sides of l are constants, slots or
// cells of finite sorts (the literals an abstract sample answers).
func trackedLit(l Lit) bool {
	for _, t := range [2]Term{l.L, l.R} {
		switch t.Kind {
		case KBool, KEnum, KSlot:
		case KVar:
			if !tracked(t.Sort) || t.Off.Num != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// refuted reports whether g generalises a refuted guess.
func (e *engine) refuted(g *Cube) bool {
	a := e.approx
	for len(a.badIdx) < len(a.bad) {
		a.badIdx = append(a.badIdx, e.index(a.bad[len(a.badIdx)]))
	}
	// (the slots that are process constants do not count: a cube may
	// list #1 among its slots or not, and the matcher maps it to
	// itself either way; a refuted Arr0[#1] = B without slots did not
	// reject the same guess made with slot 1)
	for i, b := range a.bad {
		if freeSlots(g, e.sys.Pinned) <= freeSlots(b, e.sys.Pinned) && e.match(g, b, a.badIdx[i], false, func(*matcher) bool { return true }) {
			return true
		}
	}
	return false
}

// freeSlots counts the slots of c that are not process constants.
func freeSlots(c *Cube, pinned int32) int {
	k := 0
	for _, s := range c.Slots {
		if s > pinned {
			k++
		}
	}
	return k
}

// termSlots lists the slots a term of a cube mentions.
func termSlots(t Term) []int32 {
	switch t.Kind {
	case KSlot:
		return []int32{t.Sym}
	case KVar, KInit:
		return t.Args[:t.NArgs]
	case KVal:
		return append(slices.Clone(t.Args[:t.NArgs]), t.Proc)
	}
	return nil
}

// evalInt applies a comparison to two values of a finite instance.
func evalInt(op Op, a, b int64) bool {
	switch op {
	case Eq:
		return a == b
	case Ne:
		return a != b
	case Lt:
		return a < b
	case Le:
		return a <= b
	case Gt:
		return a > b
	}
	return a >= b
}

// subsets lists the subsets of {0..n-1} with size elements, as bit masks
// in lexicographic order of their elements.
func subsets(n, size int) []uint64 {
	var subs []uint64
	var rec func(start, left int, sub uint64)
	rec = func(start, left int, sub uint64) {
		if left == 0 {
			subs = append(subs, sub)
			return
		}
		for i := start; i <= n-left; i++ {
			rec(i+1, left-1, sub|1<<uint(i))
		}
	}
	rec(0, size, 0)
	return subs
}
