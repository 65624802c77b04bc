package graph

import "os"

// Stale-read pruning under ARMv8 and RISC-V (prune.go, in the
// exploration of deps.go).
//
// Under the built-in aarch64 and riscv models, visitDep leaves out a
// graph in which thread T stopped in a cut spin loop (Options.SpinReg)
// with a last event r, a read reading w0, while a write w1
// coherence-after w0 was added before r, and r was added after every
// other event of T (lastAdded), as under IMM (immReduced). prune.go's
// argument has two parts; here is why each holds for the hardware
// models, whose exploration differs from IMM's only in the prefix a
// revisit keeps (armPrefix with armLobPreds or rvPpoPreds, instead of
// depPrefix) and in the consistency check.
//
// Closure: every graph the exploration builds from such a graph keeps T
// stopped after r, r reading w0, w1 coherence-after w0.
//   - Forward steps (visitDep) add events to threads whose replay has an
//     event to add. T's replay has ended, and T's events and the values
//     they read are unchanged, so it stays ended. A write is placed in
//     coherence without reordering the others.
//   - A revisit of a read r' by a write w keeps w's prefix and the events
//     added no later than r', and removes the others only when they and
//     r' were added maximally (hwMaximal, prev = added no later than the
//     event, or in the prefix). r is never maximal: T has no event after
//     it, so coherence allows r every position (lim is the whole order),
//     and w1 (prev: added before r) is coherence-after w0. So a revisit
//     that would remove r is not made; nor one removing an event of T
//     other than r, or w1, or changing a read of T: r' is then added
//     before that event, so before r, and r would be removed. w0 is not
//     removed either: hwMaximal holds no write maximal that a read
//     added earlier reads.
//   - r is kept only by being added before r', never by being in a
//     prefix, so a revisit never changes what r reads: armPrefix keeps
//     w, the writes reads take externally (rfe) or from their own thread
//     (lastWriteBefore), the ordered-before predecessors of kept events
//     (armLobPreds, rvPpoPreds: each is po-before the event it is a
//     predecessor of), their addr, data and control sources (reads
//     po-before them), and the halves of read-modify-writes: a
//     write's read (po-before it) and a read's write (po-after it). r,
//     a read, last in T, read by no event, with no write after it (a
//     failed compare-and-swap has none; a successful one's write would
//     follow r in T, and pick adds it right after its read), is none of
//     these. The one exception is the symmetric extension (symKept,
//     armsym.go), which may keep p's events up to the index q's kept
//     events match: the same caveat as under IMM (immsym.go), checked
//     by the same tests.
//
// Repair: a complete execution X in which T stopped on a stale last read
// r has a complete execution X° the exploration builds, with the same
// verdict facts (prune.go). Its steps need, of the model:
//   - X minus r is consistent. The relations aarch64.cat and riscv.cat
//     build on X's other events are those of X restricted to them:
//     po, rf, co, fr, the dependencies (addr, data, ctrl: from a read to
//     later events; r has none after it), and the relations built on
//     them and on the tags and locations by union, sequence,
//     intersection and closure. Two relations have a negation: ARMv8's
//     lrs ([W]; po-loc \ (po-loc; [W]; po-loc); [R]) and RVWMO's rule
//     2 (same-location reads with no write between them in po). Each
//     negation is of a path through a write, and r is a read, so
//     removing it takes away only the pairs that have r as an end.
//     Both models' axioms are acyclicity and emptiness conditions,
//     which hold on subsets of the relations.
//   - Extensibility: a read added last in its thread that reads the
//     coherence-latest write, a write placed coherence-last (a
//     read-modify-write's right after the write its read reads, so the
//     atomicity axiom holds), or a fence, has no outgoing edge. Under
//     aarch64 ob's steps are obs (rfe, coe, fre: none out of such an
//     event), dob, aob and bob (po-forward: nothing after it), and
//     internal's are po-loc, ca and rf (the same). Under riscv the global
//     order's steps are ppo (po-forward), rfe, co and fr, and the load
//     value axiom's po-loc, rf, co and fr. This is the condition the
//     engine relies on already to skip checking such graphs (visitDep's
//     check flag).
//   - HMC's exploration (Kokologiannakis, Vafeiadis, "HMC: Model
//     Checking for Hardware Memory Models", ASPLOS 2020) builds every
//     consistent complete execution along one path of graphs; by the
//     closure, no graph on the path to X° is left out, since X° has no
//     thread stopped on a read that is not coherence-latest.
// Data races are not in question: hardware targets have none, and
// Options.NoFlags is set there (races under these models are refused).
//
// Tests: TestHWPrune (hwprune_test.go) compares, under aarch64 and
// riscv, the verdicts and the complete executions of runs with and
// without the pruning, with and without symmetry.

// hwPruneOff: MUSKET_HW_NOPRUNE=1 turns stale-read pruning off under
// ARMv8 and RISC-V (as does MUSKET_IMM_NOREDUCE=1, which also turns off
// IMM's reductions).
func hwPruneOff() bool {
	return os.Getenv("MUSKET_HW_NOPRUNE") != "" || immReduceOff()
}
