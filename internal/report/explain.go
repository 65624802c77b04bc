package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/musket-verify/musket/internal/result"
)

// Explain writes r.Explain, when there is one, after the herd7 text of r:
// for a forbidden outcome, each rejected candidate execution that reaches
// it with the check that fails and its cycle, edge by edge; for an
// allowed one, the witness with its communication relations.
func Explain(w io.Writer, r *result.Result) {
	ex := r.Explain
	if ex == nil || r.Status != result.Done {
		return
	}
	if !ex.Forbidden {
		fmt.Fprintf(w, "Explain %s: the outcome is allowed: the model accepts this execution\n", r.Name)
		if x := r.Witness; x != nil {
			fmt.Fprintf(w, "  state: %s\n", StateLine(r, x.State))
			writeEdges(w, x, "rf", x.Rf)
			writeEdges(w, x, "co", x.Co)
			writeEdges(w, x, "fr", x.Fr)
		}
		fmt.Fprintln(w)
		return
	}
	switch ex.Candidates {
	case 0:
		fmt.Fprintf(w, "Explain %s: the outcome is forbidden: no candidate execution reaches it\n", r.Name)
	case 1:
		fmt.Fprintf(w, "Explain %s: the outcome is forbidden: the model rejects the one candidate execution that reaches it\n", r.Name)
	default:
		fmt.Fprintf(w, "Explain %s: the outcome is forbidden: the model rejects each of the %d candidate executions that reach it\n", r.Name, ex.Candidates)
	}
	for i, rj := range ex.Rejected {
		fmt.Fprintf(w, "  candidate %d: %s\n", i+1, StateLine(r, rj.Execution.State))
		fmt.Fprintf(w, "    fails %s\n", checkText(rj.Reason))
		if len(rj.Reason.Steps) > 0 {
			fmt.Fprintf(w, "    %s: %s\n", pathKind(rj.Reason), Path(rj.Execution, rj.Reason.Steps))
			fmt.Fprintf(w, "    = %s\n", Rels(rj.Reason.Steps))
		}
		for _, p := range rj.Reason.Also {
			fmt.Fprintf(w, "    where: %s\n", Path(rj.Execution, p))
		}
	}
	if n := ex.Candidates - len(ex.Rejected); n > 0 {
		fmt.Fprintf(w, "  (%d more candidate executions not shown)\n", n)
	}
	fmt.Fprintln(w)
}

// checkText names a failed check: "tso (acyclic ghb)".
func checkText(r *result.Reason) string {
	if r.Test == "" || r.Test == r.Check {
		return r.Check
	}
	return r.Check + " (" + r.Test + ")"
}

// pathKind says what the steps of a reason are.
func pathKind(r *result.Reason) string {
	if len(r.Steps) > 0 && r.Steps[0].From == r.Steps[len(r.Steps)-1].To {
		return "cycle"
	}
	return "pair"
}

// Path prints steps as a chain of events and relations:
// "a: W[x]=1 -po-> b: R[y]=0 -fr-> ...". A chain that returns to its first
// event ends with that event's name.
func Path(x *result.Execution, steps []result.Step) string {
	label := func(id int) string {
		for _, e := range x.Events {
			if e.ID == id {
				return e.Label
			}
		}
		return fmt.Sprint(id)
	}
	short := func(id int) string {
		l := label(id)
		if i := strings.IndexByte(l, ':'); i > 0 {
			return l[:i]
		}
		return l
	}
	var b strings.Builder
	for i, s := range steps {
		if i == 0 {
			b.WriteString(label(s.From))
		}
		fmt.Fprintf(&b, " -%s-> ", s.Rel)
		if i == len(steps)-1 && s.To == steps[0].From {
			b.WriteString(short(s.To))
		} else {
			b.WriteString(label(s.To))
		}
	}
	return b.String()
}

// Rels prints the relations of steps in order: "mfence; fr; mfence; fr".
func Rels(steps []result.Step) string {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.Rel
	}
	return strings.Join(names, "; ")
}

func writeEdges(w io.Writer, x *result.Execution, name string, pairs [][2]int) {
	for _, p := range pairs {
		fmt.Fprintf(w, "  %s\n", Path(x, []result.Step{{From: p[0], To: p[1], Rel: name}}))
	}
}
