package param

import (
	"fmt"
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
// and the search starts again without it (nor any guess that generalises
// it). An unsafe verdict is reported only for a path without guesses, and
// a safe verdict means that the visited cubes, guesses included, form an
// inductive invariant that excludes the unsafe states: both are as sound
// as without approximations.

// maxGuessLits bounds the number of literals of a guess.
const maxGuessLits = 3

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
	fin    *finite
	states [][]int64
	bad    []*Cube // refuted guesses
	badIdx []*matchIndex
	// unsafe: the sample reaches an unsafe state (no guesses then), by
	// errPath, for the formula errRoot on the processes errProcs
	unsafe   bool
	errPath  []forwardStep
	errRoot  *Root
	errProcs []int32
	stop     func() bool // polled while the masks are computed
	// projections: the sample up to the globals of a cube (project)
	projections map[string][][]int64
	// weak: the sample of a system with weak memory (wguess.go); fin
	// and states are then unused
	weak *weakSampler
}

// newApproximator samples a finite instance of sys, or returns nil when
// sys is not explorable.
func newApproximator(sys *System, stop func() bool) *approximator {
	n := max(sys.Pinned, 2)
	if sys.NumberProcs > 0 {
		n = int32(sys.NumberProcs)
	}
	if !explorable(sys) || n > maxProcs {
		return nil
	}
	fin := newFinite(sys, n)
	if fin.cells > maxCells {
		return nil
	}
	smp := fin.sample(stop)
	if len(smp.states) == 0 {
		return nil
	}
	for i, st := range smp.states {
		for _, u := range sys.Unsafe {
			if ps := fin.rootProcs(st, u); ps != nil {
				// the instance is (likely) unsafe: every guess on the
				// way to the error would be refuted, one restart each;
				// Verify replays the path instead (replay.go)
				return &approximator{fin: fin, unsafe: true, errPath: smp.path(i), errRoot: u, errProcs: ps}
			}
		}
	}
	return &approximator{fin: fin, states: smp.states, stop: stop}
}

// slotMaps lists the partial injective maps of slots to the processes
// of the instance (0: unmapped); pinned slots map to themselves.
func (a *approximator) slotMaps(slots []int32, pinned int32) [][]int32 {
	var out [][]int32
	cur := make([]int32, len(slots))
	used := make([]bool, a.fin.n+1)
	var rec func(k int)
	rec = func(k int) {
		if k == len(slots) {
			out = append(out, slices.Clone(cur))
			return
		}
		if s := slots[k]; s <= pinned {
			if s <= a.fin.n && !used[s] {
				used[s] = true
				cur[k] = s
				rec(k + 1)
				used[s] = false
			}
			cur[k] = 0
			rec(k + 1)
			return
		}
		for p := int32(1); p <= a.fin.n; p++ {
			if !used[p] {
				used[p] = true
				cur[k] = p
				rec(k + 1)
				used[p] = false
			}
		}
		cur[k] = 0
		rec(k + 1)
	}
	rec(0)
	return out
}

// project returns the sampled states that differ on the globals that c
// mentions, one per class: the literals of c cannot tell the others
// apart. The classes are kept per set of globals (cubes share them).
func (a *approximator) project(c *Cube) [][]int64 {
	var globals []int32
	var mark func(t Term)
	mark = func(t Term) {
		switch t.Kind {
		case KLin:
			for _, x := range linAtoms(t) {
				mark(x)
			}
		case KVar:
			if !slices.Contains(globals, t.Sym) {
				globals = append(globals, t.Sym)
			}
		}
	}
	for _, l := range c.Lits {
		mark(l.L)
		mark(l.R)
	}
	slices.Sort(globals)
	key := fmt.Sprint(globals)
	if p, ok := a.projections[key]; ok {
		return p
	}
	var cells []int
	for _, g := range globals {
		k := 1
		for range a.fin.sys.Globals[g].Arity {
			k *= int(a.fin.n)
		}
		for i := a.fin.base[g]; i < a.fin.base[g]+k; i++ {
			cells = append(cells, i)
		}
	}
	// classes by a 64-bit hash of the cells: a collision only drops a
	// state from the sample, which the guesses tolerate
	seen := map[uint64]bool{}
	var out [][]int64
	for _, st := range a.states {
		h := uint64(14695981039346656037)
		for _, i := range cells {
			h = (h ^ uint64(st[i])) * 1099511628211
		}
		if !seen[h] {
			seen[h] = true
			out = append(out, st)
		}
	}
	if a.projections == nil {
		a.projections = map[string][][]int64{}
	}
	a.projections[key] = out
	return out
}

// reachedMasks computes, for every sampled state and every map of the
// slots of c, the set of literals of c that hold (a bit mask), and keeps
// the distinct maximal ones.
func (a *approximator) reachedMasks(c *Cube, pinned int32) []uint64 {
	maps := a.slotMaps(c.Slots, pinned)
	// the literals of c under each map, compiled to cells and constants
	type operand struct {
		cell int // -1: the constant val
		val  int64
	}
	type clit struct {
		op   Op
		l, r operand
		bit  uint64
	}
	compiled := make([][]clit, 0, len(maps))
	for _, m := range maps {
		e := &fenv{slot: func(s int32) int32 {
			i, ok := slices.BinarySearch(c.Slots, s)
			if !ok {
				return 0
			}
			return m[i]
		}}
		operandOf := func(t Term) (operand, bool) {
			if t.Kind == KVar {
				var args [maxArity]int32
				for i := 0; i < int(t.NArgs); i++ {
					args[i] = e.proc(t.Args[i])
				}
				cell := a.fin.cell(t.Sym, t.NArgs, args)
				return operand{cell: cell}, cell >= 0
			}
			v, ok := a.fin.value(nil, t, e)
			return operand{cell: -1, val: v}, ok
		}
		var cl []clit
		for i, l := range c.Lits {
			lo, ok1 := operandOf(l.L)
			ro, ok2 := operandOf(l.R)
			if ok1 && ok2 {
				cl = append(cl, clit{op: l.Op, l: lo, r: ro, bit: 1 << uint(i)})
			}
		}
		compiled = append(compiled, cl)
	}
	get := func(st []int64, o operand) int64 {
		if o.cell < 0 {
			return o.val
		}
		return st[o.cell]
	}
	seen := map[uint64]bool{}
	var masks []uint64
	for i, st := range a.project(c) {
		if i%1024 == 1023 && a.stop != nil && a.stop() {
			return nil // the caller sees the deadline
		}
		for _, cl := range compiled {
			var mask uint64
			for _, l := range cl {
				if evalInt(l.op, get(st, l.l), get(st, l.r)) {
					mask |= l.bit
				}
			}
			if !seen[mask] {
				seen[mask] = true
				masks = append(masks, mask)
			}
		}
	}
	// keep the maximal masks
	slices.SortFunc(masks, func(x, y uint64) int { return bits.OnesCount64(y) - bits.OnesCount64(x) })
	var out []uint64
	for _, m := range masks {
		covered := false
		for _, o := range out {
			if m&^o == 0 {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, m)
		}
	}
	return out
}

// guess returns a generalisation of c, or nil.
func (e *engine) guess(c *Cube) *Cube {
	a := e.approx
	if a != nil && a.weak != nil && len(c.Lits) >= 2 {
		return e.weakGuess(c)
	}
	if a == nil || len(c.Nodes) > 0 || len(c.Lits) < 2 || len(c.Lits) > 64 {
		return nil
	}
	masks := a.reachedMasks(c, e.sys.Pinned)
	if e.stop != nil && e.stop() {
		return nil
	}
	// the slots of each literal
	litSlots := make([]uint64, len(c.Lits))
	for i, l := range c.Lits {
		for _, t := range [2]Term{l.L, l.R} {
			for _, s := range termSlots(t) {
				if k, ok := slices.BinarySearch(c.Slots, s); ok && s > e.sys.Pinned {
					litSlots[i] |= 1 << uint(k)
				}
			}
		}
	}
	n := len(c.Lits)
	var best *Cube
	try := func(sub uint64) bool {
		for _, m := range masks {
			if sub&^m == 0 {
				return false
			}
		}
		var slots uint64
		for i := range n {
			if sub&(1<<uint(i)) != 0 {
				slots |= litSlots[i]
			}
		}
		if bits.OnesCount64(slots) > int(a.fin.n) {
			return false
		}
		g := &Cube{Parent: c.Parent, Trans: c.Trans, Args: c.Args, Root: c.Root, Depth: c.Depth, Origin: c}
		for i := range n {
			if sub&(1<<uint(i)) != 0 {
				g.Lits = append(g.Lits, c.Lits[i])
			}
		}
		g.Slots = slices.Clone(c.Slots)
		dropUnusedSlots(g, e.sys.Pinned)
		if e.cheap(g) == cheapUnsat || e.reachesInit(g) || e.refuted(g) {
			return false
		}
		best = g
		return true
	}
	for size := 1; size <= maxGuessLits && size < n; size++ {
		// subsets of the given size, fewer processes first
		subs := subsets(n, size)
		procs := func(sub uint64) int {
			var s uint64
			for i := range n {
				if sub&(1<<uint(i)) != 0 {
					s |= litSlots[i]
				}
			}
			return bits.OnesCount64(s)
		}
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

// refuted reports whether g generalises a refuted guess.
func (e *engine) refuted(g *Cube) bool {
	a := e.approx
	for len(a.badIdx) < len(a.bad) {
		a.badIdx = append(a.badIdx, e.index(a.bad[len(a.badIdx)]))
	}
	for i, b := range a.bad {
		if len(g.Slots) <= len(b.Slots) && e.match(g, b, a.badIdx[i], false, func(*matcher) bool { return true }) {
			return true
		}
	}
	return false
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
