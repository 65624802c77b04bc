package param

import "testing"

// TestCubicleConstructs covers inputs that Cubicle and Cubicle-W accept:
// each construct in a system whose verdict depends on it being read right.
func TestCubicleConstructs(t *testing.T) {
	checkVerdicts(t, []verdictCase{
		// Cubicle's literals true and false (its lexer's keywords)
		// a product of a variable by a constant (Cubicle's arith examples,
		// safe1.cub: A := A * 2 + B * 4): the coefficients of the
		// pre-images double at each step; past 2^40 the search dropped
		// the literal and a weakened cube met init: a wrong UNSAFE
		{"coefficients past 2^40: no path", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { X + Y < 0 }
transition grow () { X := X * 3 + Y * 4 }`, NumberLimit},
		{"coefficients that stay small", `var X : int
var Y : int
init () { X = 1 && Y = 0 }
unsafe () { X + Y > 20 }
transition grow () { X := X * 3 + Y * 2 }`, Unsafe},
		// a real written "0." (Cubicle's lexer: digits '.' digits*;
		// arith/17.cub): refused before ("expected '}', found '.'")
		{"real with a trailing dot", `var A : real
init () { A = 0. }
unsafe () { A > 1. }
transition t () requires { A < 1. } { A := A + 0.75 }`, Unsafe},
		{"real with a trailing dot, guard never holds", `var A : real
init () { A = 0. }
unsafe () { A > 1. }
transition t () requires { A < 0. } { A := A + 0.75 }`, Safe},
		// the transitions of an early Cubicle grammar (oldsyntax.go;
		// Cubicle's examples/germanish3.cub): require, uguard, assign
		// and updates {| … |} after the transition
		{"early grammar", `type s = I | S | E
var Busy : bool
array C[proc] : s
init (z) { C[z] = I && Busy = False }
unsafe (z1 z2) { C[z1] = E && C[z2] <> I }
transition get (n)
require { C[n] = I && Busy = False }
uguard (l) { C[l] = I }
assign { Busy := True }
C[j] := {| j = n : E | _ : C[j] }
transition put (n)
require { C[n] = E }
assign { Busy := False }
C[j] := {| j = n : I | _ : C[j] }`, Safe},
		{"early grammar, no uguard", `type s = I | S | E
var Busy : bool
array C[proc] : s
init (z) { C[z] = I && Busy = False }
unsafe (z1 z2) { C[z1] = E && C[z2] <> I }
transition get (n)
require { C[n] = I }
C[j] := {| j = n : E | _ : C[j] }
transition put (n)
require { C[n] = E }
assign { Busy := False }
C[j] := {| j = n : I | _ : C[j] }`, Unsafe},
		{"true guard", `var X : bool
init () { X = False }
unsafe () { X = True }
transition t () requires { true } { X := True }`, Unsafe},
		{"false guard", `var X : bool
init () { X = False }
unsafe () { X = True }
transition t () requires { false } { X := True }`, Safe},
		{"not false, false or", `var X : bool
var Y : bool
init () { X = False && Y = False }
unsafe () { X = True }
transition t () requires { not false && (false || Y = False) } { X := True }`, Unsafe},
		{"false unsafe", `var X : bool
init () { X = False }
unsafe () { false }
transition t () { X := True }`, Safe},
		// X := . in a cube "X <> V && X = C": the value of X is C, so V <> C
		// before the transition (Cubicle keeps the literals on a fresh
		// constant); dropping both literals made this UNSAFE
		{"nondet with an equality", `type val = A | B | C
var V : val
var X : val
init () { V = C && X = B }
unsafe () { X <> V && X = C }
transition t () { X := . }`, Safe},
		{"nondet with an equality, reachable", `type val = A | B | C
var V : val
var X : val
init () { V = A && X = B }
unsafe () { X <> V && X = C }
transition t () { X := . }`, Unsafe},
		// X := . related to other unknowns by disequalities only: one
		// pre-image for each value of X (X is A or B, V = A and W = B)
		{"nondet with disequalities", `type v = A | B
var V : v
var W : v
var X : v
init () { V = A && W = B && X = A }
unsafe () { X <> V && X <> W }
transition t () { X := . }`, Safe},
		{"nondet with disequalities, reachable", `type v = A | B | C
var V : v
var W : v
var X : v
init () { V = A && W = B && X = A }
unsafe () { X <> V && X <> W }
transition t () { X := . }`, Unsafe},
		{"case without default with an equality", `type val = A | B | C
array V[proc] : val
array X[proc] : val
init (p) { V[p] = C && X[p] = B }
unsafe (p) { X[p] <> V[p] && X[p] = C }
transition t (i) { X[k] := case | k = i : B }`, Safe},
		// a case condition false is no default branch
		{"case false, true", `var Y : bool
init () { Y = False }
unsafe () { Y = True }
transition t () { Y := case | false : True | true : False | _ : True }`, Safe},
		// case without a default branch: when no condition holds the
		// cell takes any value (Cubicle's pre-image drops the literal)
		{"case without default, other cells free", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t (i) { A[j] := case | j = i : False }`, Unsafe},
		{"case without default, complete conditions", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t (i) { A[j] := case | j = i : False | j <> i : A[j] }`, Safe},

		// a process constant as an array index, read and written
		// (Cubicle's proc_name; an update A[#1] := e is Cubicle's
		// A[j] := case | j = #1 : e | _ : A[j])
		{"#k indices, two increments", `number_procs 2
type pc = A | B
array PC[proc] : pc
var X : int
init () { PC[#1] = A && PC[#2] = A && X = 0 }
unsafe () { PC[#1] = B && PC[#2] = B && X = 1 }
transition t1 () requires { PC[#1] = A } { PC[#1] := B; X := X + 1 }
transition t2 () requires { PC[#2] = A } { PC[#2] := B; X := X + 1 }`, Safe},
		{"#k indices, two increments reach 2", `number_procs 2
type pc = A | B
array PC[proc] : pc
var X : int
init () { PC[#1] = A && PC[#2] = A && X = 0 }
unsafe () { PC[#1] = B && PC[#2] = B && X = 2 }
transition t1 () requires { PC[#1] = A } { PC[#1] := B; X := X + 1 }
transition t2 () requires { PC[#2] = A } { PC[#2] := B; X := X + 1 }`, Unsafe},
		{"#k update leaves the other cells", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True && i <> #1 }
transition t () { A[#1] := True }`, Safe},
		{"#k update writes its cell", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t () { A[#1] := True }`, Unsafe},
		{"#k and a parameter in one update", `array M[proc, proc] : bool
init (i j) { M[i,j] = False }
unsafe (i j) { M[i,j] = True && i <> #2 }
transition t (i) { M[#2, i] := True }`, Safe},
		{"#k and a parameter in one update, reached", `array M[proc, proc] : bool
init (i j) { M[i,j] = False }
unsafe (i j) { M[i,j] = True && j <> #2 }
transition t (i) { M[#2, i] := True }`, Unsafe},
		{"#k cell of a weak array, others unwritten", `weak array F[proc] : bool
array PC[proc] : bool
init (i) { F[i] = False && PC[i] = False }
unsafe (i j) { i <> #1 && j@F[i] = True }
transition t ([i]) requires { i = #1 && PC[i] = False } { F[#1] := True; PC[i] := True }`, Safe},
		{"#k cell of a weak array, written", `weak array F[proc] : bool
array PC[proc] : bool
init (i) { F[i] = False && PC[i] = False }
unsafe (j) { j <> #1 && j@F[#1] = True }
transition t ([i]) requires { i = #1 && PC[i] = False } { F[#1] := True; PC[i] := True }`, Unsafe},

		// a real variable with integer and real constants (an int
		// variable with a real constant is refused: TestErrors)
		{"real with integer constants, value missed", `var X : real
init () { X = 0 }
unsafe () { X = 2 }
transition t () requires { X = 0 } { X := X + 0.5 }
transition u () requires { X = 0.5 } { X := 1 }`, Safe},
		{"real with integer constants, value reached", `var X : real
init () { X = 0 }
unsafe () { X > 0.75 && X < 2 }
transition t () requires { X = 0 } { X := X + 0.5 }
transition u () requires { X = 0.5 } { X := 1 }`, Unsafe},
		{"int with an integral real constant", `var A : int
init () { A = 0 }
unsafe () { A > 1 }
transition up () requires { A < 2.0 } { A := A + 1 }`, Unsafe},

		// "X := ?" is Cubicle's "X := ." (any value)
		{"X := ?", `var X : int
var B : bool
init () { X = 0 && B = False }
unsafe () { X = 2 }
transition t () requires { B = False } { X := ?; B := True }`, Unsafe},
		{"case branch ?", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t (i) { A[j] := case | j = i : ? | _ : A[j] }`, Unsafe},
		// if c then a else b: (c && a) || (not c && b)
		{"if then else, else branch blocks", `var X : int
var B : bool
init () { X = 0 && B = False }
unsafe () { B = True }
transition t () requires { if X = 0 then B = True else B = False } { B := True }`, Safe},
		{"if then else, then branch opens", `var X : int
var B : bool
init () { X = 0 && B = False }
unsafe () { B = True }
transition t () requires { if X = 0 then B = False else B = True } { B := True }`, Unsafe},
		{"if then else binds tighter than &&", `var X : int
var B : bool
init () { X = 0 && B = False }
unsafe () { B = True }
transition t () requires { if X = 1 then B = False else B = False && X = 1 } { B := True }`, Safe},

		// let x = t in (Cubicle's master grammar): x is t's value in
		// the state before the transition
		{"let, old value", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { Y = 1 }
transition t () requires { X >= 0 && X < 3 } { let v = X in X := X + 1; Y := v + 2 }`, Safe},
		{"let, old value reached", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { Y = 3 }
transition t () requires { X < 3 } { let v = X in X := X + 1; Y := v + 2 }`, Unsafe},
		{"let of a process, as an index", `var P : proc
array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t (i) { let k = i in A[k] := True }`, Unsafe},

		// forall k. e and exists k. e in a guard range over every
		// process, the transition's parameters included
		{"forall includes the parameter", `array A[proc] : bool
array D[proc] : bool
init (i) { A[i] = False && D[i] = False }
unsafe (i) { D[i] = True }
transition t (i) requires { forall k. A[k] = True } { D[i] := True }`, Safe},
		{"forall_other leaves the parameter out", `array A[proc] : bool
array D[proc] : bool
init (i) { A[i] = False && D[i] = False }
unsafe (i) { D[i] = True }
transition t (i) requires { forall_other k. A[k] = True } { D[i] := True }`, Unsafe},
		{"forall, all set", `array A[proc] : bool
array D[proc] : bool
init (i) { A[i] = False && D[i] = False }
unsafe (i) { D[i] = True }
transition t (i) requires { forall k. A[k] = True } { D[i] := True }
transition u (i) { A[i] := True }`, Unsafe},
		{"exists finds the parameter", `array A[proc] : bool
array D[proc] : bool
init (i) { A[i] = False && D[i] = False }
unsafe (i) { D[i] = True }
transition t (i) requires { exists k. A[k] = True } { D[i] := True }
transition u (i) requires { D[i] = False } { A[i] := True }`, Unsafe},
		{"not exists", `array A[proc] : bool
array D[proc] : bool
init (i) { A[i] = False && D[i] = False }
unsafe (i j) { D[i] = True && A[j] = True }
transition t (i) requires { not (exists k. A[k] = True) } { D[i] := True }
transition u (i) requires { forall k. D[k] = False } { A[i] := True }`, Safe},

		// a predicate named read is the file's, not early Cubicle-W's
		{"predicate read", `array A[proc] : bool
predicate read (p, v) { A[p] = v }
init (i) { A[i] = False }
unsafe (i) { read(i, True) }
transition t (i) requires { read(i, False) } { A[i] := True }`, Unsafe},

		// init with two process parameters
		{"init (i j)", `array A[proc] : bool
array M[proc, proc] : bool
init (i j) { A[i] = False && M[i,j] = False }
unsafe (i) { A[i] = True }
transition t (i j) requires { M[i,j] = True } { A[i] := True }`, Safe},
		{"init (i j), matrix set", `array A[proc] : bool
array M[proc, proc] : bool
init (i j) { A[i] = False && M[i,j] = False }
unsafe (i) { A[i] = True }
transition t (i j) requires { M[i,j] = True } { A[i] := True }
transition u (i j) { M[i,j] := True }`, Unsafe},

		// two universal indices in one update
		{"two universal indices, all cleared", `array M[proc, proc] : bool
var Done : bool
init (i j) { M[i,j] = False && Done = False }
unsafe (i j) { M[i,j] = True && Done = True }
transition set (i j) requires { Done = False } { M[i,j] := True }
transition clear () { M[x,y] := case | _ : False; Done := True }`, Safe},
		{"two universal indices, diagonal cleared", `array M[proc, proc] : bool
var Done : bool
init (i j) { M[i,j] = False && Done = False }
unsafe (i j) { M[i,j] = True && Done = True }
transition set (i j) requires { Done = False } { M[i,j] := True }
transition clear () { M[x,y] := case | x = y : False | _ : M[x,y]; Done := True }`, Unsafe},

		// non-weak arrays of other processes: sequentially consistent
		{"SC flags beside weak memory", `type loc = Idle | CS
weak var X : int
array Flag[proc] : bool
array PC[proc] : loc
init (i) { Flag[i] = False && PC[i] = Idle && X = 0 }
unsafe (i j) { PC[i] = CS && PC[j] = CS }
transition enter ([i]) requires { PC[i] = Idle && forall_other j. Flag[j] = False } { Flag[i] := True; PC[i] := CS }
transition leave ([i]) requires { PC[i] = CS } { Flag[i] := False; PC[i] := Idle; X := X + 1 }`, Safe},
		{"SC flag written for another process", `type loc = Idle | CS
weak var X : int
array Flag[proc] : bool
array PC[proc] : loc
init (i) { Flag[i] = False && PC[i] = Idle && X = 0 }
unsafe (i j) { PC[i] = CS && PC[j] = CS }
transition enter ([i]) requires { PC[i] = Idle && Flag[i] = True } { PC[i] := CS; X := 1 }
transition grant ([i] j) requires { PC[i] = Idle } { Flag[j] := True }`, Unsafe},
		{"SC flag published before a buffered write", `weak var X : bool
array Ready[proc] : bool
array Seen[proc] : bool
array Got[proc] : bool
init (i) { X = False && Ready[i] = False && Seen[i] = False }
unsafe (j) { Seen[j] = True && Got[j] = False }
transition produce ([i]) requires { Ready[i] = False } { X := True; Ready[i] := True }
transition consume ([j] i) requires { Ready[i] = True && Seen[j] = False } { Seen[j] := True; Got[j] := X }`, Unsafe},

		{"SC flag published after a fence", `weak var X : bool
array Ready[proc] : bool
array Seen[proc] : bool
array Got[proc] : bool
array PC[proc] : int
init (i) { X = False && Ready[i] = False && Seen[i] = False && PC[i] = 0 }
unsafe (j) { Seen[j] = True && Got[j] = False }
transition produce ([i]) requires { PC[i] = 0 } { X := True; PC[i] := 1 }
transition publish ([i]) requires { PC[i] = 1 && fence() } { Ready[i] := True; PC[i] := 2 }
transition consume ([j] i) requires { Ready[i] = True && Seen[j] = False } { Seen[j] := True; Got[j] := X }`, Safe},
		{"SC flag published after a fence, in the same transition", `weak var X : bool
weak var Y : bool
array Ready[proc] : bool
array Seen[proc] : bool
array Got[proc] : bool
array PC[proc] : int
init (i) { X = False && Y = False && Ready[i] = False && Seen[i] = False && PC[i] = 0 }
unsafe (j) { Seen[j] = True && Got[j] = False }
transition produce ([i]) requires { PC[i] = 0 } { X := True; PC[i] := 1 }
transition publish ([i]) requires { PC[i] = 1 && fence() } { Ready[i] := True; Y := True; PC[i] := 2 }
transition consume ([j] i) requires { Ready[i] = True && Seen[j] = False } { Seen[j] := True; Got[j] := X }`, Safe},
		{"SC flag published before the fence", `weak var X : bool
array Ready[proc] : bool
array Seen[proc] : bool
array Got[proc] : bool
array PC[proc] : int
init (i) { X = False && Ready[i] = False && Seen[i] = False && PC[i] = 0 }
unsafe (j) { Seen[j] = True && Got[j] = False }
transition produce ([i]) requires { PC[i] = 0 } { X := True; PC[i] := 1 }
transition publish ([i]) requires { PC[i] = 1 } { Ready[i] := True; PC[i] := 2 }
transition late ([i]) requires { PC[i] = 2 && fence() } { PC[i] := 3 }
transition consume ([j] i) requires { Ready[i] = True && Seen[j] = False } { Seen[j] := True; Got[j] := X }`, Unsafe},

		// a weak array written for every process at once
		{"weak universal write, own view", `type loc = Idle | Done
weak array C[proc] : bool
array PC[proc] : loc
init (i) { C[i] = False && PC[i] = Idle }
unsafe (i j) { PC[i] = Done && i@C[j] = False }
transition inv ([i]) requires { PC[i] = Idle } { C[j] := case | _ : True; PC[i] := Done }`, Safe},
		{"weak universal write, another's view", `type loc = Idle | Done
weak array C[proc] : bool
array PC[proc] : loc
init (i) { C[i] = False && PC[i] = Idle }
unsafe (i j k) { PC[i] = Done && j@C[k] = False }
transition inv ([i]) requires { PC[i] = Idle } { C[j] := case | _ : True; PC[i] := Done }`, Unsafe},
		{"weak universal write, read by another process later", `type loc = Idle | Done
weak array C[proc] : bool
array PC[proc] : loc
array R[proc] : bool
init (i) { C[i] = False && PC[i] = Idle && R[i] = True }
unsafe (i j) { PC[i] = Done && R[j] = False }
transition inv ([i]) requires { PC[i] = Idle } { C[j] := case | _ : True; PC[i] := Done }
transition look ([j] i) requires { PC[i] = Done && PC[j] = Idle } { R[j] := C[j] }`, Unsafe},

		// p@X in an invariant
		{"p@X in an invariant", `weak var X : int
array PC[proc] : int
init (i) { X = 0 && PC[i] = 0 }
invariant (p) { p@X = 2 }
unsafe (p) { PC[p] = 1 && p@X = 0 }
transition w ([p]) requires { PC[p] = 0 } { X := 1; PC[p] := 1 }`, Safe},

		// the same transition name twice (as in Cubicle's FLASH model)
		{"transition declared twice", `array A[proc] : bool
array B[proc] : bool
init (i) { A[i] = False && B[i] = False }
unsafe (i) { B[i] = True }
transition t (i) { A[i] := True }
transition t (i) requires { A[i] = True } { B[i] := True }`, Unsafe},
	})
}
