package graph

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
)

// Native consistency checks. For the built-in models sc, tso, pso and
// rc11 the engine decides consistency with hand-written checks over the
// graph rather than by evaluating the CAT model: each check states the
// model's axioms (internal/cat/models/*.cat) directly on po, rf and co.
// The CAT model stays the reference: Options.CrossCheck evaluates both
// on every graph and fails the run on any disagreement (the tests run
// it on the corpus). A model loaded from a file, even one named rc11,
// is always evaluated by the CAT interpreter.

// nativeModel is a model the engine checks natively.
type nativeModel int

const (
	nativeNone nativeModel = iota
	nativeSC
	nativeTSO
	nativePSO
	nativeRC11
)

// nativeFor is the native check of m, nativeNone when m is not one of
// the built-in models the engine checks natively.
func nativeFor(m *cat.Model) nativeModel {
	switch strings.TrimSuffix(m.Path(), ".cat") {
	case "builtin:sc":
		return nativeSC
	case "builtin:tso", "builtin:x86tso":
		return nativeTSO
	case "builtin:pso":
		return nativePSO
	case "builtin:rc11":
		return nativeRC11
	}
	return nativeNone
}

// bitm is a square boolean matrix over the events of a graph, one
// bitset row per event.
type bitm struct {
	n, w int
	b    []uint64
}

func (m *bitm) reset(n int) {
	m.n, m.w = n, (n+63)/64
	if cap(m.b) < n*m.w {
		m.b = make([]uint64, n*m.w)
	}
	m.b = m.b[:n*m.w]
	clear(m.b)
}

func (m *bitm) row(i int) []uint64 { return m.b[i*m.w : (i+1)*m.w] }
func (m *bitm) set(i, j int)       { m.b[i*m.w+j>>6] |= 1 << (uint(j) & 63) }
func (m *bitm) has(i, j int) bool  { return m.b[i*m.w+j>>6]&(1<<(uint(j)&63)) != 0 }

func bitHas(s []uint64, j int) bool { return s[j>>6]&(1<<(uint(j)&63)) != 0 }
func bitSet(s []uint64, j int)      { s[j>>6] |= 1 << (uint(j) & 63) }

// eachBit calls f for each member of s.
func eachBit(s []uint64, f func(int)) {
	for x, w := range s {
		for w != 0 {
			f(x<<6 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// checker holds the scratch space of the native checks (reused from
// graph to graph).
type checker struct {
	n       int
	g       *graph
	mask    []uint32 // the tags of each event
	tagN    []string // TagNames
	copos   []int    // coherence position of each write
	ponum   []int    // position in its thread
	readers [][]int  // the reads of each write
	rmwOf   []int    // a read-modify-write's read: its write (-1 otherwise)
	adj     [][]int
	color   []uint8
	stack   [][2]int
	order   []int   // the events in the order acyclic finished them (successors first)
	sw      [][]int // rc11's sw, as lists of successors
	order2  []int
	seen    []int // rc11's release sequences: visited when equal to gen
	gen     int
	starts  []int
	ws      []int
	hb, eco bitm
	tmp     []uint64
	// psc's scratch
	pscBuf  []uint64
	pscMade []int
	// rc11VC's vector clocks (vcT per event) and scratch; vcMode says
	// the last rc11 check computed them rather than the matrix hb.
	vc     []int32
	vcT    int
	vcMode bool
	anySC  bool
	accs   [][]acc
	// locN numbers the location of each write (prepare), coL gives the
	// coherence order of each location by its number.
	locN []int
	coL  [][]int
	rs   []int
}

// prepare fills the per-graph tables.
func (c *checker) prepare(g *graph) {
	n := len(g.evs)
	c.n, c.g = n, g
	c.copos = resize(c.copos, n)
	c.ponum = resize(c.ponum, n)
	c.rmwOf = resize(c.rmwOf, n)
	if cap(c.readers) < n {
		c.readers = make([][]int, n)
	}
	c.readers = c.readers[:n]
	for i := range c.readers {
		c.readers[i] = c.readers[i][:0]
		c.copos[i] = -1
		c.ponum[i] = -1
		c.rmwOf[i] = -1
	}
	c.locN = resize(c.locN, n)
	c.coL = c.coL[:0]
	for _, o := range g.co {
		for k, y := range o {
			c.copos[y] = k
			c.locN[y] = len(c.coL)
		}
		c.coL = append(c.coL, o)
	}
	for _, th := range g.threads {
		for k, y := range th {
			c.ponum[y] = k
			if k > 0 && g.evs[y].rmwW && g.evs[th[k-1]].rmwR {
				c.rmwOf[th[k-1]] = y
			}
		}
	}
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Read && e.rf >= 0 {
			c.readers[e.rf] = append(c.readers[e.rf], i)
		}
	}
	c.masks()
}

func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

// The tags the native checks read, as bits of checker.mask.
const (
	tRLX uint32 = 1 << iota
	tREL
	tACQREL
	tACQ
	tSC
	tA
	tX
	tMFENCE
	tMEMBAR
	tStoreStore
	tSFENCE
	tStoreLoad
)

// tagBit is the bit of tag t (0: a tag the native checks do not read);
// a switch, not a map: it runs for every event a thread adds.
func tagBit(t string) uint32 {
	switch t {
	case "RLX":
		return tRLX
	case "REL":
		return tREL
	case "ACQ_REL":
		return tACQREL
	case "ACQ":
		return tACQ
	case "SC":
		return tSC
	case "A":
		return tA
	case "X":
		return tX
	case "MFENCE":
		return tMFENCE
	case "MEMBAR":
		return tMEMBAR
	case "StoreStore":
		return tStoreStore
	case "SFENCE":
		return tSFENCE
	case "StoreLoad":
		return tStoreLoad
	}
	return 0
}

// masks fills c.mask with the tags of each event. The set the models
// name A is, as event.Static binds it, the events tagged A, or, when no
// event carries A and the front-end does not name it, its alias X
// (event.TagAliases).
func (c *checker) masks() {
	g := c.g
	c.mask = c.mask[:0]
	anyA := false
	c.anySC = false
	for _, t := range c.tagN {
		if t == "A" {
			anyA = true
		}
	}
	for i := range g.evs {
		m := g.evs[i].mask
		anyA = anyA || m&tA != 0
		c.anySC = c.anySC || m&tSC != 0
		c.mask = append(c.mask, m)
	}
	if !anyA && event.TagAliases["A"] == "X" {
		for i, m := range c.mask {
			if m&tX != 0 {
				c.mask[i] |= tA
			}
		}
	}
}

// tagMask is the bits of tags.
func tagMask(tags []string) uint32 {
	var m uint32
	for _, t := range tags {
		m |= tagBit(t)
	}
	return m
}

// has tells whether e carries one of the tags of bits.
// rsStarts appends to starts where the release sequence of the write w
// starts: w itself if it is atomic, and the atomic writes sb-after it to
// its location (the rf ; rmw steps are the caller's).
func (c *checker) rsStarts(w int, starts []int) []int {
	g := c.g
	if c.atLeastRlxW(w) {
		starts = append(starts, w)
	}
	if t := g.evs[w].thread; t >= 0 {
		th := g.threads[t]
		for k := c.ponum[w] + 1; k < len(th); k++ {
			if y := th[k]; c.isW(y) && g.evs[y].loc == g.evs[w].loc && c.atLeastRlxW(y) {
				starts = append(starts, y)
			}
		}
	}
	return starts
}

// synchronisesWith calls add(a, x) for each pair of rc11's sw: a is a
// release write or fence, x an acquire read that reads from a write of
// the release sequence of a (a itself, or for a fence the writes sb-after
// it) or an acquire fence sb-after an atomic read that does. A release
// sequence is the atomic writes sb-after its head to its location, then
// rf ; rmw steps.
func (c *checker) synchronisesWith(add func(a, x int)) {
	g := c.g
	c.seen = resize(c.seen, c.n)
	atLeastRlxR := func(e int) bool { return c.isR(e) && c.has(e, tRLX|tREL|tACQ|tACQREL|tSC) }
	atLeastAcq := func(e int) bool { return c.has(e, tACQ|tACQREL|tSC) }
	for a := range g.evs {
		if !c.has(a, tREL|tACQREL|tSC) || g.evs[a].thread < 0 {
			continue
		}
		ws := c.ws[:0]
		if c.isW(a) {
			ws = append(ws, a)
		}
		if c.isF(a) {
			th := g.threads[g.evs[a].thread]
			for k := c.ponum[a] + 1; k < len(th); k++ {
				if c.isW(th[k]) {
					ws = append(ws, th[k])
				}
			}
		}
		c.ws = ws
		for _, w := range ws {
			c.gen++
			starts := c.rsStarts(w, c.rs[:0])
			for len(starts) > 0 {
				x := starts[len(starts)-1]
				starts = starts[:len(starts)-1]
				if c.seen[x] == c.gen {
					continue
				}
				c.seen[x] = c.gen
				for _, r := range c.readers[x] {
					if w2 := c.rmwOf[r]; w2 >= 0 {
						starts = append(starts, w2)
					}
					if !atLeastRlxR(r) {
						continue
					}
					if atLeastAcq(r) {
						add(a, r)
					}
					tr := g.threads[g.evs[r].thread]
					for k := c.ponum[r] + 1; k < len(tr); k++ {
						if f := tr[k]; c.isF(f) && atLeastAcq(f) {
							add(a, f)
						}
					}
				}
			}
			c.rs = starts[:0]
		}
	}
}

// atLeastRlxW tells whether e is an atomic write (relaxed or stronger).
func (c *checker) atLeastRlxW(e int) bool {
	return c.isW(e) && c.has(e, tRLX|tREL|tACQREL|tACQ|tSC)
}

func (c *checker) has(e int, bits uint32) bool { return c.mask[e]&bits != 0 }

// isMem tells whether e is a read or a write.
func (c *checker) isMem(e int) bool {
	k := c.g.evs[e].kind
	return k == event.Read || k == event.Write
}

func (c *checker) isR(e int) bool { return c.g.evs[e].kind == event.Read }
func (c *checker) isW(e int) bool { return c.g.evs[e].kind == event.Write }
func (c *checker) isF(e int) bool { return c.g.evs[e].kind == event.Fence }

// ext tells whether a and b are of different threads (an initial write
// is of no thread: external to every other event).
func (c *checker) ext(a, b int) bool {
	ta, tb := c.g.evs[a].thread, c.g.evs[b].thread
	return a != b && (ta < 0 || tb < 0 || ta != tb)
}

// coNext is the write right after w in coherence (-1: none).
func (c *checker) coNext(w int) int {
	o := c.g.co[c.g.evs[w].loc]
	if p := c.copos[w]; p >= 0 && p+1 < len(o) {
		return o[p+1]
	}
	return -1
}

// atomic is the axiom rmw & (fre ; coe) empty (sc, tso, pso): no write
// of another thread between a read-modify-write's read's write and its
// write in coherence.
func (c *checker) atomic() bool {
	g := c.g
	for r, w := range c.rmwOf {
		if w < 0 || c.copos[w] < 0 {
			continue
		}
		lo, hi := c.copos[g.evs[r].rf], c.copos[w]
		o := c.coL[c.locN[w]]
		for p := lo + 1; p < hi; p++ {
			if y := o[p]; c.ext(r, y) && c.ext(y, w) {
				return false
			}
		}
	}
	return true
}

// rbAtomic is rc11's rmw & (rb ; mo) empty: no write at all between.
func (c *checker) rbAtomic() bool {
	g := c.g
	for r, w := range c.rmwOf {
		if w < 0 || c.copos[w] < 0 {
			continue
		}
		lo, hi := c.copos[g.evs[r].rf], c.copos[w]
		o := c.coL[c.locN[w]]
		for p := lo + 1; p < hi; p++ {
			if o[p] != r {
				return false
			}
		}
	}
	return true
}

// edges starts a fresh edge list for an acyclicity test.
func (c *checker) edges() {
	if cap(c.adj) < c.n {
		c.adj = make([][]int, c.n)
	}
	c.adj = c.adj[:c.n]
	for i := range c.adj {
		c.adj[i] = c.adj[i][:0]
	}
}

func (c *checker) edge(a, b int) { c.adj[a] = append(c.adj[a], b) }

// com adds rf (rfe only when external), co (consecutive pairs, whose
// closure is co) and fr (each read to the write after its write, whose
// closure with co is fr).
func (c *checker) com(rfeOnly bool) {
	g := c.g
	for _, o := range g.co {
		for k := 1; k < len(o); k++ {
			c.edge(o[k-1], o[k])
		}
	}
	for r := range g.evs {
		e := &g.evs[r]
		if e.kind != event.Read || e.rf < 0 {
			continue
		}
		if !rfeOnly || c.ext(e.rf, r) {
			c.edge(e.rf, r)
		}
		if nx := c.coNext(e.rf); nx >= 0 && nx != r {
			c.edge(r, nx)
		}
	}
}

// acyclic tells whether the edges added since edges() have no cycle.
func (c *checker) acyclic() bool {
	c.color = c.color[:0]
	c.order = c.order[:0]
	for range c.n {
		c.color = append(c.color, 0)
	}
	stack := c.stack[:0]
	defer func() { c.stack = stack[:0] }()
	for s := 0; s < c.n; s++ {
		if c.color[s] != 0 {
			continue
		}
		c.color[s] = 1
		stack = append(stack[:0], [2]int{s, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			v := top[0]
			if top[1] < len(c.adj[v]) {
				u := c.adj[v][top[1]]
				top[1]++
				switch c.color[u] {
				case 1:
					return false
				case 0:
					c.color[u] = 1
					stack = append(stack, [2]int{u, 0})
				}
				continue
			}
			c.color[v] = 2
			c.order = append(c.order, v)
			stack = stack[:len(stack)-1]
		}
	}
	return true
}

// consistent decides g under model k; flags, when not nil, gets the
// flags the model raises (rc11's data-race).
func (c *checker) consistent(k nativeModel, g *graph, flags *[]string) bool {
	c.prepare(g)
	switch k {
	case nativeSC:
		return c.sc()
	case nativeTSO:
		return c.tso()
	case nativePSO:
		return c.pso()
	case nativeRC11:
		if !c.anySC {
			return c.rc11VC(flags)
		}
		return c.rc11(flags)
	}
	panic("graph: no native check")
}

// sc: atomic, and po ∪ com acyclic.
func (c *checker) sc() bool {
	if !c.atomic() {
		return false
	}
	c.edges()
	for _, th := range c.g.threads {
		for k := 1; k < len(th); k++ {
			c.edge(th[k-1], th[k])
		}
	}
	c.com(false)
	return c.acyclic()
}

// uniproc is acyclic (po-loc ∪ com).
func (c *checker) uniproc() bool {
	g := c.g
	c.edges()
	last := map[string]int{}
	for _, th := range g.threads {
		clear(last)
		for _, y := range th {
			if !c.isMem(y) {
				continue
			}
			l := g.evs[y].loc
			if p, ok := last[l]; ok {
				c.edge(p, y)
			}
			last[l] = y
		}
	}
	c.com(false)
	return c.acyclic()
}

// tso: uniproc, atomic, and ghb = ppo | mfence | implied | rfe | co | fr
// acyclic (tso.cat).
func (c *checker) tso() bool {
	if !c.uniproc() || !c.atomic() {
		return false
	}
	c.edges()
	g := c.g
	for _, th := range g.threads {
		for a := 0; a < len(th); a++ {
			x := th[a]
			fenced := false // an MFENCE po-between x and y
			for b := a + 1; b < len(th); b++ {
				y := th[b]
				in := fenced
				if c.isMem(x) && c.isMem(y) && !(c.isW(x) && c.isR(y)) {
					in = true // ppo
				}
				if c.isW(x) && c.isR(y) && (c.has(x, tX) || c.has(y, tX)) {
					in = true // implied
				}
				if in {
					c.edge(x, y)
				}
				if c.has(y, tMFENCE) {
					fenced = true
				}
			}
		}
	}
	c.com(true)
	return c.acyclic()
}

// pso: uniproc, atomic, and ghb = ppo | fence | rfe | co | fr acyclic
// (pso.cat).
func (c *checker) pso() bool {
	if !c.uniproc() || !c.atomic() {
		return false
	}
	c.edges()
	g := c.g
	for _, th := range g.threads {
		for a := 0; a < len(th); a++ {
			x := th[a]
			var full, ss, sl bool // a fence of each kind po-between x and y
			for b := a + 1; b < len(th); b++ {
				y := th[b]
				in := false
				if c.isR(x) && c.isMem(y) {
					in = true
				}
				if c.isW(x) && c.has(x, tX) && c.isR(y) {
					in = true
				}
				if full && c.isMem(x) && c.isMem(y) {
					in = true
				}
				if ss && c.isW(x) && c.isW(y) {
					in = true
				}
				if sl && c.isW(x) && c.isR(y) {
					in = true
				}
				if in {
					c.edge(x, y)
				}
				if c.has(y, tMFENCE) && !c.has(y, tMEMBAR) {
					full = true
				}
				if c.has(y, tStoreStore) || c.has(y, tSFENCE) {
					ss = true
				}
				if c.has(y, tStoreLoad) {
					sl = true
				}
			}
		}
	}
	c.com(true)
	return c.acyclic()
}

// rc11 checks the axioms of rc11.cat: coherence (hb ; eco? irreflexive),
// the two atomicity axioms, sc (psc acyclic, when there are SC events)
// and no-thin-air (sb ∪ rf acyclic); flags gets data-race when a race
// exists.
func (c *checker) rc11(flags *[]string) bool {
	g := c.g
	n := c.n
	c.vcMode = false
	if !c.rbAtomic() {
		return false
	}
	// no-thin-air
	c.edges()
	for _, th := range g.threads {
		for k := 1; k < len(th); k++ {
			c.edge(th[k-1], th[k])
		}
	}
	for r := range g.evs {
		if e := &g.evs[r]; e.kind == event.Read && e.rf >= 0 {
			c.edge(e.rf, r)
		}
	}
	if !c.acyclic() {
		return false
	}

	// hb = (sb | sw)+, computed below in the order of po ∪ rf (sw ⊆
	// (po ∪ rf)+), successors first.
	hb := &c.hb
	c.order2 = append(c.order2[:0], c.order...)
	order := c.order2
	if cap(c.sw) < n {
		c.sw = make([][]int, n)
	}
	c.sw = c.sw[:n]
	for i := range c.sw {
		c.sw[i] = c.sw[i][:0]
	}
	c.synchronisesWith(func(a, x int) { c.sw[a] = append(c.sw[a], x) })
	hb.reset(n)
	for _, v := range order {
		rv := hb.row(v)
		join := func(u int) {
			bitSet(rv, u)
			for x, w := range hb.row(u) {
				rv[x] |= w
			}
		}
		if e := &g.evs[v]; e.thread >= 0 {
			if k := c.ponum[v] + 1; k < len(g.threads[e.thread]) {
				join(g.threads[e.thread][k])
			}
		}
		for _, u := range c.sw[v] {
			join(u)
		}
	}
	for i := 0; i < n; i++ {
		if hb.has(i, i) {
			return false
		}
	}
	eco := c.ecoMatrix()
	// coherence: no hb(a, b) with eco(b, a); atomicity-rmw: no eco(w, r)
	// for rmw(r, w).
	for b := 0; b < n; b++ {
		row := eco.row(b)
		bad := false
		eachBit(row, func(a int) {
			if hb.has(a, b) {
				bad = true
			}
		})
		if bad {
			return false
		}
	}
	for r, w := range c.rmwOf {
		if w >= 0 && eco.has(w, r) {
			return false
		}
	}
	if !c.psc() {
		return false
	}
	if flags != nil && c.race() {
		*flags = append(*flags, "data-race")
	}
	return true
}

// ecoMatrix fills c.eco with eco = rf | mo | rb | (mo | rb) ; rf (the
// same relation as imm.cat's rf | mo ; rf? | fr ; rf?).
func (c *checker) ecoMatrix() *bitm {
	g, n := c.g, c.n
	eco := &c.eco
	eco.reset(n)
	for _, o := range g.co {
		for a := 0; a < len(o); a++ {
			for b := a + 1; b < len(o); b++ {
				eco.set(o[a], o[b])
				for _, r := range c.readers[o[b]] {
					eco.set(o[a], r)
				}
			}
		}
	}
	for r := range g.evs {
		e := &g.evs[r]
		if e.kind != event.Read || e.rf < 0 {
			continue
		}
		eco.set(e.rf, r)
		o := g.co[e.loc]
		for p := c.copos[e.rf] + 1; p < len(o); p++ {
			if y := o[p]; y != r {
				eco.set(r, y)
				for _, r2 := range c.readers[y] {
					eco.set(r, r2)
				}
			}
		}
	}
	return eco
}

// psc: acyclic psc-base | psc-fence over the SC events (c.hb and c.eco
// hold hb and eco, rows of successors). Rows are taken word by word: hb
// is closed under sb, so the hb-successors of the events sb-after x are
// those of the first of them (and it).
func (c *checker) psc() bool {
	g := c.g
	n := c.n
	hb, eco := &c.hb, &c.eco
	w := (n + 63) / 64
	// scratch: the SC events, the SC fences, two rows, and per event its
	// sb-successors of other locations (sbdl, made on first use).
	c.pscBuf = resizeWords(c.pscBuf, (4+n)*w)
	clear(c.pscBuf[:4*w])
	isSC, isFsc, mid, row := c.pscBuf[:w], c.pscBuf[w:2*w], c.pscBuf[2*w:3*w], c.pscBuf[3*w:4*w]
	sbdl := c.pscBuf[4*w:]
	c.pscMade = resize(c.pscMade, n)
	clear(c.pscMade)
	var scs []int
	anyF := false
	for e := range g.evs {
		if c.has(e, tSC) {
			scs = append(scs, e)
			bitSet(isSC, e)
			if c.isF(e) {
				bitSet(isFsc, e)
				anyF = true
			}
		}
	}
	if len(scs) == 0 {
		return true
	}
	sameLoc := func(a, b int) bool {
		la, lb := g.evs[a].loc, g.evs[b].loc
		return la != "" && la == lb
	}
	or := func(dst, src []uint64) {
		for k := range dst {
			dst[k] |= src[k]
		}
	}
	// sbdlOf(z): the events sb-after z at another location.
	sbdlOf := func(z int) []uint64 {
		r := sbdl[z*w : (z+1)*w]
		if c.pscMade[z] == 0 {
			c.pscMade[z] = 1
			clear(r)
			if t := g.evs[z].thread; t >= 0 {
				th := g.threads[t]
				for k := c.ponum[z] + 1; k < len(th); k++ {
					if u := th[k]; !sameLoc(z, u) {
						bitSet(r, u)
					}
				}
			}
		}
		return r
	}
	// scbRow(x) adds scb's row of x to out: sb | sb-diff-loc ; hb ;
	// sb-diff-loc | hb-loc | mo | rb.
	scbRow := func(x int, out []uint64) {
		if t := g.evs[x].thread; t >= 0 {
			th := g.threads[t]
			first := -1
			for k := c.ponum[x] + 1; k < len(th); k++ {
				y := th[k]
				bitSet(out, y) // sb
				if first < 0 && !sameLoc(x, y) {
					first = y
				}
			}
			if first >= 0 {
				// sb-diff-loc ; hb ; sb-diff-loc: the hb-successors of
				// the events sb-after x at another location are first's
				// (those after first are among them).
				eachBit(hb.row(first), func(z int) { or(out, sbdlOf(z)) })
			}
		}
		eachBit(hb.row(x), func(y int) {
			if sameLoc(x, y) {
				bitSet(out, y)
			}
		})
		e := &g.evs[x]
		if e.kind == event.Write {
			o := g.co[e.loc]
			for p := c.copos[x] + 1; p < len(o); p++ {
				bitSet(out, o[p])
			}
		}
		if e.kind == event.Read && e.rf >= 0 {
			o := g.co[e.loc]
			for p := c.copos[e.rf] + 1; p < len(o); p++ {
				if o[p] != x {
					bitSet(out, o[p])
				}
			}
		}
	}
	c.edges()
	for _, a := range scs {
		fa := bitHas(isFsc, a)
		// left: [SC] | [Fsc] ; hb?
		clear(mid)
		scbRow(a, mid)
		if fa {
			eachBit(hb.row(a), func(y int) { scbRow(y, mid) })
		}
		// right: [SC] | hb? ; [Fsc]
		for k := range row {
			row[k] = mid[k] & isSC[k]
		}
		if anyF {
			eachBit(mid, func(b int) {
				for k, x := range hb.row(b) {
					row[k] |= x & isFsc[k]
				}
			})
		}
		if fa {
			// psc-fence: [Fsc] ; (hb | hb ; eco ; hb) ; [Fsc]
			eachBit(hb.row(a), func(y int) {
				if bitHas(isFsc, y) {
					bitSet(row, y)
				}
				eachBit(eco.row(y), func(z int) {
					for k, x := range hb.row(z) {
						row[k] |= x & isFsc[k]
					}
				})
			})
		}
		eachBit(row, func(b int) { c.edge(a, b) })
	}
	return c.acyclic()
}

// hbHas tells whether a happens before b, by the last rc11 check.
func (c *checker) hbHas(a, b int) bool {
	if c.vcMode {
		return c.hbVC(a, b)
	}
	return c.hb.has(a, b)
}

// race: two conflicting accesses of different threads, not both atomic,
// not ordered by hb (the initial writes excepted).
func (c *checker) race() bool {
	g := c.g
	for a := range g.evs {
		ea := &g.evs[a]
		if ea.thread < 0 || !c.isMem(a) {
			continue
		}
		for b := a + 1; b < len(g.evs); b++ {
			eb := &g.evs[b]
			if eb.thread < 0 || !c.isMem(b) || eb.thread == ea.thread || eb.loc != ea.loc {
				continue
			}
			if !c.isW(a) && !c.isW(b) {
				continue
			}
			if c.has(a, tA) && c.has(b, tA) {
				continue
			}
			if c.hbHas(a, b) || c.hbHas(b, a) {
				continue
			}
			return true
		}
	}
	return false
}

// consistent decides g under the model: natively when the model is one
// the engine checks natively (both ways, compared, under
// Options.CrossCheck), else by evaluating the CAT model. flags, when not
// nil, gets the flags of the accepted outcome.
func (x *engine) consistent(g *graph, flags *[]string) (bool, error) {
	if x.native == nativeNone {
		return x.catConsistent(g, flags)
	}
	if x.ctx.Err() != nil {
		return false, errDeadline
	}
	var nf []string
	nfp := &nf
	if flags == nil {
		nfp = nil
	}
	x.chk.tagN = x.opts.TagNames
	ok := x.chk.consistent(x.native, g, nfp)
	if x.opts.CrossCheck {
		var cf []string
		cfp := &cf
		if flags == nil {
			cfp = nil
		}
		want, err := x.catConsistent(g, cfp)
		if err != nil {
			return false, err
		}
		if want != ok || want && !sameFlags(nf, cf) {
			return false, fmt.Errorf("internal error: the native check of %s says consistent=%v flags=%v, the CAT model consistent=%v flags=%v, on %s",
				x.res.Model, ok, nf, want, cf, x.dump(g))
		}
		if flags != nil {
			*flags = append(*flags, nf...)
		}
		return ok, nil
	}
	x.countGraph(g)
	if flags != nil {
		*flags = append(*flags, nf...)
	}
	return ok, nil
}

func sameFlags(a, b []string) bool {
	set := func(s []string) map[string]bool {
		m := map[string]bool{}
		for _, f := range s {
			m[f] = true
		}
		return m
	}
	sa, sb := set(a), set(b)
	if len(sa) != len(sb) {
		return false
	}
	for f := range sa {
		if !sb[f] {
			return false
		}
	}
	return true
}

// dump prints g for an error message.
func (x *engine) dump(g *graph) string {
	var b strings.Builder
	for i := range g.evs {
		e := &g.evs[i]
		fmt.Fprintf(&b, "[%d t%d %v %s=%v %v rf=%d]", i, e.thread, e.kind, e.loc, e.val, e.tags, e.rf)
	}
	for l, o := range g.co {
		fmt.Fprintf(&b, " co[%s]=%v", l, o)
	}
	return b.String()
}

// nativeFlags gives the flags of g, which the native check has just found
// consistent (nothing changed g since): rc11's data-race from the hb
// that check computed. It returns false when it cannot (a model checked
// by the CAT model, or under CrossCheck): the caller checks g again.
func (x *engine) nativeFlags(g *graph, flags *[]string) bool {
	if x.imm {
		return x.immFlags(g, flags)
	}
	if x.native == nativeNone || x.opts.CrossCheck || x.chk.g != g || x.chk.n != len(g.evs) {
		return false
	}
	if x.native == nativeRC11 && x.chk.race() {
		*flags = append(*flags, "data-race")
	}
	return true
}
