package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/arch"
	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	register("check", "bounded model checking of a C program (.c, through clang-14), a .pts program, or a litmus test with loops", runCheck)
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

A C program (.c) is compiled by clang-14 with -std=gnu11 (or -std), the
-I folders and -D macros given, and any clang flags after --. Memory is
bytes, little-endian (Power too): accesses of different sizes that
overlap are cut into parts of one instance (herd's sm). Only the aarch64
model gives sm a meaning (single-copy atomicity); sc, tso, power, riscv,
c11, rc11 and imm say nothing about mixed sizes: under them a failure
whose execution tears an access is no verdict (UNSUPPORTED, exit 3), and
an atomic read-modify-write of a word whose parts are also accessed
separately (a lockref's compare-and-swap) is refused (UNSUPPORTED, exit
3); under -target aarch64 it is an exclusive pair over the parts.
SV-COMP's atomic sections (__VERIFIER_atomic_begin/end, functions named
__VERIFIER_atomic_...) are critical sections of one hidden lock: they
exclude one another, but an access outside every section may come
between a section's accesses.

Exit status: 0 every condition unreachable, 1 some condition reachable
(or a data race: by default for C programs under c11, rc11, imm; with
-races for the others), 2 bad input or usage (including a target whose built-in model does not
exist yet), 3 a check timed out or the model uses what the SMT engine
cannot encode, 4 the engines disagree (-engine both), 130 interrupted
(see 'musket -h').
` + racesUsage + `
Flags:
`

type checkJSON struct {
	File      string              `json:"file"`
	Name      string              `json:"name"`
	Target    string              `json:"target"`
	Model     string              `json:"model"`
	Engine    string              `json:"engine"`
	Bound     int                 `json:"bound"`
	Condition string              `json:"condition"`
	Verdict   string              `json:"verdict"`
	Bounded   bool                `json:"bounded"`
	Status    string              `json:"status"`
	Error     string              `json:"error,omitempty"`
	TimeMS    float64             `json:"time_ms"`
	EncodeMS  float64             `json:"encode_ms"`
	SolveMS   float64             `json:"solve_ms"`
	Stats     *bmc.Stats          `json:"stats,omitempty"`
	Flags     []string            `json:"flags,omitempty"`
	Races     []string            `json:"races,omitempty"` // with -races: the race flags raised
	Witness   *result.Execution   `json:"witness,omitempty"`
	Explain   *result.Explanation `json:"explain,omitempty"`
	// Unconfirmed (-engine both): the engine that stopped at a limit
	// while another answered, and its status; the verdict is not
	// cross-checked.
	Unconfirmed string `json:"unconfirmed,omitempty"`
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
	races         bool // -races: ask for an execution raising each flag
	racesSet      bool // -races was given (C programs: races are on by default under C11 models)
	explain       bool // -explain
	liveness      bool // -liveness (C programs)
	symmetry      bool // -symmetry (C programs, graph engine)
	clang         cfront.ClangOptions
}

// checkRunner checks one file with one engine ("smt" or "enum"). Tests
// replace it to provoke what the real engines do not do.
var checkRunner = func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
	if strings.HasSuffix(path, ".litmus") {
		return bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: c.model, IncludeDirs: c.incl, Bound: c.bound, Engine: engine, NoAnalysis: c.noAnalysis, Variants: c.variants, FlagWitnesses: c.races, Explain: c.explain})
	}
	return bmc.CheckProgram(ctx, path, c.m, c.name, bmc.ProgramOptions{Target: c.target, Bound: c.bound, Engine: engine, NoAnalysis: c.noAnalysis, Variants: c.variants, FlagWitnesses: c.races, Explain: c.explain})
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
		pr, err := checkRunner(cctx, path, engine, c)
		if err == nil && pr != nil && pr.Result != nil && pr.Result.Status == result.Timeout && pr.Result.Limit == 0 {
			pr.Result.Limit = timeout // said with an unconfirmed answer
		}
		return pr, err
	}
	// One engine stopped at a limit, the other answered: the answer,
	// marked unconfirmed (exit 3), as batch.runBoth gives it.
	e, err := one("enum")
	if err != nil || e.Result.Status != result.Done && !batch.StoppedAtLimit(e.Result) || ctx.Err() != nil {
		return e, "", err
	}
	s, err := one("smt")
	if err != nil {
		return s, "", err
	}
	switch {
	case e.Result.Status == result.Done && s.Result.Status == result.Done:
	case e.Result.Status == result.Done && batch.StoppedAtLimit(s.Result) && ctx.Err() == nil:
		e.Result = batch.Unconfirmed(e.Result, s.Result, "smt")
		return e, "", nil
	case s.Result.Status == result.Done && batch.StoppedAtLimit(e.Result):
		s.Result = batch.Unconfirmed(s.Result, e.Result, "enum")
		return s, "", nil
	case e.Result.Status != result.Done:
		return e, "", nil
	default:
		return s, "", nil
	}
	if e.Reachable != s.Reachable {
		return e, fmt.Sprintf("%s: the engines disagree on %s: enum says %s, smt says %s", path, e.Name, reachWord(e.Reachable), reachWord(s.Reachable)), nil
	}
	if ef, sf := strings.Join(e.Result.Flags, ","), strings.Join(s.Result.Flags, ","); ef != sf {
		return e, fmt.Sprintf("%s: the engines disagree on %s: enum raises flags [%s], smt [%s]", path, e.Name, ef, sf), nil
	}
	s.Result.Time += e.Result.Time
	if s.Result.Witness == nil {
		s.Result.Witness = e.Result.Witness
	}
	if s.Result.FlagWitnesses == nil {
		s.Result.FlagWitnesses = e.Result.FlagWitnesses
	}
	return s, "", nil
}

func reachWord(reachable bool) string {
	if reachable {
		return "REACHABLE"
	}
	return "UNREACHABLE"
}

// checkFlags are the flags of musket check.
type checkFlags struct {
	fs                      *flag.FlagSet
	incl                    listFlag
	defines                 defineFlag
	std, conf               *string
	clangExtra              []string // C programs: the clang flags after --
	target, model, engine   *string
	witness, variant        *string
	bound                   *int
	stats, noAnalysis, json *bool
	races, explain          *bool
	liveness                *bool
	symmetry                *bool
	noCache                 *bool
	timeout                 *timeoutFlag
}

func newCheckFlags(stderr io.Writer) *checkFlags {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &checkFlags{fs: fs}
	f.target = fs.String("target", "x86", fmt.Sprintf("compilation `target`: %v", arch.Targets()))
	f.model = fs.String("model", "", "built-in model name or `.cat file` (default: the target's built-in model: "+targetModels()+")")
	fs.Var(&f.incl, "I", "`folder` to search for included .cat files and, for C programs, headers (repeatable)")
	fs.Var(&f.defines, "D", "C programs: define macro `NAME[=VALUE]` as clang's -D does (repeatable); further clang flags go after --")
	f.conf = fs.String("conf", "", "herd7 `.cfg file` giving the model and variants (e.g. linux-kernel.cfg: C programs with musket/lkmm.h's kernel primitives); flags override it")
	f.std = fs.String("std", "", "C programs: the language `standard` (default "+cfront.DefaultStd+": GNU C, with asm, typeof and POSIX names)")
	f.bound = intFlag(fs, "bound", 2, 0, "loop unrolling `bound`: the most iterations of each loop (1 or more for a .pts program)")
	f.engine = fs.String("engine", "auto", "`engine`: smt (the SMT encoding), enum (explicit enumeration), graph (C programs: execution graphs explored as TruSt does, under sc, tso, pso, rc11, the models where po ∪ rf is acyclic, and imm, aarch64 and riscv, with dependency tracking as HMC does, refusing by name what its argument does not cover; and -target x86, whose model is tso; C11 and the hardware targets power, armv7, ... are left to the SMT engine), auto (C programs under those models and -target x86, aarch64 and riscv: graph and smt side by side, smt joining after graph's first second, the first answer wins; -target power: smt, and graph under IMM beside it for a PASS only (or a BOUND, with a path past the bound under SC), where the compilation of IMM to Power (Podkopaev, Lahav, Vafeiadis, POPL 2019) covers the program; otherwise smt), or both (a disagreement is an error, exit status 4; when one engine stops at a limit and the other answers, that answer is printed, marked unconfirmed with the engine that did not finish (text and JSON), and the exit status is 3)")
	f.witness = fs.String("witness", "", "write the execution reaching the condition as Graphviz to `FILE` (with several programs: FILE.NAME.dot)")
	f.stats = fs.Bool("stats", false, "print the size of the encoding (variables, constraints, relation pairs) and where the time went")
	f.noAnalysis = fs.Bool("no-analysis", false, "turn the relation analysis off (for measurements)")
	f.json = fs.Bool("json", false, "print one JSON object per program")
	f.timeout = addTimeout(fs, "program")
	f.variant = fs.String("variant", "", "comma-separated CAT variants")
	f.explain = fs.Bool("explain", false, "say why the condition is unreachable (each candidate execution that reaches it, the model's check it fails and its shortest cycle, edge by edge) or reachable (the witness with rf, co, fr), by the explicit engine whichever engine answers; with -witness the cycle is drawn. C programs, in C terms: on FAIL, RACE, LIVELOCK, BOUND the execution thread by thread (source lines, what each read reads from, the racing pair); on PASS each candidate execution in which an assertion fails and the check that rejects it (the explicit enumeration gets 30s when -timeout does not say)")
	f.liveness = fs.Bool("liveness", false, "C programs: also report a thread that can wait forever in a fair execution (a spin loop, lock or join)")
	f.symmetry = fs.Bool("symmetry", true, "C programs, graph engine (sc, tso, pso, rc11, imm, and -target aarch64): explore one execution per class of executions that swapping symmetric threads relates (threads main creates from the same function with the same constant argument), as GenMC's --symmetry-reduction; on where main does nothing else between their creations and between their joins and the threads cannot stop on an assumption (threads that may stop in a spin loop are reduced, and the run starts again without the reduction when it meets a thread stopped for good); the counts are then up to the symmetry. -symmetry=false explores every execution")
	f.races = fs.Bool("races", false, "a data race (a raised race flag of a C11 model: c11, rc11, imm) is a violation, with a witness; on by default for C programs under those models (-races=false turns it off), not applicable under a hardware -target; see above")
	f.noCache = fs.Bool("no-cache", false, "C programs: compile with clang without the compile cache (also MUSKET_CACHE=off; the cache's folder is MUSKET_CACHE_DIR, else the user's cache folder's musket/clang)")
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		fs.PrintDefaults()
	}
	return f
}

// targetModels says the default model of each target: "x86→tso, ...".
func targetModels() string {
	var parts []string
	for _, a := range arch.All() {
		if a.Target != "" {
			parts = append(parts, a.Target+"→"+a.Model)
		}
	}
	return strings.Join(parts, ", ")
}

// usage returns why the operands and flags cannot be checked ("" when
// they can).
func (f *checkFlags) usage(operands []string) string {
	if len(operands) == 0 {
		return "no program given: name .pts or .c programs or .litmus tests"
	}
	switch *f.engine {
	case "smt", "enum", "both", "auto":
	case "graph":
		for _, path := range operands {
			if !isC(path) {
				return fmt.Sprintf("%s: the graph engine checks C programs (-engine graph); use smt, enum or auto", path)
			}
		}
	default:
		return fmt.Sprintf("unknown engine %q (want auto, smt, graph, enum or both)", *f.engine)
	}
	if _, ok := arch.ByTarget(*f.target); !ok {
		return fmt.Sprintf("unknown target %q (want one of %v)", *f.target, arch.Targets())
	}
	if *f.bound < 1 {
		for _, path := range operands {
			if !strings.HasSuffix(path, ".litmus") {
				return fmt.Sprintf("-bound %d: a .pts program (%s) needs a bound of 1 or more", *f.bound, path)
			}
		}
	}
	return ""
}

// splitClangFlags takes the clang flags out of check's arguments: after
// "--", every argument but the programs to check (.c, .pts, .litmus
// files that exist) is handed to clang.
func splitClangFlags(args []string) (rest, clang []string) {
	for i, a := range args {
		if a != "--" {
			continue
		}
		rest = append(rest, args[:i]...)
		var files []string
		for _, b := range args[i+1:] {
			if isProgramFile(b) {
				files = append(files, b)
			} else {
				clang = append(clang, b)
			}
		}
		if len(files) > 0 {
			rest = append(append(rest, "--"), files...)
		}
		return rest, clang
	}
	return args, nil
}

// isProgramFile tells whether an argument after "--" names a program to
// check rather than a clang flag.
func isProgramFile(a string) bool {
	if strings.HasPrefix(a, "-") {
		return false
	}
	switch filepath.Ext(a) {
	case ".c", ".pts", ".litmus":
		_, err := os.Stat(a)
		return err == nil
	}
	return false
}

// splitGluedFlags writes clang's glued forms -DNAME[=VALUE] and -IDIR
// (as benchmark suites' scripts and Makefiles spell them, e.g. -DACQ2RX)
// as the two arguments -D NAME[=VALUE] and -I DIR that the flag package
// reads; before "--" only, and only where the previous argument is not a
// flag waiting for its value. No other flag of check starts with D or I.
func splitGluedFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		valueOf := i > 0 && (args[i-1] == "-D" || args[i-1] == "-I" || args[i-1] == "--D" || args[i-1] == "--I")
		if !valueOf && strings.HasPrefix(a, "-") && len(name) > 1 && (name[0] == 'D' || name[0] == 'I') && name[1] != '=' {
			out = append(out, "-"+name[:1], name[1:])
			continue
		}
		out = append(out, a)
	}
	return out
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	prestartC(args)
	f := newCheckFlags(stderr)
	args, f.clangExtra = splitClangFlags(splitGluedFlags(args))
	operands, code, ok := parseCommand(f.fs, args)
	if !ok {
		return code
	}
	if msg := f.usage(operands); msg != "" {
		return usageError(f.fs, stderr, "%s", msg)
	}
	if *f.conf != "" {
		ms := driver.Models{Model: *f.model, IncludeDirs: f.incl, Variants: variantSet(*f.variant)}
		if err := ms.ApplyConf(*f.conf, *f.variant != ""); err != nil {
			fmt.Fprintf(stderr, "musket check: %v\n", err)
			return exitBadInput
		}
		*f.model, f.incl = ms.Model, ms.IncludeDirs
		var vs []string
		for v := range ms.Variants {
			vs = append(vs, v)
		}
		*f.variant = strings.Join(vs, ",")
	}
	m, name, err := driver.Models{Model: *f.model, IncludeDirs: f.incl}.ForTarget(*f.target)
	if err != nil {
		fmt.Fprintf(stderr, "musket check: %v\n", err)
		return exitBadInput
	}
	c := checkConfig{target: *f.target, model: *f.model, incl: f.incl, m: m, name: name, bound: *f.bound, noAnalysis: *f.noAnalysis, variants: variantSet(*f.variant), races: *f.races, explain: *f.explain, liveness: *f.liveness, symmetry: *f.symmetry}
	f.fs.Visit(func(fl *flag.Flag) { c.racesSet = c.racesSet || fl.Name == "races" })
	c.clang = cfront.ClangOptions{Includes: f.incl, Defines: f.defines.listFlag, Std: *f.std, Extra: f.clangExtra, NoCache: *f.noCache}
	if *f.races {
		for _, path := range operands {
			if err := checkRaceModel(path, c); err != nil {
				fmt.Fprintf(stderr, "musket check: %v\n", err)
				return exitBadInput
			}
		}
	}
	r := &checkRun{stdout: stdout, stderr: stderr, f: f, c: c, limit: f.timeout.resolve(len(operands)), total: len(operands)}
	if *f.witness != "" {
		r.wf = newWitnessFiles(*f.witness, len(operands) > 1)
	}
	return r.run(operands)
}

// checkRun is one run of musket check over its operands.
type checkRun struct {
	stdout, stderr io.Writer
	f              *checkFlags
	c              checkConfig
	limit          time.Duration
	wf             *witnessFiles
	sig            *run
	prog           *batchProgress

	st       status
	total    int
	checked  int
	timeouts []string

	// What the watchdog reports of a run stuck past the grace: the
	// figures as they were when the current program began (sofar, under
	// mu); said makes the summary print once.
	mu    sync.Mutex
	sofar checkSofar
	said  sync.Once
}

// checkSofar is what a summary reports.
type checkSofar struct {
	st       status
	checked  int
	timeouts []string // appended to only: the slice's elements stay as they are
}

// note records the figures for the watchdog.
func (r *checkRun) note() {
	r.mu.Lock()
	r.sofar = checkSofar{r.st, r.checked, r.timeouts}
	r.mu.Unlock()
}

// lastWords is the summary the watchdog prints: the programs checked
// before the one that did not stop. The progress line is cleared if
// its lock is free, and kept from being drawn again; if it is not free,
// whoever holds it (a C check) cleared the line first.
func (r *checkRun) lastWords() {
	if r.prog.mu.TryLock() {
		r.prog.clear()
	}
	r.mu.Lock()
	s := r.sofar
	r.mu.Unlock()
	r.said.Do(func() { r.report(s, true) })
}

func (r *checkRun) run(operands []string) int {
	r.sig = interruptibleIn(commandContext(r.stdout))
	defer r.sig.stop()
	r.prog = newBatchProgress(r.stderr, len(operands), isTerminal(r.stderr))
	defer r.prog.close()
	if n := countC(operands); n > 1 || n == 1 && *r.f.engine == "both" {
		// musket-cc starts once for all the C programs (and the three
		// lowerings of -engine both).
		defer cfront.KeepSessions()()
	}
	r.sig.atWatchdog(r.lastWords)
	for i, path := range operands {
		if r.sig.ctx.Err() != nil {
			break
		}
		r.note()
		r.prog.started(i, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
		if isC(path) {
			// The progress line goes on while the program is compiled and
			// checked (it was held off for the whole check: a C program
			// showed nothing until its end; robust6); whatever checkC
			// prints clears it first.
			timedOut := false
			code := checkC(r.sig.ctx, r.prog.writer(r.stdout), r.prog.writer(r.stderr), cCheck{path: path, engine: *r.f.engine, witness: *r.f.witness, limit: r.limit, asJSON: *r.f.json, stats: *r.f.stats, c: r.c, wf: r.wf, timedOut: &timedOut})
			r.prog.finished(i, code != exitOK)
			if timedOut {
				// (the summary's time-outs listed the .pts and litmus
				// programs only: a C program's was missing; robust6)
				r.timeouts = append(r.timeouts, strings.TrimSuffix(filepath.Base(path), ".c"))
			}
			if code == exitInterrupted {
				break
			}
			r.st.add(code)
			r.checked++
			continue
		}
		pr, disagree, err := r.checkOne(path)
		if r.sig.interrupted() {
			break
		}
		r.checked++
		if err != nil {
			r.prog.finished(i, true)
			r.prog.print(func() { fmt.Fprintf(r.stderr, "%v\n", err) })
			code := failureStatus(err) // a test too large: a limit
			if *r.f.json {
				writeErrorJSON(r.stdout, path, err, code)
			}
			r.st.add(code)
			continue
		}
		r.print(i, path, pr, disagree)
	}
	return r.summary()
}

// progEngine is the engine of a .pts program or litmus test: auto is
// the SMT engine there (the graph engine checks C programs).
func (r *checkRun) progEngine() string {
	if *r.f.engine == "auto" {
		return "smt"
	}
	return *r.f.engine
}

// checkOne checks one file with the engine (or both) under the time
// limit.
func (r *checkRun) checkOne(path string) (*bmc.ProgramResult, string, error) {
	if *r.f.engine == "both" {
		return checkBoth(r.sig.ctx, r.limit, path, r.c)
	}
	ctx, cancel := r.sig.ctx, context.CancelFunc(func() {})
	if r.limit > 0 {
		ctx, cancel = context.WithTimeout(r.sig.ctx, r.limit)
	}
	defer cancel()
	ctx, unwatch := memlimit.Watch(ctx)
	defer unwatch()
	pr, err := checkRunner(ctx, path, r.progEngine(), r.c)
	if err == nil && pr != nil {
		pr.Result = batch.MemoryStatus(ctx, pr.Result)
	}
	return pr, "", err
}

// print gives the verdict of file i and prints it.
func (r *checkRun) print(i int, path string, pr *bmc.ProgramResult, disagree string) {
	res := pr.Result
	verdict := reachWord(pr.Reachable)
	var racy []string
	switch res.Status {
	case result.Done:
		if pr.Reachable {
			r.st.add(exitFailed)
		} else if res.Bounded {
			// Not reached within the bound, and some path went past it:
			// no verdict, as BOUND for a C program.
			verdict = "BOUND"
			r.st.add(exitLimit)
		}
		if *r.f.races {
			if racy = raceWitness(res); len(racy) > 0 {
				r.st.add(exitFailed)
			}
		}
	case result.Timeout:
		verdict = "TIMEOUT"
		r.timeouts = append(r.timeouts, pr.Name)
		r.st.add(exitLimit)
	case result.MemoryLimit:
		verdict = "MEMORY LIMIT"
		r.st.add(exitLimit)
	case result.Unsupported:
		verdict = "UNSUPPORTED"
		r.st.add(exitLimit)
	default:
		verdict = "ERROR"
		r.st.add(failureStatus(res.Err))
	}
	r.prog.finished(i, res.Status != result.Done || pr.Reachable || len(racy) > 0 || disagree != "")
	// Results are written with the progress line cleared and held off.
	r.prog.mu.Lock()
	r.prog.clear()
	printCheckResult(r.stdout, r.stderr, checkOutput{path: path, pr: pr, verdict: verdict, disagree: disagree, engine: r.progEngine(), races: racy,
		asJSON: *r.f.json, stats: *r.f.stats, witness: *r.f.witness, wf: r.wf}, &r.st)
	r.prog.mu.Unlock()
}

// summary prints the end of the run and returns its exit status.
func (r *checkRun) summary() int {
	r.prog.close()
	r.said.Do(func() { r.report(checkSofar{r.st, r.checked, r.timeouts}, r.sig.interrupted()) })
	if r.sig.interrupted() {
		return exitInterrupted
	}
	return int(r.st)
}

// report prints the summary of the figures s.
func (r *checkRun) report(s checkSofar, interrupted bool) {
	if interrupted && !*r.f.json {
		// Said first: what follows covers the programs checked only.
		fmt.Fprintf(r.stderr, "interrupted: %d of %d programs checked\n", s.checked, r.total)
	}
	if len(s.timeouts) > 0 && !*r.f.json {
		fmt.Fprintf(r.stderr, "timed out (limit %v each): %s\n", r.limit, strings.Join(s.timeouts, ", "))
	}
	if *r.f.json {
		if s.timeouts == nil {
			s.timeouts = []string{}
		}
		writeJSON(r.stdout, map[string]checkSummary{"summary": {Programs: r.total, Checked: s.checked, Timeouts: s.timeouts,
			Interrupted: interrupted, ExitStatus: exitOf(s.st, interrupted)}})
	}
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
	Timeouts    []string `json:"timeouts"`
	Interrupted bool     `json:"interrupted"`
	ExitStatus  int      `json:"exit_status"`
}

// checkOutput is what printCheckResult needs of one checked program.
type checkOutput struct {
	path, verdict, disagree, engine, witness string
	pr                                       *bmc.ProgramResult
	races                                    []string // race flags raised, with -races
	asJSON, stats                            bool
	wf                                       *witnessFiles
}

// boundWords says why a check has the verdict BOUND, in the same words for
// a C program, a .pts program and a litmus test with loops.
func boundWords(bound int) string {
	return fmt.Sprintf("no violation within the bound, but some path needs more than %d iterations of a loop: raise -bound", bound)
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
		if r.Unconfirmed != "" && disagree == "" {
			fmt.Fprintf(stderr, "musket check: %s: unconfirmed: the other engine did not finish (%s); this verdict is one engine's alone\n", path, r.Unconfirmed)
			st.add(exitLimit)
		}
		if x, steps := witnessOf(r); wf != nil && x != nil && disagree == "" {
			if err := writeDotSteps(wf.name(pr.Name), r.Name, x, steps); err != nil {
				fmt.Fprintf(stderr, "musket check: %s: %v\n", path, err)
				st.add(exitBadInput)
			}
		}
		if *asJSON {
			j := checkJSON{File: path, Name: pr.Name, Target: pr.Target, Model: pr.Model, Engine: *engine, Bound: pr.Bound,
				Condition: pr.Condition, Verdict: verdict, Bounded: r.Bounded, Status: r.Status.String(),
				TimeMS: ms(r.Time), EncodeMS: ms(pr.Report.Encode), SolveMS: ms(pr.Report.Solve), Witness: r.Witness,
				Flags: r.Flags, Races: o.races, Explain: r.Explain, Unconfirmed: r.Unconfirmed}
			if r.Err != nil {
				j.Error = r.Err.Error()
			}
			if verdict == "BOUND" {
				j.Status = "limit"
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
		if pr.Target == "" {
			// Stopped before the test was read: no target, model nor
			// condition to name.
			fmt.Fprintf(stdout, "%s: %s (bound %d)\n", pr.Name, verdict, pr.Bound)
		} else {
			fmt.Fprintf(stdout, "%s: %s %s (target %s, model %s, bound %d)\n", pr.Name, verdict, pr.Condition, pr.Target, pr.Model, pr.Bound)
		}
		if r.Err != nil {
			fmt.Fprintf(stdout, "  %v\n", r.Err)
		}
		if len(o.races) > 0 {
			fmt.Fprintf(stdout, "  DATA RACE: some execution raises %s\n", strings.Join(o.races, ", "))
		} else if len(r.Flags) > 0 {
			fmt.Fprintf(stdout, "  flags raised: %s\n", strings.Join(r.Flags, ", "))
		}
		if disagree != "" {
			fmt.Fprintf(stdout, "  %s\n", disagree)
		}
		switch {
		case verdict == "BOUND":
			fmt.Fprintf(stdout, "  %s\n", boundWords(pr.Bound))
		case r.Bounded && strings.HasSuffix(path, ".litmus"):
			fmt.Fprintf(stdout, "  bounded: some paths take a backward branch more than %d times; they were dropped (not a proof)\n", pr.Bound)
		case r.Bounded:
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
			if s.LazyGraphs > 0 {
				fmt.Fprintf(stdout, "  lazy acyclicity: %d relations, %d edge literals, %d cycles learnt, %d models re-asked\n",
					s.LazyGraphs, s.LazyEdges, s.LazyConflicts, s.LazyMisses)
			}
		}
		report.Explain(stdout, r)
		if x, _ := witnessOf(r); *witness != "" && x == nil {
			fmt.Fprintf(stdout, "  no witness: the condition is not reachable\n")
		} else if *witness != "" && !pr.Reachable && len(o.races) > 0 {
			fmt.Fprintf(stdout, "  witness: an execution with the data race\n")
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
