package porthos

// TableIIICell is one cell of Table III of Ponce-de-León, Furbach,
// Heljanko, Meyer, "BMC with Memory Models as Modules" (FMCAD 2018):
// Porthos' time in seconds (TableIIITimedOut for its T/O), its oracle
// iterations (-1 when unknown), and whether the inclusion holds at bound
// 2. Holds is the paper's verdict where Porthos finished; where it timed
// out (Bakery under ARM, Lamport under Power and ARM) it is Musket's:
// the inclusion holds for Bakery and fails for Lamport, whose missing
// state the explicit engine confirms (TestLamportCrossCheck).
type TableIIICell struct {
	Time  float64
	Iters int
	Holds bool
}

// TableIIITimedOut marks a cell the paper's Porthos did not finish.
const TableIIITimedOut = -1

// TableIIIRow is one program of Table III, one cell per column of
// TableIIIColumns.
type TableIIIRow struct {
	Program string // the .pts file is Program + ".pts"
	Cells   [3]TableIIICell
}

// TableIIIColumns are the inclusions of Table III: the target side's
// states must be states of the source side.
var TableIIIColumns = [3]struct{ Title, Source, Target string }{
	{"TSO⊆SC", "sc", "tso"},
	{"Power⊆TSO", "tso", "power"},
	{"ARM⊆TSO", "tso", "armv7"},
}

// TableIII is Table III of the paper (bound 2), the one copy that musket
// bench porthos prints and TestTableIII checks.
var TableIII = []TableIIIRow{
	{"Parker", [3]TableIIICell{{0.70, 1, false}, {2.46, 2, false}, {1.90, 1, false}}},
	{"Dekker", [3]TableIIICell{{12.31, 1, false}, {108.89, 0, true}, {134.43, 0, true}}},
	{"Peterson", [3]TableIIICell{{1.31, 1, false}, {6.33, 0, true}, {6.51, 0, true}}},
	{"Burns", [3]TableIIICell{{2.00, 1, false}, {6.12, 1, true}, {7.89, 1, true}}},
	{"Bakery", [3]TableIIICell{{10.78, 2, false}, {836.44, 43, true}, {TableIIITimedOut, -1, true}}},
	{"Lamport", [3]TableIIICell{{10.64, 3, false}, {TableIIITimedOut, -1, false}, {TableIIITimedOut, -1, false}}},
	{"Szymanski", [3]TableIIICell{{101.32, 1, false}, {940.75, 0, true}, {850.44, 0, true}}},
}
