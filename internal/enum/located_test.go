package enum

import (
	"context"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// lkmmDir holds the Linux kernel's model files in the corpus.
const lkmmDir = "../../../shared/corpus/cat/linux/"

// lockTests are small C tests of spin locks and SRCU under the kernel's
// model (lock.cat gives the lock events their rf and co), with the answer
// lock.cat's definitions give.
var lockTests = []struct {
	name, src string
	ok        bool
}{
	{"MP through a lock", `C t
{}
P0(int *buf, int *flag, spinlock_t *l) { WRITE_ONCE(*buf, 1); spin_lock(l); WRITE_ONCE(*flag, 1); spin_unlock(l); }
P1(int *buf, int *flag, spinlock_t *l) { int r0; int r1; spin_lock(l); r0 = READ_ONCE(*flag); spin_unlock(l); r1 = READ_ONCE(*buf); }
exists (1:r0=1 /\ 1:r1=0)`, false},
	{"MP without the reader's lock", `C t
{}
P0(int *buf, int *flag, spinlock_t *l) { WRITE_ONCE(*buf, 1); spin_lock(l); WRITE_ONCE(*flag, 1); spin_unlock(l); }
P1(int *buf, int *flag, spinlock_t *l) { int r0; int r1; r0 = READ_ONCE(*flag); r1 = READ_ONCE(*buf); }
exists (1:r0=1 /\ 1:r1=0)`, true},
	{"critical sections exclude each other", `C t
{}
P0(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
exists (0:r0=0 /\ 1:r0=0)`, false},
	{"both critical sections run", `C t
{}
P0(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { int r0; spin_lock(l); r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
exists (x=2)`, true},
	{"an uncontended trylock cannot fail", `C t
{}
P0(spinlock_t *l) { int r0; r0 = spin_trylock(l); }
exists (0:r0=0)`, false},
	{"an uncontended trylock succeeds", `C t
{}
P0(spinlock_t *l) { int r0; r0 = spin_trylock(l); }
exists (0:r0=1)`, true},
	{"a trylock fails while another thread holds the lock", `C t
{}
P0(int *x, spinlock_t *l) { spin_lock(l); WRITE_ONCE(*x, 1); }
P1(int *x, spinlock_t *l) { int r0; r0 = spin_trylock(l); }
exists (1:r0=0)`, true},
	{"a successful trylock orders like a lock", `C t
{}
P0(int *buf, int *flag, spinlock_t *l) { WRITE_ONCE(*buf, 1); spin_lock(l); WRITE_ONCE(*flag, 1); spin_unlock(l); }
P1(int *buf, int *flag, spinlock_t *l) { int r0; int r1; int r2 = 2; r0 = spin_trylock(l); if (r0) { r1 = READ_ONCE(*flag); spin_unlock(l); r2 = READ_ONCE(*buf); } }
exists (1:r0=1 /\ 1:r1=1 /\ 1:r2=0)`, false},
	{"spin_is_locked in a critical section", `C t
{}
P0(spinlock_t *l) { int r0; spin_lock(l); r0 = spin_is_locked(l); spin_unlock(l); }
exists (0:r0=0)`, false},
	{"spin_is_locked of a free lock", `C t
{}
P0(spinlock_t *l) { int r0; r0 = spin_is_locked(l); }
exists (0:r0=1)`, false},
	{"spin_is_locked sees another thread's lock", `C t
{}
P0(spinlock_t *l) { spin_lock(l); }
P1(spinlock_t *l) { int r0; r0 = spin_is_locked(l); }
exists (1:r0=1)`, true},
	{"synchronize_srcu waits for a read-side critical section", `C t
{}
P0(int *x, int *y, struct srcu_struct *s) { int r1; int r2; int r3; r3 = srcu_read_lock(s); r1 = READ_ONCE(*x); r2 = READ_ONCE(*y); srcu_read_unlock(s, r3); }
P1(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*y, 1); synchronize_srcu(s); WRITE_ONCE(*x, 1); }
exists (0:r1=1 /\ 0:r2=0)`, false},
	{"synchronize_srcu of another srcu_struct", `C t
{}
P0(int *x, int *y, struct srcu_struct *s, struct srcu_struct *t) { int r1; int r2; int r3; r3 = srcu_read_lock(s); r1 = READ_ONCE(*x); r2 = READ_ONCE(*y); srcu_read_unlock(s, r3); }
P1(int *x, int *y, struct srcu_struct *s, struct srcu_struct *t) { WRITE_ONCE(*y, 1); synchronize_srcu(t); WRITE_ONCE(*x, 1); }
exists (0:r1=1 /\ 0:r2=0)`, true},
}

// lkmm loads the kernel's model as musket litmus -conf linux-kernel.cfg
// does, with herd7's cos-opt.cat and cross.cat (include) or Musket's.
func lkmm(t *testing.T, include []string) (*cat.Model, litmus.Frontend) {
	t.Helper()
	m, err := cat.Load(lkmmDir+"linux-kernel.cat", cat.LoadOptions{Bell: lkmmDir + "linux-kernel.bell", IncludeDirs: include})
	if err != nil {
		t.Fatal(err)
	}
	mac, err := litmus.ReadMacros(lkmmDir + "linux-kernel.def")
	if err != nil {
		t.Fatal(err)
	}
	return m, litmus.NewCFrontend(mac)
}

func TestLocks(t *testing.T) {
	for _, lib := range []struct {
		name    string
		include []string
	}{{"musket-cos-opt", nil}, {"herd-cos-opt", []string{"../../../shared/corpus/cat/herd"}}} {
		m, fe := lkmm(t, lib.include)
		for _, tc := range lockTests {
			t.Run(lib.name+"/"+tc.name, func(t *testing.T) {
				lt, err := litmus.ParseWith("t.litmus", []byte(tc.src), fe)
				if err != nil {
					t.Fatal(err)
				}
				r := Run(context.Background(), lt, m, "lkmm", Options{Variants: map[string]bool{"lkmmv2": true}, TagNames: fe.Tags()})
				if r.Status != result.Done {
					t.Fatalf("status %s: %v", r.Status, r.Err)
				}
				if r.Ok() != tc.ok {
					t.Errorf("Ok %v, want %v (states %s)", r.Ok(), tc.ok, states(r))
				}
			})
		}
	}
}
