package graph

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"github.com/musket-verify/musket/internal/symexec"
)

// Options tune a run.
type Options struct {
	Variants map[string]bool // CAT variants
	TagNames []string        // tags whose sets the model may name
	// FlagWitnesses keeps, for each flag raised, the first execution
	// raising it (Result.FlagWitnesses).
	FlagWitnesses bool
	// StopAtFirst ends the run at the first execution that satisfies the
	// condition's proposition (a verdict for exists and ~exists): the
	// counts and states then cover the executions met so far.
	StopAtFirst bool
	// AwaitFlag, when set, keeps a StopAtFirst run going after the
	// condition is satisfied until a flag it accepts is raised too
	// (races.go).
	AwaitFlag func(name string) bool
	// Also are further conditions on the final state: Stats.Also gets,
	// for each, an execution that satisfies it (nil when none does). They
	// do not stop the run.
	Also []spec.Cond
	// Await names locations whose reads wait, instead of reading the
	// initial value: such a read reads only a write of the program, and
	// its thread is not scheduled until one exists (cfront's flags of
	// pthread_create and pthread_join, written once, as GenMC waits for a
	// thread's creation and end). An execution in which a thread waits
	// so forever is blocked. Under aarch64, a thread that starts by such
	// a read of a release flag starts after what its parent did before
	// (armspawn.go relies on it).
	Await func(loc string) bool
	// NoFlags says the run's flags are not wanted (they are not
	// computed where the engine checks the model natively).
	NoFlags bool
	// BlockedReg names the register that tells a thread stopped waiting
	// (cfront's %blocked): executions in which a thread ends with it
	// non-zero are counted as blocked.
	BlockedReg string
	// SpinReg names the register that tells a thread stopped in a cut
	// spin loop (cfront's %spin); with it, the engine prunes graphs in
	// which such a thread can only stay blocked on a stale read
	// (prune.go).
	SpinReg string
	// NoSpinPrune turns that pruning off (-liveness asks about the
	// executions it leaves out).
	NoSpinPrune bool
	// Symmetric, when not nil, gives each thread's symmetric
	// predecessor (-1: none): the thread it is a copy of, with SymOwn's
	// locations renamed; the exploration then keeps one execution of each
	// class that swapping symmetric threads relates (symmetry.go). Used
	// under sc, tso, pso, rc11 and imm only (ignored otherwise).
	Symmetric []int
	// SymOwn tells the locations private to one thread that the symmetry
	// renames (cfront's start and end flags, named LOC.N for thread N).
	SymOwn func(loc string) bool
	// NoSymmetry keeps Symmetric for CountClasses only: no reduction.
	NoSymmetry bool
	// SymStops says symmetric threads may stop in a cut spin loop
	// (SpinReg). The reduction is then kept only while every blocked
	// execution the run meets is one whose verdict facts a complete
	// execution also has (symBlockedExplained); at the first that is not,
	// the run starts again without the reduction (Stats.SymOff).
	SymStops bool
	// DeclaredOnly refuses (UnsupportedError) a run that accesses a
	// declared object's address at an offset with no initial value in
	// the test: for C programs (cfront), whose every object's cells are
	// declared, such an address is out of the object's bounds, which the
	// SMT engine reports as an invalid memory access; without it the
	// graph engine gave such a location a life of its own and could
	// answer PASS where SMT answers FAIL. Integers used as addresses
	// (%intN) keep their own locations: they appear in graphs the
	// engine then finds inconsistent. Fault, when set, replaces this
	// refusal (cfront sets both).
	DeclaredOnly bool
	// Fault, when not nil, makes an access to a location with no
	// initial value in the test (an address outside every object of a C
	// program: a null pointer's field, an index out of bounds) a fault
	// of its thread rather than an event: the thread stops before the
	// access with register FaultReg set to Fault(thread, instruction),
	// which must not be zero (fault.go). DeclaredOnly then refuses
	// nothing.
	Fault    func(thread, pc int) prog.Value
	FaultReg string
	// FreedMark, when not nil, names the freed mark of the heap object
	// location loc is a cell of ("": loc is no heap object's cell, or is
	// a mark): each complete execution is checked for an access to a
	// freed object not ordered before its free, which sets register
	// FaultReg of the accessing thread to UseAfterFree(thread,
	// instruction, the accessed location), not zero (uaf.go). A plain
	// write to a mark (no read-modify-write) is the end of a local's or
	// thread-local's lifetime (cfront/lifetime.go): the owner thread's
	// accesses before it in program order are before it too.
	FreedMark    func(loc string) string
	UseAfterFree func(thread, pc int, loc string) prog.Value
	// Raw, when not nil, tells whether location loc is a cell of an
	// object whose contents are indeterminate until written (malloc's):
	// a read of its initial write in a complete execution sets register
	// FaultReg of the reading thread to RawRead(thread, instruction), not
	// zero (uaf.go).
	Raw     func(loc string) bool
	RawRead func(thread, pc int) prog.Value
	// CutReg names the register that tells a thread reached the
	// unroller's cut (compile.BoundReg).
	CutReg string
	// DropCut drops the executions in which a thread reached the cut
	// (CutReg set): they are not executions of the program, only of its
	// unrolling, and the result is then Bounded (herd7's reading of
	// -unroll, which the explicit and SMT engines share on litmus tests).
	DropCut bool
	// CountClasses counts the complete and blocked executions up to the
	// symmetry of Symmetric (Stats.Classes, BlockedClasses): for tests,
	// costly.
	CountClasses bool
	// NoCoFilter checks every choice of a read's write and a write's
	// place in coherence, even those coherence rules out (hbview.go; for
	// tests).
	NoCoFilter bool
	// CrossCheck evaluates the CAT model beside the engine's native
	// check of a built-in model (sc, tso, pso, rc11, imm) on every graph,
	// and fails the run when they disagree (for tests: the CAT model is
	// the reference).
	CrossCheck bool
	// Pace, when not nil, is called after every PaceEvery-th graph checked
	// with the number checked so far; it may block, which pauses the run
	// (a portfolio's budget: cmd/musket's immThenPower). It must return
	// when the run's context is done.
	Pace func(graphs int)
}

// PaceEvery is how many graphs the engine checks between two calls of
// Options.Pace.
const PaceEvery = 1024

// Stats count what a run explored.
type Stats struct {
	Complete  int // complete executions (consistent, every thread ended, none blocked)
	Blocked   int // complete executions in which a thread stopped waiting
	Revisits  int // backward revisits made
	Graphs    int // graphs checked against the model
	Pruned    int // graphs left out with a thread blocked on a stale read (prune.go)
	MaxEvents int // events of the largest graph
	SymPruned int // graphs left out by the symmetry reduction (symmetry.go)
	// SymOff says the reduction was given up: a blocked execution it met
	// was not explained by stale reads (Options.SymStops); the counts
	// are then those of the run without it.
	SymOff bool
	// Classes and BlockedClasses count the complete and the blocked
	// executions up to the symmetry (Options.CountClasses).
	Classes, BlockedClasses int
	// Also holds, for each condition of Options.Also, an execution that
	// satisfies it, or nil.
	Also []*result.Execution
}

// supported are the built-in models in which po ∪ rf is acyclic and
// consistency is closed under prefixes.
var supported = map[string]bool{"sc": true, "tso": true, "x86tso": true, "pso": true, "rc11": true}

func normModel(name string) string { return strings.ToLower(strings.TrimSuffix(name, ".cat")) }

// Supported tells whether the engine decides the built-in model name:
// those in which po ∪ rf is acyclic, and those with load buffering whose
// dependencies it tracks (deps.go): IMM, ARMv8 (aarch64.cat, arm.go)
// and RVWMO (riscv.cat, riscv.go); programs where the exploration's
// argument does not hold are refused by name.
func Supported(name string) bool {
	return supported[normModel(name)] || tracksDeps(name)
}

// Decides tells whether the engine decides model m, loaded as name: a
// built-in model Supported names (a model read from a file may say
// anything, even under a built-in's name).
func Decides(m *cat.Model, name string) bool {
	return Supported(name) && m.Path() == "builtin:"+normModel(name)+".cat"
}

// SupportedModels lists the models Supported accepts, for messages.
func SupportedModels() string {
	return "sc, tso, pso, rc11 (where po ∪ rf is acyclic), imm, aarch64 and riscv (with dependency tracking)"
}

var (
	errStop     = errors.New("stop")
	errSymOff   = errors.New("symmetry reduction given up")
	errDeadline = errors.New("deadline")
)

type engine struct {
	ctx      context.Context
	t        *spec.Test
	m        *cat.Model
	opts     Options
	labels   []map[string]int
	initRegs []map[string]prog.Value
	initMem  map[string]prog.Value
	nal      map[string]bool
	locs     []string
	obs      []spec.Ref
	res      *result.Result
	stats    Stats
	states   map[string]result.State
	flags    map[string]bool
	counter  int
	waiting  bool // the complete graph pick found has a waiting thread
	sink     bool // events added maximally keep a graph consistent (see visit)
	native   nativeModel
	code     []*cthread // each thread's compiled code
	chk      checker
	hbHave   []int // hbLow's scratch (hbview.go)
	hbPos    []int32
	spares   []*graph // graphs of finished revisits, whose storage restrict reuses
	deps     bool     // the model has load buffering: dependencies are tracked (deps.go)
	imm      bool     // the built-in IMM: checked natively (imm.go)
	immRMW   bool     // under IMM, an RMW's write is placed only where atomicity allows (immsym.go)
	arm      bool     // the built-in ARMv8: the CAT model evaluated, armPrefix kept by revisits (arm.go)
	rv       bool     // the built-in RVWMO: checked natively (rvnative.go), rvPrefix kept by revisits (riscv.go)
	rvFused  bool     // under RVWMO, the model sees an AMO as one event (rvFuse)
	// rvSingles: per thread and pc, whether the instruction is an AMO
	// the model sees as one event (rvSingle's cache).
	rvSingles [][]bool
	arena     arena
	// spinPrune: graphs with a thread blocked on a stale read are left
	// out (prune.go); naLocs, naAny: the locations plain writes may
	// write (naAny: some plain write has a computed address).
	spinPrune bool
	fresh     int // the thread whose last read visit is to look at (staleBlocked; -1: none)
	naLocs    map[string]bool
	naAny     bool
	sym       []int             // each thread's symmetric predecessor (symmetry.go), nil: no reduction
	classes   map[string]bool   // the classes met (CountClasses), keyed by blocked and symKey
	ownLoc    map[string]bool   // Options.SymOwn's answers, by location (symOwn)
	uafOrd    uafOrder          // the order useAfterFree checks (uaf.go)
	uafMarks  map[string]string // Options.FreedMark's answers, by location
	rawLocs   map[string]bool   // Options.Raw's answers, by location
}

// Run explores the execution graphs of t under model m (named
// modelName) and answers like the explicit engine: counts of the
// executions that satisfy the condition and of those that do not, the
// final states, a witness, the flags raised.
func Run(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) (*result.Result, Stats) {
	start := time.Now()
	res := &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "graph", Quant: t.Quant}
	res.Condition = t.ConditionLine()
	x := &engine{ctx: ctx, t: t, m: m, opts: opts, res: res, states: map[string]result.State{}, flags: map[string]bool{}}
	x.stats.Also = make([]*result.Execution, len(opts.Also))
	err := x.run()
	if errors.Is(err, errSymOff) {
		// A blocked execution the reduction cannot vouch for: the whole
		// run again, without it (the counts and states start afresh).
		opts.NoSymmetry = true
		res = &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "graph", Quant: t.Quant}
		res.Condition = t.ConditionLine()
		x = &engine{ctx: ctx, t: t, m: m, opts: opts, res: res, states: map[string]result.State{}, flags: map[string]bool{}}
		x.stats.Also = make([]*result.Execution, len(opts.Also))
		x.stats.SymOff = true
		err = x.run()
	}
	res.Time = time.Since(start)
	var ue *UnsupportedError
	switch {
	case err == nil, errors.Is(err, errStop):
	case errors.Is(err, errDeadline):
		res.Status = result.Timeout
	case errors.As(err, &ue):
		res.Status = result.Unsupported
		res.Err = err
	default:
		res.Status = result.Failed
		res.Err = err
	}
	res.SetOutcomes(x.flags, x.states)
	res.Pruned = opts.StopAtFirst
	return res, x.stats
}

func (x *engine) run() error {
	t := x.t
	if t.Mixed {
		return &UnsupportedError{"mixed-size tests are not supported by the graph engine"}
	}
	for _, th := range t.Threads {
		// The engine tracks full dependencies only: it would make a
		// pick (prog.OpPick) a full dependency.
		if prog.HasPick(th.Code) {
			return &UnsupportedError{th.Name + ": pick dependencies (AArch64 CSEL, CAS) are not supported by the graph engine"}
		}
	}
	if rvModel(x.res.Model) && x.m.Path() == "builtin:riscv.cat" && len(x.opts.Variants) == 0 {
		m, err := rvCoGiven()
		if err != nil {
			return err
		}
		x.m, x.rv, x.rvFused = m, true, x.m.SingleEventAMOs()
	}
	if x.m.Binds("co") {
		return &UnsupportedError{"a model that generates the coherence order itself is not supported by the graph engine"}
	}
	seen := map[spec.Ref]bool{}
	var obs []spec.Ref
	for _, ref := range append(append([]spec.Ref(nil), t.Locations...), spec.Refs(t.Cond)...) {
		if !seen[ref] {
			seen[ref] = true
			obs = append(obs, ref)
		}
	}
	x.obs = result.SortRefs(obs)
	x.res.Observed = x.obs
	x.initMem = map[string]prog.Value{}
	x.initRegs = make([]map[string]prog.Value, len(t.Threads))
	for i := range x.initRegs {
		x.initRegs[i] = map[string]prog.Value{}
	}
	locSet := map[string]bool{}
	for _, e := range t.Init {
		if e.Ref.IsReg() {
			if e.Ref.Thread >= len(t.Threads) {
				return fmt.Errorf("%s: initial value for register of missing thread %d", e.Pos, e.Ref.Thread)
			}
			x.initRegs[e.Ref.Thread][e.Ref.Name] = e.Val
		} else {
			x.initMem[e.Ref.Name] = e.Val
			locSet[e.Ref.Name] = true
		}
	}
	for _, ref := range x.obs {
		if !ref.IsReg() {
			locSet[ref.Name] = true
		}
	}
	x.nal = map[string]bool{}
	x.labels = make([]map[string]int, len(t.Threads))
	for i, th := range t.Threads {
		for _, l := range th.NonAtomic {
			x.nal[l] = true
		}
		labels, err := th.Labels()
		if err != nil {
			return err
		}
		x.labels[i] = labels
		for _, in := range th.Code {
			for _, v := range prog.AddrConsts(in) {
				locSet[symexec.LocName(v)] = true
			}
		}
	}
	for l := range locSet {
		x.locs = append(x.locs, l)
	}
	sort.Strings(x.locs)
	x.code = make([]*cthread, len(t.Threads))
	for i := range t.Threads {
		x.code[i] = x.compileThread(i)
	}
	g := newGraph(len(t.Threads))
	for _, l := range x.locs {
		x.initOf(g, l)
	}
	x.deps = tracksDeps(x.res.Model)
	if x.deps && !x.rv && x.m.Path() != "builtin:"+normModel(x.res.Model)+".cat" {
		return &UnsupportedError{"the graph engine tracks the dependencies of the built-in " + x.res.Model + " model only"}
	}
	x.arm = x.deps && armModel(x.res.Model)
	x.imm = x.deps && !x.arm && !x.rv && len(x.opts.Variants) == 0
	if x.arm {
		if why := armRMWRefuse(t.Threads, x.opts.Await, t.Init); why != "" {
			return &UnsupportedError{why}
		}
	}
	if x.rv {
		for _, th := range t.Threads {
			if why := rvRefuse(th); why != "" {
				return &UnsupportedError{why}
			}
		}
	}
	x.sink = supported[normModel(x.res.Model)] && x.m.Path() == "builtin:"+normModel(x.res.Model)+".cat"
	// Under IMM too (immsym.go says why both reductions stay sound).
	reducible := x.sink || x.imm && !immReduceOff()
	x.immRMW = x.imm && !immReduceOff()
	// Under ARMv8 and RISC-V too (hwprune.go gives the argument).
	x.spinPrune = (reducible || (x.rv || x.arm) && !hwPruneOff()) && x.opts.SpinReg != "" && !x.opts.NoSpinPrune
	x.naWrites()
	if s := x.opts.Symmetric; len(s) == len(t.Threads) && (reducible || x.arm && !armSymOff() || x.rv && !rvSymOff()) && !x.opts.NoSymmetry {
		ok := true
		for q, p := range s {
			ok = ok && p < q
		}
		if ok {
			x.sym = s
			x.arena.pref.sym = s
		}
	}
	x.native = nativeFor(x.m)
	for _, on := range x.opts.Variants {
		if on {
			// The native checks state the axioms without variants: the
			// CAT model, which has them, is evaluated instead.
			x.native = nativeNone
		}
	}
	x.fresh = -1
	if x.opts.FreedMark != nil {
		x.uafOrd = uafOrderFor(x.res.Model)
	}
	return x.visit(g, true)
}

// initOf returns the initial write of loc in g, adding it if needed.
func (x *engine) initOf(g *graph, loc string) int {
	if id, ok := g.inits[loc]; ok {
		return id // (before the tags are made: asked at every access)
	}
	tags := []string{"IW"}
	if x.nal[loc] {
		tags = append(tags, "NAL")
	}
	return g.initWrite(loc, x.initMem[loc], tags)
}

// countGraph counts g as a graph checked, and paces the run
// (Options.Pace).
func (x *engine) countGraph(g *graph) {
	x.stats.Graphs++
	if len(g.evs) > x.stats.MaxEvents {
		x.stats.MaxEvents = len(g.evs)
	}
	if x.opts.Pace != nil && x.stats.Graphs%PaceEvery == 0 {
		x.opts.Pace(x.stats.Graphs) // (a run stopped meanwhile ends at its next tick)
	}
}

func (x *engine) tick() error {
	x.counter++
	if x.counter&15 == 0 && x.ctx.Err() != nil {
		return errDeadline
	}
	return nil
}

// pick chooses the thread that adds the next event: the one whose
// read-modify-write has read but not written, else the first thread
// that has not ended. It returns -1 when every thread has ended, with
// the final registers of each thread.
func (x *engine) pick(g *graph) (int, pending, []regFile, error) {
	for t, th := range g.threads {
		if n := len(th); n > 0 && g.evs[th[n-1]].rmwR {
			p, err := x.next(g, t)
			if err != nil {
				return 0, p, nil, err
			}
			if !p.done && p.e.rmwW {
				return t, p, nil, nil
			}
		}
	}
	for t := range g.threads {
		p, err := x.next(g, t)
		if err != nil {
			return 0, p, nil, err
		}
		if !p.done && !x.waits(g, p.e) {
			return t, p, nil, nil
		}
	}
	// Every thread ended or waits: their final registers (next's
	// answers are cached in g by now).
	regs := make([]regFile, len(g.threads))
	waiting := false
	for t := range g.threads {
		p, err := x.next(g, t)
		if err != nil {
			return 0, p, nil, err
		}
		regs[t] = regFile{x.code[t], p.fin}
		waiting = waiting || !p.done
	}
	x.waiting = waiting
	return -1, pending{}, regs, nil
}

// waits tells whether e is a read that waits for a write (Options.Await)
// that g does not have yet.
func (x *engine) waits(g *graph, e ev) bool {
	return e.kind == event.Read && x.awaits(e.loc) && len(g.co[e.loc]) <= 1
}

func (x *engine) awaits(loc string) bool { return x.opts.Await != nil && x.opts.Await(loc) }

// visit explores every graph that extends g (TruSt's Visit). check
// says whether g may be inconsistent: under the models Supported
// accepts, an event added last in its thread that reads from the
// coherence-latest write, or is a write placed coherence-last, or a
// fence, has no outgoing edge in any relation of the model (po, rf, co,
// fr, and what they build), so it closes no cycle: a graph so extended
// from a consistent one is consistent, and is not checked again.
func (x *engine) visit(g *graph, check bool) error {
	if x.deps {
		return x.visitDep(g, check)
	}
	if err := x.tick(); err != nil {
		return err
	}
	if x.spinPrune && x.fresh >= 0 {
		// Before the model: an inconsistent graph leads nowhere either.
		if stale, err := x.staleBlocked(g, x.fresh); err != nil || stale {
			if stale {
				x.stats.Pruned++
			}
			return err
		}
	}
	if x.sym != nil && !x.symOK(g) {
		x.stats.SymPruned++
		return nil
	}
	checked := false
	if check || !x.sink {
		ok, err := x.consistent(g, nil)
		if err != nil || !ok {
			return err
		}
		checked = true
	}
	t, p, regs, err := x.pick(g)
	if err != nil {
		return err
	}
	if t < 0 {
		return x.complete(g, regs, checked)
	}
	e := p.e
	switch e.kind {
	case event.Read:
		x.initOf(g, e.loc)
		ws := append([]int(nil), g.co[e.loc]...)
		if x.sink {
			// Coherence: not a write older than one the thread saw.
			ws = ws[g.seen(t, e.loc):]
		}
		if x.awaits(e.loc) && len(ws) > 0 && g.evs[ws[0]].thread < 0 {
			ws = ws[1:] // not the initial write
		}
		last := g.co[e.loc][len(g.co[e.loc])-1]
		// The graph is extended in place, and restored after each choice.
		mark, stamp := len(g.evs), g.next
		low := 0
		if x.coFilter() && len(ws) > 1 {
			low = x.coLow(g, t, e)
		}
		for _, w := range ws {
			if low > 0 && g.coPos(w) < low {
				// Coherence rules it out (hbview.go).
				if err := x.ruledOut(g, func() func() {
					g.setRf(g.add(t, e), w)
					return func() { g.undo(mark, stamp) }
				}); err != nil {
					return err
				}
				continue
			}
			r := g.add(t, e)
			g.setRf(r, w)
			x.noteSym(g, r)
			x.fresh = t
			err := x.visit(g, w != last)
			g.undo(mark, stamp)
			if err != nil {
				return err
			}
		}
		return nil
	case event.Write:
		x.initOf(g, e.loc)
		mark, stamp := len(g.evs), g.next
		low := -1
		if x.coFilter() && len(g.co[e.loc]) > 1 {
			low = x.coLow(g, t, e)
		}
		w := g.add(t, e)
		x.noteSym(g, w)
		err := x.visitCOsAbove(g, w, false, -1, low)
		if err == nil {
			err = x.revisits(g, w)
		}
		g.undo(mark, stamp)
		return err
	}
	mark, stamp := len(g.evs), g.next
	x.noteSym(g, g.add(t, e))
	x.fresh = -1
	err = x.visit(g, false)
	g.undo(mark, stamp)
	return err
}

// setRf makes read r read from write w (the thread states after r,
// which depend on what r reads, are dropped).
func (g *graph) setRf(r, w int) {
	e := &g.evs[r]
	if th := g.threads[e.thread]; len(th) > 0 {
		for k := len(th) - 1; k >= 0; k-- {
			if th[k] == r {
				if len(g.tc[e.thread]) > k+1 {
					g.tc[e.thread] = g.tc[e.thread][:k+1]
				}
				break
			}
		}
	}
	g.dropDep(e.thread)
	e.rf = w
	e.val = g.evs[w].val
	if e.retag != nil {
		e.tags = e.retag(e.val)
		e.mask = tagMask(e.tags)
	}
}

// visitCOs visits g with write w at each place of its location's
// coherence order after the initial write; check says whether g may be
// inconsistent even with w placed last; fresh is the thread whose last
// read changed (staleBlocked), or -1.
func (x *engine) visitCOs(g *graph, w int, check bool, fresh int) error {
	return x.visitCOsAbove(g, w, check, fresh, -1)
}

// visitCOsAbove is visitCOs where the places at or below above are
// ruled out by coherence (hbview.go; -1: none known).
func (x *engine) visitCOsAbove(g *graph, w int, check bool, fresh int, above int) error {
	// decided: the places above are consistent (immincr.go)
	decided := x.arena.incr.coDecided
	x.arena.incr.coDecided = false
	ew := &g.evs[w]
	n := len(g.co[ew.loc])
	low := 1
	if x.deps {
		low = max(low, g.seenBefore(ew.thread, ew.loc, g.posIn(w))+1)
	}
	if x.immRMW && ew.rmwW {
		// Atomicity: right after the write its read reads (immsym.go).
		if p, ok := g.rmwPlace(w); ok {
			if p < low {
				return nil
			}
			check = check || p != n
			low, n = p, p
		} else {
			decided = false
		}
	}
	if x.sink {
		// Coherence: after every write the thread saw (its po-earlier
		// accesses to the location); the write of a read-modify-write
		// right after the write its read reads (atomicity). The models
		// Supported accepts require both.
		low = max(low, g.seen(ew.thread, ew.loc, w)+1)
		if ew.rmwW {
			th := g.threads[ew.thread]
			for k, y := range th {
				if y == w && k > 0 && g.evs[th[k-1]].rmwR {
					p := g.coPos(g.evs[th[k-1]].rf) + 1
					if p < low {
						return nil
					}
					low, n = p, p
				}
			}
		}
	}
	for pos := n; pos >= low; pos-- {
		if pos <= above || x.sink && !x.opts.NoCoFilter && g.splitsRMW(ew.loc, pos) || x.immRMW && !x.opts.NoCoFilter && g.immSplitsRMW(ew.loc, pos) {
			// Coherence rules it out (hbview.go).
			if err := x.ruledOut(g, func() func() {
				g.placeCo(w, pos)
				return func() { g.unplaceCo(w, pos) }
			}); err != nil {
				return err
			}
			continue
		}
		g.placeCo(w, pos)
		x.fresh = fresh
		x.arena.incr.decided = decided && (check || pos != n)
		err := x.visit(g, check || pos != n)
		g.unplaceCo(w, pos)
		if err != nil {
			return err
		}
	}
	return nil
}

// revisits makes each read of g that the new write w may revisit read
// from w, when TruSt's maximality condition allows it (g has w, not yet
// placed in coherence).
func (x *engine) revisits(g *graph, w int) error {
	loc := g.evs[w].loc
	any := false
	for r := range g.evs {
		if er := &g.evs[r]; r != w && er.kind == event.Read && er.loc == loc {
			any = true
			break
		}
	}
	if !any {
		return nil // no read to revisit: the prefix is not needed
	}
	pref := x.prefixOf(g, w)
	if x.arm || x.rv {
		if err := x.armSplitRMW(g, pref); err != nil {
			return err
		}
	}
	var keep []bool
	var deleted []int
	for r := range g.evs {
		er := &g.evs[r]
		if r == w || er.kind != event.Read || er.loc != loc {
			continue
		}
		if pref[r] {
			if x.rv {
				if err := x.rvLostSym(g, r, w, pref); err != nil { // (rvsym.go)
					return err
				}
			}
			continue
		}
		if x.deps && er.thread == g.evs[w].thread && er.pc < g.evs[w].pc {
			continue // a read of its own thread's later write: incoherent
		}
		if !x.maximal(g, r, pref) {
			continue
		}
		// keep and deleted are reused from one read to the next (restrict
		// does not hold on to keep).
		keep = keep[:0]
		deleted = deleted[:0]
		for e := range g.evs {
			del := g.evs[e].stamp > er.stamp && !pref[e]
			keep = append(keep, !del)
			if del {
				deleted = append(deleted, e)
			}
		}
		all := true
		for _, e := range deleted {
			if !x.maximal(g, e, pref) {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		var spare *graph
		if n := len(x.spares); n > 0 {
			spare = x.spares[n-1]
			x.spares = x.spares[:n-1]
		}
		c, idx, ok := g.restrict(keep, spare)
		if !ok {
			return fmt.Errorf("internal error: a revisit of the graph engine leaves a read without its write")
		}
		c.setRf(idx[r], idx[w])
		x.noteSym(c, idx[r])
		x.stats.Revisits++
		above, decided := x.immRevisitAbove(c, idx[w], idx[r]) // (immincr.go)
		x.arena.incr.coDecided = decided
		err := x.visitCOsAbove(c, idx[w], true, er.thread, above)
		// Nothing holds on to c once its visit returns (witnesses and
		// keys are copies): its storage serves the next revisit.
		x.spares = append(x.spares, c)
		if err != nil {
			return err
		}
	}
	return nil
}

// maximal tells whether event e of g was added maximally with respect to
// the revisiting write's prefix pref: a read reads from the
// coherence-latest write among the events added no later than e or in
// pref; a write is coherence-latest among them.
func (x *engine) maximal(g *graph, e int, pref []bool) bool {
	ee := &g.evs[e]
	prev := func(y int) bool { return g.evs[y].stamp <= ee.stamp || pref[y] }
	if x.deps {
		// (Revisits keep events po-after ones they remove.)
		return g.hwMaximal(e, prev)
	}
	switch ee.kind {
	case event.Read:
		if !prev(ee.rf) {
			return false
		}
		return g.coMaxAmong(ee.rf, prev)
	case event.Write:
		// A write some earlier read (a revisited one) reads from was
		// not added maximally: removing it would strand that read.
		for y := range g.evs {
			if ey := &g.evs[y]; ey.kind == event.Read && ey.rf == e && prev(y) {
				return false
			}
		}
		return g.coMaxAmong(e, prev)
	}
	return true
}

// complete handles a complete graph: an execution.
func (x *engine) complete(g *graph, regs []regFile, checked bool) error {
	var flags []string
	fp := &flags
	if x.opts.NoFlags && !x.opts.CrossCheck {
		fp = nil // not wanted: a graph visit checked needs nothing more
	}
	blocked := x.waiting
	if x.opts.BlockedReg != "" {
		for _, r := range regs {
			if prog.Truth(r.get(x.opts.BlockedReg)) {
				blocked = true
			}
		}
	}
	explained := false
	if blocked && (x.sym != nil && x.opts.SymStops || x.spinPrune && fp != nil && !x.opts.CrossCheck) {
		ok, err := x.symBlockedExplained(g, regs)
		if err != nil {
			return err
		}
		explained = ok
	}
	if explained && !x.opts.CrossCheck {
		// Its flags are those of an execution the run explores too
		// (symBlockedExplained): not computed again.
		fp = nil
	}
	if !checked || fp != nil && !x.nativeFlags(g, fp) {
		ok, err := x.consistent(g, fp)
		if err != nil || !ok {
			return err
		}
	}
	if x.opts.DropCut && x.opts.CutReg != "" {
		for _, r := range regs {
			if prog.Truth(r.get(x.opts.CutReg)) {
				x.res.Bounded = true
				return nil
			}
		}
	}
	if blocked && x.sym != nil && x.opts.SymStops && !explained {
		return errSymOff
	}
	if x.opts.FreedMark != nil || x.opts.Raw != nil {
		r, err := x.memSafety(g, regs)
		if err != nil {
			return err
		}
		regs = r
	}
	if blocked {
		x.stats.Blocked++
	} else {
		x.stats.Complete++
	}
	if x.opts.CountClasses && x.opts.Symmetric != nil {
		key := fmt.Sprint(blocked) + x.symKeyWith(g, x.opts.Symmetric, blocked)
		if !x.classes[key] {
			if x.classes == nil {
				x.classes = map[string]bool{}
			}
			x.classes[key] = true
			if blocked {
				x.stats.BlockedClasses++
			} else {
				x.stats.Classes++
			}
		}
	}
	val := func(ref spec.Ref) prog.Value {
		if !ref.IsReg() {
			if o := g.co[ref.Name]; len(o) > 0 {
				return g.evs[o[len(o)-1]].val // the final value
			}
			return x.initMem[ref.Name]
		}
		if ref.Thread < 0 || ref.Thread >= len(regs) {
			return prog.Value{}
		}
		return regs[ref.Thread].get(ref.Name)
	}
	if x.t.Filter != nil && !spec.Eval(x.t.Filter, val) {
		return nil
	}
	st := make(result.State, len(x.obs))
	for i, ref := range x.obs {
		st[i] = val(ref)
	}
	x.states[st.Key()] = st
	for i, c := range x.opts.Also {
		if x.stats.Also[i] == nil && spec.Eval(c, val) {
			x.stats.Also[i] = x.witness(g, st)
		}
	}
	for _, f := range flags {
		x.flags[f] = true
		if x.opts.FlagWitnesses && x.res.FlagWitnesses[f] == nil {
			if x.res.FlagWitnesses == nil {
				x.res.FlagWitnesses = map[string]*result.Execution{}
			}
			x.res.FlagWitnesses[f] = x.witness(g, st)
		}
	}
	if spec.Eval(x.t.Cond, val) {
		x.res.Positive++
		if x.res.Witness == nil {
			x.res.Witness = x.witness(g, st)
		}
	} else {
		x.res.Negative++
		if x.opts.StopAtFirst && x.t.Quant == spec.Forall {
			return errStop
		}
	}
	if x.opts.StopAtFirst && x.t.Quant != spec.Forall && x.res.Positive > 0 && x.mayStop() {
		return errStop
	}
	return nil
}

// order numbers g's events for the model: the initial writes, then each
// thread in po (the numbering package event's po expects).
func order(g *graph) []int {
	var out []int
	for i := range g.evs {
		if g.evs[i].thread < 0 {
			out = append(out, i)
		}
	}
	for _, th := range g.threads {
		out = append(out, th...)
	}
	return out
}

// catConsistent evaluates the CAT model on g; flags, when not nil, gets
// the flags of the accepted outcome.
func (x *engine) catConsistent(g *graph, flags *[]string) (bool, error) {
	if x.ctx.Err() != nil {
		return false, errDeadline
	}
	x.countGraph(g)
	if x.imm && !x.opts.CrossCheck {
		if ok, done := x.immNative(g, flags); done {
			return ok, nil
		}
	}
	if x.arm && !x.opts.CrossCheck && !armNativeOff() {
		ok := x.armNative(g) // (armnative.go)
		if ok && flags != nil {
			armFlags(g, flags)
		}
		return ok, nil
	}
	if x.rv && !x.opts.CrossCheck && !rvNativeOff() {
		return x.rvNative(g), nil // (rvnative.go)
	}
	ord := order(g)
	num := make([]int, len(g.evs))
	eg := &event.Graph{TagNames: x.opts.TagNames}
	for k, i := range ord {
		num[i] = k
		e := &g.evs[i]
		eg.Events = append(eg.Events, event.Event{ID: k, Thread: e.thread, Kind: e.kind, Loc: e.loc, Tags: e.tags, Instr: i, PC: e.pc, Value: e.val})
	}
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			if g.evs[th[j]].rmwW && g.evs[th[j-1]].rmwR {
				eg.Rmw = append(eg.Rmw, [2]int{num[th[j-1]], num[th[j]]})
			}
		}
	}
	if x.deps {
		g.depRels(eg, num)
	}
	st := eg.Static()
	n := st.N
	rb, cb := rel.NewBuilder(n), rel.NewBuilder(n)
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Read {
			rb.Add(num[e.rf], num[i])
		}
	}
	for _, o := range g.co {
		for a := 0; a < len(o); a++ {
			for b := a + 1; b < len(o); b++ {
				cb.Add(num[o[a]], num[o[b]])
			}
		}
	}
	rf, co := rb.Rel(), cb.Rel()
	xe := &cat.Execution{N: n, Sets: st.Sets, Loc: st.Loc, Rels: make(map[string]rel.Rel, len(st.Rels)+10)}
	for k, v := range st.Rels {
		xe.Rels[k] = v
	}
	intl, ext := st.Rels["int"], st.Rels["ext"]
	fr := rf.Inverse().Seq(co).Diff(st.Rels["id"])
	xe.Rels["rf"] = rf
	xe.Rels["rfi"] = rf.Inter(intl)
	xe.Rels["rfe"] = rf.Inter(ext)
	xe.Rels["co"] = co
	xe.Rels["coi"] = co.Inter(intl)
	xe.Rels["coe"] = co.Inter(ext)
	xe.Rels["fr"] = fr
	xe.Rels["fri"] = fr.Inter(intl)
	xe.Rels["fre"] = fr.Inter(ext)
	if x.rvFused {
		xe = x.rvFuse(g, num, xe)
	}
	accepted := false
	err := x.m.Check(xe, cat.CheckOptions{Variants: x.opts.Variants, Ctx: x.ctx}, func(o cat.Outcome) bool {
		if o.Accepted {
			accepted = true
			if flags != nil {
				*flags = append(*flags, o.Flags...)
			}
			return flags != nil
		}
		return true
	})
	if err != nil {
		if x.ctx.Err() != nil {
			return false, errDeadline
		}
		return false, err
	}
	if x.imm && x.opts.CrossCheck {
		if err := x.immCross(g, accepted, flags); err != nil {
			return false, err
		}
	}
	if x.arm && x.opts.CrossCheck {
		if err := x.armCross(g, accepted); err != nil {
			return false, err
		}
	}
	if x.rv && x.opts.CrossCheck {
		if err := x.rvCross(g, accepted); err != nil {
			return false, err
		}
	}
	return accepted, nil
}

// witness is the execution g, for printing.
func (x *engine) witness(g *graph, st result.State) *result.Execution {
	ord := order(g)
	num := make([]int, len(g.evs))
	w := &result.Execution{State: st}
	for k, i := range ord {
		num[i] = k
	}
	for k, i := range ord {
		e := &g.evs[i]
		ee := event.Event{ID: k, Thread: e.thread, Kind: e.kind, Loc: e.loc, Tags: e.tags, Instr: i, PC: e.pc, Value: e.val}
		w.Events = append(w.Events, result.Event{ID: k, Thread: e.thread, Label: ee.Label(), PC: e.pc})
	}
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			w.Po = append(w.Po, [2]int{num[th[j-1]], num[th[j]]})
		}
	}
	for i := range g.evs {
		if e := &g.evs[i]; e.kind == event.Read {
			w.Rf = append(w.Rf, [2]int{num[e.rf], num[i]})
		}
	}
	for _, o := range g.co {
		for j := 1; j < len(o); j++ {
			w.Co = append(w.Co, [2]int{num[o[j-1]], num[o[j]]})
		}
	}
	for i := range g.evs {
		e := &g.evs[i]
		if e.kind != event.Read {
			continue
		}
		o := g.co[e.loc]
		after := false
		for _, y := range o {
			if after {
				w.Fr = append(w.Fr, [2]int{num[i], num[y]})
			}
			if y == e.rf {
				after = true
			}
		}
	}
	sort.Slice(w.Rf, func(a, b int) bool { return w.Rf[a][1] < w.Rf[b][1] })
	return w
}
