package batch

import (
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/result"
)

// Disagreement is what the two engines answered differently on one test
// (Options.Engine "both").
type Disagreement struct {
	Enum, SMT *result.Result
	// What says how they differ: the verdicts, the observations, or the
	// final states only one of them reached.
	What string
}

func (d *Disagreement) Error() string {
	return fmt.Sprintf("%s: the engines disagree on %s: %s", d.Enum.File, d.Enum.Name, d.What)
}

// runBoth checks t under both engines, each with the whole per-test time
// limit, and compares their answers; when the explicit engine reaches a
// limit on a model the graph engine decides, the graph engine's answer
// is compared in its place. When both reach a verdict and agree,
// the result is the explicit engine's (it counts executions as herd7
// does), with the time of both; when they disagree, the disagreement
// says how.
//
// When one engine stops at a limit (time, memory, a case it does not
// handle) and the other answers, the result is the answer found, with
// Unconfirmed naming the engine that did not finish: a user who waited
// for the run wants the verdict, and the exit status (3) still says that
// no cross-check happened. When neither answers, or one fails on an
// error of the test, the result is that one's; a run stopped by a signal
// does not start the second engine.
func runBoth(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) (*result.Result, *Disagreement) {
	one := func(eng string) *result.Result {
		run := opts.engine(eng)
		r := within(ctx, opts.Timeout, t, func(c context.Context) *result.Result {
			return run(c, t, m, name, tags, opts)
		})
		result.Unchunk(r, t)
		return r
	}
	e := one("enum")
	if e.Status != result.Done && limited(e) && graph.Decides(m, name) {
		// The explicit enumeration, herd7's, reached a limit (it is
		// exponential in the reads): the engine on execution graphs
		// explores the same executions, once each, and is compared
		// with the SMT engine in its place.
		if g := one("graph"); g.Status == result.Done {
			e = g
		}
	}
	if e.Status != result.Done && !StoppedAtLimit(e) || ctx.Err() != nil {
		return e, nil
	}
	s := one("smt")
	switch {
	case e.Status == result.Done && s.Status == result.Done:
	case e.Status == result.Done && StoppedAtLimit(s) && ctx.Err() == nil:
		return Unconfirmed(e, s, "smt"), nil
	case s.Status == result.Done && StoppedAtLimit(e):
		return Unconfirmed(s, e, engineName(e, "enum")), nil
	case e.Status != result.Done:
		return e, nil
	default:
		return s, nil
	}
	if what := Compare(e, s); what != "" {
		return e, &Disagreement{Enum: e, SMT: s, What: what}
	}
	r := *e
	r.Engine = "both"
	r.Time = e.Time + s.Time
	return &r, nil
}

// StoppedAtLimit tells whether r is no verdict because its engine
// stopped at a limit (limited) or refused the case (Unsupported,
// MemoryLimit), not because the test is wrong.
func StoppedAtLimit(r *result.Result) bool {
	return limited(r) || r.Status == result.Unsupported || r.Status == result.MemoryLimit
}

// engineName is r's engine, or dflt when r does not say.
func engineName(r *result.Result, dflt string) string {
	if r.Engine != "" {
		return r.Engine
	}
	return dflt
}

// Unconfirmed is the answer a, the other engine's b (engine bEngine)
// having stopped at a limit: a's verdict, marked as not cross-checked
// (Result.Unconfirmed), with the time of both.
func Unconfirmed(a, b *result.Result, bEngine string) *result.Result {
	r := *a
	r.Unconfirmed = bEngine + ": " + b.Status.String()
	if b.Status == result.Failed && b.Err != nil {
		r.Unconfirmed = bEngine + ": " + b.Err.Error()
	}
	if b.Status == result.Timeout && b.Limit > 0 {
		r.Unconfirmed += fmt.Sprintf(" (limit %v)", b.Limit)
	}
	r.Time = a.Time + b.Time
	return &r
}

// limited tells whether r stopped at a limit (time, memory) rather than
// at an error of the test.
func limited(r *result.Result) bool {
	return r.Status == result.Timeout || r.Status == result.Failed && errors.Is(r.Err, result.ErrLimit)
}

// Compare tells how two verdicts on one test differ ("" when they agree):
// by their Ok/No, by their observation (Always, Sometimes, Never), and by
// their final states when both list them, then by the flags they raise.
func Compare(a, b *result.Result) string {
	verdict := func(r *result.Result) string {
		if r.Ok() {
			return "Ok"
		}
		return "No"
	}
	if a.Ok() != b.Ok() {
		return fmt.Sprintf("%s says %s, %s says %s", a.Engine, verdict(a), b.Engine, verdict(b))
	}
	if a.Observation() != b.Observation() {
		return fmt.Sprintf("%s observes %s, %s observes %s", a.Engine, a.Observation(), b.Engine, b.Observation())
	}
	if a.StatesOmitted || b.StatesOmitted {
		return ""
	}
	lines := func(r *result.Result) map[string]bool {
		m := map[string]bool{}
		for _, s := range r.States {
			m[stateLine(r, s)] = true
		}
		return m
	}
	la, lb := lines(a), lines(b)
	only := func(x, y map[string]bool, r *result.Result) []string {
		var out []string
		for _, s := range r.States {
			if l := stateLine(r, s); x[l] && !y[l] {
				out = append(out, l)
			}
		}
		return out
	}
	oa, ob := only(la, lb, a), only(lb, la, b)
	if len(oa) == 0 && len(ob) == 0 {
		if fa, fb := strings.Join(a.Flags, ","), strings.Join(b.Flags, ","); fa != fb {
			return fmt.Sprintf("same verdict (%s) and states but different flags: %s raises [%s], %s raises [%s]", verdict(a), a.Engine, fa, b.Engine, fb)
		}
		return ""
	}
	var parts []string
	if len(oa) > 0 {
		parts = append(parts, fmt.Sprintf("only %s reaches %s", a.Engine, strings.Join(oa, " | ")))
	}
	if len(ob) > 0 {
		parts = append(parts, fmt.Sprintf("only %s reaches %s", b.Engine, strings.Join(ob, " | ")))
	}
	return fmt.Sprintf("same verdict (%s) but different final states: %s", verdict(a), strings.Join(parts, "; "))
}

// stateLine prints a state as herd does, with its refs sorted, so that
// two engines' states compare whatever the order of their refs.
func stateLine(r *result.Result, s result.State) string {
	refs := result.SortRefs(r.Observed)
	pos := map[spec.Ref]int{}
	for i, ref := range r.Observed {
		pos[ref] = i
	}
	var b strings.Builder
	for _, ref := range refs {
		fmt.Fprintf(&b, "%s=%s; ", ref, s[pos[ref]])
	}
	return strings.TrimRight(b.String(), " ")
}
