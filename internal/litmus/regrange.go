package litmus

import (
	"math"
	"math/bits"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Value ranges of registers, for regtype.go.
//
// regRanges over-approximates the value each register of a test holds
// after its thread's last instruction, in any execution: an interval of
// integers, and whether it may be an address. Every location is one
// interval for the whole memory (the initial values, 0, and every value
// any thread stores); the threads are run on ranges again until that
// interval stops growing. A thread without a backward jump is run in
// order (an assignment replaces its register's range, a label joins the
// ranges of the jumps to it); a thread with a loop is run as a whole, each
// assignment joining into its register's range, until nothing grows. A
// range still growing after a few rounds becomes unbounded on that side,
// so the analysis ends. Arithmetic that may overflow int64, and any
// operator it does not know, gives the whole of int64, and an instruction
// it does not know stops it (nil): the result is an over-approximation in
// every case, which is all its user needs (it only leaves out work when a
// register provably stays in a range).

// vrange is a set of values: the integers lo..hi when ints, and possibly
// addresses.
type vrange struct {
	ints   bool
	lo, hi int64
	addr   bool
}

var fullRange = vrange{ints: true, lo: math.MinInt64, hi: math.MaxInt64}

func constRange(v prog.Value) vrange {
	if v.IsAddr() {
		return vrange{addr: true}
	}
	return vrange{ints: true, lo: v.Int, hi: v.Int}
}

func (r vrange) join(s vrange) vrange {
	out := vrange{addr: r.addr || s.addr}
	switch {
	case r.ints && s.ints:
		out.ints, out.lo, out.hi = true, min(r.lo, s.lo), max(r.hi, s.hi)
	case r.ints:
		out.ints, out.lo, out.hi = true, r.lo, r.hi
	case s.ints:
		out.ints, out.lo, out.hi = true, s.lo, s.hi
	}
	return out
}

// within tells whether every value of r is an integer in lo..hi.
func (r vrange) within(lo, hi int64) bool {
	return !r.addr && (!r.ints || r.lo >= lo && r.hi <= hi)
}

// addOv, subOv and mulOv are x op y, and false when it overflows int64.
func addOv(x, y int64) (int64, bool) {
	s := x + y
	// It overflows when x and y have one sign and s the other.
	if (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0) {
		return 0, false
	}
	return s, true
}

func subOv(x, y int64) (int64, bool) {
	if y == math.MinInt64 {
		return 0, false
	}
	return addOv(x, -y)
}

func mulOv(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	p := x * y
	if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// corners is the interval of f over the corners of x and y, the whole of
// int64 when one overflows (f is monotone in each argument on the
// intervals it is used on: +, -, *).
func corners(x, y vrange, f func(a, b int64) (int64, bool)) vrange {
	out := vrange{ints: true, lo: math.MaxInt64, hi: math.MinInt64}
	for _, a := range [2]int64{x.lo, x.hi} {
		for _, b := range [2]int64{y.lo, y.hi} {
			v, ok := f(a, b)
			if !ok {
				return fullRange
			}
			out.lo, out.hi = min(out.lo, v), max(out.hi, v)
		}
	}
	return out
}

// bitBound is the least k such that every value of r lies in
// -2^k..2^k-1 (63 when none smaller).
func bitBound(r vrange) int {
	k := 0
	for _, v := range [2]int64{r.lo, r.hi} {
		if v < 0 {
			v = ^v
		}
		k = max(k, bits.Len64(uint64(v)))
	}
	return min(k, 63)
}

func evalRange(e prog.Expr, reg func(string) vrange, old vrange) vrange {
	switch e := e.(type) {
	case prog.Const:
		return constRange(e.V)
	case prog.Reg:
		return reg(e.Name)
	case prog.Old:
		return old
	case prog.Un:
		x := evalRange(e.X, reg, old)
		switch {
		case x.addr:
			return fullRange.join(vrange{addr: true})
		case !x.ints:
			return x
		}
		switch e.Op {
		case prog.OpNot:
			return vrange{ints: true, lo: 0, hi: 1}
		case prog.OpBNot:
			return vrange{ints: true, lo: ^x.hi, hi: ^x.lo}
		case prog.OpNeg:
			if x.lo == math.MinInt64 {
				return fullRange
			}
			return vrange{ints: true, lo: -x.hi, hi: -x.lo}
		}
		return fullRange
	case prog.Bin:
		if e.Op == prog.OpPick {
			return evalRange(e.X, reg, old)
		}
		if (e.Op == prog.OpXor || e.Op == prog.OpSub) && e.X == e.Y {
			// r ^ r and r - r, the false dependencies of litmus tests.
			if _, isReg := e.X.(prog.Reg); isReg {
				return vrange{ints: true}
			}
		}
		x, y := evalRange(e.X, reg, old), evalRange(e.Y, reg, old)
		switch e.Op {
		case prog.OpEq, prog.OpNe, prog.OpLt, prog.OpLe, prog.OpGt, prog.OpGe, prog.OpLAnd, prog.OpLOr:
			return vrange{ints: true, lo: 0, hi: 1}
		}
		if x.addr || y.addr {
			return fullRange.join(vrange{addr: true})
		}
		if !x.ints || !y.ints {
			return vrange{}
		}
		return binRange(e.Op, x, y)
	}
	return fullRange.join(vrange{addr: true})
}

// binRange is the range of x op y on integers.
func binRange(op prog.Op, x, y vrange) vrange {
	switch op {
	case prog.OpAdd:
		return corners(x, y, addOv)
	case prog.OpSub:
		return corners(x, y, func(a, b int64) (int64, bool) { return subOv(a, b) })
	case prog.OpMul:
		return corners(x, y, mulOv)
	case prog.OpAnd:
		switch {
		case x.lo >= 0 && y.lo >= 0:
			return vrange{ints: true, lo: 0, hi: min(x.hi, y.hi)}
		case x.lo >= 0:
			return vrange{ints: true, lo: 0, hi: x.hi}
		case y.lo >= 0:
			return vrange{ints: true, lo: 0, hi: y.hi}
		}
		fallthrough
	case prog.OpOr, prog.OpXor:
		// Both operands in -2^k..2^k-1 (sign-extended from k+1 bits):
		// so is the result, bit by bit; non-negative ones stay so.
		k := max(bitBound(x), bitBound(y))
		if k >= 63 {
			return fullRange
		}
		if x.lo >= 0 && y.lo >= 0 {
			return vrange{ints: true, lo: 0, hi: 1<<k - 1}
		}
		return vrange{ints: true, lo: -1 << k, hi: 1<<k - 1}
	case prog.OpShl:
		// The amount is taken modulo 64 (prog.Apply).
		if s := y.lo & 63; y.lo == y.hi && s < 63 {
			return corners(x, vrange{ints: true, lo: 1 << s, hi: 1 << s}, mulOv)
		}
	case prog.OpShr:
		// An arithmetic shift, by any amount, keeps x between 0 and x.
		return vrange{ints: true, lo: min(x.lo, 0), hi: max(x.hi, 0)}
	case prog.OpMod:
		// A truncated remainder: the sign of x, less than |y| in size.
		if y.lo == y.hi && y.lo > 0 {
			out := vrange{ints: true, lo: -(y.lo - 1), hi: y.lo - 1}
			if x.lo >= 0 {
				out.lo, out.hi = 0, min(x.hi, out.hi)
			}
			if x.hi <= 0 {
				out.hi, out.lo = 0, max(x.lo, out.lo)
			}
			return out
		}
	case prog.OpDiv:
		if y.lo > 0 {
			// |x / y| <= |x| for y >= 1, either rounding.
			return vrange{ints: true, lo: min(x.lo, 0), hi: max(x.hi, 0)}
		}
	}
	return fullRange
}

// regKey names register Name of thread Thread.
type regKey struct {
	thread int
	name   string
}

// widenAfter is the number of rounds after which a range still growing
// becomes unbounded on the side it grows.
const widenAfter = 4

// widen is nu, a range that grew from old, with each side still growing
// after widenAfter rounds made unbounded.
func widen(round int, old, nu vrange) vrange {
	if round >= widenAfter && old.ints && nu.ints {
		if nu.lo < old.lo {
			nu.lo = math.MinInt64
		}
		if nu.hi > old.hi {
			nu.hi = math.MaxInt64
		}
	}
	return nu
}

// regRanges over-approximates the final value of every register of t (see
// above): its value after the thread's last instruction. A register that
// no instruction writes and the initial state does not give is 0. It is
// nil when t has an instruction the analysis does not know.
func regRanges(t *spec.Test) map[regKey]vrange {
	finals, _, _ := rangeFixpoint(t, nil)
	if finals == nil {
		return nil
	}
	out := map[regKey]vrange{}
	for ti, env := range finals {
		for name, r := range env {
			out[regKey{ti, name}] = r
		}
	}
	return out
}

// rangeFixpoint runs the threads of t on ranges until the range of memory
// stops growing: it gives each thread's final ranges, the range of every
// value memory may hold, and each thread's initial register ranges
// (finals is nil when t has an instruction the analysis does not know).
// load, when not nil, is the range a load (or RMW) of thread ti at pc
// gives when memory holds mem; else mem itself.
func rangeFixpoint(t *spec.Test, load func(ti, pc int, mem vrange) vrange) (finals []map[string]vrange, mem vrange, inits []map[string]vrange) {
	inits = make([]map[string]vrange, len(t.Threads))
	for i := range inits {
		inits[i] = map[string]vrange{}
	}
	mem = vrange{ints: true}
	for _, e := range t.Init {
		v := constRange(e.Val)
		if e.Ref.IsReg() {
			if e.Ref.Thread < len(inits) {
				inits[e.Ref.Thread][e.Ref.Name] = v
			}
			continue
		}
		mem = mem.join(v)
		for _, el := range e.Elems {
			mem = mem.join(constRange(el))
		}
	}
	finals = make([]map[string]vrange, len(t.Threads))
	for round := 0; ; round++ {
		stored := mem
		for ti, th := range t.Threads {
			env, st, ok := threadRanges(th, inits[ti], mem, rangeHooks{load: bindLoad(load, ti)})
			if !ok {
				return nil, vrange{}, nil
			}
			finals[ti], stored = env, stored.join(st)
		}
		if stored == mem {
			break
		}
		mem = widen(round, mem, stored)
	}
	return finals, mem, inits
}

// threadRanges runs th's code on ranges, from the registers' initial
// ranges init, each load reading mem: it gives the registers' ranges after
// the last instruction and the join of the values stored; ok is false on
// an instruction it does not know. Code without a backward jump is run in
// order, an assignment replacing its register's range, a label joining the
// ranges of the jumps to it. Code with one (a loop) is run as a whole until
// no range grows, each assignment joining into its register's range.
//
// The hooks change the run (see rangeHooks).
func threadRanges(th *prog.Thread, init map[string]vrange, mem vrange, h rangeHooks) (env map[string]vrange, stored vrange, ok bool) {
	store := func(pc int, v vrange) {
		stored = stored.join(v)
		if h.store != nil {
			h.store(pc, v)
		}
	}
	loaded := func(int) vrange { return mem }
	if h.load != nil {
		loaded = func(pc int) vrange { return h.load(pc, mem) }
	}
	labels := map[string]int{}
	for pc, in := range th.Code {
		if l, isLabel := in.(prog.Label); isLabel {
			labels[l.Name] = pc
		}
	}
	loop := false
	for pc, in := range th.Code {
		if j, isJump := in.(prog.Jump); isJump {
			if to, known := labels[j.Target]; !known || to <= pc {
				loop = true
			}
		}
	}
	copyEnv := func(e map[string]vrange) map[string]vrange {
		c := make(map[string]vrange, len(e))
		for k, v := range e {
			c[k] = v
		}
		return c
	}
	joinEnv := func(a, b map[string]vrange) map[string]vrange {
		c := copyEnv(a)
		for k, v := range b {
			if old, in := c[k]; in {
				c[k] = old.join(v)
			} else {
				c[k] = v.join(vrange{ints: true}) // 0 on the other path
			}
		}
		for k, v := range a {
			if _, in := b[k]; !in {
				c[k] = v.join(vrange{ints: true})
			}
		}
		return c
	}
	env = copyEnv(init)
	stored = vrange{}
	pending := map[string]map[string]vrange{}
	dead := false
	for round := 0; ; round++ {
		grew := false
		set := func(name string, v vrange) {
			if name == "" {
				return
			}
			old, in := env[name]
			if !in {
				old = vrange{ints: true}
			}
			if !loop {
				env[name] = v
				return
			}
			if nu := old.join(v); nu != old {
				env[name] = widen(round, old, nu)
				grew = true
			}
		}
		reg := func(name string) vrange {
			if r, in := env[name]; in {
				return r
			}
			return vrange{ints: true}
		}
		for pc, in := range th.Code {
			if l, isLabel := in.(prog.Label); isLabel && !loop {
				if p, jumped := pending[l.Name]; jumped {
					if dead {
						env, dead = p, false
					} else {
						env = joinEnv(env, p)
					}
				}
				continue
			}
			if dead {
				continue
			}
			if h.visit != nil {
				h.visit(pc, reg)
			}
			switch in := in.(type) {
			case prog.Load:
				set(in.Dst, loaded(pc))
			case prog.Store:
				store(pc, evalRange(in.Val, reg, mem))
			case prog.RMW:
				store(pc, evalRange(in.New, reg, loaded(pc)))
				set(in.Dst, loaded(pc))
			case prog.StoreCond:
				store(pc, evalRange(in.Val, reg, mem))
				set(in.Status, constRange(in.OkVal).join(constRange(in.FailVal)))
			case prog.Assign:
				set(in.Dst, evalRange(in.Val, reg, mem))
			case prog.Havoc:
				set(in.Dst, fullRange.join(vrange{addr: true}))
			case prog.Jump:
				if !loop {
					if p, jumped := pending[in.Target]; jumped {
						pending[in.Target] = joinEnv(p, env)
					} else {
						pending[in.Target] = copyEnv(env)
					}
					dead = in.Cond == nil
				}
			case prog.Fence, prog.Label:
			default:
				return nil, vrange{}, false
			}
		}
		if !loop || !grew {
			return env, stored, true
		}
	}
}

// rangeHooks change a run of threadRanges.
//
// visit, when not nil, is called before each instruction the run reaches,
// with the registers' ranges there; it is called again for every round of
// a loop, and the last call for an instruction holds (the last round grows
// nothing, so its ranges hold at every point of the thread).
//
// load, when not nil, is the range the load or RMW at pc reads when memory
// holds mem (a narrow access reads part of a value); else mem.
//
// store, when not nil, is told the range of each value stored, with the
// pc of its store, RMW or store-conditional.
type rangeHooks struct {
	visit func(pc int, reg func(string) vrange)
	load  func(pc int, mem vrange) vrange
	store func(pc int, v vrange)
}

// bindLoad is load for thread ti, nil when load is.
func bindLoad(load func(ti, pc int, mem vrange) vrange, ti int) func(pc int, mem vrange) vrange {
	if load == nil {
		return nil
	}
	return func(pc int, mem vrange) vrange { return load(ti, pc, mem) }
}
