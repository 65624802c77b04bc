package param

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText prints a result the way Cubicle does: the verdict, the trace
// of an unsafe system, the number of visited nodes and the time.
func WriteText(w io.Writer, file string, r *Result) {
	switch r.Verdict {
	case Safe:
		fmt.Fprintln(w, "The system is SAFE")
	case Unsafe:
		fmt.Fprintln(w, "The system is UNSAFE")
		fmt.Fprintf(w, "Error trace: %s\n", r.TraceString())
	default:
		fmt.Fprintf(w, "No verdict for %s: %s\n", file, r.Verdict)
	}
	if r.Note != "" {
		fmt.Fprintf(w, "Note: %s\n", r.Note)
	}
	fmt.Fprintf(w, "Visited nodes: %d\n", r.Visited)
	if r.Guesses > 0 || r.Restarts > 0 || r.Backtracks > 0 {
		fmt.Fprintf(w, "Approximations: %d guesses, %d restarts, %d undone in place\n", r.Guesses, r.Restarts, r.Backtracks)
	}
	fmt.Fprintf(w, "Time: %.3fs\n", r.Time.Seconds())
}

// jsonResult is the JSON form of a result.
type jsonResult struct {
	File    string   `json:"file"`
	Status  string   `json:"status"` // done (a verdict), timeout, limit (which: Limit)
	Verdict string   `json:"verdict"`
	Limit   string   `json:"limit,omitempty"`
	Note    string   `json:"note,omitempty"`
	Trace   []string `json:"trace,omitempty"`
	Unsafe  int      `json:"unsafe,omitempty"`
	Nodes   int      `json:"nodes"`
	Guesses int      `json:"guesses,omitempty"`
	Restart int      `json:"restarts,omitempty"`
	// Backtracks: refuted guesses undone in place (no restart)
	Backtracks int     `json:"backtracks,omitempty"`
	Solver     int     `json:"solver_calls"`
	TimeMS     float64 `json:"time_ms"`
	// Invariant: with -invariants, the cubes of a safe verdict
	Invariant []string `json:"invariant,omitempty"`
}

// WriteJSON prints a result as one JSON object on one line (JSON Lines);
// with sys set, the invariant of a safe verdict too.
func WriteJSON(w io.Writer, file string, r *Result, sys *System) error {
	j := jsonResult{File: file, Nodes: r.Visited, Guesses: r.Guesses, Restart: r.Restarts, Backtracks: r.Backtracks, Solver: r.Solver, TimeMS: float64(r.Time.Microseconds()) / 1000}
	j.Status = "done"
	j.Note = r.Note
	switch r.Verdict {
	case Safe:
		j.Verdict = "safe"
	case Unsafe:
		j.Verdict = "unsafe"
		j.Unsafe = r.Root
		for _, s := range r.Trace {
			j.Trace = append(j.Trace, s.String())
		}
	default:
		j.Verdict = "unknown"
		j.Status = "limit"
		if r.Verdict == Timeout {
			// The status of a time limit, as every command's JSON says
			// it (docs/json.md); it was "limit" here alone (robust7).
			j.Status = "timeout"
		}
		j.Limit = r.Verdict.String()
	}
	if sys != nil {
		for _, inv := range r.Invariants(sys) {
			j.Invariant = append(j.Invariant, inv.Text)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(j)
}

// WriteDot writes the search graph in Graphviz format: the unsafe roots,
// every explored node with its cube, edges labelled by the transition
// instance of the pre-image; the node that meets the initial states is
// red, the guesses of the approximation are blue.
func WriteDot(w io.Writer, r *Result) error {
	var b strings.Builder
	b.WriteString("digraph search {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n")
	for i, n := range r.Graph {
		attrs := ""
		switch n.Status {
		case "init":
			attrs = ", color=red, fontcolor=red"
		case "subsumed":
			attrs = ", style=dashed, color=gray"
		case "guess":
			attrs = ", color=blue, fontcolor=blue"
		}
		name := fmt.Sprintf("%d", n.ID)
		if n.ID == 0 {
			name = n.Status
		}
		fmt.Fprintf(&b, "  n%d [label=%q%s];\n", i, name+": "+n.Cube, attrs)
		if n.Parent >= 0 {
			fmt.Fprintf(&b, "  n%d -> n%d [label=%q];\n", i, n.Parent, n.Label)
		} else {
			fmt.Fprintf(&b, "  n%d [xlabel=%q];\n", i, n.Label)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
