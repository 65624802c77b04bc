package param

import (
	"context"
	"testing"
	"time"
)

// TestTimeoutHolds runs searches that never end with a short time limit:
// the verdict is Timeout (go test's own time limit catches a hang). The
// searches run without approximation, which proves the ticket lock safe
// in about half a second.
func TestTimeoutHolds(t *testing.T) {
	tests := []struct{ name, src string }{
		{"diverging counter", `var X : int
var Y : int
init () { X = 0 && Y = 0 }
unsafe () { X = 1 && Y = 0 }
transition t () { X := X + 2; Y := Y + 2 }`},
		{"ticket lock on TSO", `type loc = L1 | L2 | L3 | L4
array PC[proc] : loc
array R[proc] : int
weak var Head : int
weak var Tail : int
init (i) { PC[i] = L1 && Head = 0 && Tail = 0 }
unsafe (i j) { PC[i] = L4 && PC[j] = L4 && R[i] = R[j] + 7 }
transition t1([i]) requires { PC[i] = L1 } { PC[i] := L2; R[i] := Tail }
transition t2([i]) requires { PC[i] = L2 && Tail = R[i] } { PC[i] := L3; Tail := R[i] + 1 }
transition t3([i]) requires { PC[i] = L3 && Head = R[i] } { PC[i] := L4 }
transition t4([i]) requires { PC[i] = L4 } { PC[i] := L1; Head := R[i] + 1 }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := Load("t.cub", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: 500 * time.Millisecond, NoApprox: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Timeout {
				t.Fatalf("the search ended (%s), want a timeout", res.Verdict)
			}
		})
	}
}
