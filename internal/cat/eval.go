package cat

import (
	"fmt"

	"github.com/musket-verify/musket/internal/rel"
)

// The evaluator runs compiled code: names are resolved at load time to
// slots of frames (one frame for the top level, one per function call)
// or to inputs (the names the execution gives), so evaluation makes no
// map look-ups.

// frame holds the slots of one scope level.
type frame struct {
	slots []value
	up    *frame
}

// run is the state of one Check.
type run struct {
	m        *Model
	x        *Execution
	n        int
	opts     CheckOptions
	yield    func(Outcome) bool
	top      *frame
	inputs   []value // resolved inputs, nil until resolved (absent: no value)
	topFrame frame   // top's storage

	memo  *memo
	views []*view
	// liveRel is the Rel of the outcomes of a Transient Check, made once
	// per run: it reads the live top-level slots.
	liveRel func(string) (rel.Rel, bool)
	// acceptK is r.accept, the continuation of the model's last
	// statement, made once per run: a method value made in each Check
	// was an allocation per candidate of a reused (Transient) run. It
	// is bound to r, so a run that start readies again keeps it.
	acceptK      cont
	flags, undef []string
	override     string // name of the call ... as NAME being run
	callDepth    int
	steps        int
	stepLimit    int
	stmts        int // statements run, for the context checks

	full                rel.Set
	haveFull            bool
	fullR, id           rel.Rel
	haveFullRel, haveID bool
}

// maxCallDepth bounds nested calls that are not tail calls (tail calls
// run in a loop, see apply): each takes about 1.3 KB of the host stack,
// so 100000 stay near 130 MB, far below Go's 1 GB limit, and deeper
// recursion is reported as an error instead; a least fixpoint over n events
// converges in at most n*n+1 steps when it converges at all; maxSteps
// bounds the function calls and fixpoint steps of one Check, so that no
// model runs forever.
const (
	maxCallDepth = 100000
	maxSteps     = 50_000_000
)

// step counts one unit of work against the budget of the Check, and
// every 256 steps looks whether the caller's context is done.
func (r *run) step(pos Position) error {
	r.steps++
	if r.steps > r.stepLimit {
		return &Error{Pos: pos, Msg: fmt.Sprintf("evaluation takes more than %d steps", r.stepLimit)}
	}
	if r.steps&255 == 0 && r.opts.Ctx != nil {
		if err := r.opts.Ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// stmtDone counts one statement run and every 64 looks whether the
// caller's context is done (a model without recursion or loops runs
// statements only; each may take long on a large execution).
func (r *run) stmtDone() error {
	r.stmts++
	if r.stmts&63 == 0 && r.opts.Ctx != nil {
		return r.opts.Ctx.Err()
	}
	return nil
}

func (r *run) maxFixpointSteps() int { return r.n*r.n + 1000 }

// node is compiled expression code.
type node interface {
	eval(r *run, f *frame) (value, error)
}

// slotRef is a node that names a storage place; raw reads it without
// failing when it is unbound (nil).
type slotRef interface {
	node
	raw(r *run, f *frame) value
}

func unbound(pos Position, name string) error {
	return &Error{Pos: pos, Msg: "unbound name " + name + UnboundHint(name)}
}

// dat3mNames are base relations and tags of Dat3M's models (Dartagnan's
// .cat files) that neither herd7 nor Musket defines, with what they mean
// there and what to write instead.
var dat3mNames = map[string]string{
	"casdep": "Dat3M's compare-and-swap dependency (the read of a CAS to its write), which herd7 and Musket do not define; " +
		"bind it before its use, e.g. `let casdep = rmw & (R * W)` (every read-modify-write, exchanges included) or `let casdep = 0`",
	"STRONG": "Dat3M's tag of strong compare-and-swaps, which herd7 and Musket do not define; " +
		"bind it before its use, e.g. `let STRONG = RMW` or `let STRONG = 0`",
}

// UnboundHint says more about an unbound name a model uses, when Musket
// knows where it comes from ("" otherwise).
func UnboundHint(name string) string {
	if h, ok := dat3mNames[name]; ok {
		return ": " + h
	}
	return ""
}

// The nodes that read a name carry the error of its being unbound, made
// when the model is compiled: herd7's models test names that an
// architecture may lack (`try co & int with 0`) in every Check, and an
// *Error is never changed once made.
type (
	constNode struct{ v value }
	localNode struct {
		slot int
		name string
		pos  Position
		err  error
	}
	outerNode struct {
		depth, slot int
		name        string
		pos         Position
		err         error
	}
	inputNode struct {
		idx  int
		name string
		pos  Position
		err  error
	}
)

func (n *constNode) eval(*run, *frame) (value, error) { return n.v, nil }
func (n *constNode) raw(*run, *frame) value           { return n.v }

func (n *localNode) raw(_ *run, f *frame) value { return f.slots[n.slot] }
func (n *localNode) eval(_ *run, f *frame) (value, error) {
	if v := f.slots[n.slot]; v != nil {
		return v, nil
	}
	return nil, n.err
}

func (n *outerNode) raw(_ *run, f *frame) value {
	for d := n.depth; d > 0; d-- {
		f = f.up
	}
	return f.slots[n.slot]
}
func (n *outerNode) eval(r *run, f *frame) (value, error) {
	if v := n.raw(r, f); v != nil {
		return v, nil
	}
	return nil, n.err
}

func (n *inputNode) raw(r *run, _ *frame) value { return r.input(n.idx) }
func (n *inputNode) eval(r *run, _ *frame) (value, error) {
	if v := r.input(n.idx); v != nil {
		return v, nil
	}
	return nil, n.err
}

type (
	unaryNode struct {
		op  Op
		x   node
		pos Position
	}
	binaryNode struct {
		op   Op
		x, y node
		pos  Position
	}
	appNode struct {
		fn, arg node
		pos     Position
	}
	setLitNode struct {
		elems []node
	}
	tupleNode struct {
		elems []node
	}
	funNode struct{ code *funCode }
	// letNode binds values in the current frame, then evaluates body.
	letNode struct {
		binds []bindCode
		body  node
	}
	letRecNode struct {
		rec  *recCode
		body node
	}
	ifNode struct {
		cond condCode
		x, y node
	}
	tryNode      struct{ x, y node }
	matchTagNode struct {
		x      node
		tags   []string
		bodies []node
		def    node
		pos    Position
	}
	matchSetNode struct {
		x          node
		empty      node
		elem, rest int // slots, -1 for _
		nonEmpty   node
		pos        Position
	}
)

// funCode is a compiled function: its parameters are slots of a fresh
// frame of nslots.
type funCode struct {
	name   string
	nslots int
	params patSlots
	body   node
}

// patSlots is a compiled pattern: slots (-1 for _), tuple or single.
type patSlots struct {
	slots []int
	tuple bool
}

// bindCode is one compiled binding of a let.
type bindCode struct {
	pat patSlots
	x   node
	pos Position
}

// recCode is a compiled let rec: functions bound to closures over the
// current frame, then values computed as a least fixpoint from empty.
type recCode struct {
	funSlots []int
	funs     []*funCode
	valSlots []int
	vals     []node
	invSlots []int // the slots of the onceNodes in vals
	pos      Position
}

// onceNode is a part of a let rec's body that does not depend on the
// names the let rec defines: it is computed on the first iteration of the
// fixpoint and kept in its slot for the next ones.
type onceNode struct {
	slot int
	x    node
}

func (n *onceNode) eval(r *run, f *frame) (value, error) {
	if v := f.slots[n.slot]; v != nil {
		return v, nil
	}
	v, err := n.x.eval(r, f)
	if err != nil {
		return nil, err
	}
	f.slots[n.slot] = v
	return v, nil
}

type closure struct {
	code *funCode
	env  *frame
}

// builtinFn is a primitive function of the evaluator.
type builtinFn struct {
	name   string
	fn     func(r *run, arg value, pos Position) (value, error)
	reads  []string // inputs it reads from the execution
	impure bool     // it reads the execution in ways reads cannot say
}

func (n *unaryNode) eval(r *run, f *frame) (value, error) {
	v, _, err := n.evalOwned(r, f)
	return v, err
}

func (n *binaryNode) eval(r *run, f *frame) (value, error) {
	v, _, err := n.evalOwned(r, f)
	return v, err
}

func (n *appNode) eval(r *run, f *frame) (value, error) {
	fn, err := n.fn.eval(r, f)
	if err != nil {
		return nil, err
	}
	arg, err := n.arg.eval(r, f)
	if err != nil {
		return nil, err
	}
	return r.apply(fn, arg, n.pos)
}

// apply calls a function value on an argument.
func (r *run) apply(fn, arg value, pos Position) (value, error) {
	switch fn := fn.(type) {
	case *closure:
		// Calls in tail position (a recursion that loops, like herd7's
		// cross.cat) run here, one after the other, without growing the
		// host stack; only the other calls count against maxCallDepth.
		if r.callDepth >= maxCallDepth {
			return nil, &Error{Pos: pos, Msg: fmt.Sprintf("recursion too deep (more than %d nested calls that are not tail calls)", maxCallDepth), Limit: true}
		}
		r.callDepth++
		defer func() { r.callDepth-- }()
		for {
			if err := r.step(pos); err != nil {
				return nil, err
			}
			nf := &frame{slots: make([]value, fn.code.nslots), up: fn.env}
			if err := bindPattern(nf, fn.code.params, arg, pos); err != nil {
				return nil, err
			}
			v, call, err := r.evalTail(fn.code.body, nf)
			if e, ok := err.(*Error); ok && !e.traced {
				name := fn.code.name
				if name == "" {
					name = "function"
				}
				err = &Error{Pos: e.Pos, Msg: fmt.Sprintf("%s (in %s called at %s)", e.Msg, name, pos), traced: true}
			}
			if err != nil || call == nil {
				return v, err
			}
			fn, arg, pos = call.fn, call.arg, call.pos
		}
	case *builtinFn:
		return fn.fn(r, arg, pos)
	}
	return nil, &Error{Pos: pos, Msg: fmt.Sprintf("cannot apply %s: not a function", kindName(fn))}
}

// bindPattern stores v in the slots of pattern p in frame f.
func bindPattern(f *frame, p patSlots, v value, pos Position) error {
	if !p.tuple {
		if s := p.slots[0]; s >= 0 {
			f.slots[s] = v
		}
		return nil
	}
	t, ok := v.(tupleVal)
	if !ok || len(t) != len(p.slots) {
		if !ok && len(p.slots) == 0 {
			return &Error{Pos: pos, Msg: fmt.Sprintf("expected (), got %s", kindName(v))}
		}
		return &Error{Pos: pos, Msg: fmt.Sprintf("expected a tuple of %d, got %s", len(p.slots), showArity(v))}
	}
	for i, s := range p.slots {
		if s >= 0 {
			f.slots[s] = t[i]
		}
	}
	return nil
}

func showArity(v value) string {
	if t, ok := v.(tupleVal); ok {
		return fmt.Sprintf("a tuple of %d", len(t))
	}
	return kindName(v)
}

func (n *setLitNode) eval(r *run, f *frame) (value, error) {
	if len(n.elems) == 0 {
		return theEmpty, nil
	}
	vals := make([]value, len(n.elems))
	allEvents, allPairs := true, true
	for i, e := range n.elems {
		v, err := e.eval(r, f)
		if err != nil {
			return nil, err
		}
		vals[i] = v
		_, isE := v.(eventVal)
		_, isP := v.(pairVal)
		allEvents = allEvents && isE
		allPairs = allPairs && isP
	}
	switch {
	case allEvents:
		es := make([]int, len(vals))
		for i, v := range vals {
			es[i] = int(v.(eventVal))
		}
		return r.mkSet(rel.SetOf(r.n, es...)), nil
	case allPairs:
		b := rel.NewBuilder(r.n)
		for _, v := range vals {
			p := v.(pairVal)
			b.Add(p[0], p[1])
		}
		return r.mkRel(b.Rel()), nil
	}
	return newValSet(vals...), nil
}

func (n *tupleNode) eval(r *run, f *frame) (value, error) {
	t := make(tupleVal, len(n.elems))
	for i, e := range n.elems {
		v, err := e.eval(r, f)
		if err != nil {
			return nil, err
		}
		t[i] = v
	}
	return t, nil
}

func (n *funNode) eval(_ *run, f *frame) (value, error) {
	return &closure{code: n.code, env: f}, nil
}

func (n *letNode) eval(r *run, f *frame) (value, error) { return evalVia(n, r, f) }

func (n *letNode) branch(r *run, f *frame) (node, error) {
	if err := r.bindAll(f, n.binds); err != nil {
		return nil, err
	}
	return n.body, nil
}

// bindAll evaluates the right-hand sides of a let, then binds them all:
// `let a = x and b = y` is simultaneous.
func (r *run) bindAll(f *frame, binds []bindCode) error {
	if len(binds) == 1 {
		v, err := binds[0].x.eval(r, f)
		if err != nil {
			return err
		}
		return bindPattern(f, binds[0].pat, v, binds[0].pos)
	}
	vals := make([]value, len(binds))
	for i, b := range binds {
		v, err := b.x.eval(r, f)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	for i, b := range binds {
		if err := bindPattern(f, b.pat, vals[i], b.pos); err != nil {
			return err
		}
	}
	return nil
}

func (n *letRecNode) eval(r *run, f *frame) (value, error) { return evalVia(n, r, f) }

func (n *letRecNode) branch(r *run, f *frame) (node, error) {
	if err := r.bindRec(f, n.rec); err != nil {
		return nil, err
	}
	return n.body, nil
}

// bindRec binds a let rec: the functions first, then the least fixpoint of
// the values, iterated from empty until nothing changes. As in herd7, each
// iteration evaluates the bindings in order, each seeing the values the
// ones before it just got: definitions that are not monotone, like the
// Linux-kernel model's matching of rcu_read_lock() with
// rcu_read_unlock(), depend on that order.
func (r *run) bindRec(f *frame, c *recCode) error {
	for i, s := range c.funSlots {
		f.slots[s] = &closure{code: c.funs[i], env: f}
	}
	if len(c.valSlots) == 0 {
		return nil
	}
	for _, s := range c.valSlots {
		f.slots[s] = theEmpty
	}
	for _, s := range c.invSlots {
		f.slots[s] = nil
	}
	for it := 0; ; it++ {
		if it == r.maxFixpointSteps() {
			return &Error{Pos: c.pos, Msg: "recursive definition does not converge"}
		}
		if err := r.step(c.pos); err != nil {
			return err
		}
		same := true
		for i, x := range c.vals {
			v, err := x.eval(r, f)
			if err != nil {
				return err
			}
			s := c.valSlots[i]
			if same && !equalValues(f.slots[s], v) {
				same = false
			}
			f.slots[s] = v
		}
		if same {
			return nil
		}
	}
}

func (n *ifNode) eval(r *run, f *frame) (value, error) { return evalVia(n, r, f) }

func (n *ifNode) branch(r *run, f *frame) (node, error) {
	c, err := n.cond.holds(r, f)
	if err != nil {
		return nil, err
	}
	if c {
		return n.x, nil
	}
	return n.y, nil
}

func (n *tryNode) eval(r *run, f *frame) (value, error) {
	switch x := n.x.(type) {
	case *inputNode, *localNode, *outerNode:
		// try NAME with ... (herd7's models default the fences an
		// architecture may lack): a name fails only when unbound, and
		// raw says so without making the error.
		if v := x.(slotRef).raw(r, f); v != nil {
			return v, nil
		}
		return n.y.eval(r, f)
	}
	depth := r.callDepth
	v, err := n.x.eval(r, f)
	if err != nil {
		r.callDepth = depth
		return n.y.eval(r, f)
	}
	return v, nil
}

func (n *matchTagNode) eval(r *run, f *frame) (value, error) { return evalVia(n, r, f) }

func (n *matchTagNode) branch(r *run, f *frame) (node, error) {
	v, err := n.x.eval(r, f)
	if err != nil {
		return nil, err
	}
	t, ok := v.(tagVal)
	if !ok {
		return nil, &Error{Pos: n.pos, Msg: fmt.Sprintf("match on tags applied to %s", kindName(v))}
	}
	for i, tag := range n.tags {
		if tag == string(t) {
			return n.bodies[i], nil
		}
	}
	if n.def != nil {
		return n.def, nil
	}
	return nil, &Error{Pos: n.pos, Msg: fmt.Sprintf("no clause matches '%s", string(t))}
}

func (n *matchSetNode) eval(r *run, f *frame) (value, error) { return evalVia(n, r, f) }

func (n *matchSetNode) branch(r *run, f *frame) (node, error) {
	v, err := n.x.eval(r, f)
	if err != nil {
		return nil, err
	}
	e, rest, ok, err := r.split(v, n.pos)
	if err != nil {
		return nil, err
	}
	if !ok {
		return n.empty, nil
	}
	if n.elem >= 0 {
		f.slots[n.elem] = e
	}
	if n.rest >= 0 {
		f.slots[n.rest] = rest
	}
	return n.nonEmpty, nil
}

// brancher is a node whose value is that of one of its parts, chosen
// (after binding names) by branch: let, if, match. The part is in tail
// position, where a call needs no frame of the host stack (see apply).
type brancher interface {
	node
	branch(r *run, f *frame) (node, error)
}

// evalVia evaluates a brancher: its chosen part.
func evalVia(n brancher, r *run, f *frame) (value, error) {
	b, err := n.branch(r, f)
	if err != nil {
		return nil, err
	}
	return b.eval(r, f)
}

// tailCall is a call in tail position, left for apply to make.
type tailCall struct {
	fn  *closure
	arg value
	pos Position
}

// evalTail evaluates n in tail position: through lets, ifs and matches,
// down to a call of a closure, which it returns instead of making.
func (r *run) evalTail(n node, f *frame) (value, *tailCall, error) {
	for {
		switch x := n.(type) {
		case brancher:
			b, err := x.branch(r, f)
			if err != nil {
				return nil, nil, err
			}
			n = b
		case *appNode:
			fn, err := x.fn.eval(r, f)
			if err != nil {
				return nil, nil, err
			}
			arg, err := x.arg.eval(r, f)
			if err != nil {
				return nil, nil, err
			}
			if c, ok := fn.(*closure); ok {
				return nil, &tailCall{fn: c, arg: arg, pos: x.pos}, nil
			}
			v, err := r.apply(fn, arg, x.pos)
			return v, nil, err
		default:
			v, err := n.eval(r, f)
			return v, nil, err
		}
	}
}
