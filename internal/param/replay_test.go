package param

import (
	"testing"
	"time"
)

// TestReplay: systems whose finite instance reaches an unsafe state are
// answered by replaying the forward path backward; the trace is that
// path, and a path the parameterized system cannot follow is not
// reported (the search goes on).
func TestReplay(t *testing.T) {
	tests := []struct {
		name, src string
		want      Verdict
		steps     int // length of the trace (unsafe)
	}{
		{"two steps", `type s = A | B | C
array S[proc] : s
init (i) { S[i] = A }
unsafe (i) { S[i] = C }
transition ab (i) requires { S[i] = A } { S[i] := B }
transition bc (i) requires { S[i] = B } { S[i] := C }`, Unsafe, 2},
		{"two processes needed", `type s = A | B | C
array S[proc] : s
init (i) { S[i] = A }
unsafe (i j) { S[i] = C && S[j] = C }
transition ab (i) requires { S[i] = A } { S[i] := B }
transition bc (i j) requires { S[i] = B && S[j] <> A } { S[i] := C }`, Unsafe, 4},
		{"mutual exclusion holds", `type s = Idle | Want | Crit
array S[proc] : s
var Turn : proc
init (i) { S[i] = Idle }
unsafe (i j) { S[i] = Crit && S[j] = Crit }
transition want (i) requires { S[i] = Idle } { S[i] := Want }
transition enter (i) requires { S[i] = Want && Turn = i } { S[i] := Crit }
transition leave (i j) requires { S[i] = Crit } { S[i] := Idle; Turn := j }`, Safe, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, "r.cub", tc.src, tc.want, Options{Timeout: 20 * time.Second})
			if tc.want == Unsafe && len(res.Trace) != tc.steps {
				t.Errorf("trace %s, want %d steps", res.TraceString(), tc.steps)
			}
		})
	}
}
