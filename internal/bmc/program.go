package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/smt"
	"github.com/musket-verify/musket/internal/spec"
)

// evt is one potential event of the unrolled program.
type evt struct {
	id     int
	thread int // -1 for initial writes
	kind   event.Kind
	loc    string
	tags   []string
	// condTags are tags the event has only under a condition (the read of
	// a compare-and-swap whose failure order differs from its success one).
	condTags map[string]B
	node     int // index of the instruction in the thread's code (-1 for initial writes)
	alt      int // which location alternative of a computed address
	exec     B   // when the event is executed (absolute)
	val      smt.Term
	init     prog.Value // the value of an initial write
	// inst is the node of the instruction instance the event belongs to:
	// its own, or for a further chunk of a mixed-size access
	// (prog.IsPart) the node of the access's first chunk.
	inst int
	// vrefs are the reads whose values a write's value is computed from
	// (valueorder.go), with conditions relative to its execution.
	vrefs map[int]B
	// single is the other half of a read-modify-write that the model sees
	// as one event (prog.RMW.Single; single.go), nil for the others.
	single *evt
}

// sv is a symbolic value of a thread: a concrete value when known, and
// always an Int term; deps maps each read the value syntactically depends
// on (as herd's dependencies do) to the condition, relative to the
// execution of whoever uses the value, under which it does.
type sv struct {
	known bool
	v     prog.Value
	t     smt.Term
	deps  map[int]B
	b01   bool // the value is 0 or 1 (a comparison): bitwise operators are logical on it
	// wide: the term may lie outside the int64 range (an unbounded sum,
	// difference, product, negation or quotient, or a havoc); bitwise
	// operators then read its low 64 bits (bits.go). Every other value
	// (constants, reads, results of bitwise operators) is an int64.
	wide bool
	// vrefs are the reads (and lock events) whose values the explicit
	// engine evaluates to compute this value: the leaves of its
	// expression, with conditions as deps. Where none holds (constants, a
	// store-conditional's status, whatever dependencies it carries), the
	// explicit engine knows the value on the path: a branch on it is no
	// control dependency there.
	vrefs map[int]B
}

// tstate is the state of a thread at an edge of its control-flow graph.
type tstate struct {
	regs map[string]*sv
	ctrl map[int]B // reads the branches taken so far depend on
	ll   map[int]B // the load-reserve not yet consumed

	// reads of the scoped branches still open, per join label (ctrl.go)
	scoped map[string]map[int]B
}

type edge struct {
	cond B
	st   *tstate
}

// progEnc encodes the control and data flow of a test (phi_CF, phi_DF).
type progEnc struct {
	// wraps is how wrapMod gives its last case (wrapmod.go).
	wraps   wrapMode
	guarded int // remainders given by guarded cases
	f       *fb
	ctx     *smt.Context
	t       *spec.Test
	locs    []string
	locN    map[string]int

	events []*evt
	// pickLocal: no register a pick gives reaches an access or a branch
	// of the thread encoded now; assigning says an Assign is encoded
	// (pick.go).
	pickLocal, assigning bool
	// static and register-flow relations, as relative formulas
	addr, data, ctrl, rmw, iico map[[2]int]B
	// pickAddr, pickData and pickCtrl are the further pairs of the pick
	// dependencies (pick.go).
	pickAddr, pickData, pickCtrl map[[2]int]B
	final                        []*tstate // final state of each thread
	cut                          []B       // execution of each thread's %cut label (false when none)
	hasCut                       bool
	// chains are the bit decompositions made so far, by term (bits.go).
	chains       map[chainKey][]B
	reach        [][][]uint64 // per thread: node i reaches node j in the CFG (bit j of row i; thread.go)
	threadEvents [][]int
	initOf       map[string]int
	initRegs     []map[string]prog.Value

	// guard is when the expression being encoded is evaluated (the
	// execution of its instruction), at names the instruction; divs are
	// the divisions by zero the program may perform (divzero.go).
	guard B
	at    string
	divs  []divSite
}

// addrBase spaces the integer codes of the locations: location i is
// (i+1)·2^40, an offset is added to it.
const addrBase = int64(1) << 40

func (p *progEnc) locCode(loc string) int64 {
	i, ok := p.locN[loc]
	if !ok {
		i = len(p.locs)
		p.locs = append(p.locs, loc)
		p.locN[loc] = i
	}
	return int64(i+1) * addrBase
}

// enc gives the integer code of a value.
func (p *progEnc) enc(v prog.Value) int64 {
	if v.Loc == "" {
		return v.Int
	}
	return p.locCode(v.Loc) + v.Int
}

// addrWindow bounds the offsets dec reads back as addresses: the 64-bit
// values of mixed-size tests (0x0202020202020202, its chunks) fall near
// the codes of locations, at offsets far larger than any test's.
const addrWindow = int64(1) << 20

// dec turns an integer code back into a value.
func (p *progEnc) dec(x int64) prog.Value {
	for i, l := range p.locs {
		base := int64(i+1) * addrBase
		if x > base-addrWindow && x < base+addrWindow {
			return prog.Value{Loc: l, Int: x - base}
		}
	}
	return prog.IntValue(x)
}

func (p *progEnc) known(v prog.Value) *sv {
	return &sv{known: true, v: v, t: p.ctx.IntVal(p.enc(v))}
}

func locName(v prog.Value) string {
	if v.Int == 0 {
		return v.Loc
	}
	return fmt.Sprintf("%s+%d", v.Loc, v.Int)
}

func (p *progEnc) truth(v *sv) B {
	if v.known {
		if prog.Truth(v.v) {
			return bTrue
		}
		return bFalse
	}
	return B{t: p.ctx.Not(p.ctx.Eq(v.t, p.ctx.IntVal(0)))}
}

func mergeDeps(f *fb, a, b map[int]B) map[int]B {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make(map[int]B, len(a)+len(b))
	for k, x := range a {
		out[k] = x
	}
	for k, y := range b {
		if x, ok := out[k]; ok {
			out[k] = f.or(x, y)
		} else {
			out[k] = y
		}
	}
	return out
}

func (p *progEnc) boolInt(b smt.Term) smt.Term {
	return p.ctx.Ite(b, p.ctx.IntVal(1), p.ctx.IntVal(0))
}

// binTerm encodes a binary operator on integer codes.
func (p *progEnc) binTerm(op prog.Op, x, y smt.Term) smt.Term {
	c := p.ctx
	zero := c.IntVal(0)
	switch op {
	case prog.OpAdd:
		return c.Add(x, y)
	case prog.OpSub:
		return c.Sub(x, y)
	case prog.OpMul:
		return c.Mul(x, y)
	case prog.OpDiv, prog.OpMod:
		// Go's truncated division.
		ax := c.Ite(c.Ge(x, zero), x, c.Neg(x))
		ay := c.Ite(c.Ge(y, zero), y, c.Neg(y))
		q := c.Div(ax, ay)
		sameSign := c.Iff(c.Ge(x, zero), c.Ge(y, zero))
		tq := c.Ite(sameSign, q, c.Neg(q))
		if op == prog.OpDiv {
			return tq
		}
		return c.Sub(x, c.Mul(y, tq))
	case prog.OpEq:
		return p.boolInt(c.Eq(x, y))
	case prog.OpNe:
		return p.boolInt(c.Not(c.Eq(x, y)))
	case prog.OpLt:
		return p.boolInt(c.Lt(x, y))
	case prog.OpLe:
		return p.boolInt(c.Le(x, y))
	case prog.OpGt:
		return p.boolInt(c.Gt(x, y))
	case prog.OpGe:
		return p.boolInt(c.Ge(x, y))
	case prog.OpLAnd:
		return p.boolInt(c.And(c.Not(c.Eq(x, zero)), c.Not(c.Eq(y, zero))))
	case prog.OpLOr:
		return p.boolInt(c.Or(c.Not(c.Eq(x, zero)), c.Not(c.Eq(y, zero))))
	}
	panic(fmt.Sprintf("bmc: binary operator %v", op))
}

func (p *progEnc) expr(st *tstate, e prog.Expr, old *sv) (*sv, error) {
	switch e := e.(type) {
	case prog.Const:
		return p.known(e.V), nil
	case prog.Reg:
		if v, ok := st.regs[e.Name]; ok {
			return v, nil
		}
		return p.known(prog.IntValue(0)), nil
	case prog.Old:
		if old == nil {
			return nil, fmt.Errorf("old value outside a read-modify-write")
		}
		return old, nil
	case prog.Bin:
		if e.Op == prog.OpPick {
			return p.pick(st, e, old)
		}
		if v, ok, err := p.byConstant(st, e, old); ok || err != nil {
			return v, err
		}
		a, err := p.expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		b, err := p.expr(st, e.Y, old)
		if err != nil {
			return nil, err
		}
		if e.Op == prog.OpDiv || e.Op == prog.OpMod {
			p.division(e.Op, b)
		}
		if !a.known && !b.known && a.t.Equal(b.t) {
			// x == x, x - x, ...: known, with x's dependencies (the C
			// front-end writes a false dependency so).
			if v, ok := sameOperands(e.Op); ok {
				out := p.known(prog.IntValue(v))
				out.deps = mergeDeps(p.f, a.deps, b.deps)
				return out, nil
			}
		}
		if a.known && b.known {
			v, err := prog.ApplyTotal(e.Op, a.v, b.v)
			if err != nil {
				return nil, err
			}
			out := p.known(v)
			out.deps = mergeDeps(p.f, a.deps, b.deps)
			return out, nil
		}
		if e.Op > prog.OpLOr {
			return nil, fmt.Errorf("%s is not a binary operator", e.Op)
		}
		op := e.Op
		if isB01(a) && isB01(b) {
			// Bitwise operators on comparisons are logical ones; keeps
			// the encoding out of bit-vectors.
			switch op {
			case prog.OpAnd:
				op = prog.OpLAnd
			case prog.OpOr:
				op = prog.OpLOr
			case prog.OpXor:
				op = prog.OpNe
			}
		}
		var t smt.Term
		switch op {
		case prog.OpAnd, prog.OpOr, prog.OpXor:
			t = p.bitwise(op, a, b)
		case prog.OpShl, prog.OpShr:
			t = p.shift(op, a, b)
		case prog.OpMul:
			switch {
			case isB01(a):
				t = p.ctx.Ite(p.f.term(p.truth(a)), b.t, p.ctx.IntVal(0))
			case isB01(b):
				t = p.ctx.Ite(p.f.term(p.truth(b)), a.t, p.ctx.IntVal(0))
			default:
				t = p.binTerm(op, a.t, b.t)
			}
		default:
			t = p.binTerm(op, a.t, b.t)
		}
		if (op == prog.OpDiv || op == prog.OpMod) && !b.known {
			t = p.ctx.Ite(p.ctx.Eq(b.t, p.ctx.IntVal(0)), p.ctx.IntVal(0), t)
		}
		out := &sv{t: t, deps: mergeDeps(p.f, a.deps, b.deps), vrefs: mergeDeps(p.f, a.vrefs, b.vrefs)}
		out.b01 = op >= prog.OpEq && op <= prog.OpLOr
		switch op {
		case prog.OpAdd, prog.OpSub, prog.OpMul, prog.OpDiv:
			out.wide = true
		case prog.OpMod:
			out.wide = a.wide || b.wide
		}
		return out, nil
	case prog.Un:
		a, err := p.expr(st, e.X, old)
		if err != nil {
			return nil, err
		}
		if a.known {
			v, err := prog.ApplyUnary(e.Op, a.v)
			if err != nil {
				return nil, err
			}
			out := p.known(v)
			out.deps = a.deps
			return out, nil
		}
		c := p.ctx
		var t smt.Term
		switch e.Op {
		case prog.OpNeg:
			t = c.Neg(a.t)
		case prog.OpNot:
			t = p.boolInt(c.Eq(a.t, c.IntVal(0)))
		case prog.OpBNot:
			t = c.Sub(c.Neg(a.t), c.IntVal(1))
		default:
			return nil, fmt.Errorf("%s is not a unary operator", e.Op)
		}
		return &sv{t: t, deps: a.deps, b01: e.Op == prog.OpNot, vrefs: a.vrefs, wide: e.Op == prog.OpNeg || e.Op == prog.OpBNot && a.wide}, nil
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

// byConstant encodes, on a value the encoding does not know, three
// operations by constants that front-ends write in forms the general
// encoding makes costly: the non-negative remainder ((x % m) + m) % m
// and the floor division (x - that) / m for m > 0 (Z3's mod and div, in
// place of truncated division twice), and x ^ 0, x | 0 (the 64-bit
// value of x: in place of the round trip through a 64-bit vector, the
// same value in linear arithmetic). ok is false when e is none of them
// or its operand is known (folded as usual).
func (p *progEnc) byConstant(st *tstate, e prog.Bin, old *sv) (*sv, bool, error) {
	c := p.ctx
	unary := func(x prog.Expr, f func(t smt.Term) smt.Term) (*sv, bool, error) {
		v, err := p.expr(st, x, old)
		if err != nil || v.known {
			return nil, false, err
		}
		return &sv{t: f(v.t), deps: v.deps, vrefs: v.vrefs, wide: v.wide}, true, nil
	}
	if x, m, ok := nonNegMod(e); ok {
		return unary(x, func(t smt.Term) smt.Term { return p.wrapMod(t, m) })
	}
	if d, ok := posConst(e.Y); ok && e.Op == prog.OpDiv {
		if sub, ok := e.X.(prog.Bin); ok && sub.Op == prog.OpSub {
			if x, m, ok := nonNegMod(sub.Y); ok && m == d && x == sub.X {
				return unary(x, func(t smt.Term) smt.Term { return c.Div(t, c.IntVal(d)) })
			}
		}
	}
	if z, ok := e.Y.(prog.Const); ok && (e.Op == prog.OpXor || e.Op == prog.OpOr) && !z.V.IsAddr() && z.V.Int == 0 {
		v, err := p.expr(st, e.X, old)
		if err != nil || v.known || v.b01 {
			return nil, false, err
		}
		return &sv{t: p.wrap64(v.t), deps: v.deps, vrefs: v.vrefs}, true, nil
	}
	return nil, false, nil
}

// nonNegMod matches ((x % m) + m) % m for a constant m > 0.
func nonNegMod(e prog.Expr) (prog.Expr, int64, bool) {
	outer, ok := e.(prog.Bin)
	if !ok || outer.Op != prog.OpMod {
		return nil, 0, false
	}
	m, ok := posConst(outer.Y)
	if !ok {
		return nil, 0, false
	}
	add, ok := outer.X.(prog.Bin)
	if !ok || add.Op != prog.OpAdd {
		return nil, 0, false
	}
	if m2, ok := posConst(add.Y); !ok || m2 != m {
		return nil, 0, false
	}
	inner, ok := add.X.(prog.Bin)
	if !ok || inner.Op != prog.OpMod {
		return nil, 0, false
	}
	if m3, ok := posConst(inner.Y); !ok || m3 != m {
		return nil, 0, false
	}
	return inner.X, m, true
}

func posConst(e prog.Expr) (int64, bool) {
	c, ok := e.(prog.Const)
	if !ok || c.V.IsAddr() || c.V.Int <= 0 {
		return 0, false
	}
	return c.V.Int, true
}

func isB01(v *sv) bool {
	return v.b01 || v.known && !v.v.IsAddr() && (v.v.Int == 0 || v.v.Int == 1)
}

func copyDeps(m map[int]B) map[int]B {
	out := make(map[int]B, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (st *tstate) clone() *tstate {
	regs := make(map[string]*sv, len(st.regs))
	for k, v := range st.regs {
		regs[k] = v
	}
	return &tstate{regs: regs, ctrl: st.ctrl, scoped: st.scoped, ll: st.ll}
}

// mergeMaps merges relative conditions over the incoming edges.
func (p *progEnc) mergeMaps(in []edge, get func(*tstate) map[int]B) map[int]B {
	if len(in) == 1 {
		return get(in[0].st)
	}
	keys := map[int]bool{}
	for _, e := range in {
		for k := range get(e.st) {
			keys[k] = true
		}
	}
	if len(keys) == 0 {
		return nil
	}
	out := map[int]B{}
	for k := range keys {
		all := true
		var xs []B
		for _, e := range in {
			d, ok := get(e.st)[k]
			if !ok {
				all = false
				continue
			}
			if !d.isTrue() {
				all = false
			}
			xs = append(xs, p.f.and(e.cond, d))
		}
		if all {
			out[k] = bTrue
		} else if b := p.f.or(xs...); !b.isFalse() {
			out[k] = b
		}
	}
	return out
}

// merge joins the states of the incoming edges of a node.
func (p *progEnc) merge(in []edge) *tstate {
	if len(in) == 1 {
		return in[0].st.clone()
	}
	st := &tstate{regs: map[string]*sv{}}
	names := map[string]bool{}
	for _, e := range in {
		for r := range e.st.regs {
			names[r] = true
		}
	}
	zero := p.known(prog.IntValue(0))
	for r := range names {
		vals := make([]*sv, len(in))
		same, allKnown := true, true
		for i, e := range in {
			v, ok := e.st.regs[r]
			if !ok {
				v = zero
			}
			vals[i] = v
			if v != vals[0] {
				same = false
			}
			if !v.known {
				allKnown = false
			}
		}
		if same {
			st.regs[r] = vals[0]
			continue
		}
		if allKnown {
			eq := true
			for _, v := range vals {
				if v.v != vals[0].v {
					eq = false
				}
			}
			if eq {
				st.regs[r] = vals[0]
				continue
			}
		}
		t := vals[len(vals)-1].t
		for i := len(vals) - 2; i >= 0; i-- {
			t = p.ctx.Ite(p.f.term(in[i].cond), vals[i].t, t)
		}
		deps := p.mergeMaps(edgesWith(in, vals), func(s *tstate) map[int]B { return s.regs["\x00"].deps })
		vrefs := p.mergeMaps(edgesWith(in, vals), func(s *tstate) map[int]B { return s.regs["\x00"].vrefs })
		b01, wide := true, false
		for _, v := range vals {
			b01 = b01 && isB01(v)
			wide = wide || v.wide
		}
		st.regs[r] = &sv{t: t, deps: deps, b01: b01, vrefs: vrefs, wide: wide}
	}
	st.ctrl = p.mergeMaps(in, func(s *tstate) map[int]B { return s.ctrl })
	st.scoped = p.mergeScoped(in)
	st.ll = p.mergeMaps(in, func(s *tstate) map[int]B { return s.ll })
	return st
}

// edgesWith pairs each edge condition with a value, for mergeMaps.
func edgesWith(in []edge, vals []*sv) []edge {
	out := make([]edge, len(in))
	for i, e := range in {
		out[i] = edge{cond: e.cond, st: &tstate{regs: map[string]*sv{"\x00": vals[i]}}}
	}
	return out
}

func (p *progEnc) newEvent(th, node, alt int, kind event.Kind, loc string, tags []string, exec B) *evt {
	e := &evt{id: len(p.events), thread: th, kind: kind, loc: loc, tags: tags, node: node, alt: alt, exec: exec, inst: node}
	p.events = append(p.events, e)
	p.threadEvents[th] = append(p.threadEvents[th], e.id)
	return e
}

func (p *progEnc) addPair(m map[[2]int]B, a, b int, cond B) {
	if cond.isFalse() {
		return
	}
	k := [2]int{a, b}
	if x, ok := m[k]; ok {
		m[k] = p.f.or(x, cond)
	} else {
		m[k] = cond
	}
}

// setDeps records the dependencies of event e: the reads its address,
// its value written and its control depend on, fully or by a pick
// (pickKey).
func (p *progEnc) setDeps(e *evt, addr, data map[int]B, ctrl map[int]B) {
	for k, c := range addr {
		r, pick := depRead(k)
		p.addPair(pickOr(pick, p.pickAddr, p.addr), r, e.id, c)
	}
	for k, c := range data {
		r, pick := depRead(k)
		p.addPair(pickOr(pick, p.pickData, p.data), r, e.id, c)
	}
	for k, c := range ctrl {
		if r, pick := depRead(k); r < e.id {
			p.addPair(pickOr(pick, p.pickCtrl, p.ctrl), r, e.id, c)
		}
	}
}

// pickOr is m when pick holds, else full.
func pickOr(pick bool, m, full map[[2]int]B) map[[2]int]B {
	if pick {
		return m
	}
	return full
}

// sameOperands is the value of x op x for the operators that do not
// depend on x (false: the others).
func sameOperands(op prog.Op) (int64, bool) {
	switch op {
	case prog.OpEq, prog.OpLe, prog.OpGe:
		return 1, true
	case prog.OpNe, prog.OpLt, prog.OpGt, prog.OpSub:
		return 0, true
	}
	return 0, false
}
