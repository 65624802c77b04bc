package param

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// This file is the finite-instance cross-check of a verdict: an
// independent, forward look at the instances with a few processes.
//
//   - A SAFE verdict holds for every number of processes, so no state of
//     an instance may satisfy an unsafe formula. The instances with 2, 3
//     and 4 processes (those number_procs allows) are explored
//     breadth-first up to a state budget by the one explorer (explore.go,
//     wexplore.go) under the memory model of the search: sequential
//     consistency for systems without weak variables, TSO, or PSO
//     (-model pso), with store buffers of selfBufCap writes; a
//     nondeterministic value takes every value of a finite sort or a few
//     small numbers, a number that init leaves free takes a few small
//     values or values far apart. That is an under-approximation of the
//     reachable states, so a bad state found is a real counterexample to
//     SAFE; the path to it (transitions and flushes) is reported.
//   - An UNSAFE verdict names a trace; it is replayed forward on the
//     instance whose processes are the trace's: each step must be enabled
//     in some state reached so far (under TSO and PSO, after any flushes)
//     and some state after the last step (and flushes) must be unsafe.
//     The values a step leaves free are chosen first for the cells of
//     the variables, the process constants and the processes the trace
//     names (traceFocus, wfinite.focus): the other cells keep their
//     value, so that the replay on an instance of many processes still
//     follows a trace through updates without a default branch.
//     Under TSO and PSO the order of a backward trace need not be an order in time (the
//     events are partially ordered by ghb): when the trace does not
//     replay in its order, an instance that reaches an unsafe state
//     confirms the verdict (a note).
//
// An UNSAFE trace through a transition with a forall_other guard need not
// replay: the backward search checks such a guard on the processes of
// the cube only (MCMT's and Cubicle's approximation), so the trace may
// need the other processes to be absent while the unsafe formula needs
// them. That is reported as a note, not a disagreement.
//
// Systems with real numbers are not explored. Limit verdicts (timeout, ...) are not checked.

// selfBufCap is the capacity of the store buffers in the cross-check.
const selfBufCap = 3

// CrossCheck is the outcome of the finite-instance cross-check.
type CrossCheck struct {
	Instances []InstanceCheck
	Replayed  bool     // an UNSAFE trace was replayed forward
	Skipped   string   // why nothing was checked, if so
	Problems  []string // disagreements between the verdict and the instances
	Notes     []string // differences that Cubicle's approximations explain
}

// InstanceCheck is one explored instance.
type InstanceCheck struct {
	Procs    int
	States   int
	Complete bool // every reachable state (within the buffer bound) explored
	Bad      bool // an unsafe state was reached
}

// OK reports whether the cross-check found no disagreement.
func (c *CrossCheck) OK() bool { return len(c.Problems) == 0 }

func (c *CrossCheck) String() string {
	var b strings.Builder
	if c.Skipped != "" {
		fmt.Fprintf(&b, "cross-check skipped: %s\n", c.Skipped)
	}
	for _, in := range c.Instances {
		fmt.Fprintf(&b, "instance with %d processes: %d states (complete: %v), unsafe state reached: %v\n", in.Procs, in.States, in.Complete, in.Bad)
	}
	if c.Replayed {
		b.WriteString("the trace replays forward on its instance\n")
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, p := range c.Problems {
		fmt.Fprintf(&b, "DISAGREEMENT: %s\n", p)
	}
	if c.OK() {
		b.WriteString("cross-check: no disagreement\n")
	}
	return b.String()
}

// SelfCheck cross-checks the verdict res of sys (searched with opts) on
// finite instances, exploring at most budget states per instance.
func SelfCheck(ctx context.Context, sys *System, res *Result, opts Options, budget int) *CrossCheck {
	cc := &CrossCheck{}
	stop := func() bool { return ctx.Err() != nil }
	for _, g := range sys.Globals {
		if g.Sort.Kind == SReal {
			cc.Skipped = "real numbers"
			return cc
		}
	}
	switch res.Verdict {
	case Safe:
		// (init (i j) holds of tuples of distinct processes: an
		// instance has that many at least, as the search assumes)
		lo, hi := int32(2), int32(4)
		lo = max(lo, sys.Pinned, int32(sys.InitArity))
		hi = max(hi, lo)
		if n := int32(sys.NumberProcs); n > 0 {
			lo, hi = min(lo, n), min(hi, n)
		}
		for n := lo; n <= hi && !stop(); n++ {
			in, path := exploreInstance(sys, n, opts.Model, budget, stop)
			cc.Instances = append(cc.Instances, in)
			if in.Bad {
				cc.Problems = append(cc.Problems, fmt.Sprintf("SAFE, but the instance with %d processes reaches an unsafe state%s", n, path))
			}
		}
	case Unsafe:
		ok, why, capped := replayLong(sys, res, opts.Model, budget, opts.replayWordsOr(), stop)
		if ok {
			cc.Replayed = true
		} else if n, _, found := unsafeInstance(sys, res, opts.Model, max(budget, confirmStates), stop); found {
			// (the budget with which Verify confirms such a trace,
			// refine.go: with a smaller one, a verdict that Verify
			// confirmed on an instance was called a disagreement)
			// under TSO the order of a backward trace need not be an
			// order in time (its events are only partially ordered)
			cc.Notes = append(cc.Notes, fmt.Sprintf("the trace %s does not replay forward in its order (%s), but the instance with %d processes reaches an unsafe state", res.TraceString(), why, n))
		} else if stop() {
			cc.Skipped = "stopped"
		} else if capped {
			// the memory bound of the replay (replayWords) dropped
			// states: the trace may replay in a run it did not keep
			cc.Skipped = fmt.Sprintf("could not confirm the trace %s: %s, and no instance with up to 4 processes reaches an unsafe state within %d states", res.TraceString(), why, max(budget, confirmStates))
		} else if t := universalStep(sys, res); t != "" {
			// MCMT's approximation of a universal guard: the other
			// processes are those of the cube, so a trace may take a
			// step whose guard fails on a process it never names
			cc.Notes = append(cc.Notes, fmt.Sprintf("the trace %s does not replay forward (%s); it takes %s, whose forall_other guard the backward search only checks on the processes of the cube, as Cubicle does", res.TraceString(), why, t))
		} else {
			cc.Problems = append(cc.Problems, fmt.Sprintf("UNSAFE, but the trace %s does not replay forward: %s", res.TraceString(), why))
		}
	default:
		cc.Skipped = "no verdict"
	}
	return cc
}

// universalStep returns the name of a transition of res's trace with a
// forall_other guard, or "".
func universalStep(sys *System, res *Result) string {
	for _, st := range res.Trace {
		for _, t := range sys.Trans {
			if t.Name != st.Trans {
				continue
			}
			for _, g := range t.Guard {
				if len(g.Foralls) > 0 {
					return t.Name
				}
			}
		}
	}
	return ""
}

// replayBufCap is the capacity of the store buffers for the replay of
// res's trace on n processes: the writes the trace makes by one process
// (an update of every cell of a weak array writes n cells at once; the
// writes of a step without an acting process count for every process),
// at least selfBufCap. A buffer holds writes of its own process only, so
// no run of the trace needs more. With selfBufCap alone, a trace whose
// first step writes every cell of a weak array of 4 processes could not
// be replayed (a cross-check disagreement that the bound made, not the
// verdict). Counting the writes of all processes together, as it did
// first, made the states of lamport4us's 126-step replay 1626 words wide
// (buffers of 200 writes on four processes).
func replayBufCap(res *Result, trans map[string][]*Trans, n int32) int {
	per := map[int32]int{}
	anyone := 0
	for _, step := range res.Trace {
		// (the most of the transitions of that name; their actor, if
		// they all have the same)
		most, actor := 0, int32(-1)
		one := true
		for _, t := range trans[step.Trans] {
			k := 0
			for _, u := range t.Updates {
				c := 1
				for range u.NUniv {
					c *= int(n)
				}
				k += c
			}
			most = max(most, k)
			a := int32(-1)
			if t.Actor >= 0 && t.Actor < len(step.Args) {
				a = step.Args[t.Actor]
			}
			switch {
			case a < 0:
				one = false
			case actor < 0:
				actor = a
			case actor != a:
				one = false
			}
		}
		if one && actor >= 0 {
			per[actor] += most
		} else {
			anyone += most
		}
	}
	w := 0
	for _, k := range per {
		w = max(w, k)
	}
	return max(w+anyone, selfBufCap)
}

// transByName lists the transitions of sys by name. Cubicle does not
// require distinct names (its typing checks the parameters of a
// transition, not the names of the transitions): the German protocol of
// its examples, german.ctc.cub, has two transitions recvGnts. A step of
// a trace may be either.
func transByName(sys *System) map[string][]*Trans {
	trans := map[string][]*Trans{}
	for _, t := range sys.Trans {
		trans[t.Name] = append(trans[t.Name], t)
	}
	return trans
}

// checkExplorer makes the explorer of the instance of sys with n
// processes under the model of the search (Options.Model), and its
// initial states: those of the samples of the approximation for
// finite-state systems without weak memory (explore.go), otherwise
// several values for the numbers that init leaves free (selfInitials)
// and store buffers of selfBufCap writes; a nondeterministic value takes
// every value.
func checkExplorer(sys *System, n int32, model string, budget, bufCap int) (*wfinite, [][]int64) {
	if explorable(sys) {
		f := newFinite(sys, n).wfinite
		f.fixedFirst = true
		return f, f.initials(func(int) int64 { return 0 })
	}
	f := newExplorer(sys, n, modelOf(sys, model), bufCap)
	f.allNondet = true
	f.fixedFirst = true
	return f, f.selfInitials(budget)
}

// exploreInstance explores the instance with n processes breadth-first.
// path describes the steps to a bad state.
func exploreInstance(sys *System, n int32, model string, budget int, stop func() bool) (InstanceCheck, string) {
	in := InstanceCheck{Procs: int(n)}
	f, inits := checkExplorer(sys, n, model, budget, selfBufCap)
	smp := f.explore(stop, inits, budget)
	in.States, in.Complete = len(smp.states), smp.complete
	for i, st := range smp.states {
		if u := f.unsafe(st); u > 0 {
			in.Bad = true
			var steps []string
			for _, s := range smp.path(i) {
				steps = append(steps, s.String())
			}
			return in, fmt.Sprintf(" (unsafe[%d] after %s)", u, strings.Join(steps, " -> "))
		}
	}
	return in, ""
}

// unsafe returns the index of an unsafe formula st satisfies, or 0.
func (f *wfinite) unsafe(st []int64) int {
	for _, u := range f.sys.Unsafe {
		if rootParams(f.n, u, func(params []int32) bool {
			return f.dnf(st, u.DNF, &fenv{params: params}, 0)
		}) != nil {
			return u.Index
		}
	}
	return 0
}

func (s forwardStep) String() string {
	if s.t == nil {
		return "flush(" + slotName(s.flush) + ")"
	}
	st := Step{Trans: s.t.Name, Args: s.args}
	return st.String()
}

// replayFirstBudget: the states the cross-check's replay of a long
// trace keeps after each step in its first try (replayLong)
const replayFirstBudget = 2000

// replayWords bounds the words (int64 cells) of the states that a replay
// keeps after one step: with W words a state, it keeps at most
// replayWords / W states a step, fewer than its budget when states are
// wide. The states of a replay hold store buffers of as many writes as
// a process makes in the trace (replayBufCap): Cubicle-W's
// tests/cubicle/lamport4us.cub, decided forward with a trace of 126
// steps, had states of 1626 words on four processes (13 KB; 1098 with
// the buffers sized by process), and the cross-check's 200 000 states a
// step grew past 6 GB. The replay holds about three such sets at once
// (the states before the step, their flush closure, the states after
// it), so this bound keeps it near 400 MB. A replay that confirms under
// the bound is a confirmation; one that fails after the bound dropped
// states could not confirm the trace (the dropped states might have led
// to an unsafe state), which the cross-check says as such rather than as
// a disagreement. The bound bites on states of more than 83 words at the
// cross-check's 200 000 states (335 at Verify's 50 000): lamport4's
// usual states are 50 words.
const replayWords = 1 << 24

// replayWork bounds the words of all the states a replay keeps, summed
// over its steps: the words bound keeps its memory in hand, this one its
// time. lamport4us's trace with two steps swapped (it does not replay in
// that order) ran more than 10 min at 15 000 states of 1098 words a step;
// its replay in order, which confirms, keeps far less. A replay that
// reaches it stops as one the words bound cut: it could not confirm.
const replayWork = 1 << 30

// replayWordsOr is opts' bound on the words of the states a replay keeps
// after one step: replayWords unless a test sets a smaller one.
func (o Options) replayWordsOr() int {
	if o.replayWords > 0 {
		return o.replayWords
	}
	return replayWords
}

// replayLong is replayTrace for the cross-check: a trace of more than
// 16 steps is first replayed with at most replayFirstBudget states a
// step. A replay only follows steps the semantics allows, so one that a
// smaller budget confirms is confirmed: the small try is a shortcut,
// which a long trace on a large instance needs (Cubicle-W's
// tests/cubicle/lamport4us.cub, decided forward with a trace of some
// thirty steps on four processes: 20 s with 2000 states a step, 3.5 min
// with 20000, and more than 6 GB and 12 min without an end with the
// cross-check's 200000, before replayWords). Verify's confirmation
// (confirmUnsafe) keeps one try: its traces are short, and a trace that
// does not replay in its order would pay twice
// (tests/cubtso/peterson_2b_us.cub: 0.22 s -> 0.43 s).
func replayLong(sys *System, res *Result, model string, budget, words int, stop func() bool) (bool, string, bool) {
	if budget > replayFirstBudget && len(res.Trace) > 16 {
		if ok, _, _ := replayTrace(sys, res, model, replayFirstBudget, words, stop); ok {
			return true, "", false
		}
		if stop() {
			return false, "stopped", false
		}
	}
	return replayTrace(sys, res, model, budget, words, stop)
}

// replayTrace follows res.Trace forward on the instance whose processes
// are the slots of the trace (and of the unsafe formula), keeping at most
// budget states after each step, and at most words words of them
// (replayWords). capped reports that the words bound dropped states in
// a replay that did not confirm the trace.
func replayTrace(sys *System, res *Result, model string, budget, words int, stop func() bool) (ok bool, why string, capped bool) {
	trans := transByName(sys)
	maxSlot := sys.Pinned
	for _, s := range res.Trace {
		for _, a := range s.Args {
			maxSlot = max(maxSlot, a)
		}
	}
	params := 0
	for _, u := range sys.Unsafe {
		params = max(params, u.Params)
	}
	// the unsafe formula may name processes that take no step
	why = "no instance fits the trace"
	// (at least one process: a system without process parameters, whose
	// trace names none, tried no instance at all)
	for n := max(maxSlot, 1); n <= max(maxSlot+int32(params), 1); n++ {
		if m := int32(sys.NumberProcs); m > 0 && n > m {
			break
		}
		ok, w, c := replayOn(sys, res, trans, n, model, budget, words, stop)
		if ok {
			return true, "", false
		}
		why, capped = w, capped || c
		if stop() {
			break
		}
	}
	// the slots of a trace are names: when the system compares
	// processes (k < i), the cube orders them, and the numbers the
	// trace gives them need not follow that order (a genWide system,
	// seed 41, system 1963: t2(#1) -> unsafe[1] needs its process
	// above the unsafe formula's). A renaming of the trace's processes
	// that replays is a run of the same instance.
	if renamed := renameTrace(sys, res, maxSlot+int32(params)); len(renamed) > 0 {
		for _, r := range renamed {
			if stop() {
				break
			}
			top := sys.Pinned // the instance holds every process of r
			for _, st := range r.Trace {
				for _, a := range st.Args {
					top = max(top, a)
				}
			}
			for n := max(top, 1); n <= maxSlot+int32(params); n++ {
				if m := int32(sys.NumberProcs); m > 0 && n > m {
					break
				}
				ok, _, c := replayOn(sys, r, trans, n, model, budget, words, stop)
				if ok {
					return true, "", false
				}
				capped = capped || c
			}
		}
	}
	return false, why, capped
}

// renameTrace returns res with the processes of its trace other than
// the process constants renamed injectively into the processes up to
// hi, other than the identity, when the trace names one to three of them
// (at most 60 renamings).
func renameTrace(sys *System, res *Result, hi int32) []*Result {
	var procs []int32
	for _, st := range res.Trace {
		for _, a := range st.Args {
			if a > sys.Pinned && !slices.Contains(procs, a) {
				procs = append(procs, a)
			}
		}
	}
	if len(procs) == 0 || len(procs) > 3 {
		return nil
	}
	var out []*Result
	img := make([]int32, len(procs))
	var rec func(k int)
	rec = func(k int) {
		if len(out) >= 60 {
			return
		}
		if k == len(procs) {
			if slices.Equal(img, procs) {
				return
			}
			r := *res
			r.Trace = make([]Step, len(res.Trace))
			for i, st := range res.Trace {
				args := slices.Clone(st.Args)
				for j, a := range args {
					if x := slices.Index(procs, a); x >= 0 {
						args[j] = img[x]
					}
				}
				r.Trace[i] = Step{Trans: st.Trans, Args: args}
			}
			out = append(out, &r)
			return
		}
		for p := sys.Pinned + 1; p <= hi; p++ {
			if !slices.Contains(img[:k], p) {
				img[k] = p
				rec(k + 1)
			}
		}
	}
	rec(0)
	return out
}

// unsafeInstance explores the instances with as many processes as the
// trace of res names and up to 4, and returns one that reaches an
// unsafe state, and the path to it.
func unsafeInstance(sys *System, res *Result, model string, budget int, stop func() bool) (int32, string, bool) {
	lo := max(sys.Pinned, 2, int32(sys.InitArity))
	for _, s := range res.Trace {
		for _, a := range s.Args {
			lo = max(lo, a)
		}
	}
	hi := max(lo, 4)
	if m := int32(sys.NumberProcs); m > 0 {
		lo, hi = min(lo, m), min(hi, m)
	}
	for n := lo; n <= hi && !stop(); n++ {
		if in, path := exploreInstance(sys, n, model, budget, stop); in.Bad {
			return n, path, true
		}
	}
	return 0, "", false
}

func replayOn(sys *System, res *Result, trans map[string][]*Trans, n int32, model string, budget, words int, stop func() bool) (ok bool, why string, capped bool) {
	f, cur := checkExplorer(sys, n, model, budget, replayBufCap(res, trans, n))
	f.focus = traceFocus(sys, res, n)
	if !explorable(sys) && f.initCombos < maxSuccessors {
		// the combinations of the free cells of finite sorts at init
		// as many as in the samples (the explorer of systems with
		// numbers or weak memory combines 64): the trace t0(#2) of
		// a random genWide system (seed 41, system 1699) needs four
		// free proc cells, 81 combinations, and did not replay
		f.initCombos = maxSuccessors
		cur = f.selfInitials(budget)
	}
	// the states kept a step: budget, fewer when they are wide
	// (replayWords); dropped: the words bound left some out; work: the
	// words kept so far (replayWork, scaled with words for tests)
	keep, byWords, dropped := budget, false, false
	work, workCap := 0, replayWork
	if words > 0 && words < replayWords {
		workCap = replayWork / replayWords * words
	}
	if len(cur) > 0 && words > 0 {
		if k := max(words/len(cur[0]), 1); k < keep {
			keep, byWords = k, true
		}
	}
	if len(cur) > keep {
		cur, dropped = cur[:keep], byWords
	}
	// (a replay that fails after the words bound dropped states says
	// so: it could not confirm, rather than refute, the trace)
	fail := func(why string) (bool, string, bool) {
		if dropped {
			return false, fmt.Sprintf("%s; the replay kept at most %d states of %d words a step and dropped some", why, keep, len(cur[0])), true
		}
		return false, why, false
	}
	var out []successor
	for k, step := range res.Trace {
		ts := trans[step.Trans]
		if len(ts) == 0 {
			return false, fmt.Sprintf("unknown transition %s", step.Trans), false
		}
		var full bool
		cur, full = f.flushClosureFull(cur, keep)
		dropped = dropped || full && byWords
		seen := map[stateID]bool{}
		var next [][]int64
		for _, st := range cur {
			for _, t := range ts {
				out = f.fire(st, t, slices.Clone(step.Args), out[:0])
				for _, s := range out {
					if k := stateKey(s.st); !seen[k] {
						if len(next) >= keep {
							dropped = dropped || byWords
							continue
						}
						seen[k] = true
						next = append(next, s.st)
					}
				}
			}
		}
		if len(next) == 0 {
			return fail(fmt.Sprintf("step %d, %s, is not enabled (%d processes)", k+1, step, n))
		}
		cur = next
		if stop() {
			return false, "stopped", false
		}
		if work += len(next) * len(next[0]); work > workCap && k+1 < len(res.Trace) {
			return false, fmt.Sprintf("the replay on %d processes stopped at step %d of %d: it kept %d words of states in all (at most %d a step), its bound", n, k+1, len(res.Trace), work, keep*len(next[0])), true
		}
	}
	last, full := f.flushClosureFull(cur, keep)
	dropped = dropped || full && byWords
	for _, st := range last {
		for _, u := range sys.Unsafe {
			if u.Index == res.Root && f.holdsRoot(st, u) {
				return true, "", false
			}
		}
	}
	return fail(fmt.Sprintf("no state after the last step satisfies unsafe[%d] (%d processes)", res.Root, n))
}

// traceFocus marks the processes of the instance with n processes that
// res's trace names, and the process constants: the replay enumerates
// the nondeterministic values of their cells first (wfinite.focus).
func traceFocus(sys *System, res *Result, n int32) []bool {
	focus := make([]bool, n+1)
	for p := int32(1); p <= min(sys.Pinned, n); p++ {
		focus[p] = true
	}
	for _, st := range res.Trace {
		for _, a := range st.Args {
			if a > 0 && a <= n {
				focus[a] = true
			}
		}
	}
	return focus
}

// flushClosure adds to states those reached from them by flushes, up to
// budget states.
func (f *wfinite) flushClosure(states [][]int64, budget int) [][]int64 {
	out, _ := f.flushClosureFull(states, budget)
	return out
}

// flushClosureFull is flushClosure, and reports whether the budget left
// out a state it reached.
func (f *wfinite) flushClosureFull(states [][]int64, budget int) ([][]int64, bool) {
	seen := map[stateID]bool{}
	var out [][]int64
	full := false
	for _, s := range states {
		if k := stateKey(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	var next []successor
	for i := 0; i < len(out) && !full; i++ {
		next = f.flushes(out[i], next[:0])
		for _, s := range next {
			if k := stateKey(s.st); !seen[k] {
				if len(out) >= budget {
					full = true
					break
				}
				seen[k] = true
				out = append(out, s.st)
			}
		}
	}
	return out, full
}

// selfInitials lists initial states with several values for the numbers
// that init leaves free: 0 to 3 everywhere, values far apart, and small
// values drawn at random (with fixed seeds), from 0 to 4 and from -2 to 2,
// and powers of ten of one sign, growing or shrinking with the cell.
func (f *wfinite) selfInitials(budget int) [][]int64 {
	frees := []func(int) int64{
		func(int) int64 { return 0 },
		func(int) int64 { return 1 },
		func(int) int64 { return 2 },
		func(int) int64 { return 3 },
		func(c int) int64 { return 1000 + 7*int64(c) },
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 32 {
		vals := map[int]int64{}
		frees = append(frees, func(c int) int64 {
			v, ok := vals[c]
			if !ok {
				v = int64(rng.IntN(5))
				vals[c] = v
			}
			return v
		})
	}
	// negative values too (-2 to 2): a formula may need a free number
	// below 0 (M[q,q] < 0 with M[p,q] = 0 only for p <> q at init), and
	// the trace of such an UNSAFE did not replay
	neg := rand.New(rand.NewPCG(5, 6))
	for range 32 {
		vals := map[int]int64{}
		frees = append(frees, func(c int) int64 {
			v, ok := vals[c]
			if !ok {
				v = int64(neg.IntN(5)) - 2
				vals[c] = v
			}
			return v
		})
	}
	// magnitudes apart, of one sign, growing or shrinking with the
	// cell's position (A := B + C - A with A, B, C < 0 at init needs A
	// below B + C: Cubicle's arith/unsafe/unsafe3.cub)
	pow10 := func(k int) int64 {
		v := int64(1)
		for range min(k, 6) {
			v *= 10
		}
		return v
	}
	for _, sign := range []int64{1, -1} {
		frees = append(frees,
			func(c int) int64 { return sign * pow10(c) },
			func(c int) int64 { return sign * pow10(6-min(c, 6)) })
	}
	seen := map[stateID]bool{}
	var out [][]int64
	for _, free := range frees {
		for _, s := range f.initials(free) {
			if k := stateKey(s); !seen[k] && len(out) < budget {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}
