package graph

import "github.com/musket-verify/musket/internal/event"

// rc11's axioms with vector clocks. When no event of a graph is SC, psc
// is empty and rc11.cat's axioms are: no-thin-air (sb ∪ rf acyclic), the
// two atomicity axioms and coherence (hb ; eco? irreflexive). hb is then
// decided with one vector clock per event (the last event of each thread
// that happens before it) instead of a bit matrix, and coherence pair by
// pair on each location: for a happens before b, both accesses of one
// location, the write a reads or is may not be coherence-after the write
// b reads or is (strictly before it when b is a write). These are
// exactly the ways eco (rf, mo, rb, and (mo | rb) ; rf, all within a
// location) can lead from b back to a: b a write, a a write: mo; a a
// read: rf or mo ; rf; b a read, a a write: rb; a a read: rb ; rf. The
// atomicity axiom on eco (no eco from a read-modify-write's write back to
// its read) is the case a = its read, b = its write, which sb orders.
// The work is O(n·T) for n events and T threads, where the matrices took
// O(n²/64) per relation and more for eco's products.

// topo fills c.order with g's events in an order of sb ∪ rf,
// predecessors first; false when sb ∪ rf has a cycle (no-thin-air).
func (c *checker) topo() bool {
	g := c.g
	return c.topoBy(func(y int) bool {
		e := &g.evs[y]
		return e.kind != event.Read || e.rf < 0 || c.color[e.rf] != 0
	})
}

// topoBy fills c.order with g's events, the initial writes first, then
// thread by thread in program order as far as ready allows (ready(y):
// every predecessor of y other than its sb-predecessor is placed, that
// is c.color is set for it); false when no thread can go on before all
// are placed (a cycle).
func (c *checker) topoBy(ready func(y int) bool) bool {
	g := c.g
	c.order = c.order[:0]
	c.color = c.color[:0]
	for range c.n {
		c.color = append(c.color, 0)
	}
	for i := range g.evs {
		if g.evs[i].thread < 0 {
			c.color[i] = 1
			c.order = append(c.order, i)
		}
	}
	cur := resize(c.starts, len(g.threads))
	c.starts = cur
	clear(cur)
	left := c.n - len(c.order)
	for left > 0 {
		moved := false
		for t, th := range g.threads {
			k := cur[t]
			for k < len(th) && ready(th[k]) {
				y := th[k]
				c.color[y] = 1
				c.order = append(c.order, y)
				k++
				left--
				moved = true
			}
			cur[t] = k
		}
		if !moved {
			return false
		}
	}
	return true
}

// rc11VC decides rc11 on a graph with no SC event (c.prepare done);
// flags gets data-race when a race exists.
func (c *checker) rc11VC(flags *[]string) bool {
	g := c.g
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Read && e.rf < 0 {
			return c.rc11(flags) // a read without its write: the matrices
		}
	}
	if !c.rbAtomic() {
		return false
	}
	if !c.topo() {
		return false
	}
	// sw, as lists of predecessors: a release write or fence a, a write
	// of its release sequence read by an atomic read r (an acquire one,
	// or one sb-before an acquire fence).
	c.swLists(c.synchronisesWith)
	// Vector clocks, in the order of sb ∪ rf (sw ⊆ (sb ∪ rf)+): vc[v][t]
	// is the sb-position of the last event of thread t that happens
	// before v (-1: none).
	T := c.clockRows()
	for _, v := range c.order {
		row := c.vc[v*T : (v+1)*T]
		e := &g.evs[v]
		if e.thread < 0 {
			for i := range row {
				row[i] = -1
			}
			continue
		}
		if k := c.ponum[v]; k > 0 {
			p := g.threads[e.thread][k-1]
			copy(row, c.vc[p*T:(p+1)*T])
			row[e.thread] = int32(k - 1)
		} else {
			for i := range row {
				row[i] = -1
			}
		}
		for _, a := range c.sw[v] {
			for i, x := range c.vc[a*T : (a+1)*T] {
				row[i] = max(row[i], x)
			}
			ta := g.evs[a].thread
			row[ta] = max(row[ta], int32(c.ponum[a]))
		}
	}
	// coherence, per location and thread: the accesses in sb with the
	// running maximum of the coherence positions they read or write.
	if !c.coherentVC() {
		return false
	}
	c.vcMode = true
	if flags != nil && c.race() {
		*flags = append(*flags, "data-race")
	}
	return true
}

// acc is an access in the per-thread, per-location lists of coherentVC.
type acc struct{ pn, smax int32 }

// coherentVC checks hb ; eco? irreflexive with the vector clocks.
func (c *checker) coherentVC() bool {
	g := c.g
	T := c.vcT
	// The locations by number (prepare: every accessed location has a
	// coherence order, its initial write at least).
	L := len(c.coL)
	pos := func(e int) int { // the coherence position e reads or writes
		if ee := &g.evs[e]; ee.kind == event.Read {
			return c.copos[ee.rf]
		}
		return c.copos[e]
	}
	locOf := func(e int) int {
		if ee := &g.evs[e]; ee.kind == event.Read {
			return c.locN[ee.rf]
		}
		return c.locN[e]
	}
	if cap(c.accs) < L*T {
		c.accs = make([][]acc, L*T)
	}
	c.accs = c.accs[:L*T]
	for i := range c.accs {
		c.accs[i] = c.accs[i][:0]
	}
	for t, th := range g.threads {
		for k, y := range th {
			if !c.isMem(y) {
				continue
			}
			l := &c.accs[locOf(y)*T+t]
			s := int32(pos(y))
			if m := len(*l); m > 0 && (*l)[m-1].smax > s {
				s = (*l)[m-1].smax
			}
			*l = append(*l, acc{int32(k), s})
		}
	}
	for b := range g.evs {
		eb := &g.evs[b]
		if eb.thread < 0 || !c.isMem(b) {
			continue
		}
		lim := pos(b) // b read: a's position at most this; b write: below it
		if eb.kind == event.Write {
			lim--
		}
		l := locOf(b)
		row := c.vc[b*T : (b+1)*T]
		for t := 0; t < T; t++ {
			k := row[t]
			if k < 0 {
				continue
			}
			as := c.accs[l*T+t]
			for j := len(as) - 1; j >= 0; j-- {
				if as[j].pn <= k {
					if int(as[j].smax) > lim {
						return false
					}
					break
				}
			}
		}
	}
	return true
}

// hbVC tells whether a happens before b, by the vector clocks rc11VC
// computed.
func (c *checker) hbVC(a, b int) bool {
	ta := c.g.evs[a].thread
	if ta < 0 || c.g.evs[b].thread < 0 {
		return false
	}
	return int32(c.ponum[a]) <= c.vc[b*c.vcT+ta]
}

// swLists makes c.sw the lists of sw-predecessors of each of the c.n
// events, as sw (a model's synchronisesWith) gives its edges.
func (c *checker) swLists(sw func(add func(a, x int))) {
	n := c.n
	if cap(c.sw) < n {
		c.sw = make([][]int, n)
	}
	c.sw = c.sw[:n]
	for i := range c.sw {
		c.sw[i] = c.sw[i][:0]
	}
	sw(func(a, x int) { c.sw[x] = append(c.sw[x], a) })
}

// clockRows sizes c.vc for a vector clock of T entries (one per thread)
// per event, and returns T.
func (c *checker) clockRows() int {
	T := len(c.g.threads)
	c.vcT = T
	if cap(c.vc) < c.n*T {
		c.vc = make([]int32, c.n*T)
	}
	c.vc = c.vc[:c.n*T]
	return T
}
