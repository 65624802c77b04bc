package param

import (
	"context"
	"fmt"
	"time"
)

// This file is the check of an UNSAFE answer on a weak-memory system:
// a parameterized verdict is a proof, so an UNSAFE whose trace no finite
// instance follows must not be printed.
//
// The backward search of a weak system (model.go, preimage.go) forgets,
// in its default mode, which write a satisfied read read from. So a write
// of the reader to that location, added by a later pre-image (an earlier
// transition of the reader), is not ordered co-before that source
// (coherence write-read, CoWR): such a cube stands for more executions
// than TSO allows. That is an over-approximation, so SAFE stays a proof,
// but an UNSAFE may be spurious: Peterson's algorithm for two processes
// with fences before its reads was UNSAFE (issue #31).
//
// Verify therefore checks every UNSAFE of a weak system:
//  1. its trace is replayed forward on the finite instance whose
//     processes it names (replayTrace, selfcheck.go); under TSO the order
//     of a backward trace need not be an order in time, so
//  2. if it does not replay in its order, the instances with as many
//     processes as the trace names, up to 4, are explored breadth-first
//     (unsafeInstance: the one explorer, wexplore.go, with store buffers
//     of a few writes, an under-approximation): a bad state found is a
//     real counterexample and UNSAFE stands;
//  3. otherwise the search runs again in the precise mode (Options.precise)
//     within what is left of the time limit. Its SAFE is the answer; its
//     UNSAFE is checked as in 1 and 2; an UNSAFE that fails again gives
//     the verdict Unconfirmed (no answer, exit status 3).
//
// A trace through a transition with a forall_other guard may fail to
// replay because of Cubicle's approximation of such guards (checked on
// the processes of the cube only: selfcheck.go), which Musket keeps on
// every system, weak or not: such an UNSAFE stands (with a note) when
// the precise search does not prove SAFE.
//
// The precise mode only runs after such a failure: its cubes carry more
// state and are subsumed less often (corpus file lamport_N.cub needs 30
// nodes without it and does not close within 30 s with it), so the
// systems whose UNSAFE answers are confirmed, and every SAFE one, keep
// the speed and the node counts of the default mode.
//
// Soundness of the precise mode (its SAFE is a proof). When the pre-image
// satisfies a read r of process P by a write node W of another process
// (the new node of an earlier transition), W records r (Node.ReadBy).
// Every execution that the cube stands for has r read-from W. Under TSO
// (and PSO) a write w of P to r's location that is program-order before
// r has left P's store buffer when r executes: otherwise r would read
// from P's own buffer (the latest such write), not from W. Since r reads
// W from memory, W is the last write to the location in memory at that
// time, so w is coherence-before W. edgesFrom (model.go) adds that edge,
// w co-before W, when a later pre-image adds w: every concrete execution
// of the cube satisfies it, so the pre-image still holds every concrete
// predecessor and the search still over-approximates the backward
// reachable states. Subsumption (subsume.go) matches a visited cube's
// ReadBy entries among the new cube's: a cube that records more readers
// has more constraints on its predecessors, so it stands for fewer
// executions, and it may be dropped only under a visited cube that
// records no more readers than it does. Hence a SAFE from the precise
// mode is, as from the default mode, a closed set of cubes that the
// initial states do not meet and that covers every backward reachable
// state: a proof.
//
// Fresh sources. A write records its readers only when its process is
// one the cube named before the step (preimage.go); a write of a
// process the step brings in records none. Recording fewer readers only
// leaves out CoWR edges, so the cube stands for more executions and the
// argument above holds unchanged (a SAFE is still a proof); the precise
// mode is then less precise only for a reader whose source is a fresh
// process. Without this, a chain of fresh processes each reading from
// the next (lamport_N.cub: process k reads X from the write of process
// k+1, the pre-image of its loop) gave every cube one more reader, and
// no visited cube's readers matched the longer chain's ends: 109 nodes
// with 12 events a cube on average (4.8 in the default mode) and no
// verdict in 40 s; now 30 nodes, SAFE, as in the default mode
// (TestPreciseCorpus). The traces the precise mode is for (Peterson
// with fences, TestRefineUnsafe) read between processes that the unsafe
// formula names from the start.

// confirmStates bounds the states of one instance in the check of an
// UNSAFE answer: a quarter of the cross-check's (cmd/musket's
// selfCheckStates), as this check runs on every weak UNSAFE whose trace
// does not replay in its order; the exploration is breadth-first, so a
// bad state near the initial ones is found within it.
const confirmStates = 50000

// Verify runs the backward reachability analysis of sys. On a weak
// system, an UNSAFE answer is checked on finite instances, and the search
// runs again in its precise mode when no instance confirms it (see the
// top of refine.go).
//
// A system with number_procs that the search does not decide within
// instanceFirstNodes visited cubes is decided by exploring its instances
// forward when that exploration is complete and exact (instdecide.go);
// otherwise the search starts again without that bound.
func Verify(ctx context.Context, sys *System, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	if sys.NumberProcs <= 0 || opts.NoInstances || opts.MaxNodes > 0 && opts.MaxNodes <= instanceFirstNodes {
		return verifyBackward(ctx, sys, opts, start)
	}
	o := opts
	o.MaxNodes = instanceFirstNodes
	first, err := verifyBackward(ctx, sys, o, start)
	if err != nil || first.Verdict != NodeLimit {
		return first, err
	}
	d, why := decideInstances(ctx, sys, opts.Model)
	if d != nil {
		d.Visited, d.Popped, d.Solver, d.Guesses, d.Restarts = first.Visited, first.Popped, first.Solver, first.Guesses, first.Restarts
		d.Note = fmt.Sprintf("no verdict after %d cubes; %s", first.Visited, d.Note)
		d.Time = time.Since(start)
		return d, nil
	}
	if ctx.Err() != nil {
		first.Verdict = Timeout
		return first, nil
	}
	res, err := verifyBackward(ctx, sys, opts, start)
	if err != nil {
		return nil, err
	}
	res.Visited += first.Visited
	res.Popped += first.Popped
	res.Solver += first.Solver
	if res.Note == "" {
		res.Note = fmt.Sprintf("no verdict after %d cubes, and no forward decision of the instances (%s): searched again", first.Visited, why)
	}
	return res, nil
}

// verifyBackward is Verify without the forward decision.
func verifyBackward(ctx context.Context, sys *System, opts Options, start time.Time) (*Result, error) {
	res, err := search(ctx, sys, opts)
	if err != nil || res.Verdict != Unsafe || !sys.Weak || opts.precise {
		return res, err
	}
	ok, why := confirmUnsafe(ctx, sys, res, opts.Model)
	if ok {
		res.Note = why
		return res, nil
	}
	first := res
	// Cubicle's approximation of a forall_other guard (checked on the
	// processes of the cube only, see selfcheck.go) may explain why no
	// instance follows the trace: such an UNSAFE stands as on every
	// system, weak or not, unless the precise search proves SAFE
	univ := universalStep(sys, first)
	cubicleUnsafe := func(note string) (*Result, error) {
		first.Note = fmt.Sprintf("no finite instance confirms the trace (%s); it takes %s, whose forall_other guard the backward search only checks on the processes of the cube, as Cubicle does%s", why, univ, note)
		return first, nil
	}
	if ctx.Err() != nil {
		if univ != "" {
			return cubicleUnsafe("")
		}
		res.Verdict = Timeout
		res.Note = "the search found an UNSAFE trace, but the time limit ended its check on finite instances"
		return res, nil
	}
	opts.precise = true
	res, err = search(ctx, sys, opts)
	if err != nil {
		return nil, err
	}
	res.Visited += first.Visited
	res.Popped += first.Popped
	res.Solver += first.Solver
	res.Semantic += first.Semantic
	res.Guesses += first.Guesses
	res.Restarts += first.Restarts
	res.Backtracks += first.Backtracks
	res.Deleted += first.Deleted
	res.undecided += first.undecided
	res.Time = time.Since(start)
	res.Precise = true
	res.Note = fmt.Sprintf("no finite instance confirms the trace %s of the first search (%s): searched again in the precise mode, each write remembering the reads of other processes from it (%d nodes in all)", first.TraceString(), why, res.Visited)
	switch {
	case res.Verdict == Safe:
		return res, nil
	case res.Verdict != Unsafe && univ != "":
		return cubicleUnsafe(fmt.Sprintf("; the precise search stopped: %s", res.Verdict))
	case res.Verdict != Unsafe:
		return res, nil
	}
	if ok, why2 := confirmUnsafe(ctx, sys, res, opts.Model); ok {
		if why2 != "" {
			res.Note += "; " + why2
		}
	} else if u := universalStep(sys, res); u != "" {
		res.Note += fmt.Sprintf("; no finite instance confirms its trace %s either (%s), which takes %s, whose forall_other guard the backward search only checks on the processes of the cube, as Cubicle does", res.TraceString(), why2, u)
	} else if ctx.Err() != nil {
		res.Verdict = Timeout
	} else {
		res.Verdict = Unconfirmed
		res.Note += fmt.Sprintf("; no finite instance confirms its trace %s either (%s)", res.TraceString(), why2)
	}
	return res, nil
}

// confirmUnsafe reports whether a finite instance of sys confirms the
// UNSAFE answer res: its trace replays forward, or an instance with as
// many processes as it names (up to 4) reaches an unsafe state (then
// note gives the path to it); if not, note says why. A system with real
// numbers has no explorer: nothing confirms its answers.
func confirmUnsafe(ctx context.Context, sys *System, res *Result, model string) (ok bool, note string) {
	if !weakExplorable(sys) {
		return false, "real numbers: no finite instance is explored"
	}
	stop := func() bool { return ctx.Err() != nil }
	ok, why, _ := replayTrace(sys, res, model, confirmStates, replayWords, stop)
	if ok {
		return true, ""
	}
	if n, path, found := unsafeInstance(sys, res, model, confirmStates, stop); found {
		return true, fmt.Sprintf("the trace does not replay in its order (%s); the instance with %d processes reaches an unsafe state%s", why, n, path)
	}
	return false, fmt.Sprintf("it does not replay (%s) and no instance with up to 4 processes reaches an unsafe state", why)
}
