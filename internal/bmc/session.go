package bmc

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"sort"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/smt"
)

// Sessions: the hooks of Porthos (package porthos). A Session is one Z3
// context and solver in which several programs, each under a model, are
// encoded side by side and related, and which is asked many questions
// (incremental solving: assumptions, and constraints added between
// checks). A program is encoded under its model either as usual (its
// executions consistent with the model) or in inconsistent mode (its
// executions violate the model: see inconsistent.go and leastfix.go).

// Mode says whether an encoded execution satisfies its model or violates
// it.
type Mode int

// The modes of Session.Encode.
const (
	Consistent Mode = iota
	Inconsistent
)

// ErrTimeout is the error of a check that the context's deadline
// interrupted.
var ErrTimeout = errTimeout

// Session is one Z3 context and solver shared by several encodings.
type Session struct {
	ctx *smt.Context
	sol *smt.Solver
	f   *fb
	// Queries and Solve count the checks and the time spent in them.
	Queries int
	Solve   time.Duration
	// lazy: the solver takes the acyclicity theory (lazyacyclic.go);
	// lazyEnc are the encodings that gave it relations.
	lazy    bool
	lazyEnc []*encoding
}

// NewSession makes an empty session whose consistent encodings decide
// acyclicity lazily (lazyacyclic.go: Porthos' Table III, every cell
// answered in half the CPU time where clocks left three at the time
// limit), unless MUSKET_ACYCLICITY=eager; Close releases it. A query
// the SMT solver gives up on fails with ErrGaveUp: the caller may start
// again with NewEagerSession.
func NewSession() *Session { return newSession("", Acyclicity != "eager") }

// NewEagerSession is NewSession with integer clocks for acyclicity.
func NewEagerSession() *Session { return newSession("", false) }

// NewSessionFor makes an empty session whose solver is specialised for an
// SMT-LIB logic ("" for Z3's own choice), with clocks for acyclicity
// unless MUSKET_ACYCLICITY=lazy.
func NewSessionFor(logic string) *Session { return newSession(logic, Acyclicity == "lazy") }

// ErrGaveUp is the error of a check that Z3 answered unknown without
// being interrupted (it is wrapped in the error with Z3's reason).
var ErrGaveUp = errGaveUp

// TryNewSession is NewSession (NewEagerSession when eager) returning
// the error of a Z3 that cannot make a context (out of memory under a
// small -memory: it matches memlimit.ErrExceeded) instead of panicking.
func TryNewSession(eager bool) (*Session, error) {
	zc, err := smt.TryNewArenaContext()
	if err != nil {
		return nil, err // "smt: NewContext: out of memory: ..."
	}
	return sessionIn(zc, "", !eager && Acyclicity != "eager"), nil
}

func newSession(logic string, lazy bool) *Session {
	return sessionIn(smt.NewArenaContext(), logic, lazy)
}

func sessionIn(zc *smt.Context, logic string, lazy bool) *Session {
	var sol *smt.Solver
	switch {
	case lazy:
		sol = zc.NewSimpleSolver()
	case logic != "":
		sol = zc.NewSolverFor(logic)
	default:
		sol = zc.NewSolver()
	}
	return &Session{ctx: zc, sol: sol, f: newFB(zc, sol), lazy: lazy}
}

// Close releases the Z3 context.
func (s *Session) Close() { s.ctx.Close() }

// Stats is the size of everything encoded in the session.
func (s *Session) Stats() Stats { return s.f.stats }

// recoverSMT turns the smt package's panics into errors, and the
// formula builder's deadline panic into errTimeout.
func recoverSMT(err *error) {
	if r := recover(); r != nil {
		*err = panicError(r)
	}
}

// panicError is the error of a panic of the encoding: errTimeout when the
// formula builder saw the deadline pass, the smt package's errors; any
// other panic is a bug and goes on.
func panicError(r any) error {
	if r == errTimeout {
		return errTimeout
	}
	if ze, ok := r.(*smt.Error); ok {
		return fmt.Errorf("smt engine: %w", ze)
	}
	panic(r)
}

// Encoded is one program encoded in a session.
type Encoded struct {
	s *Session
	e *encoding
	// Notes are remarks on the encoding of inconsistency (recursive
	// definitions left to the relaxed encoding).
	Notes []string
	// Unrolled says the test had loops, which Encode unrolled to the
	// bound (paths needing more iterations are discarded).
	Unrolled bool
}

// Encode adds to the session the control and data flow of t and the
// model m, consistent or inconsistent. Tests with loops are unrolled as
// Run does (opts.Bound, cut paths discarded); programs that come
// unrolled keep their cut paths, stopped at the bound.
func (s *Session) Encode(ctx context.Context, t *spec.Test, m *cat.Model, mode Mode, opts Options) (x *Encoded, err error) {
	defer recoverSMT(&err)
	if m.Syntax() == nil {
		return nil, fmt.Errorf("model %s has no syntax to encode", m.Path())
	}
	x = &Encoded{s: s}
	t, x.Unrolled, err = compile.UnrollLoops(t, opts.Bound)
	if err != nil {
		return nil, err
	}
	if x.Unrolled {
		opts.discardCut = true
	}
	e := &encoding{f: s.f, ctx: s.ctx, sol: s.sol, t: t, m: m, opts: opts, lazy: s.lazy && !opts.NoAnalysis}
	if mode == Inconsistent {
		e.incons = &inconsistency{}
	}
	if err := e.buildBounded(ctx); err != nil {
		return nil, err
	}
	if len(e.lazyGraphs) > 0 {
		s.lazyEnc = append(s.lazyEnc, e)
	}
	x.e = e
	if e.incons == nil {
		// An execution the model allows that divides by zero is an
		// error of the program (divzero.go).
		if err := e.divisionByZero(func(as ...smt.Term) (smt.Result, error) {
			return s.query(ctx, as...)
		}); err != nil {
			return nil, err
		}
	}
	if e.incons != nil {
		s.f.assert(s.f.or(e.incons.violations...))
		x.Notes = e.incons.notes
	}
	if err := e.settledCheck(func(as ...smt.Term) (smt.Result, error) { return s.query(ctx, as...) }); err != nil {
		return nil, err
	}
	return x, nil
}

// AlsoInconsistent evaluates a second model on the executions of x,
// which must violate it (Porthos when both models run the same program:
// one execution, consistent with one model and not with the other).
func (x *Encoded) AlsoInconsistent(m *cat.Model, variants map[string]bool) (err error) {
	defer recoverSMT(&err)
	if m.Syntax() == nil {
		return fmt.Errorf("model %s has no syntax to encode", m.Path())
	}
	e := *x.e
	e.m = m
	e.opts.Variants = variants
	e.flags = nil
	e.unsettled = nil
	e.incons = &inconsistency{}
	if err := e.model(); err != nil {
		return err
	}
	x.s.f.assert(x.s.f.or(e.incons.violations...))
	x.Notes = append(x.Notes, e.incons.notes...)
	return e.settledCheck(func(as ...smt.Term) (smt.Result, error) {
		return x.s.query(context.Background(), as...)
	})
}

// Check asks the solver whether everything asserted so far, and the
// assumptions, can hold together. An interrupted check is ErrTimeout.
func (s *Session) Check(ctx context.Context, assumptions ...smt.Term) (sat bool, err error) {
	defer recoverSMT(&err)
	r, err := s.query(ctx, assumptions...)
	return r == smt.Sat, err
}

// query is one check of the solver, counted; Unknown is an error.
func (s *Session) query(ctx context.Context, assumptions ...smt.Term) (smt.Result, error) {
	start := time.Now()
	r := s.sol.CheckContext(ctx, assumptions...)
	for r == smt.Sat && s.checkLazy() {
		r = s.sol.CheckContext(ctx, assumptions...)
	}
	s.Solve += time.Since(start)
	s.Queries++
	if r != smt.Unknown {
		return r, nil
	}
	if ctx.Err() != nil {
		return r, ErrTimeout
	}
	return r, fmt.Errorf("smt engine: solver gave up: %s%w", s.sol.ReasonUnknown(), errGaveUp)
}

// Observed is the refs a state of x gives values to.
func (x *Encoded) Observed() []spec.Ref { return x.e.obs }

// Bounded tells whether some path of x was cut by the loop bound.
func (x *Encoded) Bounded() bool { return x.e.p.hasCut }

// StateIs is the final state of x being st, one equation per observed
// ref (as assumptions for Check).
func (x *Encoded) StateIs(st result.State) (eqs []smt.Term, err error) {
	defer recoverSMT(&err)
	if len(st) != len(x.e.obsTerms) {
		return nil, fmt.Errorf("state of %d values for %d observed refs", len(st), len(x.e.obsTerms))
	}
	c := x.s.ctx
	for i, t := range x.e.obsTerms {
		eqs = append(eqs, c.Eq(t, c.IntVal(x.e.p.enc(st[i]))))
	}
	return eqs, nil
}

// Block asserts that the final state of x is not st.
func (x *Encoded) Block(st result.State) (err error) {
	defer recoverSMT(&err)
	eqs, err := x.StateIs(st)
	if err != nil {
		return err
	}
	var diff []B
	for _, q := range eqs {
		diff = append(diff, x.s.f.not(B{t: q}))
	}
	x.s.f.assert(x.s.f.or(diff...))
	return nil
}

// Read gives the final state and the execution of x in the solver's
// model (after a satisfiable Check).
func (x *Encoded) Read() (st result.State, w *result.Execution, err error) {
	defer recoverSMT(&err)
	md := x.s.sol.Model()
	st = x.e.state(md)
	return st, x.e.witness(md, st), nil
}

// EventKey names a memory event of an encoded program by what it comes
// from: thread, index of the instruction in the thread's code and
// location; initial writes have thread and index -1.
type EventKey struct {
	Thread, Node int
	Loc          string
}

func (k EventKey) String() string {
	if k.Thread < 0 {
		return "initial write of " + k.Loc
	}
	return fmt.Sprintf("thread %d instruction %d (%s)", k.Thread, k.Node, k.Loc)
}

func (x *Encoded) memEvents() map[EventKey]*evt {
	out := map[EventKey]*evt{}
	for _, ev := range x.e.p.events {
		if ev.kind != event.Read && ev.kind != event.Write {
			continue
		}
		out[EventKey{Thread: ev.thread, Node: ev.node, Loc: ev.loc}] = ev
	}
	return out
}

// Equate asserts phi_EQ of "BMC with Memory Models as Modules" (FMCAD 2018): the executions of a and b (in the
// same session) are one execution of their common source program. pi maps
// each memory event of a to its counterpart in b, one to one; the
// counterparts are executed together and have the same rf and co.
func (s *Session) Equate(a, b *Encoded, pi func(EventKey) (EventKey, bool)) (err error) {
	defer recoverSMT(&err)
	if a.s != s || b.s != s {
		return fmt.Errorf("equate: encodings of another session")
	}
	f := s.f
	am, bm := a.memEvents(), b.memEvents()
	if len(am) != len(bm) {
		return fmt.Errorf("equate: %d and %d memory events", len(am), len(bm))
	}
	keys := make([]EventKey, 0, len(am))
	for k := range am {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		x, y := keys[i], keys[j]
		if x.Thread != y.Thread {
			return x.Thread < y.Thread
		}
		if x.Node != y.Node {
			return x.Node < y.Node
		}
		return x.Loc < y.Loc
	})
	to := map[int]int{} // a's event id -> b's
	hit := map[int]bool{}
	for _, k := range keys {
		ea := am[k]
		kb, ok := pi(k)
		if k.Thread < 0 {
			kb, ok = k, true
		}
		eb, found := bm[kb]
		if !ok || !found {
			return fmt.Errorf("equate: %s has no counterpart", k)
		}
		if eb.kind != ea.kind || hit[eb.id] {
			return fmt.Errorf("equate: %s and %s do not correspond", k, kb)
		}
		hit[eb.id] = true
		to[ea.id] = eb.id
		f.assert(f.iff(ea.exec, eb.exec))
	}
	// rf: the variables imply the execution of both events.
	seen := map[[2]int]bool{}
	for _, k := range sortedPairs(a.e.rf) {
		kb := [2]int{to[k[0]], to[k[1]]}
		vb, ok := b.e.rf[kb]
		if !ok {
			vb = bFalse
		}
		seen[kb] = true
		f.assert(f.iff(a.e.rf[k], vb))
	}
	for _, k := range sortedPairs(b.e.rf) {
		if !seen[k] {
			f.assert(f.not(b.e.rf[k]))
		}
	}
	// co, between executed writes.
	abs := func(x *Encoded, u, v int) B {
		c, _ := x.e.co.get(u, v)
		ev := x.e.p.events
		return f.and(ev[u].exec, ev[v].exec, c)
	}
	locs := make([]string, 0, len(a.e.writes))
	for l := range a.e.writes {
		locs = append(locs, l)
	}
	sort.Strings(locs)
	for _, l := range locs {
		ws := a.e.writes[l]
		for i, u := range ws {
			for _, v := range ws[i+1:] {
				f.assert(f.iff(abs(a, u, v), abs(b, to[u], to[v])))
			}
		}
	}
	return nil
}

func sortedPairs(m map[[2]int]B) [][2]int {
	out := make([][2]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1]
	})
	return out
}

// checkLazy re-checks the model of a satisfiable query for a cycle the
// acyclicity theory let through (encoding.checkLazy).
func (s *Session) checkLazy() bool {
	if len(s.lazyEnc) == 0 {
		return false
	}
	md := s.sol.Model()
	found := false
	for _, e := range s.lazyEnc {
		if e.checkLazy(md) {
			found = true
		}
	}
	return found
}
