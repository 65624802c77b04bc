// Package report prints results: herd7-compatible text, JSON, and witness
// executions as Graphviz graphs.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// StateLine prints one final state as herd does: "0:EAX=1; x=2;".
func StateLine(r *result.Result, s result.State) string {
	var b strings.Builder
	for i, ref := range r.Observed {
		fmt.Fprintf(&b, "%s=%s; ", ref, ValueText(r, i, s[i]))
	}
	return strings.TrimRight(b.String(), " ")
}

// Text writes r the way herd7 prints a test's result, so that herd logs
// and Musket logs can be compared line by line. What the engine did not
// compute is left out rather than made up: the states when
// r.StatesOmitted, the Positive/Negative counts of executions (the
// Witnesses lines and the numbers after the observation) when
// r.CountsOmitted (and the observation too when r.Pruned: the executions
// that could not settle the condition were not enumerated).
func Text(w io.Writer, r *result.Result) {
	switch r.Status {
	case result.Failed, result.Unsupported:
		fmt.Fprintf(w, "Test %s %s\n", r.Name, r.Status)
		fmt.Fprintf(w, "Error %v\n\n", r.Err)
		return
	case result.MemoryLimit:
		fmt.Fprintf(w, "Test %s %s\n", r.Name, r.Kind())
		fmt.Fprintf(w, "Memory limit %s after %.2fs (no verdict)\n", r.Name, r.Time.Seconds())
		if r.Err != nil {
			fmt.Fprintf(w, "Warning %v\n", r.Err)
		}
		fmt.Fprintln(w)
		return
	case result.Timeout:
		fmt.Fprintf(w, "Test %s %s\n", r.Name, r.Kind())
		if r.Limit > 0 {
			fmt.Fprintf(w, "Timeout %s: no verdict within the time limit of %v (stopped after %.2fs)\n", r.Name, r.Limit, r.Time.Seconds())
		} else {
			fmt.Fprintf(w, "Timeout %s after %.2fs (no verdict)\n", r.Name, r.Time.Seconds())
		}
		if r.Err != nil {
			fmt.Fprintf(w, "Warning %v\n", r.Err)
		}
		fmt.Fprintln(w)
		return
	}
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
		// herd's wording for a result some path of which the unrolling
		// limit cut.
		verdict = "Loop " + verdict
	}
	fmt.Fprintln(w, verdict)
	if !r.CountsOmitted {
		// herd counts a ~exists test's executions against the negated
		// proposition here (and for its observation, against the
		// proposition).
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
		// Not known: the executions that cannot settle the condition
		// were not enumerated.
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
		// herd7's digest of the test, after the Time line as herd7
		// prints it.
		fmt.Fprintf(w, "Hash=%s\n", r.Hash)
	}
	fmt.Fprintln(w)
}
