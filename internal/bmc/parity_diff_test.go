package bmc_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestParityDifferential runs both engines, under the Linux kernel's
// model, on C tests herd7 reads that Musket once refused: registers
// given values only in the initial state, break and continue in loops,
// for loops.
func TestParityDifferential(t *testing.T) {
	m, fe, variants := kernelModel(t)
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"registers of the initial state", `C t
{ 0:r4=y; 1:r5=x; }
P0(int *x) { WRITE_ONCE(*x, 1); smp_store_release(r4, 1); }
P1(int *y) { int r0 = smp_load_acquire(y); int r1 = READ_ONCE(*r5); }
exists (1:r0=1 /\ 1:r1=0)`, false},
		{"continue and break", `C t
{}
P0(int *x, int *y) { WRITE_ONCE(*x, 1); smp_store_release(y, 1); }
P1(int *x, int *y) {
	int r0 = 0; int r1 = 0;
	while (1) { r0 = smp_load_acquire(y); if (r0 == 0) continue; break; }
	r1 = READ_ONCE(*x);
}
exists (1:r0=1 /\ 1:r1=0)`, false},
		{"a break makes a control dependency", `C t
{}
P0(int *x, int *y) { int r0 = READ_ONCE(*x); smp_mb(); WRITE_ONCE(*y, 1); }
P1(int *x, int *y) {
	int r1;
	while (1) { r1 = READ_ONCE(*y); if (r1 == 0) break; WRITE_ONCE(*x, 1); break; }
}
exists (0:r0=1 /\ 1:r1=1)`, false},
		{"for loop", `C t
{}
P0(int *x) { int i; for (i = 0; i < 3; i++) { if (i == 1) continue; WRITE_ONCE(*x, i); } }
P1(int *x) { int r0 = READ_ONCE(*x); }
exists (1:r0=1)`, false},
		{"arrays and addresses in the initial state", `C t
{
int a[2] = {1, 2};
b[2] = {3, *(&a)};
int *p = &x;
}
P0(int *a, int *x, int **p) { int r0 = READ_ONCE(a[1]); int *r2 = READ_ONCE(*p); WRITE_ONCE(*r2, r0); WRITE_ONCE(*(a + 1), 5); }
P1(int *b, int *x) { int *r1 = READ_ONCE(b[1]); int r3 = READ_ONCE(r1[1]); int r4 = READ_ONCE(*x); }
exists (0:r0=2 /\ x=2 /\ 1:r1=a /\ a[1]=5 /\ 1:r3=2 /\ 1:r4=2)`, true},
		{"a cell written through a pointer read from an array", `C t
{
int a[2] = {0, 0};
b[1] = {a};
}
P0(int *a) { WRITE_ONCE(a[1], 1); smp_mb(); int r0 = READ_ONCE(a[0]); }
P1(int *b) { int *r1 = READ_ONCE(b[0]); WRITE_ONCE(r1[0], 1); smp_mb(); int r2 = READ_ONCE(r1[1]); }
exists (0:r0=0 /\ 1:r2=0)`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantBothOk(t, tc.src, m, fe, variants, tc.ok) })
	}
}

// TestFiveThreadLock: five threads increment x under one spin lock; the
// lock's 10 writes have 113400 coherence orders, which cross.cat once
// built by a recursion too deep for the evaluator. The SMT engine takes
// seconds; the explicit engine, minutes (MUSKET_LONG=1 runs both).
func TestFiveThreadLock(t *testing.T) {
	m, fe, variants := kernelModel(t)
	src := `C lock5
{}
P0(int *x, spinlock_t *l) { spin_lock(l); int r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P1(int *x, spinlock_t *l) { spin_lock(l); int r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P2(int *x, spinlock_t *l) { spin_lock(l); int r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P3(int *x, spinlock_t *l) { spin_lock(l); int r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
P4(int *x, spinlock_t *l) { spin_lock(l); int r0 = READ_ONCE(*x); WRITE_ONCE(*x, r0 + 1); spin_unlock(l); }
exists (~x=5)`
	if os.Getenv("MUSKET_LONG") == "1" {
		wantBothOk(t, src, m, fe, variants, false)
		return
	}
	lt, err := litmus.ParseWith("t.litmus", []byte(src), fe)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	b := bmc.Run(ctx, lt, m, "lkmm", bmc.Options{Variants: variants, TagNames: fe.Tags()})
	if b.Status != result.Done || b.Ok() {
		t.Errorf("smt: %s %v, Ok %v; want a verdict, No", b.Status, b.Err, b.Ok())
	}
}
