package param

import (
	"context"
	"testing"
	"time"
)

// wrongSafeTSO is the system of issue #31 (reduced from system 1287 of
// TestSelfCheckRandom, seed 9): t0(#1), t0(#2), t2(#1) reaches the
// unsafe state with two processes (t0's case on the weak Var0 has no
// default and writes nothing, so Var0 keeps A). Its safety test met
// "Var0 <> B" twice, once per read of Var0 with the initial value in
// place, and enumCheck counted the literal twice: with "Var0 <> C" the
// three constructors looked excluded, and the search answered SAFE.
const wrongSafeTSO = `type val = A | B | C
weak var Var0 : val
array Arr1[proc] : val
init (p) { Var0 = A && Arr1[p] = A }
unsafe (p q) { p@Var0 = C }
transition t0 ([i])
{ Arr1[k] := case | k = i : B | Arr1[k] = B : C | _ : A; Var0 := case | Var0 = B : B }
transition t2 ([i])
requires { Var0 <> C && Arr1[i] = C }
{ Var0 := C }
`

// TestWrongSafeTSO checks that the system of issue #31 is UNSAFE, with
// and without approximation, and that the cross-check on finite
// instances agrees.
func TestWrongSafeTSO(t *testing.T) {
	for _, noApprox := range []bool{false, true} {
		opts := Options{Timeout: 10 * time.Second, NoApprox: noApprox}
		problem, v, _ := crossCheckTrace(context.Background(), wrongSafeTSO, opts, 2000)
		if problem != "" {
			t.Errorf("noapprox=%v: %s", noApprox, problem)
		}
		if v != Unsafe {
			t.Errorf("noapprox=%v: got %s, want UNSAFE", noApprox, v)
		}
	}
}

// TestEnumCheckRepeated checks that enumCheck counts each excluded
// constructor once, however often its literal appears.
func TestEnumCheckRepeated(t *testing.T) {
	sys, err := Load("wrongsafe.cub", []byte(wrongSafeTSO))
	if err != nil {
		t.Fatal(err)
	}
	sym := -1
	for i, g := range sys.Globals {
		if g.Name == "Var0" {
			sym = i
		}
	}
	if sym < 0 {
		t.Fatal("no Var0")
	}
	sort := sys.Globals[sym].Sort
	x := Term{Kind: KInit, Sort: sort, Sym: int32(sym)}
	ne := func(c int32) Lit { return Lit{Op: Ne, L: x, R: Term{Kind: KEnum, Sort: sort, Sym: c}} }
	const a, b, c = 0, 1, 2
	tests := []struct {
		name string
		lits []Lit
		want cheapResult
	}{
		{"two excluded", []Lit{ne(c), ne(b)}, cheapSat},
		{"one repeated", []Lit{ne(c), ne(b), ne(b)}, cheapSat},
		{"all repeated", []Lit{ne(b), ne(b), ne(b), ne(b)}, cheapSat},
		{"all excluded", []Lit{ne(c), ne(b), ne(a)}, cheapUnsat},
		{"all excluded, repeated", []Lit{ne(a), ne(c), ne(a), ne(b)}, cheapUnsat},
	}
	for _, tc := range tests {
		if got := enumCheck(sys, tc.lits, cheapSat); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
