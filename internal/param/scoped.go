package param

import "maps"

// walkScoped calls visit on e and, when visit returns true, on each of
// its sub-expressions in order (the operands, the body of a quantifier,
// a case's conditions and branches, a call's arguments, the read of a
// weak read), with bound the names bound there: a quantifier's variable
// is bound in its body.
func walkScoped(e Expr, bound map[string]bool, visit func(e Expr, bound map[string]bool) bool) {
	if e == nil || !visit(e, bound) {
		return
	}
	switch x := e.(type) {
	case *AtExpr:
		walkScoped(x.Of, bound, visit)
	case *BinExpr:
		walkScoped(x.L, bound, visit)
		walkScoped(x.R, bound, visit)
	case *NotExpr:
		walkScoped(x.E, bound, visit)
	case *NegExpr:
		walkScoped(x.E, bound, visit)
	case *QuantExpr:
		inner := maps.Clone(bound)
		inner[x.Var.Name] = true
		walkScoped(x.Body, inner, visit)
	case *CaseExpr:
		for i := range x.Conds {
			walkScoped(x.Conds[i], bound, visit)
			walkScoped(x.Branches[i], bound, visit)
		}
	case *CallExpr:
		for _, a := range x.Args {
			walkScoped(a, bound, visit)
		}
	}
}

// mapScoped rebuilds e top-down: where f takes a sub-expression (its
// second result true) its answer replaces it whole; elsewhere the node is
// copied with its sub-expressions rebuilt, bound growing as in
// walkScoped. Nodes f does not take and that have no sub-expressions are
// kept as they are.
func mapScoped(e Expr, bound map[string]bool, f func(e Expr, bound map[string]bool) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e, bound); ok {
		return r
	}
	switch x := e.(type) {
	case *AtExpr:
		n := *x
		n.Of = mapScoped(x.Of, bound, f)
		return &n
	case *BinExpr:
		n := *x
		n.L, n.R = mapScoped(x.L, bound, f), mapScoped(x.R, bound, f)
		return &n
	case *NotExpr:
		n := *x
		n.E = mapScoped(x.E, bound, f)
		return &n
	case *NegExpr:
		n := *x
		n.E = mapScoped(x.E, bound, f)
		return &n
	case *QuantExpr:
		n := *x
		inner := maps.Clone(bound)
		inner[x.Var.Name] = true
		n.Body = mapScoped(x.Body, inner, f)
		return &n
	case *CaseExpr:
		n := *x
		n.Conds = make([]Expr, len(x.Conds))
		n.Branches = make([]Expr, len(x.Branches))
		for i := range x.Conds {
			n.Conds[i] = mapScoped(x.Conds[i], bound, f)
			n.Branches[i] = mapScoped(x.Branches[i], bound, f)
		}
		return &n
	case *CallExpr:
		n := *x
		n.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			n.Args[i] = mapScoped(a, bound, f)
		}
		return &n
	}
	return e
}
