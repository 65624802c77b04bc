package param

import (
	"math"
	"slices"
)

// This file is the forward exploration behind the guesses of the
// approximation (approx.go), in two modes, and resumable so that the
// sample grows with the backward search (lazy sampling, see
// approximator.grow).
//
// Exact mode steps the one explorer of finite instances (explore.go,
// wexplore.go; a finite, SC mode) and tracks every value: its states are
// those of finite.sample, in the same order, explored a slice at a time.
// Abstract mode is the exploration of Cubicle's BRAB oracle for systems
// whose instances are not finite (integers, reals, abstract types):
// only the cells of finite sorts (booleans, enumerations, processes) are
// tracked, a cell of another sort, or one that init leaves free or a
// transition sets to any value, holds the value unknown, and a literal
// with an unknown side may hold or not. A guard is taken when it may
// hold; a case branch whose condition may hold is one successor, the
// next branches another. The abstract states
// over-approximate the reachable states on the tracked cells, so a guess
// that no abstract state satisfies is a reasonable candidate; like every
// guess it is proved or refuted by the backward search, and a state of
// the abstract exploration that meets an unsafe formula says nothing
// (it is never reported).

// unknown is the value of a cell the abstract exploration does not know.
const unknown = math.MinInt64

// tri is a three-valued truth value.
type tri uint8

const (
	triFalse tri = iota
	triMaybe
	triTrue
)

func triAnd(a, b tri) tri { return min(a, b) }
func triOr(a, b tri) tri  { return max(a, b) }

// sampler is a resumable breadth-first exploration of a finite instance
// for the samples of the approximation: in exact mode it steps the one
// explorer of finite instances (explore.go, wexplore.go: a finite in SC
// mode, whose initials and successors leave out the states an invariant
// formula excludes), in abstract mode it steps the abstract states
// itself (absInitial, absSuccessors).
type sampler struct {
	fin      *finite
	abstract bool
	// outsideUnknown: a process variable that init says differs from
	// every process stays unknown in an abstract sample instead of
	// holding the process outside the instance (the BRAB mode's
	// oracle, brab.go)
	outsideUnknown bool
	// store: the states, compactly (states.go; an abstract sample's
	// unknown cells are stored as -1, a value no tracked cell takes);
	// table: the set of the stored states (an open-addressing hash
	// table of their 64-bit hashes, see lookup); excl: the hashes
	// of the abstract states an invariant formula excludes
	store *stateStore
	table []uint64
	excl  map[stateID]bool
	// rowBuf: the state being expanded
	rowBuf []int64
	// res: the parents of the states and whether the exploration is
	// complete; stepIdx[i]: the step that made state i, an index of
	// steps (a sample has hundreds of thousands of states and a few
	// hundred transition instances: a forwardStep each was 48 bytes
	// for the collector to clear and scan); stepOf indexes steps
	res     samplerRes
	stepIdx []int32
	steps   []forwardStep
	stepOf  map[stepKey]int32
	// stepOfSmall: stepOf for the steps a smallStepKey identifies
	stepOfSmall map[smallStepKey]int32
	next        int // the next state to expand
	started     bool
	// unsafe: (exact mode) an explored state meets the unsafe formula
	// errRoot on the processes errProcs; errPath leads to it
	unsafe   bool
	errPath  []forwardStep
	errRoot  *Root
	errProcs []int32
	// sym (deep phase, deep.go): keep one state per orbit; perm[i] is
	// the permutation that made state i from its parent's successor
	sym    *symmetry
	symBuf []int64
	// symBest: canon's result
	symBest []int64
	perm    []uint8
	// batch: the successors of the states grow expands next (expand)
	batch succBatch
	// touched: touch's sum (unused); helper: the goroutine that makes
	// successors beside grow (parsample.go), while grow runs, if
	// parallel
	touched  uint64
	helper   *sampleHelper
	parallel bool
	// abs: (abstract mode) the compiled transitions (compiled.go),
	// made on first use (absTried); scr, absVals, absAs, absIdx: their
	// buffers
	abs      *compiledAbs
	absTried bool
	scr      []int64
	absVals  []int64
	absAs    []absAssignIdx
	absIdx   []int
}

func newSampler(fin *finite, abstract bool) *sampler {
	st := newStateStore(fin.cells)
	st.unknownAs = abstract
	return &sampler{fin: fin, abstract: abstract, store: st}
}

// samplerRes is what a sampler records of its states besides
// themselves.
type samplerRes struct {
	parent   []int32
	complete bool
}

// stepKey identifies a step by its value.
type stepKey struct {
	t     *Trans
	args  [maxArity + 4]int32
	nargs int
	flush int32
	cell  int
}

// smallStepKey identifies a step without a flush nor a cell (a
// sequentially consistent step: every step of an SC sample) whose
// arguments are processes below 64, packed in 6-bit fields after their
// number: the look-up is made for every state a sample adds, and
// stepKey's 56 bytes cost more to hash than this key's 16.
type smallStepKey struct {
	t    *Trans
	args uint64
}

func newSmallStepKey(st forwardStep) (smallStepKey, bool) {
	if st.flush != 0 || st.cell != 0 || len(st.args) > 9 {
		return smallStepKey{}, false
	}
	k := uint64(len(st.args))
	for _, a := range st.args {
		if a < 0 || a >= 64 {
			return smallStepKey{}, false
		}
		k = k<<6 | uint64(a)
	}
	return smallStepKey{t: st.t, args: k}, true
}

// stepIndex returns the index of step in x.steps, adding it if new.
// A step has one key, small or not, so it has one index.
func (x *sampler) stepIndex(st forwardStep) int32 {
	if sk, ok := newSmallStepKey(st); ok {
		if i, ok := x.stepOfSmall[sk]; ok {
			return i
		}
		if x.stepOfSmall == nil {
			x.stepOfSmall = map[smallStepKey]int32{}
		}
		x.steps = append(x.steps, forwardStep{t: st.t, args: slices.Clone(st.args)})
		i := int32(len(x.steps) - 1)
		x.stepOfSmall[sk] = i
		return i
	}
	k := stepKey{t: st.t, nargs: len(st.args), flush: st.flush, cell: st.cell}
	if len(st.args) > len(k.args) {
		// (never: a transition has at most a few parameters)
		x.steps = append(x.steps, st)
		return int32(len(x.steps) - 1)
	}
	copy(k.args[:], st.args)
	if i, ok := x.stepOf[k]; ok {
		return i
	}
	if x.stepOf == nil {
		x.stepOf = map[stepKey]int32{}
	}
	x.steps = append(x.steps, forwardStep{t: st.t, args: slices.Clone(st.args), flush: st.flush, cell: st.cell})
	i := int32(len(x.steps) - 1)
	x.stepOf[k] = i
	return i
}

// step returns the step that made state i (the zero step for an
// initial state).
func (x *sampler) step(i int) forwardStep { return x.steps[x.stepIdx[i]] }

// path lists the steps from an initial state to state i.
func (x *sampler) path(i int) []forwardStep {
	var out []forwardStep
	for ; x.res.parent[i] >= 0; i = int(x.res.parent[i]) {
		out = append(out, x.step(i))
	}
	slices.Reverse(out)
	return out
}

// count is the number of states sampled.
func (x *sampler) count() int { return x.store.len() }

// state returns state i, in buf (grown as needed).
func (x *sampler) state(i int, buf []int64) []int64 { return x.store.row(i, buf) }

// hashState hashes the cells of a state for the table. Four lanes take
// the cells in turn, so that the multiplications of one cell do not wait
// for those of the previous one (one lane was a tenth of a FLASH sample's
// growth); mix64 then mixes the lanes.
func hashState(st []int64) uint64 {
	const p = 0x100000001b3
	h0 := uint64(len(st)) * 0x9e3779b97f4a7c15
	h1, h2, h3 := uint64(0x632be59bd9b4e019), uint64(0x85ebca6b0c2e1f27), uint64(0xc2b2ae3d27d4eb4f)
	i := 0
	for ; i+4 <= len(st); i += 4 {
		h0 = (h0 ^ uint64(st[i])) * p
		h1 = (h1 ^ uint64(st[i+1])) * p
		h2 = (h2 ^ uint64(st[i+2])) * p
		h3 = (h3 ^ uint64(st[i+3])) * p
		h0 ^= h0 >> 29
		h1 ^= h1 >> 29
		h2 ^= h2 >> 29
		h3 ^= h3 >> 29
	}
	for ; i < len(st); i++ {
		h0 = (h0 ^ uint64(st[i])) * p
		h0 ^= h0 >> 29
	}
	return mix64(h0 ^ mix64(h1^mix64(h2^mix64(h3))))
}

// lookup returns the slot of the table where a state of hash h is, or
// the empty slot where it goes (found false). A state is known by its
// 64-bit hash, not compared cell by cell: reading the stored row was a
// second cache miss for most successors (most are states already seen),
// a quarter of the sample's time on FLASH. Two states of a sample of n
// states share a hash with probability about n*n/2^65 (3e-9 for the
// deep sample's 250 000), and then the second is left out of the
// sample; the sample only chooses guesses (a verdict never rests on
// it: a guess is proved or refuted by the backward search, an unsafe
// state is replayed backward, replay.go), so a state missing costs at
// most a guess that it would have refuted.
func (x *sampler) lookup(h uint64) (slot int, found bool) {
	mask := len(x.table) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := x.table[i]
		if e == 0 {
			return i, false
		}
		if e == h {
			return i, true
		}
	}
}

// tableHash is the hash of st as the table keeps it (never 0, the empty
// slot).
func tableHash(st []int64) uint64 {
	if h := hashState(st); h != 0 {
		return h
	}
	return 1
}

// insert records a state of hash h in the empty slot.
func (x *sampler) insert(slot int, h uint64) {
	x.table[slot] = h
}

// growTable makes room for want states in all.
func (x *sampler) growTable(want int) {
	size := 1024
	for size < 2*want {
		size *= 2
	}
	if size <= len(x.table) {
		return
	}
	old := x.table
	x.table = make([]uint64, size)
	mask := size - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		j := int(e) & mask
		for x.table[j] != 0 {
			j = (j + 1) & mask
		}
		x.table[j] = e
	}
}

// add records a new state; it reports false when st was seen, is
// excluded by an invariant formula, or meets an unsafe formula (exact
// mode; the exploration then stops).
func (x *sampler) add(st []int64, parent int, step forwardStep) bool {
	pk := 0
	if x.sym != nil {
		st, pk = x.sym.canon(st, x.symBuf, x.symBest)
	}
	return x.addCanon(st, pk, tableHash(st), parent, step)
}

// addCanon is add for a state already canonical under the symmetry (pk:
// the permutation that made it), of table hash h.
func (x *sampler) addCanon(st []int64, pk int, h uint64, parent int, step forwardStep) bool {
	if 2*(x.store.len()+1) > len(x.table) {
		x.growTable(x.store.len() + 1)
	}
	slot, found := x.lookup(h)
	if found {
		return false
	}
	// (the exact states come from the explorer, which already leaves
	// out the excluded ones)
	if x.abstract && x.fin.sys.Invariants != nil {
		k := stateKey(st)
		if x.excl[k] {
			return false
		}
		if x.absExcluded(st) {
			if x.excl == nil {
				x.excl = map[stateID]bool{}
			}
			x.excl[k] = true
			return false
		}
	}
	x.insert(slot, h)
	x.store.add(st)
	x.res.parent = append(x.res.parent, int32(parent))
	x.stepIdx = append(x.stepIdx, x.stepIndex(step))
	if x.sym != nil {
		x.perm = append(x.perm, uint8(pk))
	}
	if !x.abstract {
		i := x.store.len() - 1
		for _, u := range x.fin.sys.Unsafe {
			if ps := x.fin.rootProcs(st, u); ps != nil {
				x.unsafe, x.errRoot, x.errProcs = true, u, ps
				if x.sym == nil {
					x.errPath = x.path(i)
					return true
				}
				var sigma int
				x.errPath, sigma = x.symPath(i)
				x.errProcs = make([]int32, len(ps))
				for k, p := range ps {
					x.errProcs[k] = p
					if p >= 1 && p <= x.sym.n {
						x.errProcs[k] = x.sym.perms[sigma][p]
					}
				}
				return true
			}
		}
	}
	return true
}

// reserve makes room for the states up to limit at once (at most
// maxReserve): a sample that grows by hundreds of thousands of states
// otherwise copies its slices and its table again and again as they
// grow. Each slice is checked on its own, and doubles at least
// (growRoom): the lazy sample grows by samplePerNode states a node,
// and its store, whose room was made only when the parents lacked some
// (they had it, from an earlier doubling), grew by append's quarters
// instead, a copy of the whole store every few nodes (a third of
// challenges_flash2_exclusive's sampling).
func (x *sampler) reserve(limit int) {
	want := min(limit, maxReserve) - x.count()
	if want <= 0 {
		return
	}
	x.res.parent = growRoom(x.res.parent, want)
	x.stepIdx = growRoom(x.stepIdx, want)
	if x.sym != nil {
		x.perm = growRoom(x.perm, want)
	}
	x.store.reserve(want)
	x.growTable(x.count() + want)
}

// growRoom returns s with room for n more elements: s itself if it has
// it, else a copy with at least twice its capacity.
func growRoom[E any](s []E, n int) []E {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, max(n, 2*cap(s)-len(s)))
}

const maxReserve = 1 << 20

// initialStates are the states a sample starts from: the abstract
// initial states, or the instance's with the numbers init leaves free 0.
func (x *sampler) initialStates() [][]int64 {
	if x.abstract {
		return x.absInitial()
	}
	return x.fin.initials(func(int) int64 { return 0 })
}

// grow explores until the sample has limit states, the exploration is
// complete, or stop says so; it reports whether states were added.
func (x *sampler) grow(stop func() bool, limit int) bool {
	before := x.count()
	x.reserve(limit)
	if !x.started {
		x.started = true
		for _, s := range x.initialStates() {
			if x.count() >= limit || x.unsafe {
				return x.count() > before
			}
			x.add(s, -1, forwardStep{})
		}
	}
	if h := x.newHelper(limit); h != nil {
		defer func() { h.stop(); x.helper = nil }()
		return x.growWithHelper(stop, limit, before)
	}
	for x.next < x.count() {
		if x.unsafe || x.count() >= limit {
			return x.count() > before
		}
		lo := x.next
		hi := min(lo+batchStates, x.count())
		if stop != nil && (lo%256 == 0 || lo/256 != (hi-1)/256) && stop() {
			return x.count() > before
		}
		x.expand(lo, hi, &x.batch)
		x.touch(&x.batch)
		if x.addBatch(&x.batch, limit) {
			return x.count() > before
		}
		x.next = hi
	}
	x.res.complete = true
	return x.count() > before
}

// batchStates is the number of states grow expands at once (expand)
// before it adds their successors.
const batchStates = 32

// succBatch holds the successors of a run of states, canonical under
// the sampler's symmetry and hashed: successor j is
// cells[j*size:(j+1)*size], of table hash hash[j], made by step[j]
// from state from[j], its permutation perm[j].
type succBatch struct {
	cells []int64
	hash  []uint64
	perm  []uint8
	step  []forwardStep
	from  []int32
	next  []successor
}

// expand fills b with the successors of the states lo..hi-1, in
// the order in which add would take them one state after the other.
// Making them is independent of the table (the successors of a state
// are a function of the state), so the sample is the one of adding
// each successor as it is made: grow then adds the batch in order.
// What the batch buys is the table's look-ups: made one after another
// with the successors' work between them, each was a cache miss paid
// alone (the table of a deep sample is 4 MB); with the hashes of a
// whole batch known, touch starts their misses together.
func (x *sampler) expand(lo, hi int, b *succBatch) {
	b.cells, b.hash, b.perm, b.step, b.from = b.cells[:0], b.hash[:0], b.perm[:0], b.step[:0], b.from[:0]
	for i := lo; i < hi; i++ {
		cur := x.state(i, x.rowBuf)
		x.rowBuf = cur
		if x.abstract {
			if !x.absTried {
				x.absTried, x.abs = true, compileAbs(x)
			}
			if x.abs != nil {
				x.scr = x.scr[:0]
				b.next = x.compiledAbsSuccessors(x.abs, cur, b.next[:0])
			} else {
				b.next = x.absSuccessors(cur, b.next[:0])
			}
		} else {
			x.fin.scratch = true
			b.next = x.fin.successors(cur, b.next[:0])
			x.fin.scratch = false
		}
		for _, s := range b.next {
			st, pk := s.st, 0
			if x.sym != nil {
				st, pk = x.sym.canon(st, x.symBuf, x.symBest)
			}
			b.cells = append(b.cells, st...)
			b.hash = append(b.hash, tableHash(st))
			b.perm = append(b.perm, uint8(pk))
			b.step = append(b.step, s.step)
			b.from = append(b.from, int32(i))
		}
	}
}

// touch reads the table's home slot of every successor of the
// batches, so that the cache misses of their look-ups overlap (the
// loads are independent); the sum only keeps the loads.
func (x *sampler) touch(batches ...*succBatch) {
	mask := uint64(len(x.table) - 1)
	var sum uint64
	for _, b := range batches {
		for _, h := range b.hash {
			sum += x.table[h&mask]
		}
	}
	x.touched += sum
}

// addBatch adds the successors of b in order, as grow adds those of
// one state after another, and reports whether grow stops: the sample
// has limit states or met an unsafe state. x.next is then the state to
// expand when the sample grows again (one whose successors are not all
// added is expanded again: those added are found seen).
func (x *sampler) addBatch(b *succBatch, limit int) bool {
	for j, h := range b.hash {
		from := int(b.from[j])
		if x.count() >= limit {
			x.next = from
			return true
		}
		st := b.cells[j*x.fin.cells : (j+1)*x.fin.cells]
		x.addCanon(st, int(b.perm[j]), h, from, b.step[j])
		if x.unsafe {
			x.next = from
			return true
		}
		if x.count() >= limit && (j+1 == len(b.hash) || int(b.from[j+1]) != from) {
			// (the last successor of its state)
			x.next = from + 1
			return true
		}
	}
	return false
}

// tracked reports whether the abstract exploration tracks the cells of
// a sort.
func tracked(s Sort) bool {
	return s.Kind == SBool || s.Kind == SEnum || s.Kind == SProc
}

// absValue evaluates a term of a template or cube in an abstract state.
func (x *sampler) absValue(st []int64, t Term, e *fenv) (v int64, ok bool) {
	switch t.Kind {
	case KBool, KEnum:
		return int64(t.Sym), true
	case KSlot:
		p := e.proc(t.Sym)
		return int64(p), p >= 1 && p <= x.fin.n
	case KVar:
		if !tracked(t.Sort) || t.Off.Num != 0 {
			return unknown, true
		}
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		c := x.fin.cell(t.Sym, t.NArgs, args)
		if c < 0 {
			return 0, false
		}
		return st[c], true
	}
	return unknown, true
}

func (x *sampler) absLit(st []int64, l Lit, e *fenv) tri {
	a, ok1 := x.absValue(st, l.L, e)
	b, ok2 := x.absValue(st, l.R, e)
	if !ok1 || !ok2 {
		return triFalse
	}
	if a == unknown || b == unknown {
		return triMaybe
	}
	if evalInt(l.Op, a, b) {
		return triTrue
	}
	return triFalse
}

func (x *sampler) absConj(st []int64, c Conj, e *fenv) tri {
	r := triTrue
	for _, l := range c.Lits {
		if r = triAnd(r, x.absLit(st, l, e)); r == triFalse {
			return r
		}
	}
	for _, d := range c.Foralls {
		for q := int32(1); q <= x.fin.n; q++ {
			if slices.Contains(e.params, q) {
				continue
			}
			e.q = q
			if r = triAnd(r, x.absDNF(st, d, e)); r == triFalse {
				return r
			}
		}
	}
	for _, d := range c.Exists {
		found := triFalse
		for q := int32(1); q <= x.fin.n && found != triTrue; q++ {
			if slices.Contains(e.params, q) {
				continue
			}
			e.q = q
			found = triOr(found, x.absDNF(st, d, e))
		}
		if r = triAnd(r, found); r == triFalse {
			return r
		}
	}
	return r
}

func (x *sampler) absDNF(st []int64, d []Conj, e *fenv) tri {
	r := triFalse
	for _, c := range d {
		if r = triOr(r, x.absConj(st, c, e)); r == triTrue {
			return r
		}
	}
	return r
}

// absInitial lists the abstract initial states: per disjunct of init,
// the tracked cells that an equality with a constant fixes, a process
// variable that init says differs from a process set to the process
// outside the instance (FLASH's Home), every other cell unknown.
func (x *sampler) absInitial() [][]int64 {
	f := x.fin
	var out [][]int64
	inits := f.sys.Init
	if len(inits) == 0 {
		inits = []Conj{{}}
	}
	for _, cj := range inits {
		st := make([]int64, f.cells)
		for i := range st {
			st[i] = unknown
		}
		ok := true
		cellOf := func(t Term, e *fenv) int {
			if t.Kind != KVar || !tracked(t.Sort) {
				return -1
			}
			var args [maxArity]int32
			for i := 0; i < int(t.NArgs); i++ {
				args[i] = e.proc(t.Args[i])
			}
			return f.cell(t.Sym, t.NArgs, args)
		}
		for _, tuple := range initTuples(procSlice(f.n), f.sys.InitArity) {
			e := &fenv{params: tuple}
			for _, l := range cj.Lits {
				c := cellOf(l.L, e)
				if c < 0 {
					continue
				}
				switch {
				case l.Op == Eq && l.R.Kind != KVar:
					v, vok := x.absValue(st, l.R, e)
					if !vok || v == unknown {
						continue
					}
					if st[c] != unknown && st[c] != v {
						ok = false
					}
					st[c] = v
				case l.Op == Ne && l.R.Kind == KSlot && l.L.Sort.Kind == SProc && st[c] == unknown && !x.outsideUnknown:
					st[c] = int64(f.n) + 1
				}
			}
		}
		if !ok {
			continue
		}
		if x.absIsInit(st) {
			out = append(out, st)
		}
	}
	return out
}

func (x *sampler) absIsInit(st []int64) bool {
	if x.fin.sys.Init == nil {
		return true
	}
	for _, tuple := range initTuples(procSlice(x.fin.n), x.fin.sys.InitArity) {
		if x.absDNF(st, x.fin.sys.Init, &fenv{params: tuple}) == triFalse {
			return false
		}
	}
	return true
}

// absExcluded reports whether an invariant formula surely holds in st.
func (x *sampler) absExcluded(st []int64) bool {
	for _, inv := range x.fin.sys.Invariants {
		if rootParams(x.fin.n, inv, func(params []int32) bool {
			return x.absDNF(st, inv.DNF, &fenv{params: params}) == triTrue
		}) != nil {
			return true
		}
	}
	return false
}

// absAssign is a tracked cell written by an abstract step with its
// possible values.
type absAssign struct {
	cell int
	vals []int64
}

// absSuccessors appends the abstract successors of st, but st itself
// (see sameCells).
func (x *sampler) absSuccessors(st []int64, out []successor) []successor {
	f := x.fin
	for _, t := range f.sys.Trans {
		params := make([]int32, len(t.Params))
		var rec func(k int)
		rec = func(k int) {
			if k == len(params) {
				out = x.absFire(st, t, params, out)
				return
			}
			for p := int32(1); p <= f.n; p++ {
				if !slices.Contains(params[:k], p) {
					params[k] = p
					rec(k + 1)
				}
			}
			params[k] = 0
		}
		rec(0)
	}
	return out
}

// absFire appends the abstract states reached by t with parameters
// params.
func (x *sampler) absFire(st []int64, t *Trans, params []int32, out []successor) []successor {
	f := x.fin
	e := &fenv{params: params}
	if x.absDNF(st, t.Guard, e) == triFalse {
		return out
	}
	var as []absAssign
	combos := 1
	for _, u := range t.Updates {
		g := f.sys.Globals[u.Global]
		if !tracked(g.Sort) {
			continue
		}
		for _, up := range univTuples(procSlice(f.n), u.NUniv) {
			copy(e.u[:], up)
			var args [maxArity]int32
			for i := 0; i < u.NArgs; i++ {
				args[i] = e.proc(u.Args[i])
			}
			c := f.cell(u.Global, int32(u.NArgs), args)
			if c < 0 {
				continue
			}
			var vals []int64
			addVal := func(v int64) {
				if !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			for _, cs := range u.Cases {
				cond := triTrue
				if cs.Cond != nil {
					cond = x.absDNF(st, cs.Cond, e)
				}
				if cond == triFalse {
					continue
				}
				switch {
				case cs.Skip:
					addVal(st[c])
				case cs.Nondet:
					addVal(unknown)
				default:
					v, ok := x.absValue(st, cs.Value, e)
					if !ok {
						v = unknown
					}
					addVal(v)
				}
				if cond == triTrue {
					break
				}
			}
			if len(vals) == 0 {
				continue // no branch applies: the cell keeps its value
			}
			if slices.Contains(vals, unknown) {
				vals = []int64{unknown}
			}
			if len(vals) > 1 {
				if combos*len(vals) > maxSuccessors {
					vals = []int64{unknown}
				} else {
					combos *= len(vals)
				}
			}
			as = append(as, absAssign{c, vals})
		}
	}
	step := forwardStep{t: t, args: slices.Clone(params)}
	idx := make([]int, len(as))
	for {
		if !sameCells(st, as, func(i int) int64 { return as[i].vals[idx[i]] }) {
			s := slices.Clone(st)
			for i, a := range as {
				s[a.cell] = a.vals[idx[i]]
			}
			out = append(out, successor{s, step})
		}
		i := 0
		for i < len(idx) {
			idx[i]++
			if idx[i] < len(as[i].vals) {
				break
			}
			idx[i] = 0
			i++
		}
		if i == len(idx) {
			break
		}
	}
	return out
}
