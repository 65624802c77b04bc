package param

import "math"

// This file decides, without Z3, most of the questions the search asks
// the solver (solver.go): is a conjunction of literals, together with the
// negations of some conjunctions, satisfiable? The literals compare
// atoms (array cells, weak reads), slots and constants, each side plus a
// constant offset. With Z3's encoding (solver.go: booleans and
// enumerations are integers in their range, processes are integers,
// slots pairwise distinct) every such literal is a difference constraint
// "x - y op c" over integer or real unknowns, so the conjunctions are
// questions of difference logic with disequalities:
//
//   - the difference constraints are kept as a matrix of shortest paths
//     (d[u][v] bounds x_v - x_u), updated in O(n²) per new constraint;
//     a negative cycle is a contradiction;
//   - a disequality that the matrix forces to be an equality is a
//     contradiction; over the reals the others can always be met (a
//     convex set that none of finitely many hyperplanes contains is not
//     covered by them), over the integers a model (the shortest paths
//     from zero) is tried and a disequality it violates is split into
//     "<" or ">";
//   - each negated conjunction is a disjunction of negated literals:
//     the literals the matrix decides are evaluated, a clause with one
//     literal left is asserted, and otherwise the search branches on the
//     clause with the fewest open literals.
//
// The procedure is complete on this fragment: it answers sat or unsat as
// Z3 does. It gives up (Z3 then decides) on linear combinations of
// several atoms, on literals that mix integer unknowns with real ones,
// on large numbers, and when a question needs more than a budget of
// steps. Integer unknowns are bounded by ±M, with M larger than the
// number of unknowns times the largest constant: a satisfiable system
// has a solution in that box (sort its values; a gap between consecutive
// values wider than every constant can be narrowed without changing the
// truth of any literal), so the bound changes no answer and gives every
// unknown a finite model value.

// dlResult is the answer of decide.
type dlResult uint8

const (
	dlUnknown dlResult = iota // outside the fragment, or over budget
	dlSat
	dlUnsat
)

// dlBudget bounds the work of one question (literal evaluations and
// matrix updates, roughly); past it Z3 decides.
const dlBudget = 200000

// dlMaxUnknowns bounds the unknowns of a question (the matrix has their
// square).
const dlMaxUnknowns = 200

// dlW is a bound c (or c minus an infinitesimal, when strict) on a
// difference x_v - x_u. Integer bounds are never strict.
type dlW struct {
	c int64
	s bool
}

var dlInf = dlW{c: math.MaxInt64}

func (a dlW) inf() bool { return a.c == math.MaxInt64 }

func (a dlW) less(b dlW) bool { return a.c < b.c || a.c == b.c && a.s && !b.s }

func (a dlW) plus(b dlW) dlW {
	if a.inf() || b.inf() {
		return dlInf
	}
	return dlW{c: a.c + b.c, s: a.s || b.s}
}

// dlKind is the kind of a translated literal.
type dlKind uint8

const (
	dlBound dlKind = iota // x_v - x_u <= w
	dlEq                  // x_v - x_u = c
	dlNe                  // x_v - x_u <> c
	dlTrue
	dlFalse
)

// dlLit is a literal over the unknowns of a question.
type dlLit struct {
	kind dlKind
	u, v int32
	w    dlW   // dlBound
	c    int64 // dlEq, dlNe
	real bool
}

// neg is the negation of l.
func (l dlLit) neg() dlLit {
	switch l.kind {
	case dlBound:
		// not (x_v - x_u <= c)  <=>  x_u - x_v < -c
		w := dlW{c: -l.w.c, s: !l.w.s}
		if !l.real {
			w = dlW{c: -l.w.c - 1}
			if l.w.s {
				w = dlW{c: -l.w.c}
			}
		}
		return dlLit{kind: dlBound, u: l.v, v: l.u, w: w, real: l.real}
	case dlEq:
		l.kind = dlNe
	case dlNe:
		l.kind = dlEq
	case dlTrue:
		l.kind = dlFalse
	case dlFalse:
		l.kind = dlTrue
	}
	return l
}

// dlState is a conjunction of difference constraints (closed under
// shortest paths) and of disequalities.
type dlState struct {
	n      int
	d      []dlW // d[u*n+v] bounds x_v - x_u
	diseqs []dlLit
	isInt  []bool
	budget *int
}

func (st *dlState) at(u, v int32) dlW { return st.d[int(u)*st.n+int(v)] }

func (st *dlState) clone() *dlState {
	c := *st
	c.d = append([]dlW(nil), st.d...)
	c.diseqs = append([]dlLit(nil), st.diseqs...)
	return &c
}

// spend charges k steps; false once the budget is spent.
func (st *dlState) spend(k int) bool {
	*st.budget -= k
	return *st.budget >= 0
}

// addBound adds x_v - x_u <= w; false on a contradiction.
func (st *dlState) addBound(u, v int32, w dlW) bool {
	if back := st.at(v, u); !back.inf() && back.plus(w).less(dlW{}) {
		return false
	}
	if !w.less(st.at(u, v)) {
		return true // implied
	}
	n := st.n
	st.spend(n * n)
	for i := 0; i < n; i++ {
		iu := st.d[i*n+int(u)]
		if iu.inf() {
			continue
		}
		iuw := iu.plus(w)
		row := st.d[i*n : i*n+n]
		vrow := st.d[int(v)*n : int(v)*n+n]
		for j := 0; j < n; j++ {
			vj := vrow[j]
			if vj.inf() {
				continue
			}
			if nw := iuw.plus(vj); nw.less(row[j]) {
				row[j] = nw
			}
		}
	}
	return true
}

// eqMatrix tells whether the difference constraints force
// x_v - x_u = c (dlTrue), exclude it (dlFalse) or leave it open (dlBound).
func (st *dlState) eqMatrix(u, v int32, c int64) dlKind {
	up, down := st.at(u, v), st.at(v, u) // x_v - x_u <= up, x_u - x_v <= down
	if !up.inf() && up.less(dlW{c: c}) || !down.inf() && down.less(dlW{c: -c}) {
		return dlFalse
	}
	if !up.inf() && !down.inf() && !(dlW{c: c}).less(up) && !(dlW{c: -c}).less(down) {
		return dlTrue
	}
	return dlBound
}

// eqStatus is eqMatrix, where an asserted disequality also excludes.
func (st *dlState) eqStatus(u, v int32, c int64) dlKind {
	if k := st.eqMatrix(u, v, c); k != dlBound {
		return k
	}
	for _, q := range st.diseqs {
		if q.u == u && q.v == v && q.c == c || q.u == v && q.v == u && q.c == -c {
			return dlFalse
		}
	}
	return dlBound
}

// status evaluates l under the state: dlTrue, dlFalse, or dlBound for
// open.
func (st *dlState) status(l dlLit) dlKind {
	switch l.kind {
	case dlBound:
		if up := st.at(l.u, l.v); !up.inf() && !l.w.less(up) {
			return dlTrue
		}
		n := l.neg()
		if up := st.at(n.u, n.v); !up.inf() && !n.w.less(up) {
			return dlFalse
		}
		return dlBound
	case dlEq:
		return st.eqStatus(l.u, l.v, l.c)
	case dlNe:
		switch st.eqStatus(l.u, l.v, l.c) {
		case dlTrue:
			return dlFalse
		case dlFalse:
			return dlTrue
		}
		return dlBound
	}
	return l.kind
}

// assert adds l; false on a contradiction.
func (st *dlState) assert(l dlLit) bool {
	switch l.kind {
	case dlBound:
		return st.addBound(l.u, l.v, l.w)
	case dlEq:
		return st.addBound(l.u, l.v, dlW{c: l.c}) && st.addBound(l.v, l.u, dlW{c: -l.c})
	case dlNe:
		switch st.eqStatus(l.u, l.v, l.c) {
		case dlTrue:
			return false
		case dlBound:
			st.diseqs = append(st.diseqs, l)
		}
		return true
	case dlFalse:
		return false
	}
	return true
}

// final decides the state's constraints with its disequalities.
func (st *dlState) final() dlResult {
	if !st.spend(len(st.diseqs) + 1) {
		return dlUnknown
	}
	var open []dlLit
	for _, q := range st.diseqs {
		switch st.eqMatrix(q.u, q.v, q.c) {
		case dlTrue:
			return dlUnsat
		case dlBound:
			if !q.real {
				open = append(open, q)
			}
		}
	}
	// the integer ones: a model from zero (every integer unknown is
	// bounded), and a split of a disequality it violates
	for _, q := range open {
		mu, mv := st.at(0, q.u), st.at(0, q.v)
		if mv.c-mu.c != q.c {
			lo := st.clone()
			if lo.addBound(q.u, q.v, dlW{c: q.c - 1}) {
				if r := lo.final(); r != dlUnsat {
					return r
				}
			}
			hi := st.clone()
			if !hi.addBound(q.v, q.u, dlW{c: -q.c - 1}) {
				return dlUnsat
			}
			return hi.final()
		}
	}
	return dlSat
}

// solve decides the state with the clauses (each the negation of a
// conjunction: one of its literals is false).
func (st *dlState) solve(clauses [][]dlLit) dlResult {
	pending := clauses
	for {
		if !st.spend(1) {
			return dlUnknown
		}
		progress := false
		next := make([][]dlLit, 0, len(pending))
		best, bestOpen := -1, 0
		for _, cl := range pending {
			open, last, done := 0, -1, false
			st.spend(len(cl))
			for j, l := range cl {
				switch st.status(l) {
				case dlFalse:
					done = true
				case dlBound:
					open++
					last = j
				}
				if done {
					break
				}
			}
			if done {
				continue
			}
			switch open {
			case 0:
				return dlUnsat // every literal of the conjunction holds
			case 1:
				if !st.assert(cl[last].neg()) {
					return dlUnsat
				}
				progress = true
				continue
			}
			if best < 0 || open < bestOpen {
				best, bestOpen = len(next), open
			}
			next = append(next, cl)
		}
		pending = next
		if *st.budget < 0 {
			return dlUnknown
		}
		if progress {
			continue
		}
		if len(pending) == 0 {
			return st.final()
		}
		cl := pending[best]
		rest := make([][]dlLit, 0, len(pending)-1)
		rest = append(rest, pending[:best]...)
		rest = append(rest, pending[best+1:]...)
		unknown := false
		for _, l := range cl {
			switch st.status(l) {
			case dlTrue:
				continue
			case dlFalse:
				// the literals asserted below make the clause hold
				switch st.solve(rest) {
				case dlSat:
					return dlSat
				case dlUnknown:
					unknown = true
				}
				if unknown {
					return dlUnknown
				}
				return dlUnsat
			}
			b := st.clone()
			if !b.assert(l.neg()) {
				continue
			}
			switch b.solve(rest) {
			case dlSat:
				return dlSat
			case dlUnknown:
				unknown = true
			}
			// the next branches may assume l
			if !st.assert(l) {
				break
			}
			if *st.budget < 0 {
				return dlUnknown
			}
		}
		if unknown {
			return dlUnknown
		}
		return dlUnsat
	}
}

// dlQuery translates a question into unknowns and literals.
type dlQuery struct {
	sys   *System
	vars  map[Term]int32 // atoms (without offset) and slots
	isInt []bool
	rng   []int64 // for booleans and enumerations: the largest value; -1: none
	ok    bool
	scale int64 // the lcm of the denominators of the real constants
	raw   []dlRaw
}

// The unknown 0 is the integer zero, 1 the real zero.
const (
	dlZeroInt  = 0
	dlZeroReal = 1
)

// dlRaw is a literal x_v - x_u op c before the real constants are
// scaled to integers.
type dlRaw struct {
	op   Op
	u, v int32
	c    Rat
	real bool
}

func (q *dlQuery) unknown(t Term, real bool, hi int64) int32 {
	if i, ok := q.vars[t]; ok {
		return i
	}
	i := int32(len(q.isInt))
	q.vars[t] = i
	q.isInt = append(q.isInt, !real)
	q.rng = append(q.rng, hi)
	return i
}

// term is t as an unknown plus an offset; the unknown is a zero for a
// constant.
func (q *dlQuery) term(t Term) (int32, Rat, bool) {
	switch t.Kind {
	case KBool, KEnum:
		return dlZeroInt, Rat{int64(t.Sym), 1}, true
	case KNum:
		if t.Sort.Kind == SReal {
			return dlZeroReal, t.Off, true
		}
		return dlZeroInt, t.Off, true
	case KSlot:
		return q.unknown(slotTerm(t.Sym), false, -1), t.Off, true
	case KVar, KVal, KInit:
		hi := int64(-1)
		switch t.Sort.Kind {
		case SBool:
			hi = 1
		case SEnum:
			hi = int64(len(q.sys.Enums[t.Sort.Enum].Ctors)) - 1
		}
		return q.unknown(t.base(), t.Sort.Kind == SReal, hi), t.Off, true
	}
	return 0, Rat{}, false // a linear combination
}

// lit translates "L op R" into x_v - x_u op c, with x_u the left side's
// unknown: L = x_u + a, R = x_v + b, so L op R is x_u - x_v op b - a;
// the raw form keeps it as written (u: left, v: right).
func (q *dlQuery) lit(l Lit) {
	u, a, ok1 := q.term(l.L)
	v, b, ok2 := q.term(l.R)
	if !ok1 || !ok2 {
		q.ok = false
		return
	}
	real := l.L.Sort.Kind == SReal || l.R.Sort.Kind == SReal
	if real {
		// integer constants are read as reals (Z3's ToReal); an
		// integer unknown in a real literal is outside the fragment
		if u == dlZeroInt {
			u = dlZeroReal
		}
		if v == dlZeroInt {
			v = dlZeroReal
		}
		if q.isInt[u] && u != dlZeroInt || q.isInt[v] && v != dlZeroInt {
			q.ok = false
			return
		}
	} else if a.Den != 1 || b.Den != 1 || !q.isInt[u] || !q.isInt[v] {
		q.ok = false
		return
	}
	c, ok := addRat(b, a.neg())
	if !ok || abs(c.Num) > 1<<40 {
		q.ok = false
		return
	}
	if real && c.Den != 1 {
		s := q.scale / gcd(q.scale, c.Den) * c.Den
		if s > 1<<20 {
			q.ok = false
			return
		}
		q.scale = s
	}
	q.raw = append(q.raw, dlRaw{op: l.Op, u: u, v: v, c: c, real: real})
}

// final turns a raw literal into a dlLit: x_u op x_v + c.
func (q *dlQuery) final(r dlRaw) dlLit {
	c := r.c.Num
	if r.real {
		c = r.c.Num * (q.scale / r.c.Den)
	}
	// x_u - x_v op c
	switch r.op {
	case Eq:
		return dlLit{kind: dlEq, u: r.v, v: r.u, c: c, real: r.real} // x_u - x_v = c
	case Ne:
		return dlLit{kind: dlNe, u: r.v, v: r.u, c: c, real: r.real}
	case Le: // x_u - x_v <= c
		return dlLit{kind: dlBound, u: r.v, v: r.u, w: dlW{c: c}, real: r.real}
	case Lt:
		if r.real {
			return dlLit{kind: dlBound, u: r.v, v: r.u, w: dlW{c: c, s: true}, real: true}
		}
		return dlLit{kind: dlBound, u: r.v, v: r.u, w: dlW{c: c - 1}}
	case Ge: // x_v - x_u <= -c
		return dlLit{kind: dlBound, u: r.u, v: r.v, w: dlW{c: -c}, real: r.real}
	}
	// Gt: x_v - x_u < -c
	if r.real {
		return dlLit{kind: dlBound, u: r.u, v: r.v, w: dlW{c: -c, s: true}, real: true}
	}
	return dlLit{kind: dlBound, u: r.u, v: r.v, w: dlW{c: -c - 1}}
}

// decide answers, if it can, whether the literals lits, with slots
// pairwise distinct, and the negations of the conjunctions nots are
// satisfiable together (the question of solver.sat).
func decide(sys *System, slots []int32, lits []Lit, nots [][]Lit) dlResult {
	q := &dlQuery{sys: sys, vars: map[Term]int32{}, ok: true, scale: 1}
	q.isInt = []bool{true, false}
	q.rng = []int64{-1, -1}
	for _, l := range lits {
		q.lit(l)
	}
	split := []int{len(q.raw)}
	for _, cj := range nots {
		for _, l := range cj {
			q.lit(l)
		}
		split = append(split, len(q.raw))
	}
	if !q.ok {
		return dlUnknown
	}
	for _, s := range slots {
		q.unknown(slotTerm(s), false, -1)
	}
	n := len(q.isInt)
	if n > dlMaxUnknowns {
		return dlUnknown
	}
	for _, r := range q.raw {
		if r.real && abs(r.c.Num)*(q.scale/r.c.Den) > 1<<40 {
			return dlUnknown
		}
	}
	// the bound of integer unknowns
	var big int64 = 2
	for _, r := range q.raw {
		if !r.real {
			big = max(big, abs(r.c.Num)+2)
		}
	}
	for _, hi := range q.rng {
		big = max(big, hi+2)
	}
	m := int64(n+1) * big
	budget := dlBudget
	st := &dlState{n: n, d: make([]dlW, n*n), isInt: q.isInt, budget: &budget}
	for i := range st.d {
		st.d[i] = dlInf
	}
	for i := 0; i < n; i++ {
		st.d[i*n+i] = dlW{}
	}
	for i := 2; i < n; i++ {
		if !q.isInt[i] {
			continue
		}
		lo, hi := -m, m
		if q.rng[i] >= 0 {
			lo, hi = 0, q.rng[i]
		}
		// x_i - x_0 <= hi, x_0 - x_i <= -lo
		if !st.addBound(dlZeroInt, int32(i), dlW{c: hi}) || !st.addBound(int32(i), dlZeroInt, dlW{c: -lo}) {
			return dlUnsat
		}
	}
	for a := range slots {
		for b := a + 1; b < len(slots); b++ {
			u, v := q.vars[slotTerm(slots[a])], q.vars[slotTerm(slots[b])]
			if !st.assert(dlLit{kind: dlNe, u: u, v: v, c: 0}) {
				return dlUnsat
			}
		}
	}
	for _, r := range q.raw[:split[0]] {
		if !st.assert(q.final(r)) {
			return dlUnsat
		}
	}
	clauses := make([][]dlLit, 0, len(nots))
	for i := range nots {
		raw := q.raw[split[i]:split[i+1]]
		cl := make([]dlLit, 0, len(raw))
		for _, r := range raw {
			cl = append(cl, q.final(r))
		}
		clauses = append(clauses, cl)
	}
	return st.solve(clauses)
}
