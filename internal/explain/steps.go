package explain

import (
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/rel"
	"github.com/musket-verify/musket/internal/result"
)

// explainer splits edges of one check's relation on one execution.
type explainer struct {
	n        int
	get      func(string) (rel.Rel, bool)
	defs     map[string]cat.Expr
	visiting map[string]bool
}

// val recomputes the value of e from the values of the names it uses;
// sets are their identity relations. ok is false where e uses what the
// values do not give (functions, tags, local names).
func (x *explainer) val(e cat.Expr) (rel.Rel, bool) {
	switch e := e.(type) {
	case *cat.Ident:
		return x.get(e.Name)
	case *cat.EmptyLit:
		return rel.NewRel(x.n), true
	case *cat.UniverseLit:
		return rel.Cross(rel.Full(x.n), rel.Full(x.n)), true
	case *cat.BinaryExpr:
		a, ok := x.val(e.X)
		if !ok {
			return rel.Rel{}, false
		}
		b, ok := x.val(e.Y)
		if !ok {
			return rel.Rel{}, false
		}
		switch e.Op {
		case cat.OpUnion:
			return a.Union(b), true
		case cat.OpInter:
			return a.Inter(b), true
		case cat.OpDiff:
			return a.Diff(b), true
		case cat.OpSeq:
			return a.Seq(b), true
		case cat.OpCross:
			return rel.Cross(a.Domain(), b.Domain()), true
		}
	case *cat.UnaryExpr:
		a, ok := x.val(e.X)
		if !ok {
			return rel.Rel{}, false
		}
		switch e.Op {
		case cat.OpStar:
			return a.Star(), true
		case cat.OpPlus:
			return a.Plus(), true
		case cat.OpOpt:
			return a.Opt(), true
		case cat.OpInv:
			return a.Inverse(), true
		case cat.OpToID:
			return rel.Identity(a.Domain()), true
		}
	}
	return rel.Rel{}, false
}

// steps explains the edge a -> b of e (which holds) as a path of named
// steps. outer names the definition e comes from ("" at the check
// itself); an edge that cannot be split further is labelled with it, or
// with e's text.
func (x *explainer) steps(e cat.Expr, a, b int, outer string, depth int) []result.Step {
	label := outer
	if label == "" {
		label = cat.ExprString(e)
	}
	whole := []result.Step{{From: a, To: b, Rel: label}}
	if depth > maxDepth {
		return whole
	}
	switch e := e.(type) {
	case *cat.Ident:
		def, ok := x.defs[e.Name]
		if !ok || x.visiting[e.Name] || !splittable(def) {
			return []result.Step{{From: a, To: b, Rel: e.Name}}
		}
		x.visiting[e.Name] = true
		defer delete(x.visiting, e.Name)
		return x.steps(def, a, b, e.Name, depth+1)
	case *cat.BinaryExpr:
		switch e.Op {
		case cat.OpUnion:
			cs := flatten(e, cat.OpUnion)
			for _, c := range cs {
				if x.recursive(c) {
					continue
				}
				if v, ok := x.val(c); ok && v.Has(a, b) {
					if _, name := c.(*cat.Ident); name || outer == "" || splittable(c) {
						return x.steps(c, a, b, outer, depth+1)
					}
					return whole
				}
			}
			// Only a recursive member (`let rec r = ... | r; r`) holds:
			// the edge is a path of the other members.
			if s, ok := x.unfold(e, cs, a, b, outer, depth); ok {
				return s
			}
		case cat.OpSeq:
			// A named sequence is opened unless that would drop one of
			// its event filters: "bob" says more than "po; po" through
			// a barrier, "fre; strong" more than "prop".
			if s, lossy, ok := x.seq(flatten(e, cat.OpSeq), a, b, depth); ok && (outer == "" || len(s) == 1 || !lossy) {
				return s
			}
		}
	case *cat.UnaryExpr:
		v, ok := x.val(e.X)
		if !ok {
			return whole
		}
		switch e.Op {
		case cat.OpOpt, cat.OpStar, cat.OpToID:
			if a == b {
				return []result.Step{}
			}
		}
		switch e.Op {
		case cat.OpOpt:
			return x.steps(e.X, a, b, outer, depth+1)
		case cat.OpPlus, cat.OpStar:
			path := bfs(v, a, b, e.Op == cat.OpPlus)
			if path == nil {
				return whole
			}
			var out []result.Step
			for i := 0; i+1 < len(path); i++ {
				out = append(out, x.steps(e.X, path[i], path[i+1], outer, depth+1)...)
			}
			return out
		}
	}
	return whole
}

// recursive tells whether e mentions a definition being opened (the
// recursive member of a `let rec`).
func (x *explainer) recursive(e cat.Expr) bool {
	found := false
	var walk func(cat.Expr)
	walk = func(e cat.Expr) {
		switch e := e.(type) {
		case *cat.Ident:
			found = found || x.visiting[e.Name]
		case *cat.BinaryExpr:
			walk(e.X)
			walk(e.Y)
		case *cat.UnaryExpr:
			walk(e.X)
		}
	}
	walk(e)
	return found
}

// unfold explains a -> b of the union u of members cs, some recursive,
// as a path of steps each in a member that is not.
func (x *explainer) unfold(u cat.Expr, cs []cat.Expr, a, b int, outer string, depth int) ([]result.Step, bool) {
	base := rel.NewRel(x.n)
	any := false
	for _, c := range cs {
		if x.recursive(c) {
			continue
		}
		v, ok := x.val(c)
		if !ok {
			return nil, false
		}
		base = base.Union(v)
		any = true
	}
	if !any {
		return nil, false
	}
	path := bfs(base, a, b, true)
	if path == nil {
		return nil, false
	}
	var out []result.Step
	for i := 0; i+1 < len(path); i++ {
		out = append(out, x.steps(u, path[i], path[i+1], outer, depth+1)...)
	}
	return out, true
}

// seq splits a -> b of f1; f2; ...; fk into the steps of its factors,
// through events that each factor relates; steps that stay on one event
// (a [S] or an r?) are left out.
func (x *explainer) seq(fs []cat.Expr, a, b int, depth int) (steps []result.Step, lossy, ok bool) {
	vals := make([]rel.Rel, len(fs))
	for i, f := range fs {
		v, ok := x.val(f)
		if !ok {
			return nil, false, false
		}
		vals[i] = v
	}
	// reach[i]: the events reachable from a through the first i factors.
	reach := make([]rel.Set, len(fs)+1)
	reach[0] = rel.SetOf(x.n, a)
	for i, v := range vals {
		next := rel.NewSet(x.n)
		for _, u := range reach[i].Elems() {
			next = next.Union(v.Succ(u))
		}
		reach[i+1] = next
	}
	if !reach[len(fs)].Has(b) {
		return nil, false, false
	}
	// Walk back from b, choosing for each factor an event it comes from.
	at := make([]int, len(fs)+1)
	at[len(fs)] = b
	for i := len(fs) - 1; i >= 0; i-- {
		at[i] = -1
		// Prefer staying on the same event: identity steps vanish.
		if reach[i].Has(at[i+1]) && vals[i].Has(at[i+1], at[i+1]) {
			at[i] = at[i+1]
			continue
		}
		for _, u := range reach[i].Elems() {
			if vals[i].Has(u, at[i+1]) {
				at[i] = u
				break
			}
		}
		if at[i] < 0 {
			return nil, false, false
		}
	}
	out := []result.Step{}
	for i, f := range fs {
		if at[i] == at[i+1] && identityLike(f) {
			if u, ok := f.(*cat.UnaryExpr); ok && u.Op == cat.OpToID {
				lossy = true
			}
			continue
		}
		out = append(out, x.steps(f, at[i], at[i+1], "", depth+1)...)
	}
	return out, lossy, true
}

// splittable tells whether a definition is worth opening: a union, a
// sequence or a closure, whose parts name what holds better than the
// whole does.
func splittable(e cat.Expr) bool {
	switch e := e.(type) {
	case *cat.BinaryExpr:
		return e.Op == cat.OpUnion || e.Op == cat.OpSeq
	case *cat.UnaryExpr:
		return e.Op == cat.OpPlus || e.Op == cat.OpStar || e.Op == cat.OpOpt
	}
	return false
}

// identityLike tells whether a step of e from an event to itself adds
// nothing to say: [S], r?, r*.
func identityLike(e cat.Expr) bool {
	if u, ok := e.(*cat.UnaryExpr); ok {
		return u.Op == cat.OpToID || u.Op == cat.OpOpt || u.Op == cat.OpStar
	}
	return false
}

// flatten lists the operands of a chain of op: a | (b | c) gives a, b, c.
func flatten(e cat.Expr, op cat.Op) []cat.Expr {
	if b, ok := e.(*cat.BinaryExpr); ok && b.Op == op {
		return append(flatten(b.X, op), flatten(b.Y, op)...)
	}
	return []cat.Expr{e}
}
