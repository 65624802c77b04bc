// Package prove owns seed 004's case studies (Tables 5.1 to 5.4 of the
// thesis on SMT verification of assembly on relaxed models): the bundled
// examples in examples/asm, the bounds and verdicts the tables give, and
// the thesis' run times, used by the tests and by 'musket bench asm'.
//
// The inductive-invariant method of the thesis' Chapter 4 ('musket
// prove') is not implemented yet; see Invariant method below.
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
