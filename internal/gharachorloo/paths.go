package gharachorloo

import (
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// This file runs one thread symbolically: reads are unknowns, a branch
// on an unknown forks the path under a constraint, a symbolic address
// forks over the locations. The result is the thread's paths: their
// memory operations and fences with symbolic values, their constraints
// and their final registers.

type evKind int

const (
	evRead evKind = iota
	evWrite
	evFence
)

// sym is a symbolic value: a constant, the value of read number read of
// the path, or an operation.
type sym struct {
	known bool
	v     prog.Value
	read  int
	op    prog.Op
	unary bool
	x, y  *sym
}

func constant(v prog.Value) *sym { return &sym{known: true, v: v, read: -1} }

func readOf(i int) *sym { return &sym{read: i} }

func binary(op prog.Op, x, y *sym) (*sym, error) {
	if x.known && y.known {
		v, err := prog.ApplyTotal(op, x.v, y.v)
		if err != nil {
			return nil, err
		}
		return constant(v), nil
	}
	return &sym{read: -1, op: op, x: x, y: y}, nil
}

func unary(op prog.Op, x *sym) (*sym, error) {
	if x.known {
		v, err := prog.ApplyUnary(op, x.v)
		if err != nil {
			return nil, err
		}
		return constant(v), nil
	}
	return &sym{read: -1, op: op, unary: true, x: x}, nil
}

func (s *sym) eval(read func(int) (prog.Value, bool)) (prog.Value, bool) {
	switch {
	case s.known:
		return s.v, true
	case s.read >= 0:
		return read(s.read)
	}
	x, ok := s.x.eval(read)
	if !ok {
		return prog.Value{}, false
	}
	if s.unary {
		v, err := prog.ApplyUnary(s.op, x)
		return v, err == nil
	}
	y, ok := s.y.eval(read)
	if !ok {
		return prog.Value{}, false
	}
	v, err := prog.ApplyTotal(s.op, x, y)
	return v, err == nil
}

// pathEvent is a memory operation or a fence of a path.
type pathEvent struct {
	kind evKind
	loc  string
	tags []string
	val  *sym // the value written (reads: nil)
}

func (e *pathEvent) has(tag string) bool {
	for _, t := range e.tags {
		if t == tag {
			return true
		}
	}
	return false
}

type constraint struct {
	s    *sym
	want bool
}

// division is a division or remainder on a path (see
// prog.DividesByZero); at names its instruction.
type division struct {
	op      prog.Op
	divisor *sym
	at      string
}

type path struct {
	events []pathEvent
	cons   []constraint
	divs   []division
	regs   map[string]*sym
	rmw    [][2]int // read, write of an atomic pair (local indices)
}

type explorer struct {
	th       *prog.Thread
	labels   map[string]int
	bound    int
	locs     []string
	maxPaths int
	paths    []*path
	cut      bool
}

type state struct {
	pc     int
	regs   map[string]*sym
	p      *path
	visits map[int]int
	ll     int // the pending load-reserve, -1 for none
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
	}
	return &state{pc: st.pc, regs: regs, p: p, visits: visits, ll: st.ll}
}

func (x *explorer) run(init map[string]prog.Value) error {
	regs := map[string]*sym{}
	for r, v := range init {
		regs[r] = constant(v)
	}
	return x.step(&state{regs: regs, p: &path{}, visits: map[int]int{}, ll: -1})
}

func (x *explorer) expr(st *state, e prog.Expr, old *sym) (*sym, error) {
	switch e := e.(type) {
	case prog.Const:
		return constant(e.V), nil
	case prog.Reg:
		if s, ok := st.regs[e.Name]; ok {
			return s, nil
		}
		return constant(prog.IntValue(0)), nil
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
			at := x.th.Name
			if st.pc < len(x.th.Pos) {
				at = fmt.Sprintf("%s: %s", x.th.Pos[st.pc], x.th.Name)
			}
			st.p.divs = append(st.p.divs, division{op: e.Op, divisor: b, at: at})
		}
		return binary(e.Op, a, b)
	case prog.Un:
		a, err := x.expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		return unary(e.Op, a)
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

func locName(v prog.Value) string {
	if v.Int == 0 {
		return v.Loc
	}
	return fmt.Sprintf("%s+%d", v.Loc, v.Int)
}

// address resolves an address, forking over the locations when it is
// symbolic.
func (x *explorer) address(st *state, a *sym, k func(*state, string) error) error {
	if a.known {
		if !a.v.IsAddr() {
			return fmt.Errorf("%s: access to non-address %s", x.th.Name, a.v)
		}
		return k(st, locName(a.v))
	}
	for _, l := range x.locs {
		f := st.fork()
		eq, err := binary(prog.OpEq, a, constant(prog.AddrValue(l)))
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

func (x *explorer) add(st *state, ev pathEvent) int {
	st.p.events = append(st.p.events, ev)
	return len(st.p.events) - 1
}

func (x *explorer) errAt(st *state, err error) error {
	if st.pc < len(x.th.Pos) {
		return fmt.Errorf("%s: %s: %w", x.th.Pos[st.pc], x.th.Name, err)
	}
	return fmt.Errorf("%s: %w", x.th.Name, err)
}

func (x *explorer) step(st *state) error {
	code := x.th.Code
	for st.pc < len(code) {
		switch in := code[st.pc].(type) {
		case prog.Label:
		case prog.Assign:
			v, err := x.expr(st, in.Val, nil)
			if err != nil {
				return x.errAt(st, err)
			}
			st.regs[in.Dst] = v
		case prog.Fence:
			x.add(st, pathEvent{kind: evFence, tags: in.Tags})
		case prog.Load:
			return x.load(st, in)
		case prog.Store:
			return x.store(st, in)
		case prog.StoreCond:
			return x.storeCond(st, in)
		case prog.RMW:
			return x.rmw(st, in)
		case prog.Jump:
			if cont, err := x.jump(st, in); !cont {
				return err
			}
		default:
			return x.errAt(st, fmt.Errorf("unsupported instruction %T", in))
		}
		st.pc++
	}
	st.p.regs = st.regs
	x.paths = append(x.paths, st.p)
	if len(x.paths) > x.maxPaths {
		return fmt.Errorf("%s: %w", x.th.Name, result.Limit("too many control-flow paths"))
	}
	return nil
}

// load adds the read of in on every location its address may be, and
// goes on.
func (x *explorer) load(st *state, in prog.Load) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	ld := in
	return x.address(st, a, func(st *state, loc string) error {
		i := x.add(st, pathEvent{kind: evRead, loc: loc, tags: ld.Tags})
		if ld.Dst != "" {
			st.regs[ld.Dst] = readOf(i)
		}
		if has(ld.Tags, "EX") {
			st.ll = i
		}
		st.pc++
		return x.step(st)
	})
}

// store adds the write of in on every location its address may be, and
// goes on.
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
		x.add(st, pathEvent{kind: evWrite, loc: loc, tags: tags, val: v})
		st.pc++
		return x.step(st)
	})
}

// storeCond follows both outcomes of a store-conditional: it may always
// fail, and it succeeds only after a load-link of the same location.
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
		// A store-conditional may always fail.
		f := st.fork()
		f.ll = -1
		if sc.Status != "" {
			f.regs[sc.Status] = constant(sc.FailVal)
		}
		f.pc++
		if err := x.step(f); err != nil {
			return err
		}
		if st.ll < 0 || st.p.events[st.ll].loc != loc {
			return nil
		}
		w := x.add(st, pathEvent{kind: evWrite, loc: loc, tags: sc.Tags, val: v})
		st.p.rmw = append(st.p.rmw, [2]int{st.ll, w})
		st.ll = -1
		if sc.Status != "" {
			st.regs[sc.Status] = constant(sc.OkVal)
		}
		st.pc++
		return x.step(st)
	})
}

// rmw adds the read and (when its condition may hold) the write of an
// atomic read-modify-write, and goes on.
func (x *explorer) rmw(st *state, in prog.RMW) error {
	a, err := x.expr(st, in.Addr, nil)
	if err != nil {
		return x.errAt(st, err)
	}
	rmw := in
	return x.address(st, a, func(st *state, loc string) error {
		r := x.add(st, pathEvent{kind: evRead, loc: loc, tags: rmw.RTags})
		old := readOf(r)
		nv, err := x.expr(st, rmw.New, old)
		if err != nil {
			return x.errAt(st, err)
		}
		write := func(st *state) {
			w := x.add(st, pathEvent{kind: evWrite, loc: loc, tags: rmw.WTags, val: nv})
			st.p.rmw = append(st.p.rmw, [2]int{r, w})
		}
		if rmw.Cond != nil {
			c, err := x.expr(st, rmw.Cond, old)
			if err != nil {
				return x.errAt(st, err)
			}
			switch {
			case c.known && prog.Truth(c.v):
				write(st)
			case c.known:
			default:
				f := st.fork()
				f.p.cons = append(f.p.cons, constraint{c, false})
				if rmw.Dst != "" {
					f.regs[rmw.Dst] = old
				}
				f.pc++
				if err := x.step(f); err != nil {
					return err
				}
				st.p.cons = append(st.p.cons, constraint{c, true})
				write(st)
			}
		} else {
			write(st)
		}
		if rmw.Dst != "" {
			st.regs[rmw.Dst] = old
		}
		st.pc++
		return x.step(st)
	})
}

// jump follows a branch: cont says the path goes on at the next
// instruction (the branch is not taken); otherwise the path was followed
// from the target, with err.
func (x *explorer) jump(st *state, in prog.Jump) (cont bool, err error) {
	target := x.labels[in.Target]
	take := func(st *state) error {
		if target <= st.pc {
			st.visits[st.pc]++
			if st.visits[st.pc] > x.bound {
				x.cut = true
				return nil
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
	f := st.fork()
	f.p.cons = append(f.p.cons, constraint{c, true})
	if err := take(f); err != nil {
		return false, err
	}
	st.p.cons = append(st.p.cons, constraint{c, false})
	return true, nil
}

func has(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}
