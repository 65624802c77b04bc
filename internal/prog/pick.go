package prog

// Pick is the expression x, chosen by a condition computed from by
// (OpPick): its value is x's, and by's reads reach it as a pick
// dependency only.
func Pick(x, by Expr) Expr { return Bin{Op: OpPick, X: x, Y: by} }

// HasPick tells whether a thread's code uses OpPick anywhere: an engine
// that does not compute pick dependencies must refuse such a thread, as
// it would make the pick a full dependency.
func HasPick(code []Instr) bool {
	for _, in := range code {
		for _, e := range Exprs(in) {
			if exprHasPick(e) {
				return true
			}
		}
	}
	return false
}

func exprHasPick(e Expr) bool {
	switch e := e.(type) {
	case Bin:
		return e.Op == OpPick || exprHasPick(e.X) || exprHasPick(e.Y)
	case Un:
		return exprHasPick(e.X)
	}
	return false
}

// PicksStayLocal tells whether no register that a pick gives (an Assign
// whose value has an OpPick, and then any Assign from such a register)
// is read by an access or a branch of code after it: its pick
// dependencies then reach no event. Code with a backward jump is
// answered false.
func PicksStayLocal(code []Instr) bool {
	labels := map[string]int{}
	for pc, in := range code {
		if l, ok := in.(Label); ok {
			labels[l.Name] = pc
		}
	}
	tainted := map[string]bool{}
	uses := func(e Expr) bool {
		found := false
		WalkExpr(e, func(x Expr) {
			if r, ok := x.(Reg); ok && tainted[r.Name] {
				found = true
			}
		})
		return found
	}
	// Jumps go forward only: the registers a pick gave on any path to
	// pc were given at an earlier pc.
	for pc, in := range code {
		if j, ok := in.(Jump); ok {
			if t, ok := labels[j.Target]; !ok || t <= pc {
				return false
			}
		}
		if a, ok := in.(Assign); ok {
			if exprHasPick(a.Val) || uses(a.Val) {
				tainted[a.Dst] = true
			}
			continue
		}
		for _, e := range Exprs(in) {
			if uses(e) {
				return false
			}
		}
	}
	return true
}
