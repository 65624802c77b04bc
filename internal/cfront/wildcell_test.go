package cfront

import (
	"fmt"
	"strings"
	"testing"
)

// checkWildCell checks one cell of a new user's trial table (TestWild5,
// TestWild6): w is the expected verdict's letter (P pass, F fail, R
// race, B bound, L livelock, U no verdict for a mixed-size access, N no
// verdict for a program that frees heap objects (the SMT engine's
// refusal, memRefusal), E an error saying wantErr) and line, when not 0, the line of the assertion
// a FAIL must name. check runs the program with an engine; what the
// graph engine refuses is answered by the SMT engine, as -engine auto
// does.
func checkWildCell(t *testing.T, w byte, wantErr string, line int, check func(engine string) (*Result, error)) {
	t.Helper()
	r, err := check("graph")
	if w == 'E' {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one saying %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict == Unknown {
		if r, err = check("smt"); err != nil {
			t.Fatal(err)
		}
	}
	if w == 'U' {
		if r.Verdict != Unknown || !strings.Contains(fmt.Sprint(r.Result.Err), "mixed-size") {
			t.Fatalf("verdict %v (%v), want no verdict for a mixed-size access", r.Verdict, r.Result.Err)
		}
		return
	}
	if w == 'N' {
		if r.Verdict != Unknown || !strings.Contains(fmt.Sprint(r.Result.Err), "the graph engine decides it") {
			t.Fatalf("verdict %v (%v), want no verdict for a program that frees heap objects", r.Verdict, r.Result.Err)
		}
		return
	}
	want := map[byte]Verdict{'P': Safe, 'F': Violation, 'R': Race, 'B': BoundHit, 'L': Livelock}[w]
	if r.Verdict != want {
		t.Fatalf("verdict %v (%v), want %v", r.Verdict, r.Result.Err, want)
	}
	if want == Violation && line != 0 && (r.Failed == nil || r.Failed.Pos.Line != line) {
		t.Errorf("failed assertion %v, want line %d", r.Failed, line)
	}
}
