package param

import "slices"

// The matcher of subsume.go as it was before it used slices indexed by
// slot and event (maps for the renamings, the event order checked on
// complete renamings only): the reference that TestMatcherRandom
// compares the matcher with. Only tests use it.

// refMatcher searches renamings of a visited cube v into a cube c.
type refMatcher struct {
	sys   *System
	v, c  *Cube
	idx   *matchIndex
	lits  []*Lit  // literals of v to match syntactically
	cands [][]Lit // for each of lits, the literals of c of its shape
	sigma map[int32]int32
	used  map[int32]bool
	tau   map[int32]int32
	tused map[int32]bool
	trail []refBinding
	found func() bool // called on each complete renaming; true stops
	// onFound: match's argument, which found calls with the refMatcher
	onFound func(*refMatcher) bool
	pinned  int32
	stop    func() bool // the deadline passed: give up (no renaming found)
}

type refBinding struct {
	node bool
	from int32
}

func (m *refMatcher) bindSlot(a, b int32) bool {
	if x, ok := m.sigma[a]; ok {
		return x == b
	}
	if m.used[b] {
		return false
	}
	if (a <= m.pinned || b <= m.pinned) && a != b {
		return false
	}
	m.sigma[a] = b
	m.used[b] = true
	m.trail = append(m.trail, refBinding{false, a})
	return true
}

func (m *refMatcher) bindNode(a, b int32) bool {
	if x, ok := m.tau[a]; ok {
		return x == b
	}
	if m.tused[b] {
		return false
	}
	m.tau[a] = b
	m.tused[b] = true
	m.trail = append(m.trail, refBinding{true, a})
	return true
}

func (m *refMatcher) undo(n int) {
	for len(m.trail) > n {
		b := m.trail[len(m.trail)-1]
		m.trail = m.trail[:len(m.trail)-1]
		if b.node {
			delete(m.tused, m.tau[b.from])
			delete(m.tau, b.from)
		} else {
			delete(m.used, m.sigma[b.from])
			delete(m.sigma, b.from)
		}
	}
}

func (m *refMatcher) term(a, b Term) bool {
	if a.Kind == KLin && b.Kind == KLin && a.Sort == b.Sort && a.Off == b.Off {
		// the same products, atom by atom
		as, bs := linSum(a), linSum(b)
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if as[i].Coef != bs[i].Coef || !m.term(as[i].Atom, bs[i].Atom) {
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

func (m *refMatcher) access(a, b Access) bool {
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
func (m *refMatcher) matchLits(k int) bool {
	if m.stop() {
		return false
	}
	if k == len(m.lits) {
		return m.matchNodes(0)
	}
	l := m.lits[k]
	for _, cl := range m.cands[k] {
		mark := len(m.trail)
		if cl.Op == l.Op && m.term(l.L, cl.L) && m.term(l.R, cl.R) {
			if m.matchLits(k + 1) {
				return true
			}
		}
		m.undo(mark)
	}
	return false
}

// matchNodes maps the events of v from position k on.
func (m *refMatcher) matchNodes(k int) bool {
	if m.stop() {
		return false
	}
	if k == len(m.v.Nodes) {
		return m.checkGHB() && m.matchSlots(0)
	}
	vn := m.v.Nodes[k]
	try := func(cn *Node) bool {
		if vn.Final && !cn.Final {
			return false // a read at the end is not a read at any time
		}
		mark := len(m.trail)
		if m.bindNode(vn.ID, cn.ID) && m.nodeFits(vn, cn, 0) {
			return true
		}
		m.undo(mark)
		return false
	}
	if id, ok := m.tau[vn.ID]; ok {
		i := m.c.nodeIndex(id)
		if i < 0 || vn.Final && !m.c.Nodes[i].Final {
			return false // (i < 0: a literal over a node c does not have)
		}
		return m.nodeFits(vn, m.c.Nodes[i], 0)
	}
	for _, cn := range m.c.Nodes {
		if !m.tused[cn.ID] && try(cn) {
			return true
		}
	}
	return false
}

// nodeFits checks the flags and accesses of vn against cn (step s of:
// flags, writes, reads, readers), then continues with the next node.
func (m *refMatcher) nodeFits(vn, cn *Node, s int) bool {
	k := slices.Index(m.v.Nodes, vn)
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
			if m.bindSlot(f.Proc, g.Proc) && m.nodeFits(vn, cn, s+1) {
				return true
			}
			m.undo(mark)
		}
		return false
	case s < len(vn.Procs)+len(vn.Writes):
		w := vn.Writes[s-len(vn.Procs)]
		for _, cw := range cn.Writes {
			mark := len(m.trail)
			if m.access(w, cw) && m.nodeFits(vn, cn, s+1) {
				return true
			}
			m.undo(mark)
		}
		return false
	case s >= len(vn.Procs)+len(vn.Writes)+len(vn.Reads):
		// a cube that knows more readers of a write has fewer
		// predecessors (model.go): v's must be among c's
		r := vn.ReadBy[s-len(vn.Procs)-len(vn.Writes)-len(vn.Reads)]
		for _, cr := range cn.ReadBy {
			mark := len(m.trail)
			if m.access(r, cr) && m.nodeFits(vn, cn, s+1) {
				return true
			}
			m.undo(mark)
		}
		return false
	default:
		r := vn.Reads[s-len(vn.Procs)-len(vn.Writes)]
		for _, cr := range cn.Reads {
			mark := len(m.trail)
			if m.access(r, cr) && m.nodeFits(vn, cn, s+1) {
				return true
			}
			m.undo(mark)
		}
		return false
	}
}

func (m *refMatcher) checkGHB() bool {
	for i, vn := range m.v.Nodes {
		ci := m.c.nodeIndex(m.tau[vn.ID])
		for j, wn := range m.v.Nodes {
			if m.v.GHB[i]&(1<<uint(j)) != 0 {
				cj := m.c.nodeIndex(m.tau[wn.ID])
				if m.c.GHB[ci]&(1<<uint(cj)) == 0 {
					return false
				}
			}
		}
	}
	return true
}

// matchSlots maps the remaining slots of v.
func (m *refMatcher) matchSlots(k int) bool {
	for k < len(m.v.Slots) {
		if _, ok := m.sigma[m.v.Slots[k]]; !ok {
			break
		}
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

func (m *refMatcher) rename(t Term) Term {
	switch t.Kind {
	case KLin:
		r, _ := mapAtoms(t, func(a Term) (Term, bool) { return m.rename(a), true })
		return r
	case KSlot:
		t.Sym = m.sigma[t.Sym]
	case KVar, KVal, KInit:
		for i := 0; i < int(t.NArgs); i++ {
			t.Args[i] = m.sigma[t.Args[i]]
		}
		if t.Kind == KVal {
			t.Proc = m.sigma[t.Proc]
			t.Node = m.tau[t.Node]
		}
	}
	return t
}

// refMatch is the old engine.match (a new matcher at each call).
func refMatch(e *engine, v, c *Cube, idx *matchIndex, semantic bool, found func(*refMatcher) bool) bool {
	shapes := e.litShapes(v)
	m := &refMatcher{
		sigma: map[int32]int32{}, used: map[int32]bool{},
		tau: map[int32]int32{}, tused: map[int32]bool{},
	}
	m.found = func() bool { return m.onFound(m) }
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
	clear(m.sigma)
	clear(m.used)
	clear(m.tau)
	clear(m.tused)
	m.trail = m.trail[:0]
	r := m.matchLits(0)
	// (drop the references to the cubes: the engine keeps the refMatcher)
	m.v, m.c, m.idx, m.onFound = nil, nil, nil, nil
	clear(m.lits)
	clear(m.cands)
	return r
}
