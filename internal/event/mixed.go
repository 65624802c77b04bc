package event

import "github.com/musket-verify/musket/internal/rel"

// Mixed-size accesses. A front-end that models access sizes splits an
// access into one event per chunk of the location it touches (each chunk
// is a location of its own, named "x+4" for the bytes of x from offset 4);
// the events of one access are one instruction instance. herd7 relates the
// parts of one access by sm ("same memory access"; Dat3M's models call it
// si), and its AArch64 model derives single-copy atomicity from it
// (sca-class = [M & Exp]; sm; [M & Exp]). The parts are not ordered by po
// among themselves: po relates distinct instructions.

// SameAccess tells whether a and b are two distinct parts of one access:
// memory events of the same kind in one instruction instance of a thread.
// The read and the write of an atomic read-modify-write are one instance
// too, but not one access.
func SameAccess(a, b *Event) bool {
	return a != b && a.Thread >= 0 && a.Thread == b.Thread && a.Instr == b.Instr &&
		a.IsMem() && a.Kind == b.Kind
}

// smRel is herd's sm: the identity, and the pairs of parts of one access.
// Without mixed-size accesses it is the identity.
//
// The pairs SameAccess accepts are those of distinct memory events of a
// thread with the same instruction instance and kind: each such group is
// found by its key, in one pass, not by testing every pair of events
// (10^8 tests for a test of 10^4 accesses, a third of a second of CPU
// that did not look at the time limit; robust5).
func smRel(g *Graph) rel.Rel {
	n := g.N()
	b := rel.NewBuilder(n)
	type access struct {
		thread, instr int
		kind          Kind
	}
	parts := map[access][]int{}
	for i := range g.Events {
		b.Add(i, i)
		if e := &g.Events[i]; e.Thread >= 0 && e.IsMem() {
			k := access{e.Thread, e.Instr, e.Kind}
			parts[k] = append(parts[k], i)
		}
	}
	for _, is := range parts {
		for _, i := range is {
			for _, j := range is {
				if i != j {
					b.Add(i, j)
				}
			}
		}
	}
	return b.Rel()
}
