package fix

import "sort"

// Cand is one candidate insertion.
type Cand struct {
	// Group: the candidates of one group exclude each other (the fences
	// of one gap, the orders of one access).
	Group string
	// Thread is the index of the thread it changes (-1: every thread
	// that runs the line, in a C program).
	Thread int
	// Line is the source line of the access the fence follows, or of
	// the access it strengthens.
	Line int
	// Fence: a fence inserted after Line; else Line's access made
	// stronger.
	Fence bool
	// Name is what is inserted, as the cost table names it ("lwsync",
	// "stlr", "release").
	Name string
	Cost int
	// Coarse: a stronger access whose effect the model defines (C11
	// orders), not only through po (see relevant).
	Coarse bool
	// From, for a dependency, is the line of the load the access at
	// Line is made to depend on (0: not a dependency).
	From int
	// Text is the inserted instruction or the replacement, as written in
	// the patch ("lwsync", "STLR W2,[X3]", "memory_order_release").
	Text string
	// effects, for a stronger .pts access, are the pairs of events its
	// code orders (nil: every pair around the access).
	effects []effect
}

// cheapest returns a least-cost set of candidates (indices, sorted) that
// takes at most one candidate of each group and meets every constraint
// (a set of candidate indices of which at least one must be chosen), and
// whether there is one. Ties go to fewer candidates, then to the
// lexicographically smallest list of indices, so that the answer does not
// depend on map order. The search is an exact branch and bound: branch on
// the members of the first constraint not yet met, each branch forbidding
// the members tried before it.
func cheapest(cands []Cand, cons [][]int) ([]int, bool) {
	s := &search{cands: cands, cons: cons, bestCost: -1}
	for _, c := range cons {
		if len(c) == 0 {
			return nil, false
		}
	}
	s.chosen = map[int]bool{}
	s.groupUsed = map[string]bool{}
	s.forbidden = map[int]int{}
	s.run(0)
	if s.bestCost < 0 {
		return nil, false
	}
	return s.best, true
}

type search struct {
	cands     []Cand
	cons      [][]int
	chosen    map[int]bool
	groupUsed map[string]bool
	forbidden map[int]int // candidate -> depth count of forbiddances
	cost      int
	best      []int
	bestCost  int
}

func (s *search) better(set []int, cost int) bool {
	if s.bestCost < 0 || cost < s.bestCost {
		return true
	}
	if cost > s.bestCost {
		return false
	}
	if len(set) != len(s.best) {
		return len(set) < len(s.best)
	}
	for i := range set {
		if set[i] != s.best[i] {
			return set[i] < s.best[i]
		}
	}
	return false
}

func (s *search) run(from int) {
	if s.bestCost >= 0 && s.cost > s.bestCost {
		return
	}
	// The first constraint not met.
	open := -1
	for i := from; i < len(s.cons); i++ {
		met := false
		for _, c := range s.cons[i] {
			if s.chosen[c] {
				met = true
				break
			}
		}
		if !met {
			open = i
			break
		}
	}
	if open < 0 {
		set := make([]int, 0, len(s.chosen))
		for c := range s.chosen {
			set = append(set, c)
		}
		sort.Ints(set)
		if s.better(set, s.cost) {
			s.best, s.bestCost = set, s.cost
		}
		return
	}
	opts := append([]int(nil), s.cons[open]...)
	sort.SliceStable(opts, func(a, b int) bool {
		if s.cands[opts[a]].Cost != s.cands[opts[b]].Cost {
			return s.cands[opts[a]].Cost < s.cands[opts[b]].Cost
		}
		return opts[a] < opts[b]
	})
	var tried []int
	for _, c := range opts {
		g := s.cands[c].Group
		if s.forbidden[c] == 0 && !s.groupUsed[g] {
			s.chosen[c], s.groupUsed[g] = true, true
			s.cost += s.cands[c].Cost
			s.run(open + 1)
			s.cost -= s.cands[c].Cost
			delete(s.chosen, c)
			delete(s.groupUsed, g)
		}
		s.forbidden[c]++
		tried = append(tried, c)
	}
	for _, c := range tried {
		s.forbidden[c]--
	}
}
