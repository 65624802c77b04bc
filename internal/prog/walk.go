package prog

// What an instruction reads, writes and accesses: the one place that
// lists the expressions of every instruction kind, so that the engines,
// the front-ends and the provers agree on them (Defs, in defs.go, lists
// the registers it writes).

// Exprs lists the expressions an instruction evaluates, in a fixed order:
// the address of an access, then the value it writes (Store.Val,
// RMW.New, StoreCond.Val), then a condition (RMW.Cond, Jump.Cond) when
// there is one; an assignment's value. Labels, fences and Havoc have
// none.
func Exprs(in Instr) []Expr {
	switch in := in.(type) {
	case Load:
		return []Expr{in.Addr}
	case Store:
		return []Expr{in.Addr, in.Val}
	case RMW:
		if in.Cond != nil {
			return []Expr{in.Addr, in.New, in.Cond}
		}
		return []Expr{in.Addr, in.New}
	case StoreCond:
		return []Expr{in.Addr, in.Val}
	case Assign:
		return []Expr{in.Val}
	case Jump:
		if in.Cond != nil {
			return []Expr{in.Cond}
		}
	case Located:
		return []Expr{in.Addr}
	}
	return nil
}

// WalkExpr calls f on e and on each of its sub-expressions, parents
// first, left to right; a nil e is skipped.
func WalkExpr(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case Bin:
		WalkExpr(e.X, f)
		WalkExpr(e.Y, f)
	case Un:
		WalkExpr(e.X, f)
	}
}

// ReplaceOld puts x in place of the old value of an RMW (Old) in e.
func ReplaceOld(e, x Expr) Expr {
	switch e := e.(type) {
	case Old:
		return x
	case Bin:
		return Bin{Op: e.Op, X: ReplaceOld(e.X, x), Y: ReplaceOld(e.Y, x)}
	case Un:
		return Un{Op: e.Op, X: ReplaceOld(e.X, x)}
	}
	return e
}

// ExprRegs lists the registers e reads, each once, in order of first
// appearance.
func ExprRegs(e Expr) []string {
	return appendRegs(nil, e)
}

func appendRegs(out []string, e Expr) []string {
	WalkExpr(e, func(e Expr) {
		if r, ok := e.(Reg); ok && !hasString(out, r.Name) {
			out = append(out, r.Name)
		}
	})
	return out
}

func hasString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Uses lists the registers an instruction reads (those of its Exprs),
// each once, in order of first appearance.
func Uses(in Instr) []string {
	var out []string
	for _, e := range Exprs(in) {
		out = appendRegs(out, e)
	}
	return out
}

// AddrConsts lists the address constants of an instruction's
// expressions (the locations it names), in order, repeats kept.
func AddrConsts(in Instr) []Value {
	var out []Value
	for _, e := range Exprs(in) {
		WalkExpr(e, func(e Expr) {
			if c, ok := e.(Const); ok && c.V.IsAddr() {
				out = append(out, c.V)
			}
		})
	}
	return out
}

// Access describes a memory access: its address, and whether it reads
// (Load, RMW) or writes (Store, RMW, StoreCond) the location there. ok is
// false for any other instruction, Located included (its events are
// neither reads nor writes).
func Access(in Instr) (addr Expr, read, write, ok bool) {
	switch in := in.(type) {
	case Load:
		return in.Addr, true, false, true
	case Store:
		return in.Addr, false, true, true
	case RMW:
		return in.Addr, true, true, true
	case StoreCond:
		return in.Addr, false, true, true
	}
	return nil, false, false, false
}

// AddrOf is the address expression of a memory access (a load, store,
// read-modify-write or store-conditional); ok is false for any other
// instruction.
func AddrOf(in Instr) (addr Expr, ok bool) {
	addr, _, _, ok = Access(in)
	return addr, ok
}

// WriteAddr is the address a memory access writes (a store,
// read-modify-write or store-conditional); ok is false for a load and
// any other instruction.
func WriteAddr(in Instr) (addr Expr, ok bool) {
	addr, _, w, ok := Access(in)
	return addr, ok && w
}
