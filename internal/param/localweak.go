package param

// local_weak is a declaration of an early Cubicle-W development version,
// kept in the tests of Cubicle's repository (tests/cubicle/peterson2a.cub,
// dekker2a.cub, tests/new/cubtso/dekker_2W_N.cub, szymanski_at_N.cub,
// lamp_tso.cub): "local_weak array Want[proc] : bool". No released
// grammar keeps it, and the grammar of that version is not among the
// public sources. What the sources do show: its prover (prover.ml,
// rm_sat_evt_thr_par) drops the variable and parameter fields of the
// read events already satisfied before the fixpoint check, under a
// condition "is_local_weak" left in a comment; that is, local weak
// memory is weak memory about which the search knows more, not another
// memory model. In every public file, the cell A[p] of a local_weak array
// is written by process p alone (write(p, Want[p], v), or write(#k,
// Want[#k], v) in a transition performed by #k), and read by any process.
//
// Musket reads local_weak as weak, and checks that discipline: every
// assignment to a local_weak array is of the cell of the process that
// performs the transition. Under it, the meaning cannot depend on the
// reading: a weak cell written by one process alone goes through that
// process's store buffer (the other processes see the values in the order
// they were written, the writer sees its own last one), which is what
// weak says; a version that knew the writer of each event could only use
// it as a fact of every run. A file that breaks the discipline (another
// cell, a universal update, a transition performed by no process), or
// declares a local_weak var or an array of other than one index, is
// refused by name (exit 3): what local_weak meant there is not known.

// declareLocalWeak records g, declared local_weak, or refuses it.
func (c *checker) declareLocalWeak(g *GlobalDecl) {
	if g.Kind != GArray || len(g.Indices) != 1 {
		c.errorf(g.Pos, "unsupported: local_weak %s (an early Cubicle-W declaration): Musket reads it on an array of one proc index, whose cell of process p only p writes; declare %s weak", g.Name, g.Name)
		return
	}
	if c.localWeak == nil {
		c.localWeak = map[int32]bool{}
	}
	c.localWeak[c.globals[g.Name]] = true
}

// localWeakWrite checks that u, the assignment a to a local_weak array,
// writes the cell of the process performing the transition.
func (c *checker) localWeakWrite(a *Action, u Update, sc *scope) bool {
	if !u.Univ && sc.actor != 0 && u.NArgs == 1 && u.Args[0] == sc.actor {
		return true
	}
	c.errorf(a.Name.Pos, "unsupported: %s is local_weak (an early Cubicle-W declaration) and this assignment is not to the cell of the process performing the transition: Musket reads local_weak as weak where only process p writes %s[p]; declare %s weak", a.Name.Name, a.Name.Name, a.Name.Name)
	return false
}
