package param

// A proc variable as an index in init: init (i) { A[i] = Idle && B[Home] = Busy }.
//
// Cubicle instantiates init on the process variables of the cube it
// tests, and a literal over B[Home] is asserted as it is, B[Home] being
// the cell of whatever process Home holds (an application of B to the
// constant Home in its solver). When the cube ties Home to one of its
// processes p, the init formula holds of p's cells, those of Home.
//
// Musket reads init the way it reads A[Home] elsewhere (procindex.go):
// Home is a process, and init holds of every process with B[Home] the
// cell of Home's process. Over the processes P of a cube (reachesInit
// instantiates init on the tuples of distinct processes of the cube),
// that is, for init (i) { body }, with one new universal parameter h:
//
//	init (i h) { body' && (Home <> h || body[Home := h])
//	                   && (Home <> i || body[Home := i]) }
//
// where body' is body with every literal over a cell of Home dropped.
// The two clauses say that when Home is one of P, body holds with
// Home's cells for every i of P (i = Home included); body' says what
// body says of the other cells when Home is none of P (Home's cells are
// then not in the cube, and dropping literals only weakens: the test
// may accept more cubes, never fewer, so no unsafe state is missed).
// One clause per variant of procBindings: several variables give the
// combinations, the second one possibly Home's process.
//
// Init then has one universal parameter more per variable: the cubes
// are tested with that many processes at least (reachesInit adds them),
// and the cross-check explores instances of that many processes at
// least (SelfCheck).
//
// Where Cubicle differs: when its cube does not tie Home to a process,
// it still asserts the literals over Home's cells (their value is free
// but shared by every instance of body); body' drops them. The two
// differ only for an init whose disjuncts disagree about Home's cells,
// and Musket then accepts more initial cubes (it may say UNSAFE where
// Cubicle says SAFE, never the converse).

import "strings"

// initProcIndex reads init's body with vars, the proc variables it
// uses as indices, as above: the DNF over len(in.Params)+len(vars)
// universal parameters, and that count.
func (c *checker) initProcIndex(in *Formula, vars []string) ([]Conj, int) {
	np := len(in.Params)
	arity := np + len(vars)
	if arity > maxArity {
		c.errorf(in.Pos, "init indexes arrays by %s: with its %d parameters, more than %d processes (one for each variable); make them parameters", strings.Join(vars, ", "), np, maxArity)
		return nil, 0
	}
	if n := c.sys.NumberProcs; n > 0 && n < arity {
		c.errorf(in.Pos, "unsupported: init indexes arrays by %s, which needs %d processes, and number_procs is %d", strings.Join(vars, ", "), arity, n)
		return nil, 0
	}
	bs, ok := procBindings(vars, np)
	if !ok {
		c.procIndexLimit(in.Pos, "init", vars)
		return nil, 0
	}
	scope := func() *scope {
		sc := &scope{kind: inInit, vars: map[string]Term{}}
		for i, p := range in.Params {
			sc.vars[p.Name] = slotTerm(paramSlot(i))
		}
		return sc
	}
	// body': every variable a new parameter (bs[0]), the literals over
	// them dropped
	sc := scope()
	c.bind(bs[0], in.Params, in.Pos, sc)
	fresh := map[int32]bool{}
	for _, s := range sc.fresh {
		fresh[s] = true
	}
	out := dropSlots(c.dnf(in.Body, false, sc), fresh)
	for _, b := range bs {
		sc := scope()
		bound := c.bind(b, in.Params, in.Pos, sc)
		if bound == nil {
			return nil, 0
		}
		var clause []Conj
		for _, l := range bound[0].Lits {
			l.Op = Ne
			clause = append(clause, Conj{Lits: []Lit{l}})
		}
		clause = c.union(in.Pos, clause, c.dnf(in.Body, false, sc))
		out = c.product(in.Pos, out, clause)
		if out == nil {
			break
		}
	}
	return out, arity
}

// dropSlots is d with every literal that mentions one of slots left out
// of its conjunctions (each conjunction, and so d, only weakens).
func dropSlots(d []Conj, slots map[int32]bool) []Conj {
	out := make([]Conj, len(d))
	for i, cj := range d {
		out[i] = cj
		out[i].Lits = nil
		for _, l := range cj.Lits {
			if !mentionsSlot(l.L, slots) && !mentionsSlot(l.R, slots) {
				out[i].Lits = append(out[i].Lits, l)
			}
		}
	}
	return out
}

// mentionsSlot reports whether t names one of slots (as itself, an
// index, a reader, or in a linear sum).
func mentionsSlot(t Term, slots map[int32]bool) bool {
	switch t.Kind {
	case KSlot:
		return slots[t.Sym]
	case KVar, KInit, KVal:
		for _, a := range t.Args[:t.NArgs] {
			if slots[a] {
				return true
			}
		}
		return t.Kind == KVal && slots[t.Proc]
	case KLin:
		for _, a := range linAtoms(t) {
			if mentionsSlot(a, slots) {
				return true
			}
		}
	}
	return false
}
