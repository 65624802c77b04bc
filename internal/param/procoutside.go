package param

// A proc variable that holds no process, as an index:
//
//	var Home : proc
//	init (p) { Home <> p && A[p] = Idle }
//	transition t () requires { A[Home] = Idle } { A[Home] := Busy }
//
// Cubicle's typing takes any symbol of sort proc as an index, and its
// solver reads A[Home] as the uninterpreted A applied to the constant
// Home. Init is instantiated on the process variables of the cube under
// test only (Home is not one of them), so init's A[p] = Idle says
// nothing of A[Home]: that cell is free at init. When init says Home <>
// p and no transition assigns Home, Home differs from every process in
// every reachable state, and A[Home] is a cell of its own, apart from
// the processes' cells:
//
//   - a guard, a value or an unsafe formula reads it as it stands;
//   - A[Home] := v writes it, and only it;
//   - A[i] := v, i a parameter, never writes it (i is a process, so
//     i <> Home; in Cubicle's pre-image the case Home = i is left to
//     the init check, which refutes it);
//   - a universal update A[j] := e(j) writes it too: Cubicle's pre-image
//     substitutes the update in every term A[x] of the cube, x = Home
//     included, so A[Home] takes e(Home) (where e reads B[j], B[Home]);
//   - forall_other j. and exists_other j. range over the cube's
//     processes, which Home is not: they do not read Home's cells.
//
// Musket reads such a file by giving each cell A[Home] a variable of its
// own, named "A[Home]", and rewriting the file before it is checked:
// A[Home] in a formula or a value becomes that variable, A[Home] := v an
// assignment to it, and a universal update A[j] := e(j) is joined by
// A[Home] := e(Home), with B[Home] read as B's variable in turn (so B's
// cell is added when A's update reads it: the cells are closed under
// the universal updates that write them). Home itself stays a proc
// variable, of a value no process has, so that Home = i is false and
// Home <> i true, as before. The search, the explorers and the samples
// then see plain variables, and the cross-checks apply as to any file.
//
// What is refused by name, as it falls outside that reading: a weak
// Home or weak array, an array of two indices indexed by Home, another
// proc variable used as an index in the same file (it might hold Home's
// value, whose cells the variants of procindex.go do not reach), and a
// transition that writes A[Home] while a universal update of A would
// write it too. A Home that init does not say <> p, or that a transition
// assigns, is read by procindex.go and procinit.go as a process.

import (
	"fmt"
	"maps"
	"slices"
)

// outsideVars returns the proc variables that hold no process: declared
// var or const of sort proc, not weak, of arity 0, never assigned, and
// said <> p (p a parameter of init) by a conjunct at the top of init.
func (c *checker) outsideVars() []string {
	if len(c.f.Inits) != 1 || len(c.f.Inits[0].Params) == 0 {
		return nil
	}
	in := c.f.Inits[0]
	params := map[string]bool{}
	for _, p := range in.Params {
		params[p.Name] = true
	}
	assigned := map[string]bool{}
	for _, d := range c.f.Transitions {
		for _, a := range d.Actions {
			if len(a.Index) == 0 {
				assigned[a.Name.Name] = true
			}
		}
	}
	isProcVar := func(name string) bool {
		gi, ok := c.globals[name]
		if !ok || params[name] {
			return false
		}
		g := c.sys.Globals[gi]
		return g.Sort.Kind == SProc && g.Arity == 0 && !g.Weak && !assigned[name]
	}
	var out []string
	for _, cj := range conjuncts(in.Body) {
		var l, r Expr
		switch x := cj.(type) {
		case *BinExpr:
			if x.Op != OpNeq {
				continue
			}
			l, r = x.L, x.R
		case *NotExpr:
			b, ok := x.E.(*BinExpr)
			if !ok || b.Op != OpEq {
				continue
			}
			l, r = b.L, b.R
		default:
			continue
		}
		li, lok := l.(*IdentExpr)
		ri, rok := r.(*IdentExpr)
		if !lok || !rok {
			continue
		}
		for _, pair := range [2][2]string{{li.Name, ri.Name}, {ri.Name, li.Name}} {
			if params[pair[1]] && isProcVar(pair[0]) && !slices.Contains(out, pair[0]) {
				out = append(out, pair[0])
			}
		}
	}
	return out
}

// conjuncts lists the operands of the && at the top of e.
func conjuncts(e Expr) []Expr {
	if b, ok := e.(*BinExpr); ok && b.Op == OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []Expr{e}
}

// outsideRewrite carries the rewrite of one file.
type outsideRewrite struct {
	c     *checker
	homes map[string]bool // the outside variables
	cells map[[2]string]bool
	ok    bool
}

// rewriteOutside reads the cells of the proc variables that hold no
// process (see above): it adds their variables to the system and
// rewrites c.f (a copy: the parsed file is left as it is).
func (c *checker) rewriteOutside() {
	homes := c.outsideVars()
	if len(homes) == 0 {
		return
	}
	rw := &outsideRewrite{c: c, homes: map[string]bool{}, cells: map[[2]string]bool{}, ok: true}
	for _, h := range homes {
		rw.homes[h] = true
	}
	// the cells used: in formulas, predicates, guards, values, actions
	used := rw.collectUsed()
	if len(used) == 0 {
		return
	}
	// another proc variable as an index: it might hold Home's value
	var others []string
	for _, d := range c.f.Transitions {
		exprs := []Expr{d.Guard}
		for _, l := range d.Lets {
			exprs = append(exprs, l.Value)
		}
		others = append(others, c.procIndexVars(d.Params, exprs, d.Actions)...)
	}
	for _, fs := range [][]*Formula{c.f.Inits, c.f.Unsafes, c.f.Invariants} {
		for _, f := range fs {
			others = append(others, c.procIndexVars(f.Params, []Expr{f.Body}, nil)...)
		}
	}
	for _, o := range others {
		if !rw.homes[o] {
			c.errorf(rw.indexUse(o), "unsupported: %s as an index together with %s, which holds no process (init says %s <> p): %s might hold %s's value, whose cells are not those of a process", o, homes[0], homes[0], o, homes[0])
			return
		}
	}
	// close the cells under the universal updates that write them
	for changed := true; changed; {
		changed = false
		for _, d := range c.f.Transitions {
			for _, a := range d.Actions {
				j, univ := rw.universal(d, a)
				if !univ {
					continue
				}
				for h := range rw.homes {
					if !rw.cells[[2]string{a.Name.Name, h}] {
						continue
					}
					e := rw.substIndex(a.Rhs, j, h)
					before := len(rw.cells)
					rw.walk(e, rw.params(d.Params))
					changed = changed || len(rw.cells) > before
				}
			}
		}
	}
	if !rw.ok {
		return
	}
	rw.declare()
	rw.rewrite()
}

// collectUsed records the cells A[Home] the file names.
func (rw *outsideRewrite) collectUsed() map[[2]string]bool {
	c := rw.c
	for _, fs := range [][]*Formula{c.f.Inits, c.f.Unsafes, c.f.Invariants} {
		for _, f := range fs {
			rw.walk(f.Body, rw.params(f.Params))
		}
	}
	for _, p := range c.f.Predicates {
		rw.walk(p.Body, rw.params(p.Params))
	}
	for _, d := range c.f.Transitions {
		bound := rw.params(d.Params)
		rw.walk(d.Guard, bound)
		for _, l := range d.Lets {
			rw.walk(l.Value, bound)
		}
		for _, a := range d.Actions {
			if len(a.Index) > 0 {
				rw.cell(a.Name.Name, a.Index, bound, a.Pos)
			}
			rw.walk(a.Rhs, bound)
		}
	}
	return maps.Clone(rw.cells)
}

// params is the set of bound names.
func (rw *outsideRewrite) params(ps []Ident) map[string]bool {
	m := map[string]bool{}
	for _, p := range ps {
		m[p.Name] = true
	}
	return m
}

// cell records A[ix] when it names an outside variable's cell, and
// refuses the cells it cannot read.
func (rw *outsideRewrite) cell(name string, ix []Ident, bound map[string]bool, pos Pos) {
	c := rw.c
	for _, i := range ix {
		if bound[i.Name] || !rw.homes[i.Name] {
			continue
		}
		gi, ok := c.globals[name]
		if !ok {
			return // unknown: the checker says so
		}
		g := c.sys.Globals[gi]
		switch {
		case len(ix) != 1 || g.Arity != 1:
			c.errorf(pos, "unsupported: %s indexed by %s, which holds no process (init says %s <> p), in an array of %d indices: only arrays of one index have a cell of their own there", name, i.Name, i.Name, g.Arity)
			rw.ok = false
		case g.Weak:
			c.errorf(pos, "unsupported: the weak array %s indexed by %s, which holds no process (init says %s <> p)", name, i.Name, i.Name)
			rw.ok = false
		default:
			rw.cells[[2]string{name, i.Name}] = true
		}
	}
}

// walk records the cells read in e (bound: the names bound there).
func (rw *outsideRewrite) walk(e Expr, bound map[string]bool) {
	walkScoped(e, bound, func(e Expr, bound map[string]bool) bool {
		switch x := e.(type) {
		case *IndexExpr:
			rw.cell(x.Name, x.Index, bound, x.Pos)
		case *AtExpr:
			if ie, ok := x.Of.(*IndexExpr); ok {
				for _, i := range ie.Index {
					if !bound[i.Name] && rw.homes[i.Name] {
						rw.c.errorf(x.Pos, "unsupported: the weak read %s@%s[%s], %s holding no process (init says %s <> p)", x.Proc.Name, ie.Name, i.Name, i.Name, i.Name)
						rw.ok = false
					}
				}
			}
			return false
		}
		return true
	})
}

// universal reports whether a is a universal update A[j] := e of d (j
// no parameter, let, variable or process constant), and j.
func (rw *outsideRewrite) universal(d *TransDecl, a *Action) (string, bool) {
	if len(a.Index) != 1 {
		return "", false
	}
	j := a.Index[0].Name
	if j == "" || j[0] == '#' {
		return "", false
	}
	if _, isVar := rw.c.globals[j]; isVar {
		return "", false
	}
	for _, p := range d.Params {
		if p.Name == j {
			return "", false
		}
	}
	for _, l := range d.Lets {
		if l.Name.Name == j {
			return "", false
		}
	}
	return j, true
}

// substIndex is e with the universal index j read as h: j as a value
// becomes h, and j as an index h's cell.
func (rw *outsideRewrite) substIndex(e Expr, j, h string) Expr {
	return mapScoped(e, map[string]bool{}, func(e Expr, bound map[string]bool) (Expr, bool) {
		switch x := e.(type) {
		case *IdentExpr:
			if x.Name == j && !bound[j] {
				return &IdentExpr{Pos: x.Pos, Name: h}, true
			}
			return x, true
		case *IndexExpr:
			n := *x
			n.Index = slices.Clone(x.Index)
			for k, i := range n.Index {
				if i.Name == j && !bound[j] {
					n.Index[k].Name = h
				}
			}
			return &n, true
		}
		return nil, false
	})
}

// cellName is the name of the variable of A[Home].
func cellName(array, home string) string { return fmt.Sprintf("%s[%s]", array, home) }

// declare adds a variable for each cell, of its array's sort.
func (rw *outsideRewrite) declare() {
	c := rw.c
	keys := slices.SortedFunc(maps.Keys(rw.cells), func(a, b [2]string) int {
		if a[0] != b[0] {
			return cmpString(a[0], b[0])
		}
		return cmpString(a[1], b[1])
	})
	for _, k := range keys {
		g := c.sys.Globals[c.globals[k[0]]]
		name := cellName(k[0], k[1])
		c.globals[name] = int32(len(c.sys.Globals))
		c.sys.Globals = append(c.sys.Globals, &Global{
			Name: name, Pos: g.Pos, Const: g.Const, Sort: g.Sort,
		})
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// rewrite replaces c.f by a copy where every cell A[Home] is its
// variable, and every universal update of an array with such a cell
// writes the cell too.
func (rw *outsideRewrite) rewrite() {
	c := rw.c
	f := *c.f
	formulas := func(fs []*Formula) []*Formula {
		out := make([]*Formula, len(fs))
		for i, fm := range fs {
			n := *fm
			n.Body = rw.expr(fm.Body, rw.params(fm.Params))
			out[i] = &n
		}
		return out
	}
	f.Inits, f.Unsafes, f.Invariants = formulas(c.f.Inits), formulas(c.f.Unsafes), formulas(c.f.Invariants)
	f.Predicates = make([]*PredicateDecl, len(c.f.Predicates))
	for i, p := range c.f.Predicates {
		n := *p
		n.Body = rw.expr(p.Body, rw.params(p.Params))
		f.Predicates[i] = &n
		c.preds[p.Name] = &n
	}
	f.Transitions = make([]*TransDecl, len(c.f.Transitions))
	for i, d := range c.f.Transitions {
		f.Transitions[i] = rw.trans(d)
	}
	c.f = &f
}

// trans is d rewritten.
func (rw *outsideRewrite) trans(d *TransDecl) *TransDecl {
	n := *d
	bound := rw.params(d.Params)
	n.Guard = rw.expr(d.Guard, bound)
	n.Lets = make([]Let, len(d.Lets))
	for i, l := range d.Lets {
		n.Lets[i] = Let{Name: l.Name, Value: rw.expr(l.Value, bound)}
		bound[l.Name.Name] = true
	}
	n.Actions = nil
	written := map[string]bool{}
	for _, a := range d.Actions {
		if len(a.Index) == 1 && rw.homes[a.Index[0].Name] && !bound[a.Index[0].Name] {
			written[cellName(a.Name.Name, a.Index[0].Name)] = true
		}
	}
	var extra []*Action
	for _, a := range d.Actions {
		na := *a
		na.Rhs = rw.expr(a.Rhs, bound)
		if len(a.Index) == 1 && rw.homes[a.Index[0].Name] && !bound[a.Index[0].Name] {
			na.Name = Ident{Pos: a.Name.Pos, Name: cellName(a.Name.Name, a.Index[0].Name)}
			na.Index = nil
		}
		n.Actions = append(n.Actions, &na)
		j, univ := rw.universal(d, a)
		if !univ {
			continue
		}
		for _, h := range slices.Sorted(maps.Keys(rw.homes)) {
			name := cellName(a.Name.Name, h)
			if !rw.cells[[2]string{a.Name.Name, h}] {
				continue
			}
			if written[name] {
				rw.c.errorf(a.Pos, "unsupported: transition %s writes %s, and its update of every cell of %s would write it too (%s holds no process, init says %s <> p)", d.Name, name, a.Name.Name, h, h)
				continue
			}
			inner := maps.Clone(bound)
			extra = append(extra, &Action{Pos: a.Pos, Name: Ident{Pos: a.Name.Pos, Name: name},
				Rhs: rw.expr(rw.substIndex(a.Rhs, j, h), inner), By: a.By})
		}
	}
	n.Actions = append(n.Actions, extra...)
	return &n
}

// expr is e with every cell A[Home] its variable.
func (rw *outsideRewrite) expr(e Expr, bound map[string]bool) Expr {
	return mapScoped(e, bound, func(e Expr, bound map[string]bool) (Expr, bool) {
		if x, ok := e.(*IndexExpr); ok {
			if len(x.Index) == 1 && rw.homes[x.Index[0].Name] && !bound[x.Index[0].Name] {
				return &IdentExpr{Pos: x.Pos, Name: cellName(x.Name, x.Index[0].Name)}, true
			}
			return x, true
		}
		return nil, false
	})
}

// indexUse is the position of the first use of the proc variable v as
// an index in a transition (or of init, when there is none).
func (rw *outsideRewrite) indexUse(v string) Pos {
	c := rw.c
	pos := c.f.Inits[0].Pos
	found := false
	walk := func(e Expr, bound map[string]bool) {
		walkScoped(e, bound, func(e Expr, bound map[string]bool) bool {
			if found {
				return false
			}
			if x, ok := e.(*IndexExpr); ok {
				for _, i := range x.Index {
					if i.Name == v && !bound[v] {
						pos, found = i.Pos, true
					}
				}
			}
			return true
		})
	}
	for _, d := range c.f.Transitions {
		bound := rw.params(d.Params)
		walk(d.Guard, bound)
		for _, l := range d.Lets {
			walk(l.Value, bound)
		}
		for _, a := range d.Actions {
			for _, i := range a.Index {
				if !found && i.Name == v && !bound[v] {
					pos, found = i.Pos, true
				}
			}
			walk(a.Rhs, bound)
		}
		if found {
			break
		}
	}
	return pos
}
