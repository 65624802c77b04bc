package main

import (
	"context"
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
	"github.com/musket-verify/musket/internal/prove"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("prove", "prove an assembly litmus test with loop invariants (the inductive-invariant method of Maleehuan's JAIST 2018 thesis)", runProve)
}

const proveUsage = `usage: musket prove -model sc|tso|pso [flags] TEST.litmus ...

The inductive-invariant method of Maleehuan's JAIST 2018 thesis
(Chapter 4) for litmus tests whose loops carry invariants, one comment
line per loop after the thread table:

    (* invariant P1:L 1:o1=0 *)

(P1's loop headed by label L; the condition is over P1's registers and
[x], the value P1 last wrote to x, with = != < <= > >=, + -, /\ \/ ~
and parentheses). The invariant must hold
when the loop is entered and be preserved by every iteration that
repeats the loop. Each loop is then replaced by its last iteration,
started from arbitrary registers that satisfy the invariant, preceded by
as many arbitrary earlier iterations (their reads arbitrary, their
writes kept) as the other threads' reads and the condition can observe.
The test's condition is checked on the abstraction, read as a property:
exists C and ~exists C claim C is unreachable, forall C that C always
holds.

The answer is "proved" or "not proved" with the reason. The method is
sound only for models that never reorder a read with a later access (PSO
and stronger): other models are refused.

Exit status: 0 proved, 1 not proved, 2 bad input, usage or refused model,
3 the time limit was reached (see 'musket -h').

Flags:
`

// proveJSON is the JSON object of one proof attempt.
type proveJSON struct {
	File      string            `json:"file"`
	Name      string            `json:"name,omitempty"`
	Model     string            `json:"model"`
	Status    string            `json:"status"` // done, timeout, error
	Verdict   string            `json:"verdict,omitempty"`
	Reason    string            `json:"reason,omitempty"`
	Error     string            `json:"error,omitempty"`
	Queries   int               `json:"queries"`
	Arbitrary []string          `json:"arbitrary,omitempty"`
	TimeMS    float64           `json:"time_ms"`
	Witness   *result.Execution `json:"witness,omitempty"`
}

func runProve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "memory `model`: sc, tso or pso")
	witness := fs.String("witness", "", "write the execution behind a 'not proved' (of the abstraction) as Graphviz to `FILE` (with several tests: FILE.NAME.dot)")
	asJSON := fs.Bool("json", false, "print one JSON object per test")
	timeout := addTimeout(fs, "test")
	fs.Usage = func() {
		fmt.Fprint(stderr, proveUsage)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 {
		return usageError(fs, stderr, "no test given: name .litmus tests whose loops carry invariants")
	}
	if *model == "" {
		return usageError(fs, stderr, "-model is required (sc, tso or pso)")
	}
	limit := timeout.resolve(len(operands))
	var wf *witnessFiles
	if *witness != "" {
		wf = newWitnessFiles(*witness, len(operands) > 1)
	}
	sig := interruptible()
	defer sig.stop()
	var st status
	done := 0
	// The line is printed once: by the run, or by the watchdog when the
	// run is stuck past the grace (a parse that does not poll), with the
	// tests finished by then.
	var doneSoFar atomic.Int64
	var said sync.Once
	interrupted := func(n int) {
		said.Do(func() { fmt.Fprintf(stderr, "interrupted: %d of %d tests finished\n", n, len(operands)) })
	}
	sig.atWatchdog(func() { interrupted(int(doneSoFar.Load())) })
	for _, path := range operands {
		if sig.ctx.Err() != nil {
			break
		}
		ctx, cancel := sig.ctx, context.CancelFunc(func() {})
		if limit > 0 {
			ctx, cancel = context.WithTimeout(sig.ctx, limit)
		}
		start := time.Now()
		wctx, unwatch := memlimit.Watch(ctx)
		spin := startSpinner(stderr, "prove "+filepath.Base(path))
		rep, err := prove.Prove(wctx, path, prove.Options{Model: *model})
		spin()
		// Z3 out of memory is an error that matches ErrExceeded.
		memOut := memlimit.Exceeded(wctx) || errors.Is(err, memlimit.ErrExceeded)
		timedOut := ctx.Err() != nil
		unwatch()
		cancel()
		if sig.interrupted() {
			break
		}
		done++
		doneSoFar.Store(int64(done))
		j := proveJSON{File: path, Model: *model, Status: "done"}
		switch {
		case memOut:
			// A limit, not bad input (Z3's "out of memory" was exit 2).
			st.add(exitLimit)
			j.Status, j.Error, j.TimeMS = "memory limit", memlimit.Error().Error(), ms(time.Since(start))
			if *asJSON {
				writeJSON(stdout, j)
			} else {
				fmt.Fprintf(stdout, "%s: memory limit after %.3fs (model %s): no answer\n", path, time.Since(start).Seconds(), *model)
			}
			fmt.Fprintf(stderr, "musket prove: %s: %v\n", path, memlimit.Error())
			continue
		case timedOut:
			// The deadline passed: whatever the error says, there is no
			// answer.
			st.add(exitLimit)
			j.Status, j.TimeMS = "timeout", ms(time.Since(start))
			if *asJSON {
				writeJSON(stdout, j)
			} else {
				fmt.Fprintf(stdout, "%s: timeout after %.3fs (model %s, limit %v): no answer\n", path, time.Since(start).Seconds(), *model, limit)
			}
			continue
		case err != nil:
			st.add(failureStatus(err)) // a test too large: a limit
			if *asJSON {
				j.Status, j.Error = "error", err.Error()
				writeJSON(stdout, j)
			}
			fmt.Fprintf(stderr, "%v\n", err)
			continue
		}
		j.Name, j.Model, j.Queries, j.Arbitrary, j.TimeMS = rep.Name, rep.Model, rep.Queries, rep.Arbitrary, ms(rep.Time)
		written := ""
		if !rep.Proved {
			st.add(exitFailed)
			if wf != nil && rep.Witness != nil && rep.Witness.Witness != nil {
				name := wf.name(rep.Witness.Name)
				if err := writeDot(name, rep.Witness.Name, rep.Witness.Witness); err != nil {
					fmt.Fprintf(stderr, "musket prove: %s: %v\n", path, err)
					st.add(exitBadInput)
				} else {
					written = name
				}
			}
		}
		if *asJSON {
			j.Verdict = "proved"
			if !rep.Proved {
				j.Verdict, j.Reason = "not proved", rep.Reason
				if rep.Witness != nil {
					j.Witness = rep.Witness.Witness
				}
			}
			writeJSON(stdout, j)
			continue
		}
		arbitrary := func() {
			if len(rep.Arbitrary) > 0 {
				fmt.Fprintf(stdout, "  arbitrary earlier iterations: %s\n", strings.Join(rep.Arbitrary, ", "))
			}
		}
		if rep.Proved {
			fmt.Fprintf(stdout, "%s: proved (model %s, %d SMT queries, %.3fs)\n", rep.Name, rep.Model, rep.Queries, rep.Time.Seconds())
			arbitrary()
			continue
		}
		fmt.Fprintf(stdout, "%s: not proved (model %s): %s (%.3fs)\n", rep.Name, rep.Model, rep.Reason, rep.Time.Seconds())
		arbitrary()
		if written != "" {
			fmt.Fprintf(stdout, "  execution written to %s\n", written)
		}
	}
	if sig.interrupted() {
		interrupted(done)
		return exitInterrupted
	}
	return int(st)
}
