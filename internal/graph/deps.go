package graph

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Models with load buffering (IMM), after Kokologiannakis, Vafeiadis,
// "HMC: Model Checking for Hardware Memory Models" (ASPLOS 2020).
//
// Under such a model a read may read from a write its own thread's later
// events lead to (po ∪ rf cycles), as long as the cycle goes through no
// dependency. The engine tracks the syntactic dependencies of every
// event (addr, data, ctrl: the reads of its thread its address, its value
// and the branches taken before it were computed from) as it replays a
// thread, and a backward revisit of read r by write w keeps, besides the
// events added before r, the dependency prefix of w: the events w
// depends on, closed under dependencies, reads-from and the pairing of a
// read-modify-write's read and write. Events of r's thread after r may
// stay (they do not depend on r); the events removed leave holes in
// their threads, filled again when the threads are replayed. An event is
// known by its instruction (pc): the code is loop-free, so each
// instruction runs at most once per replay, and a kept event is reached
// again whatever values the removed reads had, since neither its
// existence (ctrl), location (addr) nor value (data) depends on them.
//
// A read-modify-write's write exists only when its condition holds
// (a compare-and-swap's comparison; a weak one's coin): the reads the
// condition's registers come from decide whether it runs, so they are in
// its sctrlD. Without them a revisit could keep the write and drop the
// read that let it run (a weak CAS's coin, added after the revisited
// read): the replay then reached the kept write no more and the
// execution was lost (cw11/bufring_mp.c -D BUG, PASS under imm,
// aarch64, riscv where the SMT engine and sc fail).
//
// Control dependencies cover every later event of the thread (as in
// assembly and in the programs cfront lowers), or, for herd7's C if
// statements (prog.Jump.Join), the events up to the join: the model sees
// those (ctrl). What a revisit keeps is decided with every branch taken
// before an event (sctrlD): after a join, whether an event runs and
// with which register values may still depend on the branch taken.

// depModels are the built-in models with load buffering the engine
// decides, tracking dependencies.
var depModels = map[string]bool{"imm": true, "aarch64": true, "riscv": true}

// tracksDeps tells whether the built-in model name needs dependency
// tracking.
func tracksDeps(name string) bool { return depModels[normModel(name)] }

// taint is what a register's value was computed from: the pcs of the
// reads of its thread, sorted.
type taint = []int

// nextDep re-runs thread t from its start, reading the values its reads
// have in g and tracking dependencies, and returns its next event (the
// first instruction whose event g does not have: a hole, or the end of
// the thread's events), with its place in the thread's events.
func (x *engine) nextDep(g *graph, t int) (pending, error) {
	if t < len(g.dcOK) && g.dcOK[t] {
		return g.dc[t], nil
	}
	replay := x.replayC
	if x.opts.CrossCheck {
		replay = x.replayCross
	}
	p, err := replay(g, t, false)
	if err != nil {
		return p, err
	}
	if len(g.dc) != len(g.threads) {
		g.dc = make([]pending, len(g.threads))
		g.dcOK = make([]bool, len(g.threads))
	}
	g.dc[t], g.dcOK[t] = p, true
	return p, nil
}

// replayDep is nextDep without its cache, with registers by name and
// from the thread's start: the reference for replayC (depreplay.go).
func (x *engine) replayDep(g *graph, t int) (pending, error) {
	th := x.t.Threads[t]
	labels := x.labels[t]
	regs := make(map[string]prog.Value, len(x.initRegs[t])+16)
	deps := x.arena.depsOf()
	for k, v := range x.initRegs[t] {
		regs[k] = v
	}
	var ctrl, sctrl taint
	var scoped map[string]taint
	ctrlNow := func() taint {
		c := ctrl
		for _, d := range scoped {
			c = mergeTaint(c, d)
		}
		return c
	}
	mine := g.threads[t]
	k := 0
	at := func(pc int) string { return replayAt(th, pc) }
	// have tells whether g has the event of instruction pc (the write of
	// a read-modify-write when w); it fails when a kept event of the
	// thread was passed by.
	have := func(pc int, w bool) (bool, error) { return keptNext(g, mine, k, pc, w, th) }
	pend := func(e ev, addr, data taint) pending {
		e.mask = tagMask(e.tags)
		e.dep = &evDeps{addrD: addr, dataD: data, ctrlD: ctrlNow(), sctrlD: sctrl}
		return pending{e: e, regs: regs, pos: k}
	}
	// evErr is the first operation eval failed to compute: it is
	// reported at its instruction, never run on.
	var evErr error
	yield := func(p pending) (pending, error) {
		if evErr != nil {
			return pending{}, opError(at(p.e.pc), evErr)
		}
		if v, ok := x.faultAt(p.e, t, p.e.pc); ok {
			// As replayC (fault.go).
			if k < len(mine) {
				return pending{}, faultKept(at(p.e.pc), p.e.loc)
			}
			regs[x.opts.FaultReg] = v
			return pending{done: true, regs: regs}, nil
		}
		return p, nil
	}
	last := 0
	for pc, steps := 0, 0; pc < len(th.Code); steps++ {
		if evErr != nil {
			return pending{}, opError(at(last), evErr)
		}
		last = pc
		if steps > maxSteps {
			return pending{}, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
		}
		switch in := th.Code[pc].(type) {
		case prog.Label:
			if _, ok := scoped[in.Name]; ok {
				m := make(map[string]taint, len(scoped))
				for l, d := range scoped {
					if l != in.Name {
						m[l] = d
					}
				}
				scoped = m
			}
			pc++
		case prog.Assign:
			regs[in.Dst] = eval(in.Val, regs, prog.Value{}, &evErr)
			deps[in.Dst] = exprDeps(in.Val, deps, nil)
			pc++
		case prog.Jump:
			if in.Cond != nil {
				d := exprDeps(in.Cond, deps, nil)
				sctrl = mergeTaint(sctrl, d)
				switch {
				case in.NoCtrl:
				case in.Join == "":
					ctrl = mergeTaint(ctrl, d)
				case len(d) > 0:
					m := make(map[string]taint, len(scoped)+1)
					for l, d := range scoped {
						m[l] = d
					}
					m[in.Join] = mergeTaint(m[in.Join], d)
					scoped = m
				}
			}
			if in.Cond == nil || prog.Truth(eval(in.Cond, regs, prog.Value{}, &evErr)) {
				if labels[in.Target] <= pc {
					// Events are known by their instruction: each runs
					// once at most.
					return pending{}, fmt.Errorf("%sthe graph engine runs loop-free code: a loop remains (unroll it)", at(pc))
				}
				pc = labels[in.Target]
			} else {
				pc++
			}
		case prog.Fence:
			ok, err := have(pc, false)
			if err != nil {
				return pending{}, err
			}
			if ok {
				k++
				pc++
				continue
			}
			return yield(pend(ev{kind: event.Fence, tags: in.Tags, pc: pc, rf: -1}, nil, nil))
		case prog.Load:
			if in.Part {
				return pending{}, unsupportedInstr(at(pc), in)
			}
			loc := locOf(eval(in.Addr, regs, prog.Value{}, &evErr))
			ok, err := have(pc, false)
			if err != nil {
				return pending{}, err
			}
			if ok {
				if in.Dst != "" {
					regs[in.Dst] = g.evs[mine[k]].val
					deps[in.Dst] = taint{pc}
				}
				k++
				pc++
				continue
			}
			return yield(pend(ev{kind: event.Read, loc: loc, tags: in.Tags, pc: pc, rf: -1}, exprDeps(in.Addr, deps, nil), nil))
		case prog.Store:
			if in.Part {
				return pending{}, unsupportedInstr(at(pc), in)
			}
			ok, err := have(pc, false)
			if err != nil {
				return pending{}, err
			}
			if ok {
				k++
				pc++
				continue
			}
			loc := locOf(eval(in.Addr, regs, prog.Value{}, &evErr))
			v := eval(in.Val, regs, prog.Value{}, &evErr)
			return yield(pend(ev{kind: event.Write, loc: loc, val: v, tags: in.Tags, pc: pc, rf: -1},
				exprDeps(in.Addr, deps, nil), exprDeps(in.Val, deps, nil)))
		case prog.RMW:
			loc := locOf(eval(in.Addr, regs, prog.Value{}, &evErr))
			ad := exprDeps(in.Addr, deps, nil)
			holds := func(old prog.Value) bool {
				return in.Cond == nil || prog.Truth(eval(in.Cond, regs, old, &evErr))
			}
			ok, err := have(pc, false)
			if err != nil {
				return pending{}, err
			}
			if !ok {
				rd := ev{kind: event.Read, loc: loc, tags: in.RTags, pc: pc, rf: -1, rmwR: true}
				p := pend(rd, ad, nil)
				if in.FailRTags != nil {
					p.e.retag = func(old prog.Value) []string {
						if holds(old) {
							return in.RTags
						}
						return in.FailRTags
					}
					// Its tags depend on the condition: its reads decide
					// with which tags it runs (as its write's existence).
					p.e.dep.sctrlD = mergeTaint(p.e.dep.sctrlD, exprDeps(in.Cond, deps, nil))
				}
				return yield(p)
			}
			old := g.evs[mine[k]].val
			k++
			if holds(old) {
				ok, err := have(pc, true)
				if err != nil {
					return pending{}, err
				}
				if !ok {
					nv := eval(in.New, regs, old, &evErr)
					nd := exprDeps(in.New, deps, taint{pc})
					iico := false
					var data taint
					for _, d := range nd {
						if d == pc {
							iico = true
						} else {
							data = append(data, d)
						}
					}
					p := pend(ev{kind: event.Write, loc: loc, val: nv, tags: in.WTags, pc: pc, rf: -1, rmwW: true}, ad, data)
					p.e.dep.iico = iico
					p.e.dep.sctrlD = mergeTaint(p.e.dep.sctrlD, exprDeps(in.Cond, deps, nil))
					return yield(p)
				}
				k++
			}
			if in.Dst != "" {
				regs[in.Dst] = old
				deps[in.Dst] = taint{pc}
			}
			pc++
		default:
			return pending{}, unsupportedInstr(at(pc), in)
		}
	}
	if evErr != nil {
		return pending{}, opError(at(last), evErr)
	}
	if k < len(mine) {
		return pending{}, fmt.Errorf("%s: internal error: the graph engine's replay ended before an event it kept (dependency tracking)", th.Name)
	}
	return pending{done: true, regs: regs}, nil
}

// exprDeps is the taint of expression e: the union of its registers'
// (old is that of prog.Old, an RMW's read).
func exprDeps(e prog.Expr, deps map[string]taint, old taint) taint {
	switch e := e.(type) {
	case prog.Reg:
		return deps[e.Name]
	case prog.Old:
		return old
	case prog.Bin:
		return mergeTaint(exprDeps(e.X, deps, old), exprDeps(e.Y, deps, old))
	case prog.Un:
		return exprDeps(e.X, deps, old)
	}
	return nil
}

// insert adds event e of thread t at place pos of its events.
func (g *graph) insert(t, pos int, e ev) int {
	id := len(g.evs)
	e.thread = t
	e.stamp = g.next
	g.next++
	g.evs = append(g.evs, e)
	th := append(g.threads[t], 0)
	copy(th[pos+1:], th[pos:])
	th[pos] = id
	g.threads[t] = th
	g.dropDep(t)
	return id
}

// pcReads maps each thread's reads by pc to their events.
type pcReads [][]int

// at is the read of thread t at pc.
func (m pcReads) at(t, pc int) (int, bool) {
	if t < 0 || t >= len(m) || pc < 0 || pc >= len(m[t]) || m[t][pc] < 0 {
		return 0, false
	}
	return m[t][pc], true
}

// readAt maps each thread's reads by pc to their events.
func (g *graph) readAt() pcReads { return g.readAtInto(nil) }

// readAtInto is readAt reusing the rows of m.
func (g *graph) readAtInto(m pcReads) pcReads {
	if cap(m) < len(g.threads) {
		m = make(pcReads, len(g.threads))
	}
	m = m[:len(g.threads)]
	for t, th := range g.threads {
		top := -1
		for _, e := range th {
			if g.evs[e].kind == event.Read && g.evs[e].pc > top {
				top = g.evs[e].pc
			}
		}
		row := m[t]
		if cap(row) < top+1 {
			row = make([]int, top+1)
		}
		row = row[:top+1]
		for i := range row {
			row[i] = -1
		}
		for _, e := range th {
			if g.evs[e].kind == event.Read {
				row[g.evs[e].pc] = e
			}
		}
		m[t] = row
	}
	return m
}

// depPrefix is the prefix of write w that a backward revisit by w keeps
// (w included): the events IMM's preserved order ar (external
// reads-from, the barrier order bob, the preserved program order ppo,
// whose dependencies include the events after the read of a
// read-modify-write) puts before w, and what determines each of them:
// the reads it depends on (addr, data, ctrl), the writes its reads read,
// the read and the write of a read-modify-write, closed under the same.
// A write reached only to determine a read of its own thread (rfi, not in
// ar) brings what determines it, not what ar puts before it.
func (g *graph) depPrefix(w int, sc *prefScratch) []bool {
	reads := g.readAtInto(sc.rows)
	sc.rows = reads
	inA := sc.bools(len(g.evs))    // ar*-before w
	in := make([]bool, len(g.evs)) // kept
	aStack, dStack := sc.a[:0], sc.d[:0]
	defer func() { sc.a, sc.d = aStack[:0], dStack[:0] }()
	toA := func(y int) {
		if !inA[y] {
			inA[y] = true
			aStack = append(aStack, y)
		}
	}
	toD := func(y int) {
		if !in[y] {
			in[y] = true
			dStack = append(dStack, y)
		}
	}
	depReads := func(e *ev, f func(int)) {
		for _, pc := range e.addrD() {
			if r, ok := reads.at(e.thread, pc); ok {
				f(r)
			}
		}
		for _, pc := range e.dataD() {
			if r, ok := reads.at(e.thread, pc); ok {
				f(r)
			}
		}
		for _, pc := range e.ctrlD() {
			if r, ok := reads.at(e.thread, pc); ok {
				f(r)
			}
		}
	}
	toA(w)
	seen := sc.ints(len(g.evs)) // ppoPreds's marks, by call number
	// pos is each event's place in its thread; hi, per thread, how many
	// of its first events ppoPreds has taken the address dependencies of
	// (addr ; po).
	pos := sc.places(g)
	hi := sc.his(len(g.threads))
	sc.bob = resize(sc.bob, 2*len(g.threads))
	clear(sc.bob)
	bobAll, bobSome := sc.bob[:len(g.threads)], sc.bob[len(g.threads):]
	stk := sc.stk // ppoPreds's stack
	defer func() { sc.stk = stk[:0] }()
	for len(aStack) > 0 || len(dStack) > 0 {
		if len(aStack) > 0 {
			x := aStack[len(aStack)-1]
			aStack = aStack[:len(aStack)-1]
			toD(x)
			ex := &g.evs[x]
			if ex.thread < 0 {
				continue
			}
			if ex.kind == event.Read && ex.rf >= 0 && g.evs[ex.rf].thread != ex.thread {
				toA(ex.rf) // rfe
			}
			// ppo: the reads x depends on through dependencies and
			// reads-from within the thread. One mark for every call:
			// what a walk reaches from an event does not depend on the
			// call (its steps are the event's dependencies and
			// reads-from, hi is shared), so an event a call walked from
			// is not walked from again (ppoPreds).
			g.ppoPreds(x, reads, toA, toD, seen, 1, &stk, pos, hi)
			th := g.threads[ex.thread]
			// bob (and [Rex] ; sb): every event before a release write
			// or a fence; before any event, the acquire reads, the
			// reads of read-modify-writes and the fences; before a
			// write, the release writes to its location. The first two
			// depend on x's place only: each thread's first events
			// already taken so (bobAll, bobSome) are not looked at again.
			// (modes from the tag bits: at least release, at least acquire)
			t, k := ex.thread, pos[x]
			all := ex.kind == event.Write && ex.mask&immRel != 0 || ex.kind == event.Fence && ex.mask&(immAcq|immRel) != 0
			if all && k > bobAll[t] {
				for _, y := range th[bobAll[t]:k] {
					toA(y)
				}
				bobAll[t] = k
			}
			if k > bobSome[t] {
				for j := bobSome[t]; j < k; j++ {
					ey := &g.evs[th[j]]
					if ey.kind == event.Read && (ey.mask&immAcq != 0 || ey.rmwR && j+1 < len(th) && g.evs[th[j+1]].rmwW) ||
						ey.kind == event.Fence && ey.mask&(immAcq|immRel) != 0 {
						toA(th[j])
					}
				}
				bobSome[t] = k
			}
			if ex.kind == event.Write && !all {
				for _, y := range th[:k] {
					if ey := &g.evs[y]; ey.kind == event.Write && ey.loc == ex.loc && ey.mask&immRel != 0 {
						toA(y)
					}
				}
			}
			continue
		}
		x := dStack[len(dStack)-1]
		dStack = dStack[:len(dStack)-1]
		ex := &g.evs[x]
		if ex.thread < 0 {
			continue
		}
		depReads(ex, toD)
		for _, pc := range ex.sctrlD() {
			if r, ok := reads.at(ex.thread, pc); ok {
				toD(r)
			}
		}
		if ex.kind == event.Read && ex.rf >= 0 {
			toD(ex.rf)
		}
		if ex.rmwR || ex.rmwW {
			for _, y := range g.threads[ex.thread] {
				if y != x && g.evs[y].pc == ex.pc {
					toD(y)
				}
			}
		}
		if sc.sym != nil {
			g.symKept(x, sc.sym, toD) // (immsym.go)
		}
	}
	return in
}

// ppoPreds adds to A the reads before x in IMM's ppo (through
// dependencies, addr ; po, and reads-from within the thread), the
// writes such a chain passes through to D; seen marks, with the number
// call, the events walked from: depPrefix gives every call one number,
// so that an event met by an earlier call (or the start x, when one
// did) is not walked from again, its walk being the same whatever the
// call (its reads go to A, the writes it passes through to D). The
// reads an address depends on (addr ; po) are taken once per depPrefix,
// for each thread, up to the latest place met (hi): such a read is put
// in A, and its own call (depPrefix calls ppoPreds on every event put
// in A) follows what is ppo-before it, as this call would.
func (g *graph) ppoPreds(x int, reads pcReads, toA, toD func(int), seen []int, call int, stk *[]int, pos, hi []int) {
	ex := &g.evs[x]
	if seen[x] == call {
		return // walked from already, by this call number (depPrefix)
	}
	seen[x] = call
	stack := append((*stk)[:0], x)
	for len(stack) > 0 {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ey := &g.evs[y]
		t := ey.thread
		// The reads y depends on (addr, data, ctrl), and, through addr ;
		// po, the reads an earlier event's address depends on.
		for d := 0; d < 3; d++ {
			var pcs []int
			switch d {
			case 0:
				pcs = ey.addrD()
			case 1:
				pcs = ey.dataD()
			case 2:
				pcs = ey.ctrlD()
			}
			for _, pc := range pcs {
				if r, ok := reads.at(t, pc); ok && seen[r] != call {
					seen[r] = call
					toA(r)
					stack = append(stack, r)
				}
			}
		}
		if p := pos[y]; p > hi[t] {
			for _, z := range g.threads[t][hi[t]:p] {
				for _, pc := range g.evs[z].addrD() {
					if r, ok := reads.at(t, pc); ok {
						toA(r)
					}
				}
			}
			hi[t] = p
		}
		if ey.kind == event.Read && ey.rf >= 0 && g.evs[ey.rf].thread == ex.thread && seen[ey.rf] != call {
			seen[ey.rf] = call
			toD(ey.rf)
			stack = append(stack, ey.rf)
		}
	}
	*stk = stack[:0]
}

// pickDep is pick under a model with dependencies: the thread whose
// read-modify-write has read but not written first, else the first
// thread with an event to add (a hole, or more code).
func (x *engine) pickDep(g *graph) (int, pending, []regFile, error) {
	for t, th := range g.threads {
		for j, e := range th {
			if g.evs[e].rmwR && (j+1 == len(th) || !g.evs[th[j+1]].rmwW || g.evs[th[j+1]].pc != g.evs[e].pc) {
				p, err := x.nextDep(g, t)
				if err != nil {
					return 0, p, nil, err
				}
				if !p.done && p.e.rmwW {
					return t, p, nil, nil
				}
				break
			}
		}
	}
	waiting := false
	for t := range g.threads {
		p, err := x.nextDep(g, t)
		if err != nil {
			return 0, p, nil, err
		}
		if !p.done && !x.waits(g, p.e) {
			return t, p, nil, nil
		}
		waiting = waiting || !p.done
	}
	// No thread can run: the final register files (nextDep's cache
	// answers again).
	regs := make([]regFile, len(g.threads))
	for t := range g.threads {
		p, err := x.nextDep(g, t)
		if err != nil {
			return 0, p, nil, err
		}
		if !p.done {
			// A thread that waits: its registers now (fin).
			replay := x.replayC
			if x.opts.CrossCheck {
				replay = x.replayCross
			}
			if p, err = replay(g, t, true); err != nil {
				return 0, p, nil, err
			}
		}
		regs[t] = regFile{x.code[t], p.fin}
	}
	x.waiting = waiting
	return -1, pending{}, regs, nil
}

// depRels adds the dependencies of g's events to eg (num numbers g's
// events as eg's).
func (g *graph) depRels(eg *event.Graph, num []int) {
	reads := g.readAt()
	for i := range g.evs {
		e := &g.evs[i]
		if e.thread < 0 {
			continue
		}
		for _, d := range []struct {
			pcs []int
			out *[][2]int
		}{{e.addrD(), &eg.Addr}, {e.dataD(), &eg.Data}, {e.ctrlD(), &eg.Ctrl}} {
			for _, pc := range d.pcs {
				if r, ok := reads.at(e.thread, pc); ok {
					*d.out = append(*d.out, [2]int{num[r], num[i]})
				}
			}
		}
		if e.iico() {
			if r, ok := reads.at(e.thread, e.pc); ok {
				eg.IicoData = append(eg.IicoData, [2]int{num[r], num[i]})
			}
		}
	}
}

// seenBefore is seen under a model with dependencies: the coherence
// position of the latest write to loc that the events of thread t
// before place pos saw (its writes, and the writes its reads read). A
// read after them reading an older write, or a write after them placed
// before it, breaks coherence (hb ; eco is irreflexive in IMM as in
// RC11), so such graphs are not built.
func (g *graph) seenBefore(t int, loc string, pos int) int {
	return g.seenAmong(g.threads[t][:pos], loc, -1)
}

// posIn is the place of event e among its thread's events.
func (g *graph) posIn(e int) int {
	for j, y := range g.threads[g.evs[e].thread] {
		if y == e {
			return j
		}
	}
	return 0
}

// mustCheck tells whether adding p's event to thread t of g may make
// the graph inconsistent even when it reads the coherence-latest write,
// is a write placed coherence-last, or is a fence (visit). Under IMM
// such an event has no outgoing edge in any relation of the model (po,
// rf, co, fr, rs, sw, hb, eco, psc, bob, deps, ppo, detour) when it is
// the last event of its thread, so it closes no cycle; it may when
// later events of its thread stay from a revisit, and the write of a
// read-modify-write may break atomicity wherever it is placed (but
// under IMM, where it is placed right after the write its read reads:
// immsym.go).
func (x *engine) mustCheck(g *graph, t int, p pending) bool {
	return x.deps && (p.pos < len(g.threads[t]) || p.e.rmwW && !x.immRMW)
}

// regFileOf numbers the registers of thread t (a map, as nextDep keeps
// them) as its compiled code does, for complete.
func (x *engine) regFileOf(t int, regs map[string]prog.Value) regFile {
	ct := x.code[t]
	v := make([]prog.Value, len(ct.names))
	for name, val := range regs {
		if i, ok := ct.slot[name]; ok {
			v[i] = val
		}
	}
	return regFile{ct, v}
}

// visitDep is visit under a model with dependencies: events are
// inserted at their place in their thread (a hole a revisit left), the
// graph is extended in place and restored (undo removes an event from
// wherever it is in its thread), and threads are replayed by nextDep.
func (x *engine) visitDep(g *graph, check bool) error {
	decided := x.arena.incr.decided // (immincr.go)
	x.arena.incr.decided = false
	if err := x.tick(); err != nil {
		return err
	}
	if x.spinPrune || x.sym != nil {
		if skip, err := x.immReduced(g); err != nil || skip {
			return err
		}
	}
	checked := false
	if decided {
		if err := x.immDecided(g); err != nil {
			return err
		}
		checked = true
	} else if check {
		ok, err := x.consistent(g, nil)
		if err != nil || !ok {
			return err
		}
		checked = true
	}
	t, p, regs, err := x.pickDep(g)
	if err != nil {
		return err
	}
	if t < 0 {
		if x.imm && !x.opts.CrossCheck && (decided || !check) {
			x.immLeaf(g)
			checked = true
		}
		return x.complete(g, regs, checked)
	}
	if decided {
		x.immCounted(g)
	}
	e := p.e
	switch e.kind {
	case event.Read:
		x.initOf(g, e.loc)
		ws := append([]int(nil), g.co[e.loc]...)
		ws = ws[g.seenBefore(t, e.loc, p.pos):]
		if x.awaits(e.loc) && len(ws) > 0 && g.evs[ws[0]].thread < 0 {
			ws = ws[1:] // not the initial write
		}
		last := g.co[e.loc][len(g.co[e.loc])-1]
		must := x.mustCheck(g, t, p)
		// The graph is extended in place, and restored after each choice.
		mark, stamp := len(g.evs), g.next
		var dec []bool // each choice decided (immincr.go), which holds immLow's filter
		if x.immIncrOn(g, t, p) {
			if d, ok := x.immReadOK(g, t, &e, ws); ok {
				dec = d
			}
		}
		low := 0
		if dec == nil {
			low = x.immLow(g, t, p, len(ws))
		}
		for i, w := range ws {
			if low > 0 && g.coPos(w) < low || dec != nil && !dec[i] {
				// Coherence rules it out (immsym.go).
				if err := x.ruledOut(g, func() func() {
					g.setRf(g.insert(t, p.pos, e), w)
					return func() { g.undo(mark, stamp) }
				}); err != nil {
					return err
				}
				continue
			}
			r := g.insert(t, p.pos, e)
			g.setRf(r, w)
			x.noteSym(g, r)
			x.fresh = t
			x.arena.incr.decided = dec != nil && (w != last || must)
			err := x.visitDep(g, w != last || must)
			g.undo(mark, stamp)
			if err != nil {
				return err
			}
		}
		return nil
	case event.Write:
		x.initOf(g, e.loc)
		must := x.mustCheck(g, t, p)
		mark, stamp := len(g.evs), g.next
		low, coDecided := 0, false
		if x.immRMW && !x.opts.NoCoFilter && x.immIncrOn(g, t, p) {
			// (v holds immLow's bound: IMM's hb holds rc11's)
			low, coDecided = x.immWriteAbove(g, t, &e)
		}
		if !coDecided {
			low = x.immLow(g, t, p, len(g.co[e.loc]))
		}
		w := g.insert(t, p.pos, e)
		x.noteSym(g, w)
		x.arena.incr.coDecided = coDecided
		err := x.visitCOsAbove(g, w, must, -1, low)
		if err == nil {
			err = x.revisits(g, w)
		}
		g.undo(mark, stamp)
		return err
	}
	must := x.mustCheck(g, t, p)
	mark, stamp := len(g.evs), g.next
	x.noteSym(g, g.insert(t, p.pos, e))
	x.fresh = -1
	err = x.visitDep(g, must)
	g.undo(mark, stamp)
	return err
}

// prefixOf is what a backward revisit by write w keeps besides the
// events added before the read: w's po ∪ rf prefix, or, under a model
// with dependencies, its dependency prefix.
func (x *engine) prefixOf(g *graph, w int) []bool {
	if x.rv {
		return x.rvPrefix(g, w)
	}
	if x.arm {
		return g.armPrefix(w, &x.arena.pref, g.armLobPreds, nil)
	}
	if x.deps {
		return g.depPrefix(w, &x.arena.pref)
	}
	return g.prefix(w, x.sym)
}

// eval computes an expression with registers by name (nextDep's
// replay); old is the value an RMW read (Old). A division by zero gives
// 0, as in the other engines. An operation prog.Apply refuses gives 0 and
// sets *fail (when not yet set): the caller reports it.
func eval(e prog.Expr, regs map[string]prog.Value, old prog.Value, fail *error) prog.Value {
	switch e := e.(type) {
	case prog.Const:
		return e.V
	case prog.Reg:
		return regs[e.Name]
	case prog.Old:
		return old
	case prog.Bin:
		a, b := eval(e.X, regs, old, fail), eval(e.Y, regs, old, fail)
		v, err := prog.ApplyTotal(e.Op, a, b)
		if err != nil {
			keepFirst(fail, err)
			return prog.Value{}
		}
		return v
	case prog.Un:
		v, err := prog.ApplyUnary(e.Op, eval(e.X, regs, old, fail))
		if err != nil {
			keepFirst(fail, err)
			return prog.Value{}
		}
		return v
	}
	return prog.Value{}
}

// mergeTaint is the union of two taints (sorted, without repeats), as
// symexec.MergeDeps computes it, by a merge: it shares an operand when
// the other adds nothing.
func mergeTaint(a, b taint) taint {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) && a[i] == b[j] {
		i++
		j++
	}
	if i == len(a) && j == len(b) {
		return a
	}
	out := make(taint, 0, len(a)+len(b))
	i, j = 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// replayAt is the prefix of a replay's error at instruction pc of
// thread th: the instruction's file and line when known, and the
// thread's name.
func replayAt(th *prog.Thread, pc int) string {
	if pc < len(th.Pos) && th.Pos[pc].File != "" {
		return fmt.Sprintf("%s:%d: %s: ", th.Pos[pc].File, th.Pos[pc].Line, th.Name)
	}
	return th.Name + ": "
}

// keptNext tells whether the k-th of a thread's events mine in g is the
// event of instruction pc (the write of a read-modify-write when w): the
// replays of dependency tracking (replayDep, replayC) consume the events
// the graph kept in order, and fail when they pass one by.
func keptNext(g *graph, mine []int, k, pc int, w bool, th *prog.Thread) (bool, error) {
	if k >= len(mine) {
		return false, nil
	}
	e := &g.evs[mine[k]]
	if e.pc == pc && e.rmwW == w {
		return true, nil
	}
	if e.pc < pc || e.pc == pc && !w {
		return false, fmt.Errorf("%sinternal error: the graph engine's replay passed an event it kept (dependency tracking)", replayAt(th, pc))
	}
	return false, nil
}
