package param

import (
	"hash/maphash"
	"slices"
	"sync/atomic"
)

// This file is the fixpoint test: is a cube covered by the visited ones,
// up to a renaming of processes and events? First a syntactic test (every
// literal, event and ghb pair of a visited cube is in the new cube after
// renaming); then, when arithmetic is involved, the solver (decide.go,
// then Z3) decides whether the new cube implies the disjunction of the renamed visited cubes whose
// non-arithmetic part matches.

// shape hashes a literal without its slots and nodes. (It mixes the
// fields itself: hash/maphash's writer cost more than the fixpoint
// test's matching on small searches.)
func shape(l Lit) uint64 {
	h := mix64(uint64(l.Op) + 0x9e3779b97f4a7c15)
	h = shapeTerm(h, l.L)
	return shapeTerm(h, l.R)
}

func shapeMix(h, x uint64) uint64 { return mix64(h ^ (x + 0x632be59bd9b4e019)) }

func shapeTerm(h uint64, t Term) uint64 {
	if t.Kind == KLin {
		// the products without their slots
		h = shapeMix(h, uint64(KLin)|1<<40)
		for _, p := range linSum(t) {
			h = shapeMix(h, uint64(p.Coef.Num))
			h = shapeMix(h, uint64(p.Coef.Den))
			h = shapeTerm(h, p.Atom)
		}
		h = shapeMix(h, uint64(t.Off.Num))
		return shapeMix(h, uint64(t.Off.Den))
	}
	x := uint64(t.Kind) | uint64(t.Sort.Kind)<<8 | uint64(uint32(t.Sort.Enum))<<16 | uint64(uint8(t.NArgs))<<48
	h = shapeMix(h, x)
	if t.Kind != KSlot {
		h = shapeMix(h, uint64(uint32(t.Sym)))
	}
	h = shapeMix(h, uint64(t.Off.Num))
	return shapeMix(h, uint64(t.Off.Den))
}

// matchIndex is the extended literal set of a cube (its literals, their
// mirrored forms and simple consequences) indexed by shape.
type matchIndex struct {
	byShape map[uint64][]Lit
	bloom   uint64
	// shapes: the keys of byShape that hold literals (indexInto empties
	// their lists for the next cube; the other keys have empty lists)
	shapes []uint64
}

func (e *engine) index(c *Cube) *matchIndex {
	return e.indexInto(c, &matchIndex{byShape: map[uint64][]Lit{}})
}

// indexInto makes the index of c in m, whose map and lists it reuses.
// The fixpoint test indexes every new cube and keeps none of these
// indexes: it builds them in the engine's idxScratch.
func (e *engine) indexInto(c *Cube, m *matchIndex) *matchIndex {
	for _, s := range m.shapes {
		m.byShape[s] = m.byShape[s][:0]
	}
	m.shapes, m.bloom = m.shapes[:0], 0
	add := func(l Lit, s uint64) {
		ls := m.byShape[s]
		if len(ls) == 0 {
			m.shapes = append(m.shapes, s)
		}
		m.byShape[s] = append(ls, l)
		m.bloom |= 1 << (s % 64)
	}
	for _, l := range c.Lits {
		add(l, shape(l))
		if !l.R.isConst() {
			// mirrored: x op y+k  <=>  y op' x-k
			r := l.R.base()
			lft := l.L
			lft.Off = l.R.Off.neg()
			var ml Lit
			if lft.Off.isZero() {
				ml = Lit{Op: l.Op.flip(), L: r, R: l.L}
			} else {
				ml = Lit{Op: l.Op.flip(), L: r, R: lft}
			}
			add(ml, shape(ml))
		}
		if l.Op == Eq && (l.R.Kind == KEnum || l.R.Kind == KSlot && l.L.isAtom()) {
			// the disequalities with the other constructors or slots:
			// their shapes share the part of Ne and l.L (shapeNe)
			h := shapeNe(l.L)
			if l.R.Kind == KEnum {
				for k := range e.sys.Enums[l.R.Sort.Enum].Ctors {
					if int32(k) != l.R.Sym {
						o := l.R
						o.Sym = int32(k)
						add(Lit{Op: Ne, L: l.L, R: o}, shapeTerm(h, o))
					}
				}
			} else {
				for _, s := range c.Slots {
					if s != l.R.Sym {
						o := slotTerm(s)
						add(Lit{Op: Ne, L: l.L, R: o}, shapeTerm(h, o))
					}
				}
			}
		}
	}
	return m
}

// shapeNe is the part of the shape of "x <> y" that x makes:
// shape(Lit{Ne, x, y}) is shapeTerm(shapeNe(x), y).
func shapeNe(x Term) uint64 {
	return shapeTerm(mix64(uint64(Ne)+0x9e3779b97f4a7c15), x)
}

func litBloom(lits []Lit, skipNumeric bool) uint64 {
	var b uint64
	for _, l := range lits {
		if skipNumeric && l.numeric() {
			continue
		}
		b |= 1 << (shape(l) % 64)
	}
	return b
}

// matcher searches renamings of a visited cube v into a cube c.
//
// The renamings are slices indexed by slot and by event ID, undone by
// the trail: slots and event IDs are small positive numbers (a slot is
// 1..the largest process of the search, an event's ID is one more than
// the largest of its cube's, preimage.go), and the fixpoint test spends
// most of its time binding and unbinding them (Go maps cost a third of
// the matching on weak systems). 0 means "not bound" in sigma and tau.
type matcher struct {
	sys   *System
	v, c  *Cube
	idx   *matchIndex
	lits  []*Lit  // literals of v to match syntactically
	cands [][]Lit // for each of lits, the literals of c of its shape
	// sigma[a]: the slot of c that slot a of v is renamed to; used[b]:
	// slot b of c is the image of a slot of v
	sigma []int32
	used  []bool
	// tau[a]: the ID of the event of c that the event of v with ID a is
	// mapped to; tused[b]: the event of c with ID b is an image
	tau   []int32
	tused []bool
	// cpos[b]: 1 + the position in c.Nodes of the event with ID b (0:
	// c has no such event); vsig, csig: the signatures of the events of
	// v and c, by position (nodeSig)
	cpos       []int32
	vsig, csig []nodeSig
	sigs       bool // cpos, vsig and csig are made (prepareNodes)
	trail      []binding
	found      func() bool // called on each complete renaming; true stops
	// onFound: match's argument, which found calls with the matcher
	onFound func(*matcher) bool
	pinned  int32
	stop    func() bool // the deadline passed: give up (no renaming found)
}

type binding struct {
	node bool
	from int32
}

// nodeSig sums up what an event holds for the matcher: a bit per
// variable (modulo 64) of its writes, reads and readers, the union of
// its processes' flags, how many processes it has, and whether it is a
// final read. An event of v can be mapped to an event of c only if each
// part of its signature is within c's (fits): each write, read or reader
// of v's event must be one of c's event's with the same variable, each
// of its processes a distinct process of c's event with at least its
// flags, and a final read a final read (nodeFits checks exactly that;
// the signature only drops the pairs it would reject).
type nodeSig struct {
	writes, reads, readBy uint64
	flags                 uint8
	procs                 uint8
	final                 bool
}

const (
	sigRead uint8 = 1 << iota
	sigWrite
	sigFenced
	sigFencedW
)

func sigOf(n *Node) nodeSig {
	s := nodeSig{final: n.Final, procs: uint8(min(len(n.Procs), 255))}
	for _, f := range n.Procs {
		if f.Read {
			s.flags |= sigRead
		}
		if f.Write {
			s.flags |= sigWrite
		}
		if f.Fenced {
			s.flags |= sigFenced
		}
		if f.FencedW {
			s.flags |= sigFencedW
		}
	}
	for _, a := range n.Writes {
		s.writes |= 1 << (uint32(a.Sym) % 64)
	}
	for _, a := range n.Reads {
		s.reads |= 1 << (uint32(a.Sym) % 64)
	}
	for _, a := range n.ReadBy {
		s.readBy |= 1 << (uint32(a.Sym) % 64)
	}
	return s
}

// fits reports whether an event of signature s may be mapped to one of
// signature t (see nodeSig).
func (s nodeSig) fits(t nodeSig) bool {
	return s.writes&^t.writes == 0 && s.reads&^t.reads == 0 && s.readBy&^t.readBy == 0 &&
		s.flags&^t.flags == 0 && s.procs <= t.procs && (!s.final || t.final)
}

// grow makes s long enough to be indexed by i.
func grow[T any](s []T, i int32) []T {
	if int(i) < len(s) {
		return s
	}
	return append(s, make([]T, int(i)+1-len(s))...)
}

func (m *matcher) bindSlot(a, b int32) bool {
	if int(a) < len(m.sigma) && m.sigma[a] != 0 {
		return m.sigma[a] == b
	}
	if int(b) < len(m.used) && m.used[b] {
		return false
	}
	if (a <= m.pinned || b <= m.pinned) && a != b {
		return false
	}
	m.sigma = grow(m.sigma, a)
	m.used = grow(m.used, b)
	m.sigma[a] = b
	m.used[b] = true
	m.trail = append(m.trail, binding{false, a})
	return true
}

func (m *matcher) bindNode(a, b int32) bool {
	if int(a) < len(m.tau) && m.tau[a] != 0 {
		return m.tau[a] == b
	}
	if int(b) < len(m.tused) && m.tused[b] {
		return false
	}
	m.tau = grow(m.tau, a)
	m.tused = grow(m.tused, b)
	m.tau[a] = b
	m.tused[b] = true
	m.trail = append(m.trail, binding{true, a})
	return true
}

func (m *matcher) undo(n int) {
	for len(m.trail) > n {
		b := m.trail[len(m.trail)-1]
		m.trail = m.trail[:len(m.trail)-1]
		if b.node {
			m.tused[m.tau[b.from]] = false
			m.tau[b.from] = 0
		} else {
			m.used[m.sigma[b.from]] = false
			m.sigma[b.from] = 0
		}
	}
}

// image is the ID of the event of c that the event of v with ID a is
// mapped to (0: none yet).
func (m *matcher) image(a int32) int32 {
	if int(a) < len(m.tau) {
		return m.tau[a]
	}
	return 0
}

// slotImage is the slot of c that slot a of v is renamed to (0: none yet).
func (m *matcher) slotImage(a int32) int32 {
	if int(a) < len(m.sigma) {
		return m.sigma[a]
	}
	return 0
}

// position is the position in c.Nodes of the event with ID b, or -1.
func (m *matcher) position(b int32) int {
	if int(b) < len(m.cpos) {
		return int(m.cpos[b]) - 1
	}
	return -1
}

// term matches a with b (pointers: a Term is large, and the literal
// matching calls term for every candidate).
func (m *matcher) term(a, b *Term) bool {
	if a.Kind == KLin && b.Kind == KLin && a.Sort == b.Sort && a.Off == b.Off {
		// the same products, atom by atom
		as, bs := linSum(*a), linSum(*b)
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if as[i].Coef != bs[i].Coef || !m.term(&as[i].Atom, &bs[i].Atom) {
				return false
			}
		}
		return true
	}
	if a.Kind != b.Kind || a.Sym != b.Sym && a.Kind != KSlot || a.NArgs != b.NArgs || a.Off != b.Off || a.Sort != b.Sort {
		return false
	}
	switch a.Kind {
	case KSlot:
		return m.bindSlot(a.Sym, b.Sym)
	case KVar, KVal, KInit:
		for i := 0; i < int(a.NArgs); i++ {
			if !m.bindSlot(a.Args[i], b.Args[i]) {
				return false
			}
		}
		if a.Kind == KVal {
			return m.bindSlot(a.Proc, b.Proc) && m.bindNode(a.Node, b.Node)
		}
	}
	return true
}

func (m *matcher) access(a, b Access) bool {
	if a.Sym != b.Sym || a.NArgs != b.NArgs {
		return false
	}
	if !m.bindSlot(a.Proc, b.Proc) {
		return false
	}
	for i := 0; i < int(a.NArgs); i++ {
		if !m.bindSlot(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// matchLits matches v's literals from k on.
func (m *matcher) matchLits(k int) bool {
	if m.stop() {
		return false
	}
	if k == len(m.lits) {
		if !m.sigs && !m.prepareNodes() {
			return false
		}
		return m.matchNodes(0)
	}
	l := m.lits[k]
	cands := m.cands[k]
	for i := range cands {
		cl := &cands[i]
		mark := len(m.trail)
		if cl.Op == l.Op && m.term(&l.L, &cl.L) && m.term(&l.R, &cl.R) {
			if m.matchLits(k + 1) {
				return true
			}
		}
		m.undo(mark)
	}
	return false
}

// prepareNodes makes cpos and the signatures of the events of v and c,
// the first time the literals are matched (most calls of match fail
// before), and reports whether each event of v has an event of c that
// its signature fits (else no renaming exists).
func (m *matcher) prepareNodes() bool {
	m.sigs = true
	v, c := m.v, m.c
	m.vsig, m.csig = m.vsig[:0], m.csig[:0]
	for i, n := range c.Nodes {
		m.csig = append(m.csig, sigOf(n))
		m.cpos = grow(m.cpos, n.ID)
		m.tused = grow(m.tused, n.ID)
		m.cpos[n.ID] = int32(i) + 1
	}
	ok := true
	for _, n := range v.Nodes {
		s := sigOf(n)
		ok = ok && slices.ContainsFunc(m.csig, s.fits)
		m.vsig = append(m.vsig, s)
	}
	return ok
}

// ghbFits reports whether mapping the event of v at position k to the
// event of c at position ck keeps the ghb order with the events of v
// before k (all mapped by then): each order of v must be one of c. (The
// same test as on complete renamings, made as soon as both ends are
// mapped.)
func (m *matcher) ghbFits(k, ck int) bool {
	v, c := m.v, m.c
	if v.GHB[k]&(1<<uint(k)) != 0 && c.GHB[ck]&(1<<uint(ck)) == 0 {
		return false
	}
	for j := 0; j < k; j++ {
		cj := m.position(m.image(v.Nodes[j].ID))
		if v.GHB[k]&(1<<uint(j)) != 0 && c.GHB[ck]&(1<<uint(cj)) == 0 {
			return false
		}
		if v.GHB[j]&(1<<uint(k)) != 0 && c.GHB[cj]&(1<<uint(ck)) == 0 {
			return false
		}
	}
	return true
}

// matchNodes maps the events of v from position k on.
func (m *matcher) matchNodes(k int) bool {
	if m.stop() {
		return false
	}
	if k == len(m.v.Nodes) {
		return m.matchSlots(0)
	}
	vn := m.v.Nodes[k]
	if id := m.image(vn.ID); id != 0 {
		i := m.position(id)
		if i < 0 || !m.vsig[k].fits(m.csig[i]) || !m.ghbFits(k, i) {
			return false // (i < 0: a literal over an event c does not have)
		}
		return m.nodeFits(k, vn, m.c.Nodes[i], 0)
	}
	for i, cn := range m.c.Nodes {
		if cn.ID < int32(len(m.tused)) && m.tused[cn.ID] || !m.vsig[k].fits(m.csig[i]) || !m.ghbFits(k, i) {
			continue
		}
		mark := len(m.trail)
		if m.bindNode(vn.ID, cn.ID) && m.nodeFits(k, vn, cn, 0) {
			return true
		}
		m.undo(mark)
	}
	return false
}

// nodeFits checks the flags and accesses of vn (at position k of v)
// against cn (step s of: flags, writes, reads, readers), then continues
// with the next event.
func (m *matcher) nodeFits(k int, vn, cn *Node, s int) bool {
	items := len(vn.Procs) + len(vn.Writes) + len(vn.Reads) + len(vn.ReadBy)
	if s == items {
		return m.matchNodes(k + 1)
	}
	switch {
	case s < len(vn.Procs):
		f := vn.Procs[s]
		for _, g := range cn.Procs {
			if f.Read && !g.Read || f.Write && !g.Write || f.Fenced && !g.Fenced || f.FencedW && !g.FencedW {
				continue
			}
			mark := len(m.trail)
			if m.bindSlot(f.Proc, g.Proc) && m.nodeFits(k, vn, cn, s+1) {
				return true
			}
			m.undo(mark)
		}
		return false
	case s < len(vn.Procs)+len(vn.Writes):
		return m.accessFits(k, vn, cn, s, vn.Writes[s-len(vn.Procs)], cn.Writes)
	case s >= len(vn.Procs)+len(vn.Writes)+len(vn.Reads):
		// a cube that knows more readers of a write has fewer
		// predecessors (model.go): v's must be among c's
		return m.accessFits(k, vn, cn, s, vn.ReadBy[s-len(vn.Procs)-len(vn.Writes)-len(vn.Reads)], cn.ReadBy)
	default:
		return m.accessFits(k, vn, cn, s, vn.Reads[s-len(vn.Procs)-len(vn.Writes)], cn.Reads)
	}
}

// accessFits maps access a of vn (step s of nodeFits) to one of cs, then
// continues with the next step.
func (m *matcher) accessFits(k int, vn, cn *Node, s int, a Access, cs []Access) bool {
	for _, ca := range cs {
		if ca.Sym != a.Sym || ca.NArgs != a.NArgs {
			continue
		}
		mark := len(m.trail)
		if m.access(a, ca) && m.nodeFits(k, vn, cn, s+1) {
			return true
		}
		m.undo(mark)
	}
	return false
}

// matchSlots maps the remaining slots of v.
func (m *matcher) matchSlots(k int) bool {
	for k < len(m.v.Slots) && m.slotImage(m.v.Slots[k]) != 0 {
		k++
	}
	if k == len(m.v.Slots) {
		return m.found()
	}
	if m.stop() {
		return false
	}
	a := m.v.Slots[k]
	for _, b := range m.c.Slots {
		mark := len(m.trail)
		if m.bindSlot(a, b) && m.matchSlots(k+1) {
			return true
		}
		m.undo(mark)
	}
	return false
}

func (m *matcher) rename(t Term) Term {
	switch t.Kind {
	case KLin:
		r, _ := mapAtoms(t, func(a Term) (Term, bool) { return m.rename(a), true })
		return r
	case KSlot:
		t.Sym = m.slotImage(t.Sym)
	case KVar, KVal, KInit:
		for i := 0; i < int(t.NArgs); i++ {
			t.Args[i] = m.slotImage(t.Args[i])
		}
		if t.Kind == KVal {
			t.Proc = m.slotImage(t.Proc)
			t.Node = m.image(t.Node)
		}
	}
	return t
}

// cubeInfo caches what the fixpoint test needs of a visited cube.
type cubeInfo struct {
	bloom, bloomSyn uint64
	idx             *matchIndex // computed lazily
	sorted          []Lit       // literals, rarest shapes first (computed lazily)
	shapes          []uint64    // the shape of each literal (computed lazily, see litShapes)
	shapesOf        *Lit        // the first literal when shapes was computed
}

// litShapes is the shape of each literal of v, cached (the cubes of the
// fixpoint test are matched against every new cube).
func (e *engine) litShapes(v *Cube) []uint64 {
	if len(v.Lits) == 0 {
		return nil
	}
	info := e.info(v)
	if len(info.shapes) != len(v.Lits) || info.shapesOf != &v.Lits[0] {
		info.shapes = make([]uint64, len(v.Lits))
		for i, l := range v.Lits {
			info.shapes[i] = shape(l)
		}
		info.shapesOf = &v.Lits[0]
	}
	return info.shapes
}

// subsumed is the fixpoint test of c against the visited cubes and the
// invariants. When one cube alone covers c (a renaming of it), it is
// left in e.subsumer, else that is nil.
func (e *engine) subsumed(c *Cube) bool {
	if e.idxScratch == nil {
		e.idxScratch = &matchIndex{byShape: map[uint64][]Lit{}}
	}
	idx := e.indexInto(c, e.idxScratch)
	var cands []*Cube
	e.subsumer = nil
	try := func(v *Cube) bool {
		if len(v.Slots) > len(c.Slots) || len(v.Nodes) > len(c.Nodes) {
			return false
		}
		info := e.info(v)
		if info.bloomSyn&^idx.bloom != 0 {
			return false
		}
		if info.bloom&^idx.bloom == 0 && e.match(v, c, idx, false, func(*matcher) bool { return true }) {
			e.subsumer = v // (backtrack.go)
			return true
		}
		if c.numeric || v.numeric {
			cands = append(cands, v)
		}
		return false
	}
	for _, v := range e.invariants {
		if try(v) {
			return true
		}
	}
	for _, v := range e.visited {
		if e.stopped() {
			return false // the caller sees the deadline
		}
		if try(v) {
			return true
		}
	}
	if len(c.Nodes) == 0 {
		return e.subsumedByPermutations(c, idx)
	}
	if len(cands) == 0 {
		return false
	}
	// semantic test: c implies the disjunction of the candidates
	var nots [][]Lit
	for _, v := range cands {
		if e.stopped() {
			return false
		}
		e.match(v, c, idx, true, func(m *matcher) bool {
			var conj []Lit
			for _, l := range v.Lits {
				if l.numeric() {
					nl, r := mkLit(l.Op, m.rename(l.L), m.rename(l.R))
					switch r {
					case litFalse:
						return false
					case litOpen:
						conj = append(conj, nl)
					}
				}
			}
			nots = append(nots, conj)
			return len(conj) == 0 || len(nots) > 2000
		})
		if len(nots) > 0 && len(nots[len(nots)-1]) == 0 {
			return true
		}
	}
	if len(nots) == 0 {
		return false
	}
	r := !e.z.sat(c.Slots, c.Lits, nots)
	if r {
		e.semanticHits++
	}
	return r
}

// deleteSubsumed removes from the visited cubes those that c subsumes
// syntactically: c covers them, so they are of no more use to the
// fixpoint test. It returns how many it removed.
func (e *engine) deleteSubsumed(c *Cube) int {
	info := e.info(c)
	out := e.visited[:0]
	n := 0
	for _, v := range e.visited {
		if len(c.Slots) <= len(v.Slots) && len(c.Nodes) <= len(v.Nodes) {
			vi := e.info(v)
			if vi.idx == nil {
				vi.idx = e.index(v)
			}
			if info.bloom&^vi.idx.bloom == 0 && e.match(c, v, vi.idx, false, func(*matcher) bool { return true }) {
				n++
				continue
			}
		}
		out = append(out, v)
	}
	clear(e.visited[len(out):])
	e.visited = out
	return n
}

func (e *engine) info(v *Cube) *cubeInfo {
	if v.info == nil {
		v.info = &cubeInfo{bloom: litBloom(v.Lits, false), bloomSyn: litBloom(v.Lits, true)}
	}
	return v.info
}

// match enumerates the renamings of v into c; with semantic set, the
// numeric literals of v are left out (found decides them). It returns
// true when found did.
//
// The matcher and its lists are the engine's, reused from one call to
// the next (the fixpoint test calls match for every visited cube that
// passes the bloom filter; making them anew was most of its cost). match
// is never called from inside found, so one matcher is enough. It leaves
// every renaming empty (the trail undone).
func (e *engine) match(v, c *Cube, idx *matchIndex, semantic bool, found func(*matcher) bool) bool {
	shapes := e.litShapes(v)
	m := e.matchScratch
	if m == nil {
		m = &matcher{}
		m.found = func() bool { return m.onFound(m) }
		e.matchScratch = m
	}
	m.lits, m.cands = m.lits[:0], m.cands[:0]
	for i := range v.Lits {
		l := &v.Lits[i]
		if semantic && l.numeric() {
			continue
		}
		cl := idx.byShape[shapes[i]]
		if len(cl) == 0 {
			return false
		}
		m.lits = append(m.lits, l)
		m.cands = append(m.cands, cl)
	}
	// rarest shapes first (a stable insertion sort of the two lists: a
	// cube has a few dozen literals)
	for i := 1; i < len(m.lits); i++ {
		for j := i; j > 0 && len(m.cands[j]) < len(m.cands[j-1]); j-- {
			m.lits[j], m.lits[j-1] = m.lits[j-1], m.lits[j]
			m.cands[j], m.cands[j-1] = m.cands[j-1], m.cands[j]
		}
	}
	m.sys, m.v, m.c, m.idx = e.sys, v, c, idx
	m.pinned, m.stop, m.onFound = e.sys.Pinned, e.stopped, found
	m.trail = m.trail[:0]
	m.sigs = false
	r := m.matchLits(0)
	m.undo(0)
	if m.sigs {
		for _, n := range c.Nodes {
			m.cpos[n.ID] = 0
		}
	}
	// (drop the references to the cubes: the engine keeps the matcher)
	m.v, m.c, m.idx, m.onFound = nil, nil, nil, nil
	clear(m.lits)
	clear(m.cands)
	return r
}

// renamedSlots calls f on each slot that renaming t renames (the slot of a
// KSlot term, the indices of an array cell, those of the atoms of a
// linear combination).
func renamedSlots(t Term, f func(int32)) {
	switch t.Kind {
	case KLin:
		for _, p := range linSum(t) {
			renamedSlots(p.Atom, f)
		}
	case KSlot:
		f(t.Sym)
	case KVar:
		for i := 0; i < int(t.NArgs); i++ {
			f(t.Args[i])
		}
	}
}

// renamesInPlace reports whether renaming the slots of l, a literal in
// normal form, gives a literal in normal form with the same operator and
// shape, so that mkLit need not see it again: an array cell without
// offset compared with a constant or a slot. (mkLit leaves such a literal
// as it is: the atom stays on the left, before a slot or a constant, and
// the operator is already the one mkLit gives: no < or > on integers, no
// <> on booleans.)
func renamesInPlace(l *Lit) bool {
	if l.L.Kind != KVar || !l.L.Off.isZero() || !(l.R.isConst() || l.R.Kind == KSlot) {
		return false
	}
	if l.L.Sort.Kind == SInt && (l.Op == Lt || l.Op == Gt) || l.L.Sort.Kind == SBool && l.R.Kind == KBool && l.Op == Ne {
		return false
	}
	return true
}

// inList reports whether l is in ls, literals of l's shape (which differ
// mostly in their slots: those are compared first, inline).
func inList(ls []Lit, l *Lit) bool {
	for i := range ls {
		x := &ls[i]
		if x.L.Args == l.L.Args && x.R.Sym == l.R.Sym && *x == *l {
			return true
		}
	}
	return false
}

// termBloom is a one-bit summary of a term's kind and symbol: two terms
// with different summaries differ.
func termBloom(t Term) uint64 {
	return 1 << ((uint64(t.Kind)*31 + uint64(uint32(t.Sym))) % 64)
}

// subsumedByPermutations is the semantic fixpoint test of a cube without
// events (Cubicle's): for every visited cube v and every injective
// renaming of its processes into those of c, the literals of v that c
// does not imply syntactically form a residual; renamings with a literal
// that c contradicts are dropped; then c must imply the disjunction of
// the residuals.
func (e *engine) subsumedByPermutations(c *Cube, idx *matchIndex) bool {
	fixed := map[Term]Term{}
	var fixedBloom uint64 // termBloom of the keys of fixed
	for _, l := range c.Lits {
		if l.Op == Eq && (l.R.isConst() || l.R.Kind == KSlot) && l.R.Off.isZero() {
			fixed[l.L] = l.R
			fixedBloom |= termBloom(l.L)
		}
	}
	// has reports whether c's extended literal set (idx) holds l, whose
	// shape is s
	has := func(l Lit, s uint64) bool {
		return inList(idx.byShape[s], &l)
	}
	// nots: the residuals, their literals carved from arena (the
	// solver keeps neither: both are the engine's, reused)
	nots, arena := e.notsBuf[:0], e.resBuf[:0]
	defer func() { e.notsBuf, e.resBuf = nots[:0], arena[:0] }()
	// sigma[a]: the slot of c that slot a of v is renamed to (0: none
	// yet; slots are positive); used[b]: slot b of c is taken
	var sigma []int32
	var used []bool
	for _, s := range c.Slots {
		if int(s) >= len(used) {
			used = append(used, make([]bool, int(s)+1-len(used))...)
		}
	}
	sig := func(s int32) int32 {
		if s >= 0 && int(s) < len(sigma) {
			return sigma[s]
		}
		return 0
	}
	var rename func(t Term) Term
	rename = func(t Term) Term {
		switch t.Kind {
		case KLin:
			r, _ := mapAtoms(t, func(a Term) (Term, bool) { return rename(a), true })
			return r
		case KSlot:
			t.Sym = sig(t.Sym)
		case KVar:
			for i := 0; i < int(t.NArgs); i++ {
				t.Args[i] = sig(t.Args[i])
			}
		}
		return t
	}
	const maxResiduals = 5000
	// seen: the residuals listed, by hash. The disjunction needs each
	// residual once: on systems whose cubes have many processes most
	// renamings leave the same few residuals (ref_count: 99 500
	// residuals, 4 distinct). produced counts them all, repeated or not,
	// for maxResiduals: it bounds the work of the renamings.
	seen := &residualSet{}
	produced := 0
	// class: c's classes of interchangeable slots (symslots.go), nil
	// for none; symCut: a renaming was left out for them
	var class []int32
	if !symCutOff {
		class = symClasses(c, e.sys.Pinned)
	}
	symCut := false
	var v *Cube
	// Each literal of v is renamed and judged as soon as the slots it
	// names are all mapped (at level lvl[i], the position of the last of
	// them in v.Slots; -1 for none): a renaming that a literal makes
	// false or contradicts is dropped with all its extensions at once.
	// The outcome is the one of judging each complete renaming.
	var (
		vShapes []uint64 // the shape of each literal of v
		// inPlace[i]: renamesInPlace(&v.Lits[i]); then sameShape[i]:
		// the literals of c's index of the shape of v.Lits[i] (levels)
		inPlace   []bool
		sameShape [][]Lit
		renamed   []Lit
		keep      []bool
		byLevel   [][]int // literal indices by level+1
		// litSlotList[i]: the slots literal i names; judged: judge's
		// outcomes by literal and images of its slots
		litSlotList [][]int32
		judged      = map[uint64]judgeOutcome{}
		judgeLit    func(i int) bool
		// dense: judged in e.judgeTab instead of the map, for a v of at
		// most judgeDenseLits literals and slot images below 8 (every
		// FLASH cube): entry i<<9 | the images in 3 bits each holds
		// e.judgeGen<<32 | the outcome (0 false, 1 drop, 2+k keep
		// e.judgeKept[k]). levels starts a new generation for each v
		// instead of clearing the table, so an entry of another v (or
		// call) is never read: its generation is older. The outcome
		// kept is the map's, by the same literal and images
		// (TestJudgeMemo compares the searches with and without it).
		dense bool
	)
	// judge renames the literals of level k-1 (k = 0: those without
	// slots) and reports whether none is false under sigma.
	judge := func(k int) bool {
		for _, i := range byLevel[k] {
			key, memo := uint64(0), !judgeNoMemo && len(litSlotList[i]) <= 3 && i < 1<<16
			if memo {
				key = uint64(i) << 48
				for j, s := range litSlotList[i] {
					img := sig(s)
					if img < 0 || img >= 1<<16 {
						memo = false
					}
					key |= uint64(img) << (32 - 16*j)
				}
			}
			if memo && dense {
				d := i << 9
				for j, s := range litSlotList[i] {
					img := sig(s)
					if img < 0 || img >= 8 {
						d = -1
						break
					}
					d |= int(img) << (6 - 3*j)
				}
				if d >= 0 {
					gen := e.judgeGen << 32
					if en := e.judgeTab[d]; en&^(1<<32-1) == gen {
						switch p := uint32(en); p {
						case 0:
							return false
						case 1:
							keep[i] = false
						default:
							renamed[i], keep[i] = e.judgeKept[p-2], true
						}
						continue
					}
					ok := judgeLit(i)
					switch {
					case !ok:
						e.judgeTab[d] = gen
						return false
					case keep[i]:
						e.judgeKept = append(e.judgeKept, renamed[i])
						e.judgeTab[d] = gen | uint64(len(e.judgeKept)+1)
					default:
						e.judgeTab[d] = gen | 1
					}
					continue
				}
			}
			if memo {
				if o, ok := judged[key]; ok {
					switch o.kind {
					case judgeFalse:
						return false
					case judgeDrop:
						keep[i] = false
					case judgeKeep:
						renamed[i], keep[i] = o.nl, true
					}
					continue
				}
				ok := judgeLit(i)
				switch {
				case !ok:
					judged[key] = judgeOutcome{kind: judgeFalse}
					return false
				case keep[i]:
					judged[key] = judgeOutcome{kind: judgeKeep, nl: renamed[i]}
				default:
					judged[key] = judgeOutcome{kind: judgeDrop}
				}
				continue
			}
			if !judgeLit(i) {
				return false
			}
		}
		return true
	}
	// judgeLit judges literal i of v under sigma: false when it is
	// false or contradicted, else keep[i] and renamed[i] say whether
	// it is left in the residual, renamed. The outcome depends only on
	// the images of the slots of the literal (litSlotList[i]), so judge
	// keeps it by those images, for v (judged; levels clears it): on
	// ref_count most renamings repeat the same few images.
	judgeLit = func(i int) bool {
		l := &v.Lits[i]
		var nl Lit
		var sh uint64
		r := litOpen
		if inPlace[i] {
			nl = Lit{Op: l.Op, L: rename(l.L), R: l.R}
			if l.R.Kind == KSlot {
				nl.R = rename(l.R)
			}
			// (same shape as l: c's literals of that shape were
			// looked up once for v, in sameShape)
			keep[i] = false
			if inList(sameShape[i], &nl) {
				return true
			}
		} else {
			nl, r = mkLit(l.Op, rename(l.L), rename(l.R))
			sh = shape(nl)
		}
		keep[i] = false
		switch r {
		case litTrue:
			return true
		case litFalse:
			return false
		}
		if !inPlace[i] && has(nl, sh) {
			return true
		}
		if fixedBloom&termBloom(nl.L) == 0 {
			renamed[i], keep[i] = nl, true
			return true
		}
		if f, ok := fixed[nl.L]; ok && (nl.R.isConst() || nl.R.Kind == KSlot) && !nl.L.Sort.numeric() {
			if !evalOp(nl.Op, f, nl.R) {
				return false // contradicted: this renaming is irrelevant
			}
			return true
		}
		renamed[i], keep[i] = nl, true
		return true
	}
	var rec func(k int) bool
	rec = func(k int) bool {
		if e.stopped() {
			return false // the caller sees the deadline
		}
		if k == len(v.Slots) {
			n := 0
			for _, ok := range keep {
				if ok {
					n++
				}
			}
			if n == 0 {
				return true
			}
			if cap(arena)-len(arena) < n {
				arena = make([]Lit, 0, max(2*cap(arena), n, 64))
			}
			k0 := len(arena)
			for i, ok := range keep {
				if ok {
					arena = append(arena, renamed[i])
				}
			}
			res := arena[k0:len(arena):len(arena)]
			produced++
			if seen.add(res, nots) {
				nots = append(nots, res)
			} else {
				arena = arena[:k0] // a residual already listed
			}
			return false
		}
		a := v.Slots[k]
		// tried: the classes of interchangeable slots of c (symslots.go)
		// whose first unused slot a is mapped to at this level; the
		// others of the class give the images of its residuals
		var tried [8]int32
		nTried := 0
	slots:
		for _, b := range c.Slots {
			if used[b] || (a <= e.sys.Pinned || b <= e.sys.Pinned) && a != b {
				continue
			}
			if class != nil && class[b] != symNone {
				for _, r := range tried[:nTried] {
					if r == class[b] {
						symCut = true
						continue slots
					}
				}
				if nTried < len(tried) {
					tried[nTried] = class[b]
					nTried++
				}
			}
			sigma[a], used[b] = b, true
			done := judge(k+1) && rec(k+1)
			sigma[a], used[b] = 0, false
			if done {
				return true
			}
		}
		return false
	}
	// levels computes byLevel for v.
	// pos[s]: 1 + the position of slot s in v.Slots, 0 for a slot not
	// of v (a slice over the few small slots rather than a map made
	// for every v; levels clears it for the next v)
	var pos []int32
	levels := func() {
		clear(pos)
		for i, s := range v.Slots {
			if int(s) >= len(sigma) {
				sigma = append(sigma, make([]int32, int(s)+1-len(sigma))...)
			}
			if int(s) >= len(pos) {
				pos = append(pos, make([]int32, int(s)+1-len(pos))...)
			}
			pos[s] = int32(i) + 1
		}
		vShapes = e.litShapes(v)
		// (the buffers serve every v in turn: judge sets keep[i]
		// before a complete renaming reads it)
		if cap(byLevel) < len(v.Slots)+1 {
			byLevel = append(byLevel[:cap(byLevel)], make([][]int, len(v.Slots)+1-cap(byLevel))...)
		}
		byLevel = byLevel[:len(v.Slots)+1]
		for i := range byLevel {
			byLevel[i] = byLevel[i][:0]
		}
		if cap(renamed) < len(v.Lits) {
			renamed = make([]Lit, len(v.Lits))
			keep = make([]bool, len(v.Lits))
		}
		renamed, keep = renamed[:len(v.Lits)], keep[:len(v.Lits)]
		inPlace, sameShape = inPlace[:0], sameShape[:0]
		for i := range v.Lits {
			ip := renamesInPlace(&v.Lits[i])
			inPlace = append(inPlace, ip)
			var same []Lit
			if ip {
				same = idx.byShape[vShapes[i]]
			}
			sameShape = append(sameShape, same)
		}
		clear(judged)
		dense = len(v.Lits) <= judgeDenseLits
		if dense {
			if e.judgeGen++; e.judgeGen >= 1<<32 {
				// (generations fill 32 bits: start the table again)
				clear(e.judgeTab)
				e.judgeGen = 1
			}
			e.judgeKept = e.judgeKept[:0]
			if need := len(v.Lits) << 9; len(e.judgeTab) < need {
				e.judgeTab = make([]uint64, min(max(need, 2*len(e.judgeTab)), judgeDenseLits<<9))
			}
		}
		if cap(litSlotList) < len(v.Lits) {
			litSlotList = make([][]int32, len(v.Lits))
		}
		litSlotList = litSlotList[:len(v.Lits)]
		for i, l := range v.Lits {
			lvl := -1
			litSlotList[i] = litSlotList[i][:0]
			for _, t := range [2]Term{l.L, l.R} {
				renamedSlots(t, func(s int32) {
					litSlotList[i] = append(litSlotList[i], s)
					if s >= 0 && int(s) < len(pos) && pos[s] > 0 {
						lvl = max(lvl, int(pos[s])-1)
					} else {
						lvl = len(v.Slots) - 1 // not a slot of v: judged on complete renamings
					}
				})
			}
			byLevel[lvl+1] = append(byLevel[lvl+1], i)
		}
	}
	check := func(list []*Cube) bool {
		for _, w := range list {
			if e.stopped() {
				return false
			}
			if len(w.Slots) > len(c.Slots) || len(w.Nodes) > 0 || produced > maxResiduals {
				continue
			}
			v = w
			levels()
			if judge(0) && rec(0) {
				return true
			}
		}
		return false
	}
	if check(e.invariants) || check(e.visited) {
		return true
	}
	if len(nots) == 0 {
		return false
	}
	if symCut {
		symCutCount.Add(1)
		// the residuals of the renamings left out: the images of those
		// found by the transpositions of the classes (symslots.go)
		for i := 0; i < len(nots); i++ {
			for _, s := range c.Slots {
				if class[s] == symNone || class[s] == s {
					continue
				}
				if cap(arena)-len(arena) < len(nots[i]) {
					arena = make([]Lit, 0, max(2*cap(arena), len(nots[i]), 64))
				}
				k0 := len(arena)
				for _, l := range nots[i] {
					nl, ok := swapLit(l, class[s], s)
					if !ok {
						return false // (not met: a residual's literals are open)
					}
					arena = append(arena, nl)
				}
				res := arena[k0:len(arena):len(arena)]
				if !seen.add(res, nots) {
					arena = arena[:k0]
					continue
				}
				if nots = append(nots, res); len(nots) > maxResiduals {
					return false // too many to hand to the solver
				}
			}
		}
	}
	return !e.z.sat(c.Slots, c.Lits, nots)
}

// symCutOff turns off the cut of subsumedByPermutations' renamings by
// the interchangeable slots of the cube (tests compare the two).
var symCutOff = false

// symCutCount counts the tests that left renamings out (tests).
var symCutCount atomic.Int64

// residualSet is the set of residuals of subsumedByPermutations: each a
// conjunction of literals, sorted (cmpLit) when added, hashed.
type residualSet struct {
	byHash map[uint64][]int32 // positions in the caller's list
	seed   maphash.Seed
}

// add sorts res and reports whether it is new: not equal to one of the
// residuals of list (those it was told of before); if so, it records
// res as list's next element.
func (s *residualSet) add(res []Lit, list [][]Lit) bool {
	if s.byHash == nil {
		s.byHash, s.seed = map[uint64][]int32{}, maphash.MakeSeed()
	}
	slices.SortFunc(res, cmpLit)
	var h uint64
	for _, l := range res {
		h = mix64(h ^ maphash.Comparable(s.seed, l))
	}
	for _, i := range s.byHash[h] {
		if slices.Equal(list[i], res) {
			return false
		}
	}
	s.byHash[h] = append(s.byHash[h], int32(len(list)))
	return true
}

// judgeNoMemo turns off the memo of subsumedByPermutations' judge (tests
// compare the two).
var judgeNoMemo = false

// judgeDenseLits bounds the literals of a visited cube whose judge
// outcomes subsumedByPermutations keeps in its dense table (512 entries
// a literal: 256 KB at most); a variable, so that tests can turn the
// table off.
var judgeDenseLits = 64

// judgeOutcome is the outcome of judging a literal under a renaming.
type judgeOutcome struct {
	kind int8
	nl   Lit // for judgeKeep: the renamed literal
}

const (
	judgeFalse int8 = iota // false or contradicted
	judgeDrop              // true or implied by c
	judgeKeep              // left in the residual
)
