package param

import (
	"slices"
	"strconv"
	"strings"
)

// This file is a forward, explicit-state exploration of a finite instance
// of a system (a fixed number of processes). It samples reachable states;
// the approximation of the backward search (approx.go) uses the sample to
// guess which generalisations of a cube are unreachable.
//
// Only systems without weak memory and whose values are booleans,
// enumerations and processes are explored (finite states). The sample is
// an under-approximation: initial values left free by init are not all
// enumerated and the exploration stops after maxSample states. That is
// safe, since the backward search proves or refutes every guess.

// maxSample bounds the number of states of the samples of a system, maxSuccessors the
// number of successors of a state by one transition instance.
const (
	maxSample     = 50000
	maxSuccessors = 256
)

// finite is a finite instance: n processes, and the cell layout of the
// variables.
type finite struct {
	cellLayout
}

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

// explorable reports whether sys has a finite instance that explore
// handles.
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

func newFinite(sys *System, n int32) *finite {
	return &finite{newCellLayout(sys, n)}
}

// cell is the index of the cell of global g at procs args (1-based), or
// -1 when an index is not a process of the instance.
func (f *cellLayout) cell(g int32, nargs int8, args [maxArity]int32) int {
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
func (f *finite) domain(s Sort) []int64 {
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

// value evaluates a term in state st; ok is false when the term cannot
// be evaluated (a process outside the instance).
func (f *finite) value(st []int64, t Term, e *fenv) (int64, bool) {
	switch t.Kind {
	case KBool, KEnum:
		return int64(t.Sym), true
	case KSlot:
		p := e.proc(t.Sym)
		return int64(p), p >= 1 && p <= f.n
	case KVar:
		var args [maxArity]int32
		for i := 0; i < int(t.NArgs); i++ {
			args[i] = e.proc(t.Args[i])
		}
		c := f.cell(t.Sym, t.NArgs, args)
		if c < 0 {
			return 0, false
		}
		return st[c], true
	}
	return 0, false
}

func (f *finite) lit(st []int64, l Lit, e *fenv) (holds, ok bool) {
	a, ok1 := f.value(st, l.L, e)
	b, ok2 := f.value(st, l.R, e)
	if !ok1 || !ok2 {
		return false, false
	}
	switch l.Op {
	case Eq:
		return a == b, true
	case Ne:
		return a != b, true
	case Lt:
		return a < b, true
	case Le:
		return a <= b, true
	case Gt:
		return a > b, true
	}
	return a >= b, true // processes are ordered by their numbers
}

// conj evaluates a conjunction of a template; the quantified variables
// range over the processes that are not parameters.
func (f *finite) conj(st []int64, c Conj, e *fenv) bool {
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
			if !f.dnf(st, d, e) {
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
			found = f.dnf(st, d, e)
		}
		if !found {
			return false
		}
	}
	return true
}

func (f *finite) dnf(st []int64, d []Conj, e *fenv) bool {
	for _, c := range d {
		if f.conj(st, c, e) {
			return true
		}
	}
	return false
}

func stateKey(st []int64) string {
	var b strings.Builder
	for _, v := range st {
		b.WriteString(strconv.FormatInt(v, 10))
		b.WriteByte(',')
	}
	return b.String()
}

// initial lists initial states: for each disjunct of init, the cells it
// fixes take their values, the others every value while there are few
// combinations (their first value otherwise).
func (f *finite) initial() [][]int64 {
	var out [][]int64
	seen := map[string]bool{}
	inits := f.sys.Init
	if len(inits) == 0 {
		inits = []Conj{{}}
	}
	for _, cj := range inits {
		st := make([]int64, f.cells)
		fixed := make([]bool, f.cells)
		ok := true
		for _, tuple := range initTuples(f.procs(), f.sys.InitArity) {
			if !ok {
				break
			}
			e := &fenv{params: tuple}
			for _, l := range cj.Lits {
				if l.Op != Eq || l.L.Kind != KVar {
					continue
				}
				v, vok := f.value(st, l.R, e)
				if !vok || l.R.Kind == KVar {
					continue
				}
				var args [maxArity]int32
				for i := 0; i < int(l.L.NArgs); i++ {
					args[i] = e.proc(l.L.Args[i])
				}
				c := f.cell(l.L.Sym, l.L.NArgs, args)
				if c < 0 {
					continue
				}
				if fixed[c] && st[c] != v {
					ok = false
					break
				}
				st[c], fixed[c] = v, true
			}
		}
		if !ok {
			continue
		}
		// the free cells
		var free []int
		var doms [][]int64
		combos := 1
		for gi, g := range f.sys.Globals {
			k := 1
			for range g.Arity {
				k *= int(f.n)
			}
			for c := f.base[gi]; c < f.base[gi]+k; c++ {
				if fixed[c] {
					continue
				}
				d := f.domain(g.Sort)
				st[c] = d[0]
				if combos*len(d) <= 256 {
					combos *= len(d)
					free = append(free, c)
					doms = append(doms, d)
				}
			}
		}
		idx := make([]int, len(free))
		for {
			s := slices.Clone(st)
			for i, c := range free {
				s[c] = doms[i][idx[i]]
			}
			if f.isInit(s) {
				if k := stateKey(s); !seen[k] {
					seen[k] = true
					out = append(out, s)
				}
			}
			i := 0
			for i < len(idx) {
				idx[i]++
				if idx[i] < len(doms[i]) {
					break
				}
				idx[i] = 0
				i++
			}
			if i == len(idx) {
				break
			}
		}
	}
	return out
}

func (f *finite) isInit(st []int64) bool {
	if f.sys.Init == nil {
		return true
	}
	for _, tuple := range initTuples(f.procs(), f.sys.InitArity) {
		if !f.dnf(st, f.sys.Init, &fenv{params: tuple}) {
			return false
		}
	}
	return true
}

// tuples lists every tuple of k processes of the instance (not
// necessarily distinct), one empty tuple for k = 0.
func (f *finite) tuples(k int) [][]int32 {
	out := [][]int32{nil}
	for range k {
		var next [][]int32
		for _, t := range out {
			for p := int32(1); p <= f.n; p++ {
				next = append(next, append(slices.Clone(t), p))
			}
		}
		out = next
	}
	return out
}

// procs lists the processes of the instance.
func (f *finite) procs() []int32 {
	out := make([]int32, f.n)
	for i := range out {
		out[i] = int32(i + 1)
	}
	return out
}

// assignment is one cell written by a transition with its possible
// values.
type assignment struct {
	cell int
	vals []int64
}

// forwardStep is a transition instance of the instance (args: its
// processes).
type forwardStep struct {
	t    *Trans
	args []int32
}

// successor is a state reached by a step.
type successor struct {
	st   []int64
	step forwardStep
}

// successors appends the successors of st.
func (f *finite) successors(st []int64, out []successor) []successor {
	for _, t := range f.sys.Trans {
		params := make([]int32, len(t.Params))
		var rec func(k int)
		rec = func(k int) {
			if k == len(params) {
				out = f.fire(st, t, params, out)
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

// fire appends the states reached by t with parameters params.
func (f *finite) fire(st []int64, t *Trans, params []int32, out []successor) []successor {
	e := &fenv{params: params}
	if !f.dnf(st, t.Guard, e) {
		return out
	}
	var as []assignment
	combos := 1
	for _, u := range t.Updates {
		g := f.sys.Globals[u.Global]
		for _, up := range f.tuples(u.NUniv) {
			copy(e.u[:], up)
			var args [maxArity]int32
			for i := 0; i < u.NArgs; i++ {
				args[i] = e.proc(u.Args[i])
			}
			c := f.cell(u.Global, int8(u.NArgs), args)
			if c < 0 {
				continue
			}
			for _, cs := range u.Cases {
				if cs.Cond != nil && !f.dnf(st, cs.Cond, e) {
					continue
				}
				if cs.Skip {
					break // not written
				}
				if cs.Nondet {
					d := f.domain(g.Sort)
					if combos *= len(d); combos > maxSuccessors {
						d = d[:1] // a sample needs not be complete
					}
					as = append(as, assignment{c, d})
				} else if v, ok := f.value(st, cs.Value, e); ok {
					as = append(as, assignment{c, []int64{v}})
				}
				break
			}
		}
	}
	step := forwardStep{t, slices.Clone(params)}
	idx := make([]int, len(as))
	for {
		s := slices.Clone(st)
		for i, a := range as {
			s[a.cell] = a.vals[idx[i]]
		}
		out = append(out, successor{s, step})
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

// sample explores the instance breadth-first from its initial states,
// at most limit states. The states that satisfy an invariant formula of
// the system are left out (the formula says they are unreachable) and
// not explored further. stop is polled from time to time.
func (f *finite) sample(stop func() bool, limit int) *sampled {
	seen := map[string]bool{}
	res := &sampled{}
	add := func(s []int64, parent int, step forwardStep) {
		res.states = append(res.states, s)
		res.parent = append(res.parent, parent)
		res.step = append(res.step, step)
	}
	for _, s := range f.initial() {
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
		if i%1024 == 0 && stop != nil && stop() {
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

// excluded reports whether st satisfies an invariant formula of the
// system.
func (f *finite) excluded(st []int64) bool {
	for _, inv := range f.sys.Invariants {
		if f.holdsRoot(st, inv) {
			return true
		}
	}
	return false
}

// holdsCube reports whether st satisfies c (without events) for some
// injective map of the slots of c to the processes of the instance.
func (f *finite) holdsCube(st []int64, c *Cube) bool {
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
func (f *finite) holdsRoot(st []int64, r *Root) bool { return f.rootProcs(st, r) != nil }

// rootProcs returns distinct processes for the parameters of r that
// make st satisfy r, or nil.
func (f *finite) rootProcs(st []int64, r *Root) []int32 {
	return rootParams(f.n, r, func(params []int32) bool {
		return f.dnf(st, r.DNF, &fenv{params: params})
	})
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
