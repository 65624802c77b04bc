package param

import (
	"strings"
	"testing"
)

// Small systems in the style of Cubicle-W's examples, with the verdicts
// argued by hand; together they read weak arrays, fences, forall_other
// over weak cells, guards over several process parameters, case
// expressions (over weak reads too) and number_procs.

// flagsMutex: a process raises its weak flag, then enters when every
// other flag reads False. Without a fence both flags can still sit in
// the store buffers when both processes read (store buffering): two
// processes in Crit. With fence() before the reads, a process reads the
// others' flags only after its own is in memory; of two processes
// entering, the second to read sees the first one's flag: safe.
const flagsMutex = `type loc = Idle | Want | Crit
weak array X[proc] : bool
array PC[proc] : loc
init (i) { X[i] = False && PC[i] = Idle }
unsafe (i j) { PC[i] = Crit && PC[j] = Crit }
transition req ([i]) requires { PC[i] = Idle } { X[i] := True; PC[i] := Want }
transition enter ([i]) requires { PC[i] = Want %s&& forall_other j. X[j] = False } { PC[i] := Crit }
transition exit ([i]) requires { PC[i] = Crit } { X[i] := False; PC[i] := Idle }
`

// mpCase: message passing where the reader decodes the data with a case
// over a weak read. Flag is only set by a process that wrote Data first;
// TSO keeps the two writes in order, so a reader that saw Flag sees
// Data = 1 and the default branch (R = 2) is unreachable. PSO lets Flag
// reach memory before Data.
const mpCase = `type loc = L1 | L2 | L3
weak var Data : int
weak var Flag : bool
array PC[proc] : loc
array R[proc] : int
init (p) { Data = 0 && Flag = False && PC[p] = L1 && R[p] = 0 }
unsafe (q) { PC[q] = L3 && R[q] = 2 }
transition w1 ([p]) requires { PC[p] = L1 } { Data := 1; PC[p] := L2 }
transition w2 ([p]) requires { PC[p] = L2 } { Flag := True; PC[p] := L3 }
transition r1 ([q]) requires { PC[q] = L1 && Flag = True } { PC[q] := L2 }
transition r2 ([q]) requires { PC[q] = L2 } { R[q] := case | Data = 1 : 1 | _ : 2; PC[q] := L3 }
`

// meeting: a process is Done once it reads the flags of two other
// processes set. With number_procs 2 there are no two others: safe; with
// 3 the flags reach memory and the third process meets them. The reset
// sends the acting process back to Idle with a case over every process
// (a universal update of a non-weak array) that keeps the Done ones.
const meeting = `number_procs %d
type loc = Idle | Go | Done
weak array F[proc] : bool
array PC[proc] : loc
init (i) { F[i] = False && PC[i] = Idle }
unsafe (i) { PC[i] = Done }
transition go ([i]) requires { PC[i] = Idle } { F[i] := True; PC[i] := Go }
transition meet ([i] j k) requires { PC[i] = Go && F[j] = True && F[k] = True } { PC[i] := Done }
transition reset ([i]) requires { PC[i] = Go } { PC[k] := case | k = i : Idle | PC[k] = Done : Done | _ : PC[k] }
`

// ownWrite: a process always reads its own last write (TSO store
// forwarding), even while the write sits in its buffer: the register
// cannot get the old value. Another process may still read it (second
// formula).
const ownWrite = `type loc = A | B | C
weak array V[proc] : int
array PC[proc] : loc
array R[proc] : int
init (i) { V[i] = 0 && PC[i] = A && R[i] = 5 }
unsafe (i) { PC[i] = C && R[i] = 0 }
transition w ([i]) requires { PC[i] = A } { V[i] := 1; PC[i] := B }
transition r ([i]) requires { PC[i] = B } { R[i] := V[i]; PC[i] := C }
`

func TestCubicleWStyle(t *testing.T) {
	tests := []struct {
		name, src string
		model     string
		want      Verdict
	}{
		{"flags, no fence", sprintf(flagsMutex, ""), "", Unsafe},
		{"flags, fence", sprintf(flagsMutex, "&& fence() "), "", Safe},
		{"message passing with case, TSO", mpCase, "", Safe},
		{"message passing with case, PSO", mpCase, "pso", Unsafe},
		{"meeting, 2 processes", sprintf(meeting, 2), "", Safe},
		{"meeting, 3 processes", sprintf(meeting, 3), "", Unsafe},
		{"own write, same process", ownWrite, "", Safe},
		{"own write, another process", strings.Replace(ownWrite, "transition r ([i]) requires { PC[i] = B } { R[i] := V[i];",
			"transition r ([i] j) requires { PC[i] = B && PC[j] = B } { R[i] := V[j];", 1), "", Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "w.cub", tc.src, tc.want, Options{Model: tc.model})
			f, err := Parse("w.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			sys, err := Check(f)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Safe && len(res.Invariants(sys)) == 0 {
				t.Error("SAFE without an invariant")
			}
			checkForward(t, f, res, tc.model == "pso")
		})
	}
}

// TestCubicleWRefused: constructs that the checker refuses are named,
// with the reason and the position.
func TestCubicleWRefused(t *testing.T) {
	const head = "weak var X : bool\narray A[proc] : bool\ninit (i) { X = False }\n"
	tests := []struct{ name, src, want string }{
		{"nested quantifiers", head + "unsafe (i) { A[i] = True }\ntransition t ([i]) requires { forall_other j. exists_other k. A[k] = True } { A[i] := True }\n",
			"w.cub:5:47: nested forall_other/exists_other is not supported"},
		{"quantifier in unsafe", head + "unsafe (i) { A[i] = True && forall_other j. A[j] = False }\n",
			"w.cub:4:29: forall_other and exists_other can only be used in transitions, not in unsafe"},
		{"weak read in unsafe without a process", head + "unsafe (i) { A[i] = True && X = True }\n",
			"w.cub:4:29: weak X must be read by a process in unsafe: write p@X"},
		{"weak read without an actor", head + "unsafe (i) { A[i] = True }\ntransition t (i) requires { X = True } { A[i] := True }\n",
			"w.cub:5:29: transition t reads weak X: mark the process that performs it with [.]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("w.cub", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCubicleWSpellings: the grammars of Cubicle-W's repository spell a
// fence and a read by a process in several ways (fence() in the tso
// branch; fence(p) in the guard, or after the parameters, and p: X in
// earlier versions; p@X in a transition for its own process). Each
// spelling of one system must give the verdict of the plain one.
func TestCubicleWSpellings(t *testing.T) {
	tests := []struct {
		name, src string
		want      Verdict
	}{
		{"fence()", sprintf(flagsMutex, "&& fence() "), Safe},
		{"fence(i) in the guard", sprintf(flagsMutex, "&& fence(i) "), Safe},
		{"fence (i) first in the guard", strings.Replace(sprintf(flagsMutex, ""),
			"requires { PC[i] = Want", "requires { fence (i) && PC[i] = Want", 1), Safe},
		{"fence (i) after the parameters", strings.Replace(sprintf(flagsMutex, ""),
			"transition enter ([i]) requires", "transition enter ([i]) fence (i) requires", 1), Safe},
		{"fence (i) after the parameters, no guard", `weak var X : bool
array PC[proc] : bool
init (i) { X = False && PC[i] = False }
unsafe (i) { PC[i] = True }
transition t ([i]) fence (i) { PC[i] := True }`, Unsafe},
		{"i: X in unsafe", strings.Replace(mpCase, "unsafe (q) { PC[q] = L3 && R[q] = 2 }",
			"unsafe (q) { PC[q] = L3 && R[q] = 2 && q: Flag = True }", 1), Safe},
		{"i: X in unsafe, reachable", `weak array A[proc] : bool
init (i) { A[i] = False }
unsafe (i j) { i: A[i] = True && j: A[j] = True }
transition t ([i]) requires { A[i] = False } { A[j] := case | j = i : True | _ : A[j] }`, Unsafe},
		{"i@X in a transition, i its process", strings.Replace(mpCase,
			"transition r1 ([q]) requires { PC[q] = L1 && Flag = True }",
			"transition r1 ([q]) requires { PC[q] = L1 && q @ Flag = True }", 1), Safe},
		{"i@X of a non-weak X", strings.Replace(sprintf(flagsMutex, "&& fence() "),
			"unsafe (i j) { PC[i] = Crit && PC[j] = Crit }", "unsafe (i j) { i @ PC[i] = Crit && j @ PC[j] = Crit }", 1), Safe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "w.cub", tc.src, tc.want, Options{})
			f, err := Parse("w.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			checkForward(t, f, res, false)
		})
	}
}

// flagsEarly is flagsMutex in the syntax of an early Cubicle-W version
// (early.go): the process of each access is named, read(i, X[j]) and
// write(i, X[i], e), and a fence is "fences (i)" after the parameters.
const flagsEarly = `type loc = Idle | Want | Crit
weak array X[proc] : bool
array PC[proc] : loc
init (i) { X[i] = False && PC[i] = Idle }
unsafe (i j) { PC[i] = Crit && PC[j] = Crit }
transition req (i) requires { PC[i] = Idle } { write(i, X[i], True); PC[i] := Want }
transition enter (i) %srequires { PC[i] = Want && forall_other j. read(i, X[j]) = False } { PC[i] := Crit }
transition exit (i) requires { PC[i] = Crit } { write(i, X[i], False); PC[i] := Idle }
`

// sbEarly is store buffering in the early syntax, its transitions
// performed by process constants (write(#1, X, 1) in t ()).
const sbEarly = `number_procs 2
type pc = L1 | L2 | End
array PC[proc] : pc
weak var X : int
weak var Y : int
var R1 : int
var R2 : int
init () { PC[#1] = L1 && PC[#2] = L1 && X = 0 && Y = 0 }
unsafe () { PC[#1] = End && PC[#2] = End && R1 = 0 && R2 = 0 }
transition t1_1 () requires { PC[#1] = L1 } { PC[#1] := L2; write(#1, X, 1) }
transition t1_2 () %srequires { PC[#1] = L2 } { PC[#1] := End; R1 := read(#1, Y) }
transition t2_1 () requires { PC[#2] = L1 } { PC[#2] := L2; write(#2, Y, 1) }
transition t2_2 () %srequires { PC[#2] = L2 } { PC[#2] := End; R2 := read(#2, X) }
`

// TestCubicleWEarly: the early Cubicle-W syntax gives the verdicts of
// the same systems in the current syntax (TestCubicleWStyle), each
// cross-checked on finite instances.
func TestCubicleWEarly(t *testing.T) {
	tests := []struct {
		name, src string
		want      Verdict
	}{
		{"flags, no fence", sprintf(flagsEarly, ""), Unsafe},
		{"flags, fences (i)", sprintf(flagsEarly, "fences (i) "), Safe},
		{"sb by constants, no fence", sprintf(sbEarly, "", ""), Unsafe},
		{"sb by constants, fences", sprintf(sbEarly, "fences (#1) ", "fences (#2) "), Safe},
		{"sb by constants, one fence", sprintf(sbEarly, "fences (#1) ", ""), Unsafe},
		{"read(p, X) in unsafe", `weak var X : int
array PC[proc] : bool
init (i) { X = 0 && PC[i] = False }
unsafe (p q) { PC[p] = True && read(q, X) = 0 }
transition t (i) requires { PC[i] = False } { PC[i] := True; write(i, X, 1) }`, Unsafe},
		{"write(p, A[k], case)", `weak array A[proc] : bool
init (i) { A[i] = False }
unsafe (p q) { read(p, A[q]) = True }
transition t (i) { write(i, A[k], case | k = i : False | _ : read(i, A[k])) }`, Safe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "e.cub", tc.src, tc.want, Options{})
			sys, err := Load("e.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if cc := SelfCheck(t.Context(), sys, res, Options{}, 20000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
				t.Errorf("cross-check:\n%s", cc)
			}
		})
	}
}

// TestEarlyPlainTransition: in the early syntax, a transition with one
// parameter and no access to weak memory is performed by that
// parameter, as "transition t ([i])" says in the current syntax; read
// as performed by no process, its write to A[i] made A shared memory
// (SharedSC) and the search differ from the current syntax's
// (TestEarlySyntaxRandom: SAFE in 5 nodes against no verdict in 60).
func TestEarlyPlainTransition(t *testing.T) {
	const early = `weak var X : bool
array A[proc] : bool
init (i) { X = False && A[i] = False }
unsafe (p) { A[p] = True && read(p, X) = True }
transition t1 (i) { write(i, X, True) }
transition t2 (i) requires { A[i] = False } { A[i] := True }`
	const current = `weak var X : bool
array A[proc] : bool
init (i) { X = False && A[i] = False }
unsafe (p) { A[p] = True && p@X = True }
transition t1 ([i]) { X := True }
transition t2 ([i]) requires { A[i] = False } { A[i] := True }`
	var nodes [2]int
	for k, src := range []string{current, early} {
		sys, err := Load("e.cub", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if sys.SharedSC {
			t.Errorf("syntax %d: A is taken for shared memory", k)
		}
		nodes[k] = verify(t, "e.cub", src, Unsafe, Options{}).Visited
	}
	if nodes[0] != nodes[1] {
		t.Errorf("%d nodes in the current syntax, %d in the early one", nodes[0], nodes[1])
	}
}
