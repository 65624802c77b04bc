package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/musket-verify/musket/internal/result"
)

// Dot writes a witness execution as a Graphviz graph: one cluster per
// thread with its events in program order, the initial writes apart, and
// the rf, co and fr edges between events.
func Dot(w io.Writer, name string, x *result.Execution) error {
	return DotExplained(w, name, x, nil)
}

// DotExplained is Dot with the steps of an explanation (the cycle of a
// failed check) drawn on top, bold and labelled with their relations.
func DotExplained(w io.Writer, name string, x *result.Execution, steps []result.Step) error {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n  rankdir=TB;\n  node [shape=none, fontname=\"monospace\"];\n", name)
	threads := map[int][]result.Event{}
	var order []int
	for _, e := range x.Events {
		if _, ok := threads[e.Thread]; !ok {
			order = append(order, e.Thread)
		}
		threads[e.Thread] = append(threads[e.Thread], e)
	}
	for _, t := range order {
		label := fmt.Sprintf("P%d", t)
		if t < 0 {
			label = "init"
		}
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%q;\n", t+1, label)
		for _, e := range threads[t] {
			fmt.Fprintf(&b, "    e%d [label=%q];\n", e.ID, e.Label)
		}
		b.WriteString("  }\n")
	}
	edges := func(pairs [][2]int, name, color string) {
		for _, p := range pairs {
			fmt.Fprintf(&b, "  e%d -> e%d [label=%q, color=%s, fontcolor=%s];\n", p[0], p[1], name, color, color)
		}
	}
	edges(x.Po, "po", "black")
	edges(x.Rf, "rf", "red")
	edges(x.Co, "co", "blue")
	edges(x.Fr, "fr", "orange")
	for _, s := range steps {
		fmt.Fprintf(&b, "  e%d -> e%d [label=%q, color=crimson, fontcolor=crimson, penwidth=3, style=bold];\n", s.From, s.To, s.Rel)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
