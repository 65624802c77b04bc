package graph

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// ev is an event of an execution graph.
type ev struct {
	thread int // -1 for an initial write
	// (kind, rmwR, rmwW and mask side by side: one word; every revisit
	// copies the events.)
	kind  event.Kind
	rmwR  bool   // the read of a read-modify-write
	rmwW  bool   // the write of a read-modify-write (po-after its read)
	mask  uint32 // the tags the native checks read (tagMask)
	loc   string
	val   prog.Value // the value written, or read
	tags  []string
	pc    int
	rf    int // a read's write
	stamp int // when it was added (initial writes: -1)
	// retag gives a read-modify-write's read its tags from the value it
	// reads (a failing compare-and-swap reads with its failure tags).
	retag func(prog.Value) []string
	// Under a model with dependencies (deps.go), what it depends on (nil
	// otherwise: kept apart so that the events copied by every revisit
	// stay small).
	dep *evDeps
	// symPre is, under symmetry reduction (symmetry.go), the last index
	// of its thread's symmetric predecessor that its prefix includes
	// (-1: none).
	symPre int
}

// evDeps are, under a model with dependencies (deps.go), the reads of
// an event's thread (by pc) it depends on by address, data and control,
// and, for a read-modify-write's write, whether its value depends on its
// read (iico_data). Never written once the event is made.
type evDeps struct {
	addrD, dataD, ctrlD []int
	iico                bool
	// sctrlD are the reads of every conditional branch before the event
	// (herd7's scoped control dependencies of C ifs left open): what
	// decides whether it runs and with which registers.
	sctrlD []int
}

// The dependencies of e (nil when it has none).
func (e *ev) addrD() []int {
	if e.dep == nil {
		return nil
	}
	return e.dep.addrD
}

func (e *ev) dataD() []int {
	if e.dep == nil {
		return nil
	}
	return e.dep.dataD
}

func (e *ev) ctrlD() []int {
	if e.dep == nil {
		return nil
	}
	return e.dep.ctrlD
}

func (e *ev) sctrlD() []int {
	if e.dep == nil {
		return nil
	}
	return e.dep.sctrlD
}

func (e *ev) iico() bool { return e.dep != nil && e.dep.iico }

// graph is an execution graph under construction.
type graph struct {
	evs     []ev
	threads [][]int          // each thread's events in po
	co      map[string][]int // per location, the coherence order (the initial write first)
	inits   map[string]int
	next    int // the next stamp
	// tc holds, per thread, the states before its events (tc[t][n]: the
	// state that gives its event number n, or its end; nil when not
	// kept). Only states of events that are in the graph with the values
	// they had then, or of the next event, are kept: adding an event
	// keeps them, removing one or changing what a read reads drops the
	// states after it. States are shared between graphs, never written.
	tc [][]*tstate
	// dc caches, per thread, its next event under a model with
	// dependencies (nextDep; known when dcOK): dropped when an event of
	// the thread is inserted or removed, or one of its reads reads
	// another write. (By value: no allocation per replay.)
	dc   []pending
	dcOK []bool
	// idx is restrict's scratch: the renumbering of the graph it was
	// made from.
	idx []int
	// prefix's scratch.
	prefHave, prefStack []int
}

func newGraph(threads int) *graph {
	return &graph{threads: make([][]int, threads), co: map[string][]int{}, inits: map[string]int{}, tc: make([][]*tstate, threads)}
}

// clone copies g (events are values; their tag slices are never written).
func (g *graph) clone() *graph {
	c := &graph{evs: append([]ev(nil), g.evs...), threads: make([][]int, len(g.threads)),
		co: make(map[string][]int, len(g.co)), inits: make(map[string]int, len(g.inits)), next: g.next, tc: make([][]*tstate, len(g.tc))}
	for i, t := range g.tc {
		c.tc[i] = append([]*tstate(nil), t...)
	}
	for l, x := range g.inits {
		c.inits[l] = x
	}
	for i, t := range g.threads {
		c.threads[i] = append([]int(nil), t...)
	}
	for l, o := range g.co {
		c.co[l] = append([]int(nil), o...)
	}
	return c
}

// initWrite returns the initial write of loc, adding it (with value v)
// when the graph has none yet (a location first met through a computed
// address).
func (g *graph) initWrite(loc string, v prog.Value, tags []string) int {
	if id, ok := g.inits[loc]; ok {
		return id
	}
	id := len(g.evs)
	g.evs = append(g.evs, ev{thread: -1, kind: event.Write, loc: loc, val: v, tags: tags, pc: -1, rf: -1, stamp: -1, mask: tagMask(tags)})
	g.co[loc] = []int{id}
	g.inits[loc] = id
	return id
}

// add appends an event of thread t.
func (g *graph) add(t int, e ev) int {
	id := len(g.evs)
	e.thread = t
	e.stamp = g.next
	g.next++
	g.evs = append(g.evs, e)
	g.threads[t] = append(g.threads[t], id)
	g.dropDep(t)
	return id
}

// dropDep forgets thread t's cached next event (dc).
func (g *graph) dropDep(t int) {
	if t >= 0 && t < len(g.dcOK) {
		g.dcOK[t] = false
	}
}

// prefix is the po ∪ rf prefix of event e (e included); with sym (each
// thread's symmetric predecessor, symmetry.go), an event's prefix also
// holds its predecessor's events up to its symPre.
func (g *graph) prefix(e int, sym []int) []bool {
	in := make([]bool, len(g.evs))
	have := resize(g.prefHave, len(g.threads)) // per thread, how many of its first events are in
	g.prefHave = have
	clear(have)
	pos := func(x int) int {
		th := g.threads[g.evs[x].thread]
		for k := len(th) - 1; k >= 0; k-- {
			if th[k] == x {
				return k
			}
		}
		return -1
	}
	stack := append(g.prefStack[:0], e)
	defer func() { g.prefStack = stack[:0] }()
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ex := &g.evs[x]
		if ex.thread < 0 {
			in[x] = true
			continue
		}
		t := ex.thread
		k := pos(x)
		if k < have[t] {
			continue
		}
		th := g.threads[t]
		pre := -1
		for j := have[t]; j <= k; j++ {
			y := th[j]
			in[y] = true
			ey := &g.evs[y]
			if ey.kind == event.Read && ey.rf >= 0 && !in[ey.rf] {
				stack = append(stack, ey.rf)
			}
			pre = max(pre, ey.symPre)
		}
		have[t] = k + 1
		if sym != nil && sym[t] >= 0 && pre >= 0 {
			if tp := g.threads[sym[t]]; len(tp) > 0 {
				stack = append(stack, tp[min(pre, len(tp)-1)])
			}
		}
	}
	return in
}

// restrict keeps the events keep says, renumbered; ok is false when a
// kept read would lose its write. The graph made reuses the storage of
// spare when it is not nil (a graph no longer used: engine.spare).
func (g *graph) restrict(keep []bool, spare *graph) (*graph, []int, bool) {
	c := spare
	if c == nil {
		c = &graph{}
	}
	c.next = g.next
	clear(c.dcOK)
	idx := resize(c.idx, len(g.evs))
	c.idx = idx
	// Room for the events the exploration adds back in place (appending
	// to a full slice reallocates it, the largest share of the engine's
	// allocations).
	if cap(c.evs) < len(g.evs)+16 {
		c.evs = make([]ev, 0, len(g.evs)+16)
	}
	c.evs = c.evs[:0]
	for i := range g.evs {
		idx[i] = -1
		if keep[i] {
			idx[i] = len(c.evs)
			c.evs = append(c.evs, g.evs[i])
		}
	}
	for i := range c.evs {
		if e := &c.evs[i]; e.kind == event.Read {
			if e.rf < 0 || idx[e.rf] < 0 {
				return nil, nil, false
			}
			e.rf = idx[e.rf]
		}
	}
	if len(c.threads) != len(g.threads) {
		c.threads = make([][]int, len(g.threads))
		c.tc = make([][]*tstate, len(g.threads))
	}
	for t, th := range g.threads {
		ct := c.threads[t][:0]
		if cap(ct) < len(th)+4 {
			ct = make([]int, 0, len(th)+4)
		}
		for _, x := range th {
			if idx[x] >= 0 {
				ct = append(ct, idx[x])
			}
		}
		c.threads[t] = ct
		// The removed events of a thread are a suffix of its events.
		c.tc[t] = append(c.tc[t][:0], g.tc[t][:min(len(g.tc[t]), len(ct)+1)]...)
	}
	if c.co == nil {
		c.co = make(map[string][]int, len(g.co))
	}
	for l := range c.co {
		if _, ok := g.co[l]; !ok {
			delete(c.co, l)
		}
	}
	for l, o := range g.co {
		co := c.co[l][:0]
		for _, x := range o {
			if idx[x] >= 0 {
				co = append(co, idx[x])
			}
		}
		if len(co) == 0 {
			delete(c.co, l)
		} else {
			c.co[l] = co
		}
	}
	if c.inits == nil {
		c.inits = make(map[string]int, len(g.inits))
	}
	clear(c.inits)
	for l, x := range g.inits {
		if x < len(idx) && idx[x] >= 0 {
			c.inits[l] = idx[x]
		}
	}
	return c, idx, true
}

// undo removes the events from mark on (the events added since g had
// mark events; the stamp was next), restoring g as it was then.
func (g *graph) undo(mark, next int) {
	for i := len(g.evs) - 1; i >= mark; i-- {
		e := &g.evs[i]
		if e.kind == event.Write {
			o := g.co[e.loc]
			for p, y := range o {
				if y == i {
					o = append(o[:p], o[p+1:]...)
					break
				}
			}
			if len(o) == 0 {
				delete(g.co, e.loc)
			} else {
				g.co[e.loc] = o
			}
		}
		if e.thread < 0 {
			if g.inits[e.loc] == i {
				delete(g.inits, e.loc)
			}
			continue
		}
		th := g.threads[e.thread]
		if k := len(th) - 1; th[k] == i {
			th = th[:k]
		} else {
			// An event inserted before kept ones (deps.go).
			for k--; k >= 0; k-- {
				if th[k] == i {
					th = append(th[:k], th[k+1:]...)
					break
				}
			}
		}
		g.threads[e.thread] = th
		g.dropDep(e.thread)
		if tc := g.tc[e.thread]; len(tc) > len(th)+1 {
			g.tc[e.thread] = tc[:len(th)+1]
		}
	}
	g.evs = g.evs[:mark]
	g.next = next
}

// unplaceCo takes write w out of the coherence order of its location,
// where placeCo put it at position pos.
func (g *graph) unplaceCo(w, pos int) {
	l := g.evs[w].loc
	o := g.co[l]
	g.co[l] = append(o[:pos], o[pos+1:]...)
}

// placeCo inserts write w into the coherence order of its location at
// position pos (1: right after the initial write).
func (g *graph) placeCo(w, pos int) {
	l := g.evs[w].loc
	o := g.co[l]
	o = append(o, 0)
	copy(o[pos+1:], o[pos:])
	o[pos] = w
	g.co[l] = o
}

// coMaxAmong tells whether, among the writes of x's location that prev
// holds, none is coherence-after write x.
func (g *graph) coMaxAmong(x int, prev func(int) bool) bool {
	o := g.co[g.evs[x].loc]
	after := false
	for _, y := range o {
		if after && prev(y) {
			return false
		}
		if y == x {
			after = true
		}
	}
	return after
}

// coPos is the position of write w in its location's coherence order
// (-1 when not placed).
func (g *graph) coPos(w int) int {
	for i, y := range g.co[g.evs[w].loc] {
		if y == w {
			return i
		}
	}
	return -1
}

// seen is the coherence position of the latest write to loc that
// thread t has seen: its own writes to loc and the writes its reads of
// loc read from, among its events other than skip (0: the initial
// write).
func (g *graph) seen(t int, loc string, skip ...int) int {
	not := -1
	if len(skip) > 0 {
		not = skip[0]
	}
	return g.seenAmong(g.threads[t], loc, not)
}

// seenAmong is the coherence position of the latest write to loc among
// evs (events of one thread) other than skip: the writes among them and
// the writes their reads read from (0: the initial write).
func (g *graph) seenAmong(evs []int, loc string, skip int) int {
	pos := 0
	for _, e := range evs {
		ee := &g.evs[e]
		if ee.loc != loc || e == skip {
			continue
		}
		w := e
		if ee.kind == event.Read {
			w = ee.rf
		} else if ee.kind != event.Write {
			continue
		}
		if p := g.coPos(w); p > pos {
			pos = p
		}
	}
	return pos
}
