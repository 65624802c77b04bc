package param

import (
	"context"
	"fmt"
	"io"
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
)

func (v Verdict) String() string {
	return [...]string{"SAFE", "UNSAFE", "depth limit reached", "node limit reached", "timeout", "event limit reached"}[v]
}

// Options control a search.
type Options struct {
	DFS      bool
	MaxDepth int           // 0: no limit
	MaxNodes int           // 0: no limit
	Timeout  time.Duration // 0: no limit
	// Verbose, when set, receives every node as it is explored.
	Verbose io.Writer
	// Progress, when set, is called from time to time.
	Progress func(visited, queued int)
	// Graph keeps every explored node for the dot output.
	Graph bool
}

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
	Status string // "visited", "subsumed", "init" or "pending"
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
	Graph    []GraphNode
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
	sys           *System
	opts          Options
	z             *solver
	visited       []*Cube
	invariants    []*Cube
	nextID        int
	tooManyEvents bool
	semanticHits  int
}

// Verify runs the backward reachability analysis of sys.
func Verify(ctx context.Context, sys *System, opts Options) (*Result, error) {
	start := time.Now()
	e := &engine{sys: sys, opts: opts}
	e.z = newSolver(sys)
	defer e.z.close()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	e.z.stopped = func() bool { return ctx.Err() != nil }
	stop := context.AfterFunc(ctx, func() { e.z.ctx.Interrupt() })
	defer stop()

	res := &Result{}
	finish := func(v Verdict) (*Result, error) {
		res.Verdict = v
		res.Time = time.Since(start)
		res.Solver = e.z.calls
		res.Semantic = e.semanticHits
		return res, nil
	}
	for _, inv := range sys.Invariants {
		for _, c := range e.rootCubes(inv) {
			e.prepare(c)
			e.invariants = append(e.invariants, c)
		}
	}
	var queue []*Cube
	for _, u := range sys.Unsafe {
		queue = append(queue, e.rootCubes(u)...)
	}
	limited := Safe
	graphIndex := map[*Cube]int{}
	record := func(c *Cube, status string) {
		if !opts.Graph {
			return
		}
		parent := -1
		label := fmt.Sprintf("unsafe[%d]", c.Root)
		if c.Parent != nil {
			parent = graphIndex[c.Parent]
			label = Step{c.Trans, c.Args}.String()
		}
		graphIndex[c] = len(res.Graph)
		res.Graph = append(res.Graph, GraphNode{ID: c.ID, Parent: parent, Label: label, Cube: sys.CubeString(c), Status: status})
	}
	lastProgress := time.Now()
	for len(queue) > 0 {
		if ctx.Err() != nil {
			return finish(Timeout)
		}
		var c *Cube
		if opts.DFS {
			c = queue[len(queue)-1]
			queue = queue[:len(queue)-1]
		} else {
			c = queue[0]
			queue[0] = nil
			queue = queue[1:]
		}
		res.Popped++
		if opts.MaxDepth > 0 && c.Depth > opts.MaxDepth {
			limited = DepthLimit
			continue
		}
		e.prepare(c)
		if c.numeric && !e.z.sat(c.Slots, c.Lits, nil) {
			continue
		}
		if ctx.Err() != nil {
			return finish(Timeout)
		}
		if e.reachesInit(c) {
			if ctx.Err() != nil {
				return finish(Timeout)
			}
			record(c, "init")
			res.Root = c.Root
			for x := c; x.Parent != nil; x = x.Parent {
				res.Trace = append(res.Trace, Step{x.Trans, x.Args})
			}
			return finish(Unsafe)
		}
		if e.subsumed(c) {
			if opts.Graph && opts.Verbose != nil {
				record(c, "subsumed")
			}
			continue
		}
		if ctx.Err() != nil {
			return finish(Timeout)
		}
		e.nextID++
		c.ID = e.nextID
		e.visited = append(e.visited, c)
		res.Visited++
		record(c, "visited")
		if opts.Verbose != nil {
			fmt.Fprintf(opts.Verbose, "node %d: %s = %s\n", c.ID, e.pathString(c), sys.CubeString(c))
		}
		if opts.MaxNodes > 0 && res.Visited >= opts.MaxNodes {
			return finish(NodeLimit)
		}
		if opts.Progress != nil && time.Since(lastProgress) > 200*time.Millisecond {
			lastProgress = time.Now()
			opts.Progress(res.Visited, len(queue))
		}
		pre := e.preImages(c)
		if e.tooManyEvents {
			return finish(EventLimit)
		}
		queue = append(queue, pre...)
	}
	return finish(limited)
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
	c.normalize()
}

// cheap normalises the literals of c and tests them syntactically.
func (e *engine) cheap(c *Cube) cheapResult {
	r := c.normalize()
	if r == cheapUnsat {
		return r
	}
	return enumCheck(e.sys, c.Lits, r)
}

// enumCheck finds an atom of an enumerated type different from all its
// constructors.
func enumCheck(sys *System, lits []Lit, r cheapResult) cheapResult {
	excluded := map[Term]int{}
	for _, l := range lits {
		if l.Op == Ne && l.R.Kind == KEnum && l.L.isAtom() {
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
// k), its weak reads the unsatisfied reads of node 1.
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
		next := e.sys.Pinned + 1
		for i := range args {
			if args[i] == 0 {
				args[i] = next
				next++
			}
		}
		env := &instEnv{args: args, node: 1}
		c := &Cube{Root: r.Index}
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
			continue
		}
		slots := slices.Clone(args)
		slices.Sort(slots)
		slots = slices.Compact(slots)
		if len(slots) != len(args) {
			continue // two parameters equal to the same constant
		}
		c.Slots = slots
		if len(reads) > 0 {
			n := &Node{ID: 1, Reads: reads}
			for _, rd := range reads {
				n.setFlags(ProcFlags{Proc: rd.Proc, Read: true})
			}
			c.Nodes = []*Node{n}
			c.GHB = []uint64{0}
		}
		if e.cheap(c) == cheapUnsat {
			continue
		}
		out = append(out, c)
	}
	return out
}

// reachesInit is the safety test: does c meet the initial states? The
// unsatisfied reads take the initial values.
func (e *engine) reachesInit(c *Cube) bool {
	sub := substitution{}
	for _, n := range c.Nodes {
		for _, r := range n.Reads {
			v := Term{Kind: KInit, Sort: e.sys.Globals[r.Sym].Sort, Sym: r.Sym, NArgs: r.NArgs, Args: r.Args, Off: Rat{0, 1}}
			sub[r.valTerm(n.ID, e.sys)] = valAlt{val: v}
		}
	}
	var lits []Lit
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
	slots := c.Slots
	if len(slots) == 0 && e.sys.InitArity > 0 {
		slots = []int32{e.sys.Pinned + 1}
	}
	inst := slots
	if e.sys.InitArity == 0 {
		inst = []int32{0}
	}
	if e.sys.Init != nil {
		for _, s := range inst {
			env := &instEnv{args: []int32{s}}
			alts = product(alts, env.dnf(e.sys.Init))
			if len(alts) == 0 {
				return false
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
