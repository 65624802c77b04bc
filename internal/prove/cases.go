// Package prove owns the inductive-invariant method of Maleehuan,
// "Program Verification for Multiprocessors with Relaxed Memory Models
// using an SMT Solver" (JAIST 2018 thesis, Chapter 4) and its
// case studies: the bundled examples in examples/asm with the bounds,
// verdicts and run times of Tables 5.1 to 5.4, used by the tests and by
// 'musket bench asm'.
//
// # The method as Musket implements it
//
// A loop carries an invariant over its thread's registers and the values
// it last wrote ([x]), written as a litmus comment after the thread table
// (see Invariant; the language is Definition 4.1: comparisons, sums,
// connectives). It must hold at the loop's head: on entry and after
// every backward branch. Prove answers three kinds of questions with the
// SMT engine, each on an abstraction of the program (see abstract) in
// which every loop L becomes
//
//	L: B × [arbitrary iteration]   regs := *   assume inv   last iteration
//
// The last iteration is a copy of the body whose backward branches cut
// the path (it must leave the loop); regs are the registers the body
// assigns, so a register carried from one iteration to the next (a
// counter) is arbitrary there, constrained by the invariant (Section
// 4.2.1's v := *; assume inv). An arbitrary iteration stands for one of
// the iterations before the last (Section 4.2.2): it may be skipped;
// otherwise it starts like the last one, every read returns an arbitrary
// value and makes no event, a read-modify-write writes what its new
// value gives for an arbitrary old value, a store-conditional succeeds
// (writes, status OkVal) or fails (no write, status FailVal) — the cases
// of Figure 4-5 — stores and fences stay, and the iteration must end at
// a backward branch. Its writes are thus those of a real iteration,
// with their values. B is 0 when no path of the body that repeats the
// loop can write (a thread-local analysis: in the TOPPERS spinlock only
// a failed STREX repeats); otherwise B is the number of reads the other
// threads' abstractions make of the locations those iterations may write,
// plus one per such location that the thread itself reads or the
// condition observes (blockCounts).
//
// The questions, in order: for each loop, whether its invariant can fail
// on entry, and whether an iteration that starts where it holds can
// repeat the loop where it fails ("not inductive"). The program for
// these has every loop abstracted with its invariant assumed, except
// the loop checked: its thread records whether the invariant holds at
// the head, may stop there, or runs arbitrary iterations (invariant
// assumed), then one iteration from arbitrary registers satisfying the
// invariant, records whether it holds at a backward branch, and stops.
// The other threads may stop before any memory access, at the head of a
// loop's last iteration and at its backward branches. Finally, whether
// the test's condition is reachable with every loop abstracted, every
// invariant assumed and every thread ending. The answer is "proved", or
// "not proved" with the reason and the abstraction's execution behind
// it.
//
// # Why it is sound under PSO and stronger (sc, tso, pso)
//
// Take an execution of the program that is consistent under one of
// these models and in which every thread ends (partial correctness, as
// for litmus tests and the thesis' Definition 4.23); say its loop L ran
// n iterations. Keep every event except those of iterations 1..n-1, and
// of those iterations keep whole the ones that contain a needed write:
// a write some kept read of another thread reads from, or the last of
// the thread's writes to a location in those iterations (the only one
// its later reads can read, by coherence, and the only one that can be
// the final value). Reads of other threads' abstractions are at most
// the count above, so at most B iterations are kept. The kept events
// form an execution of the abstraction: the kept iterations are
// arbitrary iterations (the havoc chooses the registers they started
// with and the values their reads returned; the invariant held at their
// heads), the last iteration starts from the registers the real one had,
// which satisfy the invariant. Every read kept has its write kept, so
// rf, co and fr restricted to the kept events are those of the smaller
// execution, po is restricted, fences of dropped iterations order
// nothing, and the kept writes of abstracted iterations lose their tags
// (the rmw pair, X), which only removes edges. The axioms of sc.cat,
// tso.cat and pso.cat are acyclicity and emptiness of relations built
// from these without complement over edges, so the smaller execution is
// consistent too, with the same registers at the end and the same final
// values of the observed locations. A condition reachable in the
// program is therefore reachable in the abstraction.
//
// For the invariant queries, take an execution in which some invariant
// fails somewhere (at the head of an iteration: on entry or after a
// backward branch) and, among these failures, one whose causal past —
// the events (po|rf)*-before the thread's events up to that point — is
// smallest, and then earliest in its thread. Under sc, tso and pso po|rf
// is acyclic (a read is never reordered with a later access, so load
// buffering cannot happen; a read never reads a po-later write of its
// own thread), so this past C is closed under po prefixes and rf
// sources, and the restriction to C is a consistent execution in which
// every other thread runs a prefix of its run. Every loop head in C
// other than the failure has a strictly smaller past or comes earlier in
// the failing thread (a kept earlier iteration contains a write of C that
// its own head cannot see), so the invariant holds there; the other
// threads stop where C ends (among the places they may stop), and the
// deletion of earlier iterations above maps C to an execution of the
// check's program in which the checked thread records the failure. So
// assuming the other invariants while checking one is not circular.
//
// Models that may reorder a read with a later access (rmo, power,
// armv7, ...) are refused: there, as the thesis shows (Section 4.4),
// accesses after the loop can affect what its earlier reads returned,
// and the abstraction, which has no such reads, would miss executions.
//
// # Limits
//
// Loops must not nest and are entered through their head only
// (structured programs, Section 4.3). Invariants mention registers and
// [x], the value the thread last wrote to x (a shadow register, see
// shadow), not the value of x in memory (which a thread cannot assert
// under a relaxed model; the registers it read say what it saw). Values
// are unbounded integers. The method is incomplete: an invariant that is inductive but
// too weak gives a "possible violation" the program does not have (the
// last iteration may start anywhere the invariant allows).
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
