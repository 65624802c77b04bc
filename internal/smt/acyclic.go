package smt

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// Lazy acyclicity: a theory of directed graphs decided by a Z3 user
// propagator, after Haas, Meyer, Ponce-de-León, "CAAT: Consistency as a
// Theory" (OOPSLA 2022). Each graph's edges are Boolean literals; Z3 tells
// the theory (through the shim's callbacks, which call the exported Go
// functions below) when an edge literal becomes true, and the theory adds
// the edge to an incremental graph. An edge that closes a cycle raises a
// conflict whose explanation is the cycle's literals, from which Z3 learns
// a clause; the edges added in a decision level are removed when Z3 pops
// it. The integer clocks the eager encoding needs (a variable per event
// and a difference constraint per edge) are not created at all.

// Edge is an edge of a graph given to Solver.AddAcyclic: From → To when
// Lit holds, or always when Lit is the zero Term.
type Edge struct {
	From, To int
	Lit      Term
}

// AcyclicStats counts the work of a solver's acyclicity theory.
type AcyclicStats struct {
	Graphs    int // graphs added
	Watched   int // edge literals registered
	Fixed     int // edges that became true (callbacks)
	Conflicts int // cycles found, each a learnt clause
	Finals    int // final checks
	Copies    int // copies of the propagator Z3 made (inert)
}

// AddAcyclic asserts that the graph on nodes 0..n-1 whose edges are
// those of edges that hold is acyclic, lazily: see above. It returns
// false, and asserts nothing, when the edges that always hold already
// form a cycle (the caller then asserts false). It must be called before
// any Push (the edges are registered at the base level of the solver).
func (s *Solver) AddAcyclic(n int, edges []Edge) bool {
	s.enter("AddAcyclic")
	s.changed()
	t := s.theory("AddAcyclic")
	g := &dgraph{out: make([][]hop, n), searcher: newSearcher(n)}
	gi := int32(len(t.graphs))
	t.graphs = append(t.graphs, g)
	for _, e := range edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			panic(&Error{Op: "AddAcyclic", Code: InvalidArg, Msg: fmt.Sprintf("edge %d→%d outside the %d nodes", e.From, e.To, n)})
		}
		ge := gedge{u: int32(e.From), v: int32(e.To), id: -1}
		ei := int32(len(g.edges))
		if !e.Lit.IsZero() {
			var err C.int
			lit := s.watchable("AddAcyclic", e.Lit, nil)
			id := C.musket_prop_register(s.c.z, s.s, s.c.arg("AddAcyclic", lit), &err)
			if err != 0 {
				panic(s.c.error("AddAcyclic", err))
			}
			ge.id = int32(id)
			for int(id) >= len(t.refs) {
				t.refs = append(t.refs, nil)
			}
			t.refs[id] = append(t.refs[id], edgeRef{g: gi, e: ei})
			t.stats.Watched++
		}
		g.edges = append(g.edges, ge)
		if ge.id < 0 {
			g.out[ge.u] = append(g.out[ge.u], hop{ei, ge.v})
		}
	}
	t.stats.Graphs++
	// The edges that always hold must not close a cycle by themselves.
	return g.findCycle() == nil
}

// theory returns the solver's propagator, made at the first call.
func (s *Solver) theory(op string) *acycTheory {
	t := s.acyc
	if t == nil {
		// Z3 4.8.12 sets its theories up when the propagator is
		// attached, from the assertions it holds then: with none about
		// integers, the integers asserted later are an uninterpreted
		// sort (x > 5 ∧ x < 3 satisfiable; TestArithmeticAfterTheory).
		// So when the context has made no integer or real term yet (none
		// can be asserted), an integer bound on a variable of its own,
		// which every model satisfies, makes Z3 set the arithmetic up.
		// Not always: the bound changes Z3's search, hence the model it
		// gives first, and some of cfront's checks read one model only
		// (cw9/memmove_shift -DBUG under tso then found a torn execution
		// first and gave no verdict). Asking the solver for its
		// assertions (Z3_solver_get_assertions) changed the search too.
		// Not covered: integers made before the theory is attached but
		// asserted only after it (bmc asserts the program first).
		if !s.c.arith {
			s.Assert(s.c.Ge(s.c.Int("musket.arith!"), s.c.IntVal(0)))
		}
		t = &acycTheory{z: s.c.z}
		t.handle = cgo.NewHandle(t)
		var err C.int
		t.prop = C.musket_prop_init(s.c.z, s.s, C.uintptr_t(t.handle), &err)
		if t.prop == nil || err != 0 {
			if t.prop != nil {
				C.musket_prop_free(t.prop)
			}
			t.handle.Delete()
			panic(s.c.error(op, err))
		}
		s.acyc = t
		s.c.props = append(s.c.props, t)
	}
	return t
}

// AcyclicStats returns the counters of the solver's acyclicity theory
// (zero without AddAcyclic).
func (s *Solver) AcyclicStats() AcyclicStats {
	if s.acyc == nil {
		return AcyclicStats{}
	}
	st := s.acyc.stats
	st.Copies = int(s.acyc.prop.fresh)
	return st
}

// acycTheory is the state of one solver's propagator: its graphs, which
// edges each registered literal stands for, and the trail of edges added
// since the base level, cut at each decision level.
type acycTheory struct {
	z      C.Z3_context
	prop   *C.musket_prop
	handle cgo.Handle
	graphs []*dgraph
	refs   [][]edgeRef // by propagator id: the edges of the literal
	trail  []edgeRef   // edges added, in order
	marks  []int       // len(trail) at each push
	// conflict: a cycle was reported and Z3 has not backtracked yet.
	conflict bool
	expl     []C.unsigned
	stats    AcyclicStats
	// derived relations (derived.go): their states, and the base edges
	// of each registered literal.
	derived  []*Derived
	drefs    [][]dref
	proxies  map[uint32]Term // by literal id: the variable watched for it (register.go)
	panicked any             // a panic in a callback, raised again after the check
}

type edgeRef struct{ g, e int32 }

// free releases the C side of the theory (after its Z3 context is gone).
func (t *acycTheory) free() {
	if t.prop != nil {
		C.musket_prop_free(t.prop)
		t.prop = nil
		t.handle.Delete()
	}
}

// dgraph is one graph: per node the edges present, as a stack (edges are
// removed in the reverse order of their addition).
type dgraph struct {
	out   [][]hop
	edges []gedge
	searcher
}

type gedge struct {
	u, v int32
	id   int32 // propagator id of its literal; -1 always present
}

func theoryOf(h C.uintptr_t) *acycTheory {
	return cgo.Handle(h).Value().(*acycTheory)
}

// guard records a panic of a callback: unwinding through Z3's C++
// frames is not possible, so the check goes on and Check panics after.
func (t *acycTheory) guard() {
	if r := recover(); r != nil && t.panicked == nil {
		t.panicked = r
	}
}

//export musketPropPush
func musketPropPush(h C.uintptr_t) {
	t := theoryOf(h)
	t.marks = append(t.marks, len(t.trail))
	for _, d := range t.derived {
		d.marks = append(d.marks, len(d.run.edges))
	}
}

//export musketPropPop
func musketPropPop(h C.uintptr_t, n C.unsigned) {
	t := theoryOf(h)
	defer t.guard()
	k := len(t.marks) - int(n)
	if k < 0 {
		k = 0
	}
	to := 0
	if k < len(t.marks) {
		to = t.marks[k]
	}
	for i := len(t.trail) - 1; i >= to; i-- {
		r := t.trail[i]
		g := t.graphs[r.g]
		u := g.edges[r.e].u
		g.out[u] = g.out[u][:len(g.out[u])-1]
	}
	t.trail = t.trail[:to]
	t.marks = t.marks[:k]
	t.conflict = false
	for _, d := range t.derived {
		if k < len(d.marks) {
			d.run.pop(d.marks[k])
			d.marks = d.marks[:k]
		}
		d.run.queue, d.run.conflict = d.run.queue[:0], nil
	}
}

//export musketPropFixed
func musketPropFixed(h C.uintptr_t, cb C.Z3_solver_callback, id C.unsigned) {
	t := theoryOf(h)
	defer t.guard()
	t.stats.Fixed++
	if int(id) < len(t.drefs) {
		t.fixedDerived(cb, t.drefs[id])
	}
	if int(id) >= len(t.refs) {
		return
	}
	for _, r := range t.refs[id] {
		g := t.graphs[r.g]
		e := g.edges[r.e]
		g.out[e.u] = append(g.out[e.u], hop{r.e, e.v})
		t.trail = append(t.trail, r)
		if t.conflict {
			continue
		}
		if path := g.path(e.v, e.u); path != nil {
			t.raise(cb, g, append(path, r.e))
		}
	}
}

//export musketPropFinal
func musketPropFinal(h C.uintptr_t, cb C.Z3_solver_callback) {
	t := theoryOf(h)
	defer t.guard()
	t.stats.Finals++
	if t.conflict {
		return
	}
	for _, g := range t.graphs {
		if c := g.findCycle(); c != nil {
			t.raise(cb, g, c)
			return
		}
	}
}

// raise reports the cycle made of the edges cyc as a conflict.
func (t *acycTheory) raise(cb C.Z3_solver_callback, g *dgraph, cyc []int32) {
	t.expl = t.expl[:0]
	for _, ei := range cyc {
		if id := g.edges[ei].id; id >= 0 {
			t.expl = append(t.expl, C.unsigned(id))
		}
	}
	if len(t.expl) == 0 {
		panic("acyclicity theory: a cycle of edges that always hold")
	}
	t.conflict = true
	t.stats.Conflicts++
	C.musket_prop_conflict(t.z, cb, C.unsigned(len(t.expl)), (*C.unsigned)(unsafe.Pointer(&t.expl[0])))
}

// path returns the edges of a shortest path from a to b among the edges
// present (breadth-first), or nil if there is none; a path from a node to
// itself is empty but not nil.
func (g *dgraph) path(a, b int32) []int32 {
	if a == b {
		return []int32{}
	}
	p := g.backPath(g.out, a, b)
	for l, r := 0, len(p)-1; l < r; l, r = l+1, r-1 {
		p[l], p[r] = p[r], p[l]
	}
	return p
}

// findCycle returns the edges of some cycle of the edges present, or nil
// (iterative depth-first search with colours).
func (g *dgraph) findCycle() []int32 {
	n := len(g.out)
	colour := make([]int8, n) // 0 white, 1 on the stack, 2 done
	type frame struct {
		x int32
		k int
	}
	var stack []frame
	for s := 0; s < n; s++ {
		if colour[s] != 0 {
			continue
		}
		stack = append(stack[:0], frame{x: int32(s)})
		colour[s] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.k == len(g.out[top.x]) {
				colour[top.x] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			ei, y := g.out[top.x][top.k].e, g.out[top.x][top.k].to
			top.k++
			switch colour[y] {
			case 0:
				colour[y] = 1
				g.via[y] = ei
				stack = append(stack, frame{x: y})
			case 1:
				// y is on the stack: the cycle is y ⇝ top.x → y.
				cyc := []int32{ei}
				for z := top.x; z != y; z = g.edges[g.via[z]].u {
					cyc = append(cyc, g.via[z])
				}
				return cyc
			}
		}
	}
	return nil
}

// FindCycle returns the indices in edges of the edges of some cycle of
// the graph on nodes 0..n-1, or nil if it is acyclic.
func FindCycle(n int, edges [][2]int) []int {
	g := &dgraph{out: make([][]hop, n), searcher: searcher{via: make([]int32, n)}}
	for k, e := range edges {
		g.edges = append(g.edges, gedge{u: int32(e[0]), v: int32(e[1])})
		g.out[e[0]] = append(g.out[e[0]], hop{int32(k), int32(e[1])})
	}
	c := g.findCycle()
	if c == nil {
		return nil
	}
	out := make([]int, len(c))
	for i, k := range c {
		out[i] = int(k)
	}
	return out
}
