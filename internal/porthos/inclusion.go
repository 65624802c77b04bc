package porthos

import (
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"slices"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// Options tune an inclusion check.
type Options struct {
	// Bound is the loop unrolling bound (default 2).
	Bound int
	// All keeps asking the oracle after the first missing state and lists
	// every state reachable under the target and not under the source.
	All bool
	// Progress, when set, is called after each oracle iteration with the
	// number of iterations and of missing states so far.
	Progress func(iterations, missing int)

	eager bool // sessions with clocks for acyclicity (Check's fallback)
}

// Status is how a check ended.
type Status int

// The statuses of a Result.
const (
	Done    Status = iota // a verdict was reached
	Timeout               // the context's deadline came first
	Failed                // the check could not be done (see Err)
)

func (s Status) String() string {
	return [...]string{"done", "timeout", "failed"}[s]
}

// Result is the answer of Check.
type Result struct {
	File, Name     string
	Source, Target string // the sides, as target:model
	Bound          int
	Status         Status
	Err            error
	// Holds: every state reachable under the target is reachable under
	// the source (within the bound). Meaningful when Status is Done.
	Holds bool
	// Observed are the refs a state gives values to.
	Observed []spec.Ref
	// Missing are states reachable under the target and not under the
	// source, sorted: the first one found, or every one with Options.All.
	Missing []result.State
	// Witness is the target execution reaching the first missing state
	// found (its State).
	Witness *result.Execution
	// Iterations is the number of candidate states the oracle proposed.
	Iterations int
	// Bounded: some path was cut by the loop bound (and stopped there).
	Bounded bool
	// SameProgram: both sides ran one program.
	SameProgram bool
	// Notes are remarks on the encoding (recursive definitions left to
	// the relaxed encoding).
	Notes []string
	// Time is the whole check; Encode the building of both solvers;
	// Oracle and Reach the time in each solver's checks.
	Time, Encode, Oracle, Reach time.Duration
	// Stats is the size of the oracle's encoding.
	Stats bmc.Stats
}

// Check answers whether the states program p reaches under tgt are
// reachable under src (Algorithm 1 of
// "BMC with Memory Models as Modules" (FMCAD 2018) with the delta-execution
// oracle). Input errors (bad program, model that cannot be encoded) are
// in the result's Err with status Failed; a deadline gives Timeout.
func Check(ctx context.Context, p *Program, src, tgt *Side, opts Options) *Result {
	start := time.Now()
	if opts.Bound <= 0 {
		opts.Bound = 2
	}
	r := &Result{File: p.File, Name: p.Name, Source: src.String(), Target: tgt.String(), Bound: opts.Bound, SameProgram: p.Same}
	err := check(ctx, p, src, tgt, opts, r)
	if errors.Is(err, bmc.ErrGaveUp) && !opts.eager && ctx.Err() == nil {
		// Z3's SMT solver, which the lazy acyclicity needs, gave up:
		// again with clocks and the general-purpose solver.
		opts.eager = true
		r = &Result{File: p.File, Name: p.Name, Source: src.String(), Target: tgt.String(), Bound: opts.Bound, SameProgram: p.Same}
		err = check(ctx, p, src, tgt, opts, r)
	}
	r.Time = time.Since(start)
	switch {
	case err == nil:
		r.Status = Done
	case errors.Is(err, bmc.ErrTimeout) || ctx.Err() != nil:
		r.Status = Timeout
	default:
		r.Status = Failed
		r.Err = err
	}
	return r
}

func check(ctx context.Context, p *Program, src, tgt *Side, opts Options, r *Result) error {
	encStart := time.Now()
	ora, err := newOracle(ctx, p, src, tgt, opts.Bound, opts.eager)
	if err != nil {
		return err
	}
	defer closeSession(ctx, ora.s)
	rch, err := newReach(ctx, p, src, opts.Bound, opts.eager)
	if err != nil {
		return err
	}
	defer closeSession(ctx, rch.s)
	r.Encode = time.Since(encStart)
	r.Observed = ora.target.Observed()
	r.Bounded = p.Unrolled && (ora.target.Bounded() || rch.source.Bounded())
	r.Notes = ora.notes
	r.Stats = ora.s.Stats()
	if !slices.Equal(r.Observed, rch.source.Observed()) {
		return fmt.Errorf("the two programs observe different refs: %v and %v", r.Observed, rch.source.Observed())
	}
	defer func() {
		r.Oracle, r.Reach = ora.s.Solve, rch.s.Solve
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		st, w, ok, err := ora.next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		r.Iterations++
		reachable, err := rch.reachable(ctx, st)
		if err != nil {
			return err
		}
		if !reachable {
			r.Missing = append(r.Missing, st)
			if r.Witness == nil {
				r.Witness = w
			}
		}
		if opts.Progress != nil {
			opts.Progress(r.Iterations, len(r.Missing))
		}
		if !reachable && !opts.All {
			break
		}
	}
	r.Holds = len(r.Missing) == 0
	r.Missing = result.SortStates(r.Observed, r.Missing)
	return nil
}

// closeSession releases a session; after the deadline it does so in the
// background, as Z3 takes seconds to free a large encoding and the
// answer (a timeout) should not wait for it.
func closeSession(ctx context.Context, s *bmc.Session) {
	if ctx.Err() != nil {
		go s.Close()
		return
	}
	s.Close()
}
