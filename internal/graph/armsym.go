package graph

import "os"

// Symmetry reduction under ARMv8.
//
// Threads main creates from the same function with the same constant
// argument (Options.Symmetric) are explored in one order only, as under
// rc11 and IMM (symmetry.go, immsym.go): a graph where a thread q is
// ahead of its symmetric predecessor p (at the first index where their
// events differ, q's is eco-before p's: symOK) is left out, each
// complete execution stands for its class, and a blocked execution the
// reduction cannot vouch for restarts the run without it.
//
// The exploration under ARMv8 is IMM's (visitDep, after HMC), with
// armPrefix for depPrefix, so immsym.go's account of the symmetry holds
// as it is: events at one index of two threads are compared only when
// they are of one instruction (a hole a revisit left shifts the
// indices), and with every event of q it keeps, armPrefix keeps p's
// events up to the index q's matched (symPre) and what determines them,
// so that a revisit never keeps q ahead of a p it removes. symOK reads
// only the graph's events, reads-from and coherence, not the model. As
// under rc11 and IMM this is not proven (the kept graph of a revisit,
// not only its prefix, would need p's matching events); it is checked
// by tests instead (armsym_test.go: the same verdicts with and without
// the reduction on the C programs of the repository, and the complete
// executions of a reduced run are the classes of a full run).
//
// Stale-read pruning (prune.go) stays off under ARMv8: its closure
// argument asks that removing a blocked thread's last read leave a
// consistent graph, which lrs (not growing with the events) makes a
// separate question.
//
// MUSKET_ARM_NOSYM=1 in the environment turns the reduction off under
// ARMv8 (comparisons), as Options.NoSymmetry does under every model.

// armSymOff tells whether MUSKET_ARM_NOSYM turns symmetry reduction off
// under ARMv8.
func armSymOff() bool { return os.Getenv("MUSKET_ARM_NOSYM") != "" }
