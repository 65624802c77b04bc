package enum

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// sym is a symbolic value of one thread: a constant, the value of one of the
// thread's reads, or an operation on symbolic values. deps lists the reads
// (indices into the path's events) it depends on syntactically, as herd's
// dependencies do: x^x depends on x even though it is always 0.
type sym struct {
	known bool
	v     prog.Value
	read  int // >= 0: the value of this read event; -1 otherwise
	op    prog.Op
	unary bool
	x, y  *sym
	deps  []int
}

func constSym(v prog.Value) *sym { return &sym{known: true, v: v, read: -1} }

func readSym(ev int) *sym { return &sym{read: ev, deps: []int{ev}} }

func mergeDeps(a, b []int) []int {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	m := map[int]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		m[x] = true
	}
	out := make([]int, 0, len(m))
	for x := range m {
		out = append(out, x)
	}
	sort.Ints(out)
	return out
}

func binSym(op prog.Op, x, y *sym) (*sym, error) {
	if x.known && y.known {
		v, err := prog.ApplyTotal(op, x.v, y.v)
		if err != nil {
			return nil, err
		}
		return &sym{known: true, v: v, read: -1, deps: mergeDeps(x.deps, y.deps)}, nil
	}
	return &sym{read: -1, op: op, x: x, y: y, deps: mergeDeps(x.deps, y.deps)}, nil
}

func unSym(op prog.Op, x *sym) (*sym, error) {
	if x.known {
		v, err := prog.ApplyUnary(op, x.v)
		if err != nil {
			return nil, err
		}
		return &sym{known: true, v: v, read: -1, deps: x.deps}, nil
	}
	return &sym{read: -1, op: op, unary: true, x: x, deps: x.deps}, nil
}

// eval computes s given the values of the reads.
func (s *sym) eval(readVal func(int) (prog.Value, bool)) (prog.Value, bool) {
	switch {
	case s.known:
		return s.v, true
	case s.read >= 0:
		return readVal(s.read)
	case s.unary:
		x, ok := s.x.eval(readVal)
		if !ok {
			return prog.Value{}, false
		}
		v, err := prog.ApplyUnary(s.op, x)
		return v, err == nil
	}
	x, ok := s.x.eval(readVal)
	if !ok {
		return prog.Value{}, false
	}
	y, ok := s.y.eval(readVal)
	if !ok {
		return prog.Value{}, false
	}
	v, err := prog.ApplyTotal(s.op, x, y)
	return v, err == nil
}

// pathEvent is an event of one thread's path, before numbering.
type pathEvent struct {
	kind      event.Kind
	loc       string
	tags      []string
	val       *sym // value written; for reads, readSym of itself
	instr, pc int
	addrDeps  []int
	dataDeps  []int
	ctrlDeps  []int
}

// constraint requires that s evaluates to true (want) or false (!want).
type constraint struct {
	s    *sym
	want bool
}

// division is a division or remainder on a path: the candidates where
// its divisor is 0 perform a division by zero, an error of the program
// when the model allows one of them (see prog.DividesByZero).
type division struct {
	op      prog.Op
	divisor *sym
	at      string // file:line:col: thread
}

// path is one control-flow path of a thread.
type path struct {
	events  []pathEvent
	cons    []constraint
	divs    []division
	regs    map[string]*sym
	rmw     [][2]int // local indices
	iico    [][2]int // iico_data: read -> write of one instruction, when the write depends on the read
	bounded bool     // unused paths cut by the loop bound are dropped; this marks a path that hit it
}

// explorer runs one thread symbolically and collects its paths.
type explorer struct {
	th       *prog.Thread
	labels   map[string]int
	bound    int
	locs     []string // every location, for symbolic addresses
	paths    []*path
	cut      bool // some path exceeded the loop bound
	maxPaths int
	tick     func() error // errDeadline once the run's time is up
}

type state struct {
	pc     int
	regs   map[string]*sym
	p      *path
	ctrl   []int
	scoped map[string][]int // reads of the open scoped branches, per join label (ctrl.go)
	visits map[int]int      // backward jumps taken, per jump pc
	instr  int
	ll     int // the latest load-reserve not yet consumed (local event index), -1 for none
}

func (st *state) fork() *state {
	regs := make(map[string]*sym, len(st.regs))
	for k, v := range st.regs {
		regs[k] = v
	}
	visits := make(map[int]int, len(st.visits))
	for k, v := range st.visits {
		visits[k] = v
	}
	p := &path{
		events: append([]pathEvent(nil), st.p.events...),
		cons:   append([]constraint(nil), st.p.cons...),
		divs:   append([]division(nil), st.p.divs...),
		rmw:    append([][2]int(nil), st.p.rmw...),
		iico:   append([][2]int(nil), st.p.iico...),
	}
	return &state{pc: st.pc, regs: regs, p: p, ctrl: st.ctrl, scoped: st.scoped, visits: visits, instr: st.instr, ll: st.ll}
}

// errTooManyPaths stops a thread whose paths explode.
var errTooManyPaths = result.Limit("too many control-flow paths")

func (x *explorer) run(initRegs map[string]prog.Value) error {
	regs := map[string]*sym{}
	for r, v := range initRegs {
		regs[r] = constSym(v)
	}
	return x.step(&state{regs: regs, p: &path{}, visits: map[int]int{}, ll: -1})
}

func (x *explorer) expr(st *state, e prog.Expr, old *sym) (*sym, error) {
	switch e := e.(type) {
	case prog.Const:
		return constSym(e.V), nil
	case prog.Reg:
		if s, ok := st.regs[e.Name]; ok {
			return s, nil
		}
		return constSym(prog.IntValue(0)), nil
	case prog.Old:
		if old == nil {
			return nil, fmt.Errorf("old value outside a read-modify-write")
		}
		return old, nil
	case prog.Bin:
		a, err := x.expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		b, err := x.expr(st, e.Y, old)
		if err != nil {
			return nil, err
		}
		if e.Op == prog.OpDiv || e.Op == prog.OpMod {
			st.p.divs = append(st.p.divs, division{op: e.Op, divisor: b, at: x.where(st)})
		}
		return binSym(e.Op, a, b)
	case prog.Un:
		a, err := x.expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		return unSym(e.Op, a)
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

// address resolves an address to a location, forking the state when the
// address is symbolic (one branch per location, under a constraint).
func (x *explorer) address(st *state, a *sym, k func(st *state, loc string) error) error {
	if a.known {
		if !a.v.IsAddr() {
			return fmt.Errorf("%s: access to non-address %s", x.th.Name, a.v)
		}
		return k(st, locName(a.v))
	}
	for _, l := range x.locs {
		f := st.fork()
		eq, err := binSym(prog.OpEq, a, constSym(prog.LocValue(l)))
		if err != nil {
			return err
		}
		f.p.cons = append(f.p.cons, constraint{eq, true})
		if err := k(f, l); err != nil {
			return err
		}
	}
	return nil
}

func locName(v prog.Value) string {
	if v.Int == 0 {
		return v.Loc
	}
	return fmt.Sprintf("%s+%d", v.Loc, v.Int)
}

func (x *explorer) emit(st *state, ev pathEvent) int {
	ev.instr, ev.pc = st.instr, st.pc
	ev.ctrlDeps = st.ctrlDeps()
	st.p.events = append(st.p.events, ev)
	return len(st.p.events) - 1
}

// step runs the thread from st.pc to the end of its code, forking st at
// every choice (the location of an access, the outcome of a conditional
// branch, of a store-conditional or of a compare-and-swap); every path
// that reaches the end is added to x.paths.
func (x *explorer) step(st *state) error {
	if x.tick != nil {
		if err := x.tick(); err != nil {
			return err
		}
	}
	code := x.th.Code
	for st.pc < len(code) {
		in := code[st.pc]
		if !prog.IsPart(in) {
			st.instr++ // a further chunk of an access stays in its instance
		}
		switch in := in.(type) {
		case prog.Label:
			st.join(in.Name)
		case prog.Assign:
			v, err := x.expr(st, in.Val, nil)
			if err != nil {
				return x.errAt(st, err)
			}
			st.regs[in.Dst] = v
		case prog.Fence:
			x.emit(st, pathEvent{kind: event.Fence, tags: in.Tags})
		case prog.Load:
			return x.load(st, in)
		case prog.Store:
			return x.store(st, in)
		case prog.StoreCond:
			return x.storeCond(st, in)
		case prog.RMW:
			return x.rmw(st, in)
		case prog.Located:
			return x.located(st, in)
		case prog.Jump:
			if next, err := x.jump(st, in); !next || err != nil {
				return err
			}
		case prog.Havoc:
			return x.errAt(st, fmt.Errorf("%s: an arbitrary value (havoc) is not supported by the explicit engine, which enumerates values; use the SMT engine", in))
		default:
			return x.errAt(st, fmt.Errorf("unsupported instruction %T", in))
		}
		st.pc++
	}
	st.p.regs = st.regs
	x.paths = append(x.paths, st.p)
	if x.maxPaths > 0 && len(x.paths) > x.maxPaths {
		return errTooManyPaths
	}
	return nil
}

// load reads one location per value the address may have, then runs on.
func (x *explorer) load(st *state, in prog.Load) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	dst, tags := in.Dst, in.Tags
	return x.address(st, a, func(st *state, loc string) error {
		i := x.emit(st, pathEvent{kind: event.Read, loc: loc, tags: tags, addrDeps: a.deps})
		st.p.events[i].val = readSym(i)
		if dst != "" {
			st.regs[dst] = readSym(i)
		}
		if hasTag(tags, "EX") {
			st.ll = i
		}
		st.pc++
		return x.step(st)
	})
}

// store writes one location per value the address may have, then runs
// on.
func (x *explorer) store(st *state, in prog.Store) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	v, err := x.expr(st, in.Val, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	tags := in.Tags
	return x.address(st, a, func(st *state, loc string) error {
		x.emit(st, pathEvent{kind: event.Write, loc: loc, tags: tags, val: v, addrDeps: a.deps, dataDeps: v.deps})
		st.pc++
		return x.step(st)
	})
}

// storeCond forks a failing store-conditional, and a succeeding one when
// the thread holds a reservation on the location.
func (x *explorer) storeCond(st *state, in prog.StoreCond) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	v, err := x.expr(st, in.Val, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	sc := in
	return x.address(st, a, func(st *state, loc string) error {
		// Failure is always possible.
		f := st.fork()
		f.ll = -1
		if sc.Status != "" {
			f.regs[sc.Status] = constSym(sc.FailVal)
		}
		f.pc++
		if err := x.step(f); err != nil {
			return err
		}
		if st.ll < 0 || st.p.events[st.ll].loc != loc {
			return nil // no reservation on this location: success is impossible
		}
		w := x.emit(st, pathEvent{kind: event.Write, loc: loc, tags: sc.Tags, val: v, addrDeps: a.deps, dataDeps: v.deps})
		st.p.rmw = append(st.p.rmw, [2]int{st.ll, w})
		st.ll = -1
		if sc.Status != "" {
			st.regs[sc.Status] = constSym(sc.OkVal)
			if sc.StatusDeps {
				st.regs[sc.Status].deps = []int{w}
			}
		}
		st.pc++
		return x.step(st)
	})
}

// rmw reads then writes one location (an AMO, a compare-and-swap); a
// condition the values cannot decide forks a failing and a succeeding
// path.
func (x *explorer) rmw(st *state, in prog.RMW) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	rmw := in
	return x.address(st, a, func(st *state, loc string) error {
		r := x.emit(st, pathEvent{kind: event.Read, loc: loc, tags: rmw.RTags, addrDeps: a.deps})
		old := readSym(r)
		st.p.events[r].val = old
		nv, err := x.expr(st, rmw.New, old)
		if err != nil {
			return x.errAt(st, err)
		}
		write := func(st *state) error {
			w := x.emit(st, pathEvent{kind: event.Write, loc: loc, tags: rmw.WTags, val: nv, addrDeps: a.deps, dataDeps: withoutRead(nv.deps, r)})
			st.p.rmw = append(st.p.rmw, [2]int{r, w})
			if containsInt(nv.deps, r) {
				st.p.iico = append(st.p.iico, [2]int{r, w})
			}
			return nil
		}
		if rmw.Cond == nil {
			if err := write(st); err != nil {
				return err
			}
		} else {
			c, err := x.expr(st, rmw.Cond, old)
			if err != nil {
				return x.errAt(st, err)
			}
			if c.known {
				if prog.Truth(c.v) {
					if err := write(st); err != nil {
						return err
					}
				} else if rmw.FailRTags != nil {
					st.p.events[r].tags = rmw.FailRTags
				}
			} else {
				f := st.fork()
				if rmw.FailRTags != nil {
					f.p.events[r].tags = rmw.FailRTags
				}
				f.p.cons = append(f.p.cons, constraint{c, false})
				if rmw.Dst != "" {
					f.regs[rmw.Dst] = old
				}
				f.pc++
				if err := x.step(f); err != nil {
					return err
				}
				st.p.cons = append(st.p.cons, constraint{c, true})
				if err := write(st); err != nil {
					return err
				}
			}
		}
		if rmw.Dst != "" {
			st.regs[rmw.Dst] = old
		}
		st.pc++
		return x.step(st)
	})
}

// jump takes a branch (within the bound on backward jumps), forking st
// when the values cannot decide the condition. It reports whether st
// goes on with the next instruction (the branch not taken).
func (x *explorer) jump(st *state, in prog.Jump) (bool, error) {
	target := x.labels[in.Target]
	take := func(st *state) error {
		if target <= st.pc {
			st.visits[st.pc]++
			if st.visits[st.pc] > x.bound {
				x.cut = true
				return nil // path cut by the bound
			}
		}
		st.pc = target
		return x.step(st)
	}
	if in.Cond == nil {
		return false, take(st)
	}
	c, err := x.expr(st, in.Cond, nil)
	if err != nil {
		return false, x.errAt(st, err)
	}
	if c.known {
		if prog.Truth(c.v) {
			return false, take(st)
		}
		return true, nil
	}
	st.branch(in.Join, c.deps)
	f := st.fork()
	f.p.cons = append(f.p.cons, constraint{c, true})
	if err := take(f); err != nil {
		return false, err
	}
	st.p.cons = append(st.p.cons, constraint{c, false})
	return true, nil
}

// where names the instruction st is at: file:line:col: thread.
func (x *explorer) where(st *state) string {
	if st.pc < len(x.th.Pos) {
		return fmt.Sprintf("%s: %s", x.th.Pos[st.pc], x.th.Name)
	}
	return x.th.Name
}

func (x *explorer) errAt(st *state, err error) error {
	if st.pc < len(x.th.Pos) {
		return fmt.Errorf("%s: %s: %w", x.th.Pos[st.pc], x.th.Name, err)
	}
	return fmt.Errorf("%s: %w", x.th.Name, err)
}

func withoutRead(deps []int, r int) []int {
	var out []int
	for _, d := range deps {
		if d != r {
			out = append(out, d)
		}
	}
	return out
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

func containsInt(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}
