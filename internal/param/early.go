package param

import (
	"slices"
	"strconv"
	"strings"
)

// The syntax of an early Cubicle-W version, whose files remain in the
// tests of Cubicle's repository (tests/cubicle, tests/comp, tests/new,
// tests/litmus/*_tso_*), names the process that performs each access to
// weak memory: read(p, X) in a formula, write(p, X, e) as an action
// (e may be a case), and "fences (p)" after a transition's parameters.
// rewriteEarly reads it as the current syntax says the same thing:
//
//   - in a transition, every such access must name one process p, which
//     becomes the transition's [p] process: read(p, X) is then the read
//     of X, write(p, X, e) is X := e and "fences (p)" is fence() in the
//     guard. When p is a process constant #k (transition t () with
//     write(#1, X, 1)), a parameter standing for #k is added, with the
//     guard "parameter = #k": the transition is performed by #k.
//   - in unsafe and invariant formulas, read(p, X) is p@X.
//   - in a file that uses this syntax, a transition with one parameter
//     and no such access is performed by that parameter, as the current
//     syntax's "transition t ([i])" says: its accesses to i's cells of
//     non-weak arrays are i's own, not shared memory (System.SharedSC).
//     Read as performed by no process, "transition t (i) { A[i] := B }"
//     made the whole system one with shared sequentially consistent
//     memory, whose search offers more choices (model.go) and can take
//     far longer: TestEarlySyntaxRandom found a system SAFE in 5 nodes
//     in the current syntax and without verdict in 60 in the early one.
//   - likewise a transition without parameters whose every array access
//     is at one process constant #k ("requires { PC[#1] = L3 && LY[#1]
//     = 0 } { PC[#1] := L4 }") is performed by #k; and in a transition
//     performed by #k, the cells at #k are the actor's own (pinActor).
//
// A transition whose accesses name two processes is refused, as is a
// read by a process constant outside transitions.

// earlyActor is the name of the parameter added for a transition
// performed by a process constant ('#' keeps it from meeting a name of
// the file).
const earlyActor = "#actor"

// rewriteEarly rewrites the early Cubicle-W syntax of f in place (see
// above); errors go to c.
func (c *checker) rewriteEarly() {
	if _, isPred := c.preds["read"]; isPred {
		return // a predicate of the file named read
	}
	early := false
	for _, d := range c.f.Transitions {
		early = c.rewriteEarlyTrans(d) || early
	}
	if early {
		for _, d := range c.f.Transitions {
			if d.Actor < 0 && len(d.Params) == 1 {
				d.Actor = 0
			}
			if k, ok := oneConstIndex(d); ok && d.Actor < 0 && len(d.Params) == 0 {
				pinActor(d, k)
			}
		}
	}
	for _, fs := range [][]*Formula{c.f.Unsafes, c.f.Invariants} {
		for _, fm := range fs {
			fm.Body = mapExpr(fm.Body, func(e Expr) Expr {
				r, ok := earlyRead(e)
				if !ok {
					return e
				}
				id, ok := r.Args[0].(*IdentExpr)
				if !ok {
					c.errorf(r.Pos, "read(p, X) outside a transition needs a process variable p, a parameter of the formula")
					return e
				}
				return &AtExpr{Pos: r.Pos, Proc: Ident{Pos: id.Pos, Name: id.Name}, Of: r.Args[1]}
			})
		}
	}
}

// earlyRead reports whether e is read(p, X) or read(p, A[i]).
func earlyRead(e Expr) (*CallExpr, bool) {
	r, ok := e.(*CallExpr)
	if !ok || r.Name != "read" || len(r.Args) != 2 {
		return nil, false
	}
	switch r.Args[1].(type) {
	case *IdentExpr, *IndexExpr:
	default:
		return nil, false
	}
	switch r.Args[0].(type) {
	case *IdentExpr, *ProcExpr:
		return r, true
	}
	return nil, false
}

// procName is the name of a process expression of the early syntax: a
// variable or "#k".
func procName(e Expr) (string, bool) {
	switch x := e.(type) {
	case *IdentExpr:
		return x.Name, true
	case *ProcExpr:
		return "#" + strconv.Itoa(x.N), true
	}
	return "", false
}

// rewriteEarlyTrans rewrites the accesses of d and reports whether it
// has any.
func (c *checker) rewriteEarlyTrans(d *TransDecl) bool {
	type use struct {
		name string
		pos  Pos
	}
	var uses []use
	note := func(e Expr, pos Pos) {
		if n, ok := procName(e); ok {
			uses = append(uses, use{n, pos})
		} else {
			c.errorf(pos, "the process of read, write or fences must be a process variable or a constant #k")
		}
	}
	collect := func(e Expr) Expr {
		if r, ok := earlyRead(e); ok {
			note(r.Args[0], r.Pos)
		}
		return e
	}
	mapExpr(d.Guard, collect)
	for _, a := range d.Actions {
		mapExpr(a.Rhs, collect)
		if a.By != nil {
			note(a.By, a.Pos)
		}
	}
	if d.Fences != nil {
		note(d.Fences, d.Pos)
	}
	if len(uses) == 0 {
		return false
	}
	p := uses[0].name
	for _, u := range uses[1:] {
		if u.name != p {
			c.errorf(u.pos, "transition %s accesses weak memory as %s and as %s: a transition is performed by one process", d.Name, p, u.name)
			return true
		}
	}
	actor := -1
	for i, q := range d.Params {
		if q.Name == p {
			actor = i
		}
	}
	switch {
	case actor >= 0 && d.Actor >= 0 && d.Actor != actor:
		c.errorf(uses[0].pos, "transition %s is performed by %s, not by %s", d.Name, d.Params[d.Actor].Name, p)
		return true
	case actor >= 0:
		d.Actor = actor
	case p[0] == '#':
		if d.Actor >= 0 {
			c.errorf(uses[0].pos, "transition %s is performed by %s, not by %s", d.Name, d.Params[d.Actor].Name, p)
			return true
		}
		defer pinActor(d, p)
	default:
		c.errorf(uses[0].pos, "%s is not a parameter of transition %s", p, d.Name)
		return true
	}
	// the accesses are now the actor's own
	own := func(e Expr) Expr {
		if r, ok := earlyRead(e); ok {
			return r.Args[1]
		}
		return e
	}
	d.Guard = mapExpr(d.Guard, own)
	for _, a := range d.Actions {
		a.Rhs = mapExpr(a.Rhs, own)
		a.By = nil
	}
	if d.Fences != nil {
		d.Guard = andExpr(&CallExpr{Pos: d.Pos, Name: "fence"}, d.Guard)
		d.Fences = nil
	}
	return true
}

// pinActor makes the process constant k ("#k") the performer of d: a
// parameter earlyActor is added, pinned to k by the guard, and the cells
// that d indexes by k are indexed by it (A[#k] is A[#actor]: the same
// cell, as #actor = #k), so that they are the actor's own cells, not
// shared memory (System.SharedSC). Without that, A[#k] := v, Cubicle's
// A[j] := case | j = #k : v | _ : A[j], updated every cell, and an early
// file whose threads keep their program counters in PC[#k] had shared
// sequentially consistent memory: the search offered late sources there
// (model.go), and Cubicle-W's tests/cubicle/lamport2x.cub got a trace no
// run follows and no verdict. An update whose value is a case keeps its
// index (a case cannot update a cell at a process constant, check.go).
func pinActor(d *TransDecl, k string) {
	n, _ := strconv.Atoi(k[1:])
	d.Actor = len(d.Params)
	d.Params = append(d.Params, Ident{Pos: d.Pos, Name: earlyActor})
	byActor := func(e Expr) Expr {
		x, ok := e.(*IndexExpr)
		if !ok {
			return e
		}
		y := *x
		y.Index = actorIndex(x.Index, k)
		return &y
	}
	d.Guard = mapExpr(d.Guard, byActor)
	for i := range d.Lets {
		d.Lets[i].Value = mapExpr(d.Lets[i].Value, byActor)
	}
	for _, a := range d.Actions {
		a.Rhs = mapExpr(a.Rhs, byActor)
		if _, isCase := a.Rhs.(*CaseExpr); !isCase {
			a.Index = actorIndex(a.Index, k)
		}
	}
	pin := &BinExpr{Pos: d.Pos, Op: OpEq, L: &IdentExpr{Pos: d.Pos, Name: earlyActor}, R: &ProcExpr{Pos: d.Pos, N: n}}
	d.Guard = andExpr(pin, d.Guard)
}

// actorIndex is ix with the constant k replaced by earlyActor.
func actorIndex(ix []Ident, k string) []Ident {
	var out []Ident
	for i, id := range ix {
		if id.Name == k {
			if out == nil {
				out = slices.Clone(ix)
			}
			out[i].Name = earlyActor
		}
	}
	if out == nil {
		return ix
	}
	return out
}

// oneConstIndex reports the process constant k when every array access
// of d (in its guard, values and updated cells) is at k, and there is
// one: such a transition reads and writes the cells of process k alone,
// and is performed by it in an early Cubicle-W file (the threads of
// tests/cubicle/lamport2x.cub test their local registers so:
// "transition t1_L3_L4_Y_Null () requires { PC[#1] = L3 && LY[#1] = 0 }").
func oneConstIndex(d *TransDecl) (string, bool) {
	k, ok := "", true
	see := func(ix []Ident) {
		for _, id := range ix {
			switch {
			case !strings.HasPrefix(id.Name, "#"):
				ok = false
			case k == "":
				k = id.Name
			case k != id.Name:
				ok = false
			}
		}
	}
	look := func(e Expr) Expr {
		switch x := e.(type) {
		case *IndexExpr:
			see(x.Index)
		case *QuantExpr, *CallExpr, *AtExpr:
			ok = false
		}
		return e
	}
	mapExpr(d.Guard, look)
	for _, l := range d.Lets {
		mapExpr(l.Value, look)
	}
	for _, a := range d.Actions {
		mapExpr(a.Rhs, look)
		see(a.Index)
	}
	return k, ok && k != ""
}

// andExpr is a && b (a alone when b is nil).
func andExpr(a, b Expr) Expr {
	if b == nil {
		return a
	}
	return &BinExpr{Pos: a.exprPos(), Op: OpAnd, L: a, R: b}
}

// mapExpr rebuilds e bottom-up, replacing each sub-expression x by
// f(x) (nil stays nil).
func mapExpr(e Expr, f func(Expr) Expr) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *BinExpr:
		n := *x
		n.L, n.R = mapExpr(x.L, f), mapExpr(x.R, f)
		return f(&n)
	case *NotExpr:
		n := *x
		n.E = mapExpr(x.E, f)
		return f(&n)
	case *NegExpr:
		n := *x
		n.E = mapExpr(x.E, f)
		return f(&n)
	case *QuantExpr:
		n := *x
		n.Body = mapExpr(x.Body, f)
		return f(&n)
	case *CaseExpr:
		n := *x
		n.Conds = make([]Expr, len(x.Conds))
		n.Branches = make([]Expr, len(x.Branches))
		for i := range x.Conds {
			n.Conds[i] = mapExpr(x.Conds[i], f)
			n.Branches[i] = mapExpr(x.Branches[i], f)
		}
		return f(&n)
	case *CallExpr:
		if _, ok := earlyRead(x); ok {
			return f(x) // its arguments are a process and a cell
		}
		n := *x
		n.Args = make([]Expr, len(x.Args))
		for i, a := range x.Args {
			n.Args[i] = mapExpr(a, f)
		}
		return f(&n)
	}
	return f(e)
}
