// Package gharachorloo is Musket's second, independent semantics of SC,
// TSO and PSO: the execution-order specifications of Gharachorloo's
// thesis ("Memory consistency models for shared-memory multiprocessors",
// Stanford, 1995) as Maleehuan, "Program Verification for Multiprocessors with
// Relaxed Memory Models using an SMT Solver" (JAIST 2018) presents them
// in Chapter 2 (Figures 2-9 and
// 2-10, and PSO in the text of Section 2.1).
//
// In this framework a read R of processor P_i has one sub-operation
// R(i); a write W has one sub-operation W(j) per processor P_j (its
// arrival in P_j's copy of memory). An execution is valid when a total
// order xo of all sub-operations exists that satisfies
//
//   - Condition 1: every sub-operation of every write appears;
//   - Condition 2 (return value): R(i) returns the value of the last
//     write of P_i before R in program order whose sub-operation W(i) is
//     after R(i) in xo (a read of a buffered write), or else of the last
//     write W' with W'(i) before R(i), or else the initial value;
//   - Condition 3 (atomicity of read-modify-write): a write of another
//     processor to the location comes before both halves of the pair at
//     every processor, or after both;
//   - the conditions (b) of the model: when X and Y conflict (same
//     location, one a write) and are the ends of one of
//     uniprocessor dependence   RW -po-> W
//     coherence                 W -co-> W
//     chains                    W -co'-> R -po-> RW
//     RW -spo-> {A -sco-> B -spo->}+ RW
//     W -sco-> R -spo-> {A -sco-> B -spo->}+ R
//     then X(i) -xo-> Y(i) for all i.
//
// Here co relates conflicting operations in the order xo performs them,
// co' is co between different processors, and X -sco-> Y when X -co'-> Y
// or X -co'-> W -co'-> Y for two reads X, Y. The models differ in spo:
//
//	SC   X -spo-> Y when X -po-> Y and X, Y access different locations
//	TSO  the transitive closure of R -po-> RW, W -po-> W,
//	     W -po-> MEMBAR(WR) -po-> R, and W(in RMW) -po-> R
//	PSO  as TSO, but W -po-> W only with a store barrier between:
//	     W -po-> STBAR -po-> W
//
// MEMBAR(WR) is a fence tagged StoreLoad (SPARC membar #StoreLoad) or
// MFENCE (x86); STBAR is a fence tagged StoreStore (stbar, membar
// #StoreStore), SFENCE, or an x86 MFENCE (a full fence: tagged MFENCE and
// not MEMBAR). The read and write of an atomic instruction (tag X) or of
// an exclusive pair (a load-reserve with its successful store-
// conditional) form the read-modify-write of Condition 3.
//
// The checker is explicit: it runs every thread symbolically (every
// control-flow path up to the loop bound, as package enum does), and for
// every choice of a coherence order and of the write each read returns it
// looks for an execution order. The coherence order and the reads fix co'
// except between a read that returns a buffered write S of its own
// processor and a write of another processor coherence-before S: both
// orders are tried. With co' fixed, spo, sco and the chains are fixed,
// every condition is a set of edges "this sub-operation before that one",
// and an execution order exists exactly when these edges have no cycle.
package gharachorloo

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/event"
)

// Model is one of the specifications.
type Model int

// The specifications.
const (
	SC Model = iota
	TSO
	PSO
)

func (m Model) String() string {
	switch m {
	case TSO:
		return "gharachorloo-tso"
	case PSO:
		return "gharachorloo-pso"
	}
	return "gharachorloo-sc"
}

// ParseModel reads "sc", "tso" or "pso" (any case).
func ParseModel(name string) (Model, error) {
	switch strings.ToLower(name) {
	case "sc":
		return SC, nil
	case "tso":
		return TSO, nil
	case "pso":
		return PSO, nil
	}
	return 0, fmt.Errorf("no Gharachorloo specification of %q (want sc, tso or pso)", name)
}

// matrix is a relation over the memory operations of a candidate.
type matrix [][]bool

func newMatrix(n int) matrix {
	m := make(matrix, n)
	for i := range m {
		m[i] = make([]bool, n)
	}
	return m
}

func (a matrix) seq(b matrix) matrix {
	n := len(a)
	c := newMatrix(n)
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			if !a[i][k] {
				continue
			}
			for j := 0; j < n; j++ {
				if b[k][j] {
					c[i][j] = true
				}
			}
		}
	}
	return c
}

func (a matrix) plus() matrix {
	n := len(a)
	c := newMatrix(n)
	for i := range a {
		copy(c[i], a[i])
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if !c[i][k] {
				continue
			}
			for j := 0; j < n; j++ {
				if c[k][j] {
					c[i][j] = true
				}
			}
		}
	}
	return c
}

// checker holds what one candidate's check needs.
type checker struct {
	model   Model
	c       *cand
	mem     []*op // the memory operations
	idx     map[int]int
	nproc   int
	po      matrix
	spo     matrix
	early   []bool // per mem op (reads): returns a buffered write of its own processor
	choice  map[[2]int]bool
	pending [][2]int // (read, write) pairs whose co' direction is a choice
}

// valid tells whether some execution order satisfies the specification
// for the candidate's coherence order and reads.
func (m Model) valid(c *cand) bool {
	k := &checker{model: m, c: c, idx: map[int]int{}, nproc: len(c.paths)}
	for _, o := range c.ops {
		if o.isMem() {
			k.idx[o.id] = len(k.mem)
			k.mem = append(k.mem, o)
		}
	}
	n := len(k.mem)
	k.po = newMatrix(n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if k.mem[a].thread == k.mem[b].thread {
				k.po[a][b] = true
			}
		}
	}
	k.spo = k.computeSpo()
	k.early = make([]bool, n)
	return k.chooseEarly(0)
}

// fenceBetween tells whether a fence satisfying f lies between ops a and
// b (program order, one thread).
func (k *checker) fenceBetween(a, b *op, f func(*pathEvent) bool) bool {
	for id := a.id + 1; id < b.id; id++ {
		o := k.c.ops[id]
		if o.ev.kind == event.Fence && f(o.ev) {
			return true
		}
	}
	return false
}

func isMembarWR(e *pathEvent) bool { return e.has("StoreLoad") || e.has("MFENCE") }

func isStbar(e *pathEvent) bool {
	return e.has("StoreStore") || e.has("SFENCE") || e.has("MFENCE") && !e.has("MEMBAR")
}

// inRMW tells whether mem op a is half of a read-modify-write.
func (k *checker) inRMW(a int) bool { return k.c.partner[k.mem[a].id] >= 0 }

func (k *checker) computeSpo() matrix {
	n := len(k.mem)
	s := newMatrix(n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if !k.po[a][b] {
				continue
			}
			x, y := k.mem[a], k.mem[b]
			switch k.model {
			case SC:
				s[a][b] = x.ev.loc != y.ev.loc
			default:
				switch {
				case x.isRead():
					s[a][b] = true
				case y.isWrite() && k.model == TSO:
					s[a][b] = true
				case y.isWrite():
					s[a][b] = k.fenceBetween(x, y, isStbar)
				default: // W po R
					s[a][b] = k.inRMW(a) || k.fenceBetween(x, y, isMembarWR)
				}
			}
		}
	}
	if k.model == SC {
		return s
	}
	return s.plus()
}

// chooseEarly decides, for each read of a write of its own processor,
// whether it returns the buffered write (R(i) before S(i)) or memory.
func (k *checker) chooseEarly(a int) bool {
	for ; a < len(k.mem); a++ {
		r := k.mem[a]
		if !r.isRead() {
			continue
		}
		src := k.c.rf[r.id]
		if src >= 0 && k.c.ops[src].thread == r.thread && src < r.id {
			k.early[a] = false
			if k.chooseEarly(a + 1) {
				return true
			}
			if !k.lastOwnWrite(r, src) {
				return false
			}
			k.early[a] = true
			ok := k.chooseEarly(a + 1)
			k.early[a] = false
			return ok
		}
	}
	return k.choosePending()
}

// lastOwnWrite tells whether src is the last write of r's processor to
// r's location before r in program order.
func (k *checker) lastOwnWrite(r *op, src int) bool {
	for id := src + 1; id < r.id; id++ {
		o := k.c.ops[id]
		if o.isWrite() && o.ev.loc == r.ev.loc {
			return false
		}
	}
	return true
}

// choosePending tries both orders of each undetermined (write, read)
// pair.
func (k *checker) choosePending() bool {
	k.pending = k.pending[:0]
	k.choice = map[[2]int]bool{}
	for a, r := range k.mem {
		if !r.isRead() || !k.early[a] {
			continue
		}
		s := k.c.rf[r.id]
		for _, w := range k.c.co[r.ev.loc] {
			if w == s {
				break
			}
			if k.c.ops[w].thread != r.thread {
				k.pending = append(k.pending, [2]int{k.idx[w], a})
			}
		}
	}
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(k.pending) {
			return k.acyclic()
		}
		for _, wFirst := range []bool{true, false} {
			k.choice[k.pending[i]] = wFirst
			if rec(i + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// coPrime is co' for a conflicting pair of operations of different
// processors: a before b in xo at the processor that decides it.
func (k *checker) coPrime() matrix {
	n := len(k.mem)
	cp := newMatrix(n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			x, y := k.mem[a], k.mem[b]
			if a == b || x.thread == y.thread || x.ev.loc != y.ev.loc {
				continue
			}
			switch {
			case x.isWrite() && y.isWrite():
				cp[a][b] = k.c.coPos[x.id] < k.c.coPos[y.id]
			case x.isWrite() && y.isRead():
				cp[a][b] = k.writeBeforeRead(a, b)
			case x.isRead() && y.isWrite():
				cp[a][b] = !k.writeBeforeRead(b, a)
			}
		}
	}
	return cp
}

// writeBeforeRead tells whether W(i) precedes R(i), i the processor of
// read r, for a write w of another processor.
func (k *checker) writeBeforeRead(w, r int) bool {
	wo, ro := k.mem[w], k.mem[r]
	src := k.c.rf[ro.id]
	switch {
	case src == -1:
		return false
	case src == wo.id:
		return true
	case !k.early[r]:
		return k.c.coPos[wo.id] < k.c.coPos[src]
	case k.c.coPos[src] < k.c.coPos[wo.id]:
		return false
	}
	return k.choice[[2]int{w, r}]
}

// graph is the precedence graph over sub-operations.
type graph struct {
	k    *checker
	node [][]int // per mem op: node of each processor (-1 none)
	adj  [][]int
}

func (k *checker) newGraph() *graph {
	g := &graph{k: k}
	count := 0
	for _, o := range k.mem {
		ns := make([]int, k.nproc)
		for i := range ns {
			ns[i] = -1
			if o.isWrite() || i == o.thread {
				ns[i] = count
				count++
			}
		}
		g.node = append(g.node, ns)
	}
	g.adj = make([][]int, count)
	return g
}

// before adds X(i) -> Y(i) for every processor i where both exist.
func (g *graph) before(a, b int) {
	for i := 0; i < g.k.nproc; i++ {
		x, y := g.node[a][i], g.node[b][i]
		if x >= 0 && y >= 0 {
			g.adj[x] = append(g.adj[x], y)
		}
	}
}

// at adds X(i) -> Y(i) for one processor i.
func (g *graph) at(a, b, i int) {
	x, y := g.node[a][i], g.node[b][i]
	if x >= 0 && y >= 0 {
		g.adj[x] = append(g.adj[x], y)
	}
}

func (g *graph) hasCycle() bool {
	color := make([]uint8, len(g.adj))
	var visit func(v int) bool
	visit = func(v int) bool {
		color[v] = 1
		for _, w := range g.adj[v] {
			if color[w] == 1 || color[w] == 0 && visit(w) {
				return true
			}
		}
		color[v] = 2
		return false
	}
	for v := range g.adj {
		if color[v] == 0 && visit(v) {
			return true
		}
	}
	return false
}

func (k *checker) conflict(a, b int) bool {
	x, y := k.mem[a], k.mem[b]
	return x.ev.loc == y.ev.loc && (x.isWrite() || y.isWrite())
}

// acyclic builds every constraint for the current choices and checks
// that an execution order exists.
func (k *checker) acyclic() bool {
	g := k.newGraph()
	cp := k.coPrime()
	k.coPrimeOrder(g, cp)
	if !k.returnValues(g) {
		return false
	}
	k.atomicity(g)
	k.uniprocessor(g)
	k.chains(g, cp)
	return !g.hasCycle()
}

// coPrimeOrder orders co' itself: the sub-operations that decide it.
func (k *checker) coPrimeOrder(g *graph, cp matrix) {
	n := len(k.mem)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if !cp[a][b] {
				continue
			}
			x, y := k.mem[a], k.mem[b]
			switch {
			case x.isWrite() && y.isWrite():
				g.before(a, b)
			case y.isRead():
				g.at(a, b, y.thread)
			default:
				g.at(a, b, x.thread)
			}
		}
	}
}

// returnValues is Condition 2, the return values of reads, with
// coherence (W co W at every processor); false when the choices give a
// read a value it cannot return.
func (k *checker) returnValues(g *graph) bool {
	for a, x := range k.mem {
		if x.isWrite() {
			for b, y := range k.mem {
				if y.isWrite() && x.ev.loc == y.ev.loc && k.c.coPos[x.id] < k.c.coPos[y.id] {
					g.before(a, b)
				}
			}
			continue
		}
		i := x.thread
		src := k.c.rf[x.id]
		for b, w := range k.mem {
			if !w.isWrite() || w.ev.loc != x.ev.loc {
				continue
			}
			own := w.thread == i && w.id < x.id
			switch {
			case k.early[a]:
				if w.id == src {
					g.at(a, b, i) // R(i) before the buffered S(i)
				} else if src >= 0 && k.c.coPos[src] < k.c.coPos[w.id] {
					g.at(a, b, i)
				}
			case src == -1:
				if own {
					return false
				}
				g.at(a, b, i)
			case w.id == src:
				g.at(b, a, i)
			case k.c.coPos[w.id] < k.c.coPos[src]:
				g.at(b, a, i)
			default:
				if own {
					return false
				}
				g.at(a, b, i)
			}
			if !k.early[a] && own {
				g.at(b, a, i)
			}
		}
	}
	return true
}

// atomicity is Condition 3: the atomicity of read-modify-writes.
func (k *checker) atomicity(g *graph) {
	for a, r := range k.mem {
		wid := k.c.partner[r.id]
		if !r.isRead() || wid < 0 {
			continue
		}
		for b, w2 := range k.mem {
			if w2.isWrite() && w2.thread != r.thread && w2.ev.loc == r.ev.loc && k.c.coPos[w2.id] < k.c.coPos[wid] {
				g.at(b, a, r.thread)
			}
		}
	}
}

// uniprocessor is the uniprocessor dependence: RW -po-> W on one location.
func (k *checker) uniprocessor(g *graph) {
	n := len(k.mem)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if k.po[a][b] && k.mem[b].isWrite() && k.conflict(a, b) {
				g.before(a, b)
			}
		}
	}
}

// chains are the multiprocessor dependence chains.
func (k *checker) chains(g *graph, cp matrix) {
	n := len(k.mem)
	sco := newMatrix(n)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if cp[a][b] {
				sco[a][b] = true
				continue
			}
			if !k.mem[a].isRead() || !k.mem[b].isRead() {
				continue
			}
			for w := 0; w < n; w++ {
				if cp[a][w] && cp[w][b] && k.mem[w].isWrite() {
					sco[a][b] = true
					break
				}
			}
		}
	}
	tail := sco.seq(k.spo).plus() // {A -sco-> B -spo->}+
	chain2 := k.spo.seq(tail)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a == b || !k.conflict(a, b) {
				continue
			}
			x, y := k.mem[a], k.mem[b]
			hold := chain2[a][b]
			if !hold && x.isWrite() && y.isRead() {
				// W -sco-> R -spo-> {A sco B spo}+ R
				for r := 0; r < n && !hold; r++ {
					if !sco[a][r] || !k.mem[r].isRead() {
						continue
					}
					for s := 0; s < n; s++ {
						if k.spo[r][s] && tail[s][b] {
							hold = true
							break
						}
					}
				}
			}
			if !hold && x.isWrite() {
				// W -co'-> R -po-> RW
				for r := 0; r < n; r++ {
					if cp[a][r] && k.mem[r].isRead() && k.po[r][b] {
						hold = true
						break
					}
				}
			}
			if hold {
				g.before(a, b)
			}
		}
	}
}
