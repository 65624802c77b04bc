package param

import (
	"math"
	"math/bits"
	"slices"
)

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
// Booleans and enumerations are never compared with numbers (nor
// ordered), so their literals are kept apart, as a finite-domain problem:
// each atom has a set of possible values (a bit set), equalities and
// disequalities between atoms narrow them, and the final check searches
// values for the atoms that such literals relate. Copying this state
// when the search branches costs a word per atom, where the matrix costs
// the square of the unknowns.
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
	dlLin // a linear constraint over reals (decidelin.go)
)

// dlLit is a literal over the unknowns of a question. A finite-domain
// literal (fd) is dlEq or dlNe between the atoms u and v, or between the
// atom u and the value c when v < 0.
type dlLit struct {
	kind dlKind
	u, v int32
	w    dlW   // dlBound
	c    int64 // dlEq, dlNe
	real bool
	fd   bool
	lc   *linCon // dlLin
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
	case dlLin:
		l.lc = l.lc.neg()
	}
	return l
}

// dlState is a conjunction of difference constraints (closed under
// shortest paths) and of disequalities, and of finite-domain literals.
type dlState struct {
	n      int
	d      []dlW // d[u*n+v] bounds x_v - x_u
	diseqs []dlLit
	isInt  []bool
	budget *int
	// dom: the values each finite-domain atom may still take; fdEq and
	// fdNe: the equalities and disequalities asserted between them
	dom        []uint64
	fdEq, fdNe [][2]int32
	// lins and linNe: the linear constraints over reals asserted
	// (decidelin.go), scale: the factor of the real weights of d
	lins, linNe []*linCon
	scale       int64
}

func (st *dlState) at(u, v int32) dlW { return st.d[int(u)*st.n+int(v)] }

func (st *dlState) clone() *dlState {
	st.spend(len(st.d)/4 + len(st.dom) + 1) // copying is work too
	c := *st
	c.d = append([]dlW(nil), st.d...)
	c.diseqs = st.diseqs[:len(st.diseqs):len(st.diseqs)] // appends copy
	c.dom = append([]uint64(nil), st.dom...)
	c.fdEq = st.fdEq[:len(st.fdEq):len(st.fdEq)]
	c.fdNe = st.fdNe[:len(st.fdNe):len(st.fdNe)]
	c.lins = st.lins[:len(st.lins):len(st.lins)]
	c.linNe = st.linNe[:len(st.linNe):len(st.linNe)]
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
	if l.fd {
		return st.fdStatus(l)
	}
	if l.kind == dlLin {
		return dlBound // (decided by the final check)
	}
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
	if l.fd && (l.kind == dlEq || l.kind == dlNe) {
		return st.fdAssert(l)
	}
	if l.kind == dlLin {
		if l.lc.op == Ne {
			st.linNe = append(st.linNe, l.lc)
		} else {
			st.lins = append(st.lins, l.lc)
		}
		return true
	}
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

// final decides the state's constraints with its disequalities: the
// finite-domain part and the difference constraints are independent.
func (st *dlState) final() dlResult {
	if r := st.fdFinal(); r != dlSat {
		return r
	}
	if r := st.dlFinal(); r != dlSat || len(st.lins)+len(st.linNe) == 0 {
		return r
	}
	return st.linFinal(st.scale)
}

// dlFinal decides the difference constraints with their disequalities.
func (st *dlState) dlFinal() dlResult {
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
				if r := lo.dlFinal(); r != dlUnsat {
					return r
				}
			}
			hi := st.clone()
			if !hi.addBound(q.v, q.u, dlW{c: -q.c - 1}) {
				return dlUnsat
			}
			return hi.dlFinal()
		}
	}
	return dlSat
}

// fdStatus evaluates a finite-domain literal.
func (st *dlState) fdStatus(l dlLit) dlKind {
	var eq dlKind
	du := st.dom[l.u]
	if l.v < 0 {
		bit := uint64(1) << uint(l.c)
		switch {
		case du&bit == 0:
			eq = dlFalse
		case du == bit:
			eq = dlTrue
		default:
			eq = dlBound
		}
	} else {
		dv := st.dom[l.v]
		switch {
		case du&dv == 0:
			eq = dlFalse
		case du == dv && bits.OnesCount64(du) == 1:
			eq = dlTrue
		default:
			eq = dlBound
			for _, p := range st.fdEq {
				if p == [2]int32{l.u, l.v} || p == [2]int32{l.v, l.u} {
					eq = dlTrue
				}
			}
			for _, p := range st.fdNe {
				if p == [2]int32{l.u, l.v} || p == [2]int32{l.v, l.u} {
					eq = dlFalse
				}
			}
		}
	}
	if l.kind == dlNe {
		switch eq {
		case dlTrue:
			return dlFalse
		case dlFalse:
			return dlTrue
		}
	}
	return eq
}

// fdAssert adds a finite-domain literal; false on a contradiction.
func (st *dlState) fdAssert(l dlLit) bool {
	if l.v < 0 {
		bit := uint64(1) << uint(l.c)
		if l.kind == dlEq {
			st.dom[l.u] &= bit
		} else {
			st.dom[l.u] &^= bit
		}
		return st.fdPropagate()
	}
	p := [2]int32{l.u, l.v}
	if l.kind == dlEq {
		st.fdEq = append(st.fdEq, p)
	} else {
		st.fdNe = append(st.fdNe, p)
	}
	return st.fdPropagate()
}

// fdPropagate narrows the domains by the equalities and disequalities
// between atoms; false when a domain becomes empty.
func (st *dlState) fdPropagate() bool {
	for changed := true; changed; {
		changed = false
		st.spend(len(st.fdEq) + len(st.fdNe) + 1)
		for _, p := range st.fdEq {
			a, b := st.dom[p[0]], st.dom[p[1]]
			if a != b {
				st.dom[p[0]], st.dom[p[1]] = a&b, a&b
				changed = true
			}
		}
		for _, p := range st.fdNe {
			a, b := st.dom[p[0]], st.dom[p[1]]
			if bits.OnesCount64(a) == 1 && b&a != 0 {
				st.dom[p[1]] = b &^ a
				changed = true
			}
			if bits.OnesCount64(b) == 1 && a&b != 0 {
				st.dom[p[0]] = a &^ b
				changed = true
			}
		}
	}
	for _, d := range st.dom {
		if d == 0 {
			return false
		}
	}
	return true
}

// fdFinal searches values for the finite-domain atoms that equalities
// or disequalities relate (the others take any value of their domain).
func (st *dlState) fdFinal() dlResult {
	if !st.fdPropagate() {
		return dlUnsat
	}
	best, size := int32(-1), 65
	for _, ps := range [2][][2]int32{st.fdEq, st.fdNe} {
		for _, p := range ps {
			for _, x := range p {
				if k := bits.OnesCount64(st.dom[x]); k > 1 && k < size {
					best, size = x, k
				}
			}
		}
	}
	if best < 0 {
		return dlSat // every related atom has one value, which propagation checked
	}
	unknown := false
	for d := st.dom[best]; d != 0; d &= d - 1 {
		if !st.spend(1) {
			return dlUnknown
		}
		b := st.clone()
		b.dom[best] = d & -d
		if !b.fdPropagate() {
			continue
		}
		switch b.fdFinal() {
		case dlSat:
			return dlSat
		case dlUnknown:
			unknown = true
		}
	}
	if unknown {
		return dlUnknown
	}
	return dlUnsat
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
	ok    bool
	scale int64 // the lcm of the denominators of the real constants
	raw   []dlRaw
	// the finite-domain atoms (booleans, enumerations) and the number of
	// values of each
	fdVars map[Term]int32
	fdSize []int
}

// The unknown 0 is the integer zero, 1 the real zero.
const (
	dlZeroInt  = 0
	dlZeroReal = 1
)

// dlRaw is a literal x_v - x_u op c before the real constants are
// scaled to integers, or a finite-domain literal (fd: see dlLit; konst:
// a comparison of two constants, true when c is 1).
type dlRaw struct {
	op    Op
	u, v  int32
	c     Rat
	real  bool
	fd    bool
	konst bool
	lin   *linCon // a linear constraint (decidelin.go)
}

func (q *dlQuery) unknown(t Term, real bool) int32 {
	if i, ok := q.vars[t]; ok {
		return i
	}
	i := int32(len(q.isInt))
	q.vars[t] = i
	q.isInt = append(q.isInt, !real)
	return i
}

// fdLit translates a literal over booleans or an enumeration.
func (q *dlQuery) fdLit(l Lit) {
	side := func(t Term) (x int32, val int64, ok bool) {
		switch t.Kind {
		case KBool, KEnum:
			return -1, int64(t.Sym), true
		case KVar, KVal, KInit:
			if !t.Off.isZero() {
				return 0, 0, false
			}
			if i, ok := q.fdVars[t]; ok {
				return i, 0, true
			}
			size := 2
			if t.Sort.Kind == SEnum {
				size = len(q.sys.Enums[t.Sort.Enum].Ctors)
			}
			if size > 64 || size == 0 {
				return 0, 0, false
			}
			i := int32(len(q.fdSize))
			q.fdVars[t] = i
			q.fdSize = append(q.fdSize, size)
			return i, 0, true
		}
		return 0, 0, false
	}
	x, a, ok1 := side(l.L)
	y, b, ok2 := side(l.R)
	if !ok1 || !ok2 || l.Op != Eq && l.Op != Ne {
		q.ok = false
		return
	}
	switch {
	case x < 0 && y < 0:
		holds := (a == b) == (l.Op == Eq)
		c := int64(0)
		if holds {
			c = 1
		}
		q.raw = append(q.raw, dlRaw{konst: true, c: Rat{c, 1}})
	case x < 0:
		q.raw = append(q.raw, dlRaw{op: l.Op, fd: true, u: y, v: -1, c: Rat{a, 1}})
	case y < 0:
		q.raw = append(q.raw, dlRaw{op: l.Op, fd: true, u: x, v: -1, c: Rat{b, 1}})
	default:
		q.raw = append(q.raw, dlRaw{op: l.Op, fd: true, u: x, v: y})
	}
}

// term is t as an unknown plus an offset; the unknown is a zero for a
// constant.
func (q *dlQuery) term(t Term) (int32, Rat, bool) {
	switch t.Kind {
	case KNum:
		if t.Sort.Kind == SReal {
			return dlZeroReal, t.Off, true
		}
		return dlZeroInt, t.Off, true
	case KSlot:
		return q.unknown(slotTerm(t.Sym), false), t.Off, true
	case KVar, KVal, KInit:
		if k := t.Sort.Kind; k == SBool || k == SEnum {
			return 0, Rat{}, false // (fdLit)
		}
		return q.unknown(t.base(), t.Sort.Kind == SReal), t.Off, true
	}
	return 0, Rat{}, false // a linear combination, a boolean or enumeration
}

// lit translates "L op R" into x_v - x_u op c, with x_u the left side's
// unknown: L = x_u + a, R = x_v + b, so L op R is x_u - x_v op b - a;
// the raw form keeps it as written (u: left, v: right).
func (q *dlQuery) lit(l Lit) {
	if k := l.L.Sort.Kind; k == SBool || k == SEnum {
		q.fdLit(l)
		return
	}
	u, a, ok1 := q.term(l.L)
	v, b, ok2 := q.term(l.R)
	if !ok1 || !ok2 {
		if (l.L.Kind == KLin || l.R.Kind == KLin) && q.linLit(l) {
			return
		}
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
	if r.lin != nil {
		return dlLit{kind: dlLin, lc: r.lin, real: true}
	}
	if r.konst {
		if r.c.Num == 1 {
			return dlLit{kind: dlTrue}
		}
		return dlLit{kind: dlFalse}
	}
	if r.fd {
		k := dlEq
		if r.op == Ne {
			k = dlNe
		}
		return dlLit{kind: k, fd: true, u: r.u, v: r.v, c: r.c.Num}
	}
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
	return decideWith(&dlScratch{}, sys, slots, lits, nots)
}

// dlScratch holds the buffers of decide's translation, which a solver
// reuses from one question to the next: the fixpoint test of FLASH asks
// a few hundred questions of up to a thousand negated conjunctions, and
// making these lists anew for each was a quarter of decide's time.
type dlScratch struct {
	vars, fdVars map[Term]int32
	raw          []dlRaw
	isInt        []bool
	fdSize       []int
	split        []int
	clauses      [][]dlLit
	clauseLits   []dlLit
}

// decideWith is decide with the buffers of sc (nothing of them is kept
// past the call: the translated literals are copied into the clauses
// and the state, which are dropped when it returns).
func decideWith(sc *dlScratch, sys *System, slots []int32, lits []Lit, nots [][]Lit) dlResult {
	if sc.vars == nil {
		sc.vars, sc.fdVars = map[Term]int32{}, map[Term]int32{}
	}
	clear(sc.vars)
	clear(sc.fdVars)
	q := &dlQuery{sys: sys, vars: sc.vars, ok: true, scale: 1, fdVars: sc.fdVars}
	nLits := len(lits)
	for _, cj := range nots {
		nLits += len(cj)
	}
	// (most literals give one raw constraint)
	q.raw = slices.Grow(sc.raw[:0], nLits)
	q.isInt = append(sc.isInt[:0], true, false)
	q.fdSize = sc.fdSize[:0]
	defer func() {
		clear(q.raw) // (linear constraints point to the heap)
		sc.raw, sc.isInt, sc.fdSize = q.raw[:0], q.isInt[:0], q.fdSize[:0]
	}()
	for _, l := range lits {
		q.lit(l)
	}
	split := append(sc.split[:0], len(q.raw))
	defer func() { sc.split = split[:0] }()
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
		q.unknown(slotTerm(s), false)
	}
	n := len(q.isInt)
	if n > dlMaxUnknowns {
		return dlUnknown
	}
	for _, r := range q.raw {
		if r.real && r.lin == nil && abs(r.c.Num)*(q.scale/r.c.Den) > 1<<40 {
			return dlUnknown
		}
	}
	// the bound of integer unknowns
	var big int64 = 2
	for _, r := range q.raw {
		if !r.real && !r.fd && !r.konst && r.lin == nil {
			big = max(big, abs(r.c.Num)+2)
		}
	}
	m := int64(n+1) * big
	budget := dlBudget
	st := &dlState{n: n, d: make([]dlW, n*n), isInt: q.isInt, budget: &budget, dom: make([]uint64, len(q.fdSize)), scale: q.scale}
	for i, k := range q.fdSize {
		st.dom[i] = uint64(1)<<uint(k) - 1
		if k == 64 {
			st.dom[i] = ^uint64(0)
		}
	}
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
		// -m <= x_i <= m
		if !st.addBound(dlZeroInt, int32(i), dlW{c: m}) || !st.addBound(int32(i), dlZeroInt, dlW{c: m}) {
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
	// the clauses are carved from one list (solve never appends to one)
	clauses := slices.Grow(sc.clauses[:0], len(nots))
	arena := slices.Grow(sc.clauseLits[:0], len(q.raw)-split[0])
	for i := range nots {
		raw := q.raw[split[i]:split[i+1]]
		k0 := len(arena)
		for _, r := range raw {
			arena = append(arena, q.final(r))
		}
		clauses = append(clauses, arena[k0:len(arena):len(arena)])
	}
	r := st.solve(clauses)
	clear(clauses)
	clear(arena)
	sc.clauses, sc.clauseLits = clauses[:0], arena[:0]
	return r
}
