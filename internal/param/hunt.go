package param

// hunt searches an instance depth first for an unsafe state: the
// forward decision's second try (instdecide.go) when the breadth-first
// exploration of an instance passes its budget. A breadth-first search
// pays for every interleaving of the first steps before it reaches a
// deep state; a bug that needs every process a few steps in (Cubicle-W's
// tests/cubicle/lamport4us.cub: four threads, each through its own
// store buffer into the critical section, sixteen steps) lies beyond
// any budget there, and a depth-first search that follows one process
// after the other meets it early. Every state it reaches is a state of
// the instance (the explorer's successors), so an unsafe one is an
// UNSAFE answer; a hunt that finds none says nothing.

// hunt explores f depth first from inits, at most limit states, and
// returns the explored states and the index of the first unsafe one
// with its formula (u > 0), or u = 0.
func (f *wfinite) hunt(stop func() bool, inits [][]int64, limit int) (res *sampled, at int, u int) {
	seen := map[stateID]bool{}
	res = &sampled{}
	var stack []int
	add := func(s []int64, parent int, step forwardStep) int {
		res.states = append(res.states, s)
		res.parent = append(res.parent, parent)
		res.step = append(res.step, step)
		return len(res.states) - 1
	}
	for i := len(inits) - 1; i >= 0; i-- {
		s := inits[i]
		if k := stateKey(s); !seen[k] && !f.excluded(s) {
			seen[k] = true
			j := add(s, -1, forwardStep{})
			if u := f.unsafe(s); u != 0 {
				return res, j, u
			}
			stack = append(stack, j)
		}
	}
	var next []successor
	for n := 0; len(stack) > 0 && len(res.states) < limit; n++ {
		if n%512 == 0 && stop != nil && stop() {
			break
		}
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next = f.successors(res.states[i], next[:0])
		// the transitions before the flushes, each in the order of the
		// file: pushed last, and in reverse, the first transition is
		// expanded first. A process keeps its writes buffered as long
		// as it can, which is where weak memory differs from
		// sequential consistency (taking the flushes first, the hunt
		// followed runs of sequential consistency first).
		order := make([]int, 0, len(next))
		for k := range next {
			if next[k].step.t == nil {
				order = append(order, k)
			}
		}
		for k := len(next) - 1; k >= 0; k-- {
			if next[k].step.t != nil {
				order = append(order, k)
			}
		}
		for _, k := range order {
			s := next[k]
			key := stateKey(s.st)
			if seen[key] {
				continue
			}
			seen[key] = true
			if f.excluded(s.st) {
				continue
			}
			j := add(s.st, i, s.step)
			if u := f.unsafe(s.st); u != 0 {
				return res, j, u
			}
			stack = append(stack, j)
		}
	}
	return res, -1, 0
}
