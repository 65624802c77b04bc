package graph_test

import (
	"testing"
	"time"
)

// TestRVNativeCrossCheck runs C programs under -target riscv with
// Options.CrossCheck: the native check (rvnative.go) and riscv.cat must
// agree on every graph built, the symmetry reduction on. MUSKET_LONG=1:
// every program of examples/c and of cfront's testdata (with cw3, cw4,
// cw5 and sem) but ttas4.c.
func TestRVNativeCrossCheck(t *testing.T) {
	crossCheckCPrograms(t, "riscv", 2*time.Minute, // generous: a loaded machine
		[]string{"../../examples/c/treiber.c", "../../examples/c/rwlock-bug.c", "../../examples/c/seqlock.c",
			"../../examples/c/msqueue.c", "../../examples/c/chase-lev.c", "../cfront/testdata/sym_trylock.c",
			"../cfront/testdata/spinlock_rlx.c", "../cfront/testdata/cw3/acqrel_mid.c", "../cfront/testdata/xchg_rfi.c",
			"../cfront/testdata/iriw_acq.c", "../cfront/testdata/cw5/lb_deps.c", "../cfront/testdata/sem/barrier.c"},
		[]string{"../cfront/testdata/*.c", "../cfront/testdata/cw3/*.c", "../cfront/testdata/cw4/*.c",
			"../cfront/testdata/cw5/*.c", "../cfront/testdata/sem/*.c"})
}
