package enum

import (
	"context"

	"github.com/musket-verify/musket/internal/rel"
)

// immediateCo returns the immediate edges of co (its transitive
// reduction): the pairs (a, b) of co with no c such that a co c co b. It
// returns false, with no edges, once ctx is done (it looks at ctx every
// 64 rows), so a witness of a test with thousands of writes does not hold
// a run past its time limit or a signal.
//
// co is a strict partial order (the engine's coherence orders are strict
// total orders per location; a model's co is checked acyclic and is
// transitive). Before, each pair computed co⁻¹ afresh: n² work per pair
// of co, hours for a test of 10 000 writes. Here, for each a, the
// immediate successors are the minimal elements of S = co.Succ(a), found
// without co⁻¹: repeatedly take the element b of what is left of S whose
// own successor set is largest, record (a, b), and drop b and co.Succ(b)
// from what is left. Why b is minimal in S: if some c of S had c co b,
// then co.Succ(c) ⊋ co.Succ(b) (transitivity, irreflexivity), so c is no
// longer left: either c was taken, or c is in co.Succ(p) of an element p
// taken; in both cases b ∈ co.Succ(c) ⊆ co.Succ(p) was dropped with it.
// And every minimal element stays until taken, since it is in no
// co.Succ(p) with p in S. For a total order on a location this costs one
// pass over S per a. Each pair taken is checked against transitivity
// (co.Succ(b) ⊆ co.Succ(a), b not co b); a relation that fails gets
// immediateByDefinition. TestImmediateCo compares the two.
func immediateCo(ctx context.Context, co rel.Rel) ([][2]int, bool) {
	n := co.N()
	size := make([]int, n)
	for a := range n {
		size[a] = co.Succ(a).Len()
	}
	var out [][2]int
	for a := range n {
		if a&63 == 0 && ctx.Err() != nil {
			return nil, false
		}
		if size[a] == 0 {
			continue
		}
		left := co.Succ(a)
		for !left.IsEmpty() {
			b := -1
			left.Each(func(e int) {
				if b < 0 || size[e] > size[b] {
					b = e
				}
			})
			sb := co.Succ(b)
			if sb.Has(b) || !sb.SubsetOf(co.Succ(a)) {
				// Not a strict order where it matters: the
				// definition itself.
				return immediateByDefinition(ctx, co)
			}
			out = append(out, [2]int{a, b})
			left = left.Diff(sb).Without(b)
		}
	}
	return out, true
}

// immediateByDefinition returns the pairs (a, b) of co with no c such that
// a co c co b, by that definition (co⁻¹ computed once); false once ctx
// is done.
func immediateByDefinition(ctx context.Context, co rel.Rel) ([][2]int, bool) {
	inv := co.Inverse()
	var out [][2]int
	for a := range co.N() {
		if a&63 == 0 && ctx.Err() != nil {
			return nil, false
		}
		sa := co.Succ(a)
		sa.Each(func(b int) {
			if sa.Inter(inv.Succ(b)).IsEmpty() {
				out = append(out, [2]int{a, b})
			}
		})
	}
	return out, true
}
