package bmc

import "sort"

// The symbolic sets and relations the model is evaluated on. An entry is a
// formula that says when the element belongs, RELATIVE to the events
// being executed: e ∈ S holds exactly when exec(e) ∧ S[e], and (a, b) ∈ r
// exactly when exec(a) ∧ exec(b) ∧ r[a][b]. An absent entry is false.
// The keys of a value are its may-pairs, the entries that are the
// constant true its must-pairs: static relations (po, loc, ext, tag sets,
// fencerel of a tag set, ...) are made of constants only, and the
// operators fold them, so the encoding only gets terms for the pairs
// that depend on rf, co, values or control flow.

// Set is a symbolic set of events.
type Set struct{ m map[int]B }

// Rel is a symbolic relation on events.
type Rel struct{ rows []map[int]B }

func newSet() *Set { return &Set{m: map[int]B{}} }

func newRel(n int) *Rel { return &Rel{rows: make([]map[int]B, n)} }

func (r *Rel) n() int { return len(r.rows) }

func (r *Rel) get(i, j int) (B, bool) {
	if r.rows[i] == nil {
		return bFalse, false
	}
	b, ok := r.rows[i][j]
	if !ok {
		return bFalse, false
	}
	return b, true
}

func (r *Rel) set(i, j int, b B) {
	if b.isFalse() {
		if r.rows[i] != nil {
			delete(r.rows[i], j)
		}
		return
	}
	if r.rows[i] == nil {
		r.rows[i] = map[int]B{}
	}
	r.rows[i][j] = b
}

// each calls f on the entries in a deterministic order.
func (r *Rel) each(f func(i, j int, b B)) {
	for i, row := range r.rows {
		if len(row) == 0 {
			continue
		}
		for _, j := range sortedKeys(row) {
			f(i, j, row[j])
		}
	}
}

func (r *Rel) size() (may, must int) {
	for _, row := range r.rows {
		for _, b := range row {
			may++
			if b.isTrue() {
				must++
			}
		}
	}
	return
}

// static tells whether every entry is the constant true.
func (r *Rel) static() bool {
	for _, row := range r.rows {
		for _, b := range row {
			if !b.isTrue() {
				return false
			}
		}
	}
	return true
}

func (r *Rel) isEmpty() bool {
	for _, row := range r.rows {
		if len(row) > 0 {
			return false
		}
	}
	return true
}

func (s *Set) static() bool {
	for _, b := range s.m {
		if !b.isTrue() {
			return false
		}
	}
	return true
}

func (s *Set) elems() []int { return sortedKeys(s.m) }

func sortedKeys(m map[int]B) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// ops holds what the operators need: the formula builder and the
// execution condition of every event.
type ops struct {
	f    *fb
	exec []B
	// plusMemo is the closure of each relation value closed so far
	// (Power's hb* is closed in prop-base and in observation).
	plusMemo map[*Rel]*Rel
}

func (o *ops) n() int { return len(o.exec) }

func (o *ops) fullSet() *Set {
	s := newSet()
	for i := range o.exec {
		s.m[i] = bTrue
	}
	return s
}

func (o *ops) fullRel() *Rel {
	r := newRel(o.n())
	for i := range o.exec {
		for j := range o.exec {
			r.set(i, j, bTrue)
		}
	}
	return r
}

func (o *ops) idRel() *Rel {
	r := newRel(o.n())
	for i := range o.exec {
		r.set(i, i, bTrue)
	}
	return r
}

func (o *ops) setUnion(a, b *Set) *Set {
	out := newSet()
	for k, x := range a.m {
		out.m[k] = x
	}
	for k, y := range b.m {
		if x, ok := out.m[k]; ok {
			out.m[k] = o.f.or(x, y)
		} else {
			out.m[k] = y
		}
	}
	return out
}

func (o *ops) setInter(a, b *Set) *Set {
	if len(b.m) < len(a.m) {
		a, b = b, a
	}
	out := newSet()
	for k, x := range a.m {
		if y, ok := b.m[k]; ok {
			if z := o.f.and(x, y); !z.isFalse() {
				out.m[k] = z
			}
		}
	}
	return out
}

func (o *ops) setDiff(a, b *Set) *Set {
	out := newSet()
	for k, x := range a.m {
		if y, ok := b.m[k]; ok {
			if z := o.f.and(x, o.f.not(y)); !z.isFalse() {
				out.m[k] = z
			}
		} else {
			out.m[k] = x
		}
	}
	return out
}

func (o *ops) setCompl(a *Set) *Set { return o.setDiff(o.fullSet(), a) }

func (o *ops) relUnion(a, b *Rel) *Rel {
	out := newRel(o.n())
	a.each(func(i, j int, x B) { out.set(i, j, x) })
	b.each(func(i, j int, y B) {
		if x, ok := out.get(i, j); ok {
			out.set(i, j, o.f.or(x, y))
		} else {
			out.set(i, j, y)
		}
	})
	return out
}

func (o *ops) relInter(a, b *Rel) *Rel {
	out := newRel(o.n())
	a.each(func(i, j int, x B) {
		if y, ok := b.get(i, j); ok {
			out.set(i, j, o.f.and(x, y))
		}
	})
	return out
}

func (o *ops) relDiff(a, b *Rel) *Rel {
	out := newRel(o.n())
	a.each(func(i, j int, x B) {
		if y, ok := b.get(i, j); ok {
			out.set(i, j, o.f.and(x, o.f.not(y)))
		} else {
			out.set(i, j, x)
		}
	})
	return out
}

func (o *ops) relCompl(a *Rel) *Rel { return o.relDiff(o.fullRel(), a) }

func (o *ops) inverse(a *Rel) *Rel {
	out := newRel(o.n())
	a.each(func(i, j int, x B) { out.set(j, i, x) })
	return out
}

// seq is a;b: (i, j) when some executed k has (i, k) in a and (k, j) in b.
func (o *ops) seq(a, b *Rel) *Rel {
	out := newRel(o.n())
	for i, row := range a.rows {
		if len(row) == 0 {
			continue
		}
		acc := map[int][]B{}
		var order []int
		for _, k := range sortedKeys(row) {
			x := row[k]
			for _, j := range sortedKeys(b.rows[k]) {
				y := b.rows[k][j]
				if _, seen := acc[j]; !seen {
					order = append(order, j)
				}
				acc[j] = append(acc[j], o.f.and(o.exec[k], x, y))
			}
		}
		sort.Ints(order)
		for _, j := range order {
			out.set(i, j, o.f.or(acc[j]...))
		}
	}
	return out
}

func (o *ops) cross(a, b *Set) *Rel {
	out := newRel(o.n())
	for _, i := range a.elems() {
		for _, j := range b.elems() {
			out.set(i, j, o.f.and(a.m[i], b.m[j]))
		}
	}
	return out
}

func (o *ops) toID(a *Set) *Rel {
	out := newRel(o.n())
	for k, x := range a.m {
		out.set(k, k, x)
	}
	return out
}

func (o *ops) domain(r *Rel) *Set {
	out := newSet()
	for i, row := range r.rows {
		if len(row) == 0 {
			continue
		}
		var xs []B
		for _, j := range sortedKeys(row) {
			xs = append(xs, o.f.and(o.exec[j], row[j]))
		}
		if b := o.f.or(xs...); !b.isFalse() {
			out.m[i] = b
		}
	}
	return out
}

func (o *ops) rng(r *Rel) *Set { return o.domain(o.inverse(r)) }

// plus is the transitive closure, by Warshall's algorithm over formulas:
// after step k, out(i, j) says there is a path from i to j whose
// intermediate events are among 0..k and executed. Exact, and constants
// fold: the closure of a static relation over always-executed events is
// static.
func (o *ops) plus(r *Rel) *Rel {
	if c, ok := o.plusMemo[r]; ok {
		return c
	}
	out := o.warshall(r)
	if o.f.shape {
		// Shape mode's formulas are stand-ins (lazy.go, letrec.go):
		// not for later use.
		return out
	}
	if o.plusMemo == nil {
		o.plusMemo = map[*Rel]*Rel{}
	}
	o.plusMemo[r] = out
	return out
}

func (o *ops) warshall(r *Rel) *Rel {
	out := newRel(o.n())
	r.each(func(i, j int, b B) { out.set(i, j, b) })
	n := o.n()
	for k := 0; k < n; k++ {
		if len(out.rows[k]) == 0 {
			continue
		}
		var col []int
		for i := 0; i < n; i++ {
			if _, ok := out.get(i, k); ok {
				col = append(col, i)
			}
		}
		if len(col) == 0 {
			continue
		}
		succ := sortedKeys(out.rows[k])
		for _, i := range col {
			ik, _ := out.get(i, k)
			via := o.f.and(ik, o.exec[k])
			if via.isFalse() {
				continue
			}
			for _, j := range succ {
				kj := out.rows[k][j]
				x, _ := out.get(i, j)
				if x.isTrue() {
					continue
				}
				out.set(i, j, o.f.or(x, o.f.and(via, kj)))
			}
		}
	}
	return out
}
