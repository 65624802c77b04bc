package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/porthos"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("compare", "state inclusion between two memory models (Porthos)", runCompare)
}

const compareUsage = `usage: musket compare -source SIDE -target SIDE [flags] FILE ...

Asks whether every final state FILE reaches under the target model is also
reachable under the source model (Porthos; Ponce-de-León, Furbach,
Heljanko, Meyer, "BMC with Memory Models as Modules", FMCAD 2018, Section
IV): can code validated under the source break when ported to the target? A SIDE is
target:model (x86:tso, armv7:armv7), a model (tso, power, sc, a .cat file:
a .pts program is compiled for the model's architecture, or for the other
side's when the model has none) or a target (its built-in model).

A .pts program is unrolled to -bound, compiled for each side, and a state
gives a value to every shared location and register; a .litmus test runs
as it is under both models, its states are those herd prints.

The answer is "inclusion holds (bound k)" or "inclusion fails" with a state
reachable under the target and not under the source, and the number of
oracle iterations (candidate states checked). -both also checks the other
direction (equivalence).

Exit status: 0 inclusion holds, 1 it fails, 2 bad input or usage, 3 a
check timed out (see 'musket -h').

Flags:
`

type compareJSON struct {
	File       string            `json:"file"`
	Name       string            `json:"name"`
	Source     string            `json:"source"`
	Target     string            `json:"target"`
	Bound      int               `json:"bound"`
	Status     string            `json:"status"`
	Verdict    string            `json:"verdict,omitempty"`
	Error      string            `json:"error,omitempty"`
	Iterations int               `json:"iterations"`
	Missing    []map[string]any  `json:"missing,omitempty"`
	Bounded    bool              `json:"bounded"`
	Notes      []string          `json:"notes,omitempty"`
	TimeMS     float64           `json:"time_ms"`
	EncodeMS   float64           `json:"encode_ms"`
	OracleMS   float64           `json:"oracle_ms"`
	ReachMS    float64           `json:"reach_ms"`
	Witness    *result.Execution `json:"witness,omitempty"`
}

func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var incl listFlag
	source := fs.String("source", "", "the `side` whose states are the reference: target:model, model or target")
	target := fs.String("target", "", "the `side` ported to: target:model, model or target")
	fs.Var(&incl, "I", "`folder` to search for included .cat files (repeatable)")
	bound := intFlag(fs, "bound", 2, 1, "loop unrolling `bound`: the most iterations of each loop")
	both := fs.Bool("both", false, "check both directions (equivalence of the reachable states)")
	all := fs.Bool("all", false, "list every missing state, not only the first")
	witness := fs.String("witness", "", "write the target execution reaching the missing state as Graphviz to `FILE`")
	asJSON := fs.Bool("json", false, "print one JSON object per check")
	stats := fs.Bool("stats", false, "print the size of the oracle's encoding and where the time went")
	timeout := addTimeout(fs, "check")
	variant := fs.String("variant", "", "comma-separated CAT variants")
	fixIt := fs.Bool("fix", false, "repair: the cheapest stronger memory orders of a .pts program's target side that make every target state a source state, as a diff (see musket fix -h for the costs)")
	costsFile := fs.String("costs", "", "with -fix, a cost table `FILE` (as musket fix -costs)")
	fixEngine := fs.String("fix-engine", "auto", "with -fix, the `engine` checking the repair loop's programs: enum (the explicit one, up to 64 witnesses a check), smt (one), or auto (smt for x86, enum otherwise: the faster on the corpus' mutex programs)")
	fs.Usage = func() {
		fmt.Fprint(stderr, compareUsage)
		fs.PrintDefaults()
	}
	files, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(files) == 0:
		return usageError(fs, stderr, "no program given: name .pts programs or .litmus tests")
	case *source == "":
		return usageError(fs, stderr, "-source is required")
	case *target == "":
		return usageError(fs, stderr, "-target is required")
	}
	limit := timeout.resolve(len(files))
	src, err := porthos.ParseSide(*source, incl)
	if err != nil {
		fmt.Fprintf(stderr, "musket: -source %v\n", err)
		return 2
	}
	tgt, err := porthos.ParseSide(*target, incl)
	if err != nil {
		fmt.Fprintf(stderr, "musket: -target %v\n", err)
		return 2
	}
	src.Variants, tgt.Variants = variantSet(*variant), variantSet(*variant)
	if *fixIt {
		return runCompareFix(files, src, tgt, *bound, limit, *costsFile, *fixEngine, *asJSON, stdout, stderr)
	}
	status := 0
	worse := func(s int) {
		if s > status {
			status = s
		}
	}
	type direction struct{ src, tgt porthos.Side }
	dirs := []direction{{src, tgt}}
	if *both {
		dirs = append(dirs, direction{tgt, src})
	}
	sig := interruptibleIn(commandContext(stdout))
	defer sig.stop()
	checks, finished := len(files)*len(dirs), 0
	// The line is printed once: by the run, or by the watchdog when the
	// run is stuck past the grace, with the checks finished by then.
	var finishedSoFar atomic.Int64
	var said sync.Once
	interrupted := func(n int) {
		said.Do(func() { fmt.Fprintf(stderr, "interrupted: %d of %d checks finished\n", n, checks) })
	}
	sig.atWatchdog(func() { interrupted(int(finishedSoFar.Load())) })
files:
	for _, path := range files {
		for _, d := range dirs {
			if sig.interrupted() {
				break files
			}
			s, t := d.src, d.tgt
			ctx := sig.ctx
			cancel := context.CancelFunc(func() {})
			if limit > 0 {
				ctx, cancel = context.WithTimeout(ctx, limit)
			}
			p, err := porthos.LoadContext(ctx, path, &s, &t, *bound)
			if err != nil && ctx.Err() != nil && !sig.interrupted() {
				// The time limit was reached while the test was read.
				cancel()
				r := &porthos.Result{File: path, Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Source: s.String(), Target: t.String(), Bound: *bound, Status: porthos.Timeout}
				finished++
				finishedSoFar.Store(int64(finished))
				worse(compareStatus(r))
				if *asJSON {
					b, _ := json.Marshal(toCompareJSON(r))
					fmt.Fprintf(stdout, "%s\n", b)
					continue
				}
				printCompare(stdout, r, *stats)
				continue
			}
			if err != nil {
				cancel()
				if sig.interrupted() {
					break files
				}
				fmt.Fprintf(stderr, "%v\n", err)
				code := failureStatus(err) // a test too large: a limit
				if *asJSON {
					writeErrorJSON(stdout, path, err, code)
				}
				worse(code)
				break
			}
			opts := porthos.Options{Bound: *bound, All: *all}
			prog := newIterProgress(stderr)
			opts.Progress = prog.update
			wctx, unwatch := memlimit.Watch(ctx)
			r := porthos.Check(wctx, p, &s, &t, opts)
			if memlimit.Exceeded(wctx) && r.Status != porthos.Done || r.Status == porthos.Failed && errors.Is(r.Err, memlimit.ErrExceeded) {
				r.Status, r.Err = porthos.Failed, memlimit.Error()
			}
			unwatch()
			prog.finish()
			cancel()
			if sig.interrupted() {
				break files // its answer is no answer: the check was stopped
			}
			finished++
			finishedSoFar.Store(int64(finished))
			worse(compareStatus(r))
			if *witness != "" && r.Witness != nil {
				name := *witness
				if len(dirs) > 1 && d.src.ModelName != src.ModelName {
					name += ".reverse"
				}
				if err := writeDot(name, r.Name, r.Witness); err != nil {
					fmt.Fprintf(stderr, "musket: %v\n", err)
					worse(2)
				}
			}
			if *asJSON {
				b, _ := json.Marshal(toCompareJSON(r))
				fmt.Fprintf(stdout, "%s\n", b)
				continue
			}
			printCompare(stdout, r, *stats)
		}
	}
	if sig.interrupted() {
		interrupted(finished)
		return exitInterrupted
	}
	return status
}

func compareStatus(r *porthos.Result) int {
	switch r.Status {
	case porthos.Timeout:
		return 3
	case porthos.Failed:
		// Z3 out of memory, or a limit of an engine: a limit, not bad
		// input (compare -memory 16M panicked, then exited 2).
		if errors.Is(r.Err, memlimit.ErrExceeded) || errors.Is(r.Err, result.ErrLimit) {
			return 3
		}
		return 2
	}
	if r.Holds {
		return 0
	}
	return 1
}

func verdictOf(r *porthos.Result) string {
	switch r.Status {
	case porthos.Timeout:
		return "TIMEOUT"
	case porthos.Failed:
		return "ERROR"
	}
	if r.Holds {
		return fmt.Sprintf("inclusion holds (bound %d)", r.Bound)
	}
	return "inclusion fails"
}

// stateLine prints a state as herd does: "0:r=1; x=2;".
func stateLine(r *porthos.Result, st result.State) string {
	return report.StateLine(&result.Result{Observed: r.Observed}, st)
}

func printCompare(w io.Writer, r *porthos.Result, stats bool) {
	fmt.Fprintf(w, "%s: %s ⊆ %s: %s\n", r.Name, r.Target, r.Source, verdictOf(r))
	if r.Err != nil {
		fmt.Fprintf(w, "  %v\n", r.Err)
	}
	if r.Status == porthos.Done && !r.Holds {
		what := "state reachable under %s, not under %s:"
		if len(r.Missing) > 1 {
			what = "%d states reachable under %s, not under %s:"
			fmt.Fprintf(w, "  "+what+"\n", len(r.Missing), r.Target, r.Source)
		} else {
			fmt.Fprintf(w, "  "+what+"\n", r.Target, r.Source)
		}
		for _, st := range r.Missing {
			fmt.Fprintf(w, "    %s\n", stateLine(r, st))
		}
	}
	fmt.Fprintf(w, "  oracle iterations %d", r.Iterations)
	if r.SameProgram {
		fmt.Fprint(w, " (one program under both models)")
	}
	fmt.Fprintln(w)
	if r.Bounded {
		fmt.Fprintf(w, "  bounded: some paths need more than %d iterations of a loop; they were stopped at the bound\n", r.Bound)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fmt.Fprintf(w, "  time %.3fs (encoding %.3fs, oracle %.3fs, source reachability %.3fs)\n",
		r.Time.Seconds(), r.Encode.Seconds(), r.Oracle.Seconds(), r.Reach.Seconds())
	if stats {
		s := r.Stats
		fmt.Fprintf(w, "  oracle encoding: %d events, %d variables (%d Boolean, %d integer), %d constraints; relation pairs: %d may, %d must\n",
			s.Events, s.Vars(), s.BoolVars, s.IntVars, s.Constraints, s.RelPairs, s.MustPairs)
	}
}

func toCompareJSON(r *porthos.Result) compareJSON {
	j := compareJSON{File: r.File, Name: r.Name, Source: r.Source, Target: r.Target, Bound: r.Bound,
		Status: r.Status.String(), Iterations: r.Iterations, Bounded: r.Bounded, Notes: r.Notes,
		TimeMS: ms(r.Time), EncodeMS: ms(r.Encode), OracleMS: ms(r.Oracle), ReachMS: ms(r.Reach), Witness: r.Witness}
	if r.Status == porthos.Done {
		j.Verdict = "holds"
		if !r.Holds {
			j.Verdict = "fails"
		}
	}
	if r.Err != nil {
		j.Error = r.Err.Error()
	}
	for _, st := range r.Missing {
		m := map[string]any{}
		for i, ref := range r.Observed {
			m[ref.String()] = st[i].String()
		}
		j.Missing = append(j.Missing, m)
	}
	return j
}

// iterProgress shows, on a terminal, the oracle's iterations and the time
// spent while a check runs longer than a second.
type iterProgress struct {
	w     io.Writer
	mu    sync.Mutex
	iters int
	miss  int
	start time.Time
	drawn bool
	stop  chan struct{}
	done  chan struct{}
}

func newIterProgress(w io.Writer) *iterProgress {
	p := &iterProgress{w: w, start: time.Now()}
	if !isTerminal(w) {
		return p
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				if time.Since(p.start) < time.Second {
					continue
				}
				p.mu.Lock()
				p.drawn = true
				fmt.Fprintf(p.w, "\roracle iteration %d, %d missing, %.1fs ", p.iters, p.miss, time.Since(p.start).Seconds())
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *iterProgress) update(iterations, missing int) {
	p.mu.Lock()
	p.iters, p.miss = iterations, missing
	p.mu.Unlock()
}

func (p *iterProgress) finish() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	if p.drawn {
		fmt.Fprintf(p.w, "\r%50s\r", "")
	}
}
