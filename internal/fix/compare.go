package fix

import (
	"context"
	"time"

	"github.com/musket-verify/musket/internal/porthos"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// CompareOutcome is the answer of RepairInclusion.
type CompareOutcome struct {
	*Outcome
	// Subject is the target program the fix patches (for PatchDiff).
	Subject Subject
	// States are the target-only states found, which the fix forbids.
	States int
	// Rounds counts the inclusion checks.
	Rounds int
}

// RepairInclusion is musket compare -fix: it finds stronger memory orders
// of least cost for the target side of a .pts program so that every state
// it reaches under the target is reachable by the program as given under
// the source (the source side is not patched). Each inclusion check that
// fails gives target-only states; the target program must forbid every
// one of them, which is the repair of the condition "exists (one of those
// states)" (Repair); the patched program is checked for inclusion again,
// until it holds. The fix is of least cost: any repair forbids the states
// found, and the cheapest that does gives inclusion.
func RepairInclusion(ctx context.Context, file string, src []byte, source, target *porthos.Side, opts Options, maxChecks int) (*CompareOutcome, error) {
	start := time.Now()
	orig, err := pts.Parse(file, src)
	if err != nil {
		return nil, err
	}
	topts := opts
	topts.Target = target.Target
	topts.Model = target.ModelName
	sub, err := NewPts(file, src, topts)
	if err != nil {
		return nil, err
	}
	s := sub.(*ptsSubject)
	if s.opts.Engine == "auto" {
		s.opts.Engine = autoEngine(s.target)
	}
	out := &CompareOutcome{Outcome: &Outcome{Cands: s.cands, Correct: true}, Subject: s}
	var states []spec.Cond
	var fix []int
	for {
		out.Rounds++
		patched, err := pts.Parse(file, s.apply(fix).src)
		if err != nil {
			return nil, err
		}
		p, err := porthos.LoadPTSPair(file, orig, patched, source, target, opts.Bound)
		if err != nil {
			return nil, err
		}
		r := porthos.Check(ctx, p, source, target, porthos.Options{Bound: opts.Bound, All: true})
		switch r.Status {
		case porthos.Timeout:
			return nil, context.DeadlineExceeded
		case porthos.Failed:
			return nil, r.Err
		}
		if r.Holds {
			out.Fix = fix
			out.Cost = 0
			for _, c := range fix {
				out.Cost += s.cands[c].Cost
			}
			out.Correct = len(fix) == 0
			out.States = len(states)
			out.Time = time.Since(start)
			return out, nil
		}
		for _, st := range r.Missing {
			states = append(states, stateCond(r.Observed, st))
		}
		s.cond = anyOf(states)
		o, err := Repair(ctx, s, maxChecks)
		if err != nil {
			return nil, err
		}
		out.Checks += o.Checks
		out.Witnesses += o.Witnesses
		if o.NoFix {
			out.NoFix, out.Correct, out.States = true, false, len(states)
			out.Time = time.Since(start)
			return out, nil
		}
		fix = o.Fix
	}
}

// stateCond is the condition "the final state is st".
func stateCond(refs []spec.Ref, st result.State) spec.Cond {
	var c spec.Cond = spec.Bool{V: true}
	for i, r := range refs {
		if i >= len(st) {
			break
		}
		a := spec.Atom{Ref: r, Val: st[i]}
		if i == 0 {
			c = a
		} else {
			c = spec.And{L: c, R: a}
		}
	}
	return c
}

func anyOf(cs []spec.Cond) spec.Cond {
	var c spec.Cond = spec.Bool{V: false}
	for i, x := range cs {
		if i == 0 {
			c = x
		} else {
			c = spec.Or{L: c, R: x}
		}
	}
	return c
}

// autoEngine is the engine of compare -fix's repair loop by target, as
// measured on the corpus' mutex programs (bound 1): the explicit engine's
// many witnesses a check win on Power (Lamport: 45 checks, 6 s of CPU;
// the SMT loop ran out of 500 s), the SMT engine wins on x86 and ARMv7
// (Lamport to TSO 33 checks in 3 s, Szymanski 26 in 2.4 s, Lamport to
// ARMv7 244 in 40 s; the explicit engine ran out of 300 s on each).
func autoEngine(target string) string {
	switch target {
	case "x86", "armv7":
		return "smt"
	}
	return "enum"
}
