package litmus

import (
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
)

// joinCode prints thread 0 of a C test, a conditional jump followed by
// "~L" when its control dependency ends at label L.
func joinCode(t *testing.T, src string) string {
	t.Helper()
	lt, err := Parse("t.litmus", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var ins []string
	for _, in := range lt.Threads[0].Code {
		s := prog.InstrString(in)
		if j, ok := in.(prog.Jump); ok && j.Join != "" {
			s += " ~" + j.Join
		}
		ins = append(ins, s)
	}
	return strings.Join(ins, "; ")
}

// TestCBreakContinue: break and continue leave or restart the innermost
// loop; an if whose branch leaves the loop puts the rest of the loop
// under its control dependency (up to the loop's exit), as the unrolled
// ifs of herd7's C do. for loops are while loops with a step where
// continue goes.
func TestCBreakContinue(t *testing.T) {
	tests := []struct {
		name, body, code string
	}{
		{"break", `int r0; while (1) { r0 = READ_ONCE(*x); if (r0) break; WRITE_ONCE(*y, 1); } WRITE_ONCE(*y, 2);`,
			"%L1:; if !1 goto %L2 ~%L2; %t1 = load.ONCE [x]; r0 = %t1; if !r0 goto %L3 ~%L2; goto %L2; %L3:; store.ONCE [y] 1; goto %L1; %L2:; store.ONCE [y] 2"},
		{"continue", `int r0; while (1) { r0 = READ_ONCE(*x); if (r0 == 0) continue; break; }`,
			"%L1:; if !1 goto %L2 ~%L2; %t1 = load.ONCE [x]; r0 = %t1; if !(r0 == 0) goto %L3 ~%L2; goto %L1; %L3:; goto %L2; goto %L1; %L2:"},
		{"continue in do while", `int r0; do { r0 = READ_ONCE(*x); if (r0 == 1) continue; WRITE_ONCE(*y, 1); } while (r0 == 0);`,
			"%L1:; %t1 = load.ONCE [x]; r0 = %t1; if !(r0 == 1) goto %L4 ~%L2; goto %L3; %L4:; store.ONCE [y] 1; %L3:; if (r0 == 0) goto %L1 ~%L2; %L2:"},
		{"for", `int i; for (i = 0; i < 2; i++) WRITE_ONCE(*x, i);`,
			"i = 0; %L1:; if !(i < 2) goto %L2 ~%L2; store.ONCE [x] i; %t1 = i; i = (i + 1); goto %L1; %L2:"},
		{"for with a declaration and continue", `for (int i = 0; ; i++) { if (i == 1) continue; WRITE_ONCE(*x, i); if (i == 2) break; }`,
			"i = 0; %L1:; if !(i == 1) goto %L4 ~%L2; goto %L3; %L4:; store.ONCE [x] i; if !(i == 2) goto %L5 ~%L2; goto %L2; %L5:; %L3:; %t1 = i; i = (i + 1); goto %L1; %L2:"},
		{"break of the inner loop", `int r0; while (1) { while (1) { r0 = READ_ONCE(*x); if (r0) break; } if (r0 == 2) WRITE_ONCE(*y, 1); break; }`,
			"%L1:; if !1 goto %L2 ~%L2; %L3:; if !1 goto %L4 ~%L4; %t1 = load.ONCE [x]; r0 = %t1; if !r0 goto %L5 ~%L4; goto %L4; %L5:; goto %L3; %L4:; if !(r0 == 2) goto %L6 ~%L6; store.ONCE [y] 1; %L6:; goto %L2; goto %L1; %L2:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := joinCode(t, "C t\n{}\nP0(int *x, int *y) { "+tc.body+" }\nexists (x=1)")
			if got != tc.code {
				t.Errorf("code\n got %s\nwant %s", got, tc.code)
			}
		})
	}
}

// TestCInitRegisters: a register the initial state gives a value is a
// variable of its thread, as in herd7 ("0:r4=y;" with r4 used in P0).
func TestCInitRegisters(t *testing.T) {
	got := joinCode(t, "C t\n{ 0:r4=y; 1:r4=x; }\nP0(int *x) { WRITE_ONCE(*r4, 1); int r0 = READ_ONCE(*x); r4 = x; }\nP1(int *y) { }\nexists (0:r0=0)")
	if want := "store.ONCE [r4] 1; %t1 = load.ONCE [x]; r0 = %t1; r4 = x"; got != want {
		t.Errorf("code\n got %s\nwant %s", got, want)
	}
}

// TestCLoopErrors: a loop jump outside a loop, and a register that
// neither the initial state nor the thread declares, are refused.
func TestCLoopErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"break outside a loop", "C t\n{}\nP0(int *x) {\n  break;\n}\nexists (x=1)", `t.litmus:4:3: break outside a loop`},
		{"continue in an if", "C t\n{}\nP0(int *x) {\n  if (1) continue;\n}\nexists (x=1)", `t.litmus:4:10: continue outside a loop`},
		{"missing semicolon", "C t\n{}\nP0(int *x) {\n  while (1) break }\nexists (x=1)", `t.litmus:4:19: expected ';' after the statement, found "}"`},
		{"register of another thread", "C t\n{ 1:r4=y; }\nP0(int *x) {\n  WRITE_ONCE(*r4, 1);\n}\nP1(int *y) {}\nexists (x=1)", `t.litmus:4:15: undeclared identifier "r4"`},
	} {
		_, err := Parse("t.litmus", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}
