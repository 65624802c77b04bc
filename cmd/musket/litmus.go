package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("litmus", "check herd7 litmus tests under a memory model", runLitmus)
}

// testEngines replaces engines of the litmus command (tests only).
var testEngines map[string]batch.Engine

// litmusFlags are the flags of the litmus command.
type litmusFlags struct {
	fs                                  *flag.FlagSet
	incl, libDirs, skipChecks           listFlag
	model, catFlag, expectFile          *string
	witness, variant, engine, speed     *string
	bell, macros, conf                  *string
	show, outDir, showEvents, through   *string
	initWrites                          *string
	hexa                                *bool
	jobs, bound, nshow                  *int
	asJSON, quiet, verdictOnly, explain *bool
	timeout                             *timeoutFlag
	shard                               *shardFlag
}

// setup is the options of a run that decide its results, in a fixed
// order, the flags as given (the shards of one campaign run one command
// line): "model=sc engine=auto unroll=2 ...". Only the options given are
// listed, and -engine and -unroll always.
func (f *litmusFlags) setup() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	model := *f.model
	if model == "" {
		model = *f.catFlag
	}
	add("model", model)
	add("conf", *f.conf)
	add("bell", *f.bell)
	add("macros", *f.macros)
	add("variant", *f.variant)
	add("engine", *f.engine)
	add("unroll", strconv.Itoa(*f.bound))
	if *f.speed != "false" {
		add("speedcheck", *f.speed)
	}
	if *f.through != "none" {
		add("through", *f.through)
	}
	add("skipchecks", strings.Join(f.skipChecks, ","))
	if *f.verdictOnly {
		add("verdict-only", "true")
	}
	if *f.nshow > 0 {
		add("nshow", strconv.Itoa(*f.nshow))
	}
	add("expect", *f.expectFile)
	return strings.Join(parts, " ")
}

// newLitmusFlags declares the flags of the litmus command.
func newLitmusFlags(stderr io.Writer) *litmusFlags {
	fs := flag.NewFlagSet("litmus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &litmusFlags{fs: fs}
	f.model = fs.String("model", "", "built-in model name or `.cat file` (default: the architecture's built-in model); a herd7 library name such as x86tso.cat is looked for in -set-libdir, else answered by the matching built-in model")
	f.catFlag = fs.String("cat", "", "the same as -model (herd7's spelling)")
	fs.Var(&f.libDirs, "set-libdir", "herd7's library `folder`: bare model names and included files are looked for there (repeatable)")
	fs.Var(&f.incl, "I", "`folder` to search for included .cat files (repeatable)")
	f.jobs = intFlag(fs, "j", 0, 0, "parallel `workers` (default: all cores)")
	f.expectFile = fs.String("expect", "", "`CSV` of expected verdicts (PATH,1|0); prints disagreements and 'agreement A/T'")
	f.asJSON = fs.Bool("json", false, "print one JSON object per test, then one {\"summary\": ...} object")
	f.timeout = addTimeout(fs, "test")
	f.witness = fs.String("witness", "", "write the witness execution of each test as Graphviz to `FILE` (with several tests: FILE.NAME.dot, FILE.NAME-2.dot for a repeated name)")
	f.variant = fs.String("variant", "", "comma-separated CAT variants (if \"name\" in models)")
	f.bound = intFlag(fs, "unroll", 2, 0, "`times` a backward jump may be taken on one path")
	f.quiet = fs.Bool("q", false, "no diagnostics on stderr (herd7's -q): notes, progress, the summary; the results are printed")
	f.engine = fs.String("engine", "auto", "`engine`: auto (the explicit engine, joined on a test it has not answered within a second by the SMT engine and by the explicit engine pruned as with -speedcheck fast; the first verdict wins, so a test answered by one of those prints no execution counts, and one answered by the pruned engine neither states nor observation), enum (explicit enumeration, the reference), smt (SMT encoding solved by Z3), graph (execution graphs explored one at a time, as GenMC does: the built-in sc, tso, pso, rc11, imm, aarch64 and riscv only; loops unrolled as -unroll says), or both (each test under the explicit and the SMT engine; a disagreement is an error, exit status 4; where the explicit engine reaches the time limit on a model the graph engine decides, the graph engine is compared in its place; when one engine stops at a limit and the other answers, that answer is printed, marked unconfirmed with the engine that did not finish (text and JSON), and the exit status is 3)")
	f.speed = fs.String("speedcheck", "false", "`mode` of the explicit engine (herd7's -speedcheck): false (every candidate execution), true (only the executions that can settle the condition, those whose final state satisfies the proposition for exists and ~exists, falsifies it for forall: a branch of the search is cut as soon as the values it fixes decide the proposition the other way; the verdict is the same, the states, counts, observation and flags cover those executions only), fast (true, stopping at the first execution that validates exists or invalidates ~exists and forall)")
	f.verdictOnly = fs.Bool("verdict-only", false, "smt engine: give the verdict without listing every final state (faster)")
	f.bell = fs.String("bell", "", "`.bell file` read before the model (herd7's -bell)")
	f.macros = fs.String("macros", "", "`.def file` of C macros (herd7's -macros), e.g. linux-kernel.def")
	f.explain = fs.Bool("explain", false, "say why the condition's outcome is allowed (its witness, with rf, co and fr) or forbidden (each candidate execution that reaches it, the first check of the model it fails and, for acyclic and irreflexive checks, the shortest cycle edge by edge); with -witness the cycle is drawn")
	f.show = fs.String("show", "", "with -o, the executions drawn (herd7's -show): prop (those that satisfy the condition's proposition), neg (those that do not), cond (those that make the condition true), wit (the interesting ones: the proposition true for exists and ~exists, false for forall), all, none (the default, as in herd7: -o alone writes empty files); without -o nothing is drawn")
	f.nshow = intFlag(fs, "nshow", 0, 0, "stop a test after `N` executions that -show selects, drawn or not, as herd7 does (its states and counts then cover the executions seen so far; the explicit engine; 0: no limit, at most 1000 drawn)")
	f.outDir = fs.String("o", "", "write one Graphviz file per test, `DIR`/NAME.dot, with the executions -show selects (herd7's -o)")
	f.showEvents = fs.String("showevents", "noregs", "`events` drawn by -o: all or noregs (every event: Musket has no register events), mem (memory accesses only)")
	f.through = fs.String("through", "none", "`which` executions go through the model (herd7's -through): none (the valid ones), all or invalid (every candidate: as in herd7 with a .cat model, no check applies); explicit engine only")
	fs.Var(&f.skipChecks, "skipchecks", "comma-separated `names` of the model's checks whose outcome is ignored (herd7's -skipchecks; repeatable, the lists add up); explicit engine only")
	f.hexa = fs.Bool("hexa", false, "print the values of the states and the condition in hexadecimal, as herd7's -hexa (a .cfg file's 'hexa true' too)")
	f.initWrites = fs.String("initwrites", "true", "herd7's -initwrites: `true` (the initial writes are events: herd7's default for .cat models, and Musket's only setting) or false (refused)")
	f.shard = addShard(fs)
	f.conf = fs.String("conf", "", "herd7 `.cfg file` giving model, bell, macros and variant (e.g. linux-kernel.cfg); flags override it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: musket litmus [flags] FILE.litmus|FOLDER|@LIST ...")
		fmt.Fprintln(stderr, "Positive/Negative count executions as herd7 does; the SMT engine finds final states, not every execution, and leaves those counts out.")
		fmt.Fprintln(stderr, "On a terminal, progress (done/total, running tests, failures) is shown on stderr. Exit status: see 'musket -h'.")
		fs.PrintDefaults()
	}
	return f
}

// settle checks the operands and the flags together and fills in the
// defaults that depend on other flags (the engine that -o, -through and
// -skipchecks need, -show with -o, -cat for -model); it returns why they
// cannot run ("" when they can).
func (f *litmusFlags) settle(operands []string) string {
	if len(operands) == 0 {
		return "no test given: name .litmus files or folders"
	}
	switch *f.engine {
	case "enum", "smt", "graph", "both", "auto":
	default:
		return fmt.Sprintf("unknown engine %q (want auto, enum, smt, graph or both)", *f.engine)
	}
	// herd7 counts the executions -show selects whether or not it draws
	// them, and -nshow stops the run once N are counted.
	nshowStops := *f.nshow > 0 && *f.show != "" && *f.show != "none"
	if *f.engine == "auto" && (*f.outDir != "" || *f.through != "none" || len(f.skipChecks) > 0 || nshowStops) {
		// These need every candidate execution.
		*f.engine = "enum"
	}
	if nshowStops && *f.engine != "enum" {
		return "-nshow with -show counts candidate executions: use the explicit engine (-engine enum)"
	}
	switch *f.initWrites {
	case "true":
	case "false":
		return "unsupported: -initwrites false (executions without initial write events); Musket's executions always begin with the initial writes, as herd7's do with a .cat model"
	default:
		return fmt.Sprintf("-initwrites wants true or false, not %q", *f.initWrites)
	}
	if sc, err := enum.ParseSpeedCheck(*f.speed); err != nil {
		return err.Error()
	} else if sc != enum.SpeedOff {
		switch {
		case *f.engine == "smt" || *f.engine == "graph" || *f.engine == "both":
			return "-speedcheck is for the explicit engine: -engine enum or auto (both compares full enumerations)"
		case *f.explain:
			return "-speedcheck leaves out the candidates -explain looks at"
		}
	}
	if *f.verdictOnly && (*f.engine == "enum" || *f.engine == "graph") {
		return "-verdict-only is for the SMT engine: add -engine smt, both or auto"
	}
	if msg := checkShowFlags(*f.engine, *f.show, *f.outDir, *f.showEvents, *f.through, len(f.skipChecks) > 0); msg != "" {
		return msg
	}
	if *f.outDir == "" && !nshowStops {
		// herd7 accepts -show without -o; nothing is drawn.
		*f.show = ""
	}
	if *f.catFlag != "" {
		if *f.model != "" && *f.model != *f.catFlag {
			return "-cat and -model name different models"
		}
		*f.model = *f.catFlag
	}
	return ""
}

// models resolves the model, bell, macros and variants of the flags
// (with -conf's file), printing a note on the model chosen if any.
func (f *litmusFlags) models(stderr io.Writer) (driver.Models, error) {
	ms := driver.Models{Model: *f.model, IncludeDirs: f.incl, Variants: variantSet(*f.variant), Bell: *f.bell, Macros: *f.macros, LibDirs: f.libDirs}
	if *f.conf != "" {
		if err := ms.ApplyConf(*f.conf, *f.variant != ""); err != nil {
			return ms, err
		}
	}
	m, err := ms.CheckLoad()
	if err != nil {
		return ms, err
	}
	ms.Loaded = m
	// A herd7 library name ("x86tso.cat") without -set-libdir takes the
	// model file Musket carries for it, silently, as herd7 takes its
	// library's (ms.Note says which).
	return ms, nil
}

// errModelSlow: the model given did not load within the time limit.
var errModelSlow = errors.New("did not load within the time limit")

// modelsWithin is load (f.models), given up after limit (none when 0):
// the model is loaded once before the tests, and a model of megabytes
// takes seconds to load on a loaded machine, past a -timeout that every
// test would then reach (robust5). The load goes on in the background
// until the process ends.
func (f *litmusFlags) modelsWithin(limit time.Duration, load func() (driver.Models, error)) (driver.Models, error) {
	if limit <= 0 || *f.model == "" && *f.conf == "" {
		// No model file named: nothing long to load (robust6: -timeout
		// 1ns said "the model of -conf : did not load", with no -conf).
		return load()
	}
	type loaded struct {
		ms  driver.Models
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		ms, err := load()
		done <- loaded{ms, err}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case l := <-done:
		return l.ms, l.err
	case <-timer.C:
		what := "-model " + *f.model
		if *f.model == "" {
			what = "the model of -conf " + *f.conf
		}
		return driver.Models{}, fmt.Errorf("%s: %w (%v)", what, errModelSlow, limit)
	}
}

// runLitmus is 'musket litmus [flags] FILE.litmus|FOLDER ...'.
func runLitmus(args []string, stdout, stderr io.Writer) int {
	f := newLitmusFlags(stderr)
	operands, code, ok := parseCommand(f.fs, args)
	if !ok {
		return code
	}
	if msg := f.settle(operands); msg != "" {
		return usageError(f.fs, stderr, "%s", msg)
	}
	files, err := driver.TestFiles(operands)
	inputs := len(files)
	if err == nil {
		files, err = f.shard.apply(files)
	}
	if err != nil {
		fmt.Fprintf(stderr, "musket litmus: %v\n", err)
		return exitBadInput
	}
	var table *expect.Table
	if *f.expectFile != "" {
		if table, err = expect.Read(*f.expectFile); err != nil {
			fmt.Fprintf(stderr, "musket litmus: %v\n", err)
			return exitBadInput
		}
	}
	ms, err := f.modelsWithin(f.timeout.resolve(len(files)), func() (driver.Models, error) { return f.models(stderr) })
	if errors.Is(err, errModelSlow) {
		fmt.Fprintf(stderr, "musket litmus: %v\n", err)
		return exitLimit
	}
	if err != nil {
		fmt.Fprintf(stderr, "musket litmus: %v\n", err)
		return exitBadInput
	}
	opts := batch.Options{Model: ms.Model, ModelLoaded: ms.Loaded, IncludeDirs: ms.IncludeDirs, Variants: ms.Variants, Jobs: *f.jobs, Timeout: f.timeout.resolve(len(files)),
		Bound: unrollBound(*f.bound), Engine: *f.engine, VerdictOnly: *f.verdictOnly, Bell: ms.Bell, Macros: ms.Macros, Engines: testEngines, MachSize: ms.MachSize,
		LibDirs: ms.LibDirs, Explain: *f.explain, Skip: splitList(strings.Join(f.skipChecks, ",")), Through: *f.through, Show: *f.show, NShow: *f.nshow}
	opts.SpeedCheck, _ = enum.ParseSpeedCheck(*f.speed) // checked by settle
	l := &litmusRun{stdout: stdout, stderr: stderr, table: table, quiet: *f.quiet, asJSON: *f.asJSON, hexa: *f.hexa || ms.Hexa,
		files: len(files), start: time.Now(), timeout: opts.Timeout, shard: f.shard.String(), inputs: inputs, setup: f.setup()}
	if *f.witness != "" {
		l.witness = newWitnessFiles(*f.witness, len(files) > 1)
	}
	if *f.outDir != "" {
		if err := os.MkdirAll(*f.outDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "musket litmus: -o: %v\n", err)
			return exitBadInput
		}
		l.outDir, l.showEvents = newOutFiles(*f.outDir), *f.showEvents
	}
	sig := interruptible()
	defer sig.stop()
	l.cancel = sig.cancel
	l.prog = newBatchProgress(stderr, len(files), isTerminal(stderr) && !*f.quiet)
	opts.Started = func(i int, path string) { l.prog.started(i, strings.TrimSuffix(filepath.Base(path), ".litmus")) }
	opts.Finished = func(j batch.Job) { l.prog.finished(j.Index, !j.Canceled && failed(j)) }
	// The summary is printed once: by the run, or by the watchdog when
	// the run is stuck past the grace (a parse that does not poll), with
	// what finished by then (jobs are printed under the progress lock).
	var said sync.Once
	finish := func(interrupted bool) {
		said.Do(func() {
			l.interrupted = interrupted
			l.summary()
		})
	}
	sig.atWatchdog(func() { l.prog.print(func() { finish(true) }) })
	batch.Run(sig.ctx, files, opts, l.emit)
	l.prog.close()
	l.prog.print(func() { finish(sig.interrupted()) })
	if l.interrupted {
		return exitInterrupted
	}
	return int(l.status)
}

// unrollBound is the engines' bound for -unroll n: 0 is herd's "no
// iteration", which the engines write as a negative bound (their 0 is
// their default).
func unrollBound(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// failed tells whether a job is a failure for the progress display: an
// error, no verdict, or a disagreement of the engines.
func failed(j batch.Job) bool {
	return j.Err != nil || j.Disagreement != nil || j.Result == nil || j.Result.Status != result.Done
}

// litmusRun is one run of the litmus command: it prints each job as it
// comes (in input order) and gathers the summary.
type litmusRun struct {
	stdout, stderr io.Writer
	table          *expect.Table
	quiet, asJSON  bool
	hexa           bool // values in hexadecimal (herd7's -hexa)
	witness        *witnessFiles
	prog           *batchProgress
	cancel         func()
	timeout        time.Duration

	status      status
	files       int
	shard       string // -shard K/N, "" for none
	setup       string // the options that decide the results (litmusFlags.setup)
	inputs      int    // the tests before -shard kept a slice
	start       time.Time
	interrupted bool
	modelErr    error // the model's error, reported once; the run stops

	finished, errs   int
	timeouts, unsupp []string
	limits           []string // stopped at an engine's own limit (result.Limit)
	memory           []string // stopped by the memory limit
	engineDisagree   []string
	unconfirmed      []string // -engine both: one engine answered, the other stopped at a limit
	compared, agreed int
	noRef            int
	expectDisagree   []string
	slowest          *result.Result
	witnessesWritten int
	outDir           *witnessFiles // -o: DIR/NAME.dot
	showEvents       string
}

func (l *litmusRun) emit(j batch.Job) {
	if j.Canceled || l.modelErr != nil {
		return
	}
	l.prog.print(func() { l.job(j) })
}

func (l *litmusRun) job(j batch.Job) {
	l.finished++
	if j.Err != nil {
		l.errs++
		// A test refused for its size (litmus.MaxThreadCode) is a
		// limit, not bad input.
		code := failureStatus(j.Err)
		l.status.add(code)
		fmt.Fprintf(l.stderr, "%v\n", j.Err)
		if l.asJSON && !l.quiet {
			writeErrorJSON(l.stdout, j.Path, j.Err, code)
		}
		return
	}
	r := j.Result
	if r.Status == result.Failed && isModelError(r.Err) {
		// The model is wrong, not the test: say it once and stop.
		l.modelErr = r.Err
		l.finished--
		l.status.add(exitBadInput)
		fmt.Fprintf(l.stderr, "musket litmus: the model fails (on %s): %v\n", j.Path, r.Err)
		l.cancel()
		return
	}
	if l.slowest == nil || r.Time > l.slowest.Time {
		l.slowest = r
	}
	exp := ""
	switch r.Status {
	case result.Timeout:
		l.timeouts = append(l.timeouts, r.Name)
		l.status.add(exitLimit)
	case result.MemoryLimit:
		l.memory = append(l.memory, r.Name)
		l.status.add(exitLimit)
	case result.Unsupported:
		l.unsupp = append(l.unsupp, r.Name)
		l.status.add(exitLimit)
	case result.Failed:
		code := failureStatus(r.Err)
		l.status.add(code)
		if code == exitLimit {
			// An engine's own limit: not an error of the test (it was
			// counted in "errors"; robust6).
			l.limits = append(l.limits, r.Name)
		} else {
			l.errs++
		}
	}
	if r.Unconfirmed != "" {
		// -engine both: one engine stopped at a limit, the other
		// answered. The answer is printed; the limit makes exit 3.
		l.unconfirmed = append(l.unconfirmed, r.Name)
		l.status.add(exitLimit)
		fmt.Fprintf(l.stderr, "musket litmus: %s: unconfirmed: the verdict is the %s engine's alone (%s)\n", r.Name, r.Engine, r.Unconfirmed)
	}
	if j.Disagreement != nil {
		l.engineDisagree = append(l.engineDisagree, r.Name)
		l.status.add(exitDisagree)
		fmt.Fprintf(l.stderr, "musket litmus: %v\n", j.Disagreement)
	}
	if l.table != nil {
		want, found := l.table.Lookup(j.Path)
		switch {
		case !found:
			l.noRef++
			if !l.quiet {
				fmt.Fprintf(l.stderr, "no expected result: %s\n", j.Path)
			}
		case j.Disagreement != nil:
			// Reported above; neither engine's verdict counts.
		case r.Status != result.Done:
			l.expectDisagree = append(l.expectDisagree, fmt.Sprintf("%s: %s (expected %s)", j.Path, r.Status, okNo(want)))
			l.compared++
		default:
			l.compared++
			exp = okNo(want)
			if r.Ok() == want {
				l.agreed++
			} else {
				l.status.add(exitFailed)
				l.expectDisagree = append(l.expectDisagree, fmt.Sprintf("%s: %s, expected %s", j.Path, okNo(r.Ok()), okNo(want)))
			}
		}
	}
	if x, steps := witnessOf(r); l.witness != nil && x != nil && j.Disagreement == nil {
		if err := writeDotSteps(l.witness.name(r.Name), r.Name, x, steps); err != nil {
			fmt.Fprintf(l.stderr, "musket litmus: %s: %v\n", j.Path, err)
			l.status.add(exitBadInput)
		}
	}
	if l.outDir != nil && j.Disagreement == nil {
		if err := writeShown(l.outDir.name(r.Name), r, l.showEvents); err != nil {
			fmt.Fprintf(l.stderr, "musket litmus: %s: %v\n", j.Path, err)
			l.status.add(exitBadInput)
		}
	}
	switch {
	case l.asJSON && j.Disagreement != nil:
		writeJSON(l.stdout, disagreementJSON(j.Disagreement, exp))
	case l.asJSON:
		report.JSON(l.stdout, r, exp)
	case j.Disagreement != nil:
		io.WriteString(l.stdout, disagreementText(j.Disagreement))
	default:
		if l.hexa {
			report.Hexa(r)
		}
		report.Text(l.stdout, r)
		report.Explain(l.stdout, r)
	}
}

// witnessOf is the execution -witness draws for r: the witness; for a
// forbidden outcome explained (-explain), the first rejected candidate
// with the cycle of the check it fails.
func witnessOf(r *result.Result) (*result.Execution, []result.Step) {
	if ex := r.Explain; ex != nil && ex.Forbidden && len(ex.Rejected) > 0 {
		return ex.Rejected[0].Execution, ex.Rejected[0].Reason.Steps
	}
	return r.Witness, nil
}

// isModelError tells whether err is an error of the model itself (an
// unbound name, an operator applied to the wrong kind of value, at a
// position of a .cat or .bell file), which every test would hit again,
// rather than a limit one test reached in it (too many steps,
// linearisations, a recursion too deep), which is that test's.
func isModelError(err error) bool {
	var e *cat.Error
	if !errors.As(err, &e) {
		var list cat.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			return false
		}
		e = list[0]
	}
	if e.Pos.Filename == "" {
		return false
	}
	for _, p := range modelErrorPrefixes {
		if strings.HasPrefix(e.Msg, p) {
			return true
		}
	}
	return false
}

// modelErrorPrefixes begin the messages of the CAT evaluator's errors
// that do not depend on the test.
var modelErrorPrefixes = []string{
	"unbound name ", "cannot apply ", "cannot iterate over ", "cannot match ",
	"cannot call ", "expected a tuple", "expected (), got", "match on tags applied to",
	// A function that never returns (let rec f x = f x) meets the step
	// limit on every test again, after seconds each: reported once.
	"evaluation takes more than ",
}

// disagreementJSON is the JSON object of a test the engines disagree on.
func disagreementJSON(d *batch.Disagreement, exp string) report.JSONResult {
	j := report.ToJSON(d.Enum)
	j.Engine = "both"
	j.Status = "disagreement"
	j.Verdict, j.Observation = "", ""
	j.Error = d.What
	j.Expected = exp
	j.Engines = map[string]string{d.Enum.Engine: okNo(d.Enum.Ok()), "smt": okNo(d.SMT.Ok())}
	j.Herd = disagreementText(d)
	return j
}

// disagreementText is the text of a test the engines disagree on.
func disagreementText(d *batch.Disagreement) string {
	return fmt.Sprintf("Test %s %s\nDisagreement %s\n\n", d.Enum.Name, d.Enum.Kind(), d.What)
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only Musket's own types are marshalled
	}
	w.Write(append(b, '\n'))
}

// litmusSummary is the final JSON object of a run ({"summary": ...}).
type litmusSummary struct {
	Tests               int            `json:"tests"`
	Finished            int            `json:"finished"`
	Errors              int            `json:"errors"`
	Timeouts            []string       `json:"timeouts"`
	TimeoutMS           float64        `json:"timeout_ms"`
	MemoryLimit         []string       `json:"memory_limit"`
	Unsupported         []string       `json:"unsupported"`
	EngineDisagreements []string       `json:"engine_disagreements,omitempty"`
	Unconfirmed         []string       `json:"unconfirmed,omitempty"` // -engine both: one engine answered, the other stopped at a limit
	Limits              []string       `json:"limits,omitempty"`      // stopped at an engine's own limit (its error says which)
	Expect              *expectSummary `json:"expect,omitempty"`
	ModelError          string         `json:"model_error,omitempty"`
	Interrupted         bool           `json:"interrupted"`
	Slowest             string         `json:"slowest,omitempty"`
	SlowestMS           float64        `json:"slowest_ms,omitempty"`
	TimeMS              float64        `json:"time_ms"`
	ExitStatus          int            `json:"exit_status"`
	Shard               string         `json:"shard,omitempty"`  // -shard K/N
	Inputs              int            `json:"inputs,omitempty"` // with -shard: the tests of every shard
	// Version is the musket that ran (musket version's first line, less
	// "musket "), Setup the options that decide the results (-model,
	// -engine, -unroll, ...): musket merge refuses shards of one run
	// that differ in either.
	Version string `json:"version,omitempty"`
	Setup   string `json:"setup,omitempty"`
}

type expectSummary struct {
	Agreed          int      `json:"agreed"`
	Compared        int      `json:"compared"`
	Disagreements   []string `json:"disagreements"`
	WithoutExpected int      `json:"without_expected"`
}

func (l *litmusRun) summary() {
	elapsed := time.Since(l.start)
	if l.asJSON {
		s := litmusSummary{Tests: l.files, Finished: l.finished, Errors: l.errs, Timeouts: l.timeouts, TimeoutMS: ms(l.timeout),
			Unsupported: l.unsupp, EngineDisagreements: l.engineDisagree, Unconfirmed: l.unconfirmed, Limits: l.limits, Interrupted: l.interrupted, TimeMS: ms(elapsed), ExitStatus: int(l.status)}
		if l.shard != "" {
			s.Shard, s.Inputs = l.shard, l.inputs
		}
		s.Version, s.Setup = runVersionString(), l.setup
		if s.Timeouts == nil {
			s.Timeouts = []string{}
		}
		s.MemoryLimit = l.memory
		if s.MemoryLimit == nil {
			s.MemoryLimit = []string{}
		}
		if s.Unsupported == nil {
			s.Unsupported = []string{}
		}
		if l.interrupted {
			s.ExitStatus = exitInterrupted
		}
		if l.modelErr != nil {
			s.ModelError = l.modelErr.Error()
		}
		if l.slowest != nil {
			s.Slowest, s.SlowestMS = l.slowest.Name, ms(l.slowest.Time)
		}
		if l.table != nil {
			s.Expect = &expectSummary{Agreed: l.agreed, Compared: l.compared, Disagreements: l.expectDisagree, WithoutExpected: l.noRef}
			if s.Expect.Disagreements == nil {
				s.Expect.Disagreements = []string{}
			}
		}
		writeJSON(l.stdout, map[string]litmusSummary{"summary": s})
		return
	}
	if l.table != nil {
		for _, d := range l.expectDisagree {
			fmt.Fprintf(l.stdout, "DISAGREE %s\n", d)
		}
		fmt.Fprintf(l.stdout, "agreement %d/%d\n", l.agreed, l.compared)
		if l.noRef > 0 {
			fmt.Fprintf(l.stdout, "without expected result: %d\n", l.noRef)
		}
	}
	if l.interrupted {
		// Said first: the figures after it cover the finished tests only;
		// said even with -q, which silences diagnostics, not this.
		fmt.Fprintf(l.stderr, "interrupted: %d of %d tests finished in %.2fs", l.finished, l.files, elapsed.Seconds())
	} else if l.quiet {
		return
	} else if l.files > 1 {
		fmt.Fprintf(l.stderr, "%d tests in %.2fs", l.files, elapsed.Seconds())
	}
	if l.files > 1 || l.interrupted {
		if l.slowest != nil {
			fmt.Fprintf(l.stderr, "; slowest %s %.2fs", l.slowest.Name, l.slowest.Time.Seconds())
		}
		if len(l.timeouts) > 0 {
			fmt.Fprintf(l.stderr, "; %d timed out", len(l.timeouts))
		}
		fmt.Fprintln(l.stderr)
	}
	if len(l.timeouts) > 0 {
		fmt.Fprintf(l.stderr, "timed out (limit %v each): %s\n", l.timeout, strings.Join(l.timeouts, ", "))
	}
	if len(l.memory) > 0 {
		fmt.Fprintf(l.stderr, "memory limit reached (%s): %s\n", memlimit.Format(memlimit.Limit()), strings.Join(l.memory, ", "))
	}
	if len(l.unsupp) > 0 {
		fmt.Fprintf(l.stderr, "unsupported (each test's error says what): %s\n", strings.Join(l.unsupp, ", "))
	}
	if len(l.limits) > 0 {
		fmt.Fprintf(l.stderr, "a limit of the engine reached (each test's error says which): %s\n", strings.Join(l.limits, ", "))
	}
	if len(l.unconfirmed) > 0 {
		fmt.Fprintf(l.stderr, "unconfirmed (one engine answered, the other did not finish): %s\n", strings.Join(l.unconfirmed, ", "))
	}
	if len(l.engineDisagree) > 0 {
		fmt.Fprintf(l.stderr, "the engines disagree on %d tests: %s\n", len(l.engineDisagree), strings.Join(l.engineDisagree, ", "))
	}
}

func okNo(b bool) string {
	if b {
		return "Ok"
	}
	return "No"
}
