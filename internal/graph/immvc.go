package graph

import (
	"fmt"
	"math/bits"

	"github.com/musket-verify/musket/internal/event"
)

// IMM's axioms with vector clocks (the built-in imm.cat), the way
// rc11vc.go decides rc11: when every read has its write and every write
// its place in coherence,
//
//   - atomicity (rmw ∩ fre ; coe empty) is decided on coherence
//     positions (checker.atomic);
//   - hb = (sb ∪ sw)+ is decided with one vector clock per event, taken
//     in a topological order of sb ∪ sw (none: hb is cyclic, coherence
//     fails), sw being IMM's (release sequences with sb-loc steps before
//     each rf ; rmw, any read, fences);
//   - coherence (hb ; eco? irreflexive) pair by pair on coherence
//     positions, as rc11's (checker.coherentVC);
//   - no-thin-air (ar acyclic): bob, ppo and detour lie within sb, so
//     each event gets one bit row of its ar-predecessors (barriers, the
//     reads its (deps ∪ rfi)+ closure reaches, computed thread by thread
//     in sb order, the write it reads from another thread and the
//     detours), and a depth-first search looks for a cycle;
//   - the data-race flag from the vector clocks (checker.race);
//   - with SC events: hb's matrix is read off the clocks (a is
//     hb-before b when b's clock holds a's place in a's thread), eco's
//     built on coherence, and psc (psc-base ∪ psc-fence, RC11's, which
//     imm.cat takes) is checked acyclic as for rc11 (checker.psc); the
//     psc of ar, [Fsc] ; hb ; eco ; hb ; [Fsc], adds rows to ar.
//
// Other graphs are left to the matrix check (imm.go). The work is
// O(n·T) for hb and coherence and O(n²/64) for ar, where the matrices
// took O(n²/64) per relation and per product.

// immFast is the scratch space of the vector-clock IMM check, reused
// from graph to graph.
type immFast struct {
	c        checker
	w        int      // words per bit row
	d        []uint64 // (deps ∪ rfi)+ predecessors, a row per event
	ar       []uint64 // ar predecessors, a row per event
	run      []uint64 // per thread: events so far, barriers, addr ; sb, Rex ; sb
	rd       []int    // reads of a thread by pc (-1: none)
	endSeen  []int
	stepSeen []int
	gen      int
	stack    []int
	frames   []poFrame
	color    []uint8
	// lastOK: the last graph decided was consistent by the clocks (c.vc
	// holds its hb).
	lastOK bool
}

// IMM's modes as tag bits.
const (
	immAcq = tACQ | tACQREL | tSC
	immRel = tREL | tACQREL | tSC
)

// decide decides IMM's consistency of g; done is false when g is one the
// vector clocks do not decide (a read without its write, a write not
// placed in coherence): the caller uses the matrix check. flags,
// when not nil, gets data-race when the consistent g has a race.
func (s *immFast) decide(g *graph, tagN []string, flags *[]string) (ok, done bool) {
	c := &s.c
	s.lastOK = false
	if !s.applies(g, tagN) {
		return false, false
	}
	if !c.atomic() {
		return false, true
	}
	if !s.clocks() {
		return false, true // hb cyclic
	}
	if !c.coherentVC() {
		return false, true
	}
	if c.anySC {
		// sc: psc acyclic, on hb's matrix taken from the clocks.
		s.hbMatrix()
		c.ecoMatrix()
		if !c.psc() {
			return false, true
		}
	}
	acyc, known := s.arAcyclic()
	if !known {
		c.vcMode = false
		return false, false
	}
	if !acyc {
		return false, true
	}
	if flags != nil && c.race() {
		*flags = append(*flags, "data-race")
	}
	s.lastOK = true
	return true, true
}

// applies prepares the checker on g and tells whether the vector clocks
// decide it (every read has its write, every write its place in
// coherence, no release initial write, read-modify-writes of one
// instruction).
func (s *immFast) applies(g *graph, tagN []string) bool {
	c := &s.c
	c.tagN = tagN
	c.vcMode = false
	c.prepare(g)
	for i := range g.evs {
		e := &g.evs[i]
		switch e.kind {
		case event.Read:
			if e.rf < 0 {
				return false
			}
		case event.Write:
			if c.copos[i] < 0 {
				return false
			}
			if e.thread < 0 && c.mask[i]&immRel != 0 {
				return false // a release initial write: not in the clocks
			}
		}
		if w := c.rmwOf[i]; w >= 0 && g.evs[w].pc != e.pc {
			return false
		}
	}
	return true
}

// clocks computes IMM's sw and one vector clock per event for hb (c.vc,
// vcMode set); false when sb ∪ sw has a cycle.
func (s *immFast) clocks() bool {
	c := &s.c
	g := c.g
	c.swLists(s.synchronisesWith)
	if !s.topo() {
		return false
	}
	T := c.clockRows()
	for _, v := range c.order {
		row := c.vc[v*T : (v+1)*T]
		e := &g.evs[v]
		for i := range row {
			row[i] = -1
		}
		if e.thread < 0 {
			continue
		}
		if k := c.ponum[v]; k > 0 {
			p := g.threads[e.thread][k-1]
			copy(row, c.vc[p*T:(p+1)*T])
			row[e.thread] = int32(k - 1)
		}
		for _, a := range c.sw[v] {
			for i, x := range c.vc[a*T : (a+1)*T] {
				row[i] = max(row[i], x)
			}
			ta := g.evs[a].thread
			row[ta] = max(row[ta], int32(c.ponum[a]))
		}
	}
	c.vcMode = true
	return true
}

// immFlags is nativeFlags under IMM: the data-race flag from the vector
// clocks of the last check, when it found g consistent by them (the
// engine's visit checked g and nothing changed it since); false when it
// cannot.
//
// A consistent graph whose last check was not the vector clocks' (the
// incremental decision found it consistent, or it was extended by an
// event with no outgoing edge: immincr.go) gets the flag from clocks
// computed for it alone: hb and the race condition need no more, its
// consistency being known.
func (x *engine) immFlags(g *graph, flags *[]string) bool {
	s := &x.arena.fast
	if x.opts.CrossCheck {
		return false
	}
	if !s.lastOK || s.c.g != g || s.c.n != len(g.evs) {
		if !s.applies(g, x.opts.TagNames) || !s.clocks() {
			return false
		}
	}
	if s.c.race() {
		*flags = append(*flags, "data-race")
	}
	return true
}

// synchronisesWith calls add(a, x) for each pair of IMM's sw = release ;
// rf ; ([Racq] | sb ; [Facq]), release = ([Wrel] | [Frel] ; sb) ; rs, rs
// = [W] ; sb-loc ; [W] | [W] ; (sb-loc? ; rf ; rmw)*: from a head write
// W0 (a release write, or any write sb-after a release fence), the
// writes its reads may read are W0, the writes sb-after it to its
// location, and the writes of the read-modify-writes reached by steps
// sb-loc? ; rf ; rmw from W0 or from such a write.
func (s *immFast) synchronisesWith(add func(a, x int)) {
	c := &s.c
	g := c.g
	s.endSeen = resize(s.endSeen, c.n)
	s.stepSeen = resize(s.stepSeen, c.n)
	if s.gen == 0 {
		clear(s.endSeen)
		clear(s.stepSeen)
	}
	end := func(a, e int) {
		if s.endSeen[e] == s.gen {
			return
		}
		s.endSeen[e] = s.gen
		for _, r := range c.readers[e] {
			if c.mask[r]&immAcq != 0 {
				add(a, r)
			}
			tr := g.threads[g.evs[r].thread]
			for k := c.ponum[r] + 1; k < len(tr); k++ {
				if f := tr[k]; c.isF(f) && c.mask[f]&immAcq != 0 {
					add(a, f)
				}
			}
		}
	}
	// sameLocAfter calls f for each write sb-after w to w's location.
	sameLocAfter := func(w int, f func(int)) {
		th := g.threads[g.evs[w].thread]
		for k := c.ponum[w] + 1; k < len(th); k++ {
			if y := th[k]; c.isW(y) && g.evs[y].loc == g.evs[w].loc {
				f(y)
			}
		}
	}
	for a := range g.evs {
		ea := &g.evs[a]
		if ea.thread < 0 || c.mask[a]&immRel == 0 || ea.kind == event.Read {
			continue
		}
		s.gen++
		heads := s.stack[:0]
		if ea.kind == event.Write {
			heads = append(heads, a)
		} else {
			th := g.threads[ea.thread]
			for k := c.ponum[a] + 1; k < len(th); k++ {
				if c.isW(th[k]) {
					heads = append(heads, th[k])
				}
			}
		}
		// The heads' own sb-loc endpoints; then rf ; rmw steps, from
		// each write reached, or a write sb-after it to its location.
		steps := heads
		for _, w0 := range heads {
			end(a, w0)
			sameLocAfter(w0, func(y int) { end(a, y) })
		}
		for len(steps) > 0 {
			wc := steps[len(steps)-1]
			steps = steps[:len(steps)-1]
			if s.stepSeen[wc] == s.gen {
				continue
			}
			s.stepSeen[wc] = s.gen
			end(a, wc)
			from := func(x int) {
				for _, r := range c.readers[x] {
					if w2 := c.rmwOf[r]; w2 >= 0 && s.stepSeen[w2] != s.gen {
						steps = append(steps, w2)
					}
				}
			}
			from(wc)
			sameLocAfter(wc, from)
		}
		s.stack = steps[:0]
	}
}

// topo fills c.order with g's events in an order of sb ∪ sw (c.sw,
// predecessor lists), predecessors first; false when it has a cycle.
func (s *immFast) topo() bool {
	c := &s.c
	return c.topoBy(func(y int) bool {
		for _, a := range c.sw[y] {
			if c.color[a] == 0 {
				return false
			}
		}
		return true
	})
}

// arAcyclic tells whether IMM's ar = rfe ∪ bob ∪ ppo ∪ detour ∪ psc
// (psc from c.hb and c.eco when there are SC events) is acyclic; known
// is false when a read reads a write of its own thread that is not
// sb-before it (the coherence check rules it out first).
func (s *immFast) arAcyclic() (acyclic, known bool) {
	c := &s.c
	g := c.g
	n := c.n
	w := (n + 63) / 64
	s.w = w
	s.d = resizeWords(s.d, n*w)
	s.ar = resizeWords(s.ar, n*w)
	clear(s.d)
	clear(s.ar)
	s.run = resizeWords(s.run, 5*w)
	reads := s.run[4*w:]
	clear(reads)
	for i := range g.evs {
		if g.evs[i].kind == event.Read {
			bitSet(reads, i)
		}
	}
	s.run = s.run[:4*w]
	before, barrier, addrSb, rexSb := s.run[:w], s.run[w:2*w], s.run[2*w:3*w], s.run[3*w:4*w]
	row := func(m []uint64, i int) []uint64 { return m[i*w : (i+1)*w] }
	or := func(dst, src []uint64) {
		for k := range dst {
			dst[k] |= src[k]
		}
	}
	for t, th := range g.threads {
		clear(s.run)
		// the thread's reads by pc
		top := -1
		for _, e := range th {
			if g.evs[e].kind == event.Read {
				top = max(top, g.evs[e].pc)
			}
		}
		s.rd = resize(s.rd, top+1)
		for i := range s.rd {
			s.rd[i] = -1
		}
		for _, e := range th {
			if g.evs[e].kind == event.Read {
				s.rd[g.evs[e].pc] = e
			}
		}
		readAt := func(pc int) int {
			if pc < 0 || pc >= len(s.rd) {
				return -1
			}
			return s.rd[pc]
		}
		for k, x := range th {
			e := &g.evs[x]
			d := row(s.d, x)
			early := true // every predecessor is sb-before x
			pred := func(r int) {
				early = early && c.ponum[r] < k
				// Every row is closed (a bit is set with its row, the
				// rows of addrSb and rexSb are unions of rows): a bit
				// already set brings nothing more.
				if !bitHas(d, r) {
					bitSet(d, r)
					or(d, row(s.d, r))
				}
			}
			// (deps ∪ rfi)+: data, ctrl, addr ; sb?, [Rex] ; sb, rfi.
			for _, pcs := range [3][]int{e.addrD(), e.dataD(), e.ctrlD()} {
				for _, pc := range pcs {
					if r := readAt(pc); r >= 0 {
						pred(r)
					}
				}
			}
			or(d, addrSb)
			or(d, rexSb)
			if !early {
				return false, false
			}
			ext := false
			if e.kind == event.Read {
				if y := e.rf; g.evs[y].thread == t {
					if c.ponum[y] >= k {
						return false, false
					}
					pred(y)
				} else {
					ext = true
				}
			}
			a := row(s.ar, x)
			or(a, barrier) // [Racq] ; sb, [Fence] ; sb
			m := c.mask[x]
			if e.kind == event.Write && m&immRel != 0 || e.kind == event.Fence && m&(immAcq|immRel) != 0 {
				or(a, before) // sb ; [Wrel], sb ; [Fence]
			}
			switch e.kind {
			case event.Write:
				for _, y := range th[:k] {
					if ey := &g.evs[y]; ey.kind == event.Write && c.mask[y]&immRel != 0 && ey.loc == e.loc {
						bitSet(a, y) // [Wrel] ; sb-loc ; [W]
					}
				}
				for j := range a {
					a[j] |= d[j] & reads[j]
				}
			case event.Read:
				if ext {
					bitSet(a, e.rf) // rfe
					p := c.copos[e.rf]
					for _, y := range th[:k] {
						if ey := &g.evs[y]; ey.kind == event.Write && ey.loc == e.loc && c.copos[y] < p {
							bitSet(a, y) // detour: y coe e.rf rfe x, y sb x
						}
					}
				}
			}
			bitSet(before, x)
			if e.kind == event.Read && m&immAcq != 0 || e.kind == event.Fence && m&(immAcq|immRel) != 0 {
				bitSet(barrier, x)
			}
			for _, pc := range e.addrD() {
				if r := readAt(pc); r >= 0 {
					bitSet(addrSb, r)
					or(addrSb, row(s.d, r))
				}
			}
			if c.rmwOf[x] >= 0 || e.kind == event.Read && isRMWRead(e) {
				bitSet(rexSb, x)
				or(rexSb, d)
			}
		}
	}
	if c.anySC {
		s.pscRows()
	}
	return s.acyclicRows(), true
}

// hbMatrix fills c.hb (a row of hb-successors per event) from the vector
// clocks: a is hb-before b when b's clock has a's thread at a's place or
// later.
func (s *immFast) hbMatrix() {
	c := &s.c
	g := c.g
	T := c.vcT
	c.hb.reset(c.n)
	for b := range g.evs {
		if g.evs[b].thread < 0 {
			continue
		}
		for t, m := range c.vc[b*T : (b+1)*T] {
			th := g.threads[t]
			for j := 0; j <= int(m) && j < len(th); j++ {
				c.hb.set(th[j], b)
			}
		}
	}
}

// pscRows adds to the ar rows IMM's psc = [Fsc] ; hb ; eco ; hb ; [Fsc]
// (c.hb and c.eco hold hb and eco).
func (s *immFast) pscRows() {
	c := &s.c
	g := c.g
	w := s.w
	fsc := func(e int) bool { return g.evs[e].kind == event.Fence && c.has(e, tSC) }
	for f1 := range g.evs {
		if !fsc(f1) {
			continue
		}
		eachBit(c.hb.row(f1), func(y int) {
			eachBit(c.eco.row(y), func(z int) {
				eachBit(c.hb.row(z), func(f int) {
					if fsc(f) {
						bitSet(s.ar[f*w:(f+1)*w], f1)
					}
				})
			})
		})
	}
}

// acyclicRows tells whether the relation whose predecessor rows are s.ar
// has no cycle (a depth-first search).
func (s *immFast) acyclicRows() bool {
	n, w := s.c.n, s.w
	s.color = s.color[:0]
	for range n {
		s.color = append(s.color, 0)
	}
	stack := s.frames[:0]
	defer func() { s.frames = stack[:0] }()
	for v0 := 0; v0 < n; v0++ {
		if s.color[v0] != 0 {
			continue
		}
		s.color[v0] = 1
		stack = append(stack[:0], poFrame{v0, 0, s.ar[v0*w]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.rest == 0 {
				top.k++
				if top.k < w {
					top.rest = s.ar[top.v*w+top.k]
					continue
				}
				s.color[top.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			u := top.k*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			switch s.color[u] {
			case 1:
				return false
			case 0:
				s.color[u] = 1
				stack = append(stack, poFrame{u, 0, s.ar[u*w]})
			}
		}
	}
	return true
}

func resizeWords(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

// immNative decides the built-in IMM on g without the CAT model: by
// vector clocks where they apply, else by the matrix check; done is
// false when the CAT model must decide (flags wanted on a graph the
// vector clocks do not decide).
func (x *engine) immNative(g *graph, flags *[]string) (ok, done bool) {
	wantFlags := flags != nil && !x.opts.NoFlags
	fp := flags
	if !wantFlags {
		fp = nil
	}
	if ok, done := x.arena.fast.decide(g, x.opts.TagNames, fp); done {
		return ok, true
	}
	if wantFlags {
		return false, false
	}
	return g.immConsistent(&x.arena), true
}

// immCross compares the native IMM checks (the matrices, and the vector
// clocks where they apply, with the data-race flag) with the CAT model's
// verdict want and flags on g (Options.CrossCheck).
func (x *engine) immCross(g *graph, want bool, flags *[]string) error {
	if got := g.immConsistent(&x.arena); got != want {
		return fmt.Errorf("internal error: the native IMM check says %v, the CAT model %v, on a graph of %d events", got, want, len(g.evs))
	}
	var nf []string
	ok, done := x.arena.fast.decide(g, x.opts.TagNames, &nf)
	if !done {
		return nil
	}
	if ok != want || ok && flags != nil && !sameFlags(nf, *flags) {
		cf := []string(nil)
		if flags != nil {
			cf = *flags
		}
		return fmt.Errorf("internal error: the vector-clock IMM check says consistent=%v flags=%v, the CAT model consistent=%v flags=%v, on %s",
			ok, nf, want, cf, x.dump(g))
	}
	return nil
}

// isRMWRead tells whether read e is tagged RMW (imm.cat's Rex =
// domain(rmw) | (RMW & R): the read of a failing compare-and-swap too).
func isRMWRead(e *ev) bool {
	for _, t := range e.tags {
		if t == "RMW" {
			return true
		}
	}
	return false
}
