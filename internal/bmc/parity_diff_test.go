package bmc_test

import "testing"

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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantBothOk(t, tc.src, m, fe, variants, tc.ok) })
	}
}
