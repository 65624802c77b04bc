package param

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// This file is the semantics of the explorer of finite instances (see
// explore.go), parameterised by the memory model of the weak variables:
//
//   - SC: every write goes to memory at once;
//   - TSO: each process has a FIFO store buffer; a write of a weak
//     variable goes to the buffer of the process that performs it, a
//     flush step moves the oldest writes of a buffer to memory: those of
//     one transition instance, together;
//   - PSO: as TSO, but a flush step may move the writes of any one
//     transition instance whose cells have no older write in the buffer
//     (per-location FIFO buffers: writes to different cells reach
//     memory in any order).
//
// The writes of one transition instance reach memory together, as in
// Cubicle-W, whose pre-image makes every event of a transition
// synchronous (ghb-equal, "sync": src/weakwrite.ml of its repository),
// and as in the search (model.go: one node holds them). A process never
// sees one of them in memory without the others: another process that
// reads two cells a transition writes reads both old values or both
// new ones.
//
// Under TSO and PSO a read sees the latest write of its own buffer to
// the cell or else memory, a fenced transition needs an empty buffer, and
// a transition that reads and writes weak variables is atomic: it needs
// an empty buffer and writes memory directly. Non-weak variables are
// sequentially consistent: written in memory at once.
//
// The weak guesses (wguess.go) sample the instances of weak systems:
// integer variables keep their values (they may grow), so the sample is
// bounded: it keeps the first wMaxSample states in breadth-first order,
// with buffers of at most wBufCap writes. The sample is an
// under-approximation of the reachable states; the weak guesses use it
// to discard generalisations that are certainly reachable, and the
// backward search proves or refutes the others. The cross-check
// (selfcheck.go) explores the instances with the model of the search.

// wMaxSample bounds the states of a weak sample, wBufCap the writes a
// store buffer holds in it, wMaxDepth its breadth-first depth.
const (
	wMaxSCSample = 200000
	wMaxSample   = 4000
	wBufCap      = 2
	wMaxDepth    = 40
)

// wWalks random walks of wWalkLen steps extend the breadth-first sample
// to the states far from the initial one (large integer values, long
// chains of waiting processes); the seed is fixed, so the sample, hence
// the search, is the same on every run.
const (
	wWalks   = 160
	wWalkLen = 100
)

// memModel is the memory model of an explored instance.
type memModel int8

const (
	modelSC memModel = iota
	modelTSO
	modelPSO
)

func (m memModel) String() string {
	return [...]string{"SC", "TSO", "PSO"}[m]
}

// modelOf is the model that the instances of sys are explored under
// when the search uses the model named name (Options.Model).
func modelOf(sys *System, name string) memModel {
	switch {
	case !sys.Weak:
		return modelSC
	case name == "pso":
		return modelPSO
	}
	return modelTSO
}

// wfinite is a finite instance, the one explorer. A state is the cells
// (weak cells hold the memory value) followed, when there are store
// buffers, for each process, by the length of its buffer and bufCap
// (cell, value) pairs.
//
// Then come, for each process and each weak cell, the range [lo, hi] of
// the values that the cell took since the latest read or fence of the
// process: a later read of the process may read any of them (under TSO
// a read can be performed as early as just after the previous read of
// its process), which the weak guesses take into account.
type wfinite struct {
	cellLayout
	// numChoices: the numbers a nondeterministic write may take
	// (nondetValues)
	numChoices []int64
	// model: how writes reach memory (the layout has store buffers when
	// bufCap > 0; the SC runs of a TSO sample set model to SC for a
	// while)
	model memModel
	weak  []int // the weak cells
	hist  int   // offset of the ranges
	size  int
	// overAtoms, when set, are weak reads (KVal atoms) whose values are
	// overVals
	overAtoms []Term
	overVals  []int64
	// bufCap is the number of writes a store buffer holds (wBufCap for
	// the samples; 0: no buffers)
	bufCap int
	// allNondet: a nondeterministic assignment takes every value of its
	// domain (a few numbers) while a step has at most maxSuccessors
	// successors; otherwise its first one
	allNondet bool
	// focus, when set (the replay of a trace, selfcheck.go), marks the
	// processes the trace names (focus[p]): the choices of a step's
	// nondeterministic writes go first to the cells of variables and of
	// those processes, and a write whose choices do not fit in
	// maxSuccessors keeps the cell's value (one of "any value") instead
	// of taking the first value of its domain
	focus []bool
	// initCombos bounds the combinations of the values of the cells that
	// init leaves free (finite sorts)
	initCombos int
	// fixedFirst: the free cells that no step changes (constants,
	// variables no transition assigns), then those of small domains,
	// take their values before the others (initials); otherwise in
	// declaration order. The cross-check's explorers set it.
	fixedFirst bool
	// capStates > 0 bounds the states of sample (tests)
	capStates int
	// lenient: a write whose value cannot be evaluated (it names a
	// process outside the instance) is skipped; otherwise the step is
	// not taken
	lenient bool
	// univ[k] caches the tuples of k universal indices over the
	// processes (fire), env is fire's environment: the explorer spends
	// most of its time in fire, and allocating them there cost more
	// than the rest
	univ [maxArity + 1][][]int32
	env  fenv
	// plans: the guards of the transitions for successors
	plans []guardPlan
	// gen, ws, argBlock: successors' and fire's buffers
	gen      succGen
	ws       []write
	argBlock []int32
	// scratch: successors returns states carved from scr, valid until
	// its next call (the caller copies those it keeps); otherwise each
	// state is allocated
	scratch bool
	scr     []int64
	// rootPlans, rootBuf, rootEnv: rootTuple's plans of the formulas,
	// parameters and environment
	rootPlans map[*Root]*guardPlan
	rootBuf   []int32
	rootEnv   fenv
	// rootComp: the compiled formulas (compiled.go; nil entry: not
	// compiled)
	rootComp map[*Root]*compiledRoot
	// comp: the compiled transitions (compiled.go), made on first use
	// (compTried); noCompile keeps the interpreter (tests)
	comp      *compiledSC
	compTried bool
	noCompile bool
	// inexact is set when the explorer leaves out a state of the
	// instance: a step beyond the bound of the buffers, a value past
	// int64 or out of the instance, a nondeterministic write that does
	// not take every value, an initial cell not given every value
	// (decide.go's forward decision needs none; the other users keep
	// what they had, an under-approximation)
	inexact bool
}

// univOf returns the tuples of k universal indices over the processes.
func (f *wfinite) univOf(k int) [][]int32 {
	if f.univ[k] == nil {
		f.univ[k] = univTuples(procSlice(f.n), k)
	}
	return f.univ[k]
}

// weakExplorable reports whether sys has a weak finite instance that
// wfinite handles: weak memory, integer (not real) numbers.
func weakExplorable(sys *System) bool {
	if !sys.Weak {
		return false
	}
	for _, g := range sys.Globals {
		if g.Sort.Kind == SReal {
			return false
		}
	}
	return true
}

func newWFinite(sys *System, n int32) *wfinite { return newExplorer(sys, n, modelTSO, wBufCap) }

// newWFiniteCap is newWFinite with store buffers of bufCap writes.
func newWFiniteCap(sys *System, n int32, bufCap int) *wfinite {
	return newExplorer(sys, n, modelTSO, bufCap)
}

// newExplorer makes the explorer of the instance of sys with n processes
// under model, with store buffers of bufCap writes (none under SC or
// without weak variables).
func newExplorer(sys *System, n int32, model memModel, bufCap int) *wfinite {
	f := &wfinite{cellLayout: newCellLayout(sys, n), model: model, bufCap: bufCap, initCombos: 64}
	for gi, g := range sys.Globals {
		if !g.Weak {
			continue
		}
		k := 1
		for range g.Arity {
			k *= int(n)
		}
		for c := f.base[gi]; c < f.base[gi]+k; c++ {
			f.weak = append(f.weak, c)
		}
	}
	if model == modelSC || len(f.weak) == 0 {
		f.bufCap = 0
	}
	f.hist = f.cells
	if f.bufCap > 0 {
		f.hist += int(n) * (1 + 2*f.bufCap)
	}
	f.size = f.hist + int(n)*len(f.weak)*2
	return f
}

// rangeOf is the offset of the range of weak cell number w (an index of
// f.weak) for process p.
func (f *wfinite) rangeOf(p int32, w int) int { return f.hist + (int(p-1)*len(f.weak)+w)*2 }

// resetRanges starts the ranges of p afresh: p has just read or fenced.
func (f *wfinite) resetRanges(st []int64, p int32) {
	for w, c := range f.weak {
		v := f.view(st, p, c)
		r := f.rangeOf(p, w)
		st[r], st[r+1] = v, v
	}
}

// widen adds value v of weak cell c to the ranges of the processes that
// can see it (every process when from is 0, else from only).
func (f *wfinite) widen(st []int64, c int, v int64, from int32) {
	w := slices.Index(f.weak, c)
	if w < 0 {
		return
	}
	for p := int32(1); p <= f.n; p++ {
		if from != 0 && p != from {
			continue
		}
		r := f.rangeOf(p, w)
		st[r], st[r+1] = min(st[r], v), max(st[r+1], v)
	}
}

// readValues lists the values a future read of weak cell c by process p
// may return in st: those of its range (its ends when it is long), and
// the writes to c waiting in the buffers of the other processes (when
// rmw, the read is atomic with a write: memory instead of the range).
func (f *wfinite) readValues(st []int64, p int32, c int, rmw bool) (vals []int64, ok bool) {
	if rmw {
		vals = append(vals, st[c])
	} else {
		w := slices.Index(f.weak, c)
		if w < 0 || p < 1 || p > f.n {
			return nil, false
		}
		r := f.rangeOf(p, w)
		lo, hi := st[r], st[r+1]
		for v := lo; v <= hi; v++ {
			if v-lo >= wMaxRange/2 && hi-v >= wMaxRange/2 {
				v = hi - wMaxRange/2 // the ends of a long range only
			}
			vals = append(vals, v)
		}
	}
	for q := int32(1); q <= f.n; q++ {
		if q == p {
			continue
		}
		b := f.buf(q)
		for k := 0; k < int(f.bufLen(st, q)); k++ {
			if bufCell(st[b+1+2*k]) == c && !slices.Contains(vals, st[b+2+2*k]) {
				vals = append(vals, st[b+2+2*k])
			}
		}
	}
	return vals, true
}

// wMaxRange bounds the values of a range that readValues lists.
const wMaxRange = 16

// buf is the offset of the buffer of process p: its length, then each
// write as a (cell, value) pair, oldest first. The cell of a write that
// its transition makes after another buffered one carries bufJoined:
// the two reach memory together (flushes).
func (f *wfinite) buf(p int32) int { return f.cells + int(p-1)*(1+2*f.bufCap) }

// bufJoined marks a buffered write that goes to memory with the one
// before it (cells are far fewer).
const bufJoined int64 = 1 << 40

// bufCell is the cell of a buffered write.
func bufCell(x int64) int { return int(x &^ bufJoined) }

// bufLen is the number of writes in the buffer of process p.
func (f *wfinite) bufLen(st []int64, p int32) int64 {
	if f.bufCap == 0 {
		return 0
	}
	return st[f.buf(p)]
}

// view is the value of cell c that process p reads in st: its latest
// buffered write to c, else memory.
func (f *wfinite) view(st []int64, p int32, c int) int64 {
	if p >= 1 && p <= f.n && f.bufCap > 0 {
		b := f.buf(p)
		for k := int(st[b]) - 1; k >= 0; k-- {
			if bufCell(st[b+1+2*k]) == c {
				return st[b+2+2*k]
			}
		}
	}
	return st[c]
}

// value evaluates a term: weak reads (KVal) read the view of their
// process, initial values (KInit) memory.
func (f *wfinite) value(st []int64, t Term, e *fenv) (int64, bool) {
	off := int64(0)
	if t.Kind != KNum && t.Off.Den == 1 {
		off = t.Off.Num
	}
	switch t.Kind {
	case KBool, KEnum:
		return int64(t.Sym), true
	case KNum:
		return t.Off.Num, t.Off.Den == 1
	case KSlot:
		p := e.proc(t.Sym)
		return int64(p), p >= 1 && p <= f.n
	case KVar, KVal, KInit:
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		c := f.cell(t.Sym, t.NArgs, args)
		if c < 0 {
			return 0, false
		}
		if t.Kind == KVal {
			if f.overAtoms != nil {
				b := t.base()
				for i, a := range f.overAtoms {
					if a == b {
						return f.overVals[i] + off, true
					}
				}
				return 0, false
			}
			return f.view(st, e.proc(t.Proc), c) + off, true
		}
		return st[c] + off, true
	case KLin:
		sum := off
		for _, p := range linSum(t) {
			v, ok := f.value(st, p.Atom, e)
			if !ok || p.Coef.Den != 1 {
				return 0, false
			}
			// a value past int64 has no value here (the state is not
			// made, the guard does not hold): wrapped around, it made
			// a false bad state (Cubicle's arith/15.cub, whose numbers
			// grow fivefold a step, "reached" A <= 0 after 18 steps)
			if sum, ok = addMulInt(sum, p.Coef.Num, v); !ok {
				return 0, false
			}
		}
		return sum, true
	}
	return 0, false
}

// addMulInt is s + k·v, ok false when it leaves the int64 range.
func addMulInt(s, k, v int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(abs(k)), uint64(abs(v)))
	if hi != 0 || lo > math.MaxInt64 || k == math.MinInt64 || v == math.MinInt64 {
		return 0, false
	}
	m := int64(lo)
	if (k < 0) != (v < 0) {
		m = -m
	}
	r := s + m
	if (m > 0 && r < s) || (m < 0 && r > s) {
		return 0, false
	}
	return r, true
}

func (f *wfinite) lit(st []int64, l Lit, e *fenv) (holds, ok bool) {
	a, ok1 := f.value(st, l.L, e)
	b, ok2 := f.value(st, l.R, e)
	if !ok1 || !ok2 {
		f.inexact = true
		return false, false
	}
	return evalInt(l.Op, a, b), true
}

func (f *wfinite) conj(st []int64, c Conj, e *fenv, actor int32) bool {
	if c.Fence && actor > 0 && f.bufLen(st, actor) != 0 {
		return false
	}
	for _, l := range c.Lits {
		if h, ok := f.lit(st, l, e); !h || !ok {
			return false
		}
	}
	for _, d := range c.Foralls {
		for q := int32(1); q <= f.n; q++ {
			if slices.Contains(e.params, q) {
				continue
			}
			e.q = q
			if !f.dnf(st, d, e, actor) {
				return false
			}
		}
	}
	for _, d := range c.Exists {
		found := false
		for q := int32(1); q <= f.n && !found; q++ {
			if slices.Contains(e.params, q) {
				continue
			}
			e.q = q
			found = f.dnf(st, d, e, actor)
		}
		if !found {
			return false
		}
	}
	return true
}

func (f *wfinite) dnf(st []int64, d []Conj, e *fenv, actor int32) bool {
	for _, c := range d {
		if f.conj(st, c, e, actor) {
			return true
		}
	}
	return false
}

// initials lists initial states: for each disjunct of init, the cells
// it fixes take their values, free numbers take free(cell), and the other
// free cells every value of their domain while there are few
// combinations (their first value otherwise). With fixedFirst, the
// cells of constants and of variables no transition assigns are given
// their values first, and the cells of small domains before the others:
// no step changes them, so a value they are not given is never
// explored (a cell that a transition writes reaches other values by
// steps). An invariant formula over a constant array, which leaves out
// every state where one cell has its first value, would otherwise
// leave no initial state at all once a larger array took the
// combinations.
func (f *wfinite) initials(free func(c int) int64) [][]int64 {
	st := make([]int64, f.size)
	numeric := make([]bool, f.cells)
	isProc := make([]bool, f.cells)
	var doms [][]int64 // of the cells of finite sorts
	var order []int
	rank := make([]int, f.cells)
	for gi, g := range f.sys.Globals {
		k := 1
		for range g.Arity {
			k *= int(f.n)
		}
		for c := f.base[gi]; c < f.base[gi]+k; c++ {
			order = append(order, c)
			switch {
			case g.Const:
			case !g.Assign:
				rank[c] = 1
			default:
				rank[c] = 2
			}
			var d []int64
			switch g.Sort.Kind {
			case SInt:
				numeric[c] = true
			case SBool, SEnum, SProc:
				d = f.domain(g.Sort)
				st[c] = d[0]
				isProc[c] = g.Sort.Kind == SProc
			}
			doms = append(doms, d)
		}
	}
	// constants, then variables no transition assigns, then the others;
	// in each group, small domains first
	slices.SortStableFunc(order, func(a, b int) int {
		if !f.fixedFirst {
			return 0
		}
		if rank[a] != rank[b] {
			return rank[a] - rank[b]
		}
		return len(doms[a]) - len(doms[b])
	})
	procs := procSlice(f.n)
	isInit := func(s []int64) bool {
		for _, tuple := range initTuples(procs, f.sys.InitArity) {
			if !f.dnf(s, f.sys.Init, &fenv{params: tuple}, 0) {
				return false
			}
		}
		return true
	}
	var out [][]int64
	seen := map[stateID]bool{}
	inits := f.sys.Init
	if len(inits) == 0 {
		inits = []Conj{{}}
	}
	for _, cj := range inits {
		s := slices.Clone(st)
		fixed := make([]bool, f.cells)
		ok := true        // no cell is fixed to two values
		var same [][2]int // numeric cells init makes equal (X = NullProc)
		for _, tuple := range initTuples(procs, f.sys.InitArity) {
			e := &fenv{params: tuple}
			for _, l := range cj.Lits {
				if l.Op != Eq || (l.L.Kind != KVar && l.L.Kind != KInit) || !l.L.Off.isZero() {
					continue
				}
				if (l.R.Kind == KVar || l.R.Kind == KInit) && l.R.Off.isZero() {
					if a, b := f.litCell(l.L, e), f.litCell(l.R, e); a >= 0 && b >= 0 && numeric[a] && numeric[b] {
						same = append(same, [2]int{a, b})
					}
				}
				v, ok := f.value(s, l.R, e)
				if !ok || l.R.isAtom() {
					continue
				}
				var args [maxArity]int32
				for i := 0; i < int(l.L.NArgs); i++ {
					args[i] = e.proc(l.L.Args[i])
				}
				if c := f.cell(l.L.Sym, l.L.NArgs, args); c >= 0 {
					ok = ok && (!fixed[c] || s[c] == v)
					s[c], fixed[c] = v, true
				}
			}
		}
		if !ok {
			continue
		}
		var open []int
		combos := 1
		openProcs := 0
		for _, c := range order {
			switch {
			case fixed[c]:
			case numeric[c]:
				s[c] = free(c)
				f.inexact = true // one value of many
			case len(doms[c]) > 1 && combos*len(doms[c]) <= f.initCombos:
				combos *= len(doms[c])
				open = append(open, c)
				if isProc[c] {
					openProcs++
				}
			case len(doms[c]) != 1:
				// not enumerated, or of no finite sort (an
				// abstract or real value): one value of many
				f.inexact = true
			}
		}
		if openProcs > 1 {
			// two free proc cells may both hold processes outside
			// the instance, different ones: the domain has one
			f.inexact = true
		}
		equalCells(s, fixed, same)
		idx := make([]int, len(open))
		for {
			x := slices.Clone(s)
			for i, c := range open {
				x[c] = doms[c][idx[i]]
			}
			if k := stateKey(x); !seen[k] && (len(f.sys.Init) == 0 || isInit(x)) && !f.excluded(x) {
				seen[k] = true
				for _, p := range procs {
					f.resetRanges(x, p)
				}
				out = append(out, x)
			}
			if !nextChoice(idx, func(i int) int { return len(doms[open[i]]) }) {
				break
			}
		}
	}
	return out
}

// successors appends the successors of st: every flush of a buffered
// write that may reach memory, then every enabled transition instance.
// The instances are enumerated parameter by parameter, and a literal of
// the guard is evaluated as soon as the parameters it names are chosen:
// a prefix that makes every disjunct of the guard false is not extended
// (fire would find each of its instances disabled). The successors and
// their order are those of trying every instance.
func (f *wfinite) successors(st []int64, out []successor) []successor {
	if f.scratch {
		f.scr = f.scr[:0]
	}
	out = f.flushes(st, out)
	if f.compileOK() || f.emptyBuffers(st) {
		if c := f.compiled(); c != nil {
			return f.compiledSuccessors(c, st, out)
		}
	}
	if f.plans == nil {
		f.plans = make([]guardPlan, len(f.sys.Trans))
		for i, t := range f.sys.Trans {
			f.plans[i] = planGuard(t)
		}
	}
	g := &f.gen
	g.st, g.out = st, out
	for ti, t := range f.sys.Trans {
		g.t, g.plan = t, &f.plans[ti]
		if cap(g.params) < len(t.Params) {
			g.params = make([]int32, len(t.Params), maxArity+len(t.Params))
		}
		g.params = g.params[:len(t.Params)]
		clear(g.params)
		g.e = fenv{params: g.params}
		if m := f.alive(0, g.plan.all); m != 0 {
			f.rec(0, m)
		}
	}
	out = g.out
	g.st, g.out, g.t, g.plan = nil, nil, nil, nil
	return out
}

// emptyBuffers reports whether the compiled transitions (compiled.go)
// give the successors of st on a weak system: no store buffer holds a
// write (so every process's view of a cell is memory, which is what a
// compiled weak read reads, and every fence and every atomic step is
// allowed, as the interpreter finds: conj, fire), there is no
// over-approximated read (overAtoms) and no focus (the compiled steps
// open the nondeterministic choices in order, as fire does without a
// focus). The writes then go through apply, as fire's do, so they are
// buffered or not as the model says. This covers every state of the
// sequentially consistent phase of a sample (the costly one: most of
// a TSO sample's time, see sample) and the states of the TSO phase
// whose buffers are empty; TestWeakCompiledSuccessors compares the two
// on random weak systems and the weak corpus files.
func (f *wfinite) emptyBuffers(st []int64) bool {
	if len(f.weak) == 0 || f.overAtoms != nil || f.focus != nil || f.noCompile {
		return false
	}
	for p := int32(1); p <= f.n; p++ {
		if f.bufLen(st, p) != 0 {
			return false
		}
	}
	return true
}

// succGen is the state of successors' enumeration of the instances of
// one transition (kept in the wfinite: successors is the explorer's
// inner loop, and closures or buffers allocated per call cost more than
// the states).
type succGen struct {
	st     []int64
	t      *Trans
	plan   *guardPlan
	params []int32
	e      fenv
	out    []successor
}

// alive returns the disjuncts of mask whose literals over the first k
// chosen parameters hold.
func (f *wfinite) alive(k int, mask uint64) uint64 {
	g := &f.gen
	return f.planAlive(g.st, g.plan, &g.e, k, mask)
}

// planAlive returns the disjuncts of mask whose literals of level k (see
// guardPlan) hold in st.
func (f *wfinite) planAlive(st []int64, plan *guardPlan, e *fenv, k int, mask uint64) uint64 {
	if plan.levels == nil {
		return mask
	}
	for d := range plan.levels {
		if mask&(1<<uint(d)) == 0 {
			continue
		}
		for _, l := range plan.levels[d][k] {
			if h, ok := f.lit(st, l, e); !h || !ok {
				mask &^= 1 << uint(d)
				break
			}
		}
	}
	return mask
}

// rec chooses the parameters from the k-th on.
func (f *wfinite) rec(k int, mask uint64) {
	g := &f.gen
	if k == len(g.params) {
		g.out = f.fire(g.st, g.t, g.params, g.out)
		return
	}
	for p := int32(1); p <= f.n; p++ {
		if !slices.Contains(g.params[:k], p) {
			g.params[k] = p
			if m := f.alive(k+1, mask); m != 0 {
				f.rec(k+1, m)
			}
		}
	}
}

// newState returns a copy of st: in scratch mode (see wfinite.scratch)
// carved from the scratch buffer, which the next call of successors
// reuses.
func (f *wfinite) newState(st []int64) []int64 {
	if !f.scratch {
		return slices.Clone(st)
	}
	n := len(st)
	if cap(f.scr)-len(f.scr) < n {
		// the states carved so far keep the old buffer
		f.scr = make([]int64, 0, max(2*cap(f.scr), 64*n))
	}
	k := len(f.scr)
	f.scr = f.scr[:k+n]
	s := f.scr[k : k+n : k+n]
	copy(s, st)
	return s
}

// stepArgs returns a copy of params for a step, carved from a block
// shared by many steps.
func (f *wfinite) stepArgs(params []int32) []int32 {
	n := len(params)
	if n == 0 {
		return nil
	}
	if cap(f.argBlock)-len(f.argBlock) < n {
		f.argBlock = make([]int32, 0, max(1024, n))
	}
	k := len(f.argBlock)
	f.argBlock = f.argBlock[:k+n]
	a := f.argBlock[k : k+n : k+n]
	copy(a, params)
	return a
}

// guardPlan is the guard of a transition sorted for successors:
// levels[d][k] are the literals of disjunct d whose parameters are all
// among the first k (nil levels: no early evaluation); all has a bit
// per disjunct.
type guardPlan struct {
	levels [][][]Lit
	all    uint64
}

func planGuard(t *Trans) guardPlan {
	if len(t.Guard) > 64 {
		return guardPlan{all: 1}
	}
	p := guardPlan{levels: make([][][]Lit, len(t.Guard))}
	for d, c := range t.Guard {
		p.all |= 1 << uint(d)
		p.levels[d] = make([][]Lit, len(t.Params)+1)
		for _, l := range c.Lits {
			level, ok := 0, true
			for _, x := range [2]Term{l.L, l.R} {
				renamedSlots(x, func(s int32) {
					switch {
					case s > 0: // a process constant
					case s < 0 && s > qvarSlot && int(-s) <= len(t.Params):
						level = max(level, int(-s))
					default:
						ok = false
					}
				})
				if x.Kind == KVal || x.Kind == KInit || x.Kind == KLin {
					ok = false // (left to fire)
				}
			}
			if ok {
				p.levels[d][level] = append(p.levels[d][level], l)
			}
		}
	}
	return p
}

// flushes appends the successors of st by one flush: under TSO the
// oldest writes of a non-empty buffer (those of one transition
// instance) go to memory, under PSO those of any one transition
// instance whose cells have no older write in the buffer.
func (f *wfinite) flushes(st []int64, out []successor) []successor {
	for p := int32(1); p <= f.n; p++ {
		b := f.buf(p)
		n := int(f.bufLen(st, p))
	next:
		for k := 0; k < n; {
			if f.model != modelPSO && k > 0 {
				break
			}
			m := 1 // the writes k .. k+m-1 go together
			for k+m < n && st[b+1+2*(k+m)]&bufJoined != 0 {
				m++
			}
			start := k
			k += m
			for i := start; i < start+m; i++ {
				c := bufCell(st[b+1+2*i])
				for j := range start {
					if bufCell(st[b+1+2*j]) == c {
						continue next // an older write to the cell goes first
					}
				}
			}
			s := f.newState(st)
			for i := start; i < start+m; i++ {
				c := bufCell(st[b+1+2*i])
				s[c] = st[b+2+2*i]
				f.widen(s, c, st[b+2+2*i], 0)
			}
			end := b + 1 + 2*f.bufCap
			copy(s[b+1+2*start:end], s[b+1+2*(start+m):end])
			for i := end - 2*m; i < end; i++ {
				s[i] = 0
			}
			s[b] -= int64(m)
			if !f.excluded(s) {
				out = append(out, successor{s, forwardStep{flush: p, cell: bufCell(st[b+1+2*start])}})
			}
		}
	}
	return out
}

// fire appends the states reached by t with parameters params: one
// state, or one for each choice of the nondeterministic values
// (allNondet).
func (f *wfinite) fire(st []int64, t *Trans, params []int32, out []successor) []successor {
	f.env = fenv{params: params}
	e := &f.env
	actor := int32(0)
	if t.Actor >= 0 {
		actor = params[t.Actor]
	}
	atomic := t.ReadsWeak && t.WritesWeak
	if actor > 0 && (t.Fence || atomic) && f.bufLen(st, actor) != 0 {
		return out
	}
	if !f.dnf(st, t.Guard, e, actor) {
		return out
	}
	ws := f.ws[:0]
	defer func() { f.ws = ws[:0] }()
	for _, u := range t.Updates {
		g := f.sys.Globals[u.Global]
		for _, up := range f.univOf(u.NUniv) {
			copy(e.u[:], up)
			var args [maxArity]int32
			for i := 0; i < u.NArgs; i++ {
				args[i] = e.proc(u.Args[i])
			}
			c := f.cell(u.Global, int32(u.NArgs), args)
			if c < 0 {
				continue
			}
			for _, cs := range u.Cases {
				if cs.Cond != nil && !f.dnf(st, cs.Cond, e, 0) {
					continue
				}
				if cs.Skip {
					break // not written
				}
				v := int64(0)
				if g.Sort.Kind == SProc {
					v = 1
				}
				var alts []int64
				if cs.Nondet && f.allNondet {
					alts = f.nondetValues(g.Sort)
					v = alts[0]
				}
				if cs.Nondet && (!f.allNondet || g.Sort.Kind != SBool && g.Sort.Kind != SEnum) {
					// a number takes a few values, a process one of
					// the instance or one outside it (not another)
					f.inexact = true
				}
				if !cs.Nondet {
					var ok bool
					if v, ok = f.value(st, cs.Value, e); !ok {
						f.inexact = true
						if f.lenient {
							break
						}
						return out
					}
				}
				ws = append(ws, write{c, v, g.Weak, alts, f.focused(args[:u.NArgs])})
				break
			}
		}
	}
	open := f.openChoices(st, ws)
	step := forwardStep{t: t, args: f.stepArgs(params)}
	idx := make([]int, len(open))
	for {
		for k, i := range open {
			ws[i].val = ws[i].alts[idx[k]]
		}
		if s := f.apply(st, t, actor, atomic, ws); s != nil {
			out = append(out, successor{s, step})
		}
		if !nextChoice(idx, func(k int) int { return len(ws[open[k]].alts) }) {
			return out
		}
	}
}

// write is a write of a transition instance: alts lists the values of a
// nondeterministic one (allNondet only).
type write struct {
	cell  int
	val   int64
	weak  bool
	alts  []int64
	focus bool // a cell of a variable or of focus processes (focus set)
}

// focused reports whether the cell of a variable indexed by args is one
// whose choices go first (wfinite.focus).
func (f *wfinite) focused(args []int32) bool {
	if f.focus == nil {
		return false
	}
	for _, p := range args {
		if p <= 0 || int(p) >= len(f.focus) || !f.focus[p] {
			return false
		}
	}
	return true
}

// openChoices returns the indices of the nondeterministic writes of ws
// (allNondet only) whose values fire enumerates: once a step would have
// more than maxSuccessors successors, the other writes take their first
// value. With a focus (the replay of a trace) the writes to focused
// cells are opened first, and the others keep the cell's value, so that
// a trace through an update without a default branch, which leaves the
// cells it does not name free, is followed whatever the number of
// processes (system 625 of TestBacktrackRandom: the cell of the
// trace's process #5 took its first value at every step on 8
// processes, and the trace did not replay).
func (f *wfinite) openChoices(st []int64, ws []write) []int {
	var open []int
	combos := 1
	if f.focus == nil {
		for i, w := range ws {
			if len(w.alts) > 1 {
				if combos*len(w.alts) > maxSuccessors {
					f.inexact = true
					break
				}
				combos *= len(w.alts)
				open = append(open, i)
			}
		}
		return open
	}
	for _, first := range []bool{true, false} {
		for i := range ws {
			w := &ws[i]
			if len(w.alts) <= 1 || w.focus != first {
				continue
			}
			if combos*len(w.alts) > maxSuccessors {
				f.inexact = true
				w.val = st[w.cell]
				continue
			}
			combos *= len(w.alts)
			open = append(open, i)
		}
	}
	return open
}

// nondetValues lists the values a nondeterministic assignment may take
// in the cross-check: the domain of a finite sort; for numbers, 0, 1, 2,
// -1 and the integers next to every integer constant of the system (c-1,
// c and c+1, so that a cell an update leaves free can take a side of
// every comparison: a trace through unsafe (p) { A[p] > 2 } after such
// an update did not replay when the choices stopped at 2).
func (f *wfinite) nondetValues(s Sort) []int64 {
	switch s.Kind {
	case SBool, SEnum, SProc:
		return f.domain(s)
	}
	if f.numChoices == nil {
		f.numChoices = boundaryNumbers(f.sys)
	}
	return f.numChoices
}

// maxNumChoices bounds the numbers nondetValues offers.
const maxNumChoices = 12

// boundaryNumbers returns 0, 1, 2, -1, then c-1, c, c+1 for the integer
// constants c of sys's formulas and updates, in the order met, at most
// maxNumChoices of them.
func boundaryNumbers(sys *System) []int64 {
	out := []int64{0, 1, 2, -1}
	seen := map[int64]bool{0: true, 1: true, 2: true, -1: true}
	add := func(t Term) {
		if t.Kind != KNum || t.Off.Den != 1 {
			return
		}
		for _, v := range [3]int64{t.Off.Num - 1, t.Off.Num, t.Off.Num + 1} {
			if !seen[v] && len(out) < maxNumChoices {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	var conjs func(cs []Conj)
	conjs = func(cs []Conj) {
		for _, c := range cs {
			for _, l := range c.Lits {
				add(l.L)
				add(l.R)
			}
			for _, d := range c.Foralls {
				conjs(d)
			}
			for _, d := range c.Exists {
				conjs(d)
			}
		}
	}
	conjs(sys.Init)
	for _, r := range sys.Unsafe {
		conjs(r.DNF)
	}
	for _, t := range sys.Trans {
		conjs(t.Guard)
		for _, u := range t.Updates {
			for _, c := range u.Cases {
				conjs(c.Cond)
				add(c.Value)
			}
		}
	}
	return out
}

// apply returns the state st becomes by the writes ws of t, or nil when
// the state is beyond the bound of the buffers or excluded.
func (f *wfinite) apply(st []int64, t *Trans, actor int32, atomic bool, ws []write) []int64 {
	s := f.newState(st)
	joined := int64(0) // the writes after the first go with it
	for _, w := range ws {
		if !w.weak || atomic || actor == 0 || f.model == modelSC {
			s[w.cell] = w.val
			if w.weak {
				f.widen(s, w.cell, w.val, 0)
			}
			continue
		}
		f.widen(s, w.cell, w.val, actor)
		b := f.buf(actor)
		if s[b] >= int64(f.bufCap) {
			f.inexact = true
			return nil // beyond the bound of the buffers
		}
		k := b + 1 + 2*int(s[b])
		s[k], s[k+1] = int64(w.cell)|joined, w.val
		s[b]++
		joined = bufJoined
	}
	if actor > 0 && (t.ReadsWeak || t.Fence) {
		f.resetRanges(s, actor)
	}
	if f.excluded(s) {
		return nil
	}
	return s
}

// excluded reports whether st satisfies an invariant formula of the
// system: such a state is unreachable by the formula, and left out of
// the sample.
func (f *wfinite) excluded(st []int64) bool {
	for _, inv := range f.sys.Invariants {
		if f.rootTuple(st, inv) != nil {
			return true
		}
	}
	return false
}

func procSlice(n int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i + 1)
	}
	return out
}

// sample explores the SC runs of the instance breadth-first (at most
// wMaxSCSample states, wMaxSample with integers: they are TSO runs, and
// reach the states far from the initial ones that the TSO exploration
// misses), then the
// instance breadth-first (at most wMaxSample states more, wMaxDepth
// steps), then walks at random from the initial state. stop is polled
// from time to time.
func (f *wfinite) sample(stop func() bool) *stateStore {
	// with integers the SC runs do not end: a few of them only
	limit := wMaxSCSample
	for _, g := range f.sys.Globals {
		if g.Sort.Kind == SInt {
			limit = wMaxSample
		}
	}
	total := func(n int) int {
		if f.capStates > 0 {
			return min(n, f.capStates)
		}
		return n
	}
	model := f.model
	f.model = modelSC
	states, seen := f.bfs(stop, nil, nil, total(limit), 0)
	f.model = model
	states, seen = f.bfs(stop, states, seen, total(states.len()+wMaxSample), wMaxDepth)
	if states.len() == 0 {
		return nil
	}
	if f.capStates > 0 {
		return states // no random walks beyond the bound
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var next []successor
	first := states.row(0, nil)
	for w := 0; w < wWalks; w++ {
		if stop != nil && stop() {
			return states
		}
		// the numbers that init leaves free take random values
		inits := f.initials(func(int) int64 { return int64(rng.IntN(41) - 10) })
		st := first
		if len(inits) > 0 {
			st = inits[rng.IntN(len(inits))]
			if k := stateKey(st); !seen[k] {
				seen[k] = true
				states.add(st)
			}
		}
		for range wWalkLen {
			next = f.successors(st, next[:0])
			if len(next) == 0 {
				break
			}
			st = next[rng.IntN(len(next))].st
			if k := stateKey(st); !seen[k] {
				seen[k] = true
				states.add(st)
			}
		}
	}
	return states
}

// bfs explores the instance breadth-first from its initial states, at
// most maxDepth steps (0: no bound), and adds to states (nil: a new
// store) the states that seen does not hold, up to limit states in all.
// Only the states still to expand are kept uncompressed.
func (f *wfinite) bfs(stop func() bool, states *stateStore, seen map[stateID]bool, limit, maxDepth int) (*stateStore, map[stateID]bool) {
	if states == nil {
		states = newStateStore(f.size)
	}
	visited := map[stateID]bool{} // by this exploration
	if seen == nil {
		seen = visited // the same states: one map is enough
	}
	var queue [][]int64
	var depth []int
	add := func(s []int64, d int) bool {
		k := stateKey(s)
		if visited[k] {
			return true
		}
		if !seen[k] {
			if states.len() >= limit {
				return false
			}
			seen[k] = true
			states.add(s)
		}
		visited[k] = true
		queue = append(queue, s)
		depth = append(depth, d)
		return true
	}
	// the numbers that init leaves free are 0, or else differ from one
	// another and from the fixed ones
	for _, free := range []func(int) int64{
		func(int) int64 { return 0 },
		func(c int) int64 { return 1000 + 7*int64(c) },
	} {
		for _, st := range f.initials(free) {
			if !add(st, 0) {
				return states, seen
			}
		}
	}
	var next []successor
	for i := 0; i < len(queue); i++ {
		if i%512 == 0 && stop != nil && stop() {
			return states, seen
		}
		st := queue[i]
		queue[i] = nil // expanded: the store has it
		if maxDepth > 0 && depth[i] >= maxDepth {
			continue
		}
		next = f.successors(st, next[:0])
		for _, s := range next {
			if !add(s.st, depth[i]+1) {
				return states, seen
			}
		}
	}
	return states, seen
}

// explore explores the instance breadth-first from the states inits, at
// most limit states in all, and records how each state was first
// reached. The states that satisfy an invariant formula of the system
// are left out (the formula says they are unreachable) and not explored
// further. stop is polled from time to time.
func (f *wfinite) explore(stop func() bool, inits [][]int64, limit int) *sampled {
	seen := map[stateID]bool{}
	res := &sampled{}
	add := func(s []int64, parent int, step forwardStep) {
		res.states = append(res.states, s)
		res.parent = append(res.parent, parent)
		res.step = append(res.step, step)
	}
	for _, s := range inits {
		if k := stateKey(s); !seen[k] && !f.excluded(s) {
			seen[k] = true
			if len(res.states) >= limit {
				return res
			}
			add(s, -1, forwardStep{})
		}
	}
	var next []successor
	for i := 0; i < len(res.states); i++ {
		if i%512 == 0 && stop != nil && stop() {
			return res
		}
		next = f.successors(res.states[i], next[:0])
		for _, s := range next {
			k := stateKey(s.st)
			if seen[k] {
				continue
			}
			seen[k] = true
			if f.excluded(s.st) {
				continue
			}
			if len(res.states) >= limit {
				return res
			}
			add(s.st, i, s.step)
		}
	}
	res.complete = true
	return res
}

// litCell is the cell of the atom t (a variable or array cell) under e,
// or -1.
func (f *wfinite) litCell(t Term, e *fenv) int {
	var args [maxArity]int32
	for i := 0; i < int(t.NArgs); i++ {
		args[i] = e.proc(t.Args[i])
	}
	return f.cell(t.Sym, t.NArgs, args)
}

// equalCells gives the numeric cells that init says equal (same, pairs
// of cells: X = NullProc) one value, the fixed one of their class if
// any, else that of the class's first cell. Free numbers are drawn cell
// by cell (initials), so two cells init relates would otherwise differ
// in most draws and leave no initial state (Cubicle's
// tests/cubicle/lamportn.cub: X = NullProc, Y = NullProc, and invariants
// that want the ProcID all different from NullProc, which a draw of
// one value everywhere breaks). isInit still checks the result.
func equalCells(s []int64, fixed []bool, same [][2]int) {
	if len(same) == 0 {
		return
	}
	parent := map[int]int{}
	var find func(c int) int
	find = func(c int) int {
		if p := parent[c]; p != c {
			parent[c] = find(p)
		}
		return parent[c]
	}
	for _, p := range same {
		for _, c := range p {
			if _, ok := parent[c]; !ok {
				parent[c] = c
			}
		}
	}
	for _, p := range same {
		if a, b := find(p[0]), find(p[1]); a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	val := map[int]int64{} // of each class: a fixed value, else its root's
	for c := range parent {
		if r := find(c); fixed[c] {
			val[r] = s[c]
		} else if _, ok := val[r]; !ok {
			val[r] = s[r]
		}
	}
	for c := range parent {
		if !fixed[c] {
			s[c] = val[find(c)]
		}
	}
}
