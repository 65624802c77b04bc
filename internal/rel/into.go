package rel

import "math/bits"

// Relations and sets in storage the caller gives: a CAT evaluator makes
// thousands of short-lived relations per execution, and takes their words
// from slabs of its own rather than one allocation each. The Set*
// methods write an operation's result into their receiver, which must be
// empty, over the same universe as the operands, and none of them.

// RelWords is the number of words a relation over n events takes.
func RelWords(n int) int { return n * words(n) }

// SetWords is the number of words a set over n events takes.
func SetWords(n int) int { return words(n) }

// NewRelIn returns the empty relation over n events kept in
// buf[:RelWords(n)], which must be all zero and is the relation's from now
// on.
func NewRelIn(n int, buf []uint64) Rel {
	w := words(n)
	return Rel{n: n, b: buf[: n*w : n*w]}
}

// NewSetIn returns the empty set over n events kept in buf[:SetWords(n)],
// which must be all zero and is the set's from now on.
func NewSetIn(n int, buf []uint64) Set {
	w := words(n)
	return Set{n: n, w: buf[:w:w]}
}

// Insert puts (i, j) in o, in place: for a relation its maker is
// building in storage of its own (NewRelIn) and has not shared yet.
func (o Rel) Insert(i, j int) { o.set(i, j) }

// SetSeq sets the empty o to r;s.
func (o Rel) SetSeq(r, s Rel) { seqInto(o, r, s) }

// SetSeqChain sets the empty o to the chain fs (see SeqChain).
func (o Rel) SetSeqChain(fs []Factor) { seqChainInto(o, fs) }

// SetCross sets the empty o to s × t.
func (o Rel) SetCross(s, t Set) {
	s.Each(func(e int) { copy(o.row(e), t.w) })
}

// SetRestrict sets the empty o to [dom];r;[rng].
func (o Rel) SetRestrict(r Rel, dom, rng Set) {
	dom.Each(func(i int) {
		oi, ri := o.row(i), r.row(i)
		for w := range oi {
			oi[w] = ri[w] & rng.w[w]
		}
	})
}

// SetInverse sets the empty o to r⁻¹.
func (o Rel) SetInverse(r Rel) {
	if r.wpr() == 1 {
		for i, x := range r.b {
			bit := uint64(1) << uint(i)
			for ; x != 0; x &= x - 1 {
				o.b[bits.TrailingZeros64(x)] |= bit
			}
		}
		return
	}
	r.Each(func(i, j int) { o.set(j, i) })
}

// Close sets r to its transitive closure r⁺ in place.
func (r Rel) Close() { closeInPlace(r) }
