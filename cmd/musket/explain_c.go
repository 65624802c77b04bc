package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

// explainC writes why a C check answered as it did (check -explain), in
// C terms: for FAIL, RACE, LIVELOCK and BOUND the execution that shows
// it, thread by thread with source lines and where each read reads
// from; for PASS each candidate execution in which an assertion fails
// and the model's check that rejects it, with its cycle edge by edge.
func explainC(w io.Writer, r *cfront.Result) {
	switch r.Verdict {
	case cfront.Violation:
		what := "an assertion fails"
		if r.Failed != nil {
			what = r.Failed.Failure()
		}
		fmt.Fprintf(w, "Explain %s: %s in this execution, which the model accepts:\n", r.Name, what)
	case cfront.Race:
		if rp := r.RacePair; rp != nil {
			fmt.Fprintf(w, "Explain %s: data race in this execution, which the model accepts: %s (event %s) and %s (event %s) conflict, one is plain, and happens-before orders neither\n",
				r.Name, rp[0], eventName(r, rp[0].Event), rp[1], eventName(r, rp[1].Event))
		} else {
			fmt.Fprintf(w, "Explain %s: this execution, which the model accepts, raises %s\n", r.Name, r.RaceFlag)
		}
		if r.Failed != nil {
			fmt.Fprintf(w, "  (also: %s in another execution)\n", r.Failed.Failure())
		}
	case cfront.Livelock:
		fmt.Fprintf(w, "Explain %s: in this fair execution a thread waits forever:\n", r.Name)
	case cfront.BoundHit:
		fmt.Fprintf(w, "Explain %s: this execution reaches the unrolling bound:\n", r.Name)
	case cfront.Safe:
		explainCSafe(w, r)
		return
	default:
		return
	}
	writeTrace(w, cfront.AnnotateWitness(r))
	fmt.Fprintln(w)
}

// eventName is the short name of witness event id ("t").
func eventName(r *cfront.Result, id int) string {
	if r.Result == nil || r.Result.Witness == nil {
		return fmt.Sprint(id)
	}
	for _, e := range r.Result.Witness.Events {
		if e.ID == id {
			if i := strings.IndexByte(e.Label, ':'); i > 0 {
				return e.Label[:i]
			}
		}
	}
	return fmt.Sprint(id)
}

// writeTrace writes an execution thread by thread: each event in
// program order, a read with the write it reads from, and the order of
// the writes to each location written more than once.
func writeTrace(w io.Writer, x *result.Execution) {
	if x == nil {
		return
	}
	label := map[int]string{}
	thread := map[int]int{}
	for _, e := range x.Events {
		label[e.ID], thread[e.ID] = e.Label, e.Thread
	}
	short := func(id int) string {
		l := label[id]
		if i := strings.IndexByte(l, ':'); i > 0 {
			l = l[:i]
		}
		if thread[id] < 0 {
			return l + " (initial value)"
		}
		return fmt.Sprintf("%s (P%d)", l, thread[id])
	}
	from := map[int]int{}
	for _, p := range x.Rf {
		from[p[1]] = p[0]
	}
	cur := -2
	for _, e := range x.Events {
		if e.Thread < 0 {
			continue
		}
		if e.Thread != cur {
			cur = e.Thread
			fmt.Fprintf(w, "  P%d:\n", cur)
		}
		line := "    " + e.Label
		if wr, ok := from[e.ID]; ok {
			line += "   reads from " + short(wr)
		}
		fmt.Fprintln(w, line)
	}
	// Coherence, where a location has writes of the program.
	succ := map[int]int{}
	pred := map[int]bool{}
	for _, p := range x.Co {
		succ[p[0]] = p[1]
		pred[p[1]] = true
	}
	var chains []string
	for _, e := range x.Events {
		if pred[e.ID] {
			continue
		}
		if _, ok := succ[e.ID]; !ok {
			continue
		}
		var names []string
		for id, n := e.ID, 0; n < len(x.Events); n++ {
			names = append(names, short(id))
			next, ok := succ[id]
			if !ok {
				break
			}
			id = next
		}
		if len(names) > 2 || len(names) == 2 && thread[e.ID] >= 0 {
			chains = append(chains, strings.Join(names, " < "))
		}
	}
	sort.Strings(chains)
	for _, c := range chains {
		fmt.Fprintf(w, "  co: %s\n", c)
	}
}

// explainCSafe writes why no assertion can fail: the candidates.
func explainCSafe(w io.Writer, r *cfront.Result) {
	ex := r.Explain
	if ex == nil {
		why := r.ExplainErr
		if why == "" {
			why = "no explanation"
		}
		fmt.Fprintf(w, "Explain %s: no execution the model accepts fails an assertion (%s)\n\n", r.Name, why)
		return
	}
	switch ex.Candidates {
	case 0:
		fmt.Fprintf(w, "Explain %s: no candidate execution fails an assertion, whatever the model\n", r.Name)
	case 1:
		fmt.Fprintf(w, "Explain %s: the model rejects the one candidate execution in which an assertion fails\n", r.Name)
	default:
		fmt.Fprintf(w, "Explain %s: the model rejects each of the %d candidate executions in which an assertion fails\n", r.Name, ex.Candidates)
	}
	for i, rj := range ex.Rejected {
		x := r.Annotate(rj.Execution)
		fmt.Fprintf(w, "  candidate %d fails %s\n", i+1, checkWords(rj.Reason))
		if len(rj.Reason.Steps) > 0 {
			kind := "pair"
			if s := rj.Reason.Steps; s[0].From == s[len(s)-1].To {
				kind = "cycle"
			}
			fmt.Fprintf(w, "    %s: %s\n", kind, report.Path(x, rj.Reason.Steps))
			fmt.Fprintf(w, "    = %s\n", report.Rels(rj.Reason.Steps))
		}
		for _, p := range rj.Reason.Also {
			fmt.Fprintf(w, "    where: %s\n", report.Path(x, p))
		}
	}
	if n := ex.Candidates - len(ex.Rejected); n > 0 {
		fmt.Fprintf(w, "  (%d more candidate executions not shown)\n", n)
	}
	fmt.Fprintln(w)
}

// checkWords names a failed check: "coherence (irreflexive hb ; eco?)".
func checkWords(r *result.Reason) string {
	if r == nil {
		return "a check"
	}
	if r.Test == "" || r.Test == r.Check {
		return r.Check
	}
	return r.Check + " (" + r.Test + ")"
}
