package param

import (
	"strings"
	"testing"
	"time"
)

// counter: every process adds one to X once; X = 3 needs three processes.
const countTo3 = `array Done[proc] : bool
var X : int
init (i) { Done[i] = False && X = 0 }
unsafe () { X = 3 }
transition mark (i) requires { Done[i] = False } { Done[i] := True; X := X + 1 }
`

// a weak variant: each process writes its own flag once and a process
// that sees two other flags set goes to End.
const weakThree = `type pc = Idle | Wrote | End
array PC[proc] : pc
weak array F[proc] : bool
init (i) { PC[i] = Idle && F[i] = False }
unsafe (i) { PC[i] = End }
transition write ([i]) requires { PC[i] = Idle } { PC[i] := Wrote; F[i] := True }
transition see ([i] j k) requires { PC[i] = Wrote && F[j] = True && F[k] = True } { PC[i] := End }
`

func TestNumberProcs(t *testing.T) {
	tests := []struct {
		name, src string
		procs     int // 0: no declaration
		want      Verdict
	}{
		{"counter, any number", countTo3, 0, Unsafe},
		{"counter, 2 processes", countTo3, 2, Safe},
		{"counter, 3 processes", countTo3, 3, Unsafe},
		{"counter, 4 processes", countTo3, 4, Unsafe},
		{"weak, any number", weakThree, 0, Unsafe},
		{"weak, 2 processes", weakThree, 2, Safe},
		{"weak, 3 processes", weakThree, 3, Unsafe},
		{"unsafe formula over 3 processes, 2 processes", "array A[proc] : bool\ninit (i) { A[i] = False }\nunsafe (i j k) { A[i] = A[j] && A[j] = A[k] }\ntransition t (i) { A[i] := True }\n", 2, Safe},
		{"unsafe formula over 3 processes, 3 processes", "array A[proc] : bool\ninit (i) { A[i] = False }\nunsafe (i j k) { A[i] = A[j] && A[j] = A[k] }\ntransition t (i) { A[i] := True }\n", 3, Unsafe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.src
			if tc.procs > 0 {
				src = "number_procs " + string(rune('0'+tc.procs)) + "\n" + src
			}
			res := verify(t, "n.cub", src, tc.want, Options{Timeout: 20 * time.Second})
			if res.Verdict == Unsafe && tc.procs > 0 {
				// the trace uses at most procs processes
				tr := res.TraceString()
				for k := tc.procs + 1; k <= tc.procs+3; k++ {
					if strings.Contains(tr, "#"+string(rune('0'+k))) {
						t.Errorf("trace %s uses process #%d of %d", tr, k, tc.procs)
					}
				}
			}
		})
	}
}

func TestNumberProcsConstant(t *testing.T) {
	_, err := Load("n.cub", []byte("number_procs 2\narray A[proc] : bool\nunsafe (i) { i = #3 && A[i] = True }\n"))
	if err == nil || !strings.Contains(err.Error(), "n.cub:3:18: process #3 does not exist: number_procs is 2") {
		t.Fatalf("got %v", err)
	}
}
