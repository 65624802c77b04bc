package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/musket-verify/musket/internal/prove"
)

func init() {
	register("prove", "prove an assembly litmus test with loop invariants (seed 004's inductive-invariant method)", runProve)
}

const proveUsage = `usage: musket prove -model sc|tso|pso [flags] TEST.litmus ...

The inductive-invariant method of seed 004 (Chapter 4) for litmus tests
whose loops carry invariants, one comment line per loop after the thread
table:

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

Exit status: 0 proved, 1 not proved, 2 bad input, usage or refused model.

Flags:
`

func runProve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "memory `model`: sc, tso or pso")
	witness := fs.String("witness", "", "write the execution behind a 'not proved' (of the abstraction) as Graphviz to `FILE`")
	fs.Usage = func() {
		fmt.Fprint(stderr, proveUsage)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 || *model == "" {
		fs.Usage()
		return 2
	}
	status := 0
	for _, path := range operands {
		rep, err := prove.Prove(context.Background(), path, prove.Options{Model: *model})
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			status = 2
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
		if status == 0 {
			status = 1
		}
		fmt.Fprintf(stdout, "%s: not proved (model %s): %s (%.3fs)\n", rep.Name, rep.Model, rep.Reason, rep.Time.Seconds())
		arbitrary()
		if *witness != "" && rep.Witness != nil && rep.Witness.Witness != nil {
			if err := writeDot(*witness, rep.Witness.Name, rep.Witness.Witness); err != nil {
				fmt.Fprintf(stderr, "musket: %v\n", err)
				status = 2
			} else {
				fmt.Fprintf(stdout, "  execution written to %s\n", *witness)
			}
		}
	}
	return status
}
