package bmc

import "github.com/musket-verify/musket/internal/cat"

// Lazy bindings. A top-level let is evaluated at its first use, not where
// it stands: a model's definitions that no check reaches on a given test
// cost nothing. The Linux-kernel model's race definitions (xbstar, vis,
// ww-vis, wr-vis, rw-xbstar: closures over hb, pb and rb) are the
// example: on a test without plain accesses pre-race is empty, the
// checks and flags that use them are decided by an empty left operand
// (see shortLeft), and they are never built — on the 19-thread RCU
// tests, four fifths of the formulas and of the encoding time.

// So that a model means the same under both engines, a binding no check
// used is still evaluated at the end, in shape mode (the formula builder
// folds the constants but builds no compound formula, and asserts
// nothing): its errors, and its unsupported constructs, are those of the
// eager evaluation, at a fraction of its cost.

// lazyV is a let binding not yet evaluated.
type lazyV struct {
	x    cat.Expr
	en   *env
	pat  cat.Pattern
	done bool
	// compiled: a check compiled it into the theory (caat.go).
	compiled bool
	v        value
	err      error
}

// lateError is the error of a lazy binding, given at its first use: it
// belongs to the binding, so that a try around the use does not catch it
// (herd7 would have stopped at the binding).
type lateError struct{ err error }

func (e *lateError) Error() string { return e.err.Error() }
func (e *lateError) Unwrap() error { return e.err }

// force evaluates a lazy binding once.
func (ev *evaluator) force(l *lazyV) (value, error) {
	if !l.done {
		l.done = true
		// A binding first used in a let rec's shape pass (letrec.go)
		// is evaluated for real: the value is for every later use.
		was := ev.f.shape
		ev.f.shape = was && ev.shapePass == 0
		v, err := ev.expr(l.x, l.en)
		shape := ev.f.shape
		ev.f.shape = was
		if err != nil {
			l.err = &lateError{err: err}
		} else if shape {
			l.v = v
		} else {
			l.v = ev.named(l.pat, v)
		}
	}
	return l.v, l.err
}

// lazyOK tells whether a top-level binding may be evaluated at its first
// use: a single name bound to a value (functions are values already).
func (ev *evaluator) lazyOK(b *cat.Binding) bool {
	if ev.e.opts.NoAnalysis || b.Pat.Tuple {
		return false
	}
	_, fun := b.Value.(*cat.FunExpr)
	return !fun
}

// shortLeft answers a binary operator whose left operand is empty before
// its right operand is evaluated: intersection, difference, sequence and
// product of an empty value are empty whatever the right one is.
func (ev *evaluator) shortLeft(op cat.Op, a value) (value, bool) {
	switch op {
	case cat.OpInter, cat.OpDiff, cat.OpSeq, cat.OpCross:
	default:
		return nil, false
	}
	switch a := a.(type) {
	case emptyV:
		return emptyV{}, true
	case *Rel:
		if a.isEmpty() && op != cat.OpCross {
			return newRel(ev.o.n()), true
		}
	case *Set:
		if len(a.m) > 0 {
			return nil, false
		}
		if op == cat.OpInter || op == cat.OpDiff {
			return newSet(), true
		}
		return newRel(ev.o.n()), true
	}
	return nil, false
}

// checkUnused evaluates, in shape mode, the lazy bindings no check used.
func (ev *evaluator) checkUnused() error {
	ev.f.shape = true
	defer func() { ev.f.shape = false }()
	for _, l := range ev.lazies {
		if l.done || l.compiled {
			continue
		}
		if _, err := ev.force(l); err != nil {
			return err
		}
	}
	for _, g := range ev.recGroups {
		if g.done || g.compiled {
			continue
		}
		if _, err := ev.forceRec(&lazyRecV{g: g}); err != nil {
			return err
		}
	}
	return nil
}
