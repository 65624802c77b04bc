package param

// The forward decision of a system with number_procs N.
//
// With "number_procs N" the processes are #1 ... #N: the instances are
// finite, and the backward search only ever considers cubes of at most
// N processes (cube.go). A backward search that does not end (Cubicle's
// tests/cubicle/dekker2.cub, lamport3.cub: weak memory, and cubes that
// grow with the events of the store buffers) can then be replaced by a
// complete forward exploration of those instances, when that
// exploration is exact. Verify tries it after instanceFirstNodes
// visited cubes without a verdict.
//
// An instance with more states than the budget is not decided SAFE, but
// is hunted depth first for an unsafe state (hunt.go), which is an
// UNSAFE answer (Cubicle-W's tests/cubicle/lamport4us.cub: four threads
// in the critical section at once through their store buffers).
//
// The answer is the backward search's: an unsafe state of an instance
// of n <= N processes is one the search reaches (it explores every
// instance of at most N processes, and its approximation of a
// forall_other guard, on the processes of the cube only, only adds
// paths); SAFE needs every instance from the smallest (init's
// parameters, the process constants) up to N explored completely and
// exactly, and no forall_other or exists_other guard (on which the
// search, as Cubicle, may find an UNSAFE that no instance has).
//
// The explorer (wexplore.go) is exact unless it sets its inexact flag,
// which this decision checks: a write beyond the bound of the store
// buffers (the step is left out), a value past int64 or out of the
// instance, a nondeterministic write of a number or process (it takes a
// few values), an initial cell init does not fix and the explorer does
// not enumerate (a number, a value of an abstract type, or finite cells
// past the combinations it enumerates; two free proc cells, which may
// hold two different processes outside the instance where the explorer
// has one). Real numbers have no explorer. Every state the explorer
// reaches is a state of the instance either way, so an unsafe state is
// an UNSAFE whatever the flag says.

import (
	"context"
	"fmt"
	"strings"
	"time"
)

const (
	// instanceFirstNodes: the visited cubes after which a system with
	// number_procs is decided forward (above the budgets of the
	// search's own first phases, weakPlainNodes and shallowNodes, so
	// that a search that ends within it is the search without it)
	instanceFirstNodes = 1200
	// instanceStates bounds the states of each explored instance
	instanceStates = 400000
	// instanceBufCap: the writes a store buffer holds in the decision
	// (a step past it makes the exploration inexact)
	instanceBufCap = 4
	// instanceInitCombos: the combinations of free finite initial
	// cells enumerated
	instanceInitCombos = 1 << 12
)

// decideInstances explores the instances of sys with number_procs N
// under model, and returns the verdict when the exploration decides it
// (nil otherwise, with why).
func decideInstances(ctx context.Context, sys *System, model string) (res *Result, why string) {
	start := time.Now()
	if sys.NumberProcs <= 0 {
		return nil, "no number_procs"
	}
	for _, g := range sys.Globals {
		if g.Sort.Kind == SReal {
			return nil, "real numbers"
		}
	}
	universal := false
	for _, t := range sys.Trans {
		for _, cj := range t.Guard {
			universal = universal || len(cj.Foralls) > 0 || len(cj.Exists) > 0
		}
	}
	hi := int32(sys.NumberProcs)
	lo := max(1, sys.Pinned, int32(sys.InitArity))
	if lo > hi {
		// (init over more distinct processes than number_procs: no
		// instance to explore, and no SAFE from none)
		return nil, fmt.Sprintf("init needs %d processes, number_procs is %d", lo, hi)
	}
	exact := !universal
	if universal {
		why = "a forall_other or exists_other guard"
	}
	states := 0
	stop := func() bool { return ctx.Err() != nil }
	for n := lo; n <= hi; n++ {
		f := newExplorer(sys, n, modelOf(sys, model), instanceBufCap)
		f.allNondet, f.fixedFirst, f.noCompile = true, true, true
		f.initCombos = instanceInitCombos
		inits := f.initials(func(int) int64 { return 0 })
		smp := f.explore(stop, inits, instanceStates)
		states += len(smp.states)
		for i, st := range smp.states {
			if u := f.unsafe(st); u != 0 {
				return forwardUnsafe(smp, i, u, n, hi, states, start), ""
			}
		}
		if !smp.complete && !stop() {
			// too many states breadth first: hunt for a deep bug
			// depth first (hunt.go), without keeping the states
			// explored breadth first
			smp.states, smp.parent, smp.step = nil, nil, nil
			h, at, u := f.hunt(stop, inits, instanceStates)
			states += len(h.states)
			if u != 0 {
				return forwardUnsafe(h, at, u, n, hi, states, start), ""
			}
		}
		switch {
		case stop():
			return nil, "stopped"
		case !smp.complete:
			return nil, fmt.Sprintf("the instance with %d processes has more than %d states (and no unsafe state among %d explored depth first)", n, instanceStates, instanceStates)
		case f.inexact && exact:
			exact = false
			why = fmt.Sprintf("the exploration of the instance with %d processes is not exact (store buffers of %d writes, a number or process left free, or a value past int64)", n, instanceBufCap)
		}
	}
	if !exact {
		return nil, why
	}
	res = &Result{Verdict: Safe, Time: time.Since(start), Forward: true}
	res.Note = fmt.Sprintf("decided forward: the instances with %d to %d processes (number_procs %d), explored completely and exactly (%d states), reach no unsafe state", lo, hi, hi, states)
	return res, ""
}

// forwardUnsafe is the UNSAFE answer of an explored state i of the
// instance with n processes that satisfies unsafe formula u: its trace
// is the path to it.
func forwardUnsafe(smp *sampled, i, u int, n, hi int32, states int, start time.Time) *Result {
	res := &Result{Verdict: Unsafe, Root: u, Time: time.Since(start), Forward: true}
	var steps []string
	for _, s := range smp.path(i) {
		steps = append(steps, s.String())
		if s.t != nil {
			res.Trace = append(res.Trace, Step{Trans: s.t.Name, Args: s.args})
		}
	}
	res.Note = fmt.Sprintf("decided forward: the instance with %d processes (number_procs %d) reaches unsafe[%d] after %s (%d states explored)", n, hi, u, strings.Join(steps, " -> "), states)
	return res
}
