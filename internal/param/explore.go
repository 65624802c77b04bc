package param

import "slices"

// This file and wexplore.go are the forward, explicit-state exploration
// of a finite instance of a system (a fixed number of processes): one
// explorer (wfinite), parameterised by the memory model of the weak
// variables (SC, TSO, PSO). This file has the layout of the states, the
// steps and the breadth-first samples; wexplore.go the semantics.
//
// The approximation of the backward search (approx.go) uses the samples
// of the instances of systems without weak memory and whose values are
// booleans, enumerations and processes (finite states) to guess which
// generalisations of a cube are unreachable. The sample is an
// under-approximation: initial values left free by init are not all
// enumerated and the exploration stops after maxSample states. That is
// safe, since the backward search proves or refutes every guess. The
// approximation takes its samples lazily, a slice at a time as the search
// goes, and samples the systems with integers, reals or abstract types
// abstractly (absexplore.go).

// maxSample bounds the number of states of the samples of a system, maxSuccessors the
// number of successors of a state by one transition instance.
const (
	maxSample     = 50000
	maxSuccessors = 256
)

// cellLayout places the globals of a finite instance with n processes in
// an array of cells, an array global's cells in the order of its indices.
type cellLayout struct {
	sys   *System
	n     int32
	base  []int // first cell of each global
	cells int   // number of cells
}

func newCellLayout(sys *System, n int32) cellLayout {
	l := cellLayout{sys: sys, n: n}
	for _, g := range sys.Globals {
		l.base = append(l.base, l.cells)
		k := 1
		for range g.Arity {
			k *= int(n)
		}
		l.cells += k
	}
	return l
}

// explorable reports whether the instances of sys are finite-state
// systems without weak memory, which the approximation samples
// (newFinite).
func explorable(sys *System) bool {
	if sys.Weak {
		return false
	}
	for _, g := range sys.Globals {
		if g.Sort.numeric() || g.Sort.Kind == SAbs {
			return false
		}
	}
	return true
}

// cell is the index of the cell of global g at procs args (1-based), or
// -1 when an index is not a process of the instance.
func (f *cellLayout) cell(g int32, nargs int32, args [maxArity]int32) int {
	c, mul := 0, 1
	for i := 0; i < int(nargs); i++ {
		a := args[i]
		if a < 1 || a > f.n {
			return -1
		}
		c += int(a-1) * mul
		mul *= int(f.n)
	}
	return f.base[g] + c
}

// domain lists the values of a sort.
func (f *cellLayout) domain(s Sort) []int64 {
	var k int64
	start := int64(0)
	switch s.Kind {
	case SBool:
		k = 2
	case SEnum:
		k = int64(len(f.sys.Enums[s.Enum].Ctors))
	case SProc:
		// the processes of the instance and one more, a process outside
		// it: a variable such as FLASH's Home, different from every
		// process (init: Home <> p), takes that value
		start, k = 1, int64(f.n)+1
	}
	out := make([]int64, 0, k)
	for v := start; v < start+k; v++ {
		out = append(out, v)
	}
	return out
}

// fenv maps the slots of a template or cube to processes.
type fenv struct {
	params []int32 // processes of the parameters
	q      int32
	u      [maxArity]int32
	slot   func(int32) int32 // cube slots, when set
}

func (e *fenv) proc(s int32) int32 {
	switch {
	case s == qvarSlot:
		return e.q
	case s <= uvarSlot && s > uvarSlot-maxArity:
		return e.u[uvarSlot-s]
	case s < 0:
		return e.params[-s-1]
	case e.slot != nil:
		return e.slot(s)
	}
	return s
}

// stateID identifies a state in the sets of the explorations: a 128-bit
// hash of its cells. Two states with the same id are taken to be the
// same; among the few million states of an exploration a collision is
// not to be expected (about n*n/2^129). A text key cost more memory
// than the states themselves.
type stateID [2]uint64

func stateKey(st []int64) stateID {
	h1, h2 := uint64(len(st)), uint64(0x9e3779b97f4a7c15)
	for _, v := range st {
		x := uint64(v)
		h1 = mix64(h1 ^ x)
		h2 = mix64(h2+x) + 0x632be59bd9b4e019
	}
	return stateID{h1, h2}
}

// mix64 is the finaliser of MurmurHash3 (Austin Appleby), a bijection
// of 64-bit words that mixes every bit into every other.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// forwardStep is a step of a finite instance: a transition instance
// (args: its processes), or a flush of the store buffer of a process
// (t nil; flush: the process, cell: the cell written to memory).
type forwardStep struct {
	t     *Trans
	args  []int32
	flush int32
	cell  int
}

// successor is a state reached by a step.
type successor struct {
	st   []int64
	step forwardStep
}

// sampled is the result of an exploration: the states in breadth-first
// order, the state each one was first reached from (-1 for an initial
// state) and by which step, and whether the exploration was complete.
type sampled struct {
	states   [][]int64
	parent   []int
	step     []forwardStep
	complete bool
}

// path lists the steps from an initial state to state i: a shortest
// one, the exploration being breadth-first.
func (s *sampled) path(i int) []forwardStep {
	var out []forwardStep
	for ; s.parent[i] >= 0; i = s.parent[i] {
		out = append(out, s.step[i])
	}
	slices.Reverse(out)
	return out
}

// finite is a finite instance without weak memory explored under
// sequential consistency: the explorer of wexplore.go in its SC mode,
// with the rules of the samples of the approximation (every value of a
// nondeterministic assignment, initial combinations of up to 256
// values, a write whose value names a process outside the instance is
// skipped).
type finite struct {
	*wfinite
}

func newFinite(sys *System, n int32) *finite {
	f := newExplorer(sys, n, modelSC, 0)
	f.allNondet = true
	f.initCombos = 256
	f.lenient = true
	return &finite{f}
}

// sample explores the instance breadth-first from its initial states,
// at most limit states. The states that satisfy an invariant formula of
// the system are left out (the formula says they are unreachable) and
// not explored further. stop is polled from time to time.
func (f *finite) sample(stop func() bool, limit int) *sampled {
	return f.wfinite.explore(stop, f.initials(func(int) int64 { return 0 }), limit)
}

// holdsCube reports whether st satisfies c (without events) for some
// injective map of the slots of c to the processes of the instance.
func (f *wfinite) holdsCube(st []int64, c *Cube) bool {
	return slotMaps(c.Slots, f.sys.Pinned, f.n, func(e *fenv) bool {
		for _, l := range c.Lits {
			if h, ok := f.lit(st, l, e); !h || !ok {
				return false
			}
		}
		return true
	})
}

// holdsRoot reports whether st satisfies the unsafe or invariant formula
// r for some distinct processes.
func (f *wfinite) holdsRoot(st []int64, r *Root) bool { return f.rootProcs(st, r) != nil }

// rootProcs returns distinct processes for the parameters of r that
// make st satisfy r, or nil.
func (f *wfinite) rootProcs(st []int64, r *Root) []int32 {
	if tp := f.rootTuple(st, r); tp != nil {
		return append(make([]int32, 0, len(tp)), tp...)
	}
	return nil
}

// rootTuple is rootProcs without the copy: the tuple is the explorer's
// (it is called for every state explored, and rootParams allocates).
// The tuples are tried in rootParams' order.
func (f *wfinite) rootTuple(st []int64, r *Root) []int32 {
	if r.Params > int(f.n) {
		return nil
	}
	if f.compileOK() {
		if cr := f.compiledRoot(r); cr != nil {
			return cr.tuple(st, f)
		}
	}
	plan := f.rootPlans[r]
	if plan == nil {
		if f.rootPlans == nil {
			f.rootPlans = map[*Root]*guardPlan{}
		}
		p := planGuard(&Trans{Params: make([]string, r.Params), Guard: r.DNF})
		plan = &p
		f.rootPlans[r] = plan
	}
	if f.rootBuf == nil || cap(f.rootBuf) < r.Params {
		// never nil, even for a formula without parameters: nil says
		// that the formula does not hold
		f.rootBuf = make([]int32, r.Params, max(r.Params, 1))
	}
	params := f.rootBuf[:r.Params]
	clear(params)
	e := &f.rootEnv
	*e = fenv{params: params}
	if m := f.planAlive(st, plan, e, 0, plan.all); m != 0 && f.rootRec(st, r, plan, e, 0, m) {
		return params
	}
	return nil
}

// rootRec chooses the parameters of r from the k-th on, in rootParams'
// order, and skips the choices that make a literal of every disjunct
// false (as successors does for guards).
func (f *wfinite) rootRec(st []int64, r *Root, plan *guardPlan, e *fenv, k int, mask uint64) bool {
	params := e.params
	if k == len(params) {
		return f.dnf(st, r.DNF, e, 0)
	}
	for p := int32(1); p <= f.n; p++ {
		if !slices.Contains(params[:k], p) {
			params[k] = p
			if m := f.planAlive(st, plan, e, k+1, mask); m != 0 && f.rootRec(st, r, plan, e, k+1, m) {
				return true
			}
		}
	}
	return false
}

// rootParams returns distinct processes among 1..n for the parameters of
// the formula r that satisfy holds, or nil.
func rootParams(n int32, r *Root, holds func(params []int32) bool) []int32 {
	params := make([]int32, r.Params)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(params) {
			return holds(params)
		}
		for p := int32(1); p <= n; p++ {
			if !slices.Contains(params[:k], p) {
				params[k] = p
				if rec(k + 1) {
					return true
				}
			}
		}
		return false
	}
	if rec(0) {
		return params
	}
	return nil
}
