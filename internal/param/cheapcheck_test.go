package param

import (
	"math/rand/v2"
	"testing"
)

// TestCheapCheckSmall compares cheapCheckSmall with cheapCheckMaps on
// the literal lists of the pre-images of random systems and the FLASH
// files, on their concatenations with the cube they come from (in both
// orders: some contradict) and on shuffles of those, up to and past
// smallUF literals.
func TestCheapCheckSmall(t *testing.T) {
	systems, random := filterSystems(t, 47, 80, "challenges_flash2*.cub")
	rng := rand.New(rand.NewPCG(47, 9))
	var count [3]int
	check := func(i int, lits []Lit) {
		want := cheapCheckMaps(lits)
		if got := cheapCheckSmall(lits); got != want {
			t.Fatalf("system %d: cheapCheckSmall %v, cheapCheckMaps %v on %v", i, got, want, lits)
		}
		count[want]++
	}
	for i, sys := range systems {
		limit := 15
		if i >= random {
			limit = 5
		}
		e := &engine{sys: sys, opts: Options{}}
		e.z = newSolver(sys)
		walkPreImages(e, limit, func(c *Cube, pre []*Cube) {
			for _, p := range pre {
				check(i, p.Lits)
				both := append(append([]Lit(nil), c.Lits...), p.Lits...)
				check(i, both)
				check(i, append(append([]Lit(nil), p.Lits...), c.Lits...))
				rng.Shuffle(len(both), func(a, b int) { both[a], both[b] = both[b], both[a] })
				check(i, both)
			}
		})
		e.z.close()
	}
	t.Logf("sat %d, unsat %d, unknown %d", count[cheapSat], count[cheapUnsat], count[cheapUnknown])
	for k, n := range count {
		if n < 100 {
			t.Fatalf("only %d lists with answer %d", n, k)
		}
	}
}
