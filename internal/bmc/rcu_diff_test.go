package bmc_test

import (
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// TestRCUNestingFlags compares the engines on the kernel bell's matching
// of rcu_read_lock and rcu_read_unlock, a let rec that is not monotone
// (Rcu-lock \ domain(matched)): computed by Kleene iteration from empty,
// as herd7 does, no lock is unmatched in these tests. The SMT engine
// accepted any fixpoint and raised unmatched-rcu-lock.
func TestRCUNestingFlags(t *testing.T) {
	m, fe, variants := kernelModel(t)
	for name, body := range map[string]string{
		"two sections":  `rcu_read_lock(); int r1 = READ_ONCE(*x); rcu_read_unlock(); rcu_read_lock(); WRITE_ONCE(*x, 1); rcu_read_unlock();`,
		"nested":        `rcu_read_lock(); rcu_read_lock(); int r1 = READ_ONCE(*x); rcu_read_unlock(); rcu_read_unlock();`,
		"one unmatched": `rcu_read_lock(); int r1 = READ_ONCE(*x);`,
	} {
		t.Run(name, func(t *testing.T) {
			src := "C t\n{}\nP0(int *x) { " + body + " }\nexists (0:r1=1)"
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
