package rel

import (
	"math/rand"
	"testing"
)

// TestIntoMatches checks that the operations into given storage give
// what the allocating ones give, on universes of one, two and more words
// per row, with the storage cut from one shared slab.
func TestIntoMatches(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{1, 5, 63, 64, 65, 130, 200} {
		slab := make([]uint64, 0, 16*RelWords(n)+8*SetWords(n))
		newRel := func() Rel {
			k := RelWords(n)
			slab = slab[:len(slab)+k]
			return NewRelIn(n, slab[len(slab)-k:])
		}
		for trial := 0; trial < 4; trial++ {
			slab = slab[:0]
			clear(slab[:cap(slab)])
			a, b := randRel(rng, n, 0.1), randRel(rng, n, 0.2)
			dom, rng2 := a.Domain(), b.Range()
			sw := SetWords(n)
			slab = slab[:len(slab)+sw]
			s := NewSetIn(n, slab[len(slab)-sw:])
			s.OrWith(dom)
			if !s.Equal(dom) {
				t.Fatalf("n=%d: NewSetIn", n)
			}
			checks := []struct {
				name string
				got  func(o Rel)
				want Rel
			}{
				{"seq", func(o Rel) { o.SetSeq(a, b) }, a.Seq(b)},
				{"chain", func(o Rel) {
					o.SetSeqChain([]Factor{{R: a}, {IsMask: true, Mask: rng2}, {R: b, Opt: true}})
				}, SeqChain(n, []Factor{{R: a}, {IsMask: true, Mask: rng2}, {R: b, Opt: true}})},
				{"cross", func(o Rel) { o.SetCross(dom, rng2) }, Cross(dom, rng2)},
				{"restrict", func(o Rel) { o.SetRestrict(b, dom, rng2) }, b.Restrict(dom, rng2)},
				{"inverse", func(o Rel) { o.SetInverse(a) }, a.Inverse()},
				{"close", func(o Rel) { o.OrWith(a); o.Close() }, a.Plus()},
				{"insert", func(o Rel) { a.Each(func(i, j int) { o.Insert(i, j) }) }, a},
			}
			for _, c := range checks {
				o := newRel()
				c.got(o)
				if !o.Equal(c.want) {
					t.Errorf("n=%d %s: got %v, want %v", n, c.name, o, c.want)
				}
			}
		}
	}
}
