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
	writeExecution(&b, x, "", "  ", "all")
	for _, s := range steps {
		fmt.Fprintf(&b, "  e%d -> e%d [label=%q, color=crimson, fontcolor=crimson, penwidth=3, style=bold];\n", s.From, s.To, s.Rel)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// DotAll writes several executions of one test as herd7 does with -show
// and -o: one Graphviz digraph per execution, one after the other in the
// file (none for no execution: an empty file). events selects the events
// drawn (herd7's -showevents): "all" (or "noregs": Musket has no register
// events) every event, "mem" the memory accesses only.
func DotAll(w io.Writer, name string, xs []*result.Execution, events string) error {
	var b strings.Builder
	for i, x := range xs {
		fmt.Fprintf(&b, "digraph %q {\n  rankdir=TB;\n  label=%q;\n  node [shape=none, fontname=\"monospace\"];\n", name, fmt.Sprintf("execution %d of %s", i+1, name))
		writeExecution(&b, x, "", "  ", events)
		b.WriteString("}\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeExecution writes the clusters, events and edges of x; node names
// are prefix+"e"+ID, lines are indented by ind.
func writeExecution(b *strings.Builder, x *result.Execution, prefix, ind, events string) {
	keep := map[int]bool{}
	threads := map[int][]result.Event{}
	var order []int
	for _, e := range x.Events {
		if events == "mem" && !isAccess(e.Label) {
			continue
		}
		keep[e.ID] = true
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
		fmt.Fprintf(b, "%ssubgraph cluster_%s%d {\n%s  label=%q;\n", ind, prefix, t+1, ind, label)
		for _, e := range threads[t] {
			fmt.Fprintf(b, "%s  %se%d [label=%q];\n", ind, prefix, e.ID, e.Label)
		}
		fmt.Fprintf(b, "%s}\n", ind)
	}
	edges := func(pairs [][2]int, name, color string) {
		for _, p := range pairs {
			if keep[p[0]] && keep[p[1]] {
				fmt.Fprintf(b, "%s%se%d -> %se%d [label=%q, color=%s, fontcolor=%s];\n", ind, prefix, p[0], prefix, p[1], name, color, color)
			}
		}
	}
	po := x.Po
	if events == "mem" {
		po = memPo(x, keep)
	}
	edges(po, "po", "black")
	edges(x.Rf, "rf", "red")
	edges(x.Co, "co", "blue")
	edges(x.Fr, "fr", "orange")
}

// isAccess tells whether an event label is a memory access ("a: W[x]=1",
// "b: R.X[y]=0"), not a fence or a branch.
func isAccess(label string) bool {
	i := strings.Index(label, ": ")
	return i >= 0 && len(label) > i+2 && (label[i+2] == 'R' || label[i+2] == 'W')
}

// memPo is the immediate program order between the memory accesses
// kept: the po chain with the other events skipped.
func memPo(x *result.Execution, keep map[int]bool) [][2]int {
	next := map[int]int{}
	for _, p := range x.Po {
		next[p[0]] = p[1]
	}
	var out [][2]int
	for _, e := range x.Events {
		if !keep[e.ID] {
			continue
		}
		for n, ok := next[e.ID]; ok; n, ok = next[n] {
			if keep[n] {
				out = append(out, [2]int{e.ID, n})
				break
			}
		}
	}
	return out
}
