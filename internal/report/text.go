// Package report prints results: herd7-compatible text, JSON, and witness
// executions as Graphviz graphs.
package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// StateLine prints one final state as herd does: "0:EAX=1; x=2;".
func StateLine(r *result.Result, s result.State) string {
	var b strings.Builder
	for i, ref := range r.Observed {
		fmt.Fprintf(&b, "%s=%s; ", ref, s[i])
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
	w.Write(appendVerdict(nil, r))
}

// appendVerdict appends Text's lines for a result with a verdict to b.
// They are built with append and strconv rather than fmt: the
// playground renders them for every test it runs, and in WebAssembly fmt's
// printer is slow and a large function for the browser to compile
// (textByFmt in the tests is the fmt form, compared on every kind of
// result).
func appendVerdict(b []byte, r *result.Result) []byte {
	line := func(b []byte, parts ...string) []byte {
		for _, p := range parts {
			b = append(b, p...)
		}
		return append(b, '\n')
	}
	b = line(b, "Test ", r.Name, " ", r.Kind())
	if !r.StatesOmitted {
		b = strconv.AppendInt(append(b, "States "...), int64(len(r.States)), 10)
		b = append(b, '\n')
		for _, l := range herdStates(r) {
			b = line(b, l)
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
	b = line(b, verdict)
	if !r.CountsOmitted {
		// herd counts a ~exists test's executions against the negated
		// proposition here (and for its observation, against the
		// proposition).
		pos, neg := r.Positive, r.Negative
		if r.Quant == spec.NotExists {
			pos, neg = neg, pos
		}
		b = line(b, "Witnesses")
		b = strconv.AppendInt(append(b, "Positive: "...), int64(pos), 10)
		b = strconv.AppendInt(append(b, " Negative: "...), int64(neg), 10)
		b = append(b, '\n')
	}
	for _, f := range r.Flags {
		b = line(b, "Flag ", f)
	}
	b = line(b, "Condition ", r.Condition)
	switch {
	case r.CountsOmitted && r.Pruned:
		// Not known: the executions that cannot settle the condition
		// were not enumerated.
	case r.CountsOmitted:
		b = line(b, "Observation ", r.Name, " ", r.Observation())
	default:
		b = append(b, "Observation "...)
		b = append(b, r.Name...)
		b = append(b, ' ')
		b = append(b, r.Observation()...)
		b = strconv.AppendInt(append(b, ' '), int64(r.Positive), 10)
		b = strconv.AppendInt(append(b, ' '), int64(r.Negative), 10)
		b = append(b, '\n')
	}
	if r.Pruned {
		b = line(b, "Pruned ", r.Name, ": only the executions that can settle the condition were enumerated (-speedcheck)")
	}
	// fmt's %.2f is strconv's 'f' format with precision 2.
	b = append(b, "Time "...)
	b = append(b, r.Name...)
	b = strconv.AppendFloat(append(b, ' '), r.Time.Seconds(), 'f', 2, 64)
	b = append(b, '\n')
	if r.Hash != "" {
		// herd7's digest of the test, after the Time line as herd7
		// prints it.
		b = line(b, "Hash=", r.Hash)
	}
	return append(b, '\n')
}
