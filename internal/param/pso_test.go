package param

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// message passing with two weak variables: the writer writes Data then
// Flag, the reader waits for Flag then reads Data.
const mpTemplate = `type loc = L1 | L2 | L3
weak var Data : int
weak var Flag : bool
array PC[proc] : loc
array R[proc] : int
init (p) { Data = 0 && Flag = False && PC[p] = L1 && R[p] = 5 }
unsafe (q) { q = #2 && PC[q] = L3 && R[q] = 0 }
transition w1 ([p]) requires { p = #1 && PC[p] = L1 } { Data := 1; PC[p] := L2 }
transition w2 ([p]) requires { p = #1 && PC[p] = L2 %s } { Flag := True; PC[p] := L3 }
transition r1 ([q]) requires { q = #2 && PC[q] = L1 && Flag = True } { PC[q] := L2 }
transition r2 ([q]) requires { q = #2 && PC[q] = L2 } { R[q] := Data; PC[q] := L3 }
`

// store buffering: both models let each read miss the other's write
// unless fences separate them.
const sbTemplate = `type loc = L1 | L2 | L3
weak var X : int
weak var Y : int
array PC[proc] : loc
array R[proc] : int
init (p) { X = 0 && Y = 0 && PC[p] = L1 && R[p] = 5 }
unsafe (p q) { p = #1 && q = #2 && PC[p] = L3 && PC[q] = L3 && R[p] = 0 && R[q] = 0 }
transition a1 ([p]) requires { p = #1 && PC[p] = L1 } { X := 1; PC[p] := L2 }
transition a2 ([p]) requires { p = #1 && PC[p] = L2 %s } { R[p] := Y; PC[p] := L3 }
transition b1 ([p]) requires { p = #2 && PC[p] = L1 } { Y := 1; PC[p] := L2 }
transition b2 ([p]) requires { p = #2 && PC[p] = L2 %s } { R[p] := X; PC[p] := L3 }
`

func TestPSO(t *testing.T) {
	tests := []struct {
		name, src string
		tso, pso  Verdict
	}{
		{"MP", sprintf(mpTemplate, ""), Safe, Unsafe},
		{"MP with a fence between the writes", sprintf(mpTemplate, "&& fence()"), Safe, Safe},
		{"SB", sprintf(sbTemplate, "", ""), Unsafe, Unsafe},
		{"SB with fences", sprintf(sbTemplate, "&& fence()", "&& fence()"), Safe, Safe},
		{"same variable twice", `type loc = L1 | L2 | L3
weak var X : int
array PC[proc] : loc
array R[proc] : int
init (p) { X = 0 && PC[p] = L1 && R[p] = 5 }
unsafe (q) { q = #2 && PC[q] = L3 && R[q] = 1 }
transition w1 ([p]) requires { p = #1 && PC[p] = L1 } { X := 1; PC[p] := L2 }
transition w2 ([p]) requires { p = #1 && PC[p] = L2 } { X := 2; PC[p] := L3 }
transition r1 ([q]) requires { q = #2 && PC[q] = L1 && X = 2 } { PC[q] := L2 }
transition r2 ([q]) requires { q = #2 && PC[q] = L2 } { R[q] := X; PC[q] := L3 }`, Safe, Safe},
	}
	for _, tc := range tests {
		for _, m := range []struct {
			model string
			want  Verdict
		}{{"tso", tc.tso}, {"pso", tc.pso}} {
			t.Run(tc.name+"/"+m.model, func(t *testing.T) {
				sys, err := Load("pso.cub", []byte(tc.src))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Verify(t.Context(), sys, Options{Timeout: 30 * time.Second, Model: m.model})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != m.want {
					t.Fatalf("got %s, want %s", res.Verdict, m.want)
				}
				if res.Verdict == Unsafe {
					t.Logf("trace: %s", res.TraceString())
				}
			})
		}
	}
}

func TestUnknownModel(t *testing.T) {
	sys, err := Load("m.cub", []byte(sprintf(mpTemplate, "")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(t.Context(), sys, Options{Model: "arm"}); err == nil {
		t.Fatal("no error for an unknown model")
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// TestPSOSoundness compares the backward engine under PSO with a forward
// exploration of PSO (per-variable buffers) on the weak corpus files and
// the systems of TestPSO, for 2 and 3 processes (or number_procs).
func TestPSOSoundness(t *testing.T) {
	srcs := map[string][]byte{
		"mp":       []byte(sprintf(mpTemplate, "")),
		"mp fence": []byte(sprintf(mpTemplate, "&& fence()")),
		"sb":       []byte(sprintf(sbTemplate, "", "")),
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.cub"))
	for _, p := range files {
		src, err := os.ReadFile(p)
		small := strings.HasPrefix(filepath.Base(p), "litmus_") || strings.HasPrefix(filepath.Base(p), "mutex_")
		if err == nil && strings.Contains(string(src), "weak") && (small || os.Getenv("MUSKET_LONG") != "") {
			srcs[filepath.Base(p)] = src
		}
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := Check(f)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(t.Context(), sys, Options{Model: "pso", Timeout: timeout()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Safe && res.Verdict != Unsafe {
				t.Fatalf("backward: %s", res.Verdict)
			}
			checkForward(t, f, res, true)
		})
	}
}
