package param

// This file is the deep phase of the approximation (approx.go). The lazy
// sample of a finite instance (a breadth-first prefix of at most
// maxSample states) is a weak oracle on protocols whose instances have
// hundreds of thousands of states, such as FLASH: guesses that only deep
// states refute are taken, the backward search spends thousands of nodes
// under them, and it never closes. After deepAfter nodes (over all the
// restarts; see deepEarly) on a system without weak memory nor numbers, the search
// starts again with a sample of up to deepSample states, explored at
// once, and two more rules:
//
//   - (exact samples) a node that descends from a guess and that a
//     sampled state satisfies refutes its nearest guess at once (the node is then
//     reachable in the instance, so the guess is not an invariant),
//     instead of waiting for a pre-image to meet the initial states;
//   - a guess of three literals may mention two array cells (such as a
//     message and its destination: UnetMtype[#1] = Get && UnetProc[#1] =
//     #2 && Pending = False), not one.
//
// Both only choose and drop guesses: every guess is still checked by
// the backward search (a SAFE verdict needs an inductive set of cubes
// that excludes the initial states), as in Conchon, Goel, Krstić,
// Mebsout and Zaïdi's "Invariants for finite instances and beyond"
// (FMCAD 2013). The searches that end within deepAfter nodes, all the
// corpus but FLASH, are unchanged.
//
// The phase starts after deepEarly nodes already when the sample of the
// first instance is still not complete: the lazy sample has grown to
// sampleBase+deepEarly*samplePerNode states, and an instance that large
// is one whose prefix lets wrong guesses through (FLASH's first 500
// nodes cost two thirds of its time, and closed nothing). The searches
// whose first instance is sampled completely by then keep deepAfter.
//
// On challenges_flash2_nodata.cub the full instance with 2 processes has
// 428 887 states; with the lazy sample the search had no verdict after
// 60 s, with a sample of 200 000 states it proves the system in about
// 200 nodes.

const (
	deepAfter  = 500
	deepEarly  = 50
	deepSample = 400000
	// deepGuessArrays replaces maxGuessArrays in the deep phase
	deepGuessArrays = 2
)

// sampleLimit is the largest sample of a.
func (a *approximator) sampleLimit() int {
	if a.deep {
		return deepSample
	}
	return maxSample
}

// guessArrays bounds the array cells of a guess of three literals.
func (a *approximator) guessArrays() int {
	if a.deep {
		return deepGuessArrays
	}
	return maxGuessArrays
}

// goDeep reports whether the search should start again in the deep
// phase, and enters it.
func (r *run) goDeep() bool {
	a := r.e.approx
	if a == nil || a.weak != nil || a.deep || a.done || a.unsafe || r.work < deepEarly {
		return false
	}
	if r.work < deepAfter && a.insts[0].res.complete {
		return false
	}
	if a.abstract {
		// an abstract sample of numbers says little more when deeper
		// (distrib_channels: 3 times the CPU for the same nodes); one
		// whose abstract cells are data (FLASH's) is sampled deeper
		for _, g := range r.e.sys.Globals {
			if g.Sort.numeric() {
				return false
			}
		}
	}
	a.deep = true
	if r.e.opts.Verbose != nil {
		r.e.opts.Verbose.Write([]byte("no verdict yet: search again with a deeper sample\n"))
	}
	return true
}

// sampleReaches reports whether c descends from a guess and a state of
// the exact sample satisfies c (deep phase only).
func (e *engine) sampleReaches(c *Cube) bool {
	a := e.approx
	if a == nil || !a.deep || a.weak != nil || a.abstract || a.unsafe || len(c.Nodes) > 0 || guessOn(c) == nil {
		return false
	}
	for _, l := range c.Lits {
		if !groundable(l) {
			return false
		}
	}
	return a.reached(c.Lits, c.Slots, e.sys.Pinned)
}
