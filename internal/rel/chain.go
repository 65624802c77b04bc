package rel

import "math/bits"

// Chains of compositions, computed row by row. A model's long sequences
// (the Linux-kernel model's prop is [M] ; r? ; s* ; [M] ; t? ; [M]) built
// one composition at a time make a relation per step that is thrown away
// at once; SeqChain makes only the result, following each row of the
// first factor through the others with two scratch rows.

// Factor is one operand of a chain of compositions: a filter [S]
// (IsMask, keeping the events of Mask), or a relation R, or R? when Opt
// (R ∪ id: the row so far is kept as well as extended by R).
type Factor struct {
	IsMask bool
	Mask   Set
	R      Rel
	Opt    bool
}

// SeqChain returns the composition f[0] ; f[1] ; ... ; f[k-1] over n
// events (at least one factor; every factor is over n events).
func SeqChain(n int, fs []Factor) Rel {
	o := NewRel(n)
	seqChainInto(o, fs)
	return o
}

// seqChainInto sets the empty o to the chain fs.
func seqChainInto(o Rel, fs []Factor) {
	w := o.wpr()
	switch w {
	case 1:
		seqChain1(o, fs)
		return
	case 2:
		seqChain2(o, fs)
		return
	}
	scratch := make([]uint64, 2*w)
	cur, nxt := scratch[:w], scratch[w:]
	for i := 0; i < o.n; i++ {
		if row := chainRow(i, fs, cur, nxt); row != nil {
			copy(o.row(i), row)
		}
	}
}

// seqChain1 is SeqChain for at most 64 events, a row per word.
func seqChain1(o Rel, fs []Factor) {
	f0, rest := fs[0], fs[1:]
	for i := 0; i < o.n; i++ {
		var cur uint64
		bit := uint64(1) << uint(i)
		switch {
		case f0.IsMask:
			cur = f0.Mask.w[0] & bit
		case f0.Opt:
			cur = f0.R.b[i] | bit
		default:
			cur = f0.R.b[i]
		}
		for k := 0; k < len(rest) && cur != 0; k++ {
			f := &rest[k]
			if f.IsMask {
				cur &= f.Mask.w[0]
				continue
			}
			var nxt uint64
			if f.Opt {
				nxt = cur
			}
			b := f.R.b
			for x := cur; x != 0; x &= x - 1 {
				nxt |= b[bits.TrailingZeros64(x)]
			}
			cur = nxt
		}
		o.b[i] = cur
	}
}

// seqChain2 is SeqChain for 65 to 128 events, a row per two words.
func seqChain2(o Rel, fs []Factor) {
	f0, rest := fs[0], fs[1:]
	for i := 0; i < o.n; i++ {
		var c0, c1 uint64
		if f0.IsMask {
			if f0.Mask.w[i>>6]&(1<<(uint(i)&63)) == 0 {
				continue
			}
		} else {
			c0, c1 = f0.R.b[2*i], f0.R.b[2*i+1]
		}
		if f0.IsMask || f0.Opt {
			if i < 64 {
				c0 |= 1 << uint(i)
			} else {
				c1 |= 1 << uint(i-64)
			}
		}
		for k := 0; k < len(rest) && c0|c1 != 0; k++ {
			f := &rest[k]
			if f.IsMask {
				c0 &= f.Mask.w[0]
				c1 &= f.Mask.w[1]
				continue
			}
			var n0, n1 uint64
			if f.Opt {
				n0, n1 = c0, c1
			}
			b := f.R.b
			for x := c0; x != 0; x &= x - 1 {
				j := 2 * bits.TrailingZeros64(x)
				n0 |= b[j]
				n1 |= b[j+1]
			}
			for x := c1; x != 0; x &= x - 1 {
				j := 2 * (64 + bits.TrailingZeros64(x))
				n0 |= b[j]
				n1 |= b[j+1]
			}
			c0, c1 = n0, n1
		}
		o.b[2*i], o.b[2*i+1] = c0, c1
	}
}

// chainRow computes row i of the chain in cur and nxt (scratch rows) and
// returns the one holding it, or nil when the row is empty.
func chainRow(i int, fs []Factor, cur, nxt []uint64) []uint64 {
	f := fs[0]
	switch {
	case f.IsMask:
		if f.Mask.w[i>>6]&(1<<(uint(i)&63)) == 0 {
			return nil
		}
		clear(cur)
		cur[i>>6] = 1 << (uint(i) & 63)
	case f.Opt:
		copy(cur, f.R.row(i))
		cur[i>>6] |= 1 << (uint(i) & 63)
	default:
		copy(cur, f.R.row(i))
	}
	for _, f := range fs[1:] {
		if f.IsMask {
			any := uint64(0)
			for k := range cur {
				cur[k] &= f.Mask.w[k]
				any |= cur[k]
			}
			if any == 0 {
				return nil
			}
			continue
		}
		if f.Opt {
			copy(nxt, cur)
		} else {
			clear(nxt)
		}
		r, any := f.R, uint64(0)
		for wi, x := range cur {
			for x != 0 {
				j := wi*64 + bits.TrailingZeros64(x)
				x &= x - 1
				rj := r.b[j*r.wpr() : (j+1)*r.wpr()]
				for k := range nxt {
					nxt[k] |= rj[k]
				}
			}
		}
		for _, x := range nxt {
			any |= x
		}
		if any == 0 {
			return nil
		}
		cur, nxt = nxt, cur
	}
	return cur
}

// In-place operations, for a relation or set its maker has just built and
// shares with no one yet (a CAT evaluator's fresh intermediate result): they
// change the receiver, which is against the rule that values are
// immutable, so they must never be applied to a value that may be shared.

// OrWith sets r to r ∪ s in place.
func (r Rel) OrWith(s Rel) { orWords(r.b, s.b) }

// AndWith sets r to r ∩ s in place.
func (r Rel) AndWith(s Rel) { andWords(r.b, s.b) }

// AndNotWith sets r to r \ s in place.
func (r Rel) AndNotWith(s Rel) { andNotWords(r.b, s.b) }

// SetDiff sets r to a \ b in place (r may be b).
func (r Rel) SetDiff(a, b Rel) { diffWords(r.b, a.b, b.b) }

// OrWith sets s to s ∪ t in place.
func (s Set) OrWith(t Set) { orWords(s.w, t.w) }

// AndWith sets s to s ∩ t in place.
func (s Set) AndWith(t Set) { andWords(s.w, t.w) }

// AndNotWith sets s to s \ t in place.
func (s Set) AndNotWith(t Set) { andNotWords(s.w, t.w) }

// SetDiff sets s to a \ b in place (s may be b).
func (s Set) SetDiff(a, b Set) { diffWords(s.w, a.w, b.w) }

// orWords sets d to d | s word by word (len(s) <= len(d)).
func orWords(d, s []uint64) {
	d = d[:len(s)] // one bounds check, not one per word
	for i, x := range s {
		d[i] |= x
	}
}

// andWords sets d to d & s word by word.
func andWords(d, s []uint64) {
	d = d[:len(s)]
	for i, x := range s {
		d[i] &= x
	}
}

// andNotWords sets d to d &^ s word by word.
func andNotWords(d, s []uint64) {
	d = d[:len(s)]
	for i, x := range s {
		d[i] &^= x
	}
}

// diffWords sets d to a &^ b word by word (d may be b).
func diffWords(d, a, b []uint64) {
	a, b = a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = a[i] &^ b[i]
	}
}
