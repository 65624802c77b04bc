// Package result holds what an engine concludes about a litmus test: the
// final states it reached, how many executions satisfy the condition, and
// herd7's verdict and observation derived from them. Every engine fills
// the same type so that outputs and comparisons do not depend on the
// engine.
package result

import (
	"errors"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
	"slices"
	"sort"
	"strings"
	"time"
)

// State is one final state: the values of the observed refs, in the order
// of Result.Observed.
type State []prog.Value

// Key identifies a state.
func (s State) Key() string {
	var b strings.Builder
	for _, v := range s {
		b.WriteString(v.String())
		b.WriteByte(';')
	}
	return b.String()
}

// ErrLimit is wrapped by the errors of an engine that stops at one of its
// own limits (too many control-flow paths, a recursion too deep) rather
// than at something wrong in the test or the model: the command line
// reports those with the exit status of a limit, not of bad input.
var ErrLimit = errors.New("a limit of the engine was reached")

// Limit returns an error saying msg that wraps ErrLimit.
func Limit(msg string) error { return &limitError{msg} }

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
func (e *limitError) Unwrap() error { return ErrLimit }

// Status says whether an engine reached a verdict.
type Status int

// The statuses of a result.
const (
	Done    Status = iota // a verdict was reached
	Timeout               // the time limit ran out first
	Failed                // the test could not be checked (see Err)
	Unsupported
	MemoryLimit // the memory limit (-memory) was reached first
)

func (s Status) String() string {
	switch s {
	case Timeout:
		return "timeout"
	case Failed:
		return "error"
	case Unsupported:
		return "unsupported"
	case MemoryLimit:
		return "memory limit"
	}
	return "done"
}

// Result is what an engine found for one test under one model.
type Result struct {
	File   string
	Name   string
	Arch   string // the test's architecture (X86, PPC, C, ...): herd prints registers in its order
	Model  string
	Engine string
	Hash   string // herd7's digest of the test, printed as its Hash= line ("": none)
	Status Status
	Err    error

	Quant     spec.Quant
	Condition string     // herd's printing: "exists (...)"
	Observed  []spec.Ref // the refs the states give values to
	States    []State    // distinct final states, sorted
	// Unsigned are the observed refs of an unsigned 64-bit type
	// (uint64_t): herd prints their values unsigned (-1 is
	// 18446744073709551615).
	Unsigned []spec.Ref
	// Arrays are the arrays the condition compares whole, with their
	// numbers of cells (spec.Test.WholeArrays): herd prints their cells
	// a[0], a[1], ... as one value, "a={1,3}".
	Arrays map[string]int
	// Hexa prints the values in hexadecimal, as herd7's -hexa does
	// (report.Hexa sets it and rewrites Condition).
	Hexa    bool
	Witness *Execution // an execution whose final state satisfies the condition, if any

	Positive, Negative int // executions whose final state satisfies / does not satisfy the condition
	// StatesOmitted says that States was not computed (the SMT engine's
	// verdict-only mode): printers leave the states out rather than show
	// an empty list.
	StatesOmitted bool
	// CountsOmitted says that Positive and Negative are not herd7's counts
	// of executions (the SMT engine finds states, not every execution):
	// they only tell whether some execution satisfies the condition and
	// whether some does not, and printers leave the numbers out.
	CountsOmitted bool
	// Pruned says that the explicit engine enumerated only the
	// executions that can settle the condition (herd7's -speedcheck):
	// the verdict is the full enumeration's, but States, the counts, the
	// observation and Flags cover those executions only.
	Pruned bool
	Flags  []string
	// FlagWitnesses holds, for each raised flag, an execution raising it,
	// when the engine was asked for them (the Options.FlagWitnesses of
	// either engine): musket check -races shows the racy execution.
	FlagWitnesses map[string]*Execution
	Bounded       bool // some path was cut by the loop bound
	Time          time.Duration
	// Limit is the time limit a Timeout result ran out of (0: not known).
	Limit time.Duration
	// Explain, when asked for (the explicit engine's Explain option),
	// says why the condition's outcome is allowed or forbidden.
	Explain *Explanation
	// Shown are the executions the explicit engine was asked to show
	// (herd7's -show), in the order it found them.
	Shown []*Execution
	// Unconfirmed, under -engine both, says which engine stopped at a
	// limit while the other answered ("smt: timeout"): the verdict is
	// the other engine's alone, not cross-checked. Printers say so, and
	// the run's exit status is 3 (a limit was reached).
	Unconfirmed string
}

// Execution is a concrete execution, for witnesses.
type Execution struct {
	Events []Event  `json:"events"`
	Po     [][2]int `json:"po"`
	Rf     [][2]int `json:"rf"`
	Co     [][2]int `json:"co"`
	Fr     [][2]int `json:"fr"`
	State  State    `json:"state"`
}

// Event is one event of a witness.
type Event struct {
	ID     int    `json:"id"`
	Thread int    `json:"thread"` // -1 for initial writes
	Label  string `json:"label"`
	// PC is the index, in its thread's code, of the instruction the event
	// comes from (-1 for initial writes), so that a front-end can name its
	// source line.
	PC int `json:"pc"`
}

// UndefFlag is the flag herd7 raises on an execution that fails one of
// the model's undefined_unless checks; a result with it prints Undef in
// place of Ok or No.
const UndefFlag = "*undef*"

// Undef tells whether some execution is undefined (herd7's Undef).
func (r *Result) Undef() bool {
	for _, f := range r.Flags {
		if f == UndefFlag {
			return true
		}
	}
	return false
}

// Ok tells whether herd would print Ok: the condition holds in the sense of
// its quantifier.
func (r *Result) Ok() bool {
	switch r.Quant {
	case spec.Exists:
		return r.Positive > 0
	case spec.NotExists:
		return r.Positive == 0
	}
	return r.Negative == 0
}

// Observation is herd's Always / Sometimes / Never.
func (r *Result) Observation() string {
	switch {
	case r.Positive > 0 && r.Negative == 0:
		return "Always"
	case r.Positive == 0:
		return "Never"
	}
	return "Sometimes"
}

// Kind is herd's word after the test name: Required for forall,
// Forbidden for ~exists, Allowed for exists.
func (r *Result) Kind() string {
	switch r.Quant {
	case spec.Forall:
		return "Required"
	case spec.NotExists:
		return "Forbidden"
	}
	return "Allowed"
}

// SetOutcomes sets r's flags (sorted) and final states (in herd's order)
// from the sets an engine gathered while it enumerated.
func (r *Result) SetOutcomes(flags map[string]bool, states map[string]State) {
	r.Flags = r.Flags[:0]
	for f := range flags {
		r.Flags = append(r.Flags, f)
	}
	sort.Strings(r.Flags)
	sts := make([]State, 0, len(states))
	for _, s := range states {
		sts = append(sts, s)
	}
	r.States = SortStates(r.Observed, sts)
}

// SortStates orders the states as herd prints them and removes duplicates.
func SortStates(obs []spec.Ref, states []State) []State {
	names := make([]string, len(obs)) // printed once, not per state
	for i, r := range obs {
		names[i] = r.String()
	}
	// Each line is built in one buffer and copied out once: one
	// allocation a line, not a strings.Builder's three or four as it
	// grows.
	var buf []byte
	line := func(s State) string {
		buf = buf[:0]
		for i, name := range names {
			buf = append(buf, name...)
			buf = append(buf, '=')
			buf = append(buf, s[i].String()...)
			buf = append(buf, "; "...)
		}
		return string(buf)
	}
	// The lines sorted with their states, stably, and of equal lines the
	// last kept, as a map from line to state kept it: the same as
	// sorting the map's keys, without hashing every line (dear in
	// WebAssembly, where the playground sorts every test's states). The
	// indices are sorted, a []int, as in every stable sort of result and
	// report: one copy of slices' stable sort in the program.
	keys := make([]string, len(states))
	perm := make([]int, len(states))
	for i, s := range states {
		keys[i], perm[i] = line(s), i
	}
	slices.SortStableFunc(perm, func(i, j int) int { return strings.Compare(keys[i], keys[j]) })
	out := make([]State, 0, len(perm))
	for n, i := range perm {
		if n+1 < len(perm) && keys[perm[n+1]] == keys[i] {
			continue
		}
		out = append(out, states[i])
	}
	return out
}

// SortRefs orders observed refs as herd prints them: registers by thread
// and name, then memory locations by name.
func SortRefs(refs []spec.Ref) []spec.Ref {
	// slices' stable sort, not sort.SliceStable: the same order, without
	// reflection's swapper; of the indices (see SortStates).
	less := func(a, b spec.Ref) bool {
		if a.IsReg() != b.IsReg() {
			return a.IsReg()
		}
		if a.Thread != b.Thread {
			return a.Thread < b.Thread
		}
		return a.Name < b.Name
	}
	perm := make([]int, len(refs))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(i, j int) int {
		switch a, b := refs[i], refs[j]; {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	var out []spec.Ref // nil for none, as before
	for _, p := range perm {
		out = append(out, refs[p])
	}
	return out
}
