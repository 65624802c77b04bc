package bmc

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"sort"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/smt"
	"github.com/musket-verify/musket/internal/symexec"
)

// encoding is the whole formula of one test under one model.
type encoding struct {
	f    *fb
	ctx  *smt.Context
	sol  *smt.Solver
	t    *spec.Test
	m    *cat.Model
	opts Options
	p    *progEnc
	o    *ops
	n    int
	// modelTime is the time build spent on the model.
	modelTime time.Duration

	rf       map[[2]int]B // (write, read) -> variable
	coVar    map[[2]int]B // (a, b), a < b: a before b
	co       *Rel
	last     map[int]B // write -> it is co-last
	fin      map[string]smt.Term
	obs      []spec.Ref
	obsTerms []smt.Term
	writes   map[string][]int // non-initial writes per location
	initOf   map[string]int

	inputs map[string]value
	flags  []flagCheck
	clocks int
	incons *inconsistency // non-nil: the model's checks must fail (inconsistent.go)
	// acyclic are the edges of the relations asserted acyclic, each a
	// copy (inconsistent.go: a second model's cycle in one of them is
	// impossible).
	acyclic []map[[2]int]B
	// lazy: acyclic checks go to the solver's acyclicity theory
	// (lazyacyclic.go), whose relations are lazyGraphs; lazyMisses counts
	// the models with a cycle the theory let through.
	lazy       bool
	lazyGraphs []lazyGraph
	// caatOn: checks are compiled into the theory's derived relations
	// (caat.go), in caat for the model being evaluated.
	caatOn     bool
	caat       *caat
	lazyMisses int
	// pol says which directions the questions want of the model's
	// names (polarity.go); oneWay asks for it (Run's encodings: in a
	// Porthos session the source model's recursion, Power's and ARM's
	// ii/ic/ci/cc, left free one way, slows the many queries down —
	// Szymanski ARMv7 ⊆ TSO 4× — where the equivalences cost nothing).
	pol    *polarity
	oneWay bool
	// unsettled are the recursive definitions whose iteration may go on
	// after the passes encoded (kleene.go).
	unsettled []unsettled
	// rawLocs caches Options.RawRead (rawread.go).
	rawLocs map[string]bool
	// uafFaults are each thread's uses after free, uafProbe the probe
	// relation (uaf.go).
	uafFaults map[int][]uafFault
	uafProbe  *Rel
}

type flagCheck struct {
	name string
	b    B
}

// buildBounded is build within ctx: Z3 is interrupted when ctx is done,
// so that an assertion Z3 takes long to take in (it rewrites each formula
// as it is asserted) does not outlast the time limit; the interrupted
// assertion's error is then errTimeout.
func (e *encoding) buildBounded(ctx context.Context) (err error) {
	stop := e.ctx.InterruptWhenDone(ctx)
	defer stop()
	defer func() {
		if r := recover(); r != nil {
			if _, z := r.(*smt.Error); z && ctx.Err() != nil {
				err = errTimeout
				return
			}
			panic(r)
		}
	}()
	return e.build(ctx)
}

// build encodes t: control flow, data flow, the model, the filter.
func (e *encoding) build(ctx context.Context) error {
	e.f.limit = ctx
	t := e.t
	// Observed refs, initial state and locations, as the explicit
	// engine computes them.
	start, err := symexec.NewStart(t)
	if err != nil {
		return err
	}
	e.obs = start.Obs

	p := &progEnc{wraps: wrapsFor(e.opts), f: e.f, ctx: e.ctx, t: t, locN: map[string]int{},
		addr: map[[2]int]B{}, data: map[[2]int]B{}, ctrl: map[[2]int]B{}, rmw: map[[2]int]B{}, iico: map[[2]int]B{},
		pickAddr: map[[2]int]B{}, pickData: map[[2]int]B{}, pickCtrl: map[[2]int]B{},
		final: make([]*tstate, len(t.Threads)), cut: make([]B, len(t.Threads)), reach: make([][][]uint64, len(t.Threads)),
		threadEvents: make([][]int, len(t.Threads)), initOf: map[string]int{}}
	e.p = p
	initMem := start.Mem
	p.initRegs = start.Regs
	for _, l := range start.Locs {
		p.locCode(l)
	}
	for i, th := range t.Threads {
		if err := p.thread(i, th); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if !e.m.SingleEventAMOs() {
		for _, ev := range p.events {
			ev.single = nil // a model written for AMOs of two events (single.go)
		}
	}
	// Initial writes, after the threads (which may have named new
	// locations).
	locs := append([]string(nil), p.locs...)
	sort.Strings(locs)
	nal := map[string]bool{}
	for _, th := range t.Threads {
		for _, l := range th.NonAtomic {
			nal[l] = true
		}
	}
	for _, l := range locs {
		tags := []string{"IW"}
		if nal[l] {
			tags = append(tags, "NAL") // C: a location declared non-atomic
		}
		ev := &evt{id: len(p.events), thread: -1, kind: event.Write, loc: l, tags: tags, node: -1, exec: bTrue, init: initMem[l]}
		ev.val = e.ctx.IntVal(p.enc(initMem[l]))
		p.events = append(p.events, ev)
		p.initOf[l] = ev.id
	}
	e.initOf = p.initOf
	e.n = len(p.events)
	e.f.stats.Events = e.n
	exec := make([]B, e.n)
	for i, ev := range p.events {
		exec[i] = ev.exec
		if ev.kind == event.Write && ev.single != nil {
			exec[i] = bFalse // the model sees it in its read (single.go)
		}
	}
	e.o = &ops{f: e.f, exec: exec}
	if p.hasCut && e.opts.discardCut {
		for _, c := range p.cut {
			e.f.assert(e.f.not(c))
		}
	}
	e.dataFlow()
	e.f.stats.SymmetryPairs = e.symmetry()
	e.valueOrder()
	if e.opts.FreedMark != nil {
		// Before final: the failure registers' terms observed.
		e.uafProbe = e.buildUAF()
	}
	e.final(initMem)
	modelStart := time.Now()
	err = e.model()
	e.modelTime = time.Since(modelStart)
	if err != nil {
		return err
	}
	if t.Filter != nil {
		e.f.assert(e.cond(t.Filter))
	}
	return nil
}

// exclusive tells whether two events of one thread can never both execute.
func (e *encoding) exclusive(a, b *evt) bool {
	if a.thread < 0 || b.thread != a.thread {
		return false
	}
	if a.node == b.node {
		return a.alt != b.alt
	}
	r := e.p.reach[a.thread]
	has := func(i, j int) bool { return r[i][j>>6]&(1<<(uint(j)&63)) != 0 }
	return !has(a.node, b.node) && !has(b.node, a.node)
}

// dataFlow encodes rf (every executed read reads one same-location write,
// with its value) and co (a total order of the writes of each location,
// the initial write first).
func (e *encoding) dataFlow() {
	f, c := e.f, e.ctx
	p := e.p
	e.writes = map[string][]int{}
	for _, ev := range p.events {
		if ev.kind == event.Write && ev.thread >= 0 {
			e.writes[ev.loc] = append(e.writes[ev.loc], ev.id)
		}
	}
	e.rf = map[[2]int]B{}
	for _, r := range p.events {
		if r.kind != event.Read {
			continue
		}
		cands := append([]int{p.initOf[r.loc]}, e.writes[r.loc]...)
		var vars []smt.Term
		for _, w := range cands {
			we := p.events[w]
			if e.exclusive(we, r) || r.single == we {
				continue // one event does not read from itself
			}
			v := f.boolVar(fmt.Sprintf("rf%d_%d", w, r.id))
			e.rf[[2]int{w, r.id}] = v
			vars = append(vars, v.t)
			f.assert(f.implies(v, f.and(we.exec, r.exec, B{t: c.Eq(r.val, we.val)})))
		}
		if len(vars) == 0 {
			f.assert(f.not(r.exec))
			continue
		}
		f.assert(f.implies(r.exec, B{t: c.ExactlyOne(vars...)}))
	}
	e.coVar = map[[2]int]B{}
	e.co = newRel(e.n)
	locs := make([]string, 0, len(e.writes))
	for l := range e.writes {
		locs = append(locs, l)
	}
	sort.Strings(locs)
	for _, l := range locs {
		ws := e.writes[l]
		iw := p.initOf[l]
		clk := map[int]smt.Term{}
		for _, w := range ws {
			e.co.set(iw, w, bTrue)
		}
		for i, a := range ws {
			for _, b := range ws[i+1:] {
				if e.exclusive(p.events[a], p.events[b]) {
					continue
				}
				v := f.boolVar(fmt.Sprintf("co%d_%d", a, b))
				e.coVar[[2]int{a, b}] = v
				e.co.set(a, b, v)
				e.co.set(b, a, f.not(v))
				for _, w := range []int{a, b} {
					if _, ok := clk[w]; !ok {
						clk[w] = f.intVar(fmt.Sprintf("cc%d", w))
					}
				}
				f.assert(f.implies(v, B{t: c.Lt(clk[a], clk[b])}))
				f.assert(f.implies(f.not(v), B{t: c.Lt(clk[b], clk[a])}))
			}
		}
	}
}

// final encodes the final state: each location's co-last write, each
// register's last assignment.
func (e *encoding) final(initMem map[string]prog.Value) {
	f, c := e.f, e.ctx
	p := e.p
	e.last = map[int]B{}
	e.fin = map[string]smt.Term{}
	for _, l := range p.locs {
		iw := p.initOf[l]
		ws := e.writes[l]
		var none []B
		for _, w := range ws {
			none = append(none, f.not(p.events[w].exec))
		}
		e.last[iw] = f.and(none...)
		val := p.events[iw].val
		for _, w := range ws {
			parts := []B{p.events[w].exec}
			for _, w2 := range ws {
				if w2 == w {
					continue
				}
				if b, ok := e.co.get(w, w2); ok {
					parts = append(parts, f.not(f.and(p.events[w2].exec, b)))
				}
			}
			lw := f.and(parts...)
			e.last[w] = lw
			val = c.Ite(f.term(lw), p.events[w].val, val)
		}
		e.fin[l] = val
	}
	for _, r := range e.obs {
		e.obsTerms = append(e.obsTerms, e.refTerm(r))
	}
}

func (e *encoding) refTerm(r spec.Ref) smt.Term {
	if !r.IsReg() {
		if t, ok := e.fin[r.Name]; ok {
			return t
		}
		return e.ctx.IntVal(0)
	}
	if r.Thread >= len(e.p.final) {
		return e.ctx.IntVal(0)
	}
	t := e.ctx.IntVal(0)
	if v, ok := e.p.final[r.Thread].regs[r.Name]; ok {
		t = v.t
	}
	if e.opts.FreedMark != nil && r.Name == e.opts.FaultReg {
		t = e.uafFault(r.Thread, t)
	}
	if e.opts.RawRead != nil && r.Name == e.opts.FaultReg {
		t = e.rawFault(r.Thread, t)
	}
	return t
}

// cond encodes a condition over the final state.
func (e *encoding) cond(c spec.Cond) B {
	f := e.f
	switch c := c.(type) {
	case spec.And:
		return f.and(e.cond(c.L), e.cond(c.R))
	case spec.Or:
		return f.or(e.cond(c.L), e.cond(c.R))
	case spec.Not:
		return f.not(e.cond(c.C))
	case spec.Bool:
		if c.V {
			return bTrue
		}
		return bFalse
	case spec.Atom:
		b := B{t: e.ctx.Eq(e.refTerm(c.Ref), e.ctx.IntVal(e.p.enc(c.Val)))}
		if c.Neq {
			return f.not(b)
		}
		return b
	case spec.RefEq:
		b := B{t: e.ctx.Eq(e.refTerm(c.L), e.refTerm(c.R))}
		if c.Neq {
			return f.not(b)
		}
		return b
	case nil:
		return bTrue
	}
	return bTrue
}

// state reads the final state of a model.
func (e *encoding) state(m *smt.Model) result.State {
	st := make(result.State, len(e.obs))
	for i, t := range e.obsTerms {
		v, _ := m.Int(t)
		st[i] = e.p.dec(v)
	}
	return st
}

// witness reads the execution of a model.
func (e *encoding) witness(m *smt.Model, st result.State) *result.Execution {
	p := e.p
	isTrue := func(b B) bool {
		if b.k != 0 {
			return b.k == 1
		}
		v, _ := m.Bool(b.t)
		return v
	}
	// Executed events, initial writes first, then by thread.
	var order []*evt
	for _, ev := range p.events {
		if ev.thread < 0 {
			order = append(order, ev)
		}
	}
	for ti := range p.threadEvents {
		for _, id := range p.threadEvents[ti] {
			if isTrue(p.events[id].exec) {
				order = append(order, p.events[id])
			}
		}
	}
	num := map[int]int{}
	x := &result.Execution{State: st}
	evs := make([]event.Event, len(order))
	for i, ev := range order {
		num[ev.id] = i
		ee := event.Event{ID: i, Thread: ev.thread, Kind: ev.kind, Loc: ev.loc, Tags: ev.tags}
		if !ev.val.IsZero() {
			v, _ := m.Int(ev.val)
			ee.Value = p.dec(v)
		}
		evs[i] = ee
		x.Events = append(x.Events, result.Event{ID: i, Thread: ev.thread, Label: ee.Label(), PC: ev.node})
	}
	for i := 0; i+1 < len(order); i++ {
		if order[i].thread >= 0 && order[i].thread == order[i+1].thread {
			x.Po = append(x.Po, [2]int{i, i + 1})
		}
	}
	rf := map[int]int{}
	keys := make([][2]int, 0, len(e.rf))
	for k := range e.rf {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return num[keys[i][1]] < num[keys[j][1]] })
	for _, k := range keys {
		if isTrue(e.rf[k]) {
			x.Rf = append(x.Rf, [2]int{num[k[0]], num[k[1]]})
			rf[k[1]] = k[0]
		}
	}
	// co: per location, the executed writes sorted by co.
	locs := append([]string(nil), p.locs...)
	sort.Strings(locs)
	chains := map[string][]int{}
	for _, l := range locs {
		var ws []int
		for _, w := range e.writes[l] {
			if isTrue(p.events[w].exec) {
				ws = append(ws, w)
			}
		}
		sort.SliceStable(ws, func(i, j int) bool {
			b, _ := e.co.get(ws[i], ws[j])
			return isTrue(b)
		})
		chain := append([]int{p.initOf[l]}, ws...)
		chains[l] = chain
		for i := 0; i+1 < len(chain); i++ {
			x.Co = append(x.Co, [2]int{num[chain[i]], num[chain[i+1]]})
		}
	}
	for _, ev := range order {
		if ev.kind != event.Read {
			continue
		}
		w, ok := rf[ev.id]
		if !ok {
			continue
		}
		chain := chains[ev.loc]
		after := false
		for _, w2 := range chain {
			if after && w2 != ev.id {
				x.Fr = append(x.Fr, [2]int{num[ev.id], num[w2]})
			}
			if w2 == w {
				after = true
			}
		}
	}
	// A read-modify-write the model sees as one event is drawn as one (a
	// RISC-V AMO, as herd7 draws it).
	var pairs [][2]int
	other := map[int]int{}
	for _, ev := range order {
		if s := ev.single; s != nil && ev.kind == event.Read && s.id > ev.id {
			if w, ok := num[s.id]; ok {
				pairs = append(pairs, [2]int{num[ev.id], w})
				other[num[ev.id]] = w
			}
		}
	}
	if len(pairs) > 0 {
		x, _ = result.Merge(x, pairs, func(id, old int) string {
			e := evs[old]
			e.ID = id
			if w, ok := other[old]; ok {
				return event.FusedLabel(id, &e, &evs[w])
			}
			return e.Label()
		})
	}
	return x
}

// Options tune a run of the SMT engine.
type Options struct {
	Variants map[string]bool // CAT variants
	// Bound: for tests with loops, the times a backward jump may be taken
	// on a path (herd's -unroll, as the explicit engine); 0 means 2.
	// Paths that need more are discarded and the result is Bounded.
	Bound    int
	TagNames []string // tags whose sets the model may name
	// VerdictOnly skips listing the final states: one query for the
	// condition (and one for its negation unless PositiveOnly).
	VerdictOnly  bool
	PositiveOnly bool
	// NoAnalysis turns the relation analysis off (for measurements): every
	// relation the model names gets a variable per pair of events and
	// acyclicity a clock constraint per pair.
	NoAnalysis bool
	// Logic, when set, is the Z3 logic of the solver (default: Z3's own
	// choice).
	Logic string
	// FlagWitnesses asks, for each flag raised, for an execution raising
	// it (Result.FlagWitnesses).
	FlagWitnesses bool
	// Acyclicity is "eager" (integer clocks), "lazy" (Z3 user
	// propagator, lazyacyclic.go) or "" for the default (eager);
	// MUSKET_ACYCLICITY in the environment overrides it.
	Acyclicity string
	// Derived is "on" to compile the model's acyclic and irreflexive
	// checks into derived relations of the solver's theory (caat.go),
	// "off" or "" (the default) not to; MUSKET_CAAT in the environment
	// overrides it.
	Derived string

	// Symmetric gives, for each thread, its symmetric predecessor (-1:
	// none): the caller vouches that swapping the two, with their own
	// locations (those SymOwn matches), maps the program's executions
	// onto its executions (symmetry.go says what that needs). The
	// engine then asserts constraints that keep one execution of each
	// class of swapped executions, when the question is symmetric too.
	Symmetric []int
	SymOwn    func(loc string) bool

	// RawRead, when set, names the locations whose initial value is
	// indeterminate (a heap object malloc made): a read of one that
	// reads its initial write sets the reading thread's FaultReg, in the
	// final state, to RawFault of the read's thread and instruction
	// (rawread.go).
	RawRead  func(loc string) bool
	RawFault func(thread, pc int) prog.Value
	FaultReg string
	// FreedMark, when set, gives the freed mark of the heap object whose
	// cell loc is ("" for any other location): an access to such a cell
	// not ordered before the object's first free, by the order of the
	// model UAFModel (UseAfterFreeOrder gives it), sets the accessing
	// thread's FaultReg to UseAfterFree of its thread, instruction and
	// location (uaf.go). A plain write to a mark (no read-modify-write)
	// is the end of a local's or thread-local's lifetime
	// (cfront/lifetime.go): the owner's accesses before it in program
	// order are before it too. UAFModel "" (a model with no order, such
	// as one read from a file): no order is used; an access no such rule
	// puts before its object's first free is not decided, and counted in
	// Stats.UAFUndecided (the caller must not answer PASS then).
	FreedMark    func(loc string) string
	UseAfterFree func(thread, pc int, loc string) prog.Value
	UAFModel     string

	discardCut bool
	forceEager bool
	wrapCases  bool // wraps by Z3's mod in the last case (RunReport's fallback, wrapmod.go) // eager whatever Acyclicity says (RunReport's fallback)
}

// Report is what a run learnt besides the result: sizes and times.
type Report struct {
	Stats Stats
	// Prepare is reading, compiling and unrolling the program (CheckProgram
	// only: before Result.Time starts) and unrolling a test's loops.
	Prepare time.Duration
	// Encode is building the formula: the program's control and data flow,
	// then the model (Model, of which is the relation analysis, folded into
	// the evaluation of the model's relations, and the axioms).
	Encode, Model time.Duration
	Solve         time.Duration // the solver's checks
	// Release is freeing the solver and its terms.
	Release  time.Duration
	Queries  int
	Unrolled bool // Run unrolled the test's loops itself
	// LazyFellBack: the lazy encoding's solver gave up and the test was
	// encoded again with clocks (run.go).
	LazyFellBack bool
	// GuardedWraps: the encoding gave remainders by guarded cases
	// (wrapmod.go), which RunReport encodes again with Z3's mod when
	// the solver gives up.
	GuardedWraps bool
}
