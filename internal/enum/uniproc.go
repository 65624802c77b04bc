package enum

// coherent tells whether location loc is coherent under the reads-from
// choice rf and the coherence order p of its non-initial writes (after the
// initial write): po-loc | rf | co | fr has no cycle on the events of
// loc. A model that requires this (SC per location: every hardware
// model) rejects every other candidate, so the engine may drop them
// before evaluating the model (Options.Uniproc).
func (c *combo) coherent(loc string, rf []int, p []int) bool {
	// The events of loc, in one numbering: the initial write, the writes
	// in co order, then the reads.
	idx := map[int]int{}
	nodes := []int{c.inits[loc]}
	idx[c.inits[loc]] = 0
	for _, w := range p {
		idx[w] = len(nodes)
		nodes = append(nodes, w)
	}
	nw := len(nodes)
	var src []int // rf source of each read of loc, as a node
	for i, rd := range c.reads {
		if c.g.Events[rd].Loc != loc {
			continue
		}
		idx[rd] = len(nodes)
		nodes = append(nodes, rd)
		src = append(src, idx[rf[i]])
	}
	n := len(nodes)
	adj := make([][]int, n)
	for a := 0; a+1 < nw; a++ {
		adj[a] = append(adj[a], a+1) // co (its transitive closure follows)
	}
	for k, s := range src {
		r := nw + k
		adj[s] = append(adj[s], r) // rf
		if s+1 < nw {
			adj[r] = append(adj[r], s+1) // fr: before the co-successor of its write
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			ea, eb := nodes[a], nodes[b]
			if ea < eb && c.thread[ea] >= 0 && c.thread[ea] == c.thread[eb] {
				adj[a] = append(adj[a], b) // po-loc: event IDs follow program order
			}
		}
	}
	// Depth-first search for a cycle.
	state := make([]uint8, n) // 0 new, 1 on the stack, 2 done
	var visit func(a int) bool
	visit = func(a int) bool {
		state[a] = 1
		for _, b := range adj[a] {
			if state[b] == 1 || state[b] == 0 && !visit(b) {
				return false
			}
		}
		state[a] = 2
		return true
	}
	for a := 0; a < n; a++ {
		if state[a] == 0 && !visit(a) {
			return false
		}
	}
	return true
}
