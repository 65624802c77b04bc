// Package prove owns seed 004's inductive-invariant method (Chapter 4 of
// the thesis on SMT verification of assembly on relaxed models) and its
// case studies: the bundled examples in examples/asm with the bounds,
// verdicts and run times of Tables 5.1 to 5.4, used by the tests and by
// 'musket bench asm'.
//
// # The method as Musket implements it
//
// A loop carries an invariant over its thread's registers, written as a
// litmus comment after the thread table (see Invariant). Prove replaces
// every loop by its last iteration: a backward branch starts a path that
// is not an execution (assume false), so the iteration that runs is the
// one that leaves the loop. Before that it makes sure the earlier
// iterations cannot matter:
//
//  1. no register flows from one iteration to the next (syntactic: a
//     register the body writes is never read before the body writes it;
//     such loops are refused);
//  2. no iteration that takes a backward branch writes to memory,
//     whatever its reads return (thread-local: every path of the body,
//     loads unknown, a store-conditional either succeeding, writing and
//     setting its status, or failing — the cases of Figure 4-5). In the
//     TOPPERS spinlock only a failed STREX repeats the loop, so this holds.
//
// Then it asks the SMT engine, for each loop, whether its invariant can
// fail on entry or at a backward branch — in a program where that loop
// runs one checked iteration and then, after a backward branch, a copy of
// its body as the last iteration, and the other loops are abstracted
// without their invariants — and finally whether the test's condition is
// reachable with every loop abstracted and its invariant assumed at its
// head.
//
// Why it is sound under PSO and stronger (sc, tso, pso): by (1) and (2)
// the earlier iterations of a loop contribute only reads, fences and
// failed store-conditionals, which no other event reads from. Deleting
// such events from a consistent execution of these models leaves a
// consistent execution: po, rf, co and fr restricted to the remaining
// events are those of the smaller execution, the preserved program order
// between two remaining events does not depend on the deleted ones, and
// deleted fences only order fewer pairs. So every execution of the
// program, restricted to the last iteration of each loop (and, for the
// invariant check, to one iteration that repeats plus the last), is an
// execution of the abstraction. Like litmus tests and the thesis
// (Definition 4.23) it is partial correctness: only executions in which
// every thread ends count. Models that may reorder a read with a later
// access (rmo, power, armv7, ...) are refused: there, as the thesis shows
// (Section 4.4), accesses after the loop can affect what its earlier
// reads returned.
//
// What is not implemented: loops whose repeating iterations write to
// memory need the arbitrary writes of Section 4.2.2 (bounded by the reads
// the other threads make of those locations); Musket answers "not proved"
// with that reason. Registers that carry values between iterations
// (counters) would need arbitrary values constrained by the invariant;
// such loops are refused. Invariants mention registers only: with (1)
// they hold or fail per iteration, so they are inductive as soon as they
// hold at every backward branch.
package prove

// Violation is a table's verdict for one model: whether the assertion can
// fail ("y") or not ("n").
type Violation bool

// Cell is one cell of a table: the file checked, the model, the verdict
// the thesis reports and its run time in seconds.
type Cell struct {
	File      string // under examples/asm
	Model     string // our built-in model: sc, tso, pso or armv7
	Violation Violation
	Seconds   float64 // the thesis' run time
}

// Row is a program of a table with its bound (-1: the invariant method).
type Row struct {
	Program string
	Bound   int
	Cells   []Cell
}

// Table is one of the thesis' Tables 5.1 to 5.4.
type Table struct {
	Name string
	Rows []Row
}

const (
	y = Violation(true)
	n = Violation(false)
)

// Bounded are Tables 5.1 (Gharachorloo framework: SC, TSO, PSO) and 5.2
// (Herding Cats: SC, TSO, ARM) with the bounds they give. The SPARC
// programs stand for the SC, TSO and PSO columns; the ARM column uses
// our ARMv7 versions (DMB where SPARC has stbar, LDREX/STREX for the
// TOPPERS spinlock), except the SPARC spinlock, which the thesis also runs
// under ARM as an operation structure.
var Bounded = []Table{
	{"Table 5.1 (bounded, Gharachorloo framework)", []Row{
		{"Message passing", 1, []Cell{{"mp.litmus", "sc", n, 0.683}, {"mp.litmus", "tso", n, 1.921}, {"mp.litmus", "pso", y, 0.718}}},
		{"Message passing with fence", 1, []Cell{{"mp+stbar.litmus", "sc", n, 0.761}, {"mp+stbar.litmus", "tso", n, 1.722}, {"mp+stbar.litmus", "pso", n, 1.776}}},
		{"SPARC Spinlock", 1, []Cell{{"sparc-spinlock.litmus", "sc", n, 7.441}, {"sparc-spinlock.litmus", "tso", n, 7.542}, {"sparc-spinlock.litmus", "pso", n, 8.004}}},
		{"Dekker", 1, []Cell{{"dekker.litmus", "sc", n, 32.499}, {"dekker.litmus", "tso", y, 34.496}, {"dekker.litmus", "pso", y, 32.477}}},
		{"Peterson", 1, []Cell{{"peterson.litmus", "sc", n, 37.621}, {"peterson.litmus", "tso", y, 204.873}, {"peterson.litmus", "pso", y, 113.963}}},
		{"Known PSO bug", 0, []Cell{{"pso-bug.litmus", "sc", n, 2.896}, {"pso-bug.litmus", "tso", n, 125.707}, {"pso-bug.litmus", "pso", y, 2265.563}}},
	}},
	{"Table 5.2 (bounded, Herding Cats)", []Row{
		{"Message passing", 1, []Cell{{"mp.litmus", "sc", n, 5.614}, {"mp.litmus", "tso", n, 6.549}, {"arm-mp.litmus", "armv7", y, 14.368}}},
		{"Message passing with fence", 1, []Cell{{"mp+stbar.litmus", "sc", n, 5.724}, {"mp+stbar.litmus", "tso", n, 6.721}, {"arm-mp+dmbs.litmus", "armv7", n, 36.595}}},
		{"TOPPERS Spinlock", 1, []Cell{{"toppers-spinlock.litmus", "sc", n, 461.081}, {"toppers-spinlock.litmus", "tso", n, 535.861}, {"toppers-spinlock.litmus", "armv7", n, 3385.248}}},
		{"SPARC Spinlock", 1, []Cell{{"sparc-spinlock.litmus", "sc", n, 32.282}, {"sparc-spinlock.litmus", "tso", n, 38.497}, {"sparc-spinlock.litmus", "armv7", n, 150.107}}},
		{"Dekker", 1, []Cell{{"dekker.litmus", "sc", n, 435.416}, {"dekker.litmus", "tso", y, 561.755}, {"arm-dekker.litmus", "armv7", y, 3697.089}}},
		{"Peterson", 1, []Cell{{"peterson.litmus", "sc", n, 267.575}, {"peterson.litmus", "tso", y, 74.058}, {"arm-peterson.litmus", "armv7", y, 523.214}}},
		{"Known PSO bug", 0, []Cell{{"pso-bug.litmus", "sc", n, 4.238}, {"pso-bug.litmus", "tso", n, 5.559}, {"arm-pso-bug.litmus", "armv7", y, 135.116}}},
	}},
}

// InvariantTable is Tables 5.3 (run times) and 5.4 (violations) of the
// thesis: the inductive-invariant method on the annotated examples. The
// ARM column (armv7, on the ARM versions) is kept with the thesis'
// figures, but musket prove refuses it: the method is not sound there.
var InvariantTable = Table{"Tables 5.3 and 5.4 (inductive invariants, Herding Cats)", []Row{
	{"Message passing", -1, []Cell{{"mp.litmus", "sc", n, 15.17}, {"mp.litmus", "tso", n, 19.52}, {"mp.litmus", "pso", y, 3.38}, {"arm-mp.litmus", "armv7", y, 11.43}}},
	{"Message passing with fence", -1, []Cell{{"mp+stbar.litmus", "sc", n, 14.75}, {"mp+stbar.litmus", "tso", n, 19.12}, {"mp+stbar.litmus", "pso", n, 18.98}, {"arm-mp+dmbs.litmus", "armv7", n, 90.38}}},
	{"TOPPERS Spinlock", -1, []Cell{{"toppers-spinlock.litmus", "sc", n, 15089.42}, {"toppers-spinlock.litmus", "tso", n, 19584.4}, {"toppers-spinlock.litmus", "pso", n, 19219.8}, {"toppers-spinlock.litmus", "armv7", n, 136009.13}}},
	{"Peterson", -1, []Cell{{"peterson.litmus", "sc", n, 4557.97}, {"peterson.litmus", "tso", y, 311.11}, {"peterson.litmus", "pso", y, 310.06}, {"arm-peterson.litmus", "armv7", y, 2459.23}}},
}}

// Sound tells whether the invariant method is sound under a model.
func Sound(model string) bool {
	for _, m := range SoundModels {
		if m == model {
			return true
		}
	}
	return false
}
