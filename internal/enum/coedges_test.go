package enum

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/rel"
)

// TestImmediateCo compares immediateCo with the definition (no c between
// a and b) on strict total orders per location, random strict partial
// orders, and relations that are not transitive (which take the
// definition's path).
func TestImmediateCo(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		name string
		make func(n int) rel.Rel
	}{
		{"total per location", func(n int) rel.Rel {
			b := rel.NewBuilder(n)
			perm := rng.Perm(n)
			locs := 1 + rng.Intn(3)
			for i := range perm {
				for j := i + 1; j < len(perm); j++ {
					if perm[i]%locs == perm[j]%locs {
						b.Add(perm[i], perm[j])
					}
				}
			}
			return b.Rel()
		}},
		{"partial order", func(n int) rel.Rel {
			b := rel.NewBuilder(n)
			perm := rng.Perm(n)
			for i := range perm {
				for j := i + 1; j < len(perm); j++ {
					if rng.Intn(4) == 0 {
						b.Add(perm[i], perm[j])
					}
				}
			}
			return b.Rel().Plus()
		}},
		{"not transitive", func(n int) rel.Rel {
			b := rel.NewBuilder(n)
			for i := 0; i+1 < n; i++ {
				b.Add(i, i+1)
				if i+2 < n && rng.Intn(2) == 0 {
					b.Add(i, i+2)
				}
			}
			return b.Rel()
		}},
	} {
		for n := 0; n <= 40; n += 5 {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				co := c.make(n)
				got, ok := immediateCo(context.Background(), co)
				want, ok2 := immediateByDefinition(context.Background(), co)
				if !ok || !ok2 {
					t.Fatal("stopped without a cancelled context")
				}
				less := func(x, y [2]int) int {
					if x[0] != y[0] {
						return x[0] - y[0]
					}
					return x[1] - y[1]
				}
				slices.SortFunc(got, less)
				slices.SortFunc(want, less)
				if !slices.Equal(got, want) {
					t.Errorf("co %v:\ngot  %v\nwant %v", co, got, want)
				}
			})
		}
	}
}

// TestImmediateCoStops checks that a cancelled context stops the
// reduction of a large order, with no edges.
func TestImmediateCoStops(t *testing.T) {
	b := rel.NewBuilder(2000)
	for i := range 2000 {
		for j := i + 1; j < 2000; j++ {
			b.Add(i, j)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if edges, ok := immediateCo(ctx, b.Rel()); ok || edges != nil {
		t.Errorf("cancelled: ok %v, %d edges; want false and none", ok, len(edges))
	}
}
