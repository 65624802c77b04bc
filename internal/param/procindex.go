package param

// A proc variable as an array index: A[Home], with "var Home : proc".
//
// Cubicle's early grammar (2011, the one of examples/challenges/
// flash_bug.cub) reads a variable as an index (its array_term takes
// "mident [ mident ]" and keeps the sort of the index, Glob): A[Home] is
// the cell of whatever process Home holds, an application of the
// uninterpreted A to the constant Home in its solver. Home is no process
// variable of the cube: it is not renamed, not made distinct from them,
// and keeps its value until a transition assigns it. The parser of its
// master branch takes only process variables and constants as indices
// (proc_name: a lower-case name or #k), while its typing still takes any
// symbol of type proc; examples/challenges/flash_inv.cub, written in the
// current transition grammar, indexes by Home in its unsafe formulas.
//
// Musket's cubes index arrays by processes only, so a formula or a
// transition that indexes by Home is read as variants, one for each
// process Home may be, each adding the literal Home = h and indexing by
// h:
//
//   - h is one of the parameters (of the transition, or of the unsafe or
//     invariant formula), one variant each;
//   - or h is a new parameter, a process distinct from the others (one
//     variant). In a transition, forall_other k. e then ranges over h
//     too: it becomes e(h) && forall_other k. e (exists_other: e(h) ||
//     exists_other k. e), so that the variant means what the transition
//     means.
//
// The variants together are the transition (the formula): whatever
// process Home holds, exactly one of them applies. A transition's
// literal Home = h is read in the state before the transition, as its
// guard and its values are, so "Home := j; A[Home] := v" writes the cell
// of the old Home. Two such variables in one transition give the
// combinations (the second may also be the first's new parameter).
//
// When Home holds no process of the instance (init says Home <> p for
// every p, as in the FLASH models that keep Home's cells apart), no
// variant would apply, while Cubicle's early solver gives A[Home] a
// value there, which its initial states do not constrain (its init
// instantiates the cube's process variables only): such a file is
// refused (noProcessHome); no file of its examples does so (those that
// say Home <> p do not index by Home).
//
// A weak Home is read by the transition's [.] process: the literal
// Home = h is that process's read, one event of the transition as any
// read of its guard (weakIndexRead).
//
// A variant whose guard says Home = i and Home <> i (t[Home=src] of a
// transition that requires Home <> src) is never enabled and is left
// out (deadVariant).
//
// The variant that gives Home a new parameter keeps the transition's
// name, its last parameters being the processes of the variables (a
// trace step t(#2) of "transition t ()" says Home is #2); the others are
// named t[Home=p]. The search, the explorers and the samples see plain
// transitions, formulas and cubes: only the checker knows of Home as an
// index. In init, Home as an index is read by procinit.go.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxProcIndexVariants bounds the variants of one transition or formula.
const maxProcIndexVariants = 256

// procBinding gives each proc variable used as an index the process it
// stands for in one variant: Vars[i] is bound to parameter To[i] (an
// index in the parameters, Fresh of which are new, at the end).
type procBinding struct {
	Vars  []string
	To    []int
	Fresh int
}

// procIndexVars returns the proc variables (of arity 0, not weak) that
// exprs and actions use as an array index, in order of first use,
// following the predicates they call; the names bound there (bound: the
// parameters; the variables of quantifiers and predicates) are not
// variables.
func (c *checker) procIndexVars(bound []Ident, exprs []Expr, actions []*Action) []string {
	var out []string
	seenPred := map[string]bool{}
	params := map[string]bool{}
	for _, b := range bound {
		params[b.Name] = true
	}
	add := func(ix Ident, bound map[string]bool) {
		if bound[ix.Name] || slices.Contains(out, ix.Name) {
			return
		}
		if gi, ok := c.globals[ix.Name]; ok {
			g := c.sys.Globals[gi]
			if g.Sort.Kind == SProc && g.Arity == 0 {
				out = append(out, ix.Name)
			}
		}
	}
	var walk func(e Expr, bound map[string]bool)
	walk = func(e Expr, bound map[string]bool) {
		switch x := e.(type) {
		case *IndexExpr:
			for _, ix := range x.Index {
				add(ix, bound)
			}
		case *AtExpr:
			walk(x.Of, bound)
		case *BinExpr:
			walk(x.L, bound)
			walk(x.R, bound)
		case *NotExpr:
			walk(x.E, bound)
		case *NegExpr:
			walk(x.E, bound)
		case *QuantExpr:
			inner := maps.Clone(bound)
			inner[x.Var.Name] = true
			walk(x.Body, inner)
		case *CaseExpr:
			for i := range x.Conds {
				walk(x.Conds[i], bound)
				walk(x.Branches[i], bound)
			}
		case *CallExpr:
			for _, a := range x.Args {
				walk(a, bound)
			}
			if p, ok := c.preds[x.Name]; ok && !seenPred[x.Name] {
				seenPred[x.Name] = true
				inner := map[string]bool{}
				for _, q := range p.Params {
					inner[q.Name] = true
				}
				walk(p.Body, inner)
			}
		}
	}
	for _, e := range exprs {
		walk(e, params)
	}
	for _, a := range actions {
		for _, ix := range a.Index {
			add(ix, params)
		}
		walk(a.Rhs, params)
	}
	return out
}

// procBindings lists the variants for vars over nparams parameters: each
// variable is one of the parameters, one of the new parameters of the
// variables before it, or a new parameter. The variant with every
// variable new comes first. ok is false past maxProcIndexVariants.
func procBindings(vars []string, nparams int) (out []procBinding, ok bool) {
	var rec func(i int, to []int, fresh int) bool
	rec = func(i int, to []int, fresh int) bool {
		if i == len(vars) {
			if len(out) == maxProcIndexVariants {
				return false
			}
			out = append(out, procBinding{Vars: vars, To: slices.Clone(to), Fresh: fresh})
			return true
		}
		// a new parameter first, then the new ones before, then the
		// declared parameters
		if !rec(i+1, append(to, nparams+fresh), fresh+1) {
			return false
		}
		for k := nparams; k < nparams+fresh; k++ {
			if !rec(i+1, append(to, k), fresh) {
				return false
			}
		}
		for k := range nparams {
			if !rec(i+1, append(to, k), fresh) {
				return false
			}
		}
		return true
	}
	ok = rec(0, nil, 0)
	return out, ok
}

// freshNames names the new parameters of b, distinct from params: the
// variable's name in lower case (home for Home).
func (b procBinding) freshNames(params []Ident) []string {
	taken := map[string]bool{}
	for _, p := range params {
		taken[p.Name] = true
	}
	names := make([]string, b.Fresh)
	for i, v := range b.Vars {
		k := b.To[i] - len(params)
		if k < 0 || names[k] != "" {
			continue
		}
		n := strings.ToLower(v)
		for taken[n] {
			n += "'"
		}
		taken[n] = true
		names[k] = n
	}
	return names
}

// suffix names the variant of a transition: "" when each variable is a
// new parameter of its own, else "[Home=i]" for a variable bound to a
// declared parameter, "[Dst=Home]" for one bound to the new parameter of
// an earlier variable.
func (b procBinding) suffix(params []Ident) string {
	var parts []string
	owner := map[int]string{} // new parameter -> its first variable
	for i, v := range b.Vars {
		switch to := b.To[i]; {
		case to < len(params):
			parts = append(parts, v+"="+params[to].Name)
		case owner[to] != "":
			parts = append(parts, v+"="+owner[to])
		default:
			owner[to] = v
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// bind sets up sc for the variant b over params: the new parameters as
// process variables, the index each variable stands for, and the
// literals Home = h, returned as a DNF of one conjunction.
func (c *checker) bind(b procBinding, params []Ident, pos Pos, sc *scope) []Conj {
	names := b.freshNames(params)
	for k, n := range names {
		s := paramSlot(len(params) + k)
		sc.vars[n] = slotTerm(s)
		sc.fresh = append(sc.fresh, s)
	}
	sc.hidx = map[string]Term{}
	cj := Conj{}
	for i, v := range b.Vars {
		h := slotTerm(paramSlot(b.To[i]))
		sc.hidx[v] = h
		gi := c.globals[v]
		home := Term{Kind: KVar, Sort: c.sys.Globals[gi].Sort, Sym: gi, Off: Rat{0, 1}}
		if c.sys.Globals[gi].Weak {
			var ok bool
			if home, ok = c.weakIndexRead(home, v, pos, sc); !ok {
				return nil
			}
		}
		cj.Lits = append(cj.Lits, Lit{Op: Eq, L: home, R: h})
	}
	return []Conj{cj}
}

// weakIndexRead is the term of a weak proc variable v used as an index:
// in a transition, the value its [.] process reads (one read event of
// the transition, as a guard's read of v: the variant is the transition
// with a parameter h and the guard v = h, read by that process); in
// init, its initial value. An unsafe or invariant formula names no
// process that would read it (its reads are p@X, and p@Home is no index
// in Cubicle's grammar), and neither Cubicle nor Cubicle-W parses a
// variable as an index (its proc_name is a process variable or #k): it
// is refused there.
func (c *checker) weakIndexRead(home Term, v string, pos Pos, sc *scope) (Term, bool) {
	switch sc.kind {
	case inInit:
		home.Kind = KInit
	case inTrans:
		if sc.actor == 0 {
			c.errorf(pos, "transition %s reads weak %s (an index): mark the process that performs it with [.]", sc.trans, v)
			return Term{}, false
		}
		home.Kind, home.Node, home.Proc = KVal, newNode, sc.actor
		*sc.reads = true
	default:
		c.errorf(pos, "unsupported: the weak proc variable %s as an index in %s: no process reads it there (a read p@%s is no index); read it into a parameter in the transitions instead", v, sc.kind, v)
		return Term{}, false
	}
	return home, true
}

// procIndexLimit reports a formula or transition with too many variants.
func (c *checker) procIndexLimit(pos Pos, what string, vars []string) {
	c.errorf(pos, "%s indexes arrays by %s: more than %d variants (one for each process each may be); make them parameters", what, strings.Join(vars, ", "), maxProcIndexVariants)
}

// freshQuant adds the new parameters of a variant to the processes
// forall_other k. e and exists_other k. e range over (q, their
// translation over the other processes): e(h) && q, or e(h) || q.
func (c *checker) freshQuant(x *QuantExpr, neg bool, sc *scope, q []Conj) []Conj {
	for _, s := range sc.fresh {
		part := c.dnf(x.Body, neg, sc.with(x.Var.Name, slotTerm(s)))
		if x.Forall != neg {
			q = c.product(x.Pos, q, part)
		} else {
			q = c.union(x.Pos, q, part)
		}
	}
	return q
}

// variantName is the name of a transition's variant.
func variantName(name string, b *procBinding, params []Ident) string {
	if b == nil {
		return name
	}
	return fmt.Sprint(name, b.suffix(params))
}

// deadVariant reports whether every conjunction of guard says both
// Home = h, a literal of bound, and Home <> h (the variant t[Home=src]
// of a transition that requires Home <> src): its guard never holds, and
// dropping it changes no pre-image and no successor.
func deadVariant(bound, guard []Conj) bool {
	for _, cj := range guard {
		dead := false
		for _, b := range bound[0].Lits {
			for _, l := range cj.Lits {
				if l.Op == Ne && (l.L == b.L && l.R == b.R || l.L == b.R && l.R == b.L) {
					dead = true
				}
			}
		}
		if !dead {
			return false
		}
	}
	return true
}

// usedAsIndex records where vars are first used as indices (the first
// in the file: unsafe formulas are checked before transitions).
func (c *checker) usedAsIndex(vars []string, pos Pos) {
	if c.hidxUse == nil {
		c.hidxUse = map[string]Pos{}
	}
	for _, v := range vars {
		if old, ok := c.hidxUse[v]; !ok || pos.Line < old.Line || pos.Line == old.Line && pos.Col < old.Col {
			c.hidxUse[v] = pos
		}
	}
}

// noProcessHome refuses a proc variable used as an index in a
// transition, unsafe or invariant formula when init says it holds no
// process: each of init's disjuncts has Home <> p, p its parameter.
// (procoutside.go reads the cells of such a variable when a conjunct at
// the top of init says so and no transition assigns it: it is no index
// here then; what remains is a Home that a transition assigns.)
// Cubicle instantiates init on the processes of its cubes only, so Home
// is then another process, not bound by init, whose cells A[Home] are
// free at init and change with the universal updates; Musket's cells
// are those of the processes init ranges over, and every variant that
// reads or writes A[Home] would be dead: it could answer SAFE where
// Cubicle finds the states through Home's cells. (The FLASH models that
// keep Home apart name its cells as variables of their own.)
func (c *checker) noProcessHome() {
	if len(c.hidxUse) == 0 || len(c.sys.Init) == 0 || len(c.f.Inits) != 1 {
		return
	}
	np := len(c.f.Inits[0].Params)
	for _, name := range slices.Sorted(maps.Keys(c.hidxUse)) {
		gi := c.globals[name]
		outside := true
		for _, cj := range c.sys.Init {
			found := false
			for _, l := range cj.Lits {
				if l.Op != Ne {
					continue
				}
				for _, p := range [2][2]Term{{l.L, l.R}, {l.R, l.L}} {
					v, s := p[0], p[1]
					if (v.Kind == KVar || v.Kind == KInit) && v.Sym == gi && v.NArgs == 0 && v.Off.isZero() && s.Kind == KSlot && s.Sym < 0 && s.Sym >= paramSlot(np-1) {
						found = true
					}
				}
			}
			if !found {
				outside = false
				break
			}
		}
		if outside {
			c.errorf(c.hidxUse[name], "unsupported: %s as an index while init says %s <> p (%s holds no process) and a transition assigns %s: Musket gives cells of their own only to a variable that holds no process in every state (procoutside.go); keep them in variables of their own", name, name, name, name)
		}
	}
}
