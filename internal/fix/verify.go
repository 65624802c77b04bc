package fix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Verdict is the re-check of a repaired program by the ordinary checker
// (musket check's path: the file written out and read back), with the
// engine that was not the loop's.
type Verdict struct {
	Engine    string
	Reachable bool
	// Skipped says why the other engine gave no verdict ("" when it
	// did): the model uses what it cannot encode, a time limit, ...
	// Engine is then the loop's own engine, which checked the file
	// again instead (Reachable is its verdict).
	Skipped string
	// Other is the engine that gave no verdict (with Skipped).
	Other string
	// Bounded (C programs): no violation within the bound, but some
	// path needs more loop iterations than the bound (musket check's
	// BOUND): the repair holds within the bound only.
	Bounded bool
}

// Verify writes the input patched with fix to a temporary file and checks
// it as musket check would: a repair is printed only if this check finds
// the condition unreachable too. The check is by the engine the loop did
// not use, so that a repair never rests on one engine alone:
//   - a litmus test: the SMT engine for a test without loops (the loop
//     used the explicit one), the explicit engine for a test with loops;
//   - a .pts program: the explicit engine when the loop used the SMT
//     engine, and the other way round;
//   - a C program: the graph engine when it decides the model (sc, tso,
//     rc11, imm, ...) and the loop did not use it, else the explicit
//     engine after the SMT one, or the SMT engine after another.
//
// When the other engine gives no verdict (a model it cannot encode, a
// time limit), the loop's engine checks the written file instead and
// Verdict.Skipped says why.
func Verify(ctx context.Context, s Subject, fix []int, opts Options) (*Verdict, error) {
	dir, err := os.MkdirTemp("", "musket-fix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var path string
	var src []byte
	var loop, other string
	switch s := s.(type) {
	case *litmusSubject:
		path, src = filepath.Join(dir, filepath.Base(s.text.File)), s.apply(fix).src
		loop, other = "enum", "smt"
		if loopy(s.t) {
			loop, other = "smt", "enum"
		}
	case *ptsSubject:
		path, src = filepath.Join(dir, filepath.Base(s.text.File)), s.apply(fix).src
		loop, other = engineName(s.opts.Engine), "enum"
		if loop == "enum" {
			other = "smt"
		}
	case *cSubject:
		path, src = filepath.Join(dir, filepath.Base(s.text.File)), s.apply(fix).src
		loop = engineName(s.copts.Engine)
		switch {
		case loop != "graph" && graph.Supported(s.copts.ModelName):
			other = "graph"
		case loop == "smt":
			other = "enum"
		default:
			other = "smt"
		}
	default:
		return nil, fmt.Errorf("no verifier for %T", s)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		return nil, err
	}
	v, err := recheck(ctx, s, path, other, opts)
	if err != nil || v.Skipped == "" {
		return v, err
	}
	if ctx.Err() != nil {
		// The time limit: nothing is left for another check.
		return nil, ctx.Err()
	}
	// The other engine gave no verdict: the loop's engine checks the
	// written file again (its parse and the whole program, not the
	// loop's in-memory patch).
	w, err := recheck(ctx, s, path, loop, opts)
	if err != nil {
		return nil, err
	}
	if w.Skipped != "" {
		return nil, fmt.Errorf("neither engine re-checked the repair: %s: %s; %s: %s", other, v.Skipped, loop, w.Skipped)
	}
	w.Skipped, w.Other = v.Skipped, other
	return w, nil
}

func engineName(e string) string {
	if e == "" || e == "auto" {
		return "smt"
	}
	return e
}

// recheck checks the patched file at path with one engine.
func recheck(ctx context.Context, s Subject, path, engine string, opts Options) (*Verdict, error) {
	var pr *bmc.ProgramResult
	var err error
	switch s := s.(type) {
	case *litmusSubject:
		pr, err = bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: opts.Model, IncludeDirs: opts.IncludeDirs, Bound: opts.Bound, Engine: engine})
	case *ptsSubject:
		if engine == "enum" {
			return recheckPtsEnum(ctx, s, path, opts)
		}
		pr, err = bmc.CheckProgram(ctx, path, s.m, s.mname, bmc.ProgramOptions{Target: s.target, Bound: opts.Bound, Engine: engine})
	case *cSubject:
		co := s.copts
		co.Engine = engine
		r, err := cfront.Check(ctx, path, co)
		if err != nil {
			return nil, err
		}
		v := &Verdict{Engine: engine, Reachable: r.Verdict == cfront.Violation || r.Verdict == cfront.Race, Bounded: r.Verdict == cfront.BoundHit}
		if r.Verdict == cfront.Unknown {
			v.Skipped = fmt.Sprintf("%v", r.Result.Status)
			if r.Result.Err != nil {
				v.Skipped += ": " + r.Result.Err.Error()
			}
		}
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	v := &Verdict{Engine: engine, Reachable: pr.Reachable}
	if pr.Result.Status != result.Done {
		v.Skipped = fmt.Sprintf("%v", pr.Result.Status)
		if pr.Result.Err != nil {
			v.Skipped += ": " + pr.Result.Err.Error()
		}
	}
	return v, nil
}

// RecheckBudget bounds the candidate executions the explicit engine
// evaluates when it re-checks a repaired .pts program (proving a
// condition unreachable means evaluating every execution, which on the
// larger mutex protocols takes far longer than the repair): past it the
// loop's engine re-checks the file instead, and the output says so.
const RecheckBudget = 2000000

// recheckPtsEnum is the explicit engine's check of a .pts file, as musket
// check -engine enum runs it, within RecheckBudget.
func recheckPtsEnum(ctx context.Context, s *ptsSubject, path string, opts Options) (*Verdict, error) {
	t, tags, err := bmc.PrepareProgram(path, s.target, opts.Bound)
	if err != nil {
		return nil, err
	}
	q := *t
	if t.Quant == spec.Forall {
		q.Cond, q.Quant = spec.Not{C: t.Cond}, spec.Exists
	}
	r := enum.Run(ctx, &q, s.m, s.mname, enum.Options{TagNames: tags, Bound: opts.Bound, SpeedCheck: enum.SpeedFast, MaxEvaluated: RecheckBudget})
	v := &Verdict{Engine: "enum", Reachable: r.Positive > 0}
	switch {
	case errors.Is(r.Err, enum.ErrBudget) && r.Positive == 0:
		v.Skipped = fmt.Sprintf("more than %d candidate executions", RecheckBudget)
	case errors.Is(r.Err, enum.ErrBudget):
	case r.Status != result.Done:
		v.Skipped = fmt.Sprintf("%v", r.Status)
		if r.Err != nil {
			v.Skipped += ": " + r.Err.Error()
		}
	}
	return v, nil
}
