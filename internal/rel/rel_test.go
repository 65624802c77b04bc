package rel

import (
	"math/rand"
	"strconv"
	"testing"
)

// naive is a reference relation as a map, for differential tests.
type naive map[[2]int]bool

func toNaive(r Rel) naive {
	m := naive{}
	r.Each(func(i, j int) { m[[2]int{i, j}] = true })
	return m
}

func randRel(rng *rand.Rand, n int, density float64) Rel {
	b := NewBuilder(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if rng.Float64() < density {
				b.Add(i, j)
			}
		}
	}
	return b.Rel()
}

func TestOperatorsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 5, 63, 64, 65, 130} {
		for trial := 0; trial < 5; trial++ {
			r, s := randRel(rng, n, 0.05), randRel(rng, n, 0.05)
			nr, ns := toNaive(r), toNaive(s)
			seq := naive{}
			for p := range nr {
				for q := range ns {
					if p[1] == q[0] {
						seq[[2]int{p[0], q[1]}] = true
					}
				}
			}
			cases := []struct {
				name string
				got  Rel
				want func(i, j int) bool
			}{
				{"union", r.Union(s), func(i, j int) bool { return nr[[2]int{i, j}] || ns[[2]int{i, j}] }},
				{"inter", r.Inter(s), func(i, j int) bool { return nr[[2]int{i, j}] && ns[[2]int{i, j}] }},
				{"diff", r.Diff(s), func(i, j int) bool { return nr[[2]int{i, j}] && !ns[[2]int{i, j}] }},
				{"inverse", r.Inverse(), func(i, j int) bool { return nr[[2]int{j, i}] }},
				{"seq", r.Seq(s), func(i, j int) bool { return seq[[2]int{i, j}] }},
				{"complement", r.Complement(), func(i, j int) bool { return !nr[[2]int{i, j}] }},
			}
			for _, c := range cases {
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						if c.got.Has(i, j) != c.want(i, j) {
							t.Fatalf("n=%d %s: (%d,%d) got %v", n, c.name, i, j, c.got.Has(i, j))
						}
					}
				}
			}
			// Plus is the least transitive relation containing r.
			p := r.Plus()
			if !r.SubsetOf(p) || !p.Seq(p).SubsetOf(p) {
				t.Fatalf("n=%d: plus not transitive or not containing r", n)
			}
			q := r
			for k := 0; k < n; k++ {
				q = q.Union(q.Seq(r))
			}
			if !q.Equal(p) {
				t.Fatalf("n=%d: plus differs from iterated composition", n)
			}
			// Acyclic iff plus is irreflexive; a reported cycle is a real one.
			if r.Acyclic() != p.Irreflexive() {
				t.Fatalf("n=%d: acyclic=%v but plus irreflexive=%v", n, r.Acyclic(), p.Irreflexive())
			}
			if c := r.Cycle(); c != nil {
				for k := range c {
					if !r.Has(c[k], c[(k+1)%len(c)]) {
						t.Fatalf("n=%d: bad cycle %v", n, c)
					}
				}
			}
		}
	}
}

func TestSetsAndShapes(t *testing.T) {
	n := 70
	a, b := SetOf(n, 1, 3, 65), SetOf(n, 3, 4, 69)
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"union", a.Union(b).String(), "{1,3,4,65,69}"},
		{"inter", a.Inter(b).String(), "{3}"},
		{"diff", a.Diff(b).String(), "{1,65}"},
		{"cross", Cross(SetOf(n, 1), SetOf(n, 2, 66)).String(), "{(1,2),(1,66)}"},
		{"identity", Identity(SetOf(n, 0, 68)).String(), "{(0,0),(68,68)}"},
		{"domain", RelOf(n, [2]int{5, 6}, [2]int{67, 1}).Domain().String(), "{5,67}"},
		{"range", RelOf(n, [2]int{5, 6}, [2]int{67, 1}).Range().String(), "{1,6}"},
		{"restrict", RelOf(n, [2]int{1, 2}, [2]int{1, 3}, [2]int{4, 3}).Restrict(SetOf(n, 1), SetOf(n, 3)).String(), "{(1,3)}"},
		{"complement len", strconv.Itoa(a.Complement().Len()), "67"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}
