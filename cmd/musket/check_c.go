package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/cmd/musket/internal/earlycc"
	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/smt"
)

// cCheck is what 'musket check' needs to check one C program.
type cCheck struct {
	path, engine, witness string
	limit                 time.Duration
	asJSON, stats         bool
	c                     checkConfig
	wf                    *witnessFiles
	// timedOut, when set, is told whether the check ended without a
	// verdict at its time limit (for the run's list of time-outs).
	timedOut *bool
}

// hardwareModels are the models whose events are a machine's: a C
// program is compiled for -target to run under them. Under the others
// (sc, c11, rc11, imm, linux-kernel, a .cat file) its C11 events run as
// they are.
var hardwareModels = map[string]bool{"tso": true, "power": true, "armv7": true, "aarch64": true, "riscv": true,
	"pso": true, "rmo": true, "alpha": true}

type cCheckJSON struct {
	File      string            `json:"file"`
	Name      string            `json:"name"`
	Target    string            `json:"target"`
	Model     string            `json:"model"`
	Engine    string            `json:"engine"`
	Bound     int               `json:"bound"`
	Verdict   string            `json:"verdict"`
	Bounded   bool              `json:"bounded"`
	Status    string            `json:"status"`
	Assertion string            `json:"assertion,omitempty"`
	Error     string            `json:"error,omitempty"`
	TimeMS    float64           `json:"time_ms"`
	Witness   *result.Execution `json:"witness,omitempty"`
	// Explain (-explain, on a PASS): the candidate executions in which
	// an assertion fails and why the model rejects each, in C terms.
	Explain *result.Explanation `json:"explain,omitempty"`
	// Race is a data race's two accesses (verdict RACE); Assertion is
	// then an assertion that can fail too.
	Race []raceJSON `json:"race,omitempty"`
	// Graph is what the graph engine explored, when it answered.
	Graph *graphJSON `json:"graph,omitempty"`
	// Via says how a verdict was reached other than by the engine asked
	// (-target power: a PASS of the graph engine under IMM); ViaNot why
	// that shortcut was not taken.
	Via    string `json:"via,omitempty"`
	ViaNot string `json:"via_not,omitempty"`
	// Unconfirmed (-engine both): the engines that stopped at a limit
	// while one answered; the verdict is that engine's alone.
	Unconfirmed string `json:"unconfirmed,omitempty"`
}

// raceJSON is one access of a data race.
type raceJSON struct {
	Thread   int    `json:"thread"`
	Variable string `json:"variable"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Access   string `json:"access"` // read or write
	Order    string `json:"order"`  // plain, relaxed, acquire, release, acq_rel, seq_cst
	Event    int    `json:"event"`  // its id in the witness
}

// graphJSON counts the graph engine's exploration as GenMC reports it.
type graphJSON struct {
	Complete int `json:"complete_executions"`
	Blocked  int `json:"blocked_executions"`
	Graphs   int `json:"graphs_checked"`
	Revisits int `json:"backward_revisits"`
}

// checkC checks a C program (see package cfront) and prints its verdict:
// PASS (exit 0), FAIL with the assertion (1), BOUND when a path needs
// more loop iterations than -bound (3), TIMEOUT or UNSUPPORTED (3).
func checkC(ctx context.Context, stdout, stderr io.Writer, k cCheck) int {
	target := cTarget(k.c)
	if m, ok := withBell(k.c.model, k.c.incl); ok {
		k.c.m = m
	}
	opts := cfront.CheckOptions{Bound: k.c.bound, Target: target, Model: k.c.m, ModelName: k.c.name,
		NoAnalysis: k.c.noAnalysis, Variants: k.c.variants, Liveness: k.c.liveness, GraphNoSymmetry: !k.c.symmetry, Races: cRaces(k.c), Clang: k.c.clang, Explain: k.c.explain}
	one := func(engine string) (*cfront.Result, error) {
		cctx, cancel := cLimitContext(ctx, k.limit)
		defer cancel()
		cctx, unwatch := memlimit.Watch(cctx)
		defer unwatch()
		o := opts
		o.Engine = engine
		var r *cfront.Result
		var err error
		if engine == immPowerEngine {
			r, err = immThenPower(cctx, 0, k.path, opts)
		} else {
			r, err = cfront.Check(cctx, k.path, o)
		}
		switch {
		case err == nil:
		case memlimit.Exceeded(cctx) || errors.Is(err, memlimit.ErrExceeded):
			return nil, &cfront.LimitError{Msg: fmt.Sprintf("%s: %v", k.path, memlimit.Error())}
		case ctx.Err() != nil:
			return nil, errInterrupted
		case cctx.Err() != nil:
			var le *cfront.LimitError
			if !errors.As(err, &le) {
				err = &cfront.LimitError{Msg: fmt.Sprintf("%s: the time limit (%v) was reached before the check began", k.path, k.limit)}
			}
			return nil, timeLimitError{err}
		}
		if r != nil && r.Verdict == cfront.Unknown {
			r.Result = batch.MemoryStatus(cctx, r.Result)
		}
		return r, err
	}
	var (
		r        *cfront.Result
		err      error
		disagree string
		// -engine both: the engines that gave no answer (a time
		// limit) where another did; the verdict is not compared.
		unanswered []string
		// answered counts the engines that gave a verdict (-engine
		// both): one alone is an unconfirmed verdict, exit status 3.
		answered int
	)
	graphOK := graph.DecidesTarget(target, k.c.name)
	switch {
	case k.engine == "auto" && graphOK:
		r, err = firstAnswer(ctx, k.limit, k.path, opts)
	case k.engine == "auto" && target == "power":
		// The SMT engine, and the graph engine under IMM for a PASS
		// (check_cpower.go).
		r, err = one(immPowerEngine)
	case k.engine == "auto":
		r, err = one("smt")
	case k.engine == "both":
		var e *cfront.Result
		e, err = one("enum")
		if err == nil {
			answered = countAnswer(e)
			r, err = one("smt")
			if err == nil {
				answered += countAnswer(r)
			}
			if err == nil && e.Verdict != cfront.Unknown && r.Verdict != cfront.Unknown && e.Verdict != r.Verdict {
				disagree = fmt.Sprintf("%s: the engines disagree: enum says %s, smt says %s", k.path, cWord(e), cWord(r))
			}
			if err == nil && graphOK && disagree == "" {
				g, gerr := one("graph")
				if gerr == nil && g.Verdict == cfront.Unknown {
					unanswered = append(unanswered, "graph ("+g.Result.Status.String()+")")
				}
				if gerr == nil && g.Verdict != cfront.Unknown && r.Verdict != cfront.Unknown && g.Verdict != r.Verdict {
					disagree = fmt.Sprintf("%s: the engines disagree: graph says %s, smt says %s", k.path, cWord(g), cWord(r))
				}
				if gerr == nil {
					r.Time += g.Time
					answered += countAnswer(g)
				}
			}
			if err == nil && e.Verdict == cfront.Unknown && r.Verdict != cfront.Unknown {
				unanswered = append(unanswered, "enum ("+e.Result.Status.String()+")")
			}
			if err == nil && r.Verdict == cfront.Unknown {
				if e.Verdict != cfront.Unknown {
					unanswered = append(unanswered, "smt ("+r.Result.Status.String()+")")
				}
				r = e
			} else if err == nil {
				r.Time += e.Time
				if r.Result.Witness == nil {
					r.Result.Witness = e.Result.Witness
				}
			}
		}
	default:
		r, err = one(k.engine)
	}
	if errors.Is(err, errInterrupted) {
		fmt.Fprintf(stdout, "%s: INTERRUPTED\n", strings.TrimSuffix(filepath.Base(k.path), ".c"))
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintf(stderr, "musket check: %v\n", err)
		code, status := exitBadInput, "error"
		var le *cfront.LimitError
		if errors.As(err, &le) {
			code, status = exitLimit, "limit"
		}
		if errors.As(err, new(timeLimitError)) {
			// The time limit reached while clang compiled, or before
			// the check began: a time-out like the engines', in the
			// summary's list (it was missing there: "timeouts":[] with
			// exit status 3) and in bench c's cell.
			status = "timeout"
			if k.timedOut != nil {
				*k.timedOut = true
			}
		}
		if k.asJSON {
			writeJSON(stdout, errorJSON{File: k.path, Status: status, Error: err.Error(), ExitStatus: code})
		}
		return code
	}
	if ctx.Err() == nil {
		r.Result.Err = timeLimitWords(r.Result, k.limit)
		if k.timedOut != nil && r.Verdict == cfront.Unknown && r.Result.Status == result.Timeout {
			*k.timedOut = true
		}
	}
	code := exitOK
	verdict := cWord(r)
	switch r.Verdict {
	case cfront.Violation, cfront.Livelock, cfront.Race:
		code = exitFailed
	case cfront.BoundHit:
		code = exitLimit
	case cfront.Unknown:
		code = failureStatus(r.Result.Err)
		if r.Result.Status == result.Timeout || r.Result.Status == result.Unsupported || r.Result.Status == result.MemoryLimit {
			code = exitLimit
		}
	}
	if disagree != "" {
		fmt.Fprintf(stderr, "musket check: %s\n", disagree)
		verdict, code = "DISAGREEMENT", exitDisagree
	}
	unconfirmed := ""
	if len(unanswered) > 0 && r.Verdict != cfront.Unknown && disagree == "" {
		if answered < 2 {
			// One engine's verdict alone: printed (the user waited for
			// it), and the limit the other reached makes exit 3.
			unconfirmed = strings.Join(unanswered, ", ")
			others := "the other engine did not finish"
			if len(unanswered) > 1 {
				others = "the other engines did not finish"
			}
			fmt.Fprintf(stderr, "musket check: %s: unconfirmed: %s (%s); this verdict is one engine's alone\n", k.path, others, unconfirmed)
			code = max(code, exitLimit)
		} else {
			fmt.Fprintf(stderr, "musket check: %s: not compared: %s gave no answer; the verdict is the other engines'\n", k.path, strings.Join(unanswered, ", "))
		}
	}
	if r.Verdict == cfront.Unknown && ctx.Err() != nil {
		// Stopped by SIGINT or SIGTERM, not by its time limit.
		verdict, code = "INTERRUPTED", exitInterrupted
	}
	targetWord, modelWord := target, k.c.name
	if target == "" {
		targetWord = "C"
	}
	if k.wf != nil && (r.Verdict == cfront.Violation || r.Verdict == cfront.Livelock || r.Verdict == cfront.Race) && r.Result.Witness != nil && disagree == "" {
		x := cfront.AnnotateWitness(r)
		var steps []result.Step
		if rp := r.RacePair; rp != nil && r.Verdict == cfront.Race {
			// The race drawn in bold, as an edge between its accesses.
			steps = []result.Step{{From: rp[0].Event, To: rp[1].Event, Rel: r.RaceFlag}}
		}
		if err := writeDotSteps(k.wf.name(r.Name), r.Name, x, steps); err != nil {
			fmt.Fprintf(stderr, "musket check: %s: %v\n", k.path, err)
			code = max(code, exitBadInput)
		}
	}
	if k.asJSON {
		j := cCheckJSON{File: k.path, Name: r.Name, Target: targetWord, Model: modelWord, Engine: k.engine, Bound: k.c.bound,
			Verdict: verdict, TimeMS: ms(r.Time), Bounded: r.Verdict == cfront.BoundHit || r.Result.Bounded, Status: r.Result.Status.String()}
		if verdict == "BOUND" {
			j.Status = "limit"
		}
		if disagree != "" {
			j.Status = "disagreement"
		}
		if verdict == "INTERRUPTED" {
			j.Status = "interrupted"
		}
		if r.Failed != nil {
			j.Assertion = r.Failed.String()
		}
		if r.Result.Err != nil {
			j.Error = r.Result.Err.Error()
		}
		if r.Verdict == cfront.Violation || r.Verdict == cfront.Livelock || r.Verdict == cfront.Race {
			j.Witness = cfront.AnnotateWitness(r)
		}
		if ex := r.Explain; ex != nil && k.c.explain {
			c := *ex
			c.Rejected = nil
			for _, rj := range ex.Rejected {
				rj.Execution = r.Annotate(rj.Execution)
				c.Rejected = append(c.Rejected, rj)
			}
			j.Explain = &c
		}
		if rp := r.RacePair; rp != nil {
			for _, a := range rp {
				acc := "read"
				if a.Write {
					acc = "write"
				}
				j.Race = append(j.Race, raceJSON{Thread: a.Thread, Variable: a.Var, File: a.Pos.File, Line: a.Pos.Line, Access: acc, Order: a.Order, Event: a.Event})
			}
		}
		if g := r.Graph; g != nil {
			j.Graph = &graphJSON{Complete: g.Complete, Blocked: g.Blocked, Graphs: g.Graphs, Revisits: g.Revisits}
		}
		j.Via, j.ViaNot = r.Via, r.ViaNot
		j.Unconfirmed = unconfirmed
		writeJSON(stdout, j)
		return code
	}
	fmt.Fprintf(stdout, "%s: %s (target %s, model %s, bound %d)\n", r.Name, verdict, targetWord, modelWord, k.c.bound)
	switch r.Verdict {
	case cfront.Violation:
		if r.Failed != nil {
			fmt.Fprintf(stdout, "  %s\n", r.Failed.Failure())
		}
	case cfront.Livelock:
		if r.Failed != nil {
			fmt.Fprintf(stdout, "  %s: %s in a fair execution\n", r.Failed.Pos, r.Failed.Text)
		}
	case cfront.Race:
		if rp := r.RacePair; rp != nil {
			fmt.Fprintf(stdout, "  DATA RACE (%s): %s\n    and %s, not ordered by happens-before\n", r.RaceFlag, rp[0], rp[1])
		} else {
			fmt.Fprintf(stdout, "  DATA RACE: some execution raises %s (a plain access not ordered by happens-before with a conflicting one)\n", r.RaceFlag)
		}
		if r.Failed != nil {
			fmt.Fprintf(stdout, "  also: %s\n", r.Failed.Failure())
		}
	case cfront.BoundHit:
		fmt.Fprintf(stdout, "  %s\n", boundWords(k.c.bound))
	case cfront.Unknown:
		if r.Result.Err != nil {
			fmt.Fprintf(stdout, "  %v\n", r.Result.Err)
		}
	}
	if k.c.explain && disagree == "" {
		explainC(stdout, r)
	}
	if r.Graph != nil && k.stats {
		fmt.Fprintf(stdout, "  graph engine: %d complete executions, %d blocked, %d graphs checked, %d backward revisits, %d events at most, %d graphs left out (blocked on a stale read)\n",
			r.Graph.Complete, r.Graph.Blocked, r.Graph.Graphs, r.Graph.Revisits, r.Graph.MaxEvents, r.Graph.Pruned)
		if r.Graph.SymOff {
			fmt.Fprintf(stdout, "  symmetry reduction given up: a blocked execution it cannot vouch for (a thread stopped for good); the counts are of the full run\n")
		}
		if r.Commuted > 0 {
			fmt.Fprintf(stdout, "  commuting updates: %d relaxed read-modify-writes with unused results rewritten (each thread's updates of a location main reads after the threads end go to a location of its own: one order explored)\n", r.Commuted)
		}
		if r.CommuteOff {
			fmt.Fprintf(stdout, "  commuting updates: merging given up (a location they update met another access, a read by main before they ended, or two kinds of update: commute.go); the counts are of the full run\n")
		}
		if r.Graph.SymPruned > 0 {
			fmt.Fprintf(stdout, "  symmetry reduction: %d graphs left out (a symmetric thread ahead of its predecessor); the counts are up to the symmetry\n", r.Graph.SymPruned)
		}
	}
	if note := immShortcutNote(r); note != "" && k.stats {
		fmt.Fprintln(stdout, note)
	}
	if rp := r.Report; rp != nil && k.stats {
		s := rp.Stats
		fmt.Fprintf(stdout, "  SMT engine: %d events, %d variables (%d Boolean, %d integer), %d constraints, %d formula operations, %d queries, encoding %.3fs, solving %.3fs\n",
			s.Events, s.Vars(), s.BoolVars, s.IntVars, s.Constraints, s.Formulas, rp.Queries, rp.Encode.Seconds(), rp.Solve.Seconds())
		if s.LazyGraphs > 0 {
			fmt.Fprintf(stdout, "  lazy acyclicity: %d relations, %d edge literals, %d edges set, %d final checks, %d cycles learnt, %d models re-asked\n",
				s.LazyGraphs, s.LazyEdges, s.LazyFixed, s.LazyFinals, s.LazyConflicts, s.LazyMisses)
		}
		if rp.LazyFellBack {
			fmt.Fprintf(stdout, "  Z3 gave up on the acyclicity theory: encoded again with clocks\n")
		}
		if s.SymmetryPairs > 0 {
			fmt.Fprintf(stdout, "  symmetry breaking: %d pairs of symmetric threads constrained\n", s.SymmetryPairs)
		}
	}
	fmt.Fprintf(stdout, "  time %.3fs\n", r.Time.Seconds())
	return code
}

// errInterrupted is the error of a check stopped by SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// withBell reloads a .cat model with the .bell file of the same name
// beside it (linux-kernel.cat and linux-kernel.bell), as herd7's .cfg
// files pair them: the Linux-kernel model needs its bell's tag sets.
func withBell(model string, incl []string) (*cat.Model, bool) {
	if !strings.HasSuffix(model, ".cat") {
		return nil, false
	}
	bell := strings.TrimSuffix(model, ".cat") + ".bell"
	if _, err := os.Stat(bell); err != nil {
		return nil, false
	}
	dirs := append([]string{filepath.Dir(model), filepath.Join(filepath.Dir(model), "..", "herd")}, incl...)
	m, err := cat.Load(model, cat.LoadOptions{Bell: bell, IncludeDirs: dirs})
	if err != nil {
		return nil, false
	}
	return m, true
}

// cWord is the verdict word of a C check.
func cWord(r *cfront.Result) string {
	switch r.Verdict {
	case cfront.Safe:
		return "PASS"
	case cfront.Violation:
		return "FAIL"
	case cfront.Livelock:
		return "LIVELOCK"
	case cfront.Race:
		return "RACE"
	case cfront.BoundHit:
		return "BOUND"
	}
	switch r.Result.Status {
	case result.Timeout:
		return "TIMEOUT"
	case result.Unsupported:
		return "UNSUPPORTED"
	case result.MemoryLimit:
		return "MEMORY LIMIT"
	}
	return "ERROR"
}

// isC tells whether a check operand is a C program.
func isC(path string) bool { return strings.HasSuffix(path, ".c") }

// countC counts the C programs among paths.
func countC(paths []string) int {
	n := 0
	for _, p := range paths {
		if isC(p) {
			n++
		}
	}
	return n
}

// graphHeadStart is how long the graph engine runs alone under -engine
// auto before the SMT engine joins it: the graph engine answers most
// programs within it, and then the SMT engine's encoding is not paid for.
const graphHeadStart = time.Second

// firstAnswer runs the graph engine and the SMT engine side by side on
// one lowering of the program (-engine auto) and returns the first
// verdict; the other engine is stopped. The SMT engine starts after the
// graph engine's head start (graphHeadStart), or when the graph engine
// gives no answer. An engine that does not answer (a limit, an
// unsupported feature) leaves the answer to the other.
func firstAnswer(ctx context.Context, limit time.Duration, path string, opts cfront.CheckOptions) (*cfront.Result, error) {
	start := time.Now()
	cctx, cancel := cLimitContext(ctx, limit)
	defer cancel()
	p, r, err := lowerOnce(cctx, start, path, opts)
	if p == nil {
		if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
			err = timeLimitError{err}
		}
		return r, err
	}
	type answer struct {
		engine string
		r      *cfront.Result
		err    error
	}
	rctx, stop := context.WithCancel(cctx)
	defer stop()
	ch := make(chan answer, 2)
	started := 0
	graphRunning := false
	lift := func() {} // ends the SMT engine's budget
	run := func(e string) {
		started++
		o := opts
		o.Engine = e
		ectx, release := rctx, func() {}
		switch {
		case e == "graph":
			graphRunning = true
		case graphRunning:
			// Beside the graph engine, the SMT engine has a memory
			// budget; alone, the whole memory limit.
			var unwatch func()
			ectx, unwatch, release = budgetSMT(rctx)
			restore := smt.CapMemory(portfolioZ3Budget)
			var once sync.Once
			lift = func() { once.Do(func() { unwatch(); restore() }) }
		}
		end := lift
		go func() {
			r, err := cfront.CheckProgram(ectx, p, o)
			end()
			release()
			ch <- answer{e, r, err}
		}()
	}
	run("graph")
	timer := time.NewTimer(graphHeadStart)
	defer timer.Stop()
	var last answer
	for i := 0; i < started; {
		var a answer
		select {
		case <-timer.C:
			if started < 2 {
				run("smt")
			}
			continue
		case a = <-ch:
		}
		i++
		// A path past one of Musket's limits (cfront's Assertion.Limit)
		// is the same for the other engine: no verdict, and final.
		if a.err == nil && (a.r.Verdict != cfront.Unknown || a.r.Failed != nil && a.r.Failed.Limit) {
			stop()
			a.r.Time = time.Since(start)
			return a.r, nil
		}
		if a.engine == "graph" {
			graphRunning = false
			lift()
		}
		// The answer kept: the first, unless a later one says more. A
		// refusal of the graph engine ("left to the SMT engine") says
		// less than the SMT engine's own no-verdict (a torn mixed-size
		// access, an encoding it refuses), which the user could
		// otherwise only see with -engine smt.
		smtAfterRefusal := a.engine == "smt" && last.engine == "graph" && last.err == nil && last.r.Result.Status == result.Unsupported
		if i == 1 || last.err != nil || a.err == nil && (a.r.Result.Status != result.Unsupported || smtAfterRefusal) {
			last = a
		}
		if started < 2 {
			run("smt")
		}
	}
	if last.r != nil {
		last.r.Time = time.Since(start)
	}
	return last.r, last.err
}

// portfolioSMTBudget is the memory the SMT engine may add under -engine
// auto beside the graph engine (to the process's resident memory, Go's
// and Z3's, as /usr/bin/time reports its peak, at the SMT engine's
// start; what the graph engine adds meanwhile counts too): past it the
// SMT engine is stopped and the graph engine, whose memory stays that of
// one execution graph per level of its search, answers alone. Without
// it a program with many executions (a 4-thread lock) has both engines
// working, and the SMT engine's encoding and solver grow to gigabytes
// before the graph engine's answer comes. -engine smt gives the SMT
// engine the whole memory limit.
var portfolioSMTBudget uint64 = 240 << 20

// portfolioZ3Budget is the part of portfolioSMTBudget Z3 itself may
// allocate (smt.CapMemory): Z3 stops at it at once, where its interrupt
// can take seconds to be seen in some of its phases.
const portfolioZ3Budget = 120 << 20

// errPortfolioBudget is the cause of an SMT run stopped by
// portfolioSMTBudget.
var errPortfolioBudget = errors.New("the SMT engine passed its memory budget beside the graph engine (-engine auto); -engine smt gives it the whole memory limit")

// budgetSMT returns a context that is canceled, with errPortfolioBudget
// as its cause, when the process's resident memory grows past what it
// is now by portfolioSMTBudget (or a quarter of a smaller -memory
// limit). Counted from now rather than from zero, so that the memory
// the program, the runtime and the graph engine already hold (50 MB and
// more beside a 4-thread lock under RISC-V) is not taken from the SMT
// engine's share; the -memory limit still bounds the whole. The
// function that ends the watch (the budget no longer applies; the
// context is left as it is); and the one that releases the context once
// the run is over.
func budgetSMT(ctx context.Context) (c context.Context, unwatch, release func()) {
	budget := portfolioSMTBudget
	if l := memlimit.Limit(); l > 0 && uint64(l)/4 < budget {
		budget = uint64(l) / 4
	}
	t := time.NewTicker(25 * time.Millisecond)
	return watchBudget(ctx, residentBytes()+budget, t.C, t.Stop)
}

// watchBudget is budgetSMT's watch: at each tick it compares the
// process's resident memory with budget; stop is called when the watch
// ends.
func watchBudget(ctx context.Context, budget uint64, ticks <-chan time.Time, stop func()) (c context.Context, unwatch, release func()) {
	c, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer stop()
		for {
			select {
			case <-done:
				return
			case <-c.Done():
				return
			case <-ticks:
				if residentBytes() > budget {
					cancel(errPortfolioBudget)
					return
				}
			}
		}
	}()
	var once sync.Once
	return c, func() { once.Do(func() { close(done) }) }, func() { cancel(context.Canceled) }
}

// residentBytes is the process's resident set (Linux: /proc/self/statm),
// or what the memory limit counts where that file cannot be read.
func residentBytes() uint64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(b)); len(f) > 1 {
			if pages, err := strconv.ParseUint(f[1], 10, 64); err == nil {
				return pages * uint64(os.Getpagesize())
			}
		}
	}
	counted, _ := memlimit.Used()
	return counted
}

// prestartC starts the fast front's session at once (cfront.Prestart;
// or adopts the one package earlycc started at the process's start)
// when the check's operands name a C program that will be compiled:
// with -no-cache (or the cache off), since a compile-cache hit needs no
// compiler. It looks at the raw arguments, before the flags are
// parsed: the session then starts while the rest of the check's set-up
// runs. Anything it guesses wrong costs a session that ends unused.
func prestartC(args []string) {
	if earlycc.Wanted(args) {
		if s := earlycc.Take(); s != nil && !cfront.AdoptPrestarted(s.Path, s.Proc, s.In, s.Out) {
			s.Drop()
		}
		cfront.Prestart() // (nothing when the early session was adopted)
	} else if s := earlycc.Take(); s != nil {
		s.Drop()
	}
}

// timeLimitWords is the error of a result stopped by its time limit in
// the user's words: Go's "context deadline exceeded" says nothing of
// -timeout (it was printed under a C program's TIMEOUT when the compile
// cache was cold; robust6). Other errors are kept.
func timeLimitWords(r *result.Result, limit time.Duration) error {
	if r.Status == result.Timeout && errors.Is(r.Err, context.DeadlineExceeded) {
		return fmt.Errorf("no verdict within the time limit (%v)", limit)
	}
	return r.Err
}

// countAnswer is 1 when the engine's result r is a verdict, else 0.
func countAnswer(r *cfront.Result) int {
	if r != nil && r.Verdict != cfront.Unknown {
		return 1
	}
	return 0
}

// cacheOff says whether MUSKET_CACHE turns the compile cache off.
func cacheOff() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv("MUSKET_CACHE"))) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// cLimitContext bounds a C program's check by its time limit: it is
// limitContext, which a test replaces with a context already past its
// deadline to give a time-out without the clock.
var cLimitContext = limitContext

// timeLimitError is the error of a C program stopped by its time limit
// before an engine could answer (clang stopped, or the limit reached
// before the check began): a time-out, not another limit.
type timeLimitError struct{ err error }

func (e timeLimitError) Error() string { return e.err.Error() }
func (e timeLimitError) Unwrap() error { return e.err }

// limitContext is ctx bounded by limit (none when limit is 0).
func limitContext(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit > 0 {
		return context.WithTimeout(ctx, limit)
	}
	return ctx, func() {}
}

// lowerOnce lowers the program at path for the engines that share one
// lowering (firstAnswer, immThenPower). Where it gives no program, its
// result or error is the answer: the time limit reached in the lowering
// is a timeout (as cfront.Check answers), not bad input. A cached
// compilation leaves the whole limit to the lowering; clang stopped by
// it is a LimitError, kept as it is.
func lowerOnce(ctx context.Context, start time.Time, path string, opts cfront.CheckOptions) (*cfront.Program, *cfront.Result, error) {
	p, err := cfront.Lower(ctx, path, cfront.Options{Bound: opts.Bound, NoSpin: opts.NoSpin, Clang: opts.CompileOptions(), Liveness: opts.Liveness})
	var le *cfront.LimitError
	if err != nil && ctx.Err() != nil && !errors.As(err, &le) {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return nil, &cfront.Result{Name: name, Verdict: cfront.Unknown, Result: &result.Result{Name: name, Status: result.Timeout, Err: ctx.Err()}, Time: time.Since(start)}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return p, nil, nil
}
