// Package enum is Musket's explicit engine, the reference the other engines
// are checked against: it enumerates every candidate execution of a litmus
// test (every control-flow path of every thread, every rf choice, every
// coherence order with the initial writes first), keeps those the CAT model
// accepts, and collects their final states.
package enum

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/musket-verify/musket/internal/spec"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/symexec"
)

// Options tune a run.
type Options struct {
	Variants map[string]bool // CAT variants (if "name" ...)
	Bound    int             // times a backward jump may be taken on a path (herd's -unroll); 0 means 2, a negative bound none
	TagNames []string        // tags whose sets the model may name; defaults to the front-end's
	// MaxPaths bounds the control-flow paths of one thread (0: 1<<16).
	MaxPaths int
	// Uniproc drops, before the model sees them, the candidates that are
	// not coherent per location (po-loc | rf | co | fr has a cycle), as
	// herd7's -optace does: sound for the models that require it (every
	// hardware model). The reads-from choices that no coherence order
	// makes coherent are not made (coherentSources). Mixed-size tests need it: their chunks multiply
	// the coherence orders (see uniproc.go). A model that generates co
	// itself (herd's cos.cat) gets the "cos-opt" variant, its generation
	// of the coherence orders that respect po-loc and rf (herd7's pco).
	Uniproc bool
	// Explain fills Result.Explain: why the condition's outcome is
	// allowed or forbidden (package explain). It turns Uniproc off for
	// tests that are not mixed-size, so that the model itself rejects
	// the incoherent candidates and says by which check.
	Explain bool
	// Skip names checks of the model not to apply (herd7's -skipchecks).
	Skip func(name string) bool
	// Through lets executions the model rejects go through (herd7's
	// -through): with a .cat model "all" and "invalid" both apply no
	// check; "" or "none" keeps the valid executions.
	Through string
	// Show collects, in Result.Shown, the executions kept (herd7's -show):
	// "prop" those that satisfy the condition's proposition, "neg" those
	// that do not, "cond" those that make the condition (with its
	// quantifier) true, "wit" the interesting ones (the proposition true
	// for exists and ~exists, false for forall), "all" every one; "" or
	// "none" none. NShow > 0 stops the run once that many are shown
	// (herd7's -nshow: the result covers the executions seen); with 0 at
	// most maxShown are kept.
	Show  string
	NShow int
	// FlagWitnesses keeps, for each flag raised, the first execution
	// raising it (Result.FlagWitnesses).
	FlagWitnesses bool
	// SpeedCheck enumerates only the executions that can settle the
	// condition (herd7's -speedcheck; see SpeedCheck): Result.Pruned
	// then says that the states, counts and flags cover those only.
	// Explain turns it off (an explanation looks at every candidate).
	SpeedCheck SpeedCheck
	// MaxEvaluated, when positive, stops the run once the model has
	// evaluated that many candidates: Status Timeout with Err ErrBudget,
	// the result covering the executions seen (a caller's budget that,
	// unlike a time limit, does not depend on the machine's load).
	MaxEvaluated int

	// lastingOutcomes (tests) asks the model for outcomes that stay
	// valid after its Check, as before CheckOptions.Transient.
	lastingOutcomes bool
}

// ErrBudget is the Err of a run stopped by Options.MaxEvaluated.
var ErrBudget = errors.New("the explicit engine's budget of candidate executions ran out")

// maxShown bounds the executions collected for Show when NShow is 0.
const maxShown = 1000

// ModelName labels results; the caller sets it.
type run struct {
	ctx     context.Context
	t       *spec.Test
	m       *cat.Model
	opts    Options
	res     *result.Result
	obs     []spec.Ref
	initMem map[string]prog.Value
	locs    []string
	paths   [][]*path
	bindsCo bool
	// singleAMOs: the model takes a prog.RMW.Single as one event (fuse.go).
	singleAMOs bool
	prune      bool // cut the branches no interesting execution follows (see canPrune)
	states     map[string]result.State
	flags      map[string]bool
	counter    int
	// evaluated counts the candidates the model evaluated.
	evaluated int
	explain   *explaining
	// wantCo, in a replay (replay.go) under a model that binds co
	// itself, is the pinned coherence order: an outcome with another is
	// another execution, not counted.
	wantCo *rel.Rel
	// dynIn is the model's input index (-1: none) of each name of
	// dynNames, the relations evaluate sets per candidate.
	dynIn []int
	// ev is the candidate evaluate hands the model, for accept, which
	// acceptFn is (made once: a closure per candidate was an allocation).
	ev       evalState
	acceptFn func(cat.Outcome) bool
	// keyBuf is record's buffer for the key of a state.
	keyBuf []byte
	// initW is the initial writes every combination starts with.
	initW *initWrites
	// search is withRf's coherence search, reused from one reads-from
	// choice to the next: withRf never runs inside another, and nothing
	// keeps the search after it returns (evaluate's outcome reads rf and
	// co through r.ev, cleared after each Check, and copies what it
	// keeps; the relations themselves are new for each choice).
	search *coSearch
}

// evalState is a candidate under evaluation (run.ev); err is what the
// evaluation returns when the model's Check does not fail.
type evalState struct {
	c    *combo
	vals []prog.Value
	rf   rel.Rel
	co   *rel.Rel
	err  error
}

// errSettled unwinds the search of a run with SpeedFast at the first
// execution that settles the condition.
var errSettled = errors.New("settled")

// errDeadline unwinds the search when the run's context is done; Run
// reports it as a timeout, never as a verdict.
var errDeadline = errors.New("deadline")

// Run checks t under model m.
func Run(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) *result.Result {
	res, _ := runCounting(ctx, t, m, modelName, opts)
	return res
}

// newRun is a run of the test under the model, with opts' defaults
// filled in: -bound 0 is 2 and a negative bound none; 2^16 paths at most.
func newRun(ctx context.Context, t *spec.Test, m *cat.Model, opts Options, res *result.Result) *run {
	r := &run{ctx: ctx, t: t, m: m, opts: opts, res: res, states: map[string]result.State{}, flags: map[string]bool{}}
	switch {
	case r.opts.Bound == 0:
		r.opts.Bound = 2
	case r.opts.Bound < 0:
		r.opts.Bound = 0
	}
	if r.opts.MaxPaths == 0 {
		r.opts.MaxPaths = 1 << 16
	}
	return r
}

// runCounting is Run, also returning how many candidates the model
// evaluated (for tests of the search's pruning).
func runCounting(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) (*result.Result, int) {
	start := time.Now()
	res := &result.Result{File: t.File, Name: t.Name, Model: modelName, Engine: "enum", Quant: t.Quant}
	res.Condition = t.ConditionLine()
	res.Arch = t.Arch
	r := newRun(ctx, t, m, opts, res)
	if r.opts.Explain {
		r.opts.SpeedCheck = SpeedOff
		r.explain = newExplaining(m)
		if !t.Mixed {
			r.opts.Uniproc = false
		}
	}
	if r.opts.Uniproc {
		vs := map[string]bool{"cos-opt": true}
		for v, on := range r.opts.Variants {
			vs[v] = vs[v] || on
		}
		r.opts.Variants = vs
	}
	res.Pruned = r.opts.SpeedCheck != SpeedOff
	err := r.run()
	res.Time = time.Since(start)
	switch {
	case errors.Is(err, errSettled):
	case errors.Is(err, errDeadline):
		res.Status = result.Timeout
	case errors.Is(err, ErrBudget):
		res.Status, res.Err = result.Timeout, ErrBudget
	case errors.As(err, new(*UnsupportedError)):
		res.Status = result.Unsupported
		res.Err = err
	case err != nil:
		res.Status = result.Failed
		res.Err = err
	}
	res.SetOutcomes(r.flags, r.states)
	if r.explain != nil && res.Status == result.Done {
		res.Explain = r.explain.explanation(res)
	}
	return res, r.evaluated
}

func (r *run) run() error {
	if err := r.setup(); err != nil {
		return err
	}
	return r.combine(0, make([]*path, len(r.t.Threads)))
}

// setup computes what every candidate needs: the observed refs, the
// initial state, the locations and the paths of every thread.
func (r *run) setup() error {
	t := r.t
	// Observed refs, initial state, locations.
	start, err := symexec.NewStart(t)
	if err != nil {
		return err
	}
	r.obs, r.initMem, r.locs = start.Obs, start.Mem, start.Locs
	initRegs := start.Regs
	r.res.Observed = r.obs

	// Paths of every thread.
	r.paths = make([][]*path, len(t.Threads))
	for i, th := range t.Threads {
		labels, err := th.Labels()
		if err != nil {
			return err
		}
		x := newExplorer(th, labels, r.opts.Bound, r.locs, r.opts.MaxPaths, r.tick)
		if err := x.Run(initRegs[i]); err != nil {
			return err
		}
		if x.Cut {
			r.res.Bounded = true
		}
		r.paths[i] = x.Paths
	}
	r.bindsCo = r.m.Binds("co")
	r.singleAMOs = r.m.SingleEventAMOs()
	r.prune = r.canPrune()
	return nil
}

func (r *run) combine(i int, chosen []*path) error {
	if i == len(chosen) {
		return r.candidate(chosen)
	}
	for _, p := range r.paths[i] {
		if err := r.tick(); err != nil {
			return err
		}
		chosen[i] = p
		if err := r.combine(i+1, chosen); err != nil {
			return err
		}
	}
	return nil
}

// coNames are the relations evaluate derives from a coherence order.
var coNames = []string{"co", "coi", "coe", "fr", "fri", "fre"}

// dynNames are the relations evaluate sets per candidate, rf's then co's
// (coNames).
var dynNames = append([]string{"rf", "rfi", "rfe"}, coNames...)

// combo is one choice of a path per thread, numbered into a graph.
type combo struct {
	g  *event.Graph
	st *event.Static
	// rels is the relations of the program, the same for every
	// candidate: st's map itself (evalSetup). Those of a candidate's rf
	// and co are its execution's Over (dynamic), not entries of rels.
	rels map[string]rel.Rel
	// inputs is the same by the model's input index
	// (cat.Execution.Inputs), built with rels; nil when a set of st has
	// the name of a relation evaluate sets.
	inputs []cat.Input
	// st's int, ext, id and M, looked up with rels.
	intl, ext, id rel.Rel
	mem           rel.Set
	// x is the execution evaluate hands the model, reused from one
	// candidate to the next (its maps already are), with vals the
	// values its SameValue compares; nil while the run explains
	// (explain.go keeps outcomes).
	x      *cat.Execution
	vals   []prog.Value
	base   []int // first event ID of each thread
	paths  []*path
	thread []int // thread of each event (-1 init)
	syms   []*sym
	reads  []int
	cands  [][]int          // candidate writes of each read
	writes map[string][]int // non-initial writes per location
	inits  map[string]int
	// divZero names the division by zero the current rf choice performs
	// ("" for none).
	divZero string
	// consRead tells, per event, whether it is a read a constraint of
	// its path depends on.
	consRead []bool
	// readIndex is the position in reads of each read (built lazily).
	readIndex map[int]int
	// scratch is the partial evaluation of the reads-from choices made
	// so far (partial), reused.
	scratch *partial
	// vr computes the values of each reads-from choice (values), reused.
	vr *valuer
	// fin gives the final values of a candidate (finalValues), reused.
	fin *finals
	// coh is the storage of coherent, reused.
	coh *coherence
	// coLocs are the locations with writes, sorted, for the coherence
	// orders withRf enumerates, with coPerms and coOrders its storage
	// (coSearch), made on the first reads-from choice.
	coLocs   []string
	coPerms  [][]int
	coOrders [][]int
	// coInits and coWrites are c.inits and c.writes of each of coLocs:
	// the coherence search looks them up per order, and maps keyed by
	// strings are dear in WebAssembly (no hashing instructions).
	coInits  []int
	coWrites [][]int
	// coReads lists, for each of coLocs, the indices in reads of its
	// reads, in order (coherent), so that coherent compares no names.
	coReads [][]int
	// fus maps the events to the model's when some read-modify-writes
	// are single events (nil when none; fuse.go), fst caches the image of
	// st.
	fus *event.Fusion
	fst *fusedStatic
}

func (r *run) candidate(paths []*path) error {
	c, err := r.newCombo(paths)
	if err != nil {
		return err
	}
	rf := make([]int, len(c.reads))
	return r.chooseRf(c, 0, rf)
}

// newCombo numbers the events of one path per thread into a graph, with
// the candidate writes of each read. Its parts are functions of their
// own, never inlined: as one function it was 17.8 KB of WebAssembly,
// which the browser's optimising compiler compiled on the playground's
// first runs.
//
// Its error is errDeadline once the run's context is done, or
// errTooManyCandidates.
func (r *run) newCombo(paths []*path) (*combo, error) {
	c := &combo{paths: paths, writes: map[string][]int{}}
	n := len(r.locs) // the combination's events, to allocate once
	for _, p := range paths {
		n += len(p.Events)
	}
	g := &event.Graph{TagNames: r.opts.TagNames, Events: make([]event.Event, 0, n)}
	c.thread, c.syms = make([]int, 0, n), make([]*sym, 0, n)
	r.initEvents(c, g)
	var single [][2]int
	c.base = make([]int, len(paths))
	for t, p := range paths {
		single = c.addPath(g, t, p, single)
	}
	c.g = g
	if len(single) > 0 && r.singleAMOs {
		c.fus = event.NewFusion(len(g.Events), single)
	}
	if err := r.candidates(c); err != nil {
		return nil, err
	}
	return c, nil
}

// initWrites are the initial writes of the locations, the first events
// of every combination: made on the first and shared by all (nothing
// changes an event, a symbolic value or inits once made).
type initWrites struct {
	events []event.Event
	syms   []*sym
	inits  map[string]int // the initial write of each location
}

// initEvents adds the initial writes of the locations to g.
//
//go:noinline
func (r *run) initEvents(c *combo, g *event.Graph) {
	iw := r.initW
	if iw == nil {
		iw = &initWrites{inits: make(map[string]int, len(r.locs))}
		nal := map[string]bool{}
		for _, t := range r.t.Threads {
			for _, l := range t.NonAtomic {
				nal[l] = true
			}
		}
		for id, l := range r.locs {
			v := r.initMem[l]
			tags := []string{"IW"}
			if nal[l] {
				tags = append(tags, "NAL")
			}
			iw.events = append(iw.events, event.Event{ID: id, Thread: -1, Kind: event.Write, Loc: l, Tags: tags, Instr: -1 - id, PC: -1, Value: v})
			iw.syms = append(iw.syms, symexec.Const(v))
			iw.inits[l] = id
		}
		r.initW = iw
	}
	g.Events = append(g.Events, iw.events...)
	for range iw.events {
		c.thread = append(c.thread, -1)
	}
	c.syms = append(c.syms, iw.syms...)
	c.inits = iw.inits
}

// addPath adds thread t's path p to g, and returns single with its
// read-modify-writes that are single events appended.
//
//go:noinline
func (c *combo) addPath(g *event.Graph, t int, p *path, single [][2]int) [][2]int {
	c.base[t] = len(g.Events)
	for _, pe := range p.Events {
		id := len(g.Events)
		g.Events = append(g.Events, event.Event{ID: id, Thread: t, Kind: pe.kind, Loc: pe.loc, Tags: pe.tags, Instr: pe.instr, PC: pe.pc})
		c.thread = append(c.thread, t)
		c.syms = append(c.syms, pe.val)
		local := id - c.base[t]
		b := c.base[t]
		g.Addr = appendDeps(g.Addr, pe.addrDeps, b, id, -1)
		g.Data = appendDeps(g.Data, pe.dataDeps, b, id, -1)
		g.Ctrl = appendDeps(g.Ctrl, pe.ctrlDeps, b, id, local)
		g.PickAddr = appendDeps(g.PickAddr, pe.addrPick, b, id, -1)
		g.PickData = appendDeps(g.PickData, pe.dataPick, b, id, -1)
		g.PickCtrl = appendDeps(g.PickCtrl, pe.ctrlPick, b, id, local)
		switch pe.kind {
		case event.Read:
			c.reads = append(c.reads, id)
		case event.Write:
			c.writes[pe.loc] = append(c.writes[pe.loc], id)
		}
	}
	for _, k := range p.Cons {
		for _, d := range k.S.Deps {
			for len(c.consRead) <= c.base[t]+d {
				c.consRead = append(c.consRead, false)
			}
			c.consRead[c.base[t]+d] = true
		}
	}
	for _, pr := range p.Rmw {
		g.Rmw = append(g.Rmw, [2]int{c.base[t] + pr[0], c.base[t] + pr[1]})
	}
	for _, pr := range p.Iico {
		g.IicoData = append(g.IicoData, [2]int{c.base[t] + pr[0], c.base[t] + pr[1]})
	}
	for _, pr := range p.Single {
		single = append(single, [2]int{c.base[t] + pr[0], c.base[t] + pr[1]})
	}
	return single
}

// candidates gives each read of c its candidate writes; errDeadline once
// the run's context is done, errTooManyCandidates past maxCandidates (reads × writes: seconds and gigabytes for a
// test of 65536 loads and stores a thread).
//
//go:noinline
func (r *run) candidates(c *combo) error {
	g := c.g
	c.cands = make([][]int, len(c.reads))
	total := 0
	for i, rd := range c.reads {
		if i&255 == 255 && r.ctx.Err() != nil {
			return errDeadline
		}
		if total += len(c.writes[g.Events[rd].Loc]) + 1; total > maxCandidates {
			return errTooManyCandidates
		}
		l := g.Events[rd].Loc
		c.cands[i] = append([]int{c.inits[l]}, c.writes[l]...)
		if own := c.fus.Other(rd); own >= 0 {
			// One event does not read from itself.
			c.cands[i] = slices.DeleteFunc(c.cands[i], func(w int) bool { return w == own })
		}
		if r.opts.Uniproc {
			c.cands[i] = c.coherentSources(rd, c.cands[i])
		}
	}
	return nil
}

// maxCandidates bounds the candidate writes of all the reads of one
// combination of paths (8 bytes each): past it, the reads-from choices
// (their product) could not be enumerated anyway, and the lists alone
// reached the 8 GiB memory limit on a test of 65536 loads and stores a
// thread. The engine refuses (a limit: -engine auto goes on with the
// others).
const maxCandidates = 1 << 24

var errTooManyCandidates = result.Limit(fmt.Sprintf("more than %d candidate writes for the reads of one combination of paths", maxCandidates))

// coherentSources drops from the candidate writes ws of read rd those
// that no execution coherent per location (po-loc | rf | co | fr
// acyclic: Options.Uniproc) lets it read: a write of its own thread
// after it in program order (rf against po-loc), and, when its thread
// writes the location before it, every write coherence-before the last
// such one: the initial write and its thread's earlier writes (rd would
// be fr-before a write po-loc-before it). Event IDs of a thread follow
// program order, as in coherent. With a read of a location a thread
// writes, lock words, the choices otherwise multiply by the writes of
// every thread to every part of a word (a lockref: millions of
// reads-from choices per combination of paths, each cut only once the
// values are computed).
func (c *combo) coherentSources(rd int, ws []int) []int {
	t := c.thread[rd]
	last := -1
	for _, w := range ws {
		if c.thread[w] == t && w < rd && w > last {
			last = w
		}
	}
	return slices.DeleteFunc(ws, func(w int) bool {
		switch {
		case c.thread[w] < 0:
			return last >= 0
		case c.thread[w] != t:
			return false
		case w > rd:
			return true
		}
		return last >= 0 && w < last
	})
}

func (r *run) chooseRf(c *combo, i int, rf []int) error {
	if err := r.tick(); err != nil {
		return err
	}
	if r.cutRf(c, rf, i) {
		return nil
	}
	if i == len(rf) {
		return r.withRf(c, rf)
	}
	for _, w := range c.cands[i] {
		rf[i] = w
		if err := r.chooseRf(c, i+1, rf); err != nil {
			return err
		}
	}
	return nil
}

// values computes the value of every event given rf, or reports that the
// choice is inconsistent (a value depends on itself, or a path constraint
// fails). divZero names the first division by zero the candidate
// performs ("" for none). err is set when the candidate is consistent as
// far as the engine can tell but an operation fails (prog.Apply refuses
// it: an address multiplied, ...): in an event's value, a constraint, a
// divisor or the final value of an observed register (obs). Dropping
// such a candidate would be a silent wrong verdict (issue #24).
//
// The values are in storage of c's, which the next call overwrites,
// unless fresh: the caller of a run that keeps them (an explanation's
// executions) asks for fresh ones.
func (c *combo) values(rf []int, obs []spec.Ref, threads []*prog.Thread, fresh bool) (vals []prog.Value, divZero string, ok bool, err error) {
	v := c.valuer(threads, fresh)
	for i, rd := range c.reads {
		v.src[rd] = rf[i]
	}
	for e := range c.g.Events {
		if c.g.Events[e].IsMem() || c.g.Events[e].Kind == event.Located {
			if _, ok := v.valueOf(e); !ok && v.opErr == nil {
				return nil, "", false, nil
			}
		}
	}
	// Once an operation failed, values that need it are unknown: the
	// candidate is dropped only when a constraint computed without it is
	// false, otherwise the failure is reported.
	for t, p := range c.paths {
		for _, k := range p.Cons {
			x, ok, err := k.S.EvalErr(v.local[t])
			switch {
			case err != nil:
				v.fail(t, err)
			case !ok:
				if v.opErr == nil {
					return nil, "", false, nil
				}
			case prog.Truth(x) != k.Want:
				return nil, "", false, nil
			}
		}
	}
	for t, p := range c.paths {
		for _, d := range p.Divs {
			x, ok, err := d.Divisor.EvalErr(v.local[t])
			if err != nil {
				v.fail(t, err)
			}
			if !ok || err != nil {
				if v.opErr == nil {
					return nil, "", false, nil
				}
				continue
			}
			if divZero == "" && prog.DividesByZero(d.Op, x) {
				divZero = d.At
			}
		}
	}
	for _, ref := range obs {
		if !ref.IsReg() || ref.Thread >= len(c.paths) {
			continue
		}
		if s, ok := c.paths[ref.Thread].Regs[ref.Name]; ok {
			if _, _, err := s.EvalErr(v.local[ref.Thread]); err != nil {
				v.fail(ref.Thread, err)
			}
		}
	}
	if v.opErr != nil {
		return nil, "", false, v.opErr
	}
	return v.vals, divZero, true, nil
}

// valuer is the state of combo.values, kept in the combination from one
// reads-from choice to the next (it ran once per choice and made its
// buffers and a closure per value computed).
type valuer struct {
	c       *combo
	threads []*prog.Thread
	src     []int // the write each read reads from, -1 for other events
	vals    []prog.Value
	status  []uint8 // 0 unknown, 1 computing, 2 done, 3 failed
	opErr   error   // the first operation that failed
	// local[t] gives the value of thread t's i-th event.
	local []func(int) (prog.Value, bool)
}

// valuer readies c's valuer for a reads-from choice: no value known.
func (c *combo) valuer(threads []*prog.Thread, fresh bool) *valuer {
	n := len(c.g.Events)
	v := c.vr
	if v == nil {
		v = c.newValuer(n)
	} else if fresh {
		v.vals = make([]prog.Value, n)
	} else {
		clear(v.vals)
	}
	for i := range v.src {
		v.src[i] = -1
	}
	clear(v.status)
	v.threads, v.opErr = threads, nil
	return v
}

// newValuer makes c's valuer for n events. Its closures capture nv,
// which is never assigned again: had they captured valuer's v, which it
// assigns, v would move to the heap on every call, one allocation per
// reads-from choice.
func (c *combo) newValuer(n int) *valuer {
	nv := &valuer{c: c, src: make([]int, n), vals: make([]prog.Value, n), status: make([]uint8, n)}
	nv.local = make([]func(int) (prog.Value, bool), len(c.paths))
	for t := range c.paths {
		base := c.base[t]
		nv.local[t] = func(i int) (prog.Value, bool) { return nv.valueOf(base + i) }
	}
	c.vr = nv
	return nv
}

// fail records the first operation that failed, in thread t.
func (v *valuer) fail(t int, err error) {
	if v.opErr == nil {
		name := fmt.Sprintf("P%d", t)
		if t < len(v.threads) {
			name = v.threads[t].Name
		}
		v.opErr = &UnsupportedError{fmt.Sprintf("%s: %v in an execution is not supported by the explicit engine", name, err)}
	}
}

// valueOf is the value of event e, computed on first use.
func (v *valuer) valueOf(e int) (prog.Value, bool) {
	switch v.status[e] {
	case 1, 3:
		v.status[e] = 3
		return prog.Value{}, false
	case 2:
		return v.vals[e], true
	}
	v.status[e] = 1
	c := v.c
	var x prog.Value
	ok := true
	ev := &c.g.Events[e]
	switch {
	case ev.Kind == event.Read:
		x, ok = v.valueOf(v.src[e])
	case c.thread[e] < 0:
		x = c.syms[e].V
	case c.syms[e] != nil:
		var err error
		x, ok, err = c.syms[e].EvalErr(v.local[c.thread[e]])
		if err != nil {
			v.fail(c.thread[e], err)
			ok = false
		}
	}
	if !ok {
		v.status[e] = 3
		return prog.Value{}, false
	}
	v.vals[e], v.status[e] = x, 2
	return x, true
}

// UnsupportedError is a feature of a test the explicit engine cannot
// run; the result's status is then result.Unsupported.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What }

func (r *run) withRf(c *combo, rf []int) error {
	vals, divZero, ok, err := c.values(rf, r.obs, r.t.Threads, r.explain != nil)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	c.divZero = divZero
	// The search, its rf relations and its co: one struct, reused.
	s := r.search
	if s == nil {
		s = &coSearch{}
		r.search = s
	}
	*s = coSearch{r: r, c: c, vals: vals, rf: rf}
	c.deriveRf(rf, &s.d)
	if r.bindsCo {
		return r.evaluate(c, vals, &s.d, nil, nil)
	}
	// Enumerate coherence orders: per location, every permutation of its
	// non-initial writes, after the initial write.
	if c.coLocs == nil {
		c.coLocs = make([]string, 0, len(c.writes))
		for l := range c.writes {
			c.coLocs = append(c.coLocs, l)
		}
		sort.Strings(c.coLocs)
		c.coPerms = make([][]int, len(c.coLocs))
		c.coInits, c.coWrites = make([]int, len(c.coLocs)), make([][]int, len(c.coLocs))
		c.coReads = make([][]int, len(c.coLocs))
		for k, l := range c.coLocs {
			c.coPerms[k] = make([]int, len(c.writes[l]))
			c.coInits[k], c.coWrites[k] = c.inits[l], c.writes[l]
			for i, rd := range c.reads {
				if c.g.Events[rd].Loc == l {
					c.coReads[k] = append(c.coReads[k], i)
				}
			}
		}
		c.coOrders = make([][]int, len(c.coLocs))
	}
	return s.loc(0)
}

// coSearch enumerates the coherence orders of one reads-from choice:
// per location (c.coLocs), every permutation of its non-initial writes,
// in c.coPerms, with c.coOrders[k] the order chosen for location k.
type coSearch struct {
	r    *run
	c    *combo
	vals []prog.Value
	rf   []int
	d    rfRels
	co   rel.Rel // the coherence order of the candidate evaluated
}

// loc chooses the orders of the locations from k on.
func (s *coSearch) loc(k int) error {
	c := s.c
	if k == len(c.coLocs) {
		return s.leaf()
	}
	copy(c.coPerms[k], c.coWrites[k])
	return s.permute(k, 0)
}

// permute gives location k, in turn, every order of its writes that
// keeps those before position i: position i takes each of the writes
// from i on (swapped in, then back), in the order the engine always
// enumerated them.
func (s *coSearch) permute(k, i int) error {
	r, c, p := s.r, s.c, s.c.coPerms[k]
	if i == len(p) {
		if err := r.tick(); err != nil {
			return err
		}
		c.coOrders[k] = p
		if r.opts.Uniproc && !c.coherent(c.coInits[k], c.coReads[k], s.rf, p) {
			return nil
		}
		if r.cutCo(c, s.vals, c.coLocs, c.coOrders, k+1) {
			return nil
		}
		return s.loc(k + 1)
	}
	for j := i; j < len(p); j++ {
		p[i], p[j] = p[j], p[i]
		if err := s.permute(k, i+1); err != nil {
			return err
		}
		p[i], p[j] = p[j], p[i]
	}
	return nil
}

// leaf evaluates the candidate of the orders chosen: co orders each
// location's initial write, then its writes in the order chosen. co and
// the relations dynamic derives from it share one allocation.
func (s *coSearch) leaf() error {
	c := s.c
	n := len(c.g.Events)
	k := rel.RelWords(n)
	buf := make([]uint64, (1+coDerived)*k)
	co := rel.NewRelIn(n, buf[:k])
	for j := range c.coLocs {
		o := c.coOrders[j]
		iw := c.coInits[j]
		for a, w := range o {
			co.Insert(iw, w)
			for _, w2 := range o[a+1:] {
				co.Insert(w, w2)
			}
		}
	}
	s.co = co
	return s.r.evaluate(c, s.vals, &s.d, &s.co, buf[k:])
}

// tick returns errDeadline once the run's context is done; it looks at
// the context every 16 calls. Every loop of the search calls it (paths,
// rf choices that fail the path constraints, coherence orders that fail
// the uniproc filter, model evaluations), and the model's evaluator gets
// the context too, so the run honours its time limit.
func (r *run) tick() error {
	r.counter++
	if r.counter&15 == 0 && r.ctx.Err() != nil {
		return errDeadline
	}
	return nil
}

// sameValue is the SameValue of c.x: whether events i and j carry the
// same value in c.vals. Events without a value (fences, ...) carry none
// to compare.
func (c *combo) sameValue(i, j int) bool {
	return i == j || c.mem.Has(i) && c.mem.Has(j) && c.vals[i] == c.vals[j]
}

// inputsOf is the relations and sets of st by the model's input index
// (cat.Execution.Inputs), nil when a set has the name of a relation
// evaluate sets per candidate.
func (r *run) inputsOf(st *event.Static) []cat.Input {
	if r.dynIn == nil {
		r.dynIn = make([]int, len(dynNames))
		for j, k := range dynNames {
			r.dynIn[j] = r.m.InputIndex(k)
		}
	}
	for _, k := range dynNames {
		if _, ok := st.Sets[k]; ok {
			return nil
		}
	}
	// By the model's inputs rather than st's names: fewer look-ups (a
	// graph has sets for every tag the model may name), and no range
	// over a map. A name in both maps is the set, as cat looks it up.
	in := make([]cat.Input, r.m.NumInputs())
	for i := range in {
		name := r.m.InputName(i)
		if v, ok := st.Sets[name]; ok {
			in[i] = cat.Input{Kind: cat.SetInput, Set: v}
		} else if v, ok := st.Rels[name]; ok {
			in[i] = cat.Input{Kind: cat.RelInput, Rel: v}
		}
	}
	return in
}

// evaluate checks one candidate execution (c's events, their values,
// rf and, unless the model builds it, co) against the model. Its parts
// are functions of their own, never inlined: as one function it was 17.6
// KB of WebAssembly, which the browser's optimising compiler compiled on
// the playground's first runs.
func (r *run) evaluate(c *combo, vals []prog.Value, d *rfRels, co *rel.Rel, spare []uint64) error {
	// A model evaluation costs far more than a look at the context.
	if r.ctx.Err() != nil {
		return errDeadline
	}
	if r.opts.MaxEvaluated > 0 && r.evaluated >= r.opts.MaxEvaluated {
		return ErrBudget
	}
	r.evaluated++
	if c.st == nil {
		// Built on the first rf choice that gets this far: most
		// combinations of paths (those of pointer loads, one per
		// location) have none.
		st, err := c.g.StaticContext(r.ctx)
		if err != nil {
			return errDeadline
		}
		c.st = st
	}
	// Each phase is dense relations over the events: with 10^4 events,
	// a phase costs tenths of a second, on a loaded machine seconds of
	// wall time (fix on big10k went 5 s past -timeout 2; robust5).
	if r.ctx.Err() != nil {
		return errDeadline
	}
	if c.rels == nil {
		r.evalSetup(c)
	}
	x := r.execution(c, vals)
	if r.ctx.Err() != nil {
		return errDeadline
	}
	r.dynamic(c, x, d, co, spare)
	if r.ctx.Err() != nil {
		return errDeadline
	}
	if c.fus != nil {
		x = c.fuse(x)
	}
	skip := r.opts.Skip
	if r.opts.Through == "all" || r.opts.Through == "invalid" {
		skip = func(string) bool { return true }
	}
	r.ev = evalState{c: c, vals: vals, rf: d.rf, co: co}
	if r.acceptFn == nil {
		r.acceptFn = r.accept
	}
	// accept reads the outcome while the model yields it, and keeps
	// nothing of it but copies (record, witness); an explanation keeps
	// rejected outcomes' Rel (explainRejected), so it gets lasting ones.
	transient := r.explain == nil && !r.opts.lastingOutcomes
	err := r.m.Check(x, cat.CheckOptions{Variants: r.opts.Variants, Ctx: r.ctx, Skip: skip, Transient: transient}, r.acceptFn)
	evalErr := r.ev.err
	r.ev = evalState{}
	if err != nil {
		if r.ctx.Err() != nil && errors.Is(err, r.ctx.Err()) {
			return errDeadline
		}
		return err
	}
	return evalErr
}

// evalSetup makes c's relations and model inputs from its static ones,
// on its first evaluation.
//
//go:noinline
func (r *run) evalSetup(c *combo) {
	c.inputs = r.inputsOf(c.st)
	c.intl, c.ext, c.id, c.mem = c.st.Rels["int"], c.st.Rels["ext"], c.st.Rels["id"], c.st.Sets["M"]
	// The execution's Rels is st's map, never written: the relations of
	// rf and co are its Over (dynamic).
	c.rels = c.st.Rels
}

// execution is the model's execution for c with values vals: made once
// per combination and reused unless executions are explained.
//
//go:noinline
func (r *run) execution(c *combo, vals []prog.Value) *cat.Execution {
	if c.x != nil {
		c.vals = vals
		return c.x
	}
	x := &cat.Execution{N: c.st.N, Sets: c.st.Sets, Loc: c.st.Loc, Rels: c.rels, Over: make([]cat.NamedRel, len(dynNames))}
	for j, k := range dynNames {
		x.Over[j].Name = k
	}
	if r.explain == nil {
		c.x, c.vals = x, vals
		x.SameValue = c.sameValue
	} else {
		mem := c.mem
		x.SameValue = func(i, j int) bool {
			// Events without a value (fences, ...) carry none to compare.
			return i == j || mem.Has(i) && mem.Has(j) && vals[i] == vals[j]
		}
	}
	return x
}

// rfRels are the relations of one reads-from choice, the same for each
// of its coherence orders: rf, rfi, rfe (dynNames' first three) and
// rf⁻¹, in one allocation. Like every relation the model is given, they
// are never changed once made (its memo keeps them).
type rfRels struct {
	rf, rfi, rfe, inv rel.Rel
	splitDone         bool // rfi and rfe are made (split)
}

// deriveRf makes the relations of the reads-from choice rf (read i
// reads from write rf[i]); rfi and rfe wait for c's static relations
// (split).
func (c *combo) deriveRf(rf []int, d *rfRels) {
	n := len(c.g.Events)
	k := rel.RelWords(n)
	buf := make([]uint64, 4*k)
	*d = rfRels{rf: rel.NewRelIn(n, buf[:k]), rfi: rel.NewRelIn(n, buf[k:2*k]), rfe: rel.NewRelIn(n, buf[2*k:3*k]), inv: rel.NewRelIn(n, buf[3*k:])}
	for i, rd := range c.reads {
		d.rf.Insert(rf[i], rd)
	}
	d.inv.SetInverse(d.rf)
}

// split makes rfi and rfe, once c has its static relations.
func (d *rfRels) split(c *combo) {
	if !d.splitDone {
		interInto(d.rfi, d.rf, c.intl)
		interInto(d.rfe, d.rf, c.ext)
		d.splitDone = true
	}
}

// coDerived is the number of relations dynamic derives from co: coi,
// coe, fr, fri, fre.
const coDerived = 5

// interInto sets the empty o to a ∩ b.
func interInto(o, a, b rel.Rel) {
	o.OrWith(a)
	o.AndWith(b)
}

// dynamic sets x's relations that depend on rf and co (rfi, fr, ...),
// by name (x.Over) and as the model's inputs.
//
// By name they are x.Over's entries, which a read by name
// (cat.Execution.Rel) finds before Rels': the same relations under the
// same names as when they were written into Rels, where each cost a
// map write and a hash of the name per candidate. Rels is st's map and
// never has them (Static makes none of dynNames, and nothing writes
// st's map). When the model binds co, Over holds rf's three alone (a
// run's candidates all have co or none do: bindsCo), and co's names are
// absent by name, as when this function deleted them from Rels. Over is
// x's own (execution makes it with x), so an execution an explanation
// keeps is never changed by a later candidate.
//
//go:noinline
func (r *run) dynamic(c *combo, x *cat.Execution, d *rfRels, co *rel.Rel, spare []uint64) {
	intl, ext := c.intl, c.ext
	d.split(c)
	// In the order of dynNames.
	var dyn [9]rel.Rel
	dyn[0], dyn[1], dyn[2] = d.rf, d.rfi, d.rfe
	if co != nil {
		// fr = (rf⁻¹ ; co) \ id, and the parts of co and fr within
		// and between threads, in one allocation.
		n := co.N()
		k := rel.RelWords(n)
		buf := spare
		if len(buf) < coDerived*k {
			buf = make([]uint64, coDerived*k)
		}
		coi, coe := rel.NewRelIn(n, buf[:k]), rel.NewRelIn(n, buf[k:2*k])
		fr, fri, fre := rel.NewRelIn(n, buf[2*k:3*k]), rel.NewRelIn(n, buf[3*k:4*k]), rel.NewRelIn(n, buf[4*k:])
		interInto(coi, *co, intl)
		interInto(coe, *co, ext)
		fr.SetSeq(d.inv, *co)
		fr.AndNotWith(c.id)
		interInto(fri, fr, intl)
		interInto(fre, fr, ext)
		dyn[3], dyn[4], dyn[5] = *co, coi, coe
		dyn[6], dyn[7], dyn[8] = fr, fri, fre
		x.Over = x.Over[:len(dynNames)]
	} else {
		// co's names are st's (Rels), if it has them.
		x.Over = x.Over[:3]
	}
	for j := range x.Over {
		x.Over[j].Rel = dyn[j]
	}
	if c.inputs != nil {
		// The same by index, so that the model does not hash the names.
		n := 3
		if co != nil {
			n = len(dynNames)
		}
		for j := range n {
			if i := r.dynIn[j]; i >= 0 {
				c.inputs[i] = cat.Input{Kind: cat.RelInput, Rel: dyn[j]}
			}
		}
		if co == nil {
			for j, k := range coNames {
				if i := r.dynIn[3+j]; i >= 0 {
					c.inputs[i] = cat.Input{}
					if v, ok := c.st.Rels[k]; ok {
						c.inputs[i] = cat.Input{Kind: cat.RelInput, Rel: v}
					}
				}
			}
		}
		x.Inputs = c.inputs
	}
}

// accept is the model's yield for the candidate in r.ev: it records
// an accepted execution's final state (see evaluate).
func (r *run) accept(o cat.Outcome) bool {
	c, vals, rf, co := r.ev.c, r.ev.vals, r.ev.rf, r.ev.co
	if c.fus != nil {
		o.Rel = c.unfuse(o.Rel)
	}
	if !o.Accepted {
		if r.explain != nil {
			r.explainRejected(c, vals, rf, co, o)
		}
		return true
	}
	finalCo := co
	if finalCo == nil {
		got, ok := o.Rel("co")
		if !ok {
			r.ev.err = fmt.Errorf("model binds co but gives no coherence order")
			return false
		}
		finalCo = &got
	}
	if r.wantCo != nil && !finalCo.Equal(*r.wantCo) {
		return true
	}
	if st, kept, settles := r.record(c, vals, rf, *finalCo); kept {
		if c.divZero != "" {
			r.ev.err = &prog.DivisionByZeroError{At: c.divZero}
			return false
		}
		if !settles {
			// -speedcheck: not one of the executions kept.
			return true
		}
		// Flags of the executions the filter keeps, as the SMT
		// engine (which asserts the filter) reports them.
		flags := o.Flags
		if len(o.Undefined) > 0 {
			flags = append(flags[:len(flags):len(flags)], result.UndefFlag)
		}
		for _, f := range flags {
			r.flags[f] = true
			if r.opts.FlagWitnesses && r.res.FlagWitnesses[f] == nil {
				if r.res.FlagWitnesses == nil {
					r.res.FlagWitnesses = map[string]*result.Execution{}
				}
				if x := witness(r.ctx, c, vals, rf, *finalCo, st); x != nil {
					r.res.FlagWitnesses[f] = x
				}
			}
		}
		if r.opts.SpeedCheck == SpeedFast && r.prune {
			r.ev.err = errSettled
			return false
		}
		if r.opts.NShow > 0 && len(r.res.Shown) >= r.opts.NShow {
			// herd7's -nshow: the run stops once N executions
			// are shown; what it reports covers those seen.
			r.ev.err = errSettled
			return false
		}
	}
	return true
}

// record adds one accepted execution's final state and returns it; kept
// is false when the test's filter rejects the execution, interesting is
// false when -speedcheck leaves it out (it does not settle the
// condition; nothing is recorded).
func (r *run) record(c *combo, vals []prog.Value, rf, co rel.Rel) (st result.State, kept, interesting bool) {
	regVal := r.finalValues(c, vals, co)
	if r.t.Filter != nil && !spec.Eval(r.t.Filter, regVal) {
		return nil, false, false
	}
	sat := spec.Eval(r.t.Cond, regVal)
	if r.opts.SpeedCheck != SpeedOff && sat != r.interesting() {
		return nil, true, false
	}
	// The state's key (State.Key), built in a buffer: most accepted
	// executions end in a state already seen, which is then the one
	// returned (states are never changed once made).
	key := r.keyBuf[:0]
	for _, ref := range r.obs {
		key = appendValue(key, regVal(ref))
		key = append(key, ';')
	}
	r.keyBuf = key
	st, seen := r.states[string(key)]
	if !seen {
		st = make(result.State, len(r.obs))
		for i, ref := range r.obs {
			st[i] = regVal(ref)
		}
		r.states[string(key)] = st
	}
	r.show(sat, func() *result.Execution { return witness(r.ctx, c, vals, rf, co, st) })
	if sat {
		r.res.Positive++
		if r.res.Witness == nil {
			r.res.Witness = witness(r.ctx, c, vals, rf, co, st)
		}
	} else {
		r.res.Negative++
	}
	return st, true, true
}

// appendValue appends v.String() to b.
func appendValue(b []byte, v prog.Value) []byte {
	switch {
	case v.Loc == "":
		return strconv.AppendInt(b, v.Int, 10)
	case v.Int == 0:
		return append(b, v.Loc...)
	}
	b = append(append(b, v.Loc...), '+')
	return strconv.AppendInt(b, v.Int, 10)
}

// finals is the state of finalValues, made once per combination: the
// final value of each location, and the function finalValues returns.
type finals struct {
	locs   []string // the keys of c.inits
	inits  []int    // and their values
	writes [][]int  // and c.writes of each
	vals   []prog.Value
	base   int          // the first event of the thread whose register is read
	final  []prog.Value // the final value of each of locs
	get    func(spec.Ref) prog.Value
	// refs is where each ref asked for so far takes its value, so that
	// the maps (the path's registers, the initial values) are looked up
	// once per combination rather than per execution kept: string keys
	// are hashed without the processor's help in WebAssembly.
	refs []finalRef
}

// finalRef says where ref's final value is: location loc of finals (loc
// >= 0), register sym of the thread whose events begin at base (sym not
// nil), or else the constant val.
type finalRef struct {
	ref  spec.Ref
	loc  int
	sym  *symexec.Sym
	base int
	val  prog.Value
}

// finalOf is the final value of location l, if it is one of c's.
func (f *finals) finalOf(l string) (prog.Value, bool) {
	for i, x := range f.locs {
		if x == l {
			return f.final[i], true
		}
	}
	return prog.Value{}, false
}

// finalValues returns the final value of each ref in the execution of
// combo c with values vals and coherence order co. The function is
// valid until the next call on c.
func (r *run) finalValues(c *combo, vals []prog.Value, co rel.Rel) func(spec.Ref) prog.Value {
	f := c.fin
	if f == nil {
		f = &finals{}
		// One closure for every register's evaluation, reading the
		// events of the thread at f.base.
		read := func(i int) (prog.Value, bool) { return f.vals[f.base+i], true }
		f.get = func(ref spec.Ref) prog.Value {
			var fr *finalRef
			for i := range f.refs {
				if x := &f.refs[i]; x.ref == ref {
					fr = x
					break
				}
			}
			if fr == nil {
				f.refs = append(f.refs, r.whereFinal(c, f, ref))
				fr = &f.refs[len(f.refs)-1]
			}
			switch {
			case fr.loc >= 0:
				return f.final[fr.loc]
			case fr.sym != nil:
				f.base = fr.base
				v, _ := fr.sym.Eval(read)
				return v
			}
			return fr.val
		}
		f.locs, f.inits, f.writes = make([]string, 0, len(c.inits)), make([]int, 0, len(c.inits)), make([][]int, 0, len(c.inits))
		for l, iw := range c.inits {
			f.locs, f.inits, f.writes = append(f.locs, l), append(f.inits, iw), append(f.writes, c.writes[l])
		}
		f.final = make([]prog.Value, len(f.locs))
		c.fin = f
	}
	f.vals = vals
	// Every location of c is set again. The locations are walked in a
	// slice: ranging over a map draws a random start, which is slow in
	// WebAssembly, and this runs for every execution kept.
	for i := range f.locs {
		last := f.inits[i]
		for _, w := range f.writes[i] {
			if co.Succ(w).IsEmpty() {
				last = w
			}
		}
		f.final[i] = vals[last]
	}
	return f.get
}

// whereFinal finds where ref's final value is in the executions of c:
// as finalValues' get found it for each execution before.
func (r *run) whereFinal(c *combo, f *finals, ref spec.Ref) finalRef {
	fr := finalRef{ref: ref, loc: -1}
	if !ref.IsReg() {
		for i, x := range f.locs {
			if x == ref.Name {
				fr.loc = i
				return fr
			}
		}
		fr.val = r.initMem[ref.Name]
		return fr
	}
	if ref.Thread >= len(c.paths) {
		return fr
	}
	s, ok := c.paths[ref.Thread].Regs[ref.Name]
	if !ok {
		fr.val = prog.IntValue(0)
		for _, e := range r.t.Init {
			if e.Ref == ref {
				fr.val = e.Val
				break
			}
		}
		return fr
	}
	fr.sym, fr.base = s, c.base[ref.Thread]
	return fr
}

// show adds the execution that mk builds to Result.Shown when Options.Show
// asks for it; sat tells whether it satisfies the condition's proposition.
func (r *run) show(sat bool, mk func() *result.Execution) {
	want := false
	switch r.opts.Show {
	case "all":
		want = true
	case "prop":
		want = sat
	case "neg":
		want = !sat
	case "cond":
		want = sat != (r.t.Quant == spec.NotExists)
	case "wit":
		want = sat != (r.t.Quant == spec.Forall)
	}
	limit := r.opts.NShow
	if limit <= 0 {
		limit = maxShown
	}
	if want && len(r.res.Shown) < limit {
		if x := mk(); x != nil { // nil: the run is stopping
			r.res.Shown = append(r.res.Shown, x)
		}
	}
}

func witness(ctx context.Context, c *combo, vals []prog.Value, rf, co rel.Rel, st result.State) *result.Execution {
	x, _ := witnessMap(ctx, c, vals, rf, co, st)
	return x
}

// witnessMap is witness, which draws each single-event read-modify-write
// the model sees as one event (a RISC-V AMO, as herd7 draws it), and the
// map from the engine's events to the drawn ones (nil when they are the
// same). Both are nil once ctx is done (the run is then stopping).
func witnessMap(ctx context.Context, c *combo, vals []prog.Value, rf, co rel.Rel, st result.State) (*result.Execution, []int) {
	x := &result.Execution{State: st}
	for i := range c.g.Events {
		e := c.g.Events[i]
		e.Value = vals[i]
		x.Events = append(x.Events, result.Event{ID: i, Thread: e.Thread, Label: e.Label(), PC: e.PC})
	}
	for i := range c.g.Events {
		for j := i + 1; j < len(c.g.Events); j++ {
			if c.thread[i] >= 0 && c.thread[i] == c.thread[j] {
				x.Po = append(x.Po, [2]int{i, j})
				break
			}
		}
	}
	x.Rf = rf.Pairs()
	// Immediate co edges only.
	imm, ok := immediateCo(ctx, co)
	if !ok {
		return nil, nil
	}
	x.Co = imm
	fr := rf.Inverse().Seq(co)
	fr.Each(func(a, b int) {
		if a != b {
			x.Fr = append(x.Fr, [2]int{a, b})
		}
	})
	f := c.fus
	if f == nil {
		return x, nil
	}
	var pairs [][2]int
	for m := 0; m < f.M; m++ {
		if f.Read[m] != f.Write[m] {
			pairs = append(pairs, [2]int{f.Read[m], f.Write[m]})
		}
	}
	return result.Merge(x, pairs, func(id, old int) string {
		e := c.g.Events[old]
		e.Value, e.ID = vals[old], id
		if w := f.Other(old); w >= 0 {
			we := c.g.Events[w]
			we.Value = vals[w]
			return event.FusedLabel(id, &e, &we)
		}
		return e.Label()
	})
}

// appendDeps appends to rel the edge (base+d, id) for each thread-local
// event d of ds; with below >= 0 (control dependencies), only those
// before the event (d < below).
func appendDeps(rel [][2]int, ds []int, base, id, below int) [][2]int {
	for _, d := range ds {
		if below < 0 || d < below {
			rel = append(rel, [2]int{base + d, id})
		}
	}
	return rel
}
