package bmc_test

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestRCUNestingFlags compares the engines on the Linux-kernel bell's
// matching of rcu_read_lock with rcu_read_unlock, a let rec that is not
// monotone (Rcu-lock \ domain(matched)). herd7 and the explicit engine
// compute it by iteration from empty, and match every lock of these
// tests but the last one's; the SMT engine accepted any fixpoint and
// raised unmatched-rcu-lock on the first two (LKMM's C-RW-R3 shape). The
// conditional shapes make the iteration depend on the execution (the
// events of a branch), so that it is encoded pass by pass rather than
// computed before solving.
func TestRCUNestingFlags(t *testing.T) {
	m, fe, variants := kernelModel(t)
	for _, tc := range []struct{ name, body string }{
		{"two sections", `P0(int *x) { rcu_read_lock(); int r1 = READ_ONCE(*x); rcu_read_unlock(); rcu_read_lock(); WRITE_ONCE(*x, 1); rcu_read_unlock(); }`},
		{"nested", `P0(int *x) { rcu_read_lock(); rcu_read_lock(); int r1 = READ_ONCE(*x); rcu_read_unlock(); rcu_read_unlock(); }`},
		{"one unmatched", `P0(int *x) { rcu_read_lock(); int r1 = READ_ONCE(*x); }`},
		{"conditional section", `P0(int *x, int *y) { int r1 = READ_ONCE(*x); if (r1) { rcu_read_lock(); WRITE_ONCE(*y, 1); rcu_read_unlock(); } rcu_read_lock(); int r2 = READ_ONCE(*y); rcu_read_unlock(); }
P1(int *x) { WRITE_ONCE(*x, 1); }`},
		{"conditional unlock", `P0(int *x, int *y) { rcu_read_lock(); int r1 = READ_ONCE(*x); if (r1) { rcu_read_unlock(); } rcu_read_lock(); WRITE_ONCE(*y, 1); rcu_read_unlock(); }
P1(int *x) { WRITE_ONCE(*x, 1); }`},
		{"conditional nesting", `P0(int *x, int *y) { int r1 = READ_ONCE(*x); rcu_read_lock(); if (r1) { rcu_read_lock(); } WRITE_ONCE(*y, 1); rcu_read_unlock(); if (r1) { rcu_read_unlock(); } rcu_read_lock(); int r2 = READ_ONCE(*y); rcu_read_unlock(); }
P1(int *x) { WRITE_ONCE(*x, 1); }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "C t\n{}\n" + tc.body + "\nexists (0:r1=1)"
			lt, err := litmus.ParseWith("t.litmus", []byte(src), fe)
			if err != nil {
				t.Fatal(err)
			}
			diff, _, skip := sameUnderBoth(lt, m, fe, variants)
			if skip {
				t.Fatal("the explicit engine did not finish")
			}
			if diff != "" {
				t.Fatal(diff)
			}
		})
	}
}
