package param

import (
	"slices"
	"strconv"
	"strings"
)

// This file extends decide.go to literals over linear combinations of
// real atoms ("E + Clock[#1] - Clock[#2] >= 1", made by the elimination
// of time steps, tick.go). The search of decide.go treats such a literal
// as open until its final check, which decides the real constraints
// together (those of the difference matrix between real unknowns, and
// the linear ones) by Fourier-Motzkin elimination, exact over the
// rationals with strict and non-strict inequalities. A real disequality
// is violated only when the constraints force the equality (the
// convexity argument of decide.go): the constraints with "e < c" and
// with "e > c" are then both infeasible. Literals with integer atoms in
// a linear combination stay outside the fragment (Z3 decides them).

// linCon is "Σ a·x op b" over real unknowns, op one of Le, Lt, Eq, Ne.
type linCon struct {
	xs []int32
	as []Rat
	b  Rat
	op Op
}

// neg is the negation of c.
func (c *linCon) neg() *linCon {
	n := &linCon{xs: c.xs, b: c.b, op: c.op}
	switch c.op {
	case Eq:
		n.op = Ne
		n.as = c.as
	case Ne:
		n.op = Eq
		n.as = c.as
	default:
		// not (Σ <= b)  <=>  -Σ < -b;  not (Σ < b)  <=>  -Σ <= -b
		n.as = make([]Rat, len(c.as))
		for i, a := range c.as {
			n.as[i] = a.neg()
		}
		n.b = c.b.neg()
		n.op = Lt
		if c.op == Lt {
			n.op = Le
		}
	}
	return n
}

// linLit translates a literal with a linear combination of real atoms;
// false when it is outside the fragment.
func (q *dlQuery) linLit(l Lit) bool {
	d, ok := linearOf(l.L).plus(linearOf(l.R), Rat{-1, 1}) // L - R op 0
	if !ok {
		return false
	}
	c := &linCon{op: l.Op}
	for _, p := range d.terms {
		if !p.Atom.isAtom() || p.Atom.Sort.Kind != SReal {
			return false
		}
		c.xs = append(c.xs, q.unknown(p.Atom.base(), true))
		c.as = append(c.as, p.Coef)
	}
	// Σ + k op 0
	k := d.c
	switch l.Op {
	case Le, Lt, Eq, Ne:
		c.b = k.neg()
	default: // Ge, Gt: -Σ op' k
		for i := range c.as {
			c.as[i] = c.as[i].neg()
		}
		c.b = k
		c.op = Le
		if l.Op == Gt {
			c.op = Lt
		}
	}
	q.raw = append(q.raw, dlRaw{lin: c})
	return true
}

// fmRow is "Σ a·x <= b" (< b when strict) over the columns of an
// elimination.
type fmRow struct {
	a      []Rat
	b      Rat
	strict bool
}

// fmMaxRows bounds the rows of an elimination (past it: unknown).
const fmMaxRows = 2000

// fmFeasible decides the rows by Fourier-Motzkin elimination.
func fmFeasible(rows []fmRow, cols int, budget *int) dlResult {
	for {
		*budget -= len(rows)
		if *budget < 0 || len(rows) > fmMaxRows {
			return dlUnknown
		}
		// the column with the fewest new rows
		best, bestCost := -1, 0
		for j := 0; j < cols; j++ {
			pos, neg := 0, 0
			for _, r := range rows {
				switch {
				case r.a[j].Num > 0:
					pos++
				case r.a[j].Num < 0:
					neg++
				}
			}
			if pos+neg == 0 {
				continue
			}
			if cost := pos * neg; best < 0 || cost < bestCost {
				best, bestCost = j, cost
			}
		}
		if best < 0 {
			break
		}
		var next, pos, neg []fmRow
		for _, r := range rows {
			switch {
			case r.a[best].Num > 0:
				pos = append(pos, r)
			case r.a[best].Num < 0:
				neg = append(neg, r)
			default:
				next = append(next, r)
			}
		}
		seen := map[string]int{}
		for _, p := range pos {
			for _, n := range neg {
				// -n_j * p + p_j * n: both multipliers positive
				lp, ln := n.a[best].neg(), p.a[best]
				row := fmRow{a: make([]Rat, cols), strict: p.strict || n.strict}
				for j := 0; j < cols; j++ {
					x, ok1 := mulRat(lp, p.a[j])
					y, ok2 := mulRat(ln, n.a[j])
					s, ok3 := addRat(x, y)
					if !ok1 || !ok2 || !ok3 {
						return dlUnknown
					}
					row.a[j] = s
				}
				x, ok1 := mulRat(lp, p.b)
				y, ok2 := mulRat(ln, n.b)
				s, ok3 := addRat(x, y)
				if !ok1 || !ok2 || !ok3 {
					return dlUnknown
				}
				row.a[best] = Rat{0, 1}
				row.b = s
				if !fmNormalize(&row) {
					return dlUnknown
				}
				key := fmKey(row)
				if i, ok := seen[key]; ok {
					// keep the tighter bound
					o := next[i]
					if c := row.b.cmp(o.b); c < 0 || c == 0 && row.strict && !o.strict {
						next[i] = row
					}
					continue
				}
				seen[key] = len(next)
				next = append(next, row)
			}
		}
		rows = next
	}
	for _, r := range rows {
		if c := r.b.cmp(Rat{0, 1}); c < 0 || c == 0 && r.strict {
			return dlUnsat // 0 <= b (0 < b) fails
		}
	}
	return dlSat
}

// fmNormalize divides a row by the absolute value of its first non-zero
// coefficient.
func fmNormalize(r *fmRow) bool {
	for _, a := range r.a {
		if a.Num == 0 {
			continue
		}
		inv := Rat{a.Den, abs(a.Num)}
		for j := range r.a {
			x, ok := mulRat(r.a[j], inv)
			if !ok {
				return false
			}
			r.a[j] = x
		}
		x, ok := mulRat(r.b, inv)
		r.b = x
		return ok
	}
	return true
}

func fmKey(r fmRow) string {
	var b strings.Builder
	for _, a := range r.a {
		b.WriteString(strconv.FormatInt(a.Num, 10))
		b.WriteByte('/')
		b.WriteString(strconv.FormatInt(a.Den, 10))
		b.WriteByte(',')
	}
	return b.String()
}

// linFinal decides the real constraints when linear ones were asserted:
// the real difference constraints of the matrix (scaled by scale) and
// the linear ones, then each real disequality.
func (st *dlState) linFinal(scale int64) dlResult {
	// the columns: the real unknowns but the real zero
	col := map[int32]int{}
	var reals []int32
	for i := int32(0); i < int32(st.n); i++ {
		if !st.isInt[i] && i != dlZeroReal {
			col[i] = len(reals)
			reals = append(reals, i)
		}
	}
	cols := len(reals)
	// row adds Σ as·xs <= b (the real zero is the constant 0)
	var rows []fmRow
	row := func(xs []int32, as []Rat, b Rat, strict bool) {
		r := fmRow{a: make([]Rat, cols), b: b, strict: strict}
		for j := range r.a {
			r.a[j] = Rat{0, 1}
		}
		for k, x := range xs {
			if x == dlZeroReal {
				continue
			}
			s, _ := addRat(r.a[col[x]], as[k])
			r.a[col[x]] = s
		}
		rows = append(rows, r)
	}
	one, minus := Rat{1, 1}, Rat{-1, 1}
	all := append([]int32{dlZeroReal}, reals...)
	for _, u := range all {
		for _, v := range all {
			if w := st.at(u, v); u != v && !w.inf() {
				// x_v - x_u <= w / scale
				row([]int32{v, u}, []Rat{one, minus}, rat(w.c, scale), w.s)
			}
		}
	}
	add := func(c *linCon) {
		switch c.op {
		case Le, Lt:
			row(c.xs, c.as, c.b, c.op == Lt)
		case Eq:
			row(c.xs, c.as, c.b, false)
			n := make([]Rat, len(c.as))
			for i, a := range c.as {
				n[i] = a.neg()
			}
			row(c.xs, n, c.b.neg(), false)
		}
	}
	for _, c := range st.lins {
		add(c)
	}
	if r := fmFeasible(rows, cols, st.budget); r != dlSat {
		return r
	}
	base := rows
	forced := func(c *linCon) dlResult {
		// both e < b and e > b infeasible
		for _, lo := range []bool{true, false} {
			rows = slices.Clip(base)
			if lo {
				row(c.xs, c.as, c.b, true)
			} else {
				n := make([]Rat, len(c.as))
				for i, a := range c.as {
					n[i] = a.neg()
				}
				row(c.xs, n, c.b.neg(), true)
			}
			switch fmFeasible(rows, cols, st.budget) {
			case dlSat:
				return dlSat
			case dlUnknown:
				return dlUnknown
			}
		}
		return dlUnsat
	}
	nes := slices.Clone(st.linNe)
	for _, q := range st.diseqs {
		if q.real {
			// x_v - x_u <> c / scale
			nes = append(nes, &linCon{xs: []int32{q.v, q.u}, as: []Rat{one, minus}, b: rat(q.c, scale), op: Ne})
		}
	}
	for _, c := range nes {
		if r := forced(c); r != dlSat {
			return r
		}
	}
	return dlSat
}
