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
func smRel(g *Graph) rel.Rel {
	n := g.N()
	b := rel.NewBuilder(n)
	for i := range g.Events {
		b.Add(i, i)
		for j := range g.Events {
			if SameAccess(&g.Events[i], &g.Events[j]) {
				b.Add(i, j)
			}
		}
	}
	return b.Rel()
}
