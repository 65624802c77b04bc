package enum

// coherent tells whether location loc is coherent under the reads-from
// choice rf and the coherence order p of its non-initial writes (after the
// initial write): po-loc | rf | co | fr has no cycle on the events of
// loc. A model that requires this (SC per location: every hardware
// model) rejects every other candidate, so the engine may drop them
// before evaluating the model (Options.Uniproc). It runs for every
// location of every coherence order, in storage the combination keeps
// (coherence).
//
// The caller gives loc as its initial write iw (c.inits[loc]) and its
// reads, the indices in c.reads of those on loc (c.coReads), found once
// per combination rather than by name at each call.
func (c *combo) coherent(iw int, reads []int, rf []int, p []int) bool {
	h := c.coh
	if h == nil {
		h = &coherence{idx: make([]int, len(c.g.Events))}
		for i := range h.idx {
			h.idx[i] = -1
		}
		c.coh = h
	}
	// The events of loc, in one numbering: the initial write, the writes
	// in co order, then the reads.
	nodes := append(h.nodes[:0], iw)
	h.idx[iw] = 0
	for _, w := range p {
		h.idx[w] = len(nodes)
		nodes = append(nodes, w)
	}
	nw := len(nodes)
	src := h.src[:0] // rf source of each read of loc, as a node
	for _, i := range reads {
		rd := c.reads[i]
		h.idx[rd] = len(nodes)
		nodes = append(nodes, rd)
		s := h.idx[rf[i]]
		if s < 0 {
			s = 0 // as a missing key of the map this numbering was
		}
		src = append(src, s)
	}
	for _, e := range nodes {
		h.idx[e] = -1
	}
	n := len(nodes)
	for len(h.adj) < n {
		h.adj = append(h.adj, nil)
	}
	adj := h.adj[:n]
	for a := range adj {
		adj[a] = adj[a][:0]
	}
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
	h.nodes, h.src = nodes, src
	// Depth-first search for a cycle.
	if cap(h.state) < n {
		h.state = make([]uint8, n)
	}
	h.state = h.state[:n]
	clear(h.state)
	for a := 0; a < n; a++ {
		if h.state[a] == 0 && !h.visit(a) {
			return false
		}
	}
	return true
}

// coherence is coherent's storage, kept by the combination.
type coherence struct {
	idx   []int // the node of each event of the combination, -1 for none
	nodes []int
	src   []int
	adj   [][]int
	state []uint8 // 0 new, 1 on the stack, 2 done
}

// visit searches the graph from node a; false when it finds a cycle.
func (h *coherence) visit(a int) bool {
	h.state[a] = 1
	for _, b := range h.adj[a] {
		if h.state[b] == 1 || h.state[b] == 0 && !h.visit(b) {
			return false
		}
	}
	h.state[a] = 2
	return true
}
