package report

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// textByFmt is Text's verdict path as it was written with fmt, the
// reference appendVerdict is compared with.
func textByFmt(w io.Writer, r *result.Result) {
	fmt.Fprintf(w, "Test %s %s\n", r.Name, r.Kind())
	if !r.StatesOmitted {
		fmt.Fprintf(w, "States %d\n", len(r.States))
		for _, line := range herdStates(r) {
			fmt.Fprintln(w, line)
		}
	}
	verdict := "No"
	switch {
	case r.Undef():
		verdict = "Undef"
	case r.Ok():
		verdict = "Ok"
	}
	if r.Bounded {
		verdict = "Loop " + verdict
	}
	fmt.Fprintln(w, verdict)
	if !r.CountsOmitted {
		pos, neg := r.Positive, r.Negative
		if r.Quant == spec.NotExists {
			pos, neg = neg, pos
		}
		fmt.Fprintln(w, "Witnesses")
		fmt.Fprintf(w, "Positive: %d Negative: %d\n", pos, neg)
	}
	for _, f := range r.Flags {
		fmt.Fprintf(w, "Flag %s\n", f)
	}
	fmt.Fprintf(w, "Condition %s\n", r.Condition)
	switch {
	case r.CountsOmitted && r.Pruned:
	case r.CountsOmitted:
		fmt.Fprintf(w, "Observation %s %s\n", r.Name, r.Observation())
	default:
		fmt.Fprintf(w, "Observation %s %s %d %d\n", r.Name, r.Observation(), r.Positive, r.Negative)
	}
	if r.Pruned {
		fmt.Fprintf(w, "Pruned %s: only the executions that can settle the condition were enumerated (-speedcheck)\n", r.Name)
	}
	fmt.Fprintf(w, "Time %s %.2f\n", r.Name, r.Time.Seconds())
	if r.Hash != "" {
		fmt.Fprintf(w, "Hash=%s\n", r.Hash)
	}
	fmt.Fprintln(w)
}

// TestTextAsFmt compares Text with its fmt form on every combination of
// what the verdict path prints: quantifier, counts (zero, large,
// negative), omitted states or counts, pruning, the loop bound, flags,
// the hash, and times that round up, down and to zero.
func TestTextAsFmt(t *testing.T) {
	quants := []spec.Quant{spec.Exists, spec.NotExists, spec.Forall}
	counts := [][2]int{{0, 0}, {1, 3}, {7, 0}, {0, 12345678}, {-1, 2}}
	times := []time.Duration{0, 4 * time.Millisecond, 5 * time.Millisecond, 15 * time.Millisecond, 1234567 * time.Microsecond, 99999 * time.Millisecond, time.Hour}
	flagSets := [][]string{nil, {"data-race"}, {result.UndefFlag, "x"}}
	n := 0
	for qi, q := range quants {
		for ci, c := range counts {
			for ti, d := range times {
				for bits := range 32 {
					r := sample()
					r.Quant, r.Positive, r.Negative, r.Time = q, c[0], c[1], d
					r.StatesOmitted = bits&1 != 0
					r.CountsOmitted = bits&2 != 0
					r.Pruned = bits&4 != 0
					r.Bounded = bits&8 != 0
					if bits&16 != 0 {
						r.Hash = "0123abcd"
					}
					r.Flags = flagSets[(qi+ci+ti+bits)%len(flagSets)]
					if (ti+bits)%3 == 0 {
						r.Name, r.Condition = "A name+with~punct", `~exists (x=1 \/ 0:r1=2)`
					}
					if (ci+bits)%4 == 0 {
						r.States = nil
					}
					var got, want strings.Builder
					Text(&got, r)
					textByFmt(&want, r)
					if got.String() != want.String() {
						t.Fatalf("quant %v, counts %v, time %v, bits %05b:\ngot\n%s\nwant\n%s", q, c, d, bits, got.String(), want.String())
					}
					n++
				}
			}
		}
	}
	t.Logf("%d results, Text equals its fmt form", n)
}
