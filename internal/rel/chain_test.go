package rel

import (
	"math/rand"
	"strconv"
	"testing"
)

// TestSeqChainAgainstPairwise compares SeqChain with the composition made
// one operator at a time, on random relations, filters and optional
// factors, across word boundaries.
func TestSeqChainAgainstPairwise(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, n := range []int{1, 7, 63, 64, 65, 100, 128, 130} {
		for trial := 0; trial < 40; trial++ {
			k := 1 + rng.Intn(5)
			fs := make([]Factor, k)
			var want Rel
			for i := range fs {
				var f Factor
				var r Rel
				switch rng.Intn(3) {
				case 0:
					s := NewSet(n)
					for e := 0; e < n; e++ {
						if rng.Intn(2) == 0 {
							s.w[e>>6] |= 1 << (uint(e) & 63)
						}
					}
					f = Factor{IsMask: true, Mask: s}
					r = Identity(s)
				case 1:
					f = Factor{R: randRel(rng, n, 0.08), Opt: true}
					r = f.R.Opt()
				default:
					f = Factor{R: randRel(rng, n, 0.08)}
					r = f.R
				}
				fs[i] = f
				if i == 0 {
					want = r
				} else {
					want = want.Seq(r)
				}
			}
			if got := SeqChain(n, fs); !got.Equal(want) {
				t.Fatalf("n=%d trial %d: got %v\nwant %v", n, trial, got, want)
			}
		}
	}
}

func TestInPlace(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{5, 64, 100} {
		a, b := randRel(rng, n, 0.2), randRel(rng, n, 0.2)
		cases := []struct {
			name string
			do   func(x Rel)
			want Rel
		}{
			{"or", func(x Rel) { x.OrWith(b) }, a.Union(b)},
			{"and", func(x Rel) { x.AndWith(b) }, a.Inter(b)},
			{"andnot", func(x Rel) { x.AndNotWith(b) }, a.Diff(b)},
		}
		for _, c := range cases {
			x := a.clone()
			c.do(x)
			if !x.Equal(c.want) {
				t.Errorf("n=%d %s", n, c.name)
			}
		}
		y := b.clone()
		y.SetDiff(a, y)
		if !y.Equal(a.Diff(b)) {
			t.Errorf("n=%d SetDiff into its own operand", n)
		}
		s, u := a.Domain(), b.Range()
		cs := []struct {
			name string
			do   func(x Set)
			want Set
		}{
			{"or", func(x Set) { x.OrWith(u) }, s.Union(u)},
			{"and", func(x Set) { x.AndWith(u) }, s.Inter(u)},
			{"andnot", func(x Set) { x.AndNotWith(u) }, s.Diff(u)},
			{"setdiff", func(x Set) { x.SetDiff(s, u) }, s.Diff(u)},
		}
		for _, c := range cs {
			x := s.clone()
			c.do(x)
			if !x.Equal(c.want) {
				t.Errorf("n=%d set %s", n, c.name)
			}
		}
	}
}

func TestPlusAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, n := range []int{1, 9, 64, 70, 128, 140} {
		r := randRel(rng, n, 0.03)
		// the least fixpoint of x = r ∪ x;r
		want := r
		for {
			next := want.Union(want.Seq(r))
			if next.Equal(want) {
				break
			}
			want = next
		}
		if got := r.Plus(); !got.Equal(want) {
			t.Errorf("n=%d: r+ = %v, want %v", n, got, want)
		}
	}
}

func TestAcyclicAgainstCycle(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, n := range []int{1, 2, 10, 40, 64} {
		for trial := 0; trial < 200; trial++ {
			r := randRel(rng, n, rng.Float64()*4/float64(n*n+1)*float64(n))
			if got, want := r.Acyclic(), r.Cycle() == nil; got != want {
				t.Fatalf("n=%d %v: Acyclic %v, Cycle %v", n, r, got, r.Cycle())
			}
		}
	}
}

// BenchmarkSeqChain composes [S] ; r ; s? ; [S] ; t over 40 and 100
// events (the one- and two-word paths) and 150 (the general one).
func BenchmarkSeqChain(b *testing.B) {
	for _, n := range []int{40, 100, 150} {
		rng := rand.New(rand.NewSource(6))
		s := randRel(rng, n, 0.5).Domain()
		fs := []Factor{{IsMask: true, Mask: s}, {R: randRel(rng, n, 0.05)}, {R: randRel(rng, n, 0.05), Opt: true},
			{IsMask: true, Mask: s}, {R: randRel(rng, n, 0.05)}}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				SeqChain(n, fs)
			}
		})
	}
}
