package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("check", "bounded model checking of a program (.pts, compiled for a target) or a litmus test with loops", runCheck)
}

const checkUsage = `usage: musket check [flags] PROGRAM.pts|TEST.litmus ...

Unrolls the loops of each program to -bound, compiles it for -target by
the mappings of seed 003's Table I, and asks whether its final condition
is reachable under the memory model (the target's built-in model unless
-model is given): REACHABLE or UNREACHABLE (for a forall condition: whether
a state violating it is reachable). Paths that would need more loop
iterations than the bound stop at the bound; the verdict is then said to be
bounded.

An assembly litmus test (.litmus, e.g. SPARC or ARM with backward
branches) is checked as it is, under -model (default: its architecture's
model; -target is ignored): each loop is unwound so that its backward
branch is taken at most -bound times on a path (seed 004's bounded method);
paths needing more are dropped and the verdict says it is bounded, so that
UNREACHABLE within the bound is never a proof (see musket prove).

Exit status: 0 every condition unreachable, 1 some condition reachable,
2 bad input or usage (including a target whose built-in model does not
exist yet), 3 a check timed out or the model uses what the SMT engine
cannot encode.

Flags:
`

type checkJSON struct {
	File      string            `json:"file"`
	Name      string            `json:"name"`
	Target    string            `json:"target"`
	Model     string            `json:"model"`
	Engine    string            `json:"engine"`
	Bound     int               `json:"bound"`
	Condition string            `json:"condition"`
	Verdict   string            `json:"verdict"`
	Bounded   bool              `json:"bounded"`
	Status    string            `json:"status"`
	Error     string            `json:"error,omitempty"`
	TimeMS    float64           `json:"time_ms"`
	EncodeMS  float64           `json:"encode_ms"`
	SolveMS   float64           `json:"solve_ms"`
	Stats     *bmc.Stats        `json:"stats,omitempty"`
	Witness   *result.Execution `json:"witness,omitempty"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var incl listFlag
	target := fs.String("target", "x86", fmt.Sprintf("compilation `target`: %v", compile.Targets()))
	model := fs.String("model", "", "built-in model name or `.cat file` (default: the target's built-in model: x86→tso, power→power, armv7→armv7, aarch64→aarch64, riscv→riscv)")
	fs.Var(&incl, "I", "`folder` to search for included .cat files (repeatable)")
	bound := fs.Int("bound", 2, "loop unrolling bound: the most iterations of each loop")
	engine := fs.String("engine", "smt", "`engine`: smt (the SMT encoding) or enum (explicit enumeration)")
	witness := fs.String("witness", "", "write the execution reaching the condition as Graphviz to `FILE`")
	stats := fs.Bool("stats", false, "print the size of the encoding (variables, constraints, relation pairs) and where the time went")
	noAnalysis := fs.Bool("no-analysis", false, "turn the relation analysis off (for measurements)")
	asJSON := fs.Bool("json", false, "print one JSON object per program")
	timeout := fs.Duration("timeout", 0, "time limit per program (e.g. 30s); 0 means none")
	variant := fs.String("variant", "", "comma-separated CAT variants")
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 {
		fs.Usage()
		return 2
	}
	if *engine != "smt" && *engine != "enum" {
		fmt.Fprintf(stderr, "musket: unknown engine %q (want smt or enum)\n", *engine)
		return 2
	}
	if _, ok := compile.ArchWord(*target); !ok {
		fmt.Fprintf(stderr, "musket: unknown target %q (want one of %v)\n", *target, compile.Targets())
		return 2
	}
	m, name, err := bmc.ModelFor(*target, *model, incl)
	if err != nil {
		fmt.Fprintf(stderr, "musket: %v\n", err)
		return 2
	}
	status := 0
	worse := func(s int) {
		if s > status {
			status = s
		}
	}
	for _, path := range operands {
		ctx := context.Background()
		var cancel context.CancelFunc = func() {}
		if *timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, *timeout)
		}
		var pr *bmc.ProgramResult
		if strings.HasSuffix(path, ".litmus") {
			pr, err = bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: *model, IncludeDirs: incl, Bound: *bound, Engine: *engine, NoAnalysis: *noAnalysis, Variants: variantSet(*variant)})
		} else {
			pr, err = bmc.CheckProgram(ctx, path, m, name, bmc.ProgramOptions{Target: *target, Bound: *bound, Engine: *engine, NoAnalysis: *noAnalysis, Variants: variantSet(*variant)})
		}
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			worse(2)
			continue
		}
		r := pr.Result
		verdict := "UNREACHABLE"
		if pr.Reachable {
			verdict = "REACHABLE"
		}
		switch r.Status {
		case result.Done:
			if pr.Reachable {
				worse(1)
			}
		case result.Timeout:
			verdict = "TIMEOUT"
			worse(3)
		case result.Unsupported:
			verdict = "UNSUPPORTED"
			worse(3)
		default:
			verdict = "ERROR"
			worse(2)
		}
		if *witness != "" && r.Witness != nil {
			if err := writeDot(*witness, r.Name, r.Witness); err != nil {
				fmt.Fprintf(stderr, "musket: %v\n", err)
				worse(2)
			}
		}
		if *asJSON {
			j := checkJSON{File: path, Name: pr.Name, Target: pr.Target, Model: pr.Model, Engine: *engine, Bound: pr.Bound,
				Condition: pr.Condition, Verdict: verdict, Bounded: r.Bounded, Status: r.Status.String(),
				TimeMS: ms(r.Time), EncodeMS: ms(pr.Report.Encode), SolveMS: ms(pr.Report.Solve), Witness: r.Witness}
			if r.Err != nil {
				j.Error = r.Err.Error()
			}
			if *stats && *engine == "smt" {
				s := pr.Report.Stats
				j.Stats = &s
			}
			b, _ := json.Marshal(j)
			fmt.Fprintf(stdout, "%s\n", b)
			continue
		}
		fmt.Fprintf(stdout, "%s: %s %s (target %s, model %s, bound %d)\n", pr.Name, verdict, pr.Condition, pr.Target, pr.Model, pr.Bound)
		if r.Err != nil {
			fmt.Fprintf(stdout, "  %v\n", r.Err)
		}
		if r.Bounded && strings.HasSuffix(path, ".litmus") {
			fmt.Fprintf(stdout, "  bounded: some paths take a backward branch more than %d times; they were dropped (not a proof)\n", pr.Bound)
		} else if r.Bounded {
			fmt.Fprintf(stdout, "  bounded: some paths need more than %d iterations of a loop; they were stopped at the bound\n", pr.Bound)
		}
		fmt.Fprintf(stdout, "  time %.3fs", r.Time.Seconds())
		if *engine == "smt" {
			fmt.Fprintf(stdout, " (encoding %.3fs, solving %.3fs)", pr.Report.Encode.Seconds(), pr.Report.Solve.Seconds())
		}
		fmt.Fprintln(stdout)
		if *stats && *engine == "smt" {
			s := pr.Report.Stats
			fmt.Fprintf(stdout, "  encoding: %d events, %d variables (%d Boolean, %d integer), %d constraints; relation pairs: %d may, %d must\n",
				s.Events, s.Vars(), s.BoolVars, s.IntVars, s.Constraints, s.RelPairs, s.MustPairs)
		}
		if *witness != "" && r.Witness == nil {
			fmt.Fprintf(stdout, "  no witness: the condition is not reachable\n")
		}
	}
	return status
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
