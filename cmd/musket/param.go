package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/param"
	"github.com/musket-verify/musket/internal/source"
)

func init() {
	register("param", "check a Cubicle / Cubicle-W system (.cub) for any number of processes", runParam)
}

// selfCheckStates bounds the states of each instance -selfcheck explores.
const selfCheckStates = 200000

// runParam is 'musket param [flags] FILE.cub'. Exit codes: 0 SAFE,
// 1 UNSAFE, 2 bad input or usage, 3 a limit was reached, 4 the -selfcheck
// cross-check disagrees with the verdict.
func runParam(args []string, stdout, stderr io.Writer) int {
	// The parameterized search keeps samples of finite instances alive
	// (up to 200000 states): main's GOGC of 400, tuned for the explicit
	// engine, let arbiter v3's heap grow to five times its live size (a
	// gigabyte); at 50 it peaks under 300 MB, for no measurable time.
	// GOGC still overrides.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	moreProcs := paramProcs(stdout) // param_procs.go
	defer moreProcs()
	if _, served := stdout.(interface{ Context() context.Context }); !served && os.Getenv("GOGC") == "" {
		// (deferred after paramProcs, so stopped before it gives the Ps
		// back: with a memory limit under the live heap the collector
		// runs back to back, each cycle running the tuner's finalizer,
		// and GOMAXPROCS waited for a gap forever)
		defer paramGCFloor(50)() // param_gc.go
	}
	fs := flag.NewFlagSet("param", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "print every explored node")
	dot := fs.String("dot", "", "write the search graph to `FILE` (Graphviz)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	dfs := fs.Bool("dfs", false, "explore depth-first (default breadth-first)")
	depth := intFlag(fs, "depth", 0, 0, "stop exploring below depth `N` (0: no limit)")
	nodes := intFlag(fs, "nodes", 0, 0, "stop after visiting `N` nodes (0: no limit)")
	timeoutF := addTimeout(fs, "system")
	noApprox := fs.Bool("noapprox", false, "do not generalise cubes from a finite instance (plain backward reachability)")
	parSample := fs.Bool("parallel-sample", false, "grow the deep samples of the approximation on two goroutines (the same answers and more CPU time; it may save wall time when a second core is free, and measured on two cores it did not)")
	brab := intFlag(fs, "brab", 0, 0, "use Cubicle's BRAB with a finite instance of `N` processes as oracle (the algorithm of \"Cubicle: A Parallel SMT-based Model Checker for Parameterized Systems\", Conchon, Goel, Krstić, Mebsout, Zaïdi, with the candidates of Mebsout's \"Invariants inference for model checking of parameterized systems\"): the instance is explored breadth first, and a bad candidate restarts the search with the instance explored two levels deeper; 0: Musket's own approximation, which starts with such a search, 8 levels deep, for at most 200 cubes")
	fwdDepth := intFlag(fs, "forward-depth", -1, -1, "with -brab, explore the finite instance only `D` steps deep (Cubicle's option; -1: all of it)")
	model := fs.String("model", "tso", "memory model of the weak variables: tso (Cubicle-W's) or pso (per-variable FIFO store buffers)")
	selfcheck := fs.Bool("selfcheck", false, "cross-check the verdict on the instances with 2 to 4 processes, explored forward (exit 4 on a disagreement)")
	invariants := fs.Bool("invariants", false, "for a SAFE system, print the inductive invariant found (cubes no reachable state satisfies, in Cubicle's syntax)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the search to `FILE` (for go tool pprof)")
	memProfile := fs.String("memprofile", "", "write an allocation profile of the search to `FILE` (for go tool pprof)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: musket param [flags] FILE.cub")
		fmt.Fprintln(fs.Output(), "Exit status: 0 SAFE, 1 UNSAFE, 2 bad input, 3 limit reached, 4 -selfcheck disagrees (see 'musket -h').")
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) != 1 {
		return usageError(fs, stderr, "give exactly one .cub file, not %d", len(operands))
	}
	if *parSample {
		// the helper goroutine runs only with a second P (parsample.go):
		// on one P for the first second, -parallel-sample did nothing
		// in the runs it is meant for
		moreProcs()
	}
	if *fwdDepth >= 0 && *brab == 0 {
		return usageError(fs, stderr, "-forward-depth needs -brab")
	}
	timeout := &timeoutF.d
	file := operands[0]
	sys, err := param.ParseFile(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		if paramUnsupported(err) {
			// A valid system using a feature Musket does not handle
			// (exit status 3, as the table says), not bad input.
			if *asJSON {
				status := "unsupported"
				if strings.Contains(err.Error(), "limit reached:") {
					status = "limit"
				}
				writeJSON(stdout, errorJSON{File: file, Status: status, Error: err.Error(), ExitStatus: exitLimit})
			}
			return exitLimit
		}
		if *asJSON {
			writeErrorJSON(stdout, file, err, exitBadInput)
		}
		return exitBadInput
	}
	if *model != "tso" && *model != "pso" {
		fmt.Fprintf(stderr, "musket param: unknown -model %q: tso or pso\n", *model)
		return 2
	}
	if *timeout < 0 || *depth < 0 || *nodes < 0 {
		fmt.Fprintln(stderr, "musket param: -timeout, -depth and -nodes cannot be negative")
		return 2
	}
	opts := param.Options{DFS: *dfs, MaxDepth: *depth, MaxNodes: *nodes, Timeout: *timeout, Graph: *dot != "", NoApprox: *noApprox, Model: *model, ParallelSample: *parSample, Brab: *brab, ForwardDepth: *fwdDepth}
	if *verbose {
		opts.Verbose = stdout
		if *asJSON {
			// stdout holds JSON only: the nodes go to stderr.
			opts.Verbose = stderr
		}
	}
	stopTicks := func() {}
	if isTerminal(stderr) && !*verbose {
		start := time.Now()
		opts.Progress, stopTicks = paramTicks(paramProgress(stderr, file, func() time.Duration { return time.Since(start) }), 250*time.Millisecond)
		defer stopTicks()
	}
	sig := interruptibleIn(commandContext(stdout))
	defer sig.stop()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "musket param: -cpuprofile: %v\n", err)
			return 2
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	res, err := param.Verify(sig.ctx, sys, opts)
	if *memProfile != "" {
		if err := writeHeapProfile(*memProfile); err != nil {
			fmt.Fprintf(stderr, "musket param: -memprofile: %v\n", err)
			return 2
		}
	}
	stopTicks()
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if sig.interrupted() {
		// What finished: the search so far, no verdict.
		fmt.Fprintf(stderr, "interrupted: %s: no verdict", file)
		if res != nil {
			fmt.Fprintf(stderr, " after %d nodes, %.2fs", res.Visited, res.Time.Seconds())
		}
		fmt.Fprintln(stderr)
		if *asJSON {
			writeJSON(stdout, map[string]any{"file": file, "status": "interrupted", "verdict": "unknown", "limit": "interrupted"})
		}
		return exitInterrupted
	}
	if err != nil && errors.Is(err, memlimit.ErrExceeded) {
		fmt.Fprintf(stderr, "%s: no verdict: %v\n", file, memlimit.Error())
		if *asJSON {
			writeJSON(stdout, map[string]any{"file": file, "status": "memory limit", "verdict": "unknown", "limit": "memory", "error": err.Error(), "exit_status": exitLimit})
		}
		return exitLimit
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *dot != "" {
		f, err := createAtomic(*dot)
		if err == nil {
			if err = param.WriteDot(f, res); err != nil {
				f.Abort()
			} else {
				err = f.Close()
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
	}
	if *asJSON {
		var withInv *param.System
		if *invariants {
			withInv = sys
		}
		if err := param.WriteJSON(stdout, file, res, withInv); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
	} else {
		param.WriteText(stdout, file, res)
		if *invariants {
			param.WriteInvariants(stdout, sys, res)
		}
	}
	if *selfcheck {
		cc := param.SelfCheck(sig.ctx, sys, res, opts, selfCheckStates)
		out := stdout
		if *asJSON {
			out = stderr
		}
		fmt.Fprint(out, cc)
		if !cc.OK() {
			return 4
		}
	}
	switch res.Verdict {
	case param.Safe:
		return 0
	case param.Unsafe:
		return 1
	}
	return 3
}

// paramProgress is param's terminal progress line. Each restart of the
// search (after a wrong approximation) counts its nodes from 0: the line
// adds them up so that it never goes back, and says how many searches
// there were; \033[K clears what a longer line left.
func paramProgress(w io.Writer, file string, elapsed func() time.Duration) func(visited, queued int) {
	before, last, searches := 0, 0, 1
	return func(visited, queued int) {
		if visited < last {
			before += last
			searches++
		}
		last = visited
		again := ""
		if searches > 1 {
			again = fmt.Sprintf(" (%d searches)", searches)
		}
		fmt.Fprintf(w, "\r\033[K%s: %d nodes visited%s, %d queued, %.1fs", file, before+visited, again, queued, elapsed().Seconds())
	}
}

// paramTicks calls draw with the latest figures every period too: the
// search calls Progress from its loop only, and the phases without one
// (-brab's exploration of the instance, the forward decision of
// number_procs) showed nothing for seconds (robust6). The line's time
// goes on. stop ends the ticks; draw is never called after it returns.
func paramTicks(draw func(visited, queued int), period time.Duration) (update func(visited, queued int), stop func()) {
	var mu sync.Mutex
	visited, queued := 0, 0
	update = func(v, q int) {
		mu.Lock()
		defer mu.Unlock()
		visited, queued = v, q
		draw(v, q)
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				mu.Lock()
				draw(visited, queued)
				mu.Unlock()
			}
		}
	}()
	var once sync.Once
	return update, func() {
		once.Do(func() {
			close(done)
			<-stopped
		})
	}
}

// writeHeapProfile writes the allocations so far to file (-memprofile).
func writeHeapProfile(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	err = pprof.Lookup("allocs").WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// paramUnsupported tells whether every error of a .cub file is about a
// feature of a valid system that Musket does not handle, or a limit of
// Musket the system goes past: the parser's messages then begin
// "unsupported:" ("unsupported: the proc variable H as an index
// (Cubicle reads it)") or "limit reached:" (a formula too large in
// disjunctive normal form).
func paramUnsupported(err error) bool {
	var l source.ErrorList
	if !errors.As(err, &l) || len(l) == 0 {
		return false
	}
	for _, e := range l {
		if !strings.HasPrefix(e.Msg, "unsupported:") && !strings.HasPrefix(e.Msg, "limit reached:") {
			return false
		}
	}
	return true
}
