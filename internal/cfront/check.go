package cfront

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/lazyre"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/llir/llvm/asm"
	"github.com/llir/llvm/ir"

	"github.com/musket-verify/musket/include"
	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// Clang is the compiler the front-end runs (a variable for tests).
var Clang = "clang-14"

// ClangError is C that clang rejects: its messages.
type ClangError struct {
	File   string
	Output string
}

func (e *ClangError) Error() string {
	return fmt.Sprintf("%s: clang rejects the program:\n%s", e.File, strings.TrimRight(e.Output, "\n"))
}

// IncludeDir is the folder of the headers Musket ships (musket/lkmm.h);
// "" writes the embedded copies (package include) into a folder of the
// temporary directory named after their content, reused by later runs.
var IncludeDir = ""

var (
	includeOnce sync.Once
	includeDir  string
)

// findInclude returns the folder to pass to clang with -I.
func findInclude() string {
	if IncludeDir != "" {
		return IncludeDir
	}
	includeOnce.Do(func() {
		// One folder per content of the headers, reused by later runs.
		h := sha256.New()
		files := map[string][]byte{}
		err := fs.WalkDir(include.FS, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := include.FS.ReadFile(p)
			files[p] = b
			h.Write([]byte(p))
			h.Write(b)
			return err
		})
		if err != nil {
			return
		}
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("musket-include-%x", h.Sum(nil)[:6]))
		for p, b := range files {
			dst := filepath.Join(dir, p)
			if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, b) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return
			}
			tmp := fmt.Sprintf("%s.%d", dst, os.Getpid())
			if err := os.WriteFile(tmp, b, 0o644); err != nil {
				return
			}
			if err := os.Rename(tmp, dst); err != nil {
				return
			}
		}
		includeDir = dir
	})
	return includeDir
}

// ClangOptions say how to compile a program, as the flags of a C
// compiler do: the folders of its headers (-I), its macros (-D NAME or
// NAME=VALUE), the language standard (-std, default gnu11: GNU C, with
// asm, typeof and the POSIX names of the headers) and any further flags.
type ClangOptions struct {
	Includes []string
	Defines  []string
	Std      string
	Extra    []string
	// NoCache compiles without the compile cache (cache.go).
	NoCache bool
	// RaceFree lets the optimiser assume that the program has no data
	// race (set when races are checked: a race is then the verdict).
	// Otherwise plain accesses to shared memory are kept as written
	// (racepipe.go).
	RaceFree bool
}

// DefaultStd is the language standard programs are compiled with when
// none is given.
const DefaultStd = "gnu11"

// args are the clang flags of o.
func (o ClangOptions) args() []string {
	std := o.Std
	if std == "" {
		std = DefaultStd
	}
	args := []string{"-std=" + strings.TrimPrefix(std, "-std=")}
	for _, d := range o.Includes {
		args = append(args, "-I", d)
	}
	for _, d := range o.Defines {
		args = append(args, "-D", d)
	}
	return append(args, o.Extra...)
}

// clangArgs are the arguments of clang's compilation of path to IR on
// standard output.
func clangArgs(path string, co ClangOptions) []string {
	// The front end's IR only: CompileIR optimises it (racepipe.go).
	args := []string{"-S", "-emit-llvm", "-g", "-O1", "-Xclang", "-disable-llvm-passes", "-fno-discard-value-names", "-Wno-everything"}
	if co.RaceFree {
		// free is not the builtin for the optimiser of the race-free
		// compilation: it deleted a free of a local's address
		// (undefined behaviour, which the lowering reports: free.go).
		// Only there: elsewhere the call stays, and the other
		// compilations keep their IR (and their cache entries).
		args = append(args, "-fno-builtin-free")
	}
	args = append(args, co.args()...)
	if inc := findInclude(); inc != "" {
		args = append(args, "-I", inc)
	}
	return append(args, "-o", "-", path)
}

// CompileIR runs clang on a C file and returns the textual LLVM IR.
func CompileIR(ctx context.Context, path string, co ClangOptions) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, source.FileError(err) // "x.c: no such file or directory", not "stat x.c: ..."
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	// A file Musket cannot read is said as such, not as clang's
	// "clang rejects the program: error: error reading 'x.c'" (robust7).
	f, err := os.Open(path)
	if err != nil {
		return nil, source.FileError(err)
	}
	f.Close()
	if n := source.MaxInput(); n > 0 && st.Size() > n {
		return nil, &source.TooLargeError{Path: path, Limit: n}
	}
	// clang gets a time limit of its own when the check has none, so
	// that a program clang takes forever on (a 10 MB line) is stopped.
	if _, ok := ctx.Deadline(); !ok && ClangTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ClangTimeout)
		defer cancel()
	}
	args := clangArgs(path, co)
	// The compile cache: a hit is clang's IR of an earlier compilation
	// of the same source, arguments and headers.
	dir, key := cacheDir(co), ""
	if dir != "" {
		if src, err := os.ReadFile(path); err == nil {
			key = cacheKey(append(args[:len(args):len(args)], raceGuardVersion, fmt.Sprint("race-free=", co.RaceFree)), src)
		}
	}
	var depFile string
	if key != "" {
		if ir, ok := cacheLookup(dir, key); ok {
			return ir, nil
		}
		if f, err := os.CreateTemp("", "musket-deps-*.d"); err == nil {
			depFile = f.Name()
			f.Close()
			defer os.Remove(depFile)
			args = append([]string{"-MD", "-MF", depFile, "-MT", "musket-target"}, args...)
		}
	}
	start := time.Now()
	clangRuns.Add(1)
	// stopped: killed by the time limit (or an interrupt), not rejected.
	stopped := func() error {
		return &LimitError{Msg: fmt.Sprintf("%s: clang was stopped after %.1fs: %s", path, time.Since(start).Seconds(), ctxReason(ctx))}
	}
	sess := startFastSession(ctx, co) // both steps in one musket-cc process (fastsession.go)
	defer sess.close()
	if out, ok := compileRacePipeOne(ctx, sess, args, co); ok { // racepipe.go
		if depFile != "" {
			cacheStore(dir, key, depFile, start, out)
		}
		return out, nil
	}
	out, errb, err := runClangIn(ctx, sess, args) // fastcc.go
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, clangFailure(path, ee, errb)
		}
		return nil, fmt.Errorf("%s: cannot run %s (install it: scripts/setup-deps.sh): %v", path, Clang, err)
	}
	if out, err = optimizeRaceGuarded(ctx, sess, path, out, co); err != nil { // racepipe.go
		if ctx.Err() != nil {
			return nil, stopped()
		}
		return nil, err
	}
	if depFile != "" {
		cacheStore(dir, key, depFile, start, out)
	}
	return out, nil
}

// clangFailure is the error of a clang that exited with ee: a crash
// (killed by a signal; clang-14 overflows its stack on an expression of
// 10^5 terms or 10^4 nested statements) is a limit of clang, not an
// error of the program; it was "clang rejects the program:" with no
// message (robust7). Otherwise clang's messages.
func clangFailure(path string, ee *exec.ExitError, stderr []byte) error {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return &LimitError{Msg: fmt.Sprintf("%s: clang crashed (%v) while it compiled the program: a limit of clang, such as an expression or a nesting too deep for its stack (the program may be fine)", path, ws.Signal())}
	}
	if len(bytes.TrimSpace(stderr)) == 0 {
		return &ClangError{File: path, Output: fmt.Sprintf("(no message; clang exited with status %d)", ee.ExitCode())}
	}
	return &ClangError{File: path, Output: string(stderr)}
}

// ClangTimeout is clang's time limit when the check has none.
var ClangTimeout = 2 * time.Minute

// ctxReason says why ctx ended.
func ctxReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "the time limit was reached while it compiled"
	}
	return "the check was stopped"
}

// Program is a lowered C program.
type Program struct {
	Test    *spec.Test // threads at the C level (Arch "C"), loops unrolled
	Asserts []Assertion
	Threads int // program threads (without the coin thread)
	spins   []spinSite
	// asmFences are the full fences written in asm, by architecture.
	asmFences []asmFence
	names     *cNames    // the debug information's names (cnames.go)
	splitRMWs []splitRMW // read-modify-writes over parts (mixed.go)
	// heaps are the heap objects of a program that calls free, each
	// with its freed mark (free.go); nil when the program calls none.
	heaps map[string]bool
	// lifetimes are the failure texts of the tracked locals and
	// thread-local copies, whose lifetime's end is a free (lifetime.go).
	lifetimes map[string]string
	// lifeHeaps are the heap objects of the locals whose lifetime a
	// loop repeats (lifetime.go): their mark is their freed mark.
	lifeHeaps map[string]bool
	// raw are the heap objects whose contents are indeterminate until
	// written (malloc's; uninit.go).
	raw map[string]bool
}

// Assertion is an assertion of the program.
type Assertion struct {
	Pos  prog.Pos
	Text string
	// Limit: the path goes past a limit of Musket's lowering (a second
	// thread-specific data key at one site, say), which is no failure of
	// the program: a check that finds it has no verdict (atLimit).
	Limit bool
}

func (a Assertion) String() string {
	return fmt.Sprintf("%s:%d: %s", a.Pos.File, a.Pos.Line, a.Text)
}

// memoryErrors are the texts of the failures that are no assertion of
// the program but a memory error it makes (narrow.go, free.go,
// uninit.go, graph.go).
var memoryErrors = map[string]bool{
	"invalid memory access":                       true,
	"use after free":                              true,
	"read of uninitialised heap memory":           true,
	"free of memory that malloc did not allocate": true,
	"free: double free":                           true,
}

// Failure says what fails at a: "file:line: x == 1 fails" for an
// assertion, "file:line: use after free" for a memory error.
func (a Assertion) Failure() string {
	if memoryErrors[a.Text] || isLifetimeText(a.Text) {
		return a.String()
	}
	return a.String() + " fails"
}

// Options say how to lower a program.
type Options struct {
	Bound  int
	NoSpin bool // unroll spin loops like other loops
	Clang  ClangOptions
	// Liveness: the program is for a liveness check too: a condition
	// wait may also sleep for good (condvar.go).
	Liveness bool
}

// Lower compiles the C file with clang and lowers it to the program IR.
func Lower(ctx context.Context, path string, opts Options) (*Program, error) {
	ll, err := CompileIR(ctx, path, opts.Clang)
	if err != nil {
		return nil, err
	}
	return lowerIR(ctx, path, ll, opts)
}

// LowerIR lowers clang's textual IR of the C file path.
func LowerIR(path string, ll []byte, opts Options) (*Program, error) {
	return lowerIR(context.Background(), path, ll, opts)
}

// retAttrs matches the return attributes clang-14 puts on some calls
// (aligned_alloc's "call noalias align 16 dereferenceable_or_null(16)")
// that the IR reader does not parse; they are hints to the optimiser,
// dropped before reading.
var retAttrs = lazyre.New(`(call (?:noalias |noundef |nonnull )*)(?:align \d+ |dereferenceable_or_null\(\d+\) |dereferenceable\(\d+\) )+`)

// errDeadline stops a lowering whose context is done (the -timeout of a
// check): Check then answers TIMEOUT, never a verdict.
var errDeadline = errors.New("the time limit was reached while lowering the program")

func lowerIR(ctx context.Context, path string, ll []byte, opts Options) (*Program, error) {
	if opts.Bound < 1 {
		opts.Bound = 1
	}
	m, err := asm.ParseBytes(path+".ll", retAttrs.ReplaceAll(ll, []byte("$1")))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read clang's LLVM IR: %v", path, err)
	}
	l := &lowerer{file: path, mod: m, funcs: map[string]*ir.Func{}, locs: map[string]bool{}, nonAt: map[string]bool{},
		allocs: map[string]int{}, loops: map[*ir.Func]*loopInfo{}, noSpin: opts.NoSpin, ctx: ctx, literals: literalsRead(ll)}
	l.posixOf().liveness = opts.Liveness
	for _, f := range m.Funcs {
		l.funcs[f.Name()] = f
	}
	// Every heap object gets its freed mark when the program may call
	// free (free.go): decided before any thread is lowered, since a
	// thread's objects are made before later threads' frees are seen.
	if f := l.funcs["free"]; f != nil && len(f.Blocks) == 0 {
		l.frees = true
	}
	if f := l.funcs["realloc"]; f != nil && len(f.Blocks) == 0 {
		l.frees, l.reallocs = true, true // (realloc.go)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	t, err := l.program(name, opts.Bound)
	if err != nil {
		return nil, err
	}
	p := &Program{Test: t, Threads: len(l.created), spins: l.spins, asmFences: l.asmFences, names: newCNames(m), splitRMWs: l.splitRMWs, heaps: l.heaps, raw: l.raw, lifetimes: l.lifetimes, lifeHeaps: l.lifeHeaps}
	for _, a := range l.asserts {
		p.Asserts = append(p.Asserts, Assertion{Pos: a.pos, Text: a.text, Limit: a.limit})
	}
	for n := range l.nonAt {
		for _, th := range t.Threads {
			th.NonAtomic = append(th.NonAtomic, n)
		}
	}
	for _, th := range t.Threads {
		sort.Strings(th.NonAtomic)
	}
	return p, nil
}

// Verdict is the answer on a C program.
type Verdict int

// The verdicts.
const (
	Safe      Verdict = iota // no assertion can fail within the bound
	Violation                // an assertion can fail
	BoundHit                 // no failure found, but some path needs more iterations
	Unknown                  // the engine did not answer (Result.Status says why)
	Livelock                 // (-liveness) a thread can wait forever in a fair execution
	Race                     // (-races) an execution raises a data-race flag of the model
)

func (v Verdict) String() string {
	return [...]string{"SAFE", "VIOLATION", "BOUND", "UNKNOWN", "LIVELOCK", "RACE"}[v]
}

// CheckOptions say how to check a program.
type CheckOptions struct {
	Bound      int
	Engine     string // smt (default), enum or graph
	Target     string // "": the C11 events as they are; else compiled for it
	Model      *cat.Model
	ModelName  string
	NoSpin     bool
	NoAnalysis bool
	Variants   map[string]bool
	Liveness   bool // also ask whether a thread can wait forever
	// Races makes a raised race flag of the model (IsRaceFlag: RC11's
	// data-race, ...) a violation, with an execution raising it.
	// Data races are then the verdict first: when an assertion can fail
	// too, both are reported (Result.Failed on a Race).
	Races bool
	Clang ClangOptions // how to compile the program
	// Explain asks, on a PASS, why no assertion can fail (explain.go).
	Explain bool
	// GraphCrossCheck makes the graph engine evaluate the CAT model
	// beside its native check of a built-in model on every graph and
	// fail on a disagreement (for tests).
	GraphCrossCheck bool
	// GraphNoPrune turns off the graph engine's pruning of threads
	// blocked on a stale read (for tests: verdicts must not change).
	GraphNoPrune bool
	// GraphNoCommute turns off the graph engine's merging of the orders
	// of commuting relaxed read-modify-writes (commute.go; for tests).
	GraphNoCommute bool
	// GraphNoSymmetry turns the graph engine's symmetry reduction off
	// (graph.go: symmetricThreads).
	GraphNoSymmetry bool
	// GraphCountClasses counts the executions up to the symmetry
	// (graph.Stats.Classes; for tests, costly).
	GraphCountClasses bool
	// SMTNoSymmetry turns the SMT engine's symmetry breaking off
	// (smtsym.go; for tests: verdicts must not change).
	SMTNoSymmetry bool
	// SMTIgnoresFree lets the SMT and explicit engines answer PASS on a
	// program that frees heap objects or reads malloc's memory, a use
	// after free unchecked (the SMT engine's check is off too) or a read
	// of uninitialised memory unchecked by the explicit engine
	// (memRefusal; for tests that compare the rest of the answer).
	SMTIgnoresFree bool
	// GraphPace is the graph engine's graph.Options.Pace (a portfolio's
	// budget; nil: none).
	GraphPace func(graphs int)

	// smtSym is, for the SMT engine, each thread's symmetric
	// predecessor (smtsym.go), nil for none.
	smtSym []int

	// rawRead, rawFault are, for the SMT engine's first query, the
	// check of reads of uninitialised heap memory (bmc.Options.RawRead).
	rawRead  func(loc string) bool
	rawFault func(thread, pc int) prog.Value
	// freedMark, uafFault, uafOrder are, for the SMT engine's first
	// query, the check of uses after free (bmc.Options.FreedMark).
	freedMark func(loc string) string
	uafFault  func(thread, pc int, loc string) prog.Value
	uafOrder  string

	// cSym, cSymStops are, under -target riscv, the graph engine's
	// symmetric threads found on the C-level program (symmetricThreads),
	// whose compilation puts fences between the parent's creations and
	// joins (CheckOptions.graphSymmetric); cSymSet says they are.
	cSym      []int
	cSymStops bool
	cSymSet   bool
}

// CompileOptions are the options of the program's compilation: the
// optimiser may assume no data race only when races are checked (or the
// caller says so).
func (o CheckOptions) CompileOptions() ClangOptions {
	c := o.Clang
	c.RaceFree = c.RaceFree || o.Races
	return c
}

// IsRaceFlag tells whether a flag of a model reports a data race
// (RC11's and C11's data-race, unsequenced races, ...).
func IsRaceFlag(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "race") || strings.Contains(n, "racy")
}

// Result is the outcome of a check.
type Result struct {
	Name     string
	Verdict  Verdict
	Failed   *Assertion // the assertion that fails (Violation), or where a thread waits forever (Livelock)
	RaceFlag string     // the race flag raised (Race); Result.Witness is an execution raising it
	// RacePair is the race's two accesses (Race), when the witness gives
	// them (races.go). Failed, on a Race, is an assertion that can fail
	// too: both are reported (a race takes precedence as the verdict).
	RacePair  *[2]RaceAccess
	Result    *result.Result
	Report    *bmc.Report
	Program   *Program
	Test      *spec.Test // what the engines ran (compiled when a target is given)
	Condition string
	Time      time.Duration
	// Graph counts what the graph engine explored (-engine graph).
	Graph *graph.Stats
	// Commuted counts the relaxed read-modify-writes whose orders the
	// graph engine did not explore (commute.go); CommuteOff says the
	// rewrite was tried and given up (a thread had not ended when main
	// read a location they update), and the run was made without it.
	Commuted   int
	CommuteOff bool
	commuteAt  *result.Execution // an execution that failed commuteBroken
	// Via, when not empty, says how the verdict was reached other than
	// by the engine asked (a PASS under -target power from the graph
	// engine under IMM: immpower.go); ViaNot, why that shortcut was not
	// taken.
	Via, ViaNot string
	// Explain (CheckOptions.Explain, on a PASS) lists the candidate
	// executions in which an assertion fails and why the model rejects
	// each (explain.go); ExplainErr says why there is none.
	Explain     *result.Explanation
	ExplainErr  string
	explainTest *spec.Test // the program the explanation's executions are of
}

// Check lowers the C program and asks whether an assertion can fail; if
// none can, whether a path needs more loop iterations than the bound.
func Check(ctx context.Context, path string, opts CheckOptions) (*Result, error) {
	start := time.Now()
	p, err := Lower(ctx, path, Options{Bound: opts.Bound, NoSpin: opts.NoSpin, Clang: opts.CompileOptions(), Liveness: opts.Liveness})
	if ctx.Err() != nil {
		// The time limit was reached in clang or in the lowering (a
		// lowering that finished past it too: each phase checks the
		// deadline before the next starts).
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return &Result{Name: name, Verdict: Unknown, Result: &result.Result{Name: name, Status: result.Timeout, Err: ctx.Err()}, Time: time.Since(start)}, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := CheckProgram(ctx, p, opts)
	if r != nil {
		r.Time = time.Since(start)
	}
	return r, err
}

// CheckProgram checks a lowered program.
func CheckProgram(ctx context.Context, p *Program, opts CheckOptions) (*Result, error) {
	t := p.Test
	if opts.Engine != "graph" {
		// (The graph engine computes addresses: it needs no case split.)
		// For a target, the accesses keep their addresses (and address
		// dependencies): see narrow.
		t = p.narrow(ctx, t, opts.Target != "")
	}
	if opts.Engine != "graph" && coherentModel(opts.ModelName) {
		// (The graph engine computes values: it needs no forwarding.)
		t = ownStores(ctx, t)
	}
	// The phases before an engine (narrowing, forwarding, symmetry, the
	// compilation for a target) each take long on a program of thousands
	// of branches (a character buffer: cwild9's log_format under power):
	// the deadline is looked at between them.
	if r := stoppedBefore(ctx, t); r != nil {
		return r, nil
	}
	var tags []string
	if fe, err := litmus.Lookup("C"); err == nil {
		tags = fe.Tags()
	}
	if err := p.checkAsmTarget(opts.Target); err != nil {
		return nil, err
	}
	if err := p.splitRMWError(opts); err != nil {
		res := &Result{Name: t.Name, Program: p, Test: t, Verdict: Unknown}
		res.Result = &result.Result{Name: t.Name, Model: opts.ModelName, Status: result.Unsupported, Err: err}
		return res, nil
	}
	if err := kernelOnlyError(t, opts.Model, opts.ModelName); err != nil {
		res := &Result{Name: t.Name, Program: p, Test: t, Verdict: Unknown}
		res.Result = &result.Result{Name: t.Name, Model: opts.ModelName, Status: result.Unsupported, Err: err}
		return res, nil
	}
	// The symmetric threads are found before the compilation for a
	// target, which puts fences between the parent's creations
	// (smtsym.go).
	opts.smtSym = smtSymmetry(t, p.Asserts, opts)
	if opts.Target == "riscv" {
		opts.cSym, opts.cSymStops = symmetricThreads(t, p.Asserts)
		opts.cSymSet = true
	}
	if r := stoppedBefore(ctx, t); r != nil {
		return r, nil
	}
	if opts.Target != "" {
		ct, err := CompileFor(t, opts.Target)
		if err != nil {
			return nil, err
		}
		t = ct
		if r := stoppedBefore(ctx, t); r != nil {
			return r, nil
		}
		tags = compile.Tags(opts.Target)
		if fe, err := litmus.Lookup(t.Arch); err == nil {
			tags = append(tags, fe.Tags()...)
		}
	}
	res := &Result{Name: t.Name, Program: p, Test: t}
	// 1. Can an assertion fail?
	var fails spec.Cond
	for i := 0; i < p.Threads; i++ {
		fails = orCond(fails, spec.Atom{Ref: spec.Ref{Thread: i, Name: failReg}, Neq: true})
	}
	if fails == nil {
		fails = spec.Bool{V: false}
	}
	q := *t
	q.Quant, q.Cond = spec.Exists, fails
	res.Condition = "exists (" + spec.FormatCond(fails) + ")"
	if opts.Explain {
		qe := q
		defer func() {
			if res.Verdict == Safe {
				res.explainSafe(ctx, p, qe, tags, opts)
			}
		}()
	}
	if opts.Engine == "graph" {
		return checkGraph(ctx, res, p, &q, tags, opts), nil
	}
	// The SMT engine checks reads of uninitialised heap memory in this
	// query (uninit.go); their failures are numbered apart.
	var faults []Assertion
	num := map[Assertion]int{}
	o1 := opts
	if p.raw != nil && opts.Engine != "enum" {
		o1.rawRead, o1.rawFault = p.rawCell, numberedFaults(&q, &faults, num, "read of uninitialised heap memory")
	}
	// And uses after free, under the models it has an order for
	// (bmc.UseAfterFreeOrder); under another, when only lifetimes end,
	// the SMT engine's model-independent rule (bmc's uaf.go: the owner's
	// accesses before the end in program order), which decides a
	// program where no other access is made (memRefusal refuses the
	// rest).
	if order := bmc.UseAfterFreeOrder(opts.Model, opts.ModelName); p.heaps != nil && opts.Engine != "enum" && (order != "" || lifetimesOnly(p)) && !opts.SMTIgnoresFree {
		o1.freedMark, o1.uafFault, o1.uafOrder = p.freedMark, uafFaults(p, &q, &faults, num), order
	}
	r, rep, reach := run(ctx, &q, tags, o1)
	res.Result, res.Report = r, rep
	if r.Status != result.Done {
		res.Verdict = Unknown
		return res, nil
	}
	torn := false
	if reach && hasParts(t) && !modelUses(opts.Model, "sm") {
		var pos prog.Pos
		if pos, torn = tornAccess(t, r.Witness); torn && !(raceFlag(opts, r) != "" && hbCoherent(opts.ModelName) && tornRaces(t, r.Witness)) {
			res.Verdict = Unknown
			r.Status, r.Err = result.Unsupported, tearingError(opts.ModelName, pos)
			return res, nil
		}
	}
	if f := raceFlag(opts, r); f != "" {
		// A data race is reported first (the program's behaviour is
		// undefined), with an assertion that can fail too (not when the
		// failure tears an access: the race is then the whole answer,
		// tornRaces).
		if reach && !torn {
			res.Failed = graphFailed(p, r, faults)
		}
		res.raceOf(r, f, opts, tags)
		return res, nil
	}
	if reach {
		res.Verdict = Violation
		res.Failed = graphFailed(p, r, faults)
		res.atLimit()
		return res, nil
	}
	if err := memRefusal(p, opts, rep); err != nil {
		// No failure: whether none is a use after free or a read of
		// uninitialised memory, this engine does not know (free.go).
		res.Verdict = Unknown
		r.Status, r.Err, r.Witness = result.Unsupported, err, nil
		return res, nil
	}
	// 2. Does a path need more iterations than the bound?
	q.Cond = p.cutCond()
	reach2 := res.runAfter(ctx, &q, tags, opts)
	switch {
	case res.Result.Status != result.Done:
		res.Verdict = Unknown
	case reach2:
		res.Verdict = BoundHit
	default:
		res.Verdict = Safe
		res.Result.Witness = nil
	}
	if res.Verdict != Safe || !opts.Liveness {
		return res, nil
	}
	// 3. Can a thread wait forever in a fair execution?
	q.Cond = p.livelock()
	reach3 := res.runAfter(ctx, &q, tags, opts)
	switch {
	case res.Result.Status != result.Done:
		res.Verdict = Unknown
	case reach3:
		res.Verdict = Livelock
		res.Failed = p.stuckAt(res.Result)
	default:
		res.Result.Witness = nil
	}
	return res, nil
}

// atLimit turns a violation found at one of Musket's limits
// (Assertion.Limit) into no verdict: the program may be correct, and a
// failure of its own may lie on another path.
func (res *Result) atLimit() {
	if res.Verdict != Violation || res.Failed == nil || !res.Failed.Limit {
		return
	}
	res.Verdict = Unknown
	res.Result.Status = result.Unsupported
	res.Result.Err = fmt.Errorf("%s: %s: a path goes past this limit of Musket (not a failure of the program), so there is no verdict", res.Failed.Pos, res.Failed.Text)
	res.Result.Witness = nil
}

// stoppedBefore is the result of a check whose context ended before an
// engine ran on t (nil while it goes on): the time limit, or the memory
// limit, which the caller tells apart by the context's cause.
func stoppedBefore(ctx context.Context, t *spec.Test) *Result {
	if ctx.Err() == nil {
		return nil
	}
	return &Result{Name: t.Name, Verdict: Unknown, Test: t, Result: &result.Result{Name: t.Name, Status: result.Timeout, Err: ctx.Err()}}
}

// cutCond is the condition that some thread reached the unroller's cut.
func (p *Program) cutCond() spec.Cond {
	var cut spec.Cond
	for i := 0; i < p.Threads; i++ {
		cut = orCond(cut, spec.Atom{Ref: spec.Ref{Thread: i, Name: compile.BoundReg}, Val: prog.IntValue(1)})
	}
	return cut
}

// runAfter runs query q after the queries res holds the result and
// report of, and holds q's instead, with the times of all added up; it
// tells whether q's condition is reachable.
func (res *Result) runAfter(ctx context.Context, q *spec.Test, tags []string, opts CheckOptions) bool {
	r, rep, reach := run(ctx, q, tags, opts)
	r.Time += res.Result.Time
	if rep != nil && res.Report != nil {
		rep.Encode += res.Report.Encode
		rep.Solve += res.Report.Solve
		// A query that gave up the theory's encoding marks the whole check.
		rep.LazyFellBack = rep.LazyFellBack || res.Report.LazyFellBack
	}
	res.Result, res.Report = r, rep
	return reach
}

// livelock is the condition of a fair execution in which a thread waits
// forever (Dartagnan's liveness check, on the spin sites of the
// lowering): every thread either ends (it did not stop, nor hit the
// bound) or stops at a spin site whose reads all read the final values of
// their locations (no later write can release it; a fair scheduler would
// otherwise let it read them); and some thread stops at a spin loop, a
// lock or a join (not at its start: a thread never created).
func (p *Program) livelock() spec.Cond {
	var all spec.Cond = spec.Bool{V: true}
	var some spec.Cond = spec.Bool{V: false}
	and := func(a, b spec.Cond) spec.Cond { return spec.And{L: a, R: b} }
	or := func(a, b spec.Cond) spec.Cond { return spec.Or{L: a, R: b} }
	for t := 0; t < p.Threads; t++ {
		reg := func(n string) spec.Ref { return spec.Ref{Thread: t, Name: n} }
		ended := and(spec.Atom{Ref: reg(blockedReg), Val: prog.IntValue(0)}, spec.Atom{Ref: reg(compile.BoundReg), Val: prog.IntValue(0)})
		var stuck spec.Cond = spec.Bool{V: false}
		var stuckReal spec.Cond = spec.Bool{V: false}
		for i, s := range p.spins {
			if s.dyn {
				continue
			}
			c := and(spec.Atom{Ref: reg(spinReg), Val: prog.IntValue(1)}, spec.Atom{Ref: reg(spinAtReg), Val: prog.IntValue(int64(i + 1))})
			for k := range s.regs {
				c = and(c, spec.RefEq{L: reg(s.regs[k]), R: spec.Ref{Thread: -1, Name: s.locs[k]}})
			}
			stuck = or(stuck, c)
			if s.real {
				stuckReal = or(stuckReal, c)
			}
		}
		all = and(all, or(ended, stuck))
		some = or(some, stuckReal)
	}
	return and(all, some)
}

// stuckAt finds, in a livelock witness, where a thread waits.
func (p *Program) stuckAt(r *result.Result) *Assertion {
	if r.Witness == nil {
		return nil
	}
	vals := map[spec.Ref]int64{}
	for i, ref := range r.Observed {
		if i < len(r.Witness.State) {
			vals[ref] = r.Witness.State[i].Int
		}
	}
	var join *Assertion
	for t := 0; t < p.Threads; t++ {
		if vals[spec.Ref{Thread: t, Name: spinReg}] != 1 {
			continue
		}
		n := vals[spec.Ref{Thread: t, Name: spinAtReg}]
		if n >= 1 && int(n) <= len(p.spins) && p.spins[n-1].real {
			s := p.spins[n-1]
			a := &Assertion{Pos: s.pos, Text: fmt.Sprintf("thread P%d waits forever", t)}
			if !s.join {
				return a
			}
			if join == nil {
				join = a
			}
		}
	}
	return join
}

func orCond(a, b spec.Cond) spec.Cond {
	if a == nil {
		return b
	}
	return spec.Or{L: a, R: b}
}

// run asks one reachability question with the engine.
func run(ctx context.Context, q *spec.Test, tags []string, opts CheckOptions) (*result.Result, *bmc.Report, bool) {
	if opts.Engine == "enum" {
		start := time.Now()
		// Every built-in model is coherent per location (forward.go):
		// the incoherent reads-from choices are dropped before the model
		// sees them.
		r := enum.Run(ctx, q, opts.Model, opts.ModelName, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound, FlagWitnesses: opts.Races, Uniproc: coherentModel(opts.ModelName)})
		rep := &bmc.Report{Solve: time.Since(start)}
		return r, rep, r.Positive > 0 && r.Status == result.Done
	}
	// Eager acyclicity: on these programs under the hardware models Z3's
	// time goes into the models' closures, and the lazy theory (which
	// gives up the QF_LIA solver) saved nothing (measured on examples/c),
	// unless the closures go into the theory too (bmc.DerivedFor).
	o := bmc.Options{Variants: opts.Variants, TagNames: tags, VerdictOnly: true, PositiveOnly: true, NoAnalysis: opts.NoAnalysis, Logic: "QF_LIA", FlagWitnesses: opts.Races, Acyclicity: "eager", Derived: bmc.DerivedFor(opts.ModelName)}
	if opts.smtSym != nil {
		o.Symmetric, o.SymOwn = opts.smtSym, ownLoc.MatchString
	}
	if opts.rawRead != nil {
		o.RawRead, o.RawFault, o.FaultReg = opts.rawRead, opts.rawFault, failReg
	}
	if opts.freedMark != nil {
		o.FreedMark, o.UseAfterFree, o.UAFModel, o.FaultReg = opts.freedMark, opts.uafFault, opts.uafOrder, failReg
	}
	r, rep := bmc.RunReport(ctx, q, opts.Model, opts.ModelName, o)
	var dz *prog.DivisionByZeroError
	if (r.Status == result.Failed || r.Status == result.Unsupported) && !errors.As(r.Err, &dz) {
		o.Logic = ""
		r, rep = bmc.RunReport(ctx, q, opts.Model, opts.ModelName, o)
	}
	return r, rep, r.Positive > 0 && r.Status == result.Done
}

// failedAssertion reads, from the witness's final state, which assertion
// failed.
func failedAssertion(p *Program, r *result.Result) *Assertion {
	if r.Witness == nil {
		return nil
	}
	for i, ref := range r.Observed {
		if ref.Name == failReg && i < len(r.Witness.State) {
			n := r.Witness.State[i].Int
			if n >= 1 && int(n) <= len(p.Asserts) {
				a := p.Asserts[n-1]
				return &a
			}
		}
	}
	return nil
}
