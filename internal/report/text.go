// Package report prints results: herd7-compatible text, JSON, and witness
// executions as Graphviz graphs.
package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
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
		fmt.Fprintf(w, "Test %s %s\n", r.Name, StatusWord(r))
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
// result). The appends go through lineBuf's methods, never inlined: in
// Go's WebAssembly each inlined append is a long sequence, and inlined
// here they made one function of 14 KB for the browser to compile.
func appendVerdict(b []byte, r *result.Result) []byte {
	w := lineBuf{b}
	w.line("Test ", r.Name, " ", r.Kind())
	if !r.StatesOmitted {
		w.str("States ")
		w.int(len(r.States))
		w.line()
		for _, l := range herdStates(r) {
			w.line(l)
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
	w.line(verdict)
	if !r.CountsOmitted {
		// herd counts a ~exists test's executions against the negated
		// proposition here (and for its observation, against the
		// proposition).
		pos, neg := r.Positive, r.Negative
		if r.Quant == spec.NotExists {
			pos, neg = neg, pos
		}
		w.line("Witnesses")
		w.str("Positive: ")
		w.int(pos)
		w.str(" Negative: ")
		w.int(neg)
		w.line()
	}
	for _, f := range r.Flags {
		w.line("Flag ", f)
	}
	w.line("Condition ", r.Condition)
	switch {
	case r.CountsOmitted && r.Pruned:
		// Not known: the executions that cannot settle the condition
		// were not enumerated.
	case r.CountsOmitted:
		w.line("Observation ", r.Name, " ", r.Observation())
	default:
		w.str("Observation ", r.Name, " ", r.Observation(), " ")
		w.int(r.Positive)
		w.str(" ")
		w.int(r.Negative)
		w.line()
	}
	if r.Pruned {
		w.line("Pruned ", r.Name, ": only the executions that can settle the condition were enumerated (-speedcheck)")
	}
	w.str("Time ", r.Name, " ")
	w.seconds(r.Time.Seconds())
	w.line()
	if r.Hash != "" {
		// herd7's digest of the test, after the Time line as herd7
		// prints it.
		w.line("Hash=", r.Hash)
	}
	w.line()
	return w.b
}

// lineBuf appends appendVerdict's text to b.
type lineBuf struct{ b []byte }

//go:noinline
func (w *lineBuf) str(parts ...string) {
	for _, p := range parts {
		w.b = append(w.b, p...)
	}
}

// line appends parts and a newline.
//
//go:noinline
func (w *lineBuf) line(parts ...string) {
	w.str(parts...)
	w.b = append(w.b, '\n')
}

//go:noinline
func (w *lineBuf) int(n int) { w.b = strconv.AppendInt(w.b, int64(n), 10) }

// seconds appends s as fmt's %.2f does: strconv's 'f' format with
// precision 2.
//
//go:noinline
func (w *lineBuf) seconds(s float64) { w.b = appendCenti(w.b, s) }

// appendCenti appends s rounded to two decimals, as strconv.AppendFloat(b,
// s, 'f', 2, 64) does, with integer arithmetic when 0 <= s < 2^40 (every
// time a result carries). strconv's 'f' format with a precision takes its
// multiple-precision decimal path, which in WebAssembly was a per-test
// cost and several KB that V8 optimised on the second pass over a folder.
//
// The same digits: s is m·2^e exactly (m < 2^53, e < 0 here), so s·100
// is m·100·2^e, whose integer part q and remainder r (below 2^-e) come
// from shifting m·100 (below 2^60) right by -e; strconv rounds the exact
// value of s to the nearest hundredth, ties to even, which is q+1 when r
// is above half of 2^-e or equal to it with q odd, else q.
// TestAppendCenti compares with strconv on a million values.
func appendCenti(b []byte, s float64) []byte {
	if !(s >= 0 && s < 1<<40) || math.Signbit(s) {
		return strconv.AppendFloat(b, s, 'f', 2, 64)
	}
	var q uint64
	if s != 0 {
		frac, exp := math.Frexp(s)    // s = frac·2^exp, 0.5 <= frac < 1
		m := uint64(frac * (1 << 53)) // exact: s = m·2^(exp-53)
		sh := uint(53 - exp)          // >= 13, as s < 2^40
		p := m * 100
		if sh >= 64 {
			q = 0 // p < 2^60 is below half of 2^sh: rounds to 0
		} else {
			q = p >> sh
			r, half := p&(1<<sh-1), uint64(1)<<(sh-1)
			if r > half || r == half && q&1 == 1 {
				q++
			}
		}
	}
	b = strconv.AppendUint(b, q/100, 10)
	c := q % 100
	return append(b, '.', byte('0'+c/10), byte('0'+c%10))
}
