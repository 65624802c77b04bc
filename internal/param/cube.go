package param

import (
	"slices"
	"strings"
	"sync"
)

// Cube is a set of states: there exist pairwise distinct processes
// (Slots) and events (Nodes, ordered by GHB) such that every literal of
// Lits holds.
type Cube struct {
	Slots []int32 // sorted
	Lits  []Lit   // sorted, no duplicates
	Nodes []*Node // weak events (nil for plain Cubicle)
	// GHB[i] is the set of positions j such that Nodes[i] is ghb-before
	// Nodes[j], transitively closed.
	GHB []uint64

	// search bookkeeping
	ID     int
	Parent *Cube
	Trans  string  // transition whose pre-image produced the cube
	Args   []int32 // its parameters
	Root   int     // index of the unsafe formula (1-based)
	Depth  int
	Origin *Cube // for a guess (approx.go): the cube it generalises

	seq      int  // order of creation (queue tie-break)
	numeric  bool // some literal needs arithmetic reasoning
	open     bool // the syntactic test leaves satisfiability to the solver
	ticked   bool // a pre-image on its path eliminated a tick (tick.go)
	tickHere bool // its own pre-image did
	// inexact: its pre-image dropped a literal whose numbers grew past
	// ratLimit (lin.go), so it holds of more states than the exact
	// pre-image: sound for SAFE, no proof of a path (search.go)
	inexact bool
	info    *cubeInfo
	sig     uint64
}

// maxNodes is the number of events a cube can hold.
const maxNodes = 64

// Node is a set of ghb-equal events: the reads and writes of one
// transition instance, or the reads of the unsafe formula.
type Node struct {
	ID     int32
	Procs  []ProcFlags // sorted by Proc
	Reads  []Access    // unsatisfied reads (their values are KVal terms)
	Writes []Access
	// Final: the reads of one process in an unsafe or invariant formula,
	// performed at the end of the run (model.go)
	Final bool
	// ReadBy: the reads of other processes that read from the writes of
	// this node (model.go: the reader's earlier writes to the location
	// are co-before them)
	ReadBy []Access
}

// ProcFlags says what a process does in a node.
type ProcFlags struct {
	Proc   int32
	Read   bool // reads (satisfied or not), or a fence seen as a read
	Write  bool
	Fenced bool // its reads follow a fence
	// FencedW: its writes follow a fence (PSO only: under TSO every
	// write already follows the earlier ones)
	FencedW bool
}

// Access is a read or a write of a weak variable or array cell.
type Access struct {
	Proc  int32
	Sym   int32
	NArgs int32
	Args  [maxArity]int32
}

func (a Access) sameLoc(b Access) bool {
	return a.Sym == b.Sym && a.NArgs == b.NArgs && a.Args == b.Args
}

func (a Access) valTerm(node int32, sys *System) Term {
	return Term{Kind: KVal, Sort: sys.Globals[a.Sym].Sort, Sym: a.Sym, NArgs: a.NArgs, Args: a.Args, Node: node, Proc: a.Proc, Off: Rat{0, 1}}
}

func (n *Node) flags(p int32) (ProcFlags, bool) {
	for _, f := range n.Procs {
		if f.Proc == p {
			return f, true
		}
	}
	return ProcFlags{}, false
}

func (n *Node) clone() *Node {
	return &Node{ID: n.ID, Procs: slices.Clone(n.Procs), Reads: slices.Clone(n.Reads), Writes: slices.Clone(n.Writes), Final: n.Final, ReadBy: slices.Clone(n.ReadBy)}
}

func (n *Node) setFlags(f ProcFlags) {
	for i := range n.Procs {
		if n.Procs[i].Proc == f.Proc {
			n.Procs[i] = f
			return
		}
	}
	n.Procs = append(n.Procs, f)
	slices.SortFunc(n.Procs, func(a, b ProcFlags) int { return int(a.Proc - b.Proc) })
}

func (c *Cube) nodeIndex(id int32) int {
	for i, n := range c.Nodes {
		if n.ID == id {
			return i
		}
	}
	return -1
}

// procs is the number of distinct processes of c: its slots and the
// process constants #1..#pinned (which exist in every state).
func (c *Cube) procs(pinned int32) int {
	n := int(pinned)
	for _, s := range c.Slots {
		if s > pinned {
			n++
		}
	}
	return n
}

// tooManyProcs reports whether c needs more processes than the system
// has (number_procs n: exactly n processes; 0: any number).
func (sys *System) tooManyProcs(c *Cube) bool {
	return sys.NumberProcs > 0 && c.procs(sys.Pinned) > sys.NumberProcs
}

func (c *Cube) hasSlot(s int32) bool {
	_, ok := slices.BinarySearch(c.Slots, s)
	return ok
}

// String prints the cube with the names of sys.
func (sys *System) CubeString(c *Cube) string {
	var b strings.Builder
	for i, l := range c.Lits {
		if i > 0 {
			b.WriteString(" && ")
		}
		b.WriteString(sys.litString(l))
	}
	for i, n := range c.Nodes {
		if b.Len() > 0 {
			b.WriteString(" && ")
		}
		b.WriteString("e")
		b.WriteString(itoa(int(n.ID)))
		b.WriteString(":{")
		for k, f := range n.Procs {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(slotName(f.Proc))
			if f.Read {
				b.WriteString(" R")
			}
			if f.Write {
				b.WriteString(" W")
			}
			if f.Fenced {
				b.WriteString(" F")
			}
			if f.FencedW {
				b.WriteString(" FW")
			}
		}
		for _, w := range n.Writes {
			b.WriteString(" Wr(")
			b.WriteString(sys.accessString(w))
			b.WriteString(")")
		}
		for _, r := range n.Reads {
			b.WriteString(" Rd(")
			b.WriteString(sys.accessString(r))
			b.WriteString(")")
		}
		for _, r := range n.ReadBy {
			b.WriteString(" RdBy(")
			b.WriteString(sys.accessString(r))
			b.WriteString(")")
		}
		b.WriteString("}")
		for j := range c.Nodes {
			if c.GHB[i]&(1<<uint(j)) != 0 {
				b.WriteString(" ghb(e" + itoa(int(n.ID)) + ",e" + itoa(int(c.Nodes[j].ID)) + ")")
			}
		}
	}
	if b.Len() == 0 {
		return "true"
	}
	return b.String()
}

func (sys *System) accessString(a Access) string {
	s := slotName(a.Proc) + "," + sys.Globals[a.Sym].Name
	if a.NArgs > 0 {
		s += "["
		for i := 0; i < int(a.NArgs); i++ {
			if i > 0 {
				s += ","
			}
			s += slotName(a.Args[i])
		}
		s += "]"
	}
	return s
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// cheapResult is the outcome of the syntactic satisfiability test.
type cheapResult int

const (
	cheapSat cheapResult = iota
	cheapUnsat
	cheapUnknown
)

// normalize sorts and deduplicates the literals, and tells whether the
// conjunction is syntactically unsatisfiable (unsat), certainly
// satisfiable, or needs the solver. It also sets c.numeric.
func (c *Cube) normalize() cheapResult {
	slices.SortFunc(c.Lits, cmpLit)
	c.Lits = slices.Compact(c.Lits)
	// drop "x <> c" when "x = d" is there
	fixed := map[Term]Term{}
	for _, l := range c.Lits {
		if l.Op == Eq && (l.R.Kind == KEnum || l.R.Kind == KSlot) {
			fixed[l.L] = l.R
		}
	}
	if len(fixed) > 0 {
		out := c.Lits[:0]
		for _, l := range c.Lits {
			if l.Op == Ne && (l.R.Kind == KEnum || l.R.Kind == KSlot) {
				if f, ok := fixed[l.L]; ok && f != l.R {
					continue
				}
			}
			out = append(out, l)
		}
		c.Lits = out
	}
	c.numeric = false
	for _, l := range c.Lits {
		if l.numeric() {
			c.numeric = true
		}
	}
	return cheapCheck(c.Lits)
}

// ufScratch holds cheapCheck's maps, which are emptied and kept for the
// next call (cheapCheck runs for every pre-image cube and every safety
// test; making the maps anew was most of its cost).
type ufScratch struct{ uf, val map[Term]Term }

var ufPool = sync.Pool{New: func() any { return &ufScratch{uf: map[Term]Term{}, val: map[Term]Term{}} }}

// release empties the maps and returns them to the pool, unless they
// grew large (clearing a map costs its capacity).
func (sc *ufScratch) release() {
	if len(sc.uf) > 256 || len(sc.val) > 256 {
		return
	}
	clear(sc.uf)
	clear(sc.val)
	ufPool.Put(sc)
}

// cheapCheck decides the conjunction of equalities and disequalities with
// a union-find; arithmetic and order are left to the solver. A cube of
// up to smallUF literals (nearly all) takes cheapCheckSmall, the same
// decision over a list of its terms (cheapCheck runs for every
// pre-image and every test against the initial states: hashing the
// 56-byte terms into maps was most of its cost); a larger one takes
// cheapCheckMaps, whose look-ups do not grow with the cube.
func cheapCheck(lits []Lit) cheapResult {
	if len(lits) <= smallUF {
		return cheapCheckSmall(lits)
	}
	return cheapCheckMaps(lits)
}

// smallUF: the literals up to which cheapCheck finds terms in a list.
const smallUF = 24

// ufSmall is cheapCheckSmall's scratch: the terms met so far, the
// parent of each (an index; its own for a root) and the value of each
// root (a constant or a slot; has tells whether it has one).
type ufSmall struct {
	terms  []Term
	parent []int32
	val    []Term
	has    []bool
}

var ufSmallPool = sync.Pool{New: func() any { return &ufSmall{} }}

// id returns the index of t, added if new.
func (u *ufSmall) id(t Term) int32 {
	for i := range u.terms {
		if u.terms[i] == t {
			return int32(i)
		}
	}
	u.terms = append(u.terms, t)
	u.parent = append(u.parent, int32(len(u.parent)))
	u.val = append(u.val, Term{})
	u.has = append(u.has, false)
	return int32(len(u.terms) - 1)
}

func (u *ufSmall) find(i int32) int32 {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

// cheapCheckSmall is cheapCheckMaps with the terms' classes in ufSmall:
// the same literals are read in the same order and the same classes and
// values are formed (a term the maps never saw is its own class, as a
// term met for the first time here), so the answer is the same
// (TestCheapCheckSmall compares them).
func cheapCheckSmall(lits []Lit) cheapResult {
	u := ufSmallPool.Get().(*ufSmall)
	defer func() {
		u.terms, u.parent, u.val, u.has = u.terms[:0], u.parent[:0], u.val[:0], u.has[:0]
		ufSmallPool.Put(u)
	}()
	// value of a class: a constant or a slot
	valueOf := func(t Term) (Term, bool) {
		if t.isConst() || t.Kind == KSlot {
			return t, true
		}
		r := u.find(u.id(t))
		return u.val[r], u.has[r]
	}
	result := cheapSat
	for _, l := range lits {
		if l.L.Kind == KLin || l.R.Kind == KLin {
			result = cheapUnknown // Z3 decides
			continue
		}
		if l.Op != Eq {
			continue
		}
		if !l.L.Off.isZero() || !l.R.Off.isZero() && l.R.Kind != KNum {
			result = cheapUnknown
			continue
		}
		a := u.find(u.id(l.L))
		if l.R.isConst() || l.R.Kind == KSlot {
			if u.has[a] {
				if u.val[a] != l.R {
					return cheapUnsat
				}
			} else {
				u.val[a], u.has[a] = l.R, true
			}
			continue
		}
		b := u.find(u.id(l.R))
		if a == b {
			continue
		}
		if u.has[a] && u.has[b] && u.val[a] != u.val[b] {
			return cheapUnsat
		}
		u.parent[a] = b
		if u.has[a] && !u.has[b] {
			u.val[b], u.has[b] = u.val[a], true
		}
	}
	for _, l := range lits {
		if l.L.Kind == KLin || l.R.Kind == KLin {
			continue
		}
		switch l.Op {
		case Eq:
		case Ne:
			if !l.R.Off.isZero() && l.R.Kind != KNum {
				result = cheapUnknown
				continue
			}
			va, oka := valueOf(l.L)
			vb, okb := valueOf(l.R)
			if oka && okb {
				if va == vb {
					return cheapUnsat
				}
				continue
			}
			if !l.R.isConst() && l.R.Kind != KSlot && u.find(u.id(l.L)) == u.find(u.id(l.R)) {
				return cheapUnsat
			}
			if !l.R.isConst() && l.R.Kind != KSlot {
				// disequality between unknowns: fine on infinite sorts
				if l.L.Sort.Kind == SBool || l.L.Sort.Kind == SEnum {
					result = cheapUnknown
				}
			}
		default:
			va, oka := valueOf(l.L)
			if oka && l.R.Kind == KNum && va.Kind == KNum {
				if !evalOp(l.Op, va, l.R) {
					return cheapUnsat
				}
				continue
			}
			result = cheapUnknown
		}
	}
	return result
}

// cheapCheckMaps is cheapCheck with the classes in maps keyed by terms.
func cheapCheckMaps(lits []Lit) cheapResult {
	sc := ufPool.Get().(*ufScratch)
	defer sc.release()
	uf := sc.uf
	var find func(t Term) Term
	find = func(t Term) Term {
		p, ok := uf[t]
		if !ok || p == t {
			return t
		}
		r := find(p)
		uf[t] = r
		return r
	}
	// value of a class: a constant or a slot
	val := sc.val
	valueOf := func(t Term) (Term, bool) {
		if t.isConst() || t.Kind == KSlot {
			return t, true
		}
		v, ok := val[find(t)]
		return v, ok
	}
	result := cheapSat
	for _, l := range lits {
		if l.L.Kind == KLin || l.R.Kind == KLin {
			result = cheapUnknown // Z3 decides
			continue
		}
		if l.Op != Eq {
			continue
		}
		if !l.L.Off.isZero() || !l.R.Off.isZero() && l.R.Kind != KNum {
			result = cheapUnknown
			continue
		}
		a := find(l.L)
		if l.R.isConst() || l.R.Kind == KSlot {
			if v, ok := val[a]; ok {
				if v != l.R {
					return cheapUnsat
				}
			} else {
				val[a] = l.R
			}
			continue
		}
		b := find(l.R)
		if a == b {
			continue
		}
		va, oka := val[a]
		vb, okb := val[b]
		if oka && okb && va != vb {
			return cheapUnsat
		}
		uf[a] = b
		if oka && !okb {
			val[b] = va
		}
	}
	for _, l := range lits {
		if l.L.Kind == KLin || l.R.Kind == KLin {
			continue
		}
		switch l.Op {
		case Eq:
		case Ne:
			if !l.R.Off.isZero() && l.R.Kind != KNum {
				result = cheapUnknown
				continue
			}
			va, oka := valueOf(l.L)
			vb, okb := valueOf(l.R)
			if oka && okb {
				if va == vb {
					return cheapUnsat
				}
				continue
			}
			if find(l.L) == find(l.R) && !l.R.isConst() && l.R.Kind != KSlot {
				return cheapUnsat
			}
			if !l.R.isConst() && l.R.Kind != KSlot {
				// disequality between unknowns: fine on infinite sorts
				if l.L.Sort.Kind == SBool || l.L.Sort.Kind == SEnum {
					result = cheapUnknown
				}
			}
		default:
			va, oka := valueOf(l.L)
			if oka && l.R.Kind == KNum && va.Kind == KNum {
				if !evalOp(l.Op, va, l.R) {
					return cheapUnsat
				}
				continue
			}
			result = cheapUnknown
		}
	}
	return result
}
