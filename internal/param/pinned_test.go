package param

import "testing"

// TestProcessConstants: systems that name processes by constants (#1),
// as Cubicle's litmus-style files do, beside parameters that range over
// every process, the constants included. Each verdict is cross-checked
// on finite instances, and an UNSAFE trace must replay forward.
//
// Before: the parameters of an unsafe formula always named processes
// other than the constants (unsafe (i) { A[i] = True } never met a
// write to A[#1]: SAFE, wrong); the safety test did not apply init to a
// constant that no parameter names (unsafe () { A[#1] = True } met the
// initial states at once); and the replay of a trace never satisfied a
// formula without parameters.
func TestProcessConstants(t *testing.T) {
	tests := []struct {
		name, src string
		want      Verdict
	}{
		{"parameter meets the constant's cell", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t () { A[j] := case | j = #1 : True | _ : A[j] }`, Unsafe},
		{"parameter meets the constant through a guard", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True }
transition t (k) requires { k = #1 } { A[j] := case | j = k : True | _ : A[j] }`, Unsafe},
		{"parameter other than the constant", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i) { A[i] = True && i <> #1 }
transition t () { A[j] := case | j = #1 : True | _ : A[j] }`, Safe},
		{"two parameters, one may be the constant", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition t () { A[j] := case | j = #1 : True | _ : A[j] }
transition u () { A[j] := case | j = #2 : True | _ : A[j] }`, Unsafe},
		{"two parameters, only one constant written", `array A[proc] : bool
init (i) { A[i] = False }
unsafe (i j) { A[i] = True && A[j] = True }
transition t () { A[j] := case | j = #1 : True | _ : A[j] }`, Safe},
		{"constant cell in unsafe, init applies to it", `array A[proc] : bool
init (i) { A[i] = False }
unsafe () { A[#1] = True }
transition t (k) requires { k = #2 } { A[k] := True }`, Safe},
		{"constant cell in unsafe, written", `array A[proc] : bool
init (i) { A[i] = False }
unsafe () { A[#1] = True }
transition t (k) requires { k = #1 } { A[k] := True }`, Unsafe},
		{"constant cell in unsafe, one process", `number_procs 1
array A[proc] : bool
init (i) { A[i] = False }
unsafe () { A[#1] = True }
transition t (k) requires { k = #1 } { A[k] := True }`, Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "k.cub", tc.src, tc.want, Options{})
			sys, err := Load("k.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			cc := SelfCheck(t.Context(), sys, res, Options{}, 20000)
			if !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
				t.Errorf("cross-check:\n%s", cc)
			}
			if res.Verdict == Unsafe && !cc.Replayed {
				t.Errorf("the trace %s does not replay: %v", res.TraceString(), cc.Notes)
			}
		})
	}
}
