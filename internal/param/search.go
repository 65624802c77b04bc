package param

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"time"
)

// Verdict is the outcome of a search.
type Verdict int

// The verdicts. Only Safe and Unsafe are answers; the others say which
// limit stopped the search.
const (
	Safe Verdict = iota
	Unsafe
	DepthLimit
	NodeLimit
	Timeout
	EventLimit
	// Unconfirmed: the search reached the initial states, but through
	// an abstract trace of a weak-memory system that no finite instance
	// follows, even in the precise mode (refine.go): no answer.
	Unconfirmed
	// NumberLimit: the search reached the initial states through a
	// pre-image that dropped a literal, its numbers past ratLimit
	// (lin.go): the cube was weakened, and the path proves nothing.
	NumberLimit
)

func (v Verdict) String() string {
	return [...]string{"SAFE", "UNSAFE", "depth limit reached", "node limit reached", "timeout", "event limit reached", "unknown: the search found only an abstract trace, which no finite instance confirms",
		"unknown: the only paths to the initial states went through a pre-image whose numbers grew past 2^40, a literal of which was dropped"}[v]
}

// Options control a search.
type Options struct {
	DFS      bool
	MaxDepth int // 0: no limit
	MaxNodes int // 0: no limit
	// NoInstances: no forward decision of a system with number_procs
	// (instdecide.go), the backward search only
	NoInstances bool
	// replayWords, when positive, bounds the words of the states a
	// replay keeps after a step, in place of replayWords (tests)
	replayWords int
	Timeout     time.Duration // 0: no limit
	// Verbose, when set, receives every node as it is explored.
	Verbose io.Writer
	// Progress, when set, is called from time to time.
	Progress func(visited, queued int)
	// Graph keeps every explored node for the dot output.
	Graph bool
	// NoApprox turns off the approximation of cubes (approx.go).
	NoApprox bool
	// Model is the memory model of the weak variables: "tso" (the
	// default, Cubicle-W's) or "pso" (per-variable store buffers).
	Model string
	// ParallelSample grows the deep samples of the approximation on two
	// goroutines (parsample.go): the same answers and more CPU time;
	// it may save wall time when a second core is free (measured on
	// two cores, it did not).
	ParallelSample bool
	// Brab, when positive, selects Cubicle's BRAB (brab.go): the
	// oracle is the instance with Brab processes explored breadth
	// first up to ForwardDepth steps (all of it when ForwardDepth <= 0),
	// and a bad candidate restarts the search. Cubicle's -brab and
	// -forward-depth.
	Brab         int
	ForwardDepth int

	// precise: write nodes remember the reads of other processes that
	// read from them (refine.go); set by Verify for its second search
	// only, when the first one's UNSAFE trace is not confirmed.
	precise bool

	// noBacktrack: a refuted guess restarts the search instead of being
	// undone in place (backtrack.go; tests compare the two)
	noBacktrack bool
	// sampleCap bounds the sample of the approximation (0: none), so
	// that tests get wrong guesses to undo (the weak sample too:
	// wguess.go)
	sampleCap int
	// skipPlain makes a weak system's search start with the
	// approximation (plainFirst, wguess.go; tests)
	skipPlain bool
	// noShallow leaves out the first attempt with a shallow oracle
	// (shallowFirst, brab.go; tests of the searches that follow it)
	noShallow bool
	// shallowBudget, when positive, bounds the first attempt's cubes
	// instead of shallowNodes, and runs it whatever MaxNodes is (the
	// random cross-checks, whose MaxNodes would leave it out)
	shallowBudget int

	// crossCheck asks Z3 too every question that decide.go answers,
	// and panics on a different answer (tests).
	crossCheck bool
}

// pso reports whether the search runs under PSO.
func (e *engine) pso() bool { return e.opts.Model == "pso" }

// Step is one transition instance of a trace.
type Step struct {
	Trans string
	Args  []int32
}

func (s Step) String() string {
	str := s.Trans + "("
	for i, a := range s.Args {
		if i > 0 {
			str += ", "
		}
		str += slotName(a)
	}
	return str + ")"
}

// GraphNode is an explored node of the search graph.
type GraphNode struct {
	ID     int
	Parent int // -1 for a root
	Label  string
	Cube   string
	Status string // "visited", "guess", "subsumed", "init" or "pending"
}

// Result is the outcome of Verify.
type Result struct {
	Verdict  Verdict
	Trace    []Step // for Unsafe: from an initial state to the unsafe one
	Root     int    // for Unsafe: index of the unsafe formula reached
	Visited  int    // nodes explored (not subsumed)
	Popped   int    // nodes taken from the queue
	Time     time.Duration
	Solver   int // solver calls
	Semantic int // fixpoint tests decided by the solver
	Guesses  int // visited cubes that are approximations
	Restarts int // searches started again after a wrong guess
	// Backtracks: wrong guesses undone in place (backtrack.go), without
	// a restart
	Backtracks int
	Deleted    int // visited cubes removed because a later one covers them
	undecided  int // the solver calls that decide.go left to Z3
	Graph      []GraphNode
	// Note says how Verify checked an UNSAFE answer of a weak system
	// (refine.go), when it searched again; "" otherwise.
	Note string
	// Precise: the answer comes from the search in the precise mode
	// (refine.go)
	Precise bool
	// Forward: the answer comes from the exploration of the instances
	// of a system with number_procs (instdecide.go): a SAFE has no
	// invariant then
	Forward bool

	// for Safe: the visited cubes, whose negations form an inductive
	// invariant
	cubes []*Cube
}

// TraceString prints the trace as "t1(#1) -> t2(#2) -> unsafe[1]".
func (r *Result) TraceString() string {
	s := ""
	for _, st := range r.Trace {
		s += st.String() + " -> "
	}
	return s + fmt.Sprintf("unsafe[%d]", r.Root)
}

// engine holds the state of one search.
type engine struct {
	// initOn caches the init formula instantiated on a tuple of slots
	// (reachesInit; read only)
	initOn map[[4]int32]dnf
	// initIdx: the literals of initOn's formulas by atom (initIndex);
	// noInitFilter: reachesInit without initConflicts (tests compare)
	initIdx       map[[4]int32]map[Term]Lit
	noInitFilter  bool
	sys           *System
	opts          Options
	z             *solver
	visited       []*Cube
	invariants    []*Cube
	nextID        int
	tooManyEvents bool
	semanticHits  int
	approx        *approximator // nil: no approximation
	stop          func() bool   // the deadline passed or the caller cancelled
	polls         int
	halted        bool // stopped said so once
	plainProcs    int  // see plainFirst (wguess.go); 0: no bound
	noTicks       bool // no elimination of ticks (tick.go)

	// matchScratch, idxScratch: the fixpoint test's matcher and index,
	// reused (subsume.go); keepBuf: preImage's literals kept as they are
	// (preimage.go)
	matchScratch *matcher
	idxScratch   *matchIndex
	keepBuf      []Lit
	// grKeep: guardRefuted's literals for the cube preImages works on
	// (preimage.go)
	grKeep guardKeep
	// guards: the instantiated guards of transition instances
	// (instGuard, preimage.go)
	guards map[transInstKey][]guardInst
	// noPreFilter: no guardRefuted, no kept guards and no kept update
	// alternatives (alts) (tests compare)
	noPreFilter bool
	// subsumer: the cube that covered the last cube the fixpoint test
	// dropped, when one did alone (backtrack.go)
	subsumer *Cube
	initBuf  []Lit // reachesInit's literals
	// notsBuf, resBuf: the residuals of subsumedByPermutations and
	// their literals (subsume.go)
	notsBuf [][]Lit
	resBuf  []Lit
	// judgeTab, judgeGen, judgeKept: subsumedByPermutations' dense
	// memo of judge (see there), kept from one call to the next
	judgeTab  []uint64
	judgeGen  uint64
	judgeKept []Lit
	// atomsBuf, seenBuf: updatedAtoms' (preimage.go)
	atomsBuf []atomAlts
	seenBuf  []Term
	// alts: the alternatives of the updates of transition instances
	// (atomUpdate, preimage.go); nil on weak systems
	alts map[altKey][]valAlt
	// choiceBuf, choiceSub: preImageChoice's literals and substitution;
	// buildBuf: build's literals until the cube is kept (preimage.go)
	choiceBuf []Lit
	choiceSub substitution
	buildBuf  []Lit
}

// stopped reports, every 32 calls, whether the search must stop: the
// loops of the pre-image, the fixpoint test and the approximation call
// it so that a time limit holds within a fraction of a second. Once it
// has said so it keeps saying so, so that a deep recursion (the renamings
// of the fixpoint test) unwinds at once instead of at every 32nd call.
func (e *engine) stopped() bool {
	if e.halted {
		return true
	}
	e.polls++
	if e.polls&31 == 0 && e.stop != nil && e.stop() {
		e.halted = true
	}
	return e.halted
}

// search runs the backward reachability analysis of sys once (Verify
// checks its UNSAFE answers on weak systems, refine.go).
func search(ctx context.Context, sys *System, opts Options) (*Result, error) {
	start := time.Now()
	switch opts.Model {
	case "", "tso", "pso":
	default:
		return nil, fmt.Errorf("unknown memory model %q: the parameterized checker knows tso and pso", opts.Model)
	}
	e := &engine{sys: sys, opts: opts}
	e.z = newSolver(sys) // Z3 is loaded when a question needs it
	e.z.crossCheck = opts.crossCheck
	defer e.z.close()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	e.stop = func() bool { return ctx.Err() != nil || e.z.failed != nil }
	e.z.stopped = e.stop
	stop := context.AfterFunc(ctx, e.z.interrupt)
	defer stop()

	r := &run{e: e, res: &Result{}, graphIndex: map[*Cube]int{}, lastProgress: time.Now()}
	finish := func(v Verdict) (*Result, error) {
		if e.z.failed != nil {
			return nil, fmt.Errorf("param: %w", e.z.failed) // Z3 out of memory (the memory limit) or failed
		}
		res := r.res
		res.Verdict = v
		if v == Safe {
			res.cubes = slices.Clone(e.visited)
		}
		res.Restarts += r.firstRestarts
		res.Time = time.Since(start)
		res.Solver = e.z.calls
		res.undecided = e.z.undecided
		res.Semantic = e.semanticHits
		return res, nil
	}
	for _, inv := range sys.Invariants {
		for _, c := range e.rootCubes(inv) {
			e.prepare(c)
			e.invariants = append(e.invariants, c)
		}
	}
	if opts.Brab > 0 && !opts.NoApprox {
		a, err := newBrabApproximator(sys, opts.Brab, opts.ForwardDepth, e.stop)
		if err != nil {
			return nil, err
		}
		e.approx = a
		if r.sampleUnsafe() {
			return finish(Unsafe)
		}
		if ctx.Err() != nil {
			return finish(Timeout)
		}
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "BRAB: %d states of the instance with %d processes (depth %d)\n", a.brab.states, opts.Brab, opts.ForwardDepth)
		}
		for {
			v, restart := r.search(ctx)
			if !restart {
				return finish(v)
			}
		}
	}
	if !opts.NoApprox && sys.Weak && !e.pso() {
		if v, done := r.plainFirst(ctx); done { // wguess.go
			return finish(v)
		}
	}
	if !opts.NoApprox && !sys.Weak {
		if v, done := r.shallowFirst(ctx); done { // brab.go
			return finish(v)
		}
	}
	if !opts.NoApprox && !sys.Weak && !explorable(sys) {
		if v, done := r.approximateFirst(ctx); done {
			return finish(v)
		}
		if v, done := r.plainAbstractFirst(ctx); done {
			return finish(v)
		}
	}
	if !opts.NoApprox && r.approximate() {
		return finish(Unsafe)
	}
	for {
		v, restart := r.search(ctx)
		if !restart {
			return finish(v)
		}
	}
}

// approxFirstNodes bounds the first search of a system that is sampled
// abstractly: with the approximation, before the search without it
// (plainAbstractFirst) and the one with it again. One fixed order does
// not serve every such system: challenges_flash_test closes in 21 nodes
// with guesses and not within 200 without them; the two flash2_relevant
// examples close in 125-130 nodes without guesses, and with them only
// after 500 nodes and a deeper sample. A short first attempt, a quarter
// of the plain search's bound, costs the second kind little (the lazy
// sample of its first nodes is small) and spares the first kind, when
// it closes within the bound, the 200 plain nodes; the searches that
// run longer are those that ran before, after it, unless the first one
// is productive (see productive): then it goes on past the bound.
const approxFirstNodes = 50

// approximateFirst runs the search with the approximation for at most
// approxFirstNodes visited cubes over all its restarts; done reports a
// verdict (or a limit of the caller's) that stands. When the bound is
// reached, the approximation is dropped with what it learnt (sample,
// refuted guesses): the searches that follow are those that ran before
// this one existed. Every verdict of this search is as sound as any
// other search's: a guess is kept only if the search closes with it (the
// visited cubes then form an inductive invariant), and an unsafe answer
// is only given for a path without guesses. A node limit of the caller's
// within the bound skips this search (the caller then gets the searches
// it got before, and the same limit).
func (r *run) approximateFirst(ctx context.Context) (v Verdict, done bool) {
	e := r.e
	if e.opts.MaxNodes > 0 && e.opts.MaxNodes <= approxFirstNodes {
		return 0, false
	}
	if r.approximate() {
		return Unsafe, true
	}
	if e.approx == nil {
		return 0, false
	}
	r.budget, r.spent, r.outOfBudget, r.phaseGuesses = approxFirstNodes, 0, false, 0
	for {
		var restart bool
		v, restart = r.search(ctx)
		if !restart {
			break
		}
	}
	r.budget = 0
	if v != NodeLimit || !r.outOfBudget {
		return v, true
	}
	if e.opts.Verbose != nil {
		fmt.Fprintf(e.opts.Verbose, "no verdict after %d cubes with approximations: search again without\n", r.spent)
	}
	e.approx = nil
	r.work = 0
	r.firstRestarts = r.res.Restarts
	r.res.Restarts = 0
	return 0, false
}

// productive reports whether the first search with the approximation
// (approximateFirst) generalised at least one visited cube in
// productiveRatio: then it goes on past approxFirstNodes instead of
// leaving the system to the search without approximation, and the
// ratio is checked again every approxFirstNodes nodes (over the whole
// phase): when it fails, the phase is unproductive and may go deep
// (deep.go).
func (r *run) productive() bool {
	return r.phaseGuesses*productiveRatio >= r.spent
}

// productiveRatio: the FLASH examples that need their guesses
// (challenges_flash2, _exclusive, _exclusive_putx; the search without
// approximation does not close them within 200 cubes) generalise about
// one cube in two of their first 50 (24 to 33 guesses), and so does
// hierarchical_snoop_cygc (27); those that close without guesses
// (challenges_flash2_relevant, relevant2, bakery_lamport_na and _wb,
// lynch_full, ricart-synonrien_mcmt2, distrib_channels) make 0 to 8.
// One in three lies between.
const productiveRatio = 3

// abstractPlainNodes bounds the search without approximation of a
// system that is sampled abstractly (integers, reals, abstract types),
// before it starts again with the approximation: guesses from an
// abstract sample are weaker, and a search that ends within a few
// hundred nodes is better off without them.
const abstractPlainNodes = 200

// plainAbstractFirst runs the search without approximation for at most
// abstractPlainNodes visited cubes; done reports a verdict (or a limit
// of the caller's) that stands.
func (r *run) plainAbstractFirst(ctx context.Context) (v Verdict, done bool) {
	e := r.e
	saved := e.opts.MaxNodes
	if saved == 0 || saved > abstractPlainNodes {
		e.opts.MaxNodes = abstractPlainNodes
	}
	v, _ = r.search(ctx)
	e.opts.MaxNodes = saved
	// (NumberLimit too: a weakened path proves nothing, and the
	// approximation may close the system without it)
	if (v == NodeLimit || v == NumberLimit) && (saved == 0 || saved > abstractPlainNodes) {
		if e.opts.Verbose != nil {
			fmt.Fprintf(e.opts.Verbose, "no verdict after %d cubes: search again with approximations\n", r.res.Visited)
		}
		return v, false
	}
	return v, true
}

// run is the state of a Verify call that outlives the restarts of the
// search (after a refuted guess).
type run struct {
	e            *engine
	res          *Result
	graphIndex   map[*Cube]int // the cubes of res.Graph, by their index
	lastProgress time.Time     // the latest call of Options.Progress
	work         int           // nodes visited, over all the restarts
	tickTrace    []Step        // the confirmed path of a cube made with eliminated ticks
	// budget bounds the cubes visited over the searches of a phase
	// (approximateFirst; 0: none): spent counts them, and outOfBudget
	// tells that a phase ended on it
	budget, spent int
	outOfBudget   bool
	phaseGuesses  int // the guesses visited while spent counts
	// watch: the first phase went on past its bound, productive
	// (spent and phaseGuesses go on counting); unproductive: it then
	// fell under the ratio, checked every approxFirstNodes nodes, and
	// may go deep (deep.go)
	watch, unproductive bool
	firstRestarts       int // the restarts of approximateFirst's phase
	// bt: the log of the current search for undoing a refuted guess
	// in place (backtrack.go); nil when it restarts instead
	bt *backtrack
	// inexact: a cube whose path dropped a literal (numbers past
	// ratLimit) met the initial states in this search
	inexact bool
}

// inexactPath reports whether a cube on c's path (or the cube a guess
// on it generalises) was weakened: a literal of its pre-image dropped
// because its numbers grew past ratLimit (preImageChoice).
func inexactPath(c *Cube) bool {
	for x := c; x != nil; x = x.Parent {
		if x.inexact || x.Origin != nil && x.Origin.inexact {
			return true
		}
	}
	return false
}

// approximate sets up the approximation of the reachable states (the
// source of the guessed invariants); it reports whether the
// approximation found, on the way, an unsafe state of the system itself
// (its trace is then in the result).
func (r *run) approximate() bool {
	e := r.e
	e.approx = newApproximator(e.sys, e.stop)
	if e.approx != nil {
		e.approx.parallel = e.opts.ParallelSample
	}
	if e.approx == nil && e.sys.Weak && !e.pso() {
		e.approx = newWeakApproximator(e.sys, e.stop, r.res.Popped, e.opts.sampleCap) // wguess.go
	}
	return r.sampleUnsafe()
}

// sampleUnsafe handles a sample that met an unsafe state: the
// approximation stops, and the path is replayed on the system (see
// replay.go); it reports whether the replay found the system unsafe
// (the trace is then in the result).
func (r *run) sampleUnsafe() bool {
	e := r.e
	if a := e.approx; a != nil && a.unsafe {
		e.approx = nil
		if trace, ok := e.replay(a.errPath, a.errRoot, a.errProcs); ok {
			r.res.Root = a.errRoot.Index
			r.res.Trace = trace
			return true
		}
	}
	return false
}

// growSample lets the sample of the approximation grow with the work of
// the search (one more visited node: samplePerNode more states); it
// reports whether the sample met an unsafe state that the replay
// confirmed.
func (r *run) growSample() bool {
	e := r.e
	a := e.approx
	if a == nil || a.weak != nil || a.done || a.unsafe {
		return false
	}
	r.work++
	limit := sampleBase + samplePerNode*r.work
	if a.deep {
		limit = a.sampleLimit() // deep.go
	}
	if c := e.opts.sampleCap; c > 0 {
		limit = min(limit, c)
	}
	a.grow(limit)
	if !a.unsafe {
		return false
	}
	// the approximator stays (the guesses already visited may still be
	// refuted, see reached), but makes no more guesses
	a.done = true
	if trace, ok := e.replay(a.errPath, a.errRoot, a.errProcs); ok {
		r.res.Root = a.errRoot.Index
		r.res.Trace = trace
		return true
	}
	return false
}

// record adds c to the search graph (-graph) with its status.
func (r *run) record(c *Cube, status string) {
	if !r.e.opts.Graph {
		return
	}
	res := r.res
	parent := -1
	label := fmt.Sprintf("unsafe[%d]", c.Root)
	if c.Parent != nil {
		parent = r.graphIndex[c.Parent]
		label = Step{c.Trans, c.Args}.String()
	}
	r.graphIndex[c] = len(res.Graph)
	res.Graph = append(res.Graph, GraphNode{ID: c.ID, Parent: parent, Label: label, Cube: r.e.sys.CubeString(c), Status: status})
}

// search runs the backward search from the unsafe cubes until a verdict,
// or until a guessed invariant is refuted: it then asks for a restart.
func (r *run) search(ctx context.Context) (v Verdict, restart bool) {
	e, res, opts := r.e, r.res, r.e.opts
	e.visited = e.visited[:0]
	e.nextID = 0
	res.Visited, res.Guesses, res.Deleted, res.Graph = 0, 0, 0, nil
	clear(r.graphIndex)
	brab := e.approx != nil && e.approx.brab != nil
	q := &queue{dfs: opts.DFS, fifo: brab && !opts.DFS}
	r.bt = nil
	if brab {
		// the candidates kept from the last search go first
		e.approx.brab.pushKept(q)
	}
	// a refuted guess is undone in place (backtrack.go), on weak
	// systems too (their template roots are guesses without an origin:
	// see rollback)
	if e.approx != nil && !opts.noBacktrack && !brab {
		r.bt = &backtrack{}
	}
	for _, u := range e.sys.Unsafe {
		for _, c := range e.rootCubes(u) {
			q.push(c)
		}
	}
	for _, c := range e.templateRoots() { // wguess.go
		q.push(c)
	}
	limited := Safe
	r.inexact = false
	spurious := false // a path through eliminated ticks did not hold
	for {
		if ctx.Err() != nil {
			return Timeout, false
		}
		c := q.pop()
		if c == nil {
			if r.inexact && limited == Safe {
				// a weakened cube met the initial states: no SAFE
				return NumberLimit, false
			}
			if spurious && limited == Safe {
				// start again without the elimination of ticks
				e.noTicks = true
				if opts.Verbose != nil {
					fmt.Fprintf(opts.Verbose, "search again without the elimination of time steps\n")
				}
				return r.search(ctx)
			}
			return limited, false
		}
		res.Popped++
		if opts.MaxDepth > 0 && c.Depth > opts.MaxDepth {
			limited = DepthLimit
			continue
		}
		e.prepare(c)
		if c.open && !e.z.sat(c.Slots, c.Lits, nil) {
			continue
		}
		if ctx.Err() != nil {
			return Timeout, false
		}
		if e.reachesInit(c) {
			if ctx.Err() != nil {
				return Timeout, false
			}
			var ok bool
			if c.ticked {
				r.tickTrace, ok = e.confirmTicks(c)
			}
			if c.ticked && !ok {
				// the elimination of ticks made the path up (tick.go):
				// go on for a real one, but a SAFE end would not hold
				if ctx.Err() != nil {
					return Timeout, false
				}
				spurious = true
				if opts.Verbose != nil {
					fmt.Fprintf(opts.Verbose, "path of %s does not hold with fixed constants\n", e.pathString(c))
				}
				continue
			}
			if v, restart, resumed := r.reached(c, q); !resumed {
				return v, restart
			}
			continue
		}
		if e.subsumed(c) {
			if opts.Graph && opts.Verbose != nil {
				r.record(c, "subsumed")
			}
			if r.bt != nil {
				r.bt.noteSubsumed(c, e.subsumer, e.nextID)
			}
			continue
		}
		if ctx.Err() != nil {
			return Timeout, false
		}
		if r.growSample() {
			return Unsafe, false
		}
		if e.sampleReaches(c) { // deep.go
			if v, restart, resumed := r.reached(c, q); !resumed {
				return v, restart
			}
			continue
		}
		if r.goDeep() {
			return 0, true
		}
		c = r.visit(c)
		if opts.MaxNodes > 0 && res.Visited >= opts.MaxNodes || e.plainBound(c) {
			return NodeLimit, false
		}
		if r.budget > 0 {
			if r.spent++; r.spent >= r.budget {
				if r.productive() {
					// the approximation is what closes such a
					// system: the search goes on without a bound
					r.budget, r.watch = 0, true
					if opts.Verbose != nil {
						fmt.Fprintf(opts.Verbose, "%d guesses in %d cubes: go on with approximations\n", r.phaseGuesses, r.spent)
					}
				} else {
					r.outOfBudget = true
					return NodeLimit, false
				}
			}
		} else if r.watch {
			if r.spent++; r.spent%approxFirstNodes == 0 && !r.productive() {
				// see unproductive
				r.watch, r.unproductive = false, true
				if opts.Verbose != nil {
					fmt.Fprintf(opts.Verbose, "%d guesses in %d cubes: the sample is no longer productive\n", r.phaseGuesses, r.spent)
				}
			}
		}
		if opts.Progress != nil && time.Since(r.lastProgress) > 200*time.Millisecond {
			r.lastProgress = time.Now()
			opts.Progress(res.Visited, q.live)
		}
		pre := e.preImages(c)
		if e.tooManyEvents {
			return EventLimit, false
		}
		// queue.go: a guess's pre-images are not postponed
		// (BRAB: postponed too, as Cubicle does)
		postpone := !opts.DFS && !e.sys.Weak && (e.approx == nil || c.Origin == nil || e.approx.brab != nil)
		for _, p := range pre {
			if postpone && len(p.Slots) > len(c.Slots) {
				q.pushLater(p) // queue.go
				continue
			}
			q.push(p)
		}
	}
}

// reached handles a cube c that meets the initial states: when it comes
// from a guessed invariant, the guess is wrong: it is forgotten, and
// either undone in place (backtrack.go; resumed: the search goes on with
// q) or the search restarts. Else the system is unsafe, with c's path
// as trace.
func (r *run) reached(c *Cube, q *queue) (v Verdict, restart, resumed bool) {
	e, res, opts := r.e, r.res, r.e.opts
	if g := guessOn(c); g != nil {
		e.approx.bad = append(e.approx.bad, g)
		if r.bt != nil && res.Restarts+res.Backtracks < e.approx.restartLimit() {
			res.Backtracks++
			n := r.rollback(g, q)
			if opts.Verbose != nil {
				fmt.Fprintf(opts.Verbose, "refuted guess %s: %d visited cubes undone\n", e.sys.CubeString(g), n)
			}
			if r.widen(q) {
				return Unsafe, false, false
			}
			return 0, false, true
		}
		res.Restarts++
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "refuted guess %s: restart\n", e.sys.CubeString(g))
		}
		if b := e.approx.brab; b != nil {
			b.restart(g)
		}
		if res.Restarts+res.Backtracks > e.approx.restartLimit() {
			e.approx = nil
		}
		return 0, true, false
	}
	if inexactPath(c) {
		// a literal of a cube on the path was dropped (numbers too
		// large): the path may not be a run; look for another, but
		// a SAFE end would not hold
		r.inexact = true
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "path of %s dropped a literal with too large numbers\n", e.pathString(c))
		}
		return 0, false, true
	}
	r.record(c, "init")
	res.Root = c.Root
	if c.ticked {
		// the path that holds with the fixed constants (tick.go)
		res.Trace = r.tickTrace
		return Unsafe, false, false
	}
	for x := c; x.Parent != nil; x = x.Parent {
		res.Trace = append(res.Trace, Step{x.Trans, x.Args})
	}
	return Unsafe, false, false
}

// visit adds a new cube to the visited ones: generalized into a guessed
// invariant when the approximation offers one, numbered, and deleting
// the visited cubes it subsumes. It returns the cube added.
func (r *run) visit(c *Cube) *Cube {
	e, res, opts := r.e, r.res, r.e.opts
	if g := e.guess(c); g != nil {
		e.prepare(g)
		c = g
		res.Guesses++
		if b := e.approx.brab; b != nil {
			b.cands = append(b.cands, g)
		}
		if r.budget > 0 || r.watch {
			r.phaseGuesses++
		}
	}
	e.nextID++
	c.ID = e.nextID
	if r.bt != nil && guessOn(c) != nil {
		before := slices.Clone(e.visited)
		res.Deleted += e.deleteSubsumed(c)
		r.bt.noteDeleted(before, e.visited, c)
	} else {
		res.Deleted += e.deleteSubsumed(c)
	}
	e.visited = append(e.visited, c)
	res.Visited++
	if c.Origin != nil {
		r.record(c, "guess")
	} else {
		r.record(c, "visited")
	}
	if opts.Verbose != nil {
		mark := ""
		if c.Origin != nil {
			mark = " (guess)"
		}
		fmt.Fprintf(opts.Verbose, "node %d: %s = %s%s\n", c.ID, e.pathString(c), e.sys.CubeString(c), mark)
	}
	return c
}

// guessOn returns the guess nearest to c on its path to the unsafe
// formula, or nil.
func guessOn(c *Cube) *Cube {
	for x := c; x != nil; x = x.Parent {
		if x.Origin != nil {
			return x
		}
	}
	return nil
}

func (e *engine) pathString(c *Cube) string {
	s := ""
	for x := c; x.Parent != nil; x = x.Parent {
		s += Step{x.Trans, x.Args}.String() + " -> "
	}
	return s + fmt.Sprintf("unsafe[%d]", c.Root)
}

// prepare computes what the tests need of a cube.
func (e *engine) prepare(c *Cube) {
	if c.sig != 0 {
		return
	}
	c.sig = 1
	c.open = c.normalize() == cheapUnknown
}

// cheap normalises the literals of c and tests them syntactically.
func (e *engine) cheap(c *Cube) cheapResult {
	r, _ := e.cheapNorm(c)
	return r
}

// cheapNorm is cheap, and the answer of the last normalize of c's
// literals as they are left (what prepare would compute again).
func (e *engine) cheapNorm(c *Cube) (r, norm cheapResult) {
	r = c.normalize()
	if r == cheapUnsat {
		return r, r
	}
	if enumRewrite(e.sys, c) {
		if r = c.normalize(); r == cheapUnsat {
			return r, r
		}
	}
	return enumCheck(e.sys, c.Lits, r), r
}

// enumRewrite replaces the disequalities "x <> A && x <> B" by "x = C"
// when C is the only other constructor of the type of x. It reports
// whether it changed c.
func enumRewrite(sys *System, c *Cube) bool {
	excluded := map[Term]uint64{}
	for _, l := range c.Lits {
		if l.Op == Ne && l.R.Kind == KEnum && l.L.isAtom() && l.R.Sym < 64 {
			excluded[l.L] |= 1 << uint(l.R.Sym)
		}
	}
	eq := map[Term]Term{}
	for x, set := range excluded {
		n := len(sys.Enums[x.Sort.Enum].Ctors)
		if n > 64 || bits.OnesCount64(set) != n-1 {
			continue
		}
		k := bits.TrailingZeros64(^set)
		eq[x] = Term{Kind: KEnum, Sort: x.Sort, Sym: int32(k), Off: Rat{0, 1}}
	}
	if len(eq) == 0 {
		return false
	}
	out := c.Lits[:0]
	for _, l := range c.Lits {
		if _, ok := eq[l.L]; ok && l.Op == Ne && l.R.Kind == KEnum {
			continue
		}
		out = append(out, l)
	}
	for x, v := range eq {
		out = append(out, Lit{Op: Eq, L: x, R: v})
	}
	c.Lits = out
	return true
}

// enumCheck finds an atom of an enumerated type different from all its
// constructors. Each constructor counts once: the conjunction may repeat
// a literal (reachesInit substitutes the initial value for every
// unsatisfied read, so two reads "X <> B" of a weak X become one literal
// twice), and counting it twice made a satisfiable conjunction
// unsatisfiable, hence a wrong SAFE (issue #31).
func enumCheck(sys *System, lits []Lit, r cheapResult) cheapResult {
	excluded := map[Term]int{}
	seen := map[Lit]bool{}
	for _, l := range lits {
		if l.Op == Ne && l.R.Kind == KEnum && l.L.isAtom() && !seen[l] {
			seen[l] = true
			excluded[l.L]++
			if excluded[l.L] >= len(sys.Enums[l.R.Sort.Enum].Ctors) {
				return cheapUnsat
			}
		}
	}
	return r
}

// rootCubes instantiates an unsafe or invariant formula: its parameters
// become slots (a parameter equal to a process constant #k becomes slot
// k), its weak reads the unsatisfied reads of one final node per
// process.
func (e *engine) rootCubes(r *Root) []*Cube {
	var out []*Cube
	for _, cj := range r.DNF {
		args := make([]int32, r.Params)
		for _, l := range cj.Lits {
			if l.Op == Eq && l.L.Kind == KSlot && l.R.Kind == KSlot {
				a, b := l.L.Sym, l.R.Sym
				if a > 0 {
					a, b = b, a
				}
				if a < 0 && b > 0 && args[-a-1] == 0 {
					args[-a-1] = b
				}
			}
		}
		for _, args := range rootAssignments(args, e.sys.Pinned) {
			if c := e.rootCube(r, cj, args); c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// rootAssignments lists the slots the parameters of an unsafe or
// invariant conjunction can take: a parameter that the conjunction pins
// to a process constant (p = #1) takes its slot; each other one is
// either a process constant that no other parameter takes, or a process
// of its own after the constants (the parameters name distinct
// processes). Before, the other parameters were always processes of
// their own, so that unsafe (i) { A[i] = True } in a system that names
// #1 never met A[#1] = True.
func rootAssignments(pinnedArgs []int32, pinned int32) [][]int32 {
	var out [][]int32
	args := slices.Clone(pinnedArgs)
	var rec func(k int)
	rec = func(k int) {
		if k == len(args) {
			a := slices.Clone(args)
			next := pinned + 1
			for i := range a {
				if a[i] == -1 {
					a[i] = next
					next++
				}
			}
			out = append(out, a)
			return
		}
		if pinnedArgs[k] != 0 {
			rec(k + 1)
			return
		}
		args[k] = -1 // a process of its own
		rec(k + 1)
		for s := int32(1); s <= pinned; s++ {
			if !slices.Contains(args, s) {
				args[k] = s
				rec(k + 1)
			}
		}
		args[k] = 0
	}
	rec(0)
	return out
}

// rootCube instantiates one conjunction of an unsafe or invariant
// formula on the slots args of its parameters (nil if it is false or
// needs more processes than the system has).
func (e *engine) rootCube(r *Root, cj Conj, args []int32) *Cube {
	{
		env := &instEnv{args: args, node: 1}
		c := &Cube{Root: r.Index, Args: args} // Args: the slot of each parameter
		ok := true
		var reads []Access
		for _, l := range cj.Lits {
			nl, res := env.lit(l)
			switch res {
			case litFalse:
				ok = false
			case litOpen:
				c.Lits = append(c.Lits, nl)
				reads = collectReads(collectReads(reads, nl.L, 1), nl.R, 1)
			}
		}
		if !ok {
			return nil
		}
		slots := slices.Clone(args)
		slices.Sort(slots)
		slots = slices.Compact(slots)
		if len(slots) != len(args) {
			return nil // two parameters equal to the same constant
		}
		c.Slots = slots
		if e.sys.tooManyProcs(c) {
			return nil // more processes than number_procs
		}
		if len(reads) > 0 {
			splitRootReads(c, reads)
		}
		if e.cheap(c) == cheapUnsat {
			return nil
		}
		return c
	}
}

// splitRootReads makes the events of the weak reads of an unsafe or
// invariant formula (instantiated as reads of node 1): one final node
// for the reads of each process (see model.go), the nodes unordered.
func splitRootReads(c *Cube, reads []Access) {
	var procs []int32
	for _, rd := range reads {
		if !slices.Contains(procs, rd.Proc) {
			procs = append(procs, rd.Proc)
		}
	}
	id := func(p int32) int32 { return int32(slices.Index(procs, p)) + 1 }
	for _, p := range procs {
		n := &Node{ID: id(p), Final: true}
		for _, rd := range reads {
			if rd.Proc == p {
				n.Reads = append(n.Reads, rd)
			}
		}
		n.setFlags(ProcFlags{Proc: p, Read: true})
		c.Nodes = append(c.Nodes, n)
		c.GHB = append(c.GHB, 0)
	}
	var renode func(t Term) (Term, bool)
	renode = func(t Term) (Term, bool) {
		if t.Kind == KLin {
			return mapAtoms(t, renode)
		}
		if t.Kind == KVal && t.Node == 1 {
			t.Node = id(t.Proc)
		}
		return t, true
	}
	for i, l := range c.Lits {
		c.Lits[i].L, _ = renode(l.L)
		c.Lits[i].R, _ = renode(l.R)
	}
}

// reachesInit is the safety test: does c meet the initial states? The
// unsatisfied reads take the initial values.
func (e *engine) reachesInit(c *Cube) bool {
	if !initReadsOK(c) {
		return false
	}
	var sub substitution // (nil without events: term reads it only)
	if len(c.Nodes) > 0 {
		sub = substitution{}
	}
	for _, n := range c.Nodes {
		for _, r := range n.Reads {
			v := Term{Kind: KInit, Sort: e.sys.Globals[r.Sym].Sort, Sym: r.Sym, NArgs: r.NArgs, Args: r.Args, Off: Rat{0, 1}}
			sub[r.valTerm(n.ID, e.sys)] = valAlt{val: v}
		}
	}
	// (lits and the conjunction with init are built in e.initBuf:
	// nothing keeps them past the call)
	lits := e.initBuf[:0]
	for _, l := range c.Lits {
		a, _ := sub.term(l.L)
		b, _ := sub.term(l.R)
		nl, r := mkLit(l.Op, a, b)
		switch r {
		case litFalse:
			return false
		case litOpen:
			lits = append(lits, nl)
		}
	}
	alts := dnf{lits}
	// init is universal: it holds of the process constants #1..#Pinned
	// too, which exist in every instance, whether c's slots list them
	// or not (a cube can name A[#1] without a parameter equal to #1)
	slots := withPinned(c.Slots, e.sys.Pinned)
	// init (i j): the universal parameters need that many processes
	count := c.procs(e.sys.Pinned)
	for next := max(e.sys.Pinned, lastSlot(slots)) + 1; len(slots) < e.sys.InitArity; next++ {
		if e.sys.NumberProcs > 0 && count >= e.sys.NumberProcs {
			break
		}
		slots = append(slices.Clip(slots), next)
		count++
	}
	if e.sys.Init != nil {
		tuples := initTuples(slots, e.sys.InitArity)
		factors := make([]dnf, len(tuples))
		single, n := true, len(lits)
		for i, args := range tuples {
			factors[i] = e.initInstance(args)
			single = single && len(factors[i]) == 1
			if single {
				n += len(factors[i][0])
			}
		}
		if single && e.initConflicts(lits, tuples) {
			e.initBuf = lits[:0]
			return false
		}
		if single {
			// (the usual case: one conjunction, built at once rather
			// than copied once per tuple)
			one := slices.Grow(lits, n-len(lits))
			for _, f := range factors {
				one = append(one, f[0]...)
			}
			alts = dnf{one}
			e.initBuf = one[:0]
		} else {
			for _, f := range factors {
				alts = product(alts, f)
				if len(alts) == 0 {
					return false
				}
			}
		}
	}
	for _, a := range alts {
		r := cheapCheck(a)
		if r != cheapUnsat {
			r = enumCheck(e.sys, a, r)
		}
		switch r {
		case cheapSat:
			return true
		case cheapUnknown:
			if e.z.sat(slots, a, nil) {
				return true
			}
		}
	}
	return false
}

// withPinned is the sorted slots with the process constants 1..pinned
// added (slots itself when it has them all).
func withPinned(slots []int32, pinned int32) []int32 {
	missing := false
	for p := int32(1); p <= pinned; p++ {
		if _, ok := slices.BinarySearch(slots, p); !ok {
			missing = true
		}
	}
	if !missing {
		return slots
	}
	out := make([]int32, 0, len(slots)+int(pinned))
	for p := int32(1); p <= pinned; p++ {
		out = append(out, p)
	}
	for _, s := range slots {
		if s > pinned {
			out = append(out, s)
		}
	}
	return out
}

// initConflicts reports that a literal of lits contradicts a literal of
// the init formula instantiated on one of tuples, each one conjunction
// (litsConflict: x = a against x = b or x <> a): reachesInit's
// conjunction of both is then unsatisfiable, and it returns false as
// the whole test would, without building that conjunction and deciding
// it. Most cubes of a backward search are so (FLASH's init fixes every
// variable), and the whole test was a twentieth of their time.
func (e *engine) initConflicts(lits []Lit, tuples [][]int32) bool {
	if e.noInitFilter {
		return false
	}
	for _, args := range tuples {
		idx := e.initIndex(args)
		if idx == nil {
			continue
		}
		for i := range lits {
			l := &lits[i]
			if !l.L.isAtom() {
				continue
			}
			if il, ok := idx[l.L]; ok && litsConflict(*l, il) {
				return true
			}
		}
	}
	return false
}

// initIndex is the literal of the init formula instantiated on args
// (one conjunction) that each atom has on its left, an equality rather
// than another, the first of each kind; nil for more than 4 arguments
// or a formula of several conjunctions. Computed once per tuple.
func (e *engine) initIndex(args []int32) map[Term]Lit {
	if len(args) > 4 {
		return nil
	}
	var k [4]int32
	copy(k[:], args)
	if idx, ok := e.initIdx[k]; ok {
		return idx
	}
	var idx map[Term]Lit
	if d := e.initInstance(args); len(d) == 1 {
		idx = map[Term]Lit{}
		for _, l := range d[0] {
			if !l.L.isAtom() {
				continue
			}
			if old, ok := idx[l.L]; !ok || old.Op != Eq && l.Op == Eq {
				idx[l.L] = l
			}
		}
	}
	if e.initIdx == nil {
		e.initIdx = map[[4]int32]map[Term]Lit{}
	}
	e.initIdx[k] = idx
	return idx
}

// initInstance is the init formula instantiated on the slots args,
// computed once per tuple (the caller must not change it).
func (e *engine) initInstance(args []int32) dnf {
	if len(args) > 4 {
		env := &instEnv{args: args}
		return env.dnf(e.sys.Init)
	}
	var k [4]int32
	copy(k[:], args)
	if d, ok := e.initOn[k]; ok {
		return d
	}
	env := &instEnv{args: args}
	d := env.dnf(e.sys.Init)
	if e.initOn == nil {
		e.initOn = map[[4]int32]dnf{}
	}
	e.initOn[k] = d
	return d
}

func lastSlot(slots []int32) int32 {
	if len(slots) == 0 {
		return 0
	}
	return slots[len(slots)-1]
}

// initTuples lists the instances of the parameters of init over procs:
// every tuple of pairwise distinct processes (one empty tuple when init
// has no parameter).
func initTuples(procs []int32, arity int) [][]int32 {
	// (the tuples are carved from one slice, flat, sized for the
	// n!/(n-arity)! tuples of distinct processes: one allocation rather
	// than one a tuple; a tuple keeps its storage if flat grows)
	count := 1
	for i := range arity {
		count *= max(len(procs)-i, 0)
	}
	out := make([][]int32, 0, count)
	flat := make([]int32, 0, count*arity)
	cur := make([]int32, arity)
	var rec func(k int)
	rec = func(k int) {
		if k == arity {
			flat = append(flat, cur...)
			out = append(out, flat[len(flat)-arity:len(flat):len(flat)])
			return
		}
		for _, p := range procs {
			if !slices.Contains(cur[:k], p) {
				cur[k] = p
				rec(k + 1)
			}
		}
	}
	rec(0)
	return out
}
