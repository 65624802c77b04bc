package litmus

import (
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// TestCCtrlJoins checks where the C front-end ends the control dependency
// of each conditional jump (prog.Jump.Join, printed "~L"): where the
// branches of the if, the loop, the short-circuit operator or the
// conditional expression join.
func TestCCtrlJoins(t *testing.T) {
	tests := []struct {
		name, body, code string
	}{
		{"if", `int r0 = READ_ONCE(*x); if (r0) WRITE_ONCE(*y, 1); WRITE_ONCE(*y, 2);`,
			"%t1 = load.ONCE [x]; r0 = %t1; if !r0 goto %L1 ~%L1; store.ONCE [y] 1; %L1:; store.ONCE [y] 2"},
		{"if else", `int r0 = READ_ONCE(*x); if (r0) WRITE_ONCE(*y, 1); else WRITE_ONCE(*y, 3); WRITE_ONCE(*y, 2);`,
			"%t1 = load.ONCE [x]; r0 = %t1; if !r0 goto %L1 ~%L2; store.ONCE [y] 1; goto %L2; %L1:; store.ONCE [y] 3; %L2:; store.ONCE [y] 2"},
		{"nested ifs", `int r0 = READ_ONCE(*x); if (r0) { if (r0 == 2) WRITE_ONCE(*y, 1); WRITE_ONCE(*y, 3); } else { if (r0 == 3) WRITE_ONCE(*y, 4); }`,
			"%t1 = load.ONCE [x]; r0 = %t1; if !r0 goto %L1 ~%L2; if !(r0 == 2) goto %L3 ~%L3; store.ONCE [y] 1; %L3:; store.ONCE [y] 3; goto %L2; %L1:; if !(r0 == 3) goto %L4 ~%L4; store.ONCE [y] 4; %L4:; %L2:"},
		{"while", `int r0 = 0; while (r0 == 0) { r0 = READ_ONCE(*x); } WRITE_ONCE(*y, 1);`,
			"r0 = 0; %L1:; if !(r0 == 0) goto %L2 ~%L2; %t1 = load.ONCE [x]; r0 = %t1; goto %L1; %L2:; store.ONCE [y] 1"},
		{"do while", `int r0; do { r0 = READ_ONCE(*x); } while (r0 == 0); WRITE_ONCE(*y, 1);`,
			"%L1:; %t1 = load.ONCE [x]; r0 = %t1; if (r0 == 0) goto %L1 ~%L2; %L2:; store.ONCE [y] 1"},
		{"short circuit", `int r0 = READ_ONCE(*x) && READ_ONCE(*y);`,
			"%t2 = load.ONCE [x]; %t1 = !!%t2; if !%t1 goto %L1 ~%L1; %t3 = load.ONCE [y]; %t1 = (%t1 && %t3); %L1:; r0 = %t1"},
		{"conditional expression", `int r0 = READ_ONCE(*x) ? READ_ONCE(*y) : 2;`,
			"%t2 = load.ONCE [x]; if !%t2 goto %L1 ~%L2; %t3 = load.ONCE [y]; %t1 = %t3; goto %L2; %L1:; %t1 = 2; %L2:; r0 = %t1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "C t\n{}\nP0(int *x, int *y) { " + tc.body + " }\nexists (x=1)"
			if got := joinCode(t, src); got != tc.code {
				t.Errorf("code\n got %s\nwant %s", got, tc.code)
			}
		})
	}
}

// TestCCompareExchangeJoin checks that only the write back of a failing
// compare-and-swap depends on its outcome.
func TestCCompareExchangeJoin(t *testing.T) {
	lt, err := Parse("t.litmus", []byte(`C t
{}
P0(atomic_int *x, atomic_int *one) { int r = atomic_compare_exchange_strong(x, one, 2); }
exists (0:r=1)`))
	if err != nil {
		t.Fatal(err)
	}
	jumps := 0
	for _, in := range lt.Threads[0].Code {
		if j, ok := in.(prog.Jump); ok {
			jumps++
			if j.Join != j.Target {
				t.Errorf("%s: control dependency ends at %q, want %q", prog.InstrString(j), j.Join, j.Target)
			}
		}
	}
	if jumps != 1 {
		t.Errorf("%d jumps, want 1", jumps)
	}
}
