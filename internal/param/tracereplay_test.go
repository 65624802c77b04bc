package param

import (
	"testing"
	"time"
)

// noDefault625 is system 625 that TestBacktrackRandom draws with seed 41
// (PCG(41, 3)): t4 updates Arr0 and Var2 with cases without a default
// branch, which leave the other cells of Arr0, and Var2 when Arr0[i] is
// not A, free (Cubicle's pre-image drops the literal: doc.go).
const noDefault625 = `type val = A | B | C
array Arr0[proc] : val
array Arr1[proc] : val
var Var2 : val
init (p) { Arr0[p] = A && Arr1[p] = A && Var2 = A }
unsafe (p q) { Var2 = B }
transition t0 (i)
requires { Arr0[i] = C && i <> #2 }
{ Var2 := case | Arr0[i] = C : C | _ : C }
transition t1 (i)
requires { forall_other m. Var2 = B }
{ Var2 := case | Arr0[i] = B : A; Arr1[k] := case | k = i : B | Arr1[k] = A : A | _ : Arr1[k] }
transition t2 (i)
requires { Arr0[i] = B && Arr1[i] = C && forall_other m. Arr0[m] = C }
{ Var2 := A; Arr1[k] := case | k = i : C | _ : A }
transition t3 (i)
requires { Arr1[i] = B && Arr0[i] = A && i <> #1 }
{ Arr0[i] := B }
transition t4 (i)
requires { Arr0[#2] = A }
{ Arr0[k] := case | k = i : C; Var2 := case | Arr0[i] = A : A }
`

// TestReplayNoDefault replays traces through updates without a default
// branch on instances larger than the choices the explorer enumerates at
// a step (maxSuccessors): t4(#6) -> t4(#5) needs the cell Arr0[#5] that
// t4(#6) leaves free to leave A, and on 8 processes that cell took its
// first value at every step before the replay enumerated the cells of
// the trace's processes first (wfinite.focus). A trace whose step is
// not enabled must still fail.
func TestReplayNoDefault(t *testing.T) {
	sys, err := Load("gen.cub", []byte(noDefault625))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		trace  []Step
		replay bool
	}{
		{"same process", []Step{{"t4", []int32{1}}, {"t4", []int32{1}}}, true},
		{"two processes", []Step{{"t4", []int32{3}}, {"t4", []int32{4}}}, true},
		{"processes 6 then 5", []Step{{"t4", []int32{6}}, {"t4", []int32{5}}}, true},
		{"processes 8 then 7", []Step{{"t4", []int32{8}}, {"t4", []int32{7}}}, true},
		{"one step", []Step{{"t4", []int32{5}}}, false},
		{"#2 written first", []Step{{"t4", []int32{2}}, {"t4", []int32{5}}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := &Result{Verdict: Unsafe, Trace: tc.trace, Root: 1}
			cc := SelfCheck(t.Context(), sys, res, Options{}, 2000)
			if cc.Replayed != tc.replay {
				t.Errorf("replayed: %v, want %v\n%s", cc.Replayed, tc.replay, cc)
			}
		})
	}
	for _, opts := range []Options{
		{MaxNodes: 300, Timeout: 5 * time.Second, sampleCap: 3 + 625%8},
		{NoApprox: true, MaxNodes: 300, Timeout: 5 * time.Second},
		{MaxNodes: 300, Timeout: 5 * time.Second},
	} {
		res := verify(t, "gen.cub", noDefault625, Unsafe, opts)
		if cc := SelfCheck(t.Context(), sys, res, opts, 2000); !cc.OK() || !cc.Replayed {
			t.Errorf("%+v: the trace %s does not replay\n%s", opts, res.TraceString(), cc)
		}
	}
}

// TestReplayInitCombos replays a trace that needs four cells that init
// leaves free (81 combinations) on a system with numbers, whose
// explorer combined 64 (system 1699 of TestSelfCheckRandomWide, seed 41;
// the last cell kept its first value and t0(#2) did not replay).
func TestReplayInitCombos(t *testing.T) {
	src := `number_procs 2
array A0[proc] : proc
array A1[proc] : int
array A2[proc] : proc
init (p q) { A1[p] = 0 }
unsafe (p q) { A1[q] = 1 && A2[q] = q && A2[p] = A0[p] }
transition t0 (i)
requires { A2[i] <> A0[i] }
{ A1[k] := case | k < i : A1[i] | _ : A1[k] + 1 }
`
	sys, err := Load("combos.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{Verdict: Unsafe, Trace: []Step{{"t0", []int32{2}}}, Root: 1}
	if cc := SelfCheck(t.Context(), sys, res, Options{}, 2000); !cc.Replayed {
		t.Errorf("t0(#2) does not replay\n%s", cc)
	}
}

// TestReplayRenamed replays a trace whose process numbers do not follow
// the order its cube needs (a genWide system, seed 41, system 1963:
// t2(#1) writes B below its process, and the unsafe formula needs one).
func TestReplayRenamed(t *testing.T) {
	src := `type val = A | B | C
array A0[proc] : val
array A2[proc] : val
init (p q) { A0[p] = A && A2[p] = A }
unsafe (p q) { A2[q] <> B && A0[q] <> A }
transition t2 (i)
{ A0[k] := case | k < i : B | _ : A0[i] }
`
	sys, err := Load("order.cub", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{Verdict: Unsafe, Trace: []Step{{"t2", []int32{1}}}, Root: 1}
	if cc := SelfCheck(t.Context(), sys, res, Options{}, 2000); !cc.Replayed {
		t.Errorf("t2(#1) does not replay under any renaming\n%s", cc)
	}
	res = &Result{Verdict: Unsafe, Trace: []Step{{"t2", []int32{1}}, {"t2", []int32{1}}}, Root: 1}
	if cc := SelfCheck(t.Context(), sys, res, Options{}, 2000); !cc.Replayed {
		t.Errorf("t2(#1) -> t2(#1) does not replay under any renaming\n%s", cc)
	}
}
