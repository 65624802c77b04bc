package param

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"
)

// procIndexCases: a proc variable as an array index (procindex.go), in
// systems whose verdict depends on the process it holds: equal to a
// parameter, different from every one, assigned, two of them, in unsafe.
var procIndexCases = []verdictCase{
	// only the cell of H is ever written (A[H] := True had been read
	// as A[j] := True for every j: a wrong UNSAFE)
	{"update at H", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition t () { A[H] := True }`, Safe},
	// H moves, so two cells are written
	{"update at H, H assigned", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition move (i) { H := i }
transition t () { A[H] := True }`, Unsafe},
	// "H := i; A[H] := True" writes the cell of the old H: the new H
	// is never marked (it would be, read in the state after)
	{"update at the old H", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i) { H = i && A[i] = True }
transition tm (i) requires { H <> i && A[i] = False } { H := i; A[H] := True }`, Safe},
	// t needs A[H] set and its parameter unset: H different from i
	{"read at H, H a new process", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True }
transition set (i) { A[i] := True }
transition t (i) requires { A[H] = True && A[i] = False } { B[i] := True }`, Unsafe},
	// the same with H = i required: A[H] and A[i] cannot differ
	{"read at H, H the parameter", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True }
transition set (i) { A[i] := True }
transition t (i) requires { H = i && A[H] = True && A[i] = False } { B[i] := True }`, Safe},
	// the value of H's cell copied to another cell
	{"read at H as a value", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition set () { A[H] := True }
transition copy (k) { A[k] := A[H] }`, Unsafe},
	{"read at H as a value, H never set", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition copy (k) { A[k] := A[H] }`, Safe},
	// forall_other k ranges over the process of H when it is no
	// parameter: t is blocked once A[H] is set, and setH once some B
	// is set; forgetting k = H made it UNSAFE
	{"forall_other over H's process", `var H : proc
array A[proc] : bool
array B[proc] : bool
array C[proc] : bool
init (p) { A[p] = False && B[p] = False && C[p] = False }
unsafe (i) { B[i] = True && A[H] = True && H <> i }
transition setH () requires { forall k. B[k] = False } { A[H] := True }
transition t (i) requires { C[H] = False && forall_other k. A[k] = False } { B[i] := True }`, Safe},
	// exists_other k likewise: some other process's A set, H's being
	// the only one that can be
	{"exists_other over H's process", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True }
transition setH () { A[H] := True }
transition t (i) requires { B[H] = False && exists_other k. A[k] = True } { B[i] := True }`, Unsafe},
	// in unsafe: H = i, or another process
	{"unsafe at H, H the parameter", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i) { A[H] = True && A[i] = True }
transition setH () { A[H] := True }`, Unsafe},
	{"unsafe at H, H another process", `var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i) { A[H] = True && A[i] = True && H <> i }
transition setH () { A[H] := True }`, Safe},
	// two proc variables: G's cell set through H only when G = H
	{"two variables, equal", `var H : proc
var G : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe () { B[G] = True }
transition setH () { A[H] := True }
transition t () requires { A[G] = True } { B[G] := True }`, Unsafe},
	{"two variables, kept apart", `var H : proc
var G : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe () { B[G] = True }
transition setH () requires { H <> G } { A[H] := True }
transition t () requires { A[G] = True } { B[G] := True }`, Safe},
	// (H holding no process, init: H <> p for every p, is refused:
	// TestErrors)
	{"H among the processes", `var H : proc
var X : bool
array A[proc] : bool
init (p) { A[p] = False && X = False }
unsafe () { X = True }
transition t () requires { A[H] = False } { X := True }`, Unsafe},
	// a quantified variable named as a proc variable is no index by it
	// (variants had been made, and with k outside the processes none
	// applied: t was never enabled, a wrong SAFE)
	{"quantifier shadowing a proc variable", `var k : proc
var X : bool
array A[proc] : bool
init (p) { k <> p && A[p] = False && X = False }
unsafe () { X = True }
transition t (i) requires { forall_other k. A[k] = False } { X := True }`, Unsafe},
	// a predicate that indexes by H
	{"predicate indexing by H", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
predicate homeSet () { A[H] = True }
unsafe (i) { B[i] = True }
transition setH () { A[H] := True }
transition t (i) requires { homeSet() && H <> i } { B[i] := True }`, Unsafe},
}

// TestProcIndex checks each system's verdict, and that the cross-check
// of finite instances agrees with it.
func TestProcIndex(t *testing.T) {
	for _, tc := range procIndexCases {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "c.cub", tc.src, tc.want, Options{})
			sys, err := Load("c.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Timeout: 20 * time.Second}
			if cc := SelfCheck(context.Background(), sys, res, opts, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
				t.Errorf("%s: %s", res.Verdict, cc)
			}
		})
	}
}

// TestProcIndexByHand: a system that indexes by H and the one written
// with H's process as a parameter, the variants by hand, give the same
// verdict after the same number of nodes.
func TestProcIndexByHand(t *testing.T) {
	tests := []struct{ name, src, byHand string }{
		{"read and write", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True }
transition set (i) { A[i] := True }
transition t (i) requires { A[H] = True && A[i] = False } { B[H] := True }`, `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True }
transition set (i) { A[i] := True }
transition t (i h) requires { H = h && A[h] = True && A[i] = False } { B[h] := True }
transition t_i (i) requires { H = i && A[i] = True && A[i] = False } { B[i] := True }`},
		{"forall_other", `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i) { B[i] = True && A[H] = True }
transition setH () { A[H] := True }
transition t (i) requires { B[H] = False && forall_other k. A[k] = False } { B[i] := True }`, `var H : proc
array A[proc] : bool
array B[proc] : bool
init (p) { A[p] = False && B[p] = False }
unsafe (i h) { H = h && B[i] = True && A[h] = True }
unsafe (i) { H = i && B[i] = True && A[i] = True }
transition setH (h) requires { H = h } { A[h] := True }
transition t (i h) requires { H = h && B[h] = False && A[h] = False && forall_other k. A[k] = False } { B[i] := True }
transition t_i (i) requires { H = i && B[i] = False && forall_other k. A[k] = False } { B[i] := True }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got [2]*Result
			for i, src := range []string{tc.src, tc.byHand} {
				sys, err := Load("c.cub", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Verify(t.Context(), sys, Options{Timeout: 30 * time.Second, NoApprox: true})
				if err != nil {
					t.Fatal(err)
				}
				got[i] = res
			}
			if got[0].Verdict != got[1].Verdict || got[0].Visited != got[1].Visited {
				t.Errorf("%s after %d nodes; by hand %s after %d", got[0].Verdict, got[0].Visited, got[1].Verdict, got[1].Visited)
			}
		})
	}
}

// TestProcIndexVariants: the variants of a transition and their names.
func TestProcIndexVariants(t *testing.T) {
	sys, err := Load("c.cub", []byte(`var H : proc
var G : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i) { A[i] = True }
transition t (i) requires { A[H] = True && A[G] = False } { A[i] := True }`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range sys.Trans {
		names = append(names, tr.Name+"/"+strconv.Itoa(len(tr.Params)))
	}
	// H new, G new / G = H / G = i; H = i, G new / G = i
	want := []string{"t/3", "t[G=H]/2", "t[G=i]/2", "t[H=i]/2", "t[H=i,G=i]/1"}
	if len(names) != len(want) {
		t.Fatalf("got %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("got %v, want %v", names, want)
		}
	}
}

// TestProcIndexDeadVariant: the variant t[H=i] of a transition that
// requires H <> i is never enabled, and is left out.
func TestProcIndexDeadVariant(t *testing.T) {
	sys, err := Load("c.cub", []byte(`var H : proc
array A[proc] : bool
init (p) { A[p] = False }
unsafe (i) { A[i] = True }
transition t (i) requires { H <> i && A[H] = False } { A[i] := True }
transition u (i) requires { H <> i || A[H] = True } { A[i] := True }`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range sys.Trans {
		names = append(names, tr.Name)
	}
	// u[H=i] stays: its second disjunct may hold
	if want := []string{"t", "u", "u[H=i]"}; !slices.Equal(names, want) {
		t.Fatalf("got %v, want %v", names, want)
	}
}
