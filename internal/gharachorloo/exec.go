package gharachorloo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"github.com/musket-verify/musket/internal/symexec"
)

// Options tune a run.
type Options struct {
	// Bound is the number of times a backward jump may be taken on one
	// path (herd's -unroll); 0 means 2, as in package enum.
	Bound int
	// MaxPaths bounds the control-flow paths of one thread (0: 1<<16).
	MaxPaths int
}

// Run checks t under model m and returns the final states of the
// executions the specification accepts, in the form package enum gives
// them.
func Run(ctx context.Context, t *spec.Test, m Model, opts Options) *result.Result {
	start := time.Now()
	res := &result.Result{File: t.File, Name: t.Name, Model: m.String(), Engine: "gharachorloo", Quant: t.Quant}
	res.Condition = t.ConditionLine()
	res.Arch = t.Arch
	if opts.Bound == 0 {
		opts.Bound = 2
	}
	if opts.MaxPaths == 0 {
		opts.MaxPaths = 1 << 16
	}
	r := &run{ctx: ctx, t: t, model: m, opts: opts, res: res, states: map[string]result.State{}}
	err := r.run()
	res.Time = time.Since(start)
	switch {
	case r.timeout || errors.Is(err, errTimeout):
		res.Status = result.Timeout
	case errors.As(err, new(*UnsupportedError)):
		res.Status = result.Unsupported
		res.Err = err
	case err != nil:
		res.Status = result.Failed
		res.Err = err
	}
	sts := make([]result.State, 0, len(r.states))
	for _, s := range r.states {
		sts = append(sts, s)
	}
	res.States = result.SortStates(res.Observed, sts)
	return res
}

type run struct {
	ctx     context.Context
	t       *spec.Test
	model   Model
	opts    Options
	res     *result.Result
	obs     []spec.Ref
	initMem map[string]prog.Value
	locs    []string
	paths   [][]*path
	states  map[string]result.State
	count   int
	timeout bool
}

func (r *run) run() error {
	t := r.t
	start, err := symexec.NewStart(t)
	if err != nil {
		return err
	}
	r.obs, r.initMem, r.locs = start.Obs, start.Mem, start.Locs
	initRegs := start.Regs
	r.res.Observed = r.obs

	r.paths = make([][]*path, len(t.Threads))
	for i, th := range t.Threads {
		labels, err := th.Labels()
		if err != nil {
			return err
		}
		x := newExplorer(th, labels, r.opts.Bound, r.locs, r.opts.MaxPaths)
		if err := x.Run(initRegs[i]); err != nil {
			if errors.Is(err, symexec.ErrTooManyPaths) {
				return fmt.Errorf("%s: %w", th.Name, err)
			}
			return err
		}
		if x.Cut {
			r.res.Bounded = true
		}
		r.paths[i] = x.Paths
	}
	return r.combine(0, make([]*path, len(t.Threads)))
}

func (r *run) combine(i int, chosen []*path) error {
	if r.timeout {
		return nil
	}
	if i == len(chosen) {
		return r.candidate(chosen)
	}
	for _, p := range r.paths[i] {
		chosen[i] = p
		if err := r.combine(i+1, chosen); err != nil {
			return err
		}
	}
	return nil
}

// op is a memory operation or a fence of one combination of paths.
type op struct {
	thread int
	local  int // index in the thread's path
	ev     *pathEvent
	id     int // index in cand.ops
}

func (o *op) isRead() bool  { return o.ev.kind == event.Read }
func (o *op) isWrite() bool { return o.ev.kind == event.Write }
func (o *op) isMem() bool   { return o.ev.kind != event.Fence }

// cand is one choice of a path per thread, then of a coherence order and
// of a write for every read.
type cand struct {
	paths   []*path
	ops     []*op
	base    []int // first op of each thread
	reads   []int // ops that read, in thread order
	writes  map[string][]int
	co      map[string][]int // per location, the writes in coherence order
	coPos   []int            // position of a write in its location's order
	rf      []int            // per op (reads): the write read, -1 for the initial value; -2 unknown
	partner []int            // the other half of an rmw pair, -1
	init    map[string]prog.Value
}

func (r *run) candidate(paths []*path) error {
	c := &cand{paths: paths, writes: map[string][]int{}, co: map[string][]int{}, init: r.initMem}
	c.base = make([]int, len(paths))
	for t, p := range paths {
		c.base[t] = len(c.ops)
		for i := range p.Events {
			o := &op{thread: t, local: i, ev: &p.Events[i], id: len(c.ops)}
			c.ops = append(c.ops, o)
			switch o.ev.kind {
			case event.Read:
				c.reads = append(c.reads, o.id)
			case event.Write:
				c.writes[o.ev.loc] = append(c.writes[o.ev.loc], o.id)
			}
		}
	}
	c.partner = make([]int, len(c.ops))
	for i := range c.partner {
		c.partner[i] = -1
	}
	for t, p := range paths {
		for _, pr := range p.Rmw {
			a, b := c.base[t]+pr[0], c.base[t]+pr[1]
			c.partner[a], c.partner[b] = b, a
		}
	}
	c.coPos = make([]int, len(c.ops))
	c.rf = make([]int, len(c.ops))
	locs := make([]string, 0, len(c.writes))
	for l := range c.writes {
		locs = append(locs, l)
	}
	sort.Strings(locs)
	return r.chooseCo(c, locs, 0)
}

// chooseCo enumerates the coherence orders that keep each thread's writes
// to a location in program order (uniprocessor dependence: W po W on one
// location orders every sub-operation).
func (r *run) chooseCo(c *cand, locs []string, k int) error {
	if k == len(locs) {
		for i := range c.rf {
			c.rf[i] = -2
		}
		return r.chooseRf(c, 0)
	}
	ws := c.writes[locs[k]]
	return permute(ws, func(p []int) error {
		last := map[int]int{}
		for _, w := range p {
			th := c.ops[w].thread
			if prev, ok := last[th]; ok && prev > w {
				return nil
			}
			last[th] = w
		}
		c.co[locs[k]] = p
		for i, w := range p {
			c.coPos[w] = i
		}
		return r.chooseCo(c, locs, k+1)
	})
}

func permute(xs []int, f func([]int) error) error {
	p := append([]int(nil), xs...)
	var rec func(k int) error
	rec = func(k int) error {
		if k == len(p) {
			return f(p)
		}
		for i := k; i < len(p); i++ {
			p[k], p[i] = p[i], p[k]
			if err := rec(k + 1); err != nil {
				return err
			}
			p[k], p[i] = p[i], p[k]
		}
		return nil
	}
	return rec(0)
}

// coLE tells whether write a is write b or before it in coherence (-1 is
// the initial write, before every write).
func (c *cand) coLE(a, b int) bool {
	switch {
	case a == b, a == -1:
		return true
	case b == -1:
		return false
	}
	return c.coPos[a] <= c.coPos[b]
}

// sources lists the writes read i may read, pruned by conditions every
// one of the three specifications implies: the read of an rmw pair reads
// the write just before the pair's write in coherence (Condition 3 with
// Condition 2); a read never reads a write of its own thread that comes
// later in program order, nor a write coherence-before an earlier write
// of its own thread to the location, nor one coherence-before the write
// an earlier read of its thread to the location read (these follow from
// uniprocessor dependence and the chain W co' R po RW).
func (c *cand) sources(i int) []int {
	rd := c.ops[i]
	loc := rd.ev.loc
	if w := c.partner[i]; w >= 0 {
		p := c.coPos[w]
		if p == 0 {
			return []int{-1}
		}
		return []int{c.co[loc][p-1]}
	}
	floor := -1
	for j := c.base[rd.thread]; j < i; j++ {
		o := c.ops[j]
		if !o.isMem() || o.ev.loc != loc {
			continue
		}
		src := j
		if o.isRead() {
			src = c.rf[j]
		}
		if !c.coLE(src, floor) {
			floor = src
		}
	}
	var out []int
	if floor == -1 {
		out = append(out, -1)
	}
	for _, w := range c.co[loc] {
		o := c.ops[w]
		if o.thread == rd.thread && w > i {
			continue
		}
		if c.coLE(floor, w) {
			out = append(out, w)
		}
	}
	return out
}

func (r *run) chooseRf(c *cand, k int) error {
	r.count++
	if r.timeout || r.count&255 == 0 && r.ctx.Err() != nil {
		r.timeout = true
		return errTimeout
	}
	if k == len(c.reads) {
		return r.complete(c)
	}
	i := c.reads[k]
	for _, w := range c.sources(i) {
		c.rf[i] = w
		if c.consistentSoFar() {
			if err := r.chooseRf(c, k+1); err != nil {
				return err
			}
		}
	}
	c.rf[i] = -2
	return nil
}

// valuer computes the values of operations given the reads chosen so far.
type valuer struct {
	c      *cand
	vals   []prog.Value
	status []uint8 // 0 unknown, 1 computing, 2 done, 3 failed (cycle or error), 4 depends on an unchosen read
	// err is the first operation that failed (an address multiplied,
	// ...): the engine cannot compute the execution, which must then be
	// reported, not dropped.
	err error
}

func newValuer(c *cand) *valuer {
	return &valuer{c: c, vals: make([]prog.Value, len(c.ops)), status: make([]uint8, len(c.ops))}
}

// value returns the value of op e: ok false when it cannot be known yet
// (known false) or never (known true).
func (v *valuer) value(e int) (val prog.Value, ok, known bool) {
	switch v.status[e] {
	case 1, 3:
		v.status[e] = 3
		return prog.Value{}, false, true
	case 2:
		return v.vals[e], true, true
	case 4:
		return prog.Value{}, false, false
	}
	v.status[e] = 1
	o := v.c.ops[e]
	var res prog.Value
	ok, known = true, true
	if o.isRead() {
		switch src := v.c.rf[e]; src {
		case -2:
			ok, known = false, false
		case -1:
			res = v.c.initVal(o.ev.loc)
		default:
			res, ok, known = v.value(src)
		}
	} else if o.ev.val != nil {
		res, ok, known = v.sym(o.thread, o.ev.val)
	}
	switch {
	case ok:
		v.vals[e], v.status[e] = res, 2
	case known:
		v.status[e] = 3
	default:
		v.status[e] = 4
	}
	return res, ok, known
}

func (v *valuer) sym(t int, s *symexec.Sym) (prog.Value, bool, bool) {
	known := true
	val, ok, err := s.EvalErr(func(i int) (prog.Value, bool) {
		x, ok, k := v.value(v.c.base[t] + i)
		if !k {
			known = false
		}
		return x, ok
	})
	if err != nil && v.err == nil {
		v.err = &UnsupportedError{fmt.Sprintf("P%d: %v in an execution is not supported by the gharachorloo engine", t, err)}
	}
	if err != nil {
		return prog.Value{}, false, true
	}
	if !ok {
		return prog.Value{}, false, known
	}
	return val, true, true
}

func (c *cand) initVal(loc string) prog.Value { return c.init[loc] }

// consistentSoFar checks the path constraints whose reads are chosen.
func (c *cand) consistentSoFar() bool {
	v := newValuer(c)
	for t, p := range c.paths {
		for _, k := range p.Cons {
			val, ok, known := v.sym(t, k.S)
			if !known || !ok && v.err != nil {
				// (a failed operation cuts nothing: the complete
				// candidate reports it)
				continue
			}
			if !ok || prog.Truth(val) != k.Want {
				return false
			}
		}
	}
	return true
}

// complete checks a candidate whose reads are all chosen.
func (r *run) complete(c *cand) error {
	r.count++
	if r.count&255 == 0 && r.ctx.Err() != nil {
		r.timeout = true
		return errTimeout // unwinds every loop of the search (permute's too)
	}
	v := newValuer(c)
	for e, o := range c.ops {
		if o.isMem() {
			if _, ok, _ := v.value(e); !ok && v.err == nil {
				return nil
			}
		}
	}
	for t, p := range c.paths {
		for _, k := range p.Cons {
			val, ok, _ := v.sym(t, k.S)
			if !ok && v.err != nil {
				continue // a constraint computed without it may still drop the candidate
			}
			if !ok || prog.Truth(val) != k.Want {
				return nil
			}
		}
	}
	if !r.model.valid(c) {
		return nil
	}
	if v.err != nil {
		return v.err
	}
	if r.record(c, v) {
		// A division by zero in an execution the specification accepts
		// (and the filter keeps) is an error of the program, as in the
		// other engines.
		for t, p := range c.paths {
			for _, d := range p.Divs {
				if x, ok, _ := v.sym(t, d.Divisor); ok && prog.DividesByZero(d.Op, x) {
					return &prog.DivisionByZeroError{At: d.At}
				}
			}
		}
	}
	return nil
}

// errTimeout ends the search when the context is done.
var errTimeout = errors.New("timeout")

// record adds one accepted execution's final state; it reports false
// when the test's filter rejects the execution.
func (r *run) record(c *cand, v *valuer) bool {
	final := map[string]prog.Value{}
	for l, ws := range c.co {
		if len(ws) > 0 {
			final[l] = v.vals[ws[len(ws)-1]]
		}
	}
	val := func(ref spec.Ref) prog.Value {
		if !ref.IsReg() {
			if x, ok := final[ref.Name]; ok {
				return x
			}
			return r.initMem[ref.Name]
		}
		if ref.Thread >= len(c.paths) {
			return prog.Value{}
		}
		s, ok := c.paths[ref.Thread].Regs[ref.Name]
		if !ok {
			for _, e := range r.t.Init {
				if e.Ref == ref {
					return e.Val
				}
			}
			return prog.IntValue(0)
		}
		x, _, _ := v.sym(ref.Thread, s)
		return x
	}
	if r.t.Filter != nil && !spec.Eval(r.t.Filter, val) {
		return false
	}
	st := make(result.State, len(r.obs))
	for i, ref := range r.obs {
		st[i] = val(ref)
	}
	r.states[st.Key()] = st
	if spec.Eval(r.t.Cond, val) {
		r.res.Positive++
	} else {
		r.res.Negative++
	}
	return true
}

// UnsupportedError is an operation the engine cannot compute in an
// execution (an address multiplied, negated, ...): the run is
// unsupported rather than a verdict that leaves the execution out.
type UnsupportedError struct{ What string }

func (e *UnsupportedError) Error() string { return e.What }
