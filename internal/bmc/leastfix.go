package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/smt"
)

// Exact least fixpoints of recursive relations, for the inconsistency of
// an execution ("BMC with Memory
// Models as Modules", FMCAD 2018, Section IV, "Encoding Least Fixpoints").
//
// letRec gives each may-pair p of a recursive relation r a variable r_p
// equivalent to r's definition F applied to the variables: the relaxed
// encoding, any fixpoint. In inconsistent mode each pair also gets an
// integer rank Φ_p, the step of the Kleene iteration at which it enters r,
// and
//
//	r_p ⇒ p ∈ F(r_<Φ_p)
//
// where r_<t keeps, of every relation q of the let rec, the pairs with
// q ∧ Φ_q < t. Every pair of r then has a well-founded derivation from the
// non-recursive relations, so r is within the least fixpoint; being a
// fixpoint, it contains it: r is exactly the least fixpoint. The ranks of
// the Kleene iteration satisfy the constraints, so no execution is lost.
//
// p ∈ F(r_<t) is built for the one pair p by walking F's syntax: union,
// intersection, difference (the group's names on its left only, as CAT's
// monotonicity asks), sequence (over the middle events the may-pairs
// allow), inverse and ?. Sub-expressions that do not name the group are
// evaluated as usual. Other shapes (a closure or a function applied to a
// recursive relation, recursive sets) keep the relaxed encoding, which is
// sound for Porthos (the oracle may propose more candidate states, each
// checked under the source model); the encoding's notes say so.

// lfp builds the rank constraints of one let rec.
type lfp struct {
	ev    *evaluator
	en    *env // the definitions' environment: the group's variables bound
	recs  map[string]*Rel
	ranks map[string]map[[2]int]smt.Term
	vals  map[cat.Expr]*Rel // values (for the group's names: may-shapes) of sub-expressions
	memo  map[derivKey]B
}

type derivKey struct {
	x    cat.Expr
	a, b int
}

// errRelaxed says a definition is outside what the rank encoding handles.
type errRelaxed struct{ what string }

func (e *errRelaxed) Error() string { return e.what }

// leastFixpoint adds the rank constraints of the value bindings of a let
// rec whose variables letRec has bound in recEnv (down to en).
func (ev *evaluator) leastFixpoint(binds []*cat.Binding, recEnv, en *env, pos cat.Position) error {
	l := &lfp{ev: ev, en: recEnv, recs: map[string]*Rel{}, ranks: map[string]map[[2]int]smt.Term{}, vals: map[cat.Expr]*Rel{}}
	var defs []*cat.Binding
	for _, b := range binds {
		if _, ok := b.Value.(*cat.FunExpr); ok {
			continue
		}
		name := b.Pat.Names[0]
		v, _ := recEnv.lookup(name)
		switch v := v.(type) {
		case *Rel:
			l.recs[name] = v
		case emptyV:
			l.recs[name] = newRel(ev.o.n())
		default:
			ev.e.incons.notes = append(ev.e.incons.notes, fmt.Sprintf("%s: let rec of %s: %s, relaxed (any fixpoint) encoding", pos, name, kindName(v)))
			return nil
		}
		defs = append(defs, b)
	}
	if len(defs) == 0 {
		return nil
	}
	for name, r := range l.recs {
		rk := map[[2]int]smt.Term{}
		r.each(func(i, j int, _ B) { rk[[2]int{i, j}] = ev.f.intVar(fmt.Sprintf("rank_%s_%d_%d", name, i, j)) })
		l.ranks[name] = rk
	}
	var cons []B
	for _, b := range defs {
		name := b.Pat.Names[0]
		var err error
		l.recs[name].each(func(i, j int, x B) {
			if err != nil {
				return
			}
			l.memo = map[derivKey]B{}
			var d B
			d, err = l.derive(b.Value, i, j, l.ranks[name][[2]int{i, j}])
			cons = append(cons, ev.f.implies(x, d))
		})
		if err != nil {
			var r *errRelaxed
			if asRelaxed(err, &r) {
				ev.e.incons.notes = append(ev.e.incons.notes, fmt.Sprintf("%s: let rec: %s, relaxed (any fixpoint) encoding", pos, r.what))
				return nil
			}
			return err
		}
	}
	for _, c := range cons {
		ev.f.assert(c)
	}
	return nil
}

func asRelaxed(err error, out **errRelaxed) bool {
	r, ok := err.(*errRelaxed)
	if ok {
		*out = r
	}
	return ok
}

// mentions tells whether x may depend on the group's names (true when in
// doubt).
func (l *lfp) mentions(x cat.Expr) bool {
	switch x := x.(type) {
	case *cat.Ident:
		_, ok := l.recs[x.Name]
		return ok
	case *cat.EmptyLit, *cat.UniverseLit, *cat.TagLit:
		return false
	case *cat.SetLit:
		return l.anyMentions(x.Elems)
	case *cat.TupleLit:
		return l.anyMentions(x.Elems)
	case *cat.UnaryExpr:
		return l.mentions(x.X)
	case *cat.BinaryExpr:
		return l.mentions(x.X) || l.mentions(x.Y)
	case *cat.AppExpr:
		return l.mentions(x.Fun) || l.mentions(x.Arg)
	case *cat.TryExpr:
		return l.mentions(x.X) || l.mentions(x.Y)
	}
	return true
}

func (l *lfp) anyMentions(xs []cat.Expr) bool {
	for _, x := range xs {
		if l.mentions(x) {
			return true
		}
	}
	return false
}

// value is the relation x denotes with the group's variables bound: for
// an expression that does not name the group its exact value, otherwise
// the shape of its may-pairs.
func (l *lfp) value(x cat.Expr) (*Rel, error) {
	if r, ok := l.vals[x]; ok {
		return r, nil
	}
	v, err := l.ev.expr(x, l.en)
	if err != nil {
		return nil, err
	}
	r, ok := l.ev.asRel(v)
	if !ok {
		return nil, &errRelaxed{what: fmt.Sprintf("%s: a %s in a recursive definition", x.Pos(), kindName(v))}
	}
	l.vals[x] = r
	return r, nil
}

// derive is the formula (relative to the execution of a and b) saying
// that (a, b) ∈ x when every name of the group keeps only its pairs of
// rank below t.
func (l *lfp) derive(x cat.Expr, a, b int, t smt.Term) (B, error) {
	f := l.ev.f
	if !l.mentions(x) {
		r, err := l.value(x)
		if err != nil {
			return bFalse, err
		}
		v, _ := r.get(a, b)
		return v, nil
	}
	key := derivKey{x, a, b}
	if d, ok := l.memo[key]; ok {
		return d, nil
	}
	var out B
	switch x := x.(type) {
	case *cat.Ident:
		v, ok := l.recs[x.Name].get(a, b)
		if !ok {
			out = bFalse
			break
		}
		out = f.and(v, B{t: l.ev.e.ctx.Lt(l.ranks[x.Name][[2]int{a, b}], t)})
	case *cat.BinaryExpr:
		switch x.Op {
		case cat.OpUnion, cat.OpInter:
			p, err := l.derive(x.X, a, b, t)
			if err != nil {
				return bFalse, err
			}
			q, err := l.derive(x.Y, a, b, t)
			if err != nil {
				return bFalse, err
			}
			if x.Op == cat.OpUnion {
				out = f.or(p, q)
			} else {
				out = f.and(p, q)
			}
		case cat.OpDiff:
			if l.mentions(x.Y) {
				return bFalse, &errRelaxed{what: fmt.Sprintf("%s: a recursive name right of \\", x.At)}
			}
			p, err := l.derive(x.X, a, b, t)
			if err != nil {
				return bFalse, err
			}
			y, err := l.value(x.Y)
			if err != nil {
				return bFalse, err
			}
			q, _ := y.get(a, b)
			out = f.and(p, f.not(q))
		case cat.OpSeq:
			sx, err := l.value(x.X)
			if err != nil {
				return bFalse, err
			}
			sy, err := l.value(x.Y)
			if err != nil {
				return bFalse, err
			}
			var alts []B
			for _, k := range sortedKeys(sx.rows[a]) {
				if _, ok := sy.get(k, b); !ok {
					continue
				}
				p, err := l.derive(x.X, a, k, t)
				if err != nil {
					return bFalse, err
				}
				q, err := l.derive(x.Y, k, b, t)
				if err != nil {
					return bFalse, err
				}
				alts = append(alts, f.and(l.ev.o.exec[k], p, q))
			}
			out = f.or(alts...)
		default:
			return bFalse, &errRelaxed{what: fmt.Sprintf("%s: operator %s on a recursive relation", x.At, x.Op)}
		}
	case *cat.UnaryExpr:
		switch x.Op {
		case cat.OpInv:
			return l.derive(x.X, b, a, t)
		case cat.OpOpt:
			if a == b {
				out = bTrue
				break
			}
			return l.derive(x.X, a, b, t)
		default:
			return bFalse, &errRelaxed{what: fmt.Sprintf("%s: operator %s on a recursive relation", x.At, x.Op)}
		}
	default:
		return bFalse, &errRelaxed{what: fmt.Sprintf("%s: %T over a recursive relation", x.Pos(), x)}
	}
	l.memo[key] = out
	return out, nil
}
