// Package rel is the relation algebra over the events of one execution:
// sets of events and binary relations on them, stored as bitsets, with the
// operators of the CAT language (union, intersection, difference, sequence,
// inverse, closures, domain, range, cartesian product) and the checks
// (acyclicity, irreflexivity, emptiness).
//
// Events are numbered 0..n-1. Every value is immutable once shared: the
// operators return fresh values and never change their arguments, so values
// may be shared freely between environments. The only exceptions are the
// *With and SetDiff methods, which change a fresh value its maker has not
// shared yet, in place.
package rel

import (
	"math/bits"
	"strconv"
	"strings"
)

// Set is a set of events over a universe of N events.
type Set struct {
	n int
	w []uint64
}

func words(n int) int { return (n + 63) / 64 }

// NewSet returns the empty set over n events.
func NewSet(n int) Set { return Set{n: n, w: make([]uint64, words(n))} }

// SetOf returns the set over n events holding the given events.
func SetOf(n int, elems ...int) Set {
	s := NewSet(n)
	for _, e := range elems {
		s.w[e>>6] |= 1 << (uint(e) & 63)
	}
	return s
}

// Full returns the set of all n events.
func Full(n int) Set {
	s := NewSet(n)
	for i := 0; i < n; i++ {
		s.w[i>>6] |= 1 << (uint(i) & 63)
	}
	return s
}

// N is the size of the universe.
func (s Set) N() int { return s.n }

// Has tells whether e is in s.
func (s Set) Has(e int) bool {
	if e < 0 || e >= s.n {
		return false
	}
	return s.w[e>>6]&(1<<(uint(e)&63)) != 0
}

// With returns s with e added.
func (s Set) With(e int) Set {
	r := s.clone()
	r.w[e>>6] |= 1 << (uint(e) & 63)
	return r
}

// Without returns s with e removed.
func (s Set) Without(e int) Set {
	r := s.clone()
	r.w[e>>6] &^= 1 << (uint(e) & 63)
	return r
}

func (s Set) clone() Set {
	w := make([]uint64, len(s.w))
	copy(w, s.w)
	return Set{n: s.n, w: w}
}

// Union returns s ∪ t.
func (s Set) Union(t Set) Set {
	r := s.clone()
	orWords(r.w, t.w)
	return r
}

// Inter returns s ∩ t.
func (s Set) Inter(t Set) Set {
	r := s.clone()
	andWords(r.w, t.w)
	return r
}

// Diff returns s \ t.
func (s Set) Diff(t Set) Set {
	r := s.clone()
	andNotWords(r.w, t.w)
	return r
}

// Complement returns the events of the universe not in s.
func (s Set) Complement() Set { return Full(s.n).Diff(s) }

// IsEmpty tells whether s has no event.
func (s Set) IsEmpty() bool {
	for _, x := range s.w {
		if x != 0 {
			return false
		}
	}
	return true
}

// Len is the number of events in s.
func (s Set) Len() int {
	c := 0
	for _, x := range s.w {
		c += bits.OnesCount64(x)
	}
	return c
}

// Equal tells whether s and t hold the same events.
func (s Set) Equal(t Set) bool {
	if s.n != t.n || len(s.w) != len(t.w) {
		return false
	}
	if len(s.w) == 0 || &s.w[0] == &t.w[0] {
		return true // the same words
	}
	tw := t.w[:len(s.w)]
	for i, x := range s.w {
		if x != tw[i] {
			return false
		}
	}
	return true
}

// SubsetOf tells whether s ⊆ t.
func (s Set) SubsetOf(t Set) bool {
	for i := range s.w {
		if s.w[i]&^t.w[i] != 0 {
			return false
		}
	}
	return true
}

// Elems lists the events of s in increasing order.
func (s Set) Elems() []int {
	var out []int
	s.Each(func(e int) { out = append(out, e) })
	return out
}

// Each calls f on every event of s in increasing order.
func (s Set) Each(f func(e int)) {
	for i, x := range s.w {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			f(i*64 + b)
			x &= x - 1
		}
	}
}

// Key is a string that identifies the set's contents (for hashing).
func (s Set) Key() string {
	var b strings.Builder
	for _, x := range s.w {
		b.WriteString(strconv.FormatUint(x, 36))
		b.WriteByte('.')
	}
	return b.String()
}

// String prints the set as {e1,e2,...}.
func (s Set) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, e := range s.Elems() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(e))
	}
	b.WriteByte('}')
	return b.String()
}
