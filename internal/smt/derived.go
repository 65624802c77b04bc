package smt

import "fmt"

// Derived relations inside the theory, after Haas, Meyer, Ponce-de-León,
// "CAAT: Consistency as a Theory" (OOPSLA 2022). A Derived is a graph of
// relation definitions over the events 0..n-1: base relations, whose
// edges are Boolean literals (or always present), and relations derived
// from others by union, sequence, intersection (with another relation or
// with a fixed set of pairs) and inverse. A definition may refer to
// itself, directly or not: the relation is then the least fixpoint, which
// is how transitive closures (r⁺ = r | r⁺;r) and a model's let rec are
// given. Constraints say that a relation is acyclic or irreflexive.
//
// Only the base literals reach the solver. The theory derives, as the
// solver makes base literals true, the edges that follow (each edge
// keeps the one or two edges it was derived from), and reports a
// violated constraint as a conflict whose explanation is the set of base
// literals the violating edges were derived from. All the operators are
// monotone, so an edge derived from true literals holds in every
// execution where they hold: the learnt clauses are sound, and a
// complete assignment with no conflict satisfies every constraint.

// Node is a relation of a Derived.
type Node int32

// NoNode is the Node of no relation.
const NoNode Node = -1

type dop uint8

const (
	dBase dop = iota
	dUnion
	dSeq
	dInter
	dFilter
	dInverse
)

type dlink struct {
	p    Node
	role uint8 // 0: the only operand or the left one, 1: the right one
}

type dnode struct {
	op         dop
	a, b       Node
	keep       []bool // dFilter: keep[x*n+y]
	parents    []dlink
	acyclic    bool
	irreflexiv bool
}

type dbase struct {
	node Node
	x, y int32
	lit  Term
	id   int32 // propagator id of lit; -1 when always present
}

// Derived is a graph of relation definitions; see above. Build it with
// its methods, then give it to Solver.AddDerived.
type Derived struct {
	n     int
	nodes []dnode
	base  []dbase
	run   *drun // the propagator's state
	marks []int // len(run.edges) at each push
	added bool
	// Wrap, if set, returns a literal equivalent to one the solver
	// refuses to watch (a Boolean variable asserted equivalent to it).
	Wrap func(Term) Term
}

// NewDerived returns an empty graph of definitions over n events.
func NewDerived(n int) *Derived { return &Derived{n: n} }

// Nodes returns the number of relations defined.
func (d *Derived) Nodes() int { return len(d.nodes) }

// BaseEdges returns the number of base edges (literals and constants).
func (d *Derived) BaseEdges() int { return len(d.base) }

func (d *Derived) node(op dop, a, b Node) Node {
	if d.added {
		panic("smt: Derived changed after AddDerived")
	}
	d.nodes = append(d.nodes, dnode{op: op, a: a, b: b})
	id := Node(len(d.nodes) - 1)
	if a != NoNode {
		d.nodes[a].parents = append(d.nodes[a].parents, dlink{p: id})
	}
	if b != NoNode {
		d.nodes[b].parents = append(d.nodes[b].parents, dlink{p: id, role: 1})
	}
	return id
}

func (d *Derived) check(ns ...Node) {
	for _, x := range ns {
		if x < 0 || int(x) >= len(d.nodes) {
			panic(fmt.Sprintf("smt: Derived: no relation %d", x))
		}
	}
}

// Base returns a relation whose edges are those of edges that hold.
func (d *Derived) Base(edges []Edge) Node {
	id := d.node(dBase, NoNode, NoNode)
	for _, e := range edges {
		if e.From < 0 || e.From >= d.n || e.To < 0 || e.To >= d.n {
			panic(fmt.Sprintf("smt: Derived: edge %d→%d outside the %d events", e.From, e.To, d.n))
		}
		d.base = append(d.base, dbase{node: id, x: int32(e.From), y: int32(e.To), lit: e.Lit, id: -1})
	}
	return id
}

// Union returns a relation that is the union of those given, and of those
// added later with AddToUnion (so that a definition can refer to itself).
func (d *Derived) Union(of ...Node) Node {
	d.check(of...)
	id := d.node(dUnion, NoNode, NoNode)
	for _, x := range of {
		d.AddToUnion(id, x)
	}
	return id
}

// AddToUnion adds the relation x to the union u.
func (d *Derived) AddToUnion(u, x Node) {
	d.check(u, x)
	if d.nodes[u].op != dUnion {
		panic("smt: AddToUnion on a relation that is not a union")
	}
	d.nodes[x].parents = append(d.nodes[x].parents, dlink{p: u})
}

// Seq returns the sequence a ; b.
func (d *Derived) Seq(a, b Node) Node { d.check(a, b); return d.node(dSeq, a, b) }

// Inter returns the intersection a & b.
func (d *Derived) Inter(a, b Node) Node { d.check(a, b); return d.node(dInter, a, b) }

// Inverse returns a⁻¹.
func (d *Derived) Inverse(a Node) Node { d.check(a); return d.node(dInverse, a, NoNode) }

// Filter returns the pairs (x, y) of a for which keep(x, y).
func (d *Derived) Filter(a Node, keep func(x, y int) bool) Node {
	d.check(a)
	id := d.node(dFilter, a, NoNode)
	k := make([]bool, d.n*d.n)
	for x := 0; x < d.n; x++ {
		for y := 0; y < d.n; y++ {
			k[x*d.n+y] = keep(x, y)
		}
	}
	d.nodes[id].keep = k
	return id
}

// Plus returns the transitive closure a⁺, as the least fixpoint of
// p = a | p ; a.
func (d *Derived) Plus(a Node) Node {
	p := d.Union(a)
	d.AddToUnion(p, d.Seq(p, a))
	return p
}

// Acyclic constrains a to be acyclic.
func (d *Derived) Acyclic(a Node) { d.check(a); d.nodes[a].acyclic = true }

// Irreflexive constrains a to be irreflexive.
func (d *Derived) Irreflexive(a Node) { d.check(a); d.nodes[a].irreflexiv = true }

// Violation returns the literals of a violated constraint when the base
// literals have the values val gives (a literal it calls false is
// absent), or nil and true when every constraint holds. The literals all
// hold under val: the clause of their negations excludes the violation.
func (d *Derived) Violation(val func(Term) bool) ([]Term, bool) {
	r := newDrun(d)
	for k, b := range d.base {
		if !b.lit.IsZero() && !val(b.lit) {
			continue
		}
		if r.add(b.node, b.x, b.y, -1, -1, int32(k)) {
			break
		}
		if r.propagate() {
			break
		}
	}
	if r.conflict == nil {
		return nil, true
	}
	var out []Term
	for _, k := range r.explain() {
		if l := d.base[k].lit; !l.IsZero() {
			out = append(out, l)
		}
	}
	return out, false
}

// dedge is an edge present in a relation, with what it was derived from:
// one or two other edges, or a base edge.
type dedge struct {
	node   Node
	x, y   int32
	r1, r2 int32 // edges derived from; -1 for none
	base   int32 // index in Derived.base; -1 for a derived edge
}

// drun is the state of the derivation: the edges present, in the order
// they were added (removed in reverse order by pop).
type drun struct {
	d        *Derived
	n        int
	out      [][][]hop   // [node][event]: edges present, from the event
	in       [][][]int32 // [node][event]: edges present, to the event
	at       []edgeIndex // [node]: the edge x→y present, by key(x, y)
	edges    []dedge
	queue    []int32
	conflict []int32 // edges of a violation, nil if none
	searcher
	seen  []uint32 // explain: by edge
	seenS uint32
}

func newDrun(d *Derived) *drun {
	r := &drun{d: d, n: d.n}
	r.out = make([][][]hop, len(d.nodes))
	r.in = make([][][]int32, len(d.nodes))
	r.at = make([]edgeIndex, len(d.nodes))
	for i := range d.nodes {
		r.out[i] = make([][]hop, d.n)
		r.in[i] = make([][]int32, d.n)
		r.at[i].dense = d.n*d.n <= denseEdges
	}
	r.searcher = newSearcher(d.n)
	return r
}

func (r *drun) key(x, y int32) int64 { return int64(x)*int64(r.n) + int64(y) }

// add adds the edge x→y to the relation p unless present, and reports
// whether that violates a constraint (r.conflict is then set).
func (r *drun) add(p Node, x, y, r1, r2, base int32) bool {
	if _, ok := r.at[p].get(r.key(x, y)); ok {
		return false
	}
	id := int32(len(r.edges))
	r.edges = append(r.edges, dedge{node: p, x: x, y: y, r1: r1, r2: r2, base: base})
	r.at[p].set(r.key(x, y), id, r.n)
	r.out[p][x] = append(r.out[p][x], hop{id, y})
	r.in[p][y] = append(r.in[p][y], id)
	r.queue = append(r.queue, id)
	nd := &r.d.nodes[p]
	if x == y && (nd.acyclic || nd.irreflexiv) {
		r.conflict = []int32{id}
		return true
	}
	if nd.acyclic {
		if path := r.path(p, y, x); path != nil {
			r.conflict = append(path, id)
			return true
		}
	}
	return false
}

// propagate derives the consequences of the edges in the queue; it
// stops at the first violation (and reports it).
func (r *drun) propagate() bool {
	for i := 0; i < len(r.queue); i++ {
		e := r.edges[r.queue[i]]
		eid := r.queue[i]
		for _, l := range r.d.nodes[e.node].parents {
			pn := &r.d.nodes[l.p]
			var bad bool
			switch pn.op {
			case dUnion:
				bad = r.add(l.p, e.x, e.y, eid, -1, -1)
			case dInverse:
				bad = r.add(l.p, e.y, e.x, eid, -1, -1)
			case dFilter:
				if pn.keep[int(e.x)*r.n+int(e.y)] {
					bad = r.add(l.p, e.x, e.y, eid, -1, -1)
				}
			case dInter:
				other := pn.b
				if l.role == 1 {
					other = pn.a
				}
				if o, ok := r.at[other].get(r.key(e.x, e.y)); ok {
					bad = r.add(l.p, e.x, e.y, eid, o, -1)
				}
			case dSeq:
				if l.role == 0 {
					// e = x→y in a: with every y→z of b.
					for k := 0; k < len(r.out[pn.b][e.y]) && !bad; k++ {
						f := r.out[pn.b][e.y][k]
						bad = r.add(l.p, e.x, f.to, eid, f.e, -1)
					}
				}
				if l.role == 1 {
					// e = x→y in b: with every w→x of a.
					for k := 0; k < len(r.in[pn.a][e.x]) && !bad; k++ {
						f := r.in[pn.a][e.x][k]
						bad = r.add(l.p, r.edges[f].x, e.y, f, eid, -1)
					}
				}
			}
			if bad {
				r.queue = r.queue[:0]
				return true
			}
		}
	}
	r.queue = r.queue[:0]
	return false
}

// path returns the edges of a shortest path from a to b in the relation
// p, last edge first, or nil (a ≠ b).
func (r *drun) path(p Node, a, b int32) []int32 {
	return r.backPath(r.out[p], a, b)
}

// explain returns the base edges (indices in Derived.base) the edges of
// the conflict were derived from, each once.
func (r *drun) explain() []int32 {
	if len(r.seen) < len(r.edges) {
		r.seen = make([]uint32, len(r.edges)+len(r.edges)/2)
		r.seenS = 0
	}
	r.seenS++
	if r.seenS == 0 {
		clear(r.seen)
		r.seenS = 1
	}
	var out []int32
	stack := append([]int32(nil), r.conflict...)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e < 0 || r.seen[e] == r.seenS {
			continue
		}
		r.seen[e] = r.seenS
		ed := r.edges[e]
		if ed.base >= 0 {
			out = append(out, ed.base)
			continue
		}
		stack = append(stack, ed.r1, ed.r2)
	}
	return out
}

// pop removes the edges added since the first to (in reverse order).
func (r *drun) pop(to int) {
	for i := len(r.edges) - 1; i >= to; i-- {
		e := r.edges[i]
		o := r.out[e.node][e.x]
		r.out[e.node][e.x] = o[:len(o)-1]
		in := r.in[e.node][e.y]
		r.in[e.node][e.y] = in[:len(in)-1]
		r.at[e.node].del(r.key(e.x, e.y))
	}
	r.edges = r.edges[:to]
	r.queue = r.queue[:0]
	r.conflict = nil
}

// denseEdges bounds n² for the dense edge index: up to 512 events, a
// relation's index is a table of n² entries (1 MB at most, allocated when
// its first edge is added); beyond, a map. The propagator looks edges up
// on every derivation step: with maps, their hashing and deletion on
// backtracking took a fifth of the CPU time of a Treiber stack under
// Power (internal/cfront/testdata/treiber.c, measured with perf).
const denseEdges = 512 * 512

// edgeIndex maps the key of an edge x→y of one relation to the edge's
// index in drun.edges.
type edgeIndex struct {
	dense  bool
	table  []int32 // dense: index+1, 0 for absent
	sparse map[int64]int32
}

func (x *edgeIndex) get(k int64) (int32, bool) {
	if x.dense {
		if x.table == nil || x.table[k] == 0 {
			return 0, false
		}
		return x.table[k] - 1, true
	}
	id, ok := x.sparse[k]
	return id, ok
}

func (x *edgeIndex) set(k int64, id int32, n int) {
	if x.dense {
		if x.table == nil {
			x.table = make([]int32, n*n)
		}
		x.table[k] = id + 1
		return
	}
	if x.sparse == nil {
		x.sparse = map[int64]int32{}
	}
	x.sparse[k] = id
}

func (x *edgeIndex) del(k int64) {
	if x.dense {
		x.table[k] = 0
		return
	}
	delete(x.sparse, k)
}
