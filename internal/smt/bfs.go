package smt

// The breadth-first search for a shortest path that both propagators run
// when an edge u→v is added to a relation that must stay acyclic: the
// plain graphs of AddAcyclic (acyclic.go) and the derived relations of
// AddDerived (derived.go). A path v ⇝ u closes a cycle with the new edge.

// hop is an edge present in a graph, in the list of its source node's
// edges: its index among the graph's edges and the node it goes to (kept
// here so that a search reads no edge record).
type hop struct{ e, to int32 }

// searcher is the scratch state of the searches over one graph: the
// nodes the current search reached (marked with its stamp, so that a
// search need not clear the marks of the one before), and the edge and
// node each was reached by.
type searcher struct {
	mark  []uint32
	stamp uint32
	via   []int32 // the edge a search reached a node by
	from  []int32 // the node that edge comes from
	queue []int32
}

func newSearcher(n int) searcher {
	return searcher{mark: make([]uint32, n), via: make([]int32, n), from: make([]int32, n)}
}

// backPath returns the edges of a shortest path from a to b ≠ a along
// the edges out[x] of each node x, the last edge first, or nil when
// there is none.
func (s *searcher) backPath(out [][]hop, a, b int32) []int32 {
	s.stamp++
	if s.stamp == 0 {
		clear(s.mark)
		s.stamp = 1
	}
	q := append(s.queue[:0], a)
	s.mark[a] = s.stamp
	for i := 0; i < len(q); i++ {
		x := q[i]
		for _, h := range out[x] {
			y := h.to
			if s.mark[y] == s.stamp {
				continue
			}
			s.mark[y] = s.stamp
			s.via[y], s.from[y] = h.e, x
			if y == b {
				s.queue = q
				var path []int32
				for z := b; z != a; z = s.from[z] {
					path = append(path, s.via[z])
				}
				return path
			}
			q = append(q, y)
		}
	}
	s.queue = q
	return nil
}
