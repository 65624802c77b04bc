package fix

import (
	"context"
	"fmt"
	"time"

	"github.com/musket-verify/musket/internal/enum"
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
	// Fallbacks counts the repair checks the explicit engine left to the
	// SMT engine (no witness within its budget).
	Fallbacks int

	file          string
	orig          *spec.Test
	source, targt *porthos.Side
	bound         int
	conds         []spec.Cond // the target-only states found, as conditions
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
	if s.opts.Engine == "enum" {
		s.budget = enumBudget
	}
	out := &CompareOutcome{Outcome: &Outcome{Cands: s.cands, Correct: true}, Subject: s,
		file: file, orig: orig, source: source, targt: target, bound: opts.Bound}
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
		out.conds = states
		o, err := Repair(ctx, s, maxChecks)
		if err != nil {
			return nil, err
		}
		out.Checks += o.Checks
		out.Witnesses += o.Witnesses
		out.Replays += o.Replays
		out.Revived += o.Revived
		out.Pruned += o.Pruned
		out.Fallbacks = s.fallbacks
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
// measured on the corpus' mutex programs (bound 1) once a stronger access
// is relevant only through the pairs its code orders: the explicit
// engine, with its budget and the SMT engine for the checks it finds no
// witness in, on every target but x86 (ARMv7: Lamport 6 checks and 10 s
// of CPU against the SMT loop's 46 and 18 s, Bakery 8 and 0.9 s against
// 48 and 3.4 s); on x86 the two are even (the explicit loop wins on
// Lamport and Bakery, the SMT loop on Szymanski, 8 s against 13) and the
// SMT loop stays.
func autoEngine(target string) string {
	if target == "x86" {
		return "smt"
	}
	return "enum"
}

// inclusion is one Porthos inclusion check (the SMT engine) of the target
// program patched with sel.
func (o *CompareOutcome) inclusion(ctx context.Context, sel []int) (*porthos.Result, error) {
	s := o.Subject.(*ptsSubject)
	patched, err := pts.Parse(o.file, s.apply(sel).src)
	if err != nil {
		return nil, fmt.Errorf("the patched program does not parse (a bug of musket compare -fix): %v", err)
	}
	p, err := porthos.LoadPTSPair(o.file, o.orig, patched, o.source, o.targt, o.bound)
	if err != nil {
		return nil, err
	}
	r := porthos.Check(ctx, p, o.source, o.targt, porthos.Options{Bound: o.bound})
	switch r.Status {
	case porthos.Timeout:
		return nil, context.DeadlineExceeded
	case porthos.Failed:
		return nil, r.Err
	}
	return r, nil
}

// Needed is the self-check of a compare -fix repair: for each change of
// the fix, the target program patched with the other changes must fail
// the inclusion again. That is so when it reaches one of the target-only
// states the loop found (a reachability check of the loop's engine), else
// the inclusion check of the SMT engine must find a state that is not a
// source state. It returns the changes without which inclusion still
// holds (never, for a cheapest fix with positive costs) and the number of
// reachability and inclusion checks.
func (o *CompareOutcome) Needed(ctx context.Context) (unneeded []int, checks, inclusions int, err error) {
	s := o.Subject.(*ptsSubject)
	s.cond = anyOf(o.conds)
	for k, c := range o.Fix {
		rest := make([]int, 0, len(o.Fix)-1)
		rest = append(rest, o.Fix[:k]...)
		rest = append(rest, o.Fix[k+1:]...)
		checks++
		bad, _, err := s.Check(ctx, rest)
		if err != nil {
			return nil, checks, inclusions, err
		}
		if bad {
			continue
		}
		inclusions++
		r, err := o.inclusion(ctx, rest)
		if err != nil {
			return nil, checks, inclusions, err
		}
		if r.Holds {
			unneeded = append(unneeded, c)
		}
	}
	return unneeded, checks, inclusions, nil
}

// Inclusion is the re-check of a compare -fix repair by the explicit
// engine (the loop's inclusion checks are the SMT engine's, Porthos'
// algorithm): every final state of the patched target program under the
// target model, listed by the explicit engine, must be one it lists for
// the program as given under the source model. It returns the target
// states that are not (none when inclusion holds), and the engine's
// status when it gave no answer (a time limit, a model it cannot run, or
// more than InclusionBudget candidate executions on a side: Err is then
// enum.ErrBudget).
func (o *CompareOutcome) Inclusion(ctx context.Context) (missing []result.State, status result.Status, err error) {
	s := o.Subject.(*ptsSubject)
	patched, err := pts.Parse(o.file, s.apply(o.Fix).src)
	if err != nil {
		return nil, result.Failed, err
	}
	p, err := porthos.LoadPTSPair(o.file, o.orig, patched, o.source, o.targt, o.bound)
	if err != nil {
		return nil, result.Failed, err
	}
	src := enum.Run(ctx, p.Source, o.source.Model, o.source.ModelName, enum.Options{Variants: o.source.Variants, TagNames: p.SourceTags, Bound: o.bound, MaxEvaluated: InclusionBudget})
	if src.Status != result.Done {
		return nil, src.Status, src.Err
	}
	tgt := enum.Run(ctx, p.Target, o.targt.Model, o.targt.ModelName, enum.Options{Variants: o.targt.Variants, TagNames: p.TargetTags, Bound: o.bound, MaxEvaluated: InclusionBudget})
	if tgt.Status != result.Done {
		return nil, tgt.Status, tgt.Err
	}
	have := map[string]bool{}
	for _, st := range src.States {
		have[st.Key()] = true
	}
	for _, st := range tgt.States {
		if !have[st.Key()] {
			missing = append(missing, st)
		}
	}
	return missing, result.Done, nil
}

// enumBudget is the explicit engine's budget of candidate executions in a
// repair check of compare -fix (see ptsSubject.budget).
const enumBudget = 20000

// InclusionBudget bounds the candidate executions the explicit engine
// evaluates on each side in the re-check of a compare -fix repair: it
// lists every state, which on the larger mutex protocols under Power
// (Lamport's) takes longer than the whole repair.
const InclusionBudget = 500000
