package symexec

import (
	"fmt"
	"slices"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// Explorer runs one thread symbolically and collects its paths, whose
// events Emit builds.
type Explorer[E any] struct {
	Th       *prog.Thread
	Labels   map[string]int // the thread's labels (prog.Thread.Labels)
	Bound    int            // how many times a backward jump may be taken on a path
	Locs     []string       // every location, for symbolic addresses
	MaxPaths int            // more paths than this stop the run with ErrTooManyPaths (0: no limit)
	Tick     func() error   // when not nil, called at every fork; an error stops the run

	// Emit builds the event ev of a path st is exploring, at st's
	// instruction.
	Emit func(st *State[E], ev Event) E
	// Other runs an instruction the explorer does not know, then the rest
	// of the path (with Step); nil refuses it.
	Other func(st *State[E], in prog.Instr) error

	Paths []*Path[E] // the paths that reached the end of the code
	Cut   bool       // some path exceeded the loop bound and was dropped
}

// ErrTooManyPaths stops a thread whose paths explode.
var ErrTooManyPaths = result.Limit("too many control-flow paths")

// MaxCode is the most instructions of a thread Run explores: Step
// continues a path through a recursive call at every access, so a thread
// of 1.8 million loads (a 50 MB litmus test) overflowed the Go stack, a
// fatal crash no recover catches. At this bound the stack stays well
// below Go's limit, and far above any test written or generated.
const MaxCode = 1 << 16

// ErrTooLong refuses a thread of more than MaxCode instructions.
var ErrTooLong = result.Limit(fmt.Sprintf("a thread has more than %d instructions", MaxCode))

// Run explores the thread from its start with registers initRegs.
func (x *Explorer[E]) Run(initRegs map[string]prog.Value) error {
	if len(x.Th.Code) > MaxCode {
		return ErrTooLong
	}
	regs := map[string]*Sym{}
	for r, v := range initRegs {
		regs[r] = Const(v)
	}
	return x.Step(&State[E]{Regs: regs, P: &Path[E]{}, visits: map[int]int{}, ll: -1})
}

// Expr is the value of e in st; old is the value an RMW read (prog.Old).
// A division or remainder is recorded on st's path.
func (x *Explorer[E]) Expr(st *State[E], e prog.Expr, old *Sym) (*Sym, error) {
	switch e := e.(type) {
	case prog.Const:
		return Const(e.V), nil
	case prog.Reg:
		if s, ok := st.Regs[e.Name]; ok {
			return s, nil
		}
		return Const(prog.IntValue(0)), nil
	case prog.Old:
		if old == nil {
			return nil, fmt.Errorf("old value outside a read-modify-write")
		}
		return old, nil
	case prog.Bin:
		a, err := x.Expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		b, err := x.Expr(st, e.Y, old)
		if err != nil {
			return nil, err
		}
		if e.Op == prog.OpDiv || e.Op == prog.OpMod {
			st.P.Divs = append(st.P.Divs, Division{Op: e.Op, Divisor: b, At: x.where(st)})
		}
		return Bin(e.Op, a, b)
	case prog.Un:
		a, err := x.Expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		return Un(e.Op, a)
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

// Address resolves an address to a location and runs k there, forking the
// state when the address is symbolic (one branch per location, under a
// constraint).
func (x *Explorer[E]) Address(st *State[E], a *Sym, k func(st *State[E], loc string) error) error {
	if a.Known {
		if !a.V.IsAddr() {
			return fmt.Errorf("%s: access to non-address %s", x.Th.Name, a.V)
		}
		return k(st, LocName(a.V))
	}
	if v, ok := st.pinned(a); ok {
		// The path's constraints fix the address: the one fork that
		// could satisfy them, or none.
		if !v.IsAddr() || !slices.Contains(x.Locs, LocName(v)) {
			return nil
		}
		return k(st, LocName(v))
	}
	if base, s, off, ok := splitOffset(a); ok {
		// A known address plus an unknown integer: only the locations
		// of the same base, each fixing the offset (so that the further
		// bytes of a mixed-size access follow the first one).
		for _, l := range x.Locs {
			lv := prog.LocValue(l)
			if lv.Loc != base.Loc {
				continue
			}
			f := st.Fork()
			eq, err := Bin(prog.OpEq, a, Const(lv))
			if err != nil {
				return err
			}
			f.assume(eq, true)
			f.pinOffset(s, prog.IntValue(lv.Int-base.Int-off))
			if err := k(f, l); err != nil {
				return err
			}
		}
		return nil
	}
	for _, l := range x.Locs {
		f := st.Fork()
		eq, err := Bin(prog.OpEq, a, Const(prog.LocValue(l)))
		if err != nil {
			return err
		}
		f.assume(eq, true)
		if err := k(f, l); err != nil {
			return err
		}
	}
	return nil
}

// LocName names the location of address v (prog.LocValue's inverse).
func LocName(v prog.Value) string {
	if v.Int == 0 {
		return v.Loc
	}
	return fmt.Sprintf("%s+%d", v.Loc, v.Int)
}

// Add emits ev on st's path and returns its local index.
func (x *Explorer[E]) Add(st *State[E], ev Event) int {
	st.P.Events = append(st.P.Events, x.Emit(st, ev))
	return len(st.P.Events) - 1
}

// Step runs the thread from st.PC to the end of its code, forking st at
// every choice (the location of an access, the outcome of a conditional
// branch, of a store-conditional or of a compare-and-swap); every path
// that reaches the end is added to x.Paths.
func (x *Explorer[E]) Step(st *State[E]) error {
	if x.Tick != nil {
		if err := x.Tick(); err != nil {
			return err
		}
	}
	code := x.Th.Code
	for st.PC < len(code) {
		in := code[st.PC]
		if !prog.IsPart(in) {
			st.Instr++
		}
		switch in := in.(type) {
		case prog.Label:
			st.join(in.Name)
		case prog.Assign:
			v, err := x.Expr(st, in.Val, nil)
			if err != nil {
				return x.ErrAt(st, err)
			}
			st.Regs[in.Dst] = v
		case prog.Fence:
			x.Add(st, Event{Kind: event.Fence, Tags: in.Tags})
		case prog.Load:
			return x.load(st, in)
		case prog.Store:
			return x.store(st, in)
		case prog.StoreCond:
			return x.storeCond(st, in)
		case prog.RMW:
			return x.rmw(st, in)
		case prog.Jump:
			if next, err := x.jump(st, in); !next || err != nil {
				return err
			}
		default:
			if x.Other != nil {
				return x.Other(st, in)
			}
			return x.ErrAt(st, fmt.Errorf("unsupported instruction %T", in))
		}
		st.PC++
	}
	st.P.Regs = st.Regs
	x.Paths = append(x.Paths, st.P)
	if x.MaxPaths > 0 && len(x.Paths) > x.MaxPaths {
		return ErrTooManyPaths
	}
	return nil
}

// load reads one location per value the address may have, then runs on.
func (x *Explorer[E]) load(st *State[E], in prog.Load) error {
	a, err := x.Expr(st, in.Addr, nil)
	if err != nil {
		return x.ErrAt(st, err)
	}
	dst, tags, part := in.Dst, in.Tags, in.Part
	return x.Address(st, a, func(st *State[E], loc string) error {
		i := x.Add(st, Event{Kind: event.Read, Loc: loc, Tags: tags, Val: ReadOf(len(st.P.Events)), AddrDeps: a.Deps, AddrPick: a.Pick})
		if dst != "" {
			st.Regs[dst] = ReadOf(i)
		}
		if slices.Contains(tags, "EX") {
			if part {
				st.llMore = append(st.llMore, reservation{i, loc})
			} else {
				st.ll, st.llLoc, st.llMore = i, loc, nil
			}
		}
		st.PC++
		return x.Step(st)
	})
}

// store writes one location per value the address may have, then runs
// on.
func (x *Explorer[E]) store(st *State[E], in prog.Store) error {
	a, v, err := x.addrVal(st, in.Addr, in.Val)
	if err != nil {
		return err
	}
	tags := in.Tags
	return x.Address(st, a, func(st *State[E], loc string) error {
		x.Add(st, Event{Kind: event.Write, Loc: loc, Tags: tags, Val: v, AddrDeps: a.Deps, DataDeps: v.Deps, AddrPick: a.Pick, DataPick: v.Pick})
		st.PC++
		return x.Step(st)
	})
}

// addrVal is the address and the value of a write, in this order (a
// division in either is recorded in that order).
func (x *Explorer[E]) addrVal(st *State[E], addr, val prog.Expr) (a, v *Sym, err error) {
	if a, err = x.Expr(st, addr, nil); err == nil {
		v, err = x.Expr(st, val, nil)
	}
	if err != nil {
		return nil, nil, x.ErrAt(st, err)
	}
	return a, v, nil
}

// storeCond forks a failing store-conditional, and a succeeding one when
// the thread holds a reservation on the location.
func (x *Explorer[E]) storeCond(st *State[E], in prog.StoreCond) error {
	a, v, err := x.addrVal(st, in.Addr, in.Val)
	if err != nil {
		return err
	}
	sc := in
	if sc.Part {
		// A further chunk: it follows the first part's outcome.
		return x.Address(st, a, func(st *State[E], loc string) error {
			if st.scHead == 1 {
				k := slices.IndexFunc(st.llMore, func(r reservation) bool { return r.loc == loc })
				if k < 0 {
					return nil // no reservation on this chunk: this success is impossible
				}
				w := x.Add(st, Event{Kind: event.Write, Loc: loc, Tags: sc.Tags, Val: v, AddrDeps: a.Deps, DataDeps: v.Deps, AddrPick: a.Pick, DataPick: v.Pick})
				st.P.Rmw = append(st.P.Rmw, [2]int{st.llMore[k].ev, w})
				st.llMore = slices.Delete(slices.Clone(st.llMore), k, k+1)
			}
			st.PC++
			return x.Step(st)
		})
	}
	return x.Address(st, a, func(st *State[E], loc string) error {
		// Failure is always possible.
		f := st.Fork()
		f.scHead = 2
		f.ll = -1
		if sc.Status != "" {
			f.Regs[sc.Status] = Const(sc.FailVal)
		}
		f.PC++
		if err := x.Step(f); err != nil {
			return err
		}
		if st.ll < 0 || st.llLoc != loc {
			return nil // no reservation on this location: success is impossible
		}
		w := x.Add(st, Event{Kind: event.Write, Loc: loc, Tags: sc.Tags, Val: v, AddrDeps: a.Deps, DataDeps: v.Deps, AddrPick: a.Pick, DataPick: v.Pick})
		st.P.Rmw = append(st.P.Rmw, [2]int{st.ll, w})
		st.ll = -1
		st.scHead = 1
		if sc.Status != "" {
			st.Regs[sc.Status] = Const(sc.OkVal)
			if sc.StatusDeps {
				st.Regs[sc.Status].Deps = []int{w}
			}
		}
		st.PC++
		return x.Step(st)
	})
}

// rmw reads then writes one location (an AMO, a compare-and-swap); a
// condition the values cannot decide forks a failing and a succeeding
// path. The read of a failing one carries the instruction's FailRTags,
// when it has them.
func (x *Explorer[E]) rmw(st *State[E], in prog.RMW) error {
	a, err := x.Expr(st, in.Addr, nil)
	if err != nil {
		return x.ErrAt(st, err)
	}
	rmw := in
	return x.Address(st, a, func(st *State[E], loc string) error {
		read := Event{Kind: event.Read, Loc: loc, Tags: rmw.RTags, Val: ReadOf(len(st.P.Events)), AddrDeps: a.Deps, AddrPick: a.Pick}
		r := x.Add(st, read)
		old := read.Val
		fail := func(st *State[E]) {
			if rmw.FailRTags != nil {
				read.Tags = rmw.FailRTags
				st.P.Events[r] = x.Emit(st, read)
			}
		}
		nv, err := x.Expr(st, rmw.New, old)
		if err != nil {
			return x.ErrAt(st, err)
		}
		write := func(st *State[E]) {
			w := x.Add(st, Event{Kind: event.Write, Loc: loc, Tags: rmw.WTags, Val: nv, AddrDeps: a.Deps, DataDeps: withoutRead(nv.Deps, r), AddrPick: a.Pick, DataPick: withoutRead(nv.Pick, r)})
			st.P.Rmw = append(st.P.Rmw, [2]int{r, w})
			if rmw.Single {
				st.P.Single = append(st.P.Single, [2]int{r, w})
			}
			if slices.Contains(nv.Deps, r) {
				st.P.Iico = append(st.P.Iico, [2]int{r, w})
			}
		}
		if rmw.Cond == nil {
			write(st)
		} else {
			c, err := x.Expr(st, rmw.Cond, old)
			if err != nil {
				return x.ErrAt(st, err)
			}
			cv, decided := st.decided(c)
			switch {
			case decided && cv:
				write(st)
			case decided:
				fail(st)
			default:
				f := st.Fork()
				fail(f)
				f.assume(c, false)
				if rmw.Dst != "" {
					f.Regs[rmw.Dst] = old
				}
				f.PC++
				if err := x.Step(f); err != nil {
					return err
				}
				st.assume(c, true)
				write(st)
			}
		}
		if rmw.Dst != "" {
			st.Regs[rmw.Dst] = old
		}
		st.PC++
		return x.Step(st)
	})
}

// jump takes a branch (within the bound on backward jumps), forking st
// when the values cannot decide the condition. It reports whether st
// goes on with the next instruction (the branch not taken).
func (x *Explorer[E]) jump(st *State[E], in prog.Jump) (bool, error) {
	target := x.Labels[in.Target]
	take := func(st *State[E]) error {
		if target <= st.PC {
			st.visits[st.PC]++
			if st.visits[st.PC] > x.Bound {
				x.Cut = true
				return nil // path cut by the bound
			}
		}
		st.PC = target
		return x.Step(st)
	}
	if in.Cond == nil {
		return false, take(st)
	}
	if in.Either {
		// both ways, with no dependency and no constraint
		if err := take(st.Fork()); err != nil {
			return false, err
		}
		return true, nil
	}
	c, err := x.Expr(st, in.Cond, nil)
	if err != nil {
		return false, x.ErrAt(st, err)
	}
	if !in.NoCtrl {
		// A branch depends on what its condition was computed from,
		// even when the path knows its value (a store-conditional's
		// status): herd's ctrl is syntactic.
		st.branch(in.Join, c.Deps)
		if len(c.Pick) > 0 {
			if in.Join != "" {
				return false, x.ErrAt(st, fmt.Errorf("a pick dependency in a scoped branch is not supported"))
			}
			st.pctrl = MergeDeps(st.pctrl, c.Pick)
		}
	}
	if c.Known {
		if prog.Truth(c.V) {
			return false, take(st)
		}
		return true, nil
	}
	if v, ok := st.decided(c); ok {
		// Decided by the path's constraints: the branch still
		// depends on its reads (above), but only one way is possible.
		if v {
			return false, take(st)
		}
		return true, nil
	}
	f := st.Fork()
	f.assume(c, true)
	if err := take(f); err != nil {
		return false, err
	}
	st.assume(c, false)
	return true, nil
}

// where names the instruction st is at: file:line:col: thread.
func (x *Explorer[E]) where(st *State[E]) string {
	if st.PC < len(x.Th.Pos) {
		return fmt.Sprintf("%s: %s", x.Th.Pos[st.PC], x.Th.Name)
	}
	return x.Th.Name
}

// ErrAt places err at the instruction st is at.
func (x *Explorer[E]) ErrAt(st *State[E], err error) error {
	if st.PC < len(x.Th.Pos) {
		return fmt.Errorf("%s: %s: %w", x.Th.Pos[st.PC], x.Th.Name, err)
	}
	return fmt.Errorf("%s: %w", x.Th.Name, err)
}
