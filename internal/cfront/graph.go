package cfront

import (
	"context"
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// checkGraph answers the questions of CheckProgram with the graph engine
// (package graph) in one exploration: the execution graphs are explored
// until one fails an assertion; when none does, the same exploration
// tells whether one reached the unroller's cut (BOUND) and, with
// -liveness, whether one is a livelock. q asks whether an assertion
// fails.
func checkGraph(ctx context.Context, res *Result, p *Program, q *spec.Test, tags []string, opts CheckOptions) *Result {
	if !graph.Supported(opts.ModelName) {
		res.Verdict = Unknown
		res.Result = &result.Result{File: q.File, Name: q.Name, Model: opts.ModelName, Engine: "graph", Status: result.Unsupported,
			Err: fmt.Errorf("the graph engine decides %s; %s is left to the SMT engine (-engine smt)", graph.SupportedModels(), opts.ModelName)}
		return res
	}
	if hasParts(q) {
		// A failure that tears a mixed-size access is no verdict under
		// the models the graph engine decides (tearing.go): the SMT
		// engine's check of its witness says which it is.
		res.Verdict = Unknown
		res.Result = &result.Result{File: q.File, Name: q.Name, Model: opts.ModelName, Engine: "graph", Status: result.Unsupported,
			Err: fmt.Errorf("the graph engine does not decide programs with mixed-size accesses; they are left to the SMT engine (-engine smt)")}
		return res
	}
	also := []spec.Cond{p.cutCond()}
	if opts.Liveness {
		also = append(also, p.livelock())
	}
	// The refs of the further conditions are observed, so that their
	// witnesses' final states give them (stuckAt reads them).
	seen := map[spec.Ref]bool{}
	for _, c := range also {
		for _, ref := range spec.Refs(c) {
			if !seen[ref] {
				seen[ref] = true
				q.Locations = append(q.Locations, ref)
			}
		}
	}
	o := graph.Options{Variants: opts.Variants, TagNames: tags,
		FlagWitnesses: opts.Races, NoFlags: !opts.Races, StopAtFirst: true, Also: also, BlockedReg: blockedReg,
		SpinReg: spinReg, NoSpinPrune: opts.Liveness || opts.GraphNoPrune, CrossCheck: opts.GraphCrossCheck}
	if opts.Races {
		// Explore until both an assertion's failure and a race are met
		// (or to the end), to report both when the program has both.
		o.AwaitFlag = IsRaceFlag
	}
	if !opts.Liveness {
		// A thread's start and a join wait for their flag (written once,
		// by the parent's create and the child's end) rather than read
		// its initial value and stop: the executions in which a thread
		// stops there are prefixes of executions in which it waits
		// (-liveness looks at where threads stop: there, they stop).
		o.Await = func(loc string) bool {
			return strings.HasPrefix(loc, "%start.") || strings.HasPrefix(loc, "%done.")
		}
	}
	r, st := graph.Run(ctx, q, opts.Model, opts.ModelName, o)
	r.CountsOmitted = true
	res.Result = r
	res.Graph = &st
	switch {
	case r.Status != result.Done:
		res.Verdict = Unknown
	case raceFlag(opts, r) != "":
		if r.Positive > 0 {
			res.Failed = failedAssertion(p, r)
		}
		res.raceOf(r, raceFlag(opts, r), opts, tags)
	case r.Positive > 0:
		res.Verdict = Violation
		res.Failed = failedAssertion(p, r)
	default:
		switch {
		case st.Also[0] != nil:
			res.Verdict = BoundHit
			r.Witness = st.Also[0]
		case opts.Liveness && st.Also[1] != nil:
			res.Verdict = Livelock
			r.Witness = st.Also[1]
			res.Failed = p.stuckAt(r)
		default:
			res.Verdict = Safe
			r.Witness = nil
		}
	}
	return res
}
