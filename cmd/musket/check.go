package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("check", "bounded model checking of a program (.pts, compiled for a target) or a litmus test with loops", runCheck)
}

const checkUsage = `usage: musket check [flags] PROGRAM.pts|PROGRAM.c|TEST.litmus ...

Unrolls the loops of each program to -bound, compiles it for -target by
the mappings of Table I of Ponce-de-León, Furbach, Heljanko, Meyer, "BMC
with Memory Models as Modules" (FMCAD 2018), and asks whether its final
condition is reachable under the memory model (the target's built-in
model unless -model is given): REACHABLE or UNREACHABLE (for a forall
condition: whether a state violating it is reachable). Paths that would
need more loop iterations than the bound stop at the bound; the verdict
is then said to be bounded.

An assembly litmus test (.litmus, e.g. SPARC or ARM with backward
branches) is checked as it is, under -model (default: its architecture's
model; -target is ignored): each loop is unwound so that its backward
branch is taken at most -bound times on a path (the bounded method of
Maleehuan's JAIST 2018 thesis); paths needing more are dropped and the
verdict says it is bounded, so that UNREACHABLE within the bound is never
a proof (see musket prove).

Exit status: 0 every condition unreachable, 1 some condition reachable,
2 bad input or usage (including a target whose built-in model does not
exist yet), 3 a check timed out or the model uses what the SMT engine
cannot encode, 4 the engines disagree (-engine both), 130 interrupted
(see 'musket -h').

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

// checkConfig is what one check needs besides the file and the engine.
type checkConfig struct {
	target, model string
	incl          []string
	m             *cat.Model
	name          string
	bound         int
	noAnalysis    bool
	variants      map[string]bool
	liveness      bool
}

// checkRunner checks one file with one engine ("smt" or "enum"). Tests
// replace it to provoke what the real engines do not do.
var checkRunner = func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
	if strings.HasSuffix(path, ".litmus") {
		return bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: c.model, IncludeDirs: c.incl, Bound: c.bound, Engine: engine, NoAnalysis: c.noAnalysis, Variants: c.variants})
	}
	return bmc.CheckProgram(ctx, path, c.m, c.name, bmc.ProgramOptions{Target: c.target, Bound: c.bound, Engine: engine, NoAnalysis: c.noAnalysis, Variants: c.variants})
}

// checkBoth runs a check under both engines, each with the whole time
// limit. When both answer, a different answer is a disagreement (its
// text names the program and both answers); the result is then the
// explicit engine's. When one does not answer, its result is returned.
func checkBoth(ctx context.Context, timeout time.Duration, path string, c checkConfig) (*bmc.ProgramResult, string, error) {
	one := func(engine string) (*bmc.ProgramResult, error) {
		cctx, cancel := ctx, context.CancelFunc(func() {})
		if timeout > 0 {
			cctx, cancel = context.WithTimeout(ctx, timeout)
		}
		defer cancel()
		return checkRunner(cctx, path, engine, c)
	}
	e, err := one("enum")
	if err != nil || e.Result.Status != result.Done {
		return e, "", err
	}
	s, err := one("smt")
	if err != nil || s.Result.Status != result.Done {
		return s, "", err
	}
	if e.Reachable != s.Reachable {
		return e, fmt.Sprintf("%s: the engines disagree on %s: enum says %s, smt says %s", path, e.Name, reachWord(e.Reachable), reachWord(s.Reachable)), nil
	}
	s.Result.Time += e.Result.Time
	if s.Result.Witness == nil {
		s.Result.Witness = e.Result.Witness
	}
	return s, "", nil
}

func reachWord(reachable bool) string {
	if reachable {
		return "REACHABLE"
	}
	return "UNREACHABLE"
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var incl listFlag
	target := fs.String("target", "x86", fmt.Sprintf("compilation `target`: %v", compile.Targets()))
	model := fs.String("model", "", "built-in model name or `.cat file` (default: the target's built-in model: x86→tso, power→power, armv7→armv7, aarch64→aarch64, riscv→riscv)")
	fs.Var(&incl, "I", "`folder` to search for included .cat files (repeatable)")
	bound := intFlag(fs, "bound", 2, 0, "loop unrolling `bound`: the most iterations of each loop (1 or more for a .pts program)")
	engine := fs.String("engine", "smt", "`engine`: smt (the SMT encoding), enum (explicit enumeration), or both (a disagreement is an error, exit status 4)")
	witness := fs.String("witness", "", "write the execution reaching the condition as Graphviz to `FILE` (with several programs: FILE.NAME.dot)")
	stats := fs.Bool("stats", false, "print the size of the encoding (variables, constraints, relation pairs) and where the time went")
	noAnalysis := fs.Bool("no-analysis", false, "turn the relation analysis off (for measurements)")
	asJSON := fs.Bool("json", false, "print one JSON object per program")
	timeout := addTimeout(fs, "program")
	variant := fs.String("variant", "", "comma-separated CAT variants")
	liveness := fs.Bool("liveness", false, "C programs: also report a thread that can wait forever in a fair execution (a spin loop, lock or join)")
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) == 0 {
		return usageError(fs, stderr, "no program given: name .pts or .c programs or .litmus tests")
	}
	switch *engine {
	case "smt", "enum", "both":
	default:
		return usageError(fs, stderr, "unknown engine %q (want smt, enum or both)", *engine)
	}
	if _, ok := compile.ArchWord(*target); !ok {
		return usageError(fs, stderr, "unknown target %q (want one of %v)", *target, compile.Targets())
	}
	if *bound < 1 {
		for _, path := range operands {
			if !strings.HasSuffix(path, ".litmus") {
				return usageError(fs, stderr, "-bound %d: a .pts program (%s) needs a bound of 1 or more", *bound, path)
			}
		}
	}
	m, name, err := bmc.ModelFor(*target, *model, incl)
	if err != nil {
		fmt.Fprintf(stderr, "musket check: %v\n", err)
		return exitBadInput
	}
	c := checkConfig{target: *target, model: *model, incl: incl, m: m, name: name, bound: *bound, noAnalysis: *noAnalysis, variants: variantSet(*variant), liveness: *liveness}
	limit := timeout.resolve(len(operands))
	var st status
	var wf *witnessFiles
	if *witness != "" {
		wf = newWitnessFiles(*witness, len(operands) > 1)
	}
	sig := interruptible()
	defer sig.stop()
	checked := 0
	var timeouts []string
	prog := newBatchProgress(stderr, len(operands), isTerminal(stderr))
	defer prog.close()
	for i, path := range operands {
		if sig.ctx.Err() != nil {
			break
		}
		prog.started(i, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		if isC(path) {
			prog.mu.Lock()
			prog.clear()
			st.add(checkC(sig.ctx, stdout, stderr, cCheck{path: path, engine: *engine, limit: limit, asJSON: *asJSON, c: c, wf: wf}))
			prog.mu.Unlock()
			checked++
			continue
		}
		var (
			pr       *bmc.ProgramResult
			disagree string
			err      error
		)
		if *engine == "both" {
			pr, disagree, err = checkBoth(sig.ctx, limit, path, c)
		} else {
			ctx, cancel := sig.ctx, context.CancelFunc(func() {})
			if limit > 0 {
				ctx, cancel = context.WithTimeout(sig.ctx, limit)
			}
			pr, err = checkRunner(ctx, path, *engine, c)
			cancel()
		}
		if sig.interrupted() {
			break
		}
		checked++
		if err != nil {
			prog.finished(i, true)
			prog.print(func() { fmt.Fprintf(stderr, "%v\n", err) })
			st.add(exitBadInput)
			continue
		}
		r := pr.Result
		verdict := reachWord(pr.Reachable)
		switch r.Status {
		case result.Done:
			if pr.Reachable {
				st.add(exitFailed)
			}
		case result.Timeout:
			verdict = "TIMEOUT"
			timeouts = append(timeouts, pr.Name)
			st.add(exitLimit)
		case result.Unsupported:
			verdict = "UNSUPPORTED"
			st.add(exitLimit)
		default:
			verdict = "ERROR"
			st.add(failureStatus(r.Err))
		}
		prog.finished(i, r.Status != result.Done || pr.Reachable || disagree != "")
		// Results are written with the progress line cleared and held off.
		prog.mu.Lock()
		prog.clear()
		printCheckResult(stdout, stderr, checkOutput{path: path, pr: pr, verdict: verdict, disagree: disagree, engine: *engine,
			asJSON: *asJSON, stats: *stats, witness: *witness, wf: wf}, &st)
		prog.mu.Unlock()
	}
	prog.close()
	if len(timeouts) > 0 && !*asJSON {
		fmt.Fprintf(stderr, "timed out (limit %v each): %s\n", limit, strings.Join(timeouts, ", "))
	}
	if *asJSON {
		writeJSON(stdout, map[string]checkSummary{"summary": {Programs: len(operands), Checked: checked, Timeouts: timeouts,
			Interrupted: sig.interrupted(), ExitStatus: exitOf(st, sig.interrupted())}})
	}
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d of %d programs checked\n", checked, len(operands))
		return exitInterrupted
	}
	return int(st)
}

// exitOf is the exit status of a run: interrupted, or the highest status
// seen.
func exitOf(st status, interrupted bool) int {
	if interrupted {
		return exitInterrupted
	}
	return int(st)
}

// checkSummary is the final JSON object of 'musket check -json'.
type checkSummary struct {
	Programs    int      `json:"programs"`
	Checked     int      `json:"checked"`
	Timeouts    []string `json:"timeouts,omitempty"`
	Interrupted bool     `json:"interrupted,omitempty"`
	ExitStatus  int      `json:"exit_status"`
}

// checkOutput is what printCheckResult needs of one checked program.
type checkOutput struct {
	path, verdict, disagree, engine, witness string
	pr                                       *bmc.ProgramResult
	asJSON, stats                            bool
	wf                                       *witnessFiles
}

// printCheckResult writes one program's result, as text or JSON, and its
// witness file.
func printCheckResult(stdout, stderr io.Writer, o checkOutput, st *status) {
	pr, r, verdict, disagree, path := o.pr, o.pr.Result, o.verdict, o.disagree, o.path
	asJSON, stats, witness, wf, engine := &o.asJSON, &o.stats, &o.witness, o.wf, &o.engine
	{
		if disagree != "" {
			fmt.Fprintf(stderr, "musket check: %s\n", disagree)
			verdict = "DISAGREEMENT"
			st.add(exitDisagree)
		}
		if wf != nil && r.Witness != nil && disagree == "" {
			if err := writeDot(wf.name(pr.Name), r.Name, r.Witness); err != nil {
				fmt.Fprintf(stderr, "musket check: %s: %v\n", path, err)
				st.add(exitBadInput)
			}
		}
		if *asJSON {
			j := checkJSON{File: path, Name: pr.Name, Target: pr.Target, Model: pr.Model, Engine: *engine, Bound: pr.Bound,
				Condition: pr.Condition, Verdict: verdict, Bounded: r.Bounded, Status: r.Status.String(),
				TimeMS: ms(r.Time), EncodeMS: ms(pr.Report.Encode), SolveMS: ms(pr.Report.Solve), Witness: r.Witness}
			if r.Err != nil {
				j.Error = r.Err.Error()
			}
			if disagree != "" {
				j.Status, j.Error = "disagreement", disagree
			}
			if *stats && *engine != "enum" {
				s := pr.Report.Stats
				j.Stats = &s
			}
			writeJSON(stdout, j)
			return
		}
		fmt.Fprintf(stdout, "%s: %s %s (target %s, model %s, bound %d)\n", pr.Name, verdict, pr.Condition, pr.Target, pr.Model, pr.Bound)
		if r.Err != nil {
			fmt.Fprintf(stdout, "  %v\n", r.Err)
		}
		if disagree != "" {
			fmt.Fprintf(stdout, "  %s\n", disagree)
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
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
