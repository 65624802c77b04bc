package graph

import (
	"math/bits"

	"github.com/musket-verify/musket/internal/event"
)

// A native check of IMM's consistency (the built-in imm.cat: Podkopaev,
// Lahav, Vafeiadis, "Bridging the Gap between Programming Languages and
// Hardware Weak Memory Models", POPL 2019, with RC11's SC order for SC
// accesses and fences), axiom by axiom on bit matrices over the events of
// a graph: coherence, atomicity, sc, no-thin-air. The engine uses it on
// the graphs it builds instead of evaluating the CAT model, which it
// still evaluates on complete graphs when the run wants the model's
// flags (the data-race flag; Options.NoFlags says it does not);
// Options.CrossCheck evaluates both on every graph and fails when they
// differ (the tests do).

// bm is a relation over n events: one bit row per event.
type bm struct {
	n, w int
	b    []uint64
	a    *arena
}

// arena hands out the words of the relations of one check, reused from
// check to check (the engine's).
type arena struct {
	buf []uint64
	off int
	// postOrder's scratch
	ord []int
	stk []poFrame
	// fast is the vector-clock check's (immvc.go)
	fast immFast
	// deps is replayDep's register taints (emptied at each replay).
	deps map[string]taint
	// pref is depPrefix's scratch.
	pref prefScratch
	// rv is rvNative's (rvnative.go).
	rv rvScratch
	// replay is, per thread, replayC's states and scratch (depreplay.go).
	replay []*dcache
	// incr is the incremental IMM decision's (immincr.go).
	incr immIncr
	// armOb is the last armNative's graph of ordered-before's steps.
	armOb [][]int
}

// prefScratch is depPrefix's scratch space, reused from call to call
// (what it returns is not).
type prefScratch struct {
	rows pcReads
	b    []bool
	n    []int
	a, d []int
	stk  []int
	pos  []int
	hi   []int
	bob  []int // depPrefix's bobAll and bobSome
	sym  []int // the symmetric predecessors, under symmetry reduction (immsym.go)
}

// places is each event's place in its thread's events (0 for an
// initial write).
func (s *prefScratch) places(g *graph) []int {
	if cap(s.pos) < len(g.evs) {
		s.pos = make([]int, len(g.evs))
	}
	s.pos = s.pos[:len(g.evs)]
	clear(s.pos)
	for _, th := range g.threads {
		for j, e := range th {
			s.pos[e] = j
		}
	}
	return s.pos
}

// his is a slice of k zeros.
func (s *prefScratch) his(k int) []int {
	if cap(s.hi) < k {
		s.hi = make([]int, k)
	}
	s.hi = s.hi[:k]
	clear(s.hi)
	return s.hi
}

// bools is a slice of k false values.
func (s *prefScratch) bools(k int) []bool {
	if cap(s.b) < k {
		s.b = make([]bool, k)
	}
	s.b = s.b[:k]
	clear(s.b)
	return s.b
}

// ints is a slice of k zeros.
func (s *prefScratch) ints(k int) []int {
	if cap(s.n) < k {
		s.n = make([]int, k)
	}
	s.n = s.n[:k]
	clear(s.n)
	return s.n
}

// depsOf is the arena's taint map, emptied.
func (a *arena) depsOf() map[string]taint {
	if a.deps == nil {
		a.deps = make(map[string]taint, 16)
	}
	clear(a.deps)
	return a.deps
}

// poFrame is a step of postOrder's search: the event, the word of its
// row being scanned, that word's bits left.
type poFrame struct {
	v, k int
	rest uint64
}

func (a *arena) words(k int) []uint64 {
	if a.off+k > len(a.buf) {
		a.buf = make([]uint64, max(2*len(a.buf), 64*k))
		a.off = 0
	}
	s := a.buf[a.off : a.off+k : a.off+k]
	a.off += k
	clear(s)
	return s
}

func (a *arena) newBM(n int) *bm {
	w := (n + 63) / 64
	return &bm{n: n, w: w, b: a.words(n * w), a: a}
}

func (r *bm) row(i int) []uint64 { return r.b[i*r.w : (i+1)*r.w] }
func (r *bm) set(i, j int)       { r.b[i*r.w+j/64] |= 1 << (uint(j) % 64) }
func (r *bm) has(i, j int) bool  { return r.b[i*r.w+j/64]&(1<<(uint(j)%64)) != 0 }
func (r *bm) clone() *bm         { c := *r; c.b = r.a.words(len(r.b)); copy(c.b, r.b); return &c }
func (r *bm) each(i int, f func(j int)) {
	row := r.row(i)
	for k, x := range row {
		for x != 0 {
			t := bits.TrailingZeros64(x)
			f(k*64 + t)
			x &= x - 1
		}
	}
}

// or adds s to r.
func (r *bm) or(s *bm) *bm {
	for i := range r.b {
		r.b[i] |= s.b[i]
	}
	return r
}

// seq is r ; s.
func (r *bm) seq(s *bm) *bm {
	c := r.a.newBM(r.n)
	for i := 0; i < r.n; i++ {
		ci := c.row(i)
		r.each(i, func(j int) {
			sj := s.row(j)
			for k := range ci {
				ci[k] |= sj[k]
			}
		})
	}
	return c
}

// plus is the transitive closure of r.
func (r *bm) plus() *bm {
	c := r.clone()
	for k := 0; k < c.n; k++ {
		ck := c.row(k)
		for i := 0; i < c.n; i++ {
			if c.has(i, k) {
				ci := c.row(i)
				for x := range ci {
					ci[x] |= ck[x]
				}
			}
		}
	}
	return c
}

// reflexive tells whether some event is related to itself.
func (r *bm) reflexive() bool {
	for i := 0; i < r.n; i++ {
		if r.has(i, i) {
			return true
		}
	}
	return false
}

// acyclic tells whether r has no cycle.
func (r *bm) acyclic() bool {
	_, ok := r.postOrder()
	return ok
}

// filter keeps the pairs (i, j) with i in dom and j in rng (bit sets
// over the events; nil: any).
func (r *bm) filter(dom, rng []uint64) *bm {
	c := r.a.newBM(r.n)
	for i := 0; i < r.n; i++ {
		if dom != nil && dom[i/64]&(1<<(uint(i)%64)) == 0 {
			continue
		}
		ri, ci := r.row(i), c.row(i)
		for k := range ci {
			if rng == nil {
				ci[k] = ri[k]
			} else {
				ci[k] = ri[k] & rng[k]
			}
		}
	}
	return c
}

// inter is r ∩ s.
func (r *bm) inter(s *bm) *bm {
	c := r.clone()
	for i := range c.b {
		c.b[i] &= s.b[i]
	}
	return c
}

// optId is r ∪ id.
func (r *bm) optId() *bm {
	c := r.clone()
	for i := 0; i < c.n; i++ {
		c.set(i, i)
	}
	return c
}

// immConsistent decides IMM's consistency of g natively.
func (g *graph) immConsistent(ar *arena) bool {
	ar.off = 0
	n := len(g.evs)
	evs := g.evs
	w := (n + 63) / 64
	// The sets of events the axioms name, in one pass over the events
	// (their modes from the tags' bits).
	words := func() []uint64 { return ar.words(w) }
	mR, mW, mRacq, mWrel, mFacq, mFrel, mFsc, mFence, mSC := words(), words(), words(), words(), words(), words(), words(), words(), words()
	mRex := words()
	const acqM, relM = tACQ | tACQREL | tSC, tREL | tACQREL | tSC
	for i := range evs {
		e := &evs[i]
		tm := tagMask(e.tags)
		b, bit := i/64, uint64(1)<<(uint(i)%64)
		acq, rel, sc := tm&acqM != 0, tm&relM != 0, tm&tSC != 0
		if sc {
			mSC[b] |= bit
		}
		switch e.kind {
		case event.Read:
			mR[b] |= bit
			if isRMWRead(e) {
				mRex[b] |= bit // RMW & R: a failing compare-and-swap's read too
			}
			if acq {
				mRacq[b] |= bit
			}
		case event.Write:
			mW[b] |= bit
			if rel {
				mWrel[b] |= bit
			}
		case event.Fence:
			if acq {
				mFacq[b] |= bit
			}
			if rel {
				mFrel[b] |= bit
			}
			if sc {
				mFsc[b] |= bit
			}
			if acq || rel {
				mFence[b] |= bit
			}
		}
	}
	in := func(m []uint64, i int) bool { return m[i/64]&(1<<(uint(i)%64)) != 0 }
	// the events of each thread, to tell internal pairs from external
	intl := make([][]uint64, len(g.threads))
	for t, th := range g.threads {
		intl[t] = make([]uint64, w)
		for _, i := range th {
			intl[t][i/64] |= 1 << (uint(i) % 64)
		}
	}

	sb, sbloc := ar.newBM(n), ar.newBM(n)
	poNext := ar.newBM(n) // sb's immediate pairs: (sb ∪ r)+ = (poNext ∪ r)+
	rmw := ar.newBM(n)
	anySC := false
	for _, th := range g.threads {
		for a, i := range th {
			if in(mSC, i) {
				anySC = true
			}
			if a+1 < len(th) {
				poNext.set(i, th[a+1])
			}
			for _, j := range th[a+1:] {
				sb.set(i, j)
				if evs[i].loc != "" && evs[i].loc == evs[j].loc {
					sbloc.set(i, j)
				}
			}
			if a > 0 && evs[i].rmwW && evs[th[a-1]].rmwR && evs[th[a-1]].pc == evs[i].pc {
				rmw.set(th[a-1], i)
				mRex[th[a-1]/64] |= 1 << (uint(th[a-1]) % 64)
			}
		}
	}
	rf, co, fr := ar.newBM(n), ar.newBM(n), ar.newBM(n)
	coPos := make([]int, n)
	placed := make([]bool, n)
	for _, o := range g.co {
		for a, x := range o {
			coPos[x] = a
			placed[x] = true
			for _, y := range o[a+1:] {
				co.set(x, y)
			}
		}
	}
	for i := range evs {
		if evs[i].kind == event.Read && evs[i].rf >= 0 {
			w := evs[i].rf
			rf.set(w, i)
			o := g.co[evs[i].loc]
			for _, y := range o[coPos[w]+1:] {
				if y != i {
					fr.set(i, y)
				}
			}
		}
	}
	extRel := func(r *bm) *bm {
		c := r.clone()
		for i := 0; i < n; i++ {
			if t := evs[i].thread; t >= 0 {
				ci := c.row(i)
				for k := range ci {
					ci[k] &^= intl[t][k]
				}
			}
		}
		return c
	}
	rfe, coe, fre := extRel(rf), extRel(co), extRel(fr)

	// Every write placed in coherence, every read reading one: the
	// atomicity and coherence axioms are decided on coherence positions
	// (below), else on the relations.
	byPos := true
	for i := range evs {
		switch e := &evs[i]; e.kind {
		case event.Write:
			byPos = byPos && placed[i]
		case event.Read:
			byPos = byPos && e.rf >= 0 && placed[e.rf]
		}
	}
	// atomicity: empty rmw & (fre ; coe): no write of another thread (or
	// initial) between the write a read-modify-write's read reads and
	// its write.
	if byPos {
		rmwBad := false
		for r := 0; r < n; r++ {
			rmw.each(r, func(w int) {
				o := g.co[evs[w].loc]
				for p := coPos[evs[r].rf] + 1; p < coPos[w]; p++ {
					if t := evs[o[p]].thread; t < 0 || t != evs[r].thread {
						rmwBad = true
					}
				}
			})
			if rmwBad {
				return false
			}
		}
	} else if !rmw.inter(fre.seq(coe)).isEmpty() {
		return false
	}

	// Release sequences, synchronisation, happens-before.
	a := sbloc.optId().seq(rf).seq(rmw)
	ap, _ := a.plusDAG()
	rs := sbloc.filter(mW, mW).or(ap.optId().filter(mW, nil))
	relStart := ar.newBM(n)
	for i := 0; i < n; i++ {
		if in(mWrel, i) {
			relStart.set(i, i)
		}
	}
	relStart.or(sb.filter(mFrel, nil))
	release := relStart.seq(rs)
	acqEnd := ar.newBM(n)
	for i := 0; i < n; i++ {
		if in(mRacq, i) {
			acqEnd.set(i, i)
		}
	}
	acqEnd.or(sb.filter(nil, mFacq))
	sw := release.seq(rf).seq(acqEnd)
	hb, cyclic := poNext.or(sw).plusDAG()
	if cyclic {
		return false // hb reflexive
	}

	// coherence: irreflexive hb ; eco? (eco = rf | co | co;rf | fr |
	// fr;rf, within a location): for a before b in hb, the write a reads
	// or is may not be coherence-after the one b reads (nor at or after
	// the write b is).
	var eco *bm
	if byPos {
		pos := func(e int) int {
			if evs[e].kind == event.Read {
				return coPos[evs[e].rf]
			}
			return coPos[e]
		}
		bad := false
		for a := 0; a < n && !bad; a++ {
			ea := &evs[a]
			if ea.kind != event.Read && ea.kind != event.Write {
				continue
			}
			sa := pos(a)
			hb.each(a, func(b int) {
				eb := &evs[b]
				if eb.loc != ea.loc {
					return
				}
				switch eb.kind {
				case event.Write:
					bad = bad || sa >= coPos[b]
				case event.Read:
					bad = bad || sa > coPos[eb.rf]
				}
			})
		}
		if bad {
			return false
		}
	} else {
		eco = rf.clone().or(co).or(co.seq(rf)).or(fr).or(fr.seq(rf))
		if hb.seqReflexive(eco) {
			return false
		}
	}

	// sc: RC11's partial SC order.
	var psc *bm
	if anySC {
		if eco == nil {
			eco = rf.clone().or(co).or(co.seq(rf)).or(fr).or(fr.seq(rf))
		}
		loc := func(i, j int) bool { return evs[i].loc != "" && evs[i].loc == evs[j].loc }
		sbdl, hbloc := ar.newBM(n), ar.newBM(n)
		for i := 0; i < n; i++ {
			sb.each(i, func(j int) {
				if !loc(i, j) {
					sbdl.set(i, j)
				}
			})
			hb.each(i, func(j int) {
				if loc(i, j) {
					hbloc.set(i, j)
				}
			})
		}
		scb := sb.clone().or(sbdl.seq(hb).seq(sbdl)).or(hbloc).or(co).or(fr)
		l, r := ar.newBM(n), ar.newBM(n)
		for i := 0; i < n; i++ {
			if in(mSC, i) {
				l.set(i, i)
				r.set(i, i)
			}
		}
		l.or(hb.filter(mFsc, nil))
		r.or(hb.filter(nil, mFsc))
		hbecohb := hb.seq(eco).seq(hb)
		pscFence := hb.clone().or(hbecohb).filter(mFsc, mFsc)
		if !l.seq(scb).seq(r).or(pscFence).acyclic() {
			return false
		}
		psc = hbecohb.filter(mFsc, mFsc)
	}

	// no-thin-air: acyclic ar.
	bob := sb.filter(nil, mWrel).or(sb.filter(mRacq, nil)).or(sb.filter(nil, mFence)).or(sb.filter(mFence, nil)).or(sbloc.filter(mWrel, mW))
	reads := g.readAt()
	deps := ar.newBM(n)
	addr := ar.newBM(n)
	for i := range evs {
		e := &evs[i]
		if e.thread < 0 {
			continue
		}
		for _, pc := range e.dataD() {
			if r, ok := reads.at(e.thread, pc); ok {
				deps.set(r, i)
			}
		}
		for _, pc := range e.ctrlD() {
			if r, ok := reads.at(e.thread, pc); ok {
				deps.set(r, i)
			}
		}
		for _, pc := range e.addrD() {
			if r, ok := reads.at(e.thread, pc); ok {
				addr.set(r, i)
			}
		}
	}
	deps.or(addr.seq(sb.optId()))
	deps.or(sb.filter(mRex, nil))
	rfi := ar.newBM(n)
	for i := 0; i < n; i++ {
		if t := evs[i].thread; t >= 0 {
			ri, fi := rf.row(i), rfi.row(i)
			for k := range fi {
				fi[k] = ri[k] & intl[t][k]
			}
		}
	}
	dr, _ := deps.or(rfi).plusDAG()
	ppo := dr.filter(mR, mW)
	detour := coe.seq(rfe).inter(sb)
	arel := rfe.clone().or(bob).or(ppo).or(detour)
	if psc != nil {
		arel.or(psc)
	}
	return arel.acyclic()
}

// isEmpty tells whether r has no pair.
func (r *bm) isEmpty() bool {
	for _, x := range r.b {
		if x != 0 {
			return false
		}
	}
	return true
}

// postOrder lists r's events so that each comes after every event it
// relates to (a depth-first post-order); ok is false when r has a cycle.
func (r *bm) postOrder() (order []int, ok bool) {
	a := r.a
	color := a.words(r.n) // used as bytes would be: 0 new, 1 on the path, 2 done
	order = a.ord[:0]
	stack := a.stk[:0]
	defer func() { a.ord, a.stk = order[:0], stack[:0] }()
	for s := 0; s < r.n; s++ {
		if color[s] != 0 {
			continue
		}
		color[s] = 1
		stack = append(stack[:0], poFrame{s, 0, r.row(s)[0]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.rest == 0 {
				top.k++
				if top.k < r.w {
					top.rest = r.row(top.v)[top.k]
					continue
				}
				color[top.v] = 2
				order = append(order, top.v)
				stack = stack[:len(stack)-1]
				continue
			}
			u := top.k*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			switch color[u] {
			case 1:
				return nil, false
			case 0:
				color[u] = 1
				stack = append(stack, poFrame{u, 0, r.row(u)[0]})
			}
		}
	}
	return order, true
}

// plusDAG is r's transitive closure, computed in post-order when r is
// acyclic (each row the union of its successors' rows), by plus
// otherwise; cyclic tells which.
func (r *bm) plusDAG() (c *bm, cyclic bool) {
	order, ok := r.postOrder()
	if !ok {
		return r.plus(), true
	}
	c = r.a.newBM(r.n)
	for _, v := range order {
		cv := c.row(v)
		copy(cv, r.row(v))
		r.each(v, func(u int) {
			for k, x := range c.row(u) {
				cv[k] |= x
			}
		})
	}
	return c, false
}

// seqReflexive tells whether r ; s relates some event to itself.
func (r *bm) seqReflexive(s *bm) bool {
	for i := 0; i < r.n; i++ {
		ri := r.row(i)
		for k, x := range ri {
			for x != 0 {
				j := k*64 + bits.TrailingZeros64(x)
				x &= x - 1
				if s.has(j, i) {
					return true
				}
			}
		}
	}
	return false
}
