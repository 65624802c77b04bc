package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/smt"
)

// Recursive definitions that are not monotone, computed as herd7 computes
// every let rec: by iteration from the empty values, each pass evaluating
// the bindings in order (each sees the values the ones before it just
// got), until a pass changes nothing.
//
// The relaxed encoding of letRec (a variable per may-pair, equivalent to
// the definition: any fixpoint) is exact for the least fixpoint only when
// the definition is monotone. The Linux-kernel bell's matching of
// rcu_read_lock with rcu_read_unlock is not (Rcu-lock \ domain(matched)):
// it has other fixpoints, which leave locks unmatched. Such a definition
// is unrolled here: the passes are evaluated symbolically, each on the
// formulas of the one before. The constants fold, so when the events and
// their tags do not depend on the execution the iteration is that of the
// explicit engine and stops where it does. Otherwise it runs as many
// passes as the definition has may-pairs (and two more), and the formula
// saying that the last pass changed nothing is kept as an obligation:
// Run asks whether an execution breaks it, and answers with a limit
// (never a verdict) if one does.

// unsettled is a recursive definition whose iteration may go on after the
// passes encoded: b holds in the executions where the last pass changed
// something.
type unsettled struct {
	b      B
	at     cat.Position
	passes int
}

// monotoneIn tells whether x is monotone in the names: each occurs only
// under operators that preserve inclusion (not right of \, not under ~,
// not as the argument of a function other than domain and range). In
// doubt it answers false, and the definition is iterated.
func monotoneIn(x cat.Expr, names map[string]bool) bool {
	return !occursBadly(x, names, false)
}

// occursBadly tells whether a name occurs in x at a position that may
// reverse inclusion (neg says x itself is at a reversing position).
func occursBadly(x cat.Expr, names map[string]bool, neg bool) bool {
	switch x := x.(type) {
	case *cat.Ident:
		return neg && names[x.Name]
	case *cat.EmptyLit, *cat.UniverseLit, *cat.TagLit:
		return false
	case *cat.SetLit:
		return anyBadly(x.Elems, names, neg)
	case *cat.TupleLit:
		return anyBadly(x.Elems, names, neg)
	case *cat.UnaryExpr:
		return occursBadly(x.X, names, neg != (x.Op == cat.OpCompl))
	case *cat.BinaryExpr:
		return occursBadly(x.X, names, neg) || occursBadly(x.Y, names, neg != (x.Op == cat.OpDiff))
	case *cat.AppExpr:
		if id, ok := x.Fun.(*cat.Ident); ok && (id.Name == "domain" || id.Name == "range") && !names[id.Name] {
			return occursBadly(x.Arg, names, neg)
		}
		return mentionsAny(x, names)
	case *cat.IfExpr:
		return occursBadly(x.Then, names, neg) || occursBadly(x.Else, names, neg)
	}
	return mentionsAny(x, names)
}

func anyBadly(xs []cat.Expr, names map[string]bool, neg bool) bool {
	for _, x := range xs {
		if occursBadly(x, names, neg) {
			return true
		}
	}
	return false
}

// mentionsAny tells whether x may depend on the names (true when in
// doubt).
func mentionsAny(x cat.Expr, names map[string]bool) bool {
	switch x := x.(type) {
	case *cat.Ident:
		return names[x.Name]
	case *cat.EmptyLit, *cat.UniverseLit, *cat.TagLit:
		return false
	case *cat.SetLit:
		return mentionsOneOf(x.Elems, names)
	case *cat.TupleLit:
		return mentionsOneOf(x.Elems, names)
	case *cat.UnaryExpr:
		return mentionsAny(x.X, names)
	case *cat.BinaryExpr:
		return mentionsAny(x.X, names) || mentionsAny(x.Y, names)
	case *cat.AppExpr:
		return mentionsAny(x.Fun, names) || mentionsAny(x.Arg, names)
	case *cat.TryExpr:
		return mentionsAny(x.X, names) || mentionsAny(x.Y, names)
	case *cat.IfExpr:
		return mentionsAny(x.Then, names) || mentionsAny(x.Else, names)
	}
	return true
}

func mentionsOneOf(xs []cat.Expr, names map[string]bool) bool {
	for _, x := range xs {
		if mentionsAny(x, names) {
			return true
		}
	}
	return false
}

// recSlot is one value binding of a let rec: node is its entry in the
// environment of the definitions.
type recSlot struct {
	node *env
	b    *cat.Binding
}

// monotoneGroup tells whether every value binding of a let rec is
// monotone in the names of the group (functions of the group count as
// names: a call to one is not known to be monotone).
func monotoneGroup(binds []*cat.Binding) bool {
	names := map[string]bool{}
	for _, b := range binds {
		for _, n := range b.Pat.Names {
			names[n] = true
		}
	}
	for _, b := range binds {
		if _, fun := b.Value.(*cat.FunExpr); fun {
			continue
		}
		if !monotoneIn(b.Value, names) {
			return false
		}
	}
	return true
}

// kleene binds the values of a let rec by herd7's iteration. shapes are
// the may-sets of the values (letRec's over-approximation of every pass):
// their sizes bound the passes encoded.
func (ev *evaluator) kleene(vals []recSlot, shapes []value, recEnv *env, pos cat.Position) error {
	passes := 2
	for _, s := range shapes {
		passes += shapeSize(s)
	}
	prev := make([]value, len(vals))
	for i, s := range vals {
		s.node.v = emptyV{}
		prev[i] = emptyV{}
	}
	for pass := 1; ; pass++ {
		cur := make([]value, len(vals))
		for i, s := range vals {
			v, err := ev.expr(s.b.Value, recEnv)
			if err != nil {
				return err
			}
			s.node.v = v
			cur[i] = v
		}
		var same []B
		for i := range vals {
			b, err := ev.sameValue(prev[i], cur[i], pos)
			if err != nil {
				return err
			}
			same = append(same, b)
		}
		settled := ev.f.and(same...)
		if settled.isTrue() {
			return nil
		}
		if pass >= passes {
			if settled.isFalse() {
				return errf(pos, "recursive definition does not converge")
			}
			if ev.f.shape {
				// Only checking a binding no check used (lazy.go).
				return nil
			}
			ev.e.unsettled = append(ev.e.unsettled, unsettled{b: ev.f.not(settled), at: pos, passes: pass})
			return nil
		}
		prev = cur
	}
}

// shapeSize is the number of may-elements of a shape.
func shapeSize(v value) int {
	switch s := v.(type) {
	case *Set:
		return len(s.m)
	case *Rel:
		may, _ := s.size()
		return may
	}
	return 0
}

// sameValue is the formula saying that two values of a recursive binding
// (sets or relations) have the same executed elements.
func (ev *evaluator) sameValue(a, b value, pos cat.Position) (B, error) {
	f, o := ev.f, ev.o
	if isSetLike(a) && isSetLike(b) {
		x, _ := ev.asSet(a)
		y, _ := ev.asSet(b)
		var out []B
		for _, k := range unionKeys(x.m, y.m) {
			out = append(out, f.implies(o.exec[k], sameB(f, entry(x.m, k), entry(y.m, k))))
		}
		return f.and(out...), nil
	}
	x, ok1 := ev.asRel(a)
	y, ok2 := ev.asRel(b)
	if !ok1 || !ok2 {
		return bFalse, unsupported(pos, "recursive definition of a %s", kindName(b))
	}
	var out []B
	for i := 0; i < o.n(); i++ {
		for _, j := range unionKeys(x.rows[i], y.rows[i]) {
			xb, _ := x.get(i, j)
			yb, _ := y.get(i, j)
			out = append(out, f.implies(f.and(o.exec[i], o.exec[j]), sameB(f, xb, yb)))
		}
	}
	return f.and(out...), nil
}

// isSetLike tells whether v is a set of events (or empty, which is both).
func isSetLike(v value) bool {
	switch v.(type) {
	case *Set, eventV, emptyV:
		return true
	}
	return false
}

// sameB is a ⇔ b, true at once when both are the same constant or term.
func sameB(f *fb, a, b B) B {
	if a.k == b.k && (a.k != 0 || a.t.Equal(b.t)) {
		return bTrue
	}
	return f.iff(a, b)
}

// entry is m[k], false when absent.
func entry(m map[int]B, k int) B {
	if b, ok := m[k]; ok {
		return b
	}
	return bFalse
}

func unionKeys(a, b map[int]B) []int {
	m := map[int]B{}
	for k := range a {
		m[k] = bTrue
	}
	for k := range b {
		m[k] = bTrue
	}
	return sortedKeys(m)
}

// settledCheck asks whether an execution of the encoding leaves a
// recursive definition unsettled after its passes: a limit of the engine,
// never a verdict.
func (e *encoding) settledCheck(check func(...smt.Term) (smt.Result, error)) error {
	for _, u := range e.unsettled {
		r, err := check(e.f.term(u.b))
		if err != nil {
			return err
		}
		if r == smt.Sat {
			return result.Limit(fmt.Sprintf("%s: recursive definition not settled after %d iterations (herd7 iterates until nothing changes)", u.at, u.passes))
		}
	}
	return nil
}
