package graph

import "os"

// Symmetry reduction under RISC-V (RVWMO).
//
// Threads main creates from the same function with the same constant
// argument (Options.Symmetric) are explored in one order only, as under
// ARMv8 (armsym.go), whose account holds for RVWMO as it is, with one
// addition for the revisits riscv.go's argument cannot vouch for
// (rvLost):
//
//   - The exploration is the same (visitDep, after HMC): only the prefix
//     a backward revisit keeps differs, and it is armPrefix with
//     rvPpoPreds for the ordering part. armPrefix extends it with the
//     symmetric predecessor's events (symKept: with every event of q it
//     keeps, p's events up to the index q's matched, symPre, and what
//     determines them), for whatever ordering function it is given, so
//     a revisit under RVWMO never keeps q ahead of a p it removes, as
//     under ARMv8.
//   - symOK and symMatch read the graph's events, reads-from and
//     coherence, not the model; events at one index are compared only
//     when they are of one instruction (x.deps), so a hole a revisit
//     left shifts no comparison. An AMO is two events in the graph (the
//     model fuses them, rvFuse): at one index of two symmetric threads
//     both halves are compared, each with its counterpart, so the
//     fusion changes nothing here.
//   - Stale-read pruning is on under RVWMO (riscv.go) as under IMM; with
//     both reductions on, immsym.go's caveat (the symmetric extension
//     may keep a stale read in a prefix) is the same, and is checked by
//     the same tests.
//
// The addition: a revisit of read r by write w is skipped when r is in
// the kept prefix, and riscv.go then asks rvLost whether r reading w is
// inconsistent (or refuses the program). With the symmetric extension r
// may be in the prefix only through symKept: the revisit is then left
// out by the symmetry, as under ARMv8, not by the argument of riscv.go,
// and rvLost would refuse programs it decides without the reduction
// (its checks read the prefix: a larger one may hold a step rvUncovered
// names). rvLostSym asks rvLost first with the extended prefix (sound:
// rvBefore's chain runs through kept events, which the revisit keeps
// whatever made it keep them; and every step of a chain from r to w
// that is not symKept's is one riscv.go's argument covers when
// rvUncovered names none); only when rvLost would refuse does it
// compute the prefix without the extension: r outside it, the revisit
// is the symmetry's to leave out; r inside, rvLost decides on that
// prefix as without the reduction.
//
// As under ARMv8 and IMM this is not proven (the kept graph of a
// revisit, not only its prefix, would need p's matching events); it is
// checked by tests (rvsym_test.go: the same verdicts with and without
// the reduction on the C programs of the repository, and the complete
// executions of a reduced run are the classes of a full run).
//
// MUSKET_RV_NOSYM=1 in the environment turns the reduction off under
// RVWMO (comparisons), as Options.NoSymmetry does under every model.

// rvSymOff tells whether MUSKET_RV_NOSYM turns symmetry reduction off
// under RVWMO.
func rvSymOff() bool { return os.Getenv("MUSKET_RV_NOSYM") != "" }

// rvLostSym is rvLost for a revisit of r by w skipped because r is in
// pref, w's prefix with the symmetric extension when the run reduces
// symmetric threads (see above).
func (x *engine) rvLostSym(g *graph, r, w int, pref []bool) error {
	err := x.rvLost(g, r, w, pref)
	if err == nil || x.sym == nil {
		return err
	}
	sc := &x.arena.pref
	sym := sc.sym
	sc.sym = nil
	pure := x.rvPrefix(g, w)
	sc.sym = sym
	if !pure[r] {
		return nil // left out by the symmetry
	}
	return x.rvLost(g, r, w, pure)
}
