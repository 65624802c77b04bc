package param

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestDecideInstances: the forward decision of a system with
// number_procs (instdecide.go) answers when its exploration is complete
// and exact, and only an UNSAFE otherwise.
func TestDecideInstances(t *testing.T) {
	const sb = `number_procs 2
type loc = L0 | L1 | L2
array PC[proc] : loc
weak var X : int
weak var Y : int
init (p) { PC[p] = L0 && X = 0 && Y = 0 }
unsafe () { PC[#1] = L2 && PC[#2] = L2 }
transition w1 ([i]) requires { i = #1 && PC[i] = L0 } { PC[i] := L1; X := 1 }
transition r1 ([i]) requires { i = #1 && PC[i] = L1 && FENCE Y = 0 } { PC[i] := L2 }
transition w2 ([i]) requires { i = #2 && PC[i] = L0 } { PC[i] := L1; Y := 1 }
transition r2 ([i]) requires { i = #2 && PC[i] = L1 && FENCE X = 0 } { PC[i] := L2 }
`
	tests := []struct {
		name, src string
		want      Verdict // Timeout: no decision
	}{
		{"store buffering with fences", strings.ReplaceAll(sb, "FENCE", "fence() &&"), Safe},
		{"store buffering", strings.ReplaceAll(sb, "FENCE", ""), Unsafe},
		{"a number free at init", `number_procs 1
var Z : int
var D : bool
init (p) { D = False }
unsafe () { D = True }
transition t (i) requires { Z = 7 } { D := True }
`, Timeout},
		{"a free cell of a finite sort", `number_procs 2
type st = A | B | C
array S[proc] : st
var D : bool
init (p) { D = False }
unsafe () { D = True }
transition t (i j) requires { S[i] = C && S[j] = B } { D := True }
`, Unsafe},
		{"buffers past their bound", `number_procs 1
weak var X : int
init (p) { X = 0 }
unsafe (p) { p@X = 2 }
transition w ([i]) { X := 1 }
`, Timeout},
		{"a forall_other guard: no SAFE", `number_procs 2
array A[proc] : bool
init (p) { A[p] = False }
unsafe (p q) { A[p] = True && A[q] = True }
transition t (i) requires { forall_other j. A[j] = False } { A[i] := True }
`, Timeout},
		{"a forall_other guard: an UNSAFE", `number_procs 2
array A[proc] : bool
init (p) { A[p] = False }
unsafe (p q) { A[p] = True && A[q] = True }
transition t (i) requires { forall_other j. A[j] = True } { A[i] := True }
transition s (i) { A[i] := True }
`, Unsafe},
		{"a nondeterministic number", `number_procs 1
var X : int
init (p) { X = 0 }
unsafe () { X = 7 }
transition t (i) { X := . }
`, Unsafe},
		{"a nondeterministic number: no SAFE", `number_procs 1
var X : int
var Z : int
init (p) { X = 0 && Z = 0 }
unsafe () { Z = 1 }
transition t (i) { X := . }
`, Timeout},
		{"init over more processes than number_procs", `number_procs 1
array A[proc] : bool
init (p q) { A[p] = False }
unsafe (p) { A[p] = True }
transition t (i) { A[i] := True }
`, Timeout},
		{"init fixes every cell", `number_procs 3
type st = I | T | C
array S[proc] : st
var Turn : proc
init (p) { S[p] = I && Turn = #1 }
unsafe (p q) { S[p] = C && S[q] = C }
transition try (i) requires { S[i] = I } { S[i] := T }
transition enter (i) requires { S[i] = T && Turn = i } { S[i] := C }
transition leave (i j) requires { S[i] = C } { S[i] := I; Turn := j }
`, Safe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("x.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, why := decideInstances(context.Background(), sys, "")
			switch {
			case res == nil && tc.want != Timeout:
				t.Fatalf("no decision (%s), want %s", why, tc.want)
			case res != nil && res.Verdict != tc.want:
				t.Fatalf("%s (%s), want %s", res.Verdict, res.Note, tc.want)
			}
			if res == nil {
				return
			}
			// the backward search agrees
			back, err := Verify(context.Background(), sys, Options{Timeout: 20 * time.Second, NoInstances: true})
			if err != nil {
				t.Fatal(err)
			}
			if back.Verdict != res.Verdict {
				t.Errorf("forward %s, backward %s", res.Verdict, back.Verdict)
			}
		})
	}
}

// TestDecideInstancesRandom compares the forward decision with the
// backward search on random systems given number_procs 1 to 3
// (genSystemWith): wherever both answer, they agree. 12 by default,
// 2000 under MUSKET_LONG (MUSKET_SELFCHECK_N, MUSKET_SELFCHECK_SEED).
func TestDecideInstancesRandom(t *testing.T) {
	n := selfCheckCount(12, 2000)
	seed := selfCheckSeed(47)
	rng := rand.New(rand.NewPCG(seed, 17))
	decided, both := 0, 0
	for i := range n {
		src := genSystemWith(rng, 0.5, rng.IntN(2) == 0)
		if strings.HasPrefix(src, "number_procs") {
			src = src[strings.IndexByte(src, '\n')+1:]
		}
		src = "number_procs " + string(rune('1'+rng.IntN(3))) + "\n" + src
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			continue // #2 with number_procs 1
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		fwd, _ := decideInstances(ctx, sys, "")
		cancel()
		if fwd == nil {
			continue
		}
		decided++
		back, err := Verify(context.Background(), sys, Options{MaxNodes: 300, Timeout: 2 * time.Second, NoInstances: true})
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if back.Verdict != Safe && back.Verdict != Unsafe {
			continue
		}
		both++
		if back.Verdict != fwd.Verdict {
			t.Errorf("system %d: forward %s (%s), backward %s\n%s", i, fwd.Verdict, fwd.Note, back.Verdict, src)
		}
	}
	t.Logf("%d systems: %d decided forward, %d by both", n, decided, both)
}
