package param

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// This file is linear arithmetic: terms such as "X + Y", "2*X - Y + 1"
// over int and real atoms. A term with two atoms or more (or a
// coefficient other than 1) is a KLin term: Sym names its sum of
// products in a table shared by all systems, Off is its constant. Terms
// stay comparable values, and equal sums have equal names. The syntactic
// tests treat such terms structurally; Z3 decides them.

// linTerm is a product of a linear combination.
type linTerm struct {
	Coef Rat
	Atom Term // an atom without offset
}

// linear is the view of a numeric term as Σ Coef·Atom + C.
type linear struct {
	terms []linTerm // sorted by atom, distinct atoms, no zero coefficient
	c     Rat
}

// linTable names the sums of products.
var linTable struct {
	sync.RWMutex
	sums [][]linTerm
	ids  map[string]int32
}

func linKey(ts []linTerm) string {
	var b strings.Builder
	for _, t := range ts {
		a := t.Atom
		b.WriteString(strconv.FormatInt(t.Coef.Num, 10) + "/" + strconv.FormatInt(t.Coef.Den, 10))
		for _, v := range []int64{int64(a.Kind), int64(a.Sort.Kind), int64(a.Sort.Enum), int64(a.Sym), int64(a.NArgs),
			int64(a.Args[0]), int64(a.Args[1]), int64(a.Args[2]), int64(a.Node), int64(a.Proc)} {
			b.WriteByte(',')
			b.WriteString(strconv.FormatInt(v, 10))
		}
		b.WriteByte(';')
	}
	return b.String()
}

func internLin(ts []linTerm) int32 {
	k := linKey(ts)
	linTable.RLock()
	id, ok := linTable.ids[k]
	linTable.RUnlock()
	if ok {
		return id
	}
	linTable.Lock()
	defer linTable.Unlock()
	if id, ok := linTable.ids[k]; ok {
		return id
	}
	if linTable.ids == nil {
		linTable.ids = map[string]int32{}
	}
	id = int32(len(linTable.sums))
	linTable.sums = append(linTable.sums, slices.Clone(ts))
	linTable.ids[k] = id
	return id
}

// linSum returns the products of a KLin term.
func linSum(t Term) []linTerm {
	linTable.RLock()
	defer linTable.RUnlock()
	return linTable.sums[t.Sym]
}

// ratLimit bounds the numerators and denominators of the coefficients
// and constants of linear combinations (the range of the constants of the
// checker).
const ratLimit = 1 << 40

func small(r Rat) bool { return abs(r.Num) < ratLimit && r.Den < ratLimit }

// mulRat and addRat compute with big numbers; ok is false past ratLimit.
// Numbers below fastLimit (in absolute value) are combined in int64
// without overflow: products stay below 2^60 and sums of two below 2^61.
func mulRat(r, s Rat) (Rat, bool) {
	if fast(r) && fast(s) {
		q := rat(r.Num*s.Num, max(r.Den, 1)*max(s.Den, 1))
		return q, small(q)
	}
	return bigRat(new(big.Rat).Mul(r.big(), s.big()))
}

func addRat(r, s Rat) (Rat, bool) {
	if fast(r) && fast(s) {
		rd, sd := max(r.Den, 1), max(s.Den, 1)
		q := rat(r.Num*sd+s.Num*rd, rd*sd)
		return q, small(q)
	}
	return bigRat(new(big.Rat).Add(r.big(), s.big()))
}

const fastLimit = 1 << 30

func fast(r Rat) bool { return r.Num > -fastLimit && r.Num < fastLimit && r.Den < fastLimit }

func (r Rat) big() *big.Rat { return big.NewRat(r.Num, max(r.Den, 1)) }

func bigRat(p *big.Rat) (Rat, bool) {
	if !p.Num().IsInt64() || !p.Denom().IsInt64() {
		return Rat{}, false
	}
	r := rat(p.Num().Int64(), p.Denom().Int64())
	return r, small(r)
}

// linearOf is the linear view of a numeric term.
func linearOf(t Term) linear {
	switch {
	case t.Kind == KNum:
		return linear{c: t.Off}
	case t.Kind == KLin:
		return linear{terms: linSum(t), c: t.Off}
	}
	return linear{terms: []linTerm{{Coef: Rat{1, 1}, Atom: t.base()}}, c: t.Off}
}

// plus is a + k·b; ok is false when a number grows past ratLimit.
func (a linear) plus(b linear, k Rat) (out linear, ok bool) {
	kc, ok1 := mulRat(b.c, k)
	out.c, ok = addRat(a.c, kc)
	ok = ok && ok1
	i, j := 0, 0
	for i < len(a.terms) || j < len(b.terms) {
		switch {
		case j == len(b.terms) || i < len(a.terms) && cmpTerm(a.terms[i].Atom, b.terms[j].Atom) < 0:
			out.terms = append(out.terms, a.terms[i])
			i++
		case i == len(a.terms) || cmpTerm(a.terms[i].Atom, b.terms[j].Atom) > 0:
			c, cok := mulRat(b.terms[j].Coef, k)
			ok = ok && cok
			out.terms = append(out.terms, linTerm{c, b.terms[j].Atom})
			j++
		default:
			kb, ok1 := mulRat(b.terms[j].Coef, k)
			c, ok2 := addRat(a.terms[i].Coef, kb)
			ok = ok && ok1 && ok2
			if !c.isZero() {
				out.terms = append(out.terms, linTerm{c, a.terms[i].Atom})
			}
			i++
			j++
		}
	}
	return out, ok
}

// scale is k·a.
func (a linear) scale(k Rat) (linear, bool) { return linear{c: Rat{0, 1}}.plus(a, k) }

// term is the normal form of a with sort s: a constant, an atom plus a
// constant, or a KLin term.
func (a linear) term(s Sort) Term {
	switch {
	case len(a.terms) == 0:
		return numTerm(a.c, s)
	case len(a.terms) == 1 && a.terms[0].Coef == (Rat{1, 1}):
		t := a.terms[0].Atom
		t.Off = a.c
		return t
	}
	return Term{Kind: KLin, Sort: s, Sym: internLin(a.terms), Off: a.c}
}

// mapAtoms replaces every atom of t by f(atom) (a numeric term).
func mapAtoms(t Term, f func(Term) (Term, bool)) (Term, bool) {
	sum := linear{c: t.Off}
	for _, p := range linSum(t) {
		v, ok := f(p.Atom)
		if !ok {
			return Term{}, false
		}
		if sum, ok = sum.plus(linearOf(v), p.Coef); !ok {
			return Term{}, false
		}
	}
	return sum.term(t.Sort), true
}

// linAtoms lists the atoms of a term.
func linAtoms(t Term) []Term {
	switch {
	case t.Kind == KLin:
		var out []Term
		for _, p := range linSum(t) {
			out = append(out, p.Atom)
		}
		return out
	case t.isAtom():
		return []Term{t.base()}
	}
	return nil
}

// linLit is the normal form of "d op 0" when d has a KLin part: a
// literal of the usual forms when d has one atom with coefficient ±1 or
// two atoms with coefficients 1 and -1, "Σ op c" otherwise (the first
// coefficient positive).
func linLit(op Op, d linear, s Sort) (Lit, litResult) {
	if len(d.terms) == 0 {
		return mkLit(op, numTerm(d.c, s), numTerm(Rat{0, 1}, s))
	}
	if d.terms[0].Coef.Num < 0 {
		d, _ = d.scale(Rat{-1, 1}) // negation stays within ratLimit
		op = op.flip()
	}
	a := d.terms[0].Atom
	switch {
	case len(d.terms) == 1 && d.terms[0].Coef == (Rat{1, 1}):
		// a + c op 0
		return mkLit(op, a, numTerm(d.c.neg(), s))
	case len(d.terms) == 2 && d.terms[0].Coef == (Rat{1, 1}) && d.terms[1].Coef == (Rat{-1, 1}):
		// a - b + c op 0
		b := d.terms[1].Atom
		b.Off = d.c.neg()
		return mkLit(op, a, b)
	}
	l := linear{terms: d.terms}.term(s)
	r := numTerm(d.c.neg(), s)
	if s.Kind == SInt {
		switch op {
		case Lt:
			op = Le
			r.Off = r.Off.add(Rat{-1, 1})
		case Gt:
			op = Ge
			r.Off = r.Off.add(Rat{1, 1})
		}
	}
	return Lit{Op: op, L: l, R: r}, litOpen
}

// linSort is the sort of a combination of terms of sorts a and b.
func linSort(a, b Sort) Sort {
	if a.Kind == SReal || b.Kind == SReal {
		return Sort{Kind: SReal}
	}
	return Sort{Kind: SInt}
}

// linString prints the sum of a KLin term.
func (sys *System) linString(t Term) string {
	var b strings.Builder
	for i, p := range linSum(t) {
		c := p.Coef
		switch {
		case i > 0 && c.Num < 0:
			b.WriteString(" - ")
			c = c.neg()
		case i > 0:
			b.WriteString(" + ")
		case c.Num < 0:
			b.WriteString("-")
			c = c.neg()
		}
		if c != (Rat{1, 1}) {
			b.WriteString(c.String() + "*")
		}
		b.WriteString(sys.termString(p.Atom))
	}
	return b.String()
}
