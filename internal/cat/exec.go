package cat

import (
	"errors"
	"fmt"

	"github.com/musket-verify/musket/internal/rel"
)

// Statements run in continuation-passing style: exec runs a list of
// statements then calls k, so that `with x from S` can run the rest of
// the model once per element of S, and a failed check can end a branch by
// not calling k.

// stmtCode is a compiled statement.
type stmtCode interface{}

type (
	letCode struct {
		binds []bindCode
		memo  *memoInfo // nil unless the value depends on inputs only
	}
	letRecCode struct {
		rec  *recCode
		memo *memoInfo
	}
	checkCode struct {
		memo   *memoInfo // nil unless the test depends on inputs only
		kind   CheckKind
		negate bool
		test   TestKind
		x      node
		name   string
		pos    Position
	}
	withCode struct {
		slot int
		set  node
		pos  Position
	}
	ifCode struct {
		cond      condCode
		then, els []stmtCode
	}
	matchCode struct {
		x      node
		tags   []string
		bodies [][]stmtCode
		def    []stmtCode
		hasDef bool
		pos    Position
	}
	procDefCode struct {
		slot int
		code *procCode
	}
	callCode struct {
		proc node
		arg  node
		as   string
		pos  Position
	}
	forallCode struct {
		set    node
		code   *procCode
		pos    Position
		simple bool // the body neither branches (with) nor calls
	}
	// copyCode joins the branches of an if: each branch copies its binding
	// of a name to the slot the rest of the model reads.
	copyCode struct {
		from slotRef
		to   int
	}
)

// procCode is a compiled procedure (or forall body): its parameters are
// slots of a fresh frame.
type procCode struct {
	name   string
	nslots int
	params patSlots
	body   []stmtCode
}

type procVal struct {
	code *procCode
	env  *frame
}

// errStop ends a Check early when yield asks for no more outcomes.
var errStop = errors.New("stop")

type cont func() error

func (r *run) exec(f *frame, ss []stmtCode, k cont) error {
	for i, s := range ss {
		if err := r.stmtDone(); err != nil {
			return err
		}
		switch s := s.(type) {
		case *letCode:
			if s.memo != nil && r.memoLoad(s.memo, f) {
				continue
			}
			if err := r.bindAll(f, s.binds); err != nil {
				return err
			}
			if s.memo != nil {
				r.memoStore(s.memo, f)
			}
		case *letRecCode:
			if s.memo != nil && r.memoLoad(s.memo, f) {
				continue
			}
			if err := r.bindRec(f, s.rec); err != nil {
				return err
			}
			if s.memo != nil {
				r.memoStore(s.memo, f)
			}
		case *copyCode:
			f.slots[s.to] = s.from.raw(r, f)
		case *procDefCode:
			f.slots[s.slot] = &procVal{code: s.code, env: f}
		case *checkCode:
			ok, err := r.checkHolds(f, s)
			if err != nil {
				return err
			}
			switch s.kind {
			case Check, Assert:
				if !ok && (r.opts.Skip == nil || !r.opts.Skip(s.name)) {
					return r.reject(s.name)
				}
			case Flag:
				if ok {
					r.flags = append(r.flags, s.name)
				}
			case UndefinedUnless:
				if !ok {
					r.undef = append(r.undef, s.name)
				}
			}
		case *withCode:
			return r.execWith(f, s, ss[i+1:], k)
		case *ifCode:
			c, err := s.cond.holds(r, f)
			if err != nil {
				return err
			}
			branch := s.els
			if c {
				branch = s.then
			}
			return r.execThen(f, branch, ss[i+1:], k)
		case *matchCode:
			return r.execMatch(f, s, ss[i+1:], k)
		case *callCode:
			return r.execCall(f, s, ss[i+1:], k)
		case *forallCode:
			return r.execForall(f, s, ss[i+1:], k)
		}
	}
	return k()
}

// execMatch runs the clause of a match on tags that the value selects,
// then the statements after it, then k.
func (r *run) execMatch(f *frame, s *matchCode, rest []stmtCode, k cont) error {
	v, err := s.x.eval(r, f)
	if err != nil {
		return err
	}
	t, ok := v.(tagVal)
	if !ok {
		return &Error{Pos: s.pos, Msg: fmt.Sprintf("match on tags applied to %s", kindName(v))}
	}
	var branch []stmtCode
	found := false
	for j, tag := range s.tags {
		if tag == string(t) {
			branch, found = s.bodies[j], true
			break
		}
	}
	if !found {
		if !s.hasDef {
			return &Error{Pos: s.pos, Msg: fmt.Sprintf("no clause matches '%s", string(t))}
		}
		branch = s.def
	}
	return r.execThen(f, branch, rest, k)
}

// execCall runs a procedure's body in a fresh frame (its checks named by
// the call's `as`), then the statements after the call, then k.
func (r *run) execCall(f *frame, s *callCode, rest []stmtCode, k cont) error {
	pv, err := s.proc.eval(r, f)
	if err != nil {
		return err
	}
	p, ok := pv.(*procVal)
	if !ok {
		return &Error{Pos: s.pos, Msg: fmt.Sprintf("cannot call %s: not a procedure", kindName(pv))}
	}
	arg, err := s.arg.eval(r, f)
	if err != nil {
		return err
	}
	if r.callDepth >= maxCallDepth {
		return &Error{Pos: s.pos, Msg: "recursion too deep", Limit: true}
	}
	if err := r.step(s.pos); err != nil {
		return err
	}
	nf := &frame{slots: make([]value, p.code.nslots), up: p.env}
	if err := bindPattern(nf, p.code.params, arg, s.pos); err != nil {
		return err
	}
	saved := r.override
	if s.as != "" {
		r.override = s.as
	}
	r.callDepth++
	return r.exec(nf, p.code.body, func() error {
		r.callDepth--
		r.override = saved
		return r.exec(f, rest, k)
	})
}

// execForall runs the body once per element of the set, then the
// statements after it, then k; a failed check in the body ends the
// branch.
func (r *run) execForall(f *frame, s *forallCode, rest []stmtCode, k cont) error {
	v, err := s.set.eval(r, f)
	if err != nil {
		return err
	}
	elems, err := r.elements(v, s.pos)
	if err != nil {
		return err
	}
	if s.simple {
		// No branching in the body: a plain loop.
		for _, e := range elems {
			if err := r.step(s.pos); err != nil {
				return err
			}
			nf := &frame{slots: make([]value, s.code.nslots), up: f}
			if err := bindPattern(nf, s.code.params, e, s.pos); err != nil {
				return err
			}
			done := false
			if err := r.exec(nf, s.code.body, func() error { done = true; return nil }); err != nil || !done {
				return err // a failed check ended the branch
			}
		}
		return r.exec(f, rest, k)
	}
	var loop func(j int) error
	loop = func(j int) error {
		if j == len(elems) {
			return r.exec(f, rest, k)
		}
		if err := r.step(s.pos); err != nil {
			return err
		}
		nf := &frame{slots: make([]value, s.code.nslots), up: f}
		if err := bindPattern(nf, s.code.params, elems[j], s.pos); err != nil {
			return err
		}
		return r.exec(nf, s.code.body, func() error { return loop(j + 1) })
	}
	return loop(0)
}

// checkHolds evaluates the test of a check (negation included), from the
// memo when its inputs are unchanged.
func (r *run) checkHolds(f *frame, s *checkCode) (bool, error) {
	if s.memo != nil && r.memoLoad(s.memo, f) {
		return r.memo.entries[s.memo.id].holds, nil
	}
	v, err := s.x.eval(r, f)
	if err != nil {
		return false, err
	}
	ok, err := r.test(s.test, v, s.pos)
	if err != nil {
		return false, err
	}
	ok = ok != s.negate
	if s.memo != nil {
		r.memoStore(s.memo, f)
		r.memo.entries[s.memo.id].holds = ok
	}
	return ok, nil
}

// execThen runs branch, then the statements after it, then k.
func (r *run) execThen(f *frame, branch, rest []stmtCode, k cont) error {
	if len(rest) == 0 {
		return r.exec(f, branch, k)
	}
	return r.exec(f, branch, func() error { return r.exec(f, rest, k) })
}

// execWith runs the rest of the model once per element of the set.
func (r *run) execWith(f *frame, s *withCode, rest []stmtCode, k cont) error {
	v, err := s.set.eval(r, f)
	if err != nil {
		return err
	}
	elems, err := r.elements(v, s.pos)
	if err != nil {
		return err
	}
	nFlags, nUndef, override, depth := len(r.flags), len(r.undef), r.override, r.callDepth
	for i, e := range elems {
		if i > 0 {
			r.detachViews()
		}
		r.flags, r.undef, r.override, r.callDepth = r.flags[:nFlags], r.undef[:nUndef], override, depth
		if err := r.step(s.pos); err != nil {
			return err
		}
		if f == r.top {
			// Forget what the previous branch bound after this point, so
			// that Outcome.Rel never sees it. Memoised lets keep their
			// slots: their values are the same in every branch, and the
			// closures the memo keeps may read them.
			for j := s.slot + 1; j < len(f.slots); j++ {
				if !r.m.staticSlot[j] {
					f.slots[j] = nil
				}
			}
		}
		f.slots[s.slot] = e
		if err := r.exec(f, rest, k); err != nil {
			return err
		}
	}
	return nil
}

// reject ends the branch with a failed check.
func (r *run) reject(name string) error {
	if r.override != "" {
		name = r.override
	}
	if !r.yield(r.outcome(false, name)) {
		return errStop
	}
	return nil
}

// accept ends the branch with every check passed.
func (r *run) accept() error {
	if !r.yield(r.outcome(true, "")) {
		return errStop
	}
	return nil
}

// view is what an Outcome sees of the top-level slots: the live slots
// until the next branch changes them, a copy from then on.
type view struct{ slots []value }

// detachViews gives the outcomes already reported their own copy of the
// top-level slots, before a new branch changes them.
func (r *run) detachViews() {
	if len(r.views) == 0 {
		return
	}
	snap := append([]value(nil), r.top.slots...)
	for _, v := range r.views {
		v.slots = snap
	}
	r.views = r.views[:0]
}

func (r *run) outcome(accepted bool, failed string) Outcome {
	o := Outcome{Accepted: accepted, Failed: failed}
	if r.opts.Transient {
		// Read during yield only (CheckOptions.Transient): the live
		// slots and flags are this branch's until yield returns.
		if len(r.flags) > 0 {
			o.Flags = r.flags[:len(r.flags):len(r.flags)]
		}
		if len(r.undef) > 0 {
			o.Undefined = r.undef[:len(r.undef):len(r.undef)]
		}
		if r.liveRel == nil {
			r.liveRel = func(name string) (rel.Rel, bool) { return r.relOf(r.top.slots, name) }
		}
		o.Rel = r.liveRel
		return o
	}
	v := &view{slots: r.top.slots}
	r.views = append(r.views, v)
	if len(r.flags) > 0 {
		o.Flags = append([]string(nil), r.flags...)
	}
	if len(r.undef) > 0 {
		o.Undefined = append([]string(nil), r.undef...)
	}
	o.Rel = func(name string) (rel.Rel, bool) { return r.relOf(v.slots, name) }
	return o
}

// relOf is Outcome.Rel on a snapshot of the top-level slots.
func (r *run) relOf(snap []value, name string) (rel.Rel, bool) {
	var v value
	if s, ok := r.m.topNames[name]; ok {
		v = snap[s]
	}
	if v == nil {
		if i, ok := r.m.inputIndex[name]; ok {
			v = r.input(i)
		} else {
			v = r.lookupInput(name)
		}
	}
	switch v := v.(type) {
	case relVal:
		return v.r, true
	case pairVal, emptyVal, univVal:
		x, _ := r.asRel(v)
		return x, true
	case setVal:
		return rel.Identity(v.s), true
	case eventVal:
		s, _ := r.asSet(v)
		return rel.Identity(s), true
	}
	return rel.Rel{}, false
}

// Check evaluates the model on x and calls yield with the outcome of each
// branch (one branch unless the model has `with x from S`), stopping early
// when yield returns false. The error is an evaluation error (an unbound
// name, a type error, ...) with its position in the model.
func (m *Model) Check(x *Execution, opts CheckOptions, yield func(Outcome) bool) error {
	mm := m.getMemo(x.N)
	defer m.memos.Put(mm)
	var r *run
	if opts.Transient {
		// The memo serves one Check at a time, and so does its spare run:
		// no outcome of the last Check is read any more.
		if mm.spare == nil {
			mm.spare = m.newRun()
		}
		r = mm.spare
	} else {
		r = m.newRun()
	}
	r.start(mm, x, opts, yield)
	if r.acceptK == nil {
		r.acceptK = r.accept
	}
	err := r.exec(r.top, m.prog, r.acceptK)
	if opts.Transient {
		r.yield, r.x = nil, nil // the spare keeps no execution alive
	}
	if err == errStop {
		return nil
	}
	return err
}

// newRun makes a run of m: one allocation for the run and its top frame,
// one for the top slots and the inputs.
func (m *Model) newRun() *run {
	k := m.topSlots
	buf := make([]value, k+len(m.inputNames))
	r := &run{m: m, inputs: buf[k:]}
	r.topFrame.slots = buf[:k:k]
	r.top = &r.topFrame
	return r
}

// start readies r for a Check of x, as newRun made it: every slot and
// input unbound, every count at zero. A reused run keeps the storage of
// its slots, inputs, flags and outcome function.
func (r *run) start(mm *memo, x *Execution, opts CheckOptions, yield func(Outcome) bool) {
	clear(r.topFrame.slots)
	clear(r.inputs)
	*r = run{
		m:        r.m,
		x:        x,
		n:        x.N,
		opts:     opts,
		yield:    yield,
		inputs:   r.inputs,
		topFrame: r.topFrame,
		memo:     mm,
		flags:    r.flags[:0],
		undef:    r.undef[:0],
		liveRel:  r.liveRel,
		acceptK:  r.acceptK,
	}
	r.top = &r.topFrame
	r.stepLimit = maxSteps
	if opts.stepLimit > 0 {
		r.stepLimit = opts.stepLimit
	}
}
