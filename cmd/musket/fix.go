package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/fix"
	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/porthos"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
)

func init() {
	register("fix", "the cheapest fences or memory orders that make a test or program correct on a target", runFix)
}

const fixUsage = `usage: musket fix [flags] FILE.litmus|PROGRAM.pts|PROGRAM.c

When the condition of a litmus test (assembly of X86, PPC, AArch64, RISCV,
ARM or SPARC, with or without loops, or C11), of a .pts program, or an
assertion of a C program (or, under a C11 model with a race flag such as
rc11, the default, or imm, a data race: -races=false leaves races out)
can fail on the target, finds insertions of least total cost that make it impossible:
fences between consecutive accesses of a thread, AArch64 LDR/STR made
LDAR/STLR, address and data dependencies from a load (Power, ARMv7,
AArch64, RISC-V), Power's control dependency + isync after a load, C11 accesses
given a stronger memory_order, and for a .pts program stronger orders on
its loads and stores, compiled for -target. It prints the repair as a
unified diff of the input and its cost, after checking the patched file
again as musket check does, with the engine the loop did not use (litmus
tests and .pts programs: the SMT and the explicit engine; C programs: the
graph engine where it decides the model).

Method: counterexample-guided (Liu, Nedev, Prisadnikov, Vechev, Yahav,
"Dynamic Synthesis for Relaxed Memory Models", PLDI 2012), each witness
constraining the insertions that could forbid it (those on a cycle of
program order and communication: Alglave, Kroening, Nimal, Poetzl, "Don't
Sit on the Fence", CAV 2014), the cheapest set meeting every constraint
found exactly by branch and bound. The fix is least-cost among the
candidates the repertoire offers. The kill test runs the model on a
witness execution with insertions added (litmus tests, .pts programs, and
a C program's failed assertions, replayed on the patched program as clang
compiles it): a witness met before that survives the next set shows it
wrong without a check, and the insertions under which a witness survives
are dropped from its constraint (the "Kill test" line counts both).

Default costs (-costs FILE replaces a target's row; lines "TARGET NAME COST"):
  x86      mfence 1, xchg 1 (a store MOV [x],v made MOV r,v; XCHG [x],r
           with a register the test does not use; the fence wins ties)
  power    addr 1, data 1 (a later access made to depend on a load:
           xor rT,rA,rA then lwzx/stwx through rT, or rT added to the
           stored value), lwsync 2, ctrlisync 2 (after a load: cmpw on its
           register, beq to the next line, isync), sync 4
  aarch64  addr 1, data 1 (EOR then [Xn,WT,SXTW], or ADD to the value),
           ldapr 2, ldar 2, stlr 2 (LDAPR, the weaker, first at equal
           cost), dmb ishld 2, dmb ishst 2, dmb ish 4
  riscv    addr 1, data 1 (xor then add to the address or the value),
           fence r,r / w,w / r,w / r,rw / rw,w 2, fence.tso 4,
           fence w,r / w,rw / rw,r 5 (a write before a read drains the
           store buffer, as a full fence does), fence rw,rw 6
  armv7    addr 1, data 1 (EOR then [Rn,RT], or ADD to the value),
           dmb st 2, dmb 4 (dmb ish 4, as the C11 mappings write it)
  sparc    membar #LoadLoad 1, #StoreStore 1, #LoadStore 1, #StoreLoad 2
  c11      acquire 1, release 1, acq_rel 1, seq_cst 2 (an access, priced by
           the order reached minus the order it had), fence acquire 2,
           fence release 2, fence acq_rel 2, fence seq_cst 3
Dependencies are offered in threads without loops, from a plain load to a
later plain access whose register the code between does not overwrite.

Self-check (-self-check, on by default): after the re-check, each change
is taken out in turn and the program checked again, then replaced by each
cheaper or weaker insertion of its place (lwsync for sync, dmb ishst for
dmb ish, release for seq_cst, ...); the condition must be reachable in
each case (each change kills a witness the others leave, and nothing
weaker does), else the fix is not a cheapest one and the command fails
with status 4.

Output: the changes and a unified diff of the input; -o FILE writes the
repaired program (or the input as it is when it is already correct),
-witness FILE the execution that makes the input wrong (Graphviz), -json
one object. On a terminal a progress line on stderr gives the check the
loop is at and the lower bound on the cost.

Exit status: 0 the program is correct as given, or a repair was found and
re-checked; 1 no repair within the repertoire (the program stays wrong, as
musket check's 1: nothing is written to -o); 2 bad input or usage; 3 a
limit was reached (-timeout, -max-checks, a model an engine cannot handle);
3 also when the re-check of a repaired C program is bounded (a path needs
more loop iterations than -bound: check's BOUND; the fix is printed and
written); 4 the second engine finds the repaired program still wrong; 130
interrupted.

Flags:
`

// fixJSON is the -json answer.
type fixJSON struct {
	File      string      `json:"file"`
	Target    string      `json:"target"`
	Status    string      `json:"status"` // correct, fixed, nofix, error
	Cost      int         `json:"cost"`
	Fix       []fixChange `json:"fix,omitempty"`
	Diff      string      `json:"diff,omitempty"`
	Checks    int         `json:"checks"`
	Witnesses int         `json:"witnesses"`
	// The kill test: replays of witnesses in patched versions, checks
	// they saved, candidates they pruned from constraints.
	Replays int     `json:"replays,omitempty"`
	Revived int     `json:"revived,omitempty"`
	Pruned  int     `json:"pruned,omitempty"`
	TimeMS  float64 `json:"time_ms"`
	Recheck string  `json:"recheck,omitempty"`
	// Needed: the self-check that each change is needed (the condition
	// reachable again without it), "" when it did not run.
	Needed string `json:"needed,omitempty"`
	// Bounded: the re-check found no violation within -bound, but a
	// path needs more loop iterations (exit status 3, as check's BOUND).
	Bounded bool   `json:"bounded,omitempty"`
	Error   string `json:"error,omitempty"`
}

type fixChange struct {
	Thread int    `json:"thread"`
	Line   int    `json:"line"`
	What   string `json:"what"`
	Cost   int    `json:"cost"`
}

func runFix(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("model", "", "memory model, built-in name or `.cat file` (default: the architecture's or the target's)")
	target := fs.String("target", "", "compilation `target` of a .pts or C program (x86, power, armv7, aarch64, riscv; a C program without -target or -model is repaired under rc11, the language's model, so that the fix holds for every compiler mapping); a litmus test is repaired for its own architecture")
	costsFile := fs.String("costs", "", "cost table `FILE` replacing the default rows it names (lines: TARGET NAME COST)")
	bound := intFlag(fs, "bound", 2, 0, "`times` a backward jump may be taken on one path (litmus tests), or the unrolling bound (.pts)")
	maxChecks := intFlag(fs, "max-checks", 2000, 0, "at most `N` checks of patched programs (0: no limit)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	races := fs.Bool("races", false, "C programs: a data race on a plain access (a race flag of the model, e.g. rc11's) is to be repaired too")
	selfCheck := fs.Bool("self-check", true, "check that each change of the fix is needed: without it the condition is reachable again (one more check per change)")
	engine := fs.String("engine", "smt", "`engine` checking a .pts program in the loop: smt (scales) or enum (faster on small programs); litmus tests use enum, or smt when they have loops")
	outFile := fs.String("o", "", "write the repaired program to `FILE` (the input as it is when it is already correct; nothing when no repair is found)")
	witness := fs.String("witness", "", "write the execution that makes the program as given wrong (the first witness the loop meets) as Graphviz to `FILE`")
	timeout := addTimeout(fs, "file")
	var incl listFlag
	fs.Var(&incl, "I", "`folder` to search for included .cat files (repeatable)")
	fs.Usage = func() {
		fmt.Fprint(stderr, fixUsage)
		fs.PrintDefaults()
	}
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if len(operands) != 1 {
		return usageError(fs, stderr, "name one file to repair")
	}
	path := operands[0]
	if *outFile != "" {
		if st, err := os.Stat(filepath.Dir(*outFile)); err != nil || !st.IsDir() {
			return usageError(fs, stderr, "-o %s: the folder %s does not exist", *outFile, filepath.Dir(*outFile))
		}
	}
	if *target != "" && strings.HasSuffix(path0(operands), ".litmus") {
		return usageError(fs, stderr, "-target is for .pts and C programs; a litmus test is repaired for its own architecture (use -model for another model)")
	}
	if *engine != "smt" && *engine != "enum" {
		return usageError(fs, stderr, "unknown engine %q (want smt or enum)", *engine)
	}
	opts := fix.Options{Model: *model, IncludeDirs: incl, Bound: *bound, Target: *target, Engine: *engine, Races: *races}
	racesSet := false
	fs.Visit(func(fl *flag.Flag) { racesSet = racesSet || fl.Name == "races" })
	if !racesSet && isC(path) {
		// As musket check: a C program under a C11 model with a race
		// flag is checked for data races unless -races=false.
		opts.Races = fix.CRacesByDefault(opts)
	}
	if *costsFile != "" {
		c, err := fix.ReadCosts(*costsFile)
		if err != nil {
			fmt.Fprintf(stderr, "musket fix: %v\n", err)
			return exitBadInput
		}
		opts.Costs = c
	}
	src, err := source.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "musket fix: %v\n", err)
		return exitBadInput
	}
	// The time limit and the signals cover the reading of the input too:
	// the parse of a large test and the listing of its candidates took
	// seconds (robust5).
	sig := interruptible()
	defer sig.stop()
	ctx, cancel := sig.ctx, context.CancelFunc(func() {})
	if d := timeout.resolve(1); d > 0 {
		ctx, cancel = context.WithTimeout(sig.ctx, d)
	}
	defer cancel()
	// -memory is a limit (exit 3), not only the collector's target: fix
	// did not watch it, and went past -memory 64M to 210 MB (robust5).
	ctx, unwatch := memlimit.Watch(ctx)
	defer unwatch()
	j := fixJSON{File: path}
	// One spinner for the whole run: the reading, then each check of a
	// patched program (fixLabel says which).
	name := "fix " + filepath.Base(path)
	spin := newBatchProgress(stderr, 1, isTerminal(stderr))
	spin.started(0, name)
	s, err := fix.NewContext(ctx, path, src, opts)
	readErr := err
	var out *fix.Outcome
	if err == nil {
		j.Target = s.Target()
		out, err = fix.RepairWith(ctx, s, *maxChecks, func(pr fix.Progress) { spin.relabel(0, fixLabel(name, pr)) })
	}
	spin.close()
	if readErr != nil && ctx.Err() == nil {
		// The input's own error (it names the file); with -json the
		// answer is still one object, as for the other errors.
		if *asJSON {
			j.Status, j.Error = "error", err.Error()
			writeJSON(stdout, j)
		}
		fmt.Fprintf(stderr, "musket fix: %v\n", err)
		return failureStatus(err)
	}
	fail := func(code int, err error) int {
		if *asJSON {
			j.Status, j.Error = "error", err.Error()
			writeJSON(stdout, j)
		}
		fmt.Fprintf(stderr, "musket fix: %s: %v\n", path, err)
		return code
	}
	switch {
	case sig.interrupted():
		return fail(exitInterrupted, errors.New("interrupted"))
	case err != nil && (memlimit.Exceeded(ctx) || errors.Is(err, memlimit.ErrExceeded)):
		return fail(exitLimit, memlimit.Error())
	case errors.Is(err, context.DeadlineExceeded) || err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		// Go's "context deadline exceeded" says nothing of -timeout (and
		// clang, stopped by it, says something else again).
		return fail(exitLimit, fmt.Errorf("timed out (limit %v)", timeout.resolve(1)))
	case errors.Is(err, fix.ErrLimit):
		return fail(exitLimit, err)
	case err != nil:
		return fail(failureStatus(err), err)
	}
	j.Checks, j.Witnesses, j.TimeMS, j.Cost = out.Checks, out.Witnesses, ms(out.Time), out.Cost
	j.Replays, j.Revived, j.Pruned = out.Replays, out.Revived, out.Pruned
	for _, c := range out.Fix {
		cd := out.Cands[c]
		j.Fix = append(j.Fix, fixChange{Thread: cd.Thread, Line: cd.Line, What: describe(cd), Cost: cd.Cost})
	}
	switch {
	case out.Correct:
		j.Status = "correct"
	case out.NoFix:
		j.Status = "nofix"
	default:
		j.Status = "fixed"
		v, err := fix.Verify(ctx, s, out.Fix, opts)
		switch {
		case fixTimedOut(ctx, err):
			// The time limit in the re-check is a limit, as in the
			// loop (it was exit 2, bad input: PPC/R03 at -timeout 60).
			return fail(exitLimit, fmt.Errorf("re-checking the repair: timed out (limit %v)", timeout.resolve(1)))
		case err != nil:
			return fail(failureStatus(err), fmt.Errorf("re-checking the repair: %v", err))
		}
		switch {
		case v.Reachable:
			return fail(exitDisagree, fmt.Errorf("the %s engine finds the condition still reachable on the repaired program: the engines disagree", v.Engine))
		case v.Skipped != "":
			j.Recheck = fmt.Sprintf("the %s engine gave no verdict (%s); the patched file checked again with the loop's %s engine: unreachable", v.Other, v.Skipped, v.Engine)
		default:
			j.Recheck = fmt.Sprintf("the patched file checked again with the %s engine: unreachable", v.Engine)
		}
		if v.Bounded {
			// As musket check's BOUND: no violation within the
			// bound, but a path needs more iterations.
			j.Bounded = true
			j.Recheck += fmt.Sprintf(", but only within the bound: some path needs more than %d iterations of a loop (musket check says BOUND; raise -bound)", *bound)
		}
		if *selfCheck {
			sl, err := fix.Minimal(ctx, s, out.Fix)
			switch {
			case fixTimedOut(ctx, err):
				return fail(exitLimit, fmt.Errorf("self-check: %v", err))
			case err != nil:
				return fail(failureStatus(err), fmt.Errorf("self-check: %v", err))
			case len(sl.Unneeded) > 0:
				var ds []string
				for _, c := range sl.Unneeded {
					ds = append(ds, describe(out.Cands[c]))
				}
				return fail(exitDisagree, fmt.Errorf("self-check failed: the fix is correct without %s, so it is not a cheapest one (a bug of musket fix)", strings.Join(ds, ", ")))
			case len(sl.Cheaper(out.Cands)) > 0:
				var ds []string
				for _, w := range sl.Cheaper(out.Cands) {
					ds = append(ds, describe(out.Cands[w.Change])+" weakened to "+describe(out.Cands[w.Weaker]))
				}
				return fail(exitDisagree, fmt.Errorf("self-check failed: the fix is correct with %s, which costs less, so it is not a cheapest one (a bug of musket fix)", strings.Join(ds, ", ")))
			}
			j.Needed = fmt.Sprintf("each of the %d change(s) is needed: without it, or with a cheaper or weaker insertion in its place, the condition is reachable again (%d check(s))", len(out.Fix), sl.Checks)
			for _, w := range sl.Weaker {
				// A tie: as cheap, weaker by the manuals, and enough.
				j.Needed += fmt.Sprintf("; except that at equal cost %s would do instead of %s", describe(out.Cands[w.Weaker]), describe(out.Cands[w.Change]))
			}
		}
		j.Diff = fix.PatchDiff(s, out.Fix)
	}
	if *witness != "" && out.First != nil {
		if err := writeDot(*witness, s.Name()+": the program as given", out.First); err != nil {
			return fail(exitBadInput, fmt.Errorf("-witness: %v", err))
		}
	} else if *witness != "" && !out.Correct {
		fmt.Fprintf(stderr, "musket fix: %s: -witness: the engine gave no execution to draw\n", path)
	}
	if *outFile != "" && !out.NoFix {
		if err := writeFileAtomic(*outFile, fix.Patched(s, out.Fix)); err != nil {
			return fail(exitBadInput, fmt.Errorf("-o: %v", err))
		}
	}
	if *asJSON {
		writeJSON(stdout, j)
	} else {
		printFix(stdout, s, j)
	}
	if out.NoFix {
		return exitFailed
	}
	if j.Bounded {
		return exitLimit
	}
	return exitOK
}

// fixTimedOut tells whether err ended a step of fix because -timeout was
// reached: the error itself, or any error once the deadline has passed
// (an engine stopped by it says something else).
func fixTimedOut(ctx context.Context, err error) bool {
	return err != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded))
}

func describe(c fix.Cand) string {
	if c.Fence {
		return "`" + strings.ReplaceAll(strings.TrimSuffix(c.Text, ";"), "\n", "; ") + "` after line " + fmt.Sprint(c.Line)
	}
	if c.From > 0 {
		return fmt.Sprintf("line %d made `%s` (%s dependency on the load of line %d)", c.Line, strings.ReplaceAll(c.Text, "\n", "; "), c.Name, c.From)
	}
	return "line " + fmt.Sprint(c.Line) + " made `" + strings.ReplaceAll(c.Text, "\n", "; ") + "`"
}

func printFix(w io.Writer, s fix.Subject, j fixJSON) {
	fmt.Fprintf(w, "%s: %s (%s)\n", j.File, s.Name(), s.Target())
	switch j.Status {
	case "correct":
		fmt.Fprintf(w, "Already correct: %s is unreachable; nothing to insert\n", s.Condition())
	case "nofix":
		fmt.Fprintf(w, "No fix within the repertoire: %s stays reachable whatever fences or orders are inserted (a witness that no candidate of the repertoire can forbid)\n", s.Condition())
	case "fixed":
		fmt.Fprintf(w, "Fix: %d change(s), cost %d\n", len(j.Fix), j.Cost)
		for _, c := range j.Fix {
			who := fmt.Sprintf("P%d", c.Thread)
			if c.Thread < 0 {
				who = "every thread running it"
			}
			fmt.Fprintf(w, "  %s: %s (cost %d)\n", who, c.What, c.Cost)
		}
		fmt.Fprint(w, j.Diff)
		fmt.Fprintf(w, "Re-checked: %s is unreachable on the patched file; %s\n", s.Condition(), j.Recheck)
		if j.Needed != "" {
			fmt.Fprintf(w, "Self-check: %s\n", j.Needed)
		}
	}
	printKill(w, j)
	fmt.Fprintf(w, "Checks %d, witnesses %d, time %.3fs\n", j.Checks, j.Witnesses, j.TimeMS/1000)
}

// runCompareFix is musket compare -fix: for each .pts program, the
// cheapest stronger orders of its target side that give state inclusion.
func runCompareFix(files []string, srcSide, target porthos.Side, bound int, limit time.Duration, costsFile, engine string, asJSON bool, stdout, stderr io.Writer) int {
	if engine != "smt" && engine != "enum" && engine != "auto" {
		fmt.Fprintf(stderr, "musket compare: unknown -fix-engine %q (want auto, enum or smt)\n", engine)
		return exitBadInput
	}
	opts := fix.Options{Bound: bound, Engine: engine}
	if costsFile != "" {
		c, err := fix.ReadCosts(costsFile)
		if err != nil {
			fmt.Fprintf(stderr, "musket compare: %v\n", err)
			return exitBadInput
		}
		opts.Costs = c
	}
	status := exitOK
	worse := func(s int) {
		if s > status {
			status = s
		}
	}
	sig := interruptible()
	defer sig.stop()
	for _, path := range files {
		if !strings.HasSuffix(path, ".pts") {
			fmt.Fprintf(stderr, "musket compare: %s: -fix repairs .pts programs (a litmus test has no target side of its own to patch)\n", path)
			worse(exitBadInput)
			continue
		}
		src, err := source.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "musket compare: %v\n", err)
			worse(exitBadInput)
			continue
		}
		ctx, cancel := sig.ctx, context.CancelFunc(func() {})
		if limit > 0 {
			ctx, cancel = context.WithTimeout(sig.ctx, limit)
		}
		s, t := srcSide, target
		wctx, unwatch := memlimit.Watch(ctx)
		out, err := fix.RepairInclusion(wctx, path, src, &s, &t, opts, 0)
		overMemory := err != nil && (memlimit.Exceeded(wctx) || errors.Is(err, memlimit.ErrExceeded))
		unwatch()
		j := fixJSON{File: path, Target: s.String() + " -> " + t.String()}
		switch {
		case sig.interrupted():
			cancel()
			fmt.Fprintf(stderr, "musket compare: %s: interrupted\n", path)
			return exitInterrupted
		case overMemory:
			cancel()
			fmt.Fprintf(stderr, "musket compare: %s: %v\n", path, memlimit.Error())
			worse(exitLimit)
			continue
		case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, fix.ErrLimit):
			cancel()
			fmt.Fprintf(stderr, "musket compare: %s: %v\n", path, err)
			worse(exitLimit)
			continue
		case err != nil:
			cancel()
			fmt.Fprintf(stderr, "musket compare: %v\n", err)
			worse(failureStatus(err))
			continue
		}
		j.Checks, j.Witnesses, j.TimeMS, j.Cost = out.Checks, out.Witnesses, ms(out.Time), out.Cost
		j.Replays, j.Revived, j.Pruned = out.Replays, out.Revived, out.Pruned
		j.Replays, j.Revived, j.Pruned = out.Replays, out.Revived, out.Pruned
		for _, c := range out.Fix {
			cd := out.Cands[c]
			j.Fix = append(j.Fix, fixChange{Thread: cd.Thread, Line: cd.Line, What: describe(cd), Cost: cd.Cost})
		}
		switch {
		case out.Correct:
			j.Status = "correct"
		case out.NoFix:
			j.Status = "nofix"
			worse(exitFailed)
		default:
			j.Status = "fixed"
			j.Diff = fix.PatchDiff(out.Subject, out.Fix)
			code, err := compareFixSelfCheck(ctx, out, bound, &j)
			if err != nil {
				cancel()
				fmt.Fprintf(stderr, "musket compare: %s: %v\n", path, err)
				worse(code)
				if code != exitLimit || j.Recheck == "" {
					continue
				}
				// A limit in the explicit engine's re-check: the
				// fix, checked by the SMT engine, is printed with
				// what was not re-checked, and the status says so.
			}
		}
		cancel()
		if asJSON {
			writeJSON(stdout, j)
			continue
		}
		fmt.Fprintf(stdout, "%s: %s, source %s, target %s (bound %d)\n", path, out.Subject.Name(), s.String(), t.String(), bound)
		switch j.Status {
		case "correct":
			fmt.Fprintln(stdout, "Already portable: every target state is a source state; nothing to insert")
		case "nofix":
			fmt.Fprintf(stdout, "No fix within the repertoire: %d target-only state(s) stay reachable whatever orders are strengthened\n", out.States)
		case "fixed":
			fmt.Fprintf(stdout, "Fix: %d change(s), cost %d, forbidding %d target-only state(s)\n", len(j.Fix), j.Cost, out.States)
			for _, c := range j.Fix {
				fmt.Fprintf(stdout, "  P%d: %s (cost %d)\n", c.Thread, c.What, c.Cost)
			}
			fmt.Fprint(stdout, j.Diff)
			fmt.Fprintf(stdout, "Re-checked: %s\n", j.Recheck)
			fmt.Fprintf(stdout, "Self-check: %s\n", j.Needed)
		}
		left := ""
		if out.Fallbacks > 0 {
			left = fmt.Sprintf(" (%d left by the explicit engine to the SMT engine)", out.Fallbacks)
		}
		printKill(stdout, j)
		fmt.Fprintf(stdout, "Inclusion checks %d, repair checks %d%s, witnesses %d, time %.3fs\n", out.Rounds, j.Checks, left, j.Witnesses, j.TimeMS/1000)
	}
	return status
}

func path0(ops []string) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0]
}

// compareFixSelfCheck checks a compare -fix repair as musket fix checks
// its own: each change is needed (without it the inclusion fails again)
// and the explicit engine, which the loop's inclusion checks did not use,
// finds every state of the patched target program among the source's. It
// fills j.Needed and j.Recheck, and returns an exit status with the error
// when a check fails or gives no answer.
func compareFixSelfCheck(ctx context.Context, out *fix.CompareOutcome, bound int, j *fixJSON) (int, error) {
	unneeded, n, incl, err := out.Needed(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return exitLimit, fmt.Errorf("self-check: %v", context.DeadlineExceeded)
	case err != nil:
		return failureStatus(err), fmt.Errorf("self-check: %v", err)
	case len(unneeded) > 0:
		var ds []string
		for _, c := range unneeded {
			ds = append(ds, describe(out.Cands[c]))
		}
		return exitDisagree, fmt.Errorf("self-check failed: inclusion holds without %s, so the fix is not a cheapest one (a bug of musket compare -fix)", strings.Join(ds, ", "))
	}
	j.Needed = fmt.Sprintf("each of the %d change(s) is needed: without it the inclusion fails again (%d check(s), %d of them inclusion checks)", len(out.Fix), n+incl, incl)
	missing, st, err := out.Inclusion(ctx)
	switch {
	case st == result.Timeout && errors.Is(err, enum.ErrBudget):
		j.Recheck = fmt.Sprintf("inclusion holds on the patched program (bound %d) by the SMT engine; the explicit engine gave no verdict within its budget of %d candidate executions a side", bound, fix.InclusionBudget)
	case st == result.Timeout || ctx.Err() != nil:
		j.Recheck = fmt.Sprintf("inclusion holds on the patched program (bound %d) by the SMT engine; the explicit engine's re-check reached the time limit", bound)
		return exitLimit, fmt.Errorf("re-checking the repair with the explicit engine: %v", context.DeadlineExceeded)
	case st != result.Done:
		j.Recheck = fmt.Sprintf("inclusion holds on the patched program (bound %d) by the SMT engine; the explicit engine gave no verdict (%v: %v)", bound, st, err)
	case err != nil:
		return failureStatus(err), fmt.Errorf("re-checking the repair: %v", err)
	case len(missing) > 0:
		return exitDisagree, fmt.Errorf("the explicit engine finds %d state(s) of the patched target program that are not source states, where the SMT engine finds inclusion: the engines disagree", len(missing))
	default:
		j.Recheck = fmt.Sprintf("inclusion holds on the patched program (bound %d), by the SMT engine and again by the explicit engine (the states each side reaches)", bound)
	}
	return exitOK, nil
}

// printKill says what the kill test did (the model run on a witness with
// insertions added, without a check of the whole program).
func printKill(w io.Writer, j fixJSON) {
	if j.Replays > 0 {
		fmt.Fprintf(w, "Kill test: %d replay(s) of witnesses in patched versions; %d check(s) saved, %d candidate(s) pruned from constraints\n", j.Replays, j.Revived, j.Pruned)
	}
}
