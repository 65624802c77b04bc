package rel

import (
	"math/bits"
	"strconv"
	"strings"
)

// Rel is a binary relation over a universe of N events, one bitset row per
// event: row i holds the events j with (i, j) in the relation.
//
// It is a word and a slice, 32 bytes, the words per row computed from n
// (wpr) rather than stored: Go keeps a struct of at most four words in
// registers and copies a larger one through memory, which in
// WebAssembly is a memory.copy instruction, in Node 20's V8 a call out of
// the compiled code, for every relation passed, returned or stored. With
// the 40-byte Rel, memory.copy took 8% of the explicit engine's samples
// on the X86 litmus suite in Node (perf); 32 bytes made each pass 11%
// shorter there, and the same work natively 5% shorter.
type Rel struct {
	n int // universe size
	b []uint64
}

// wpr is the number of words per row.
func (r Rel) wpr() int { return int(uint(r.n+63) >> 6) }

// NewRel returns the empty relation over n events.
func NewRel(n int) Rel {
	w := words(n)
	return Rel{n: n, b: make([]uint64, n*w)}
}

// RelOf returns the relation over n events holding the given pairs.
func RelOf(n int, pairs ...[2]int) Rel {
	r := NewRel(n)
	for _, p := range pairs {
		r.set(p[0], p[1])
	}
	return r
}

// Builder accumulates pairs and then yields a Rel; it is the only mutable
// way to make a relation.
type Builder struct{ r Rel }

// NewBuilder starts an empty relation over n events.
func NewBuilder(n int) *Builder { return &Builder{r: NewRel(n)} }

// Add puts (i, j) in the relation being built.
func (b *Builder) Add(i, j int) { b.r.set(i, j) }

// Rel returns the relation built so far; the builder must not be used after.
func (b *Builder) Rel() Rel { return b.r }

func (r Rel) set(i, j int) { r.b[i*r.wpr()+j>>6] |= 1 << (uint(j) & 63) }

func (r Rel) row(i int) []uint64 { return r.b[i*r.wpr() : (i+1)*r.wpr()] }

// N is the size of the universe.
func (r Rel) N() int { return r.n }

// Has tells whether (i, j) is in r.
func (r Rel) Has(i, j int) bool {
	if i < 0 || j < 0 || i >= r.n || j >= r.n {
		return false
	}
	return r.b[i*r.wpr()+j>>6]&(1<<(uint(j)&63)) != 0
}

func (r Rel) clone() Rel {
	b := make([]uint64, len(r.b))
	copy(b, r.b)
	return Rel{n: r.n, b: b}
}

// Identity returns the identity relation on s.
func Identity(s Set) Rel {
	r := NewRel(s.n)
	s.Each(func(e int) { r.set(e, e) })
	return r
}

// Cross returns the cartesian product s × t.
func Cross(s, t Set) Rel {
	r := NewRel(s.n)
	s.Each(func(e int) { copy(r.row(e), t.w) })
	return r
}

// Union returns r ∪ s.
func (r Rel) Union(s Rel) Rel {
	o := r.clone()
	orWords(o.b, s.b)
	return o
}

// Inter returns r ∩ s.
func (r Rel) Inter(s Rel) Rel {
	o := r.clone()
	andWords(o.b, s.b)
	return o
}

// Diff returns r \ s.
func (r Rel) Diff(s Rel) Rel {
	o := r.clone()
	andNotWords(o.b, s.b)
	return o
}

// Complement returns the pairs of the universe not in r.
func (r Rel) Complement() Rel {
	return Cross(Full(r.n), Full(r.n)).Diff(r)
}

// Inverse returns r⁻¹.
func (r Rel) Inverse() Rel {
	o := NewRel(r.n)
	r.Each(func(i, j int) { o.set(j, i) })
	return o
}

// Seq returns the composition r;s = {(i,k) | (i,j) ∈ r, (j,k) ∈ s}.
func (r Rel) Seq(s Rel) Rel {
	o := NewRel(r.n)
	seqInto(o, r, s)
	return o
}

// seqInto sets the empty o to r;s.
func seqInto(o, r, s Rel) {
	if r.wpr() == 1 {
		for i, x := range r.b {
			var oi uint64
			for ; x != 0; x &= x - 1 {
				oi |= s.b[bits.TrailingZeros64(x)]
			}
			o.b[i] = oi
		}
		return
	}
	if r.wpr() == 2 {
		seqChain2(o, []Factor{{R: r}, {R: s}})
		return
	}
	for i := 0; i < r.n; i++ {
		ri := r.row(i)
		oi := o.row(i)
		for wi, x := range ri {
			for x != 0 {
				j := wi*64 + bits.TrailingZeros64(x)
				x &= x - 1
				sj := s.row(j)
				for k := range oi {
					oi[k] |= sj[k]
				}
			}
		}
	}
}

// Plus returns the transitive closure r⁺ (Warshall's algorithm on the
// bitset rows; a pivot k with no successor adds nothing and is skipped).
func (r Rel) Plus() Rel {
	o := r.clone()
	closeInPlace(o)
	return o
}

// closeInPlace sets o to o⁺.
func closeInPlace(o Rel) {
	w := o.wpr()
	if w == 1 {
		b := o.b
		for k, rk := range b {
			if rk == 0 {
				continue
			}
			kb := uint64(1) << uint(k)
			for i, x := range b {
				if x&kb != 0 {
					b[i] = x | rk
				}
			}
		}
		return
	}
	if w == 2 {
		b := o.b
		for k := 0; k < o.n; k++ {
			r0, r1 := b[2*k], b[2*k+1]
			if r0|r1 == 0 {
				continue
			}
			kw, kb := k>>6, uint64(1)<<(uint(k)&63)
			for i := 0; i < o.n; i++ {
				if b[2*i+kw]&kb != 0 {
					b[2*i] |= r0
					b[2*i+1] |= r1
				}
			}
		}
		return
	}
	for k := 0; k < o.n; k++ {
		rk := o.b[k*w : (k+1)*w]
		empty := true
		for _, x := range rk {
			if x != 0 {
				empty = false
				break
			}
		}
		if empty {
			continue
		}
		kw, kb := k>>6, uint64(1)<<(uint(k)&63)
		for i := 0; i < o.n; i++ {
			if o.b[i*w+kw]&kb == 0 {
				continue
			}
			ri := o.b[i*w : (i+1)*w]
			for x := range ri {
				ri[x] |= rk[x]
			}
		}
	}
}

// Star returns the reflexive-transitive closure r* over the whole universe.
func (r Rel) Star() Rel { return r.Plus().Union(Identity(Full(r.n))) }

// Opt returns r? = r ∪ id over the whole universe.
func (r Rel) Opt() Rel { return r.Union(Identity(Full(r.n))) }

// Domain returns {i | (i, j) ∈ r}.
func (r Rel) Domain() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		for _, x := range r.row(i) {
			if x != 0 {
				s.w[i>>6] |= 1 << (uint(i) & 63)
				break
			}
		}
	}
	return s
}

// Range returns {j | (i, j) ∈ r}.
func (r Rel) Range() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		for w, x := range r.row(i) {
			s.w[w] |= x
		}
	}
	return s
}

// Restrict returns [dom];r;[rng].
func (r Rel) Restrict(dom, rng Set) Rel {
	o := NewRel(r.n)
	dom.Each(func(i int) {
		oi, ri := o.row(i), r.row(i)
		for w := range oi {
			oi[w] = ri[w] & rng.w[w]
		}
	})
	return o
}

// Succ returns the set {j | (i, j) ∈ r}.
func (r Rel) Succ(i int) Set {
	s := NewSet(r.n)
	copy(s.w, r.row(i))
	return s
}

// IsEmpty tells whether r has no pair.
func (r Rel) IsEmpty() bool {
	for _, x := range r.b {
		if x != 0 {
			return false
		}
	}
	return true
}

// Len is the number of pairs in r.
func (r Rel) Len() int {
	c := 0
	for _, x := range r.b {
		c += bits.OnesCount64(x)
	}
	return c
}

// Equal tells whether r and s hold the same pairs.
func (r Rel) Equal(s Rel) bool {
	if r.n != s.n || len(r.b) != len(s.b) {
		return false
	}
	if len(r.b) == 0 || &r.b[0] == &s.b[0] {
		return true // the same words (an input given again)
	}
	sb := s.b[:len(r.b)]
	for i, x := range r.b {
		if x != sb[i] {
			return false
		}
	}
	return true
}

// SubsetOf tells whether r ⊆ s.
func (r Rel) SubsetOf(s Rel) bool {
	for i := range r.b {
		if r.b[i]&^s.b[i] != 0 {
			return false
		}
	}
	return true
}

// Irreflexive tells whether no (i, i) is in r.
func (r Rel) Irreflexive() bool {
	for i := 0; i < r.n; i++ {
		if r.Has(i, i) {
			return false
		}
	}
	return true
}

// Reflexive returns the events i with (i, i) in r.
func (r Rel) Reflexive() Set {
	s := NewSet(r.n)
	for i := 0; i < r.n; i++ {
		if r.Has(i, i) {
			s.w[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	return s
}

// Acyclic tells whether r has no cycle.
func (r Rel) Acyclic() bool {
	if r.wpr() == 1 {
		return acyclic1(r.b)
	}
	return r.Cycle() == nil
}

// acyclic1 tells whether a relation on at most 64 events (a row per
// word) has no cycle, without allocating: it removes the events with no
// successor left until none remains (acyclic) or every remaining event has
// one (a cycle).
func acyclic1(b []uint64) bool {
	var left uint64
	for i, x := range b {
		if x != 0 {
			left |= 1 << uint(i)
		}
	}
	for left != 0 {
		var sinks uint64
		for x := left; x != 0; x &= x - 1 {
			i := bits.TrailingZeros64(x)
			if b[i]&left == 0 {
				sinks |= 1 << uint(i)
			}
		}
		if sinks == 0 {
			return false
		}
		left &^= sinks
	}
	return true
}

// Cycle returns the events of one cycle of r in order, or nil when r is
// acyclic.
func (r Rel) Cycle() []int {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, r.n)
	parent := make([]int, r.n)
	var found []int
	var visit func(i int) bool
	visit = func(i int) bool {
		color[i] = grey
		for w, x := range r.row(i) {
			for x != 0 {
				j := w*64 + bits.TrailingZeros64(x)
				x &= x - 1
				switch color[j] {
				case grey:
					c := []int{j}
					for k := i; k != j; k = parent[k] {
						c = append(c, k)
					}
					for a, b := 1, len(c)-1; a < b; a, b = a+1, b-1 {
						c[a], c[b] = c[b], c[a]
					}
					found = c
					return true
				case white:
					parent[j] = i
					if visit(j) {
						return true
					}
				}
			}
		}
		color[i] = black
		return false
	}
	for i := 0; i < r.n; i++ {
		if color[i] == white && visit(i) {
			return found
		}
	}
	return nil
}

// Each calls f on every pair of r in row-major order.
func (r Rel) Each(f func(i, j int)) {
	for i := 0; i < r.n; i++ {
		for w, x := range r.row(i) {
			for x != 0 {
				f(i, w*64+bits.TrailingZeros64(x))
				x &= x - 1
			}
		}
	}
}

// Pairs lists the pairs of r in row-major order.
func (r Rel) Pairs() [][2]int {
	var out [][2]int
	r.Each(func(i, j int) { out = append(out, [2]int{i, j}) })
	return out
}

// Key is a string that identifies the relation's contents (for hashing).
func (r Rel) Key() string {
	var b strings.Builder
	for _, x := range r.b {
		b.WriteString(strconv.FormatUint(x, 36))
		b.WriteByte('.')
	}
	return b.String()
}

// String prints the relation as {(i,j),...}.
func (r Rel) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for k, p := range r.Pairs() {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + strconv.Itoa(p[0]) + "," + strconv.Itoa(p[1]) + ")")
	}
	b.WriteByte('}')
	return b.String()
}
