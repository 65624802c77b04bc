// Package batch runs many litmus tests under a model with a pool of
// workers: it picks and loads the model each test needs (once per model,
// through package driver), applies the per-test time limit, runs
// one engine or both and compares them (both.go), and hands results back
// in input order, each as soon as it and every file before it are done.
package batch

import (
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
)

// Options configure a batch run.
type Options struct {
	Model string // built-in name or .cat path; "" picks the architecture's default
	// ModelLoaded is Model already loaded (driver.Models.CheckLoad), with
	// the same include folders, bell and library folders: the tests take
	// it rather than load the file again; nil to load it here.
	ModelLoaded *cat.Model
	IncludeDirs []string
	Variants    map[string]bool
	Jobs        int           // workers; 0 means every core
	Timeout     time.Duration // per test; 0 means none
	Bound       int           // loop unrolling bound (0: the engines' default, 2; negative: none, herd's -unroll 0)
	Engine      string        // "enum" (default), "smt", "both" (each test under both, compared) or "auto" (the first answer of the two; see AutoDelay)
	VerdictOnly bool          // smt: the verdict without listing every final state
	Bell        string        // a .bell file read before the model (herd7's -bell)
	Macros      string        // a .def file of C macros (herd7's -macros)
	MachSize    int           // herd7's machsize (driver.Conf.MachSize): a mixed-size test with a smaller access is bad input; 0 for none
	LibDirs     []string      // herd7's library folders (-set-libdir), see cat.ResolveModel
	Explain     bool          // fill Result.Explain (by the explicit engine, whichever engine answers)
	// Skip, Through, Show and NShow are the explicit engine's herd7
	// options -skipchecks, -through, -show and -nshow (see enum.Options).
	Skip    []string
	Through string
	Show    string
	NShow   int
	// SpeedCheck is herd7's -speedcheck for the explicit engine (see
	// enum.SpeedCheck).
	SpeedCheck enum.SpeedCheck

	// Engines replaces the engines by name ("enum", "smt"); nil entries
	// and absent names keep the built-in ones. Tests use it to provoke
	// what the real engines do not do (a disagreement, a test that runs
	// until it is stopped).
	Engines map[string]Engine
	// Started, when not nil, is called (from the worker's goroutine) when
	// a worker starts on a file, for progress displays.
	Started func(index int, path string)
	// Finished, when not nil, is called (from the worker's goroutine) as
	// soon as a file is done, before it is emitted in input order.
	Finished func(j Job)
}

// uniproc tells whether the explicit engine leaves out the candidates
// that are not coherent per location before the model sees them
// (enum.Options.Uniproc): mixed-size tests always (their chunks multiply
// the coherence orders), and every test under a built-in model that
// rejects them anyway (enum.CoherentModel), unless an option makes the
// rejected candidates visible or changes the model: -skipchecks,
// -through, -show, -nshow, a variant.
func uniproc(t *spec.Test, m *cat.Model, opts Options) bool {
	if t.Mixed {
		return true
	}
	if len(opts.Skip) > 0 || opts.Through != "" || opts.Show != "" || opts.NShow != 0 {
		return false
	}
	for _, on := range opts.Variants {
		if on {
			return false
		}
	}
	return enum.CoherentModel(m)
}

// Engine checks one parsed test under a model; tags are the names of
// the tags the test's architecture gives its events.
type Engine func(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, tags []string, opts Options) *result.Result

// builtinEngines are the engines of Options.Engine.
var builtinEngines = map[string]Engine{
	"enum": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		return enum.Run(ctx, t, m, name, enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: uniproc(t, m, opts), Explain: opts.Explain,
			Skip: skipSet(opts.Skip), Through: opts.Through, Show: opts.Show, NShow: opts.NShow, SpeedCheck: opts.SpeedCheck})
	},
	// "pruned" is the explicit engine with herd7's -speedcheck fast,
	// the portfolio's third engine (see runAuto): its answer has the
	// verdict and a witness, neither states nor counts.
	"pruned": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		o := enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: uniproc(t, m, opts)}
		pruned := o
		pruned.SpeedCheck = enum.SpeedFast
		r := enum.Run(ctx, t, m, name, pruned)
		r.CountsOmitted, r.StatesOmitted = true, true
		if opts.Explain {
			// The explanation needs every candidate.
			enum.ExplainInto(ctx, r, t, m, name, o)
		}
		return r
	},
	// "graph" is the engine on execution graphs (package graph), on
	// the built-in models it decides; loops are unrolled as the SMT
	// engine unrolls them, and the executions cut by the bound are
	// dropped (the result is then Bounded), as the explicit engine
	// drops its cut paths.
	"graph": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		if !graph.Decides(m, name) {
			return &result.Result{File: t.File, Name: t.Name, Model: name, Engine: "graph", Quant: t.Quant, Status: result.Unsupported,
				Err: fmt.Errorf("the graph engine decides the built-in %s; model %s is left to the other engines", graph.SupportedModels(), name)}
		}
		u, unrolled, err := compile.UnrollLoops(t, opts.Bound)
		if err != nil {
			return &result.Result{File: t.File, Name: t.Name, Model: name, Engine: "graph", Quant: t.Quant, Status: result.Failed, Err: err}
		}
		o := graph.Options{Variants: opts.Variants, TagNames: tags}
		if unrolled {
			o.CutReg, o.DropCut = compile.BoundReg, true
		}
		r, _ := graph.Run(ctx, u, m, name, o)
		// As the SMT engine does, the result is bounded when the
		// unrolling cut a path, whether or not a consistent execution
		// reaches the cut: herd7's "Loop" marks a run some candidate
		// of which the bound cut.
		r.Bounded = r.Bounded || unrolled && compile.HasCutLabel(u)
		if opts.Explain {
			enum.ExplainInto(ctx, r, t, m, name, enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: t.Mixed})
		}
		return r
	},
	"smt": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		// Lazy acyclicity on the architectures where it was measured
		// faster with the same answers on the corpus suites (X86 2.8×
		// and Power 2× less CPU time over the whole suites, AArch64 2×
		// and RISC-V 1.7× over a quarter of them); eager on C tests
		// (the Linux kernel's tests with locks are slower lazily).
		acyc := ""
		switch strings.ToUpper(t.Arch) {
		case "X86", "PPC", "AARCH64", "RISCV":
			acyc = "lazy"
		}
		r := bmc.Run(ctx, t, m, name, bmc.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, VerdictOnly: opts.VerdictOnly, Acyclicity: acyc})
		// The SMT engine finds final states, not every execution: its
		// Positive/Negative are not herd7's counts, and with VerdictOnly
		// it lists no states. The printers leave out what was not
		// computed.
		r.CountsOmitted = true
		r.StatesOmitted = opts.VerdictOnly
		if opts.Explain {
			enum.ExplainInto(ctx, r, t, m, name, enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: t.Mixed})
		}
		return r
	},
}

// skipSet is the Skip option of the explicit engine for the check names
// of -skipchecks; nil when there are none.
func skipSet(names []string) func(string) bool {
	if len(names) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return func(name string) bool { return set[name] }
}

// engine returns the engine called name.
func (o Options) engine(name string) Engine {
	if e := o.Engines[name]; e != nil {
		return e
	}
	return builtinEngines[name]
}

// models loads each model once and shares it between workers.
type models struct {
	mu    sync.Mutex
	cache map[string]*modelEntry
	opts  Options

	feOnce sync.Once
	fes    []litmus.Frontend
	feErr  error
}

type modelEntry struct {
	done chan struct{} // closed when m, name and err are set
	m    *cat.Model
	name string
	err  error
}

// get returns the model of tests of the architecture archWord, loaded
// by the first test that asks for it. The load of a large model does not
// look at a context (a 2.5 MB model of 10^5 definitions takes half a
// second of CPU, seconds on a loaded machine): each test waits for it
// under its own context, and one whose context ends first gets ctx.Err()
// while the load goes on for the tests after it.
func (ms *models) get(ctx context.Context, archWord string) (*cat.Model, string, error) {
	spec, err := ms.opts.models().SpecFor(archWord)
	if err != nil {
		return nil, "", err
	}
	if spec == ms.opts.Model && ms.opts.ModelLoaded != nil {
		return ms.opts.ModelLoaded, spec, nil
	}
	ms.mu.Lock()
	e, ok := ms.cache[spec]
	if !ok {
		e = &modelEntry{done: make(chan struct{})}
		ms.cache[spec] = e
		go func() {
			e.m, e.name, e.err = ms.opts.models().Load(spec)
			close(e.done)
		}()
	}
	ms.mu.Unlock()
	select {
	case <-e.done:
		return e.m, e.name, e.err
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
}

// frontends returns the front-ends that replace the registered ones for
// this run: the C front-end with the macros of opts.Macros.
func (ms *models) frontends() ([]litmus.Frontend, error) {
	ms.feOnce.Do(func() {
		ms.fes, ms.feErr = ms.opts.models().Frontends()
	})
	return ms.fes, ms.feErr
}

// models is what the options say about the model, for the driver.
func (o Options) models() driver.Models {
	return driver.Models{Model: o.Model, Bell: o.Bell, Macros: o.Macros, IncludeDirs: o.IncludeDirs, Variants: o.Variants, LibDirs: o.LibDirs}
}

// Job is the outcome of one file: a result, or an input error (bad file,
// bad model) when Result is nil.
type Job struct {
	Index  int
	Path   string
	Result *result.Result
	Err    error
	// Disagreement is set when Options.Engine is "both" and the engines
	// answered differently; Result is then the explicit engine's.
	Disagreement *Disagreement
	// Canceled says the run was stopped (its context canceled) before
	// this file was finished: Result is not a verdict.
	Canceled bool
}

// Run checks every file and calls emit once per file, in the order of
// files. When ctx is done it starts no more files; the files already
// started are emitted (those cut short with Canceled set), still in
// order, and the files never started are not emitted.
func Run(ctx context.Context, files []string, opts Options, emit func(Job)) {
	jobs := Workers(opts.Jobs, len(files))
	ms := &models{cache: map[string]*modelEntry{}, opts: opts}
	work := make(chan int)
	done := make(chan Job)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if opts.Started != nil {
					opts.Started(i, files[i])
				}
				j := runOne(ctx, i, files[i], ms, opts)
				j.Canceled = ctx.Err() != nil && j.Err == nil && j.Result != nil && j.Result.Status != result.Done
				if opts.Finished != nil {
					opts.Finished(j)
				}
				done <- j
			}
		}()
	}
	go func() {
		defer close(work)
		for i := range files {
			select {
			case work <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()
	pending := map[int]Job{}
	next := 0
	for j := range done {
		pending[j.Index] = j
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			emit(p)
			next++
		}
	}
	// Stopped early: files after a gap (one never started) are still
	// emitted, in order.
	rest := make([]int, 0, len(pending))
	for i := range pending {
		rest = append(rest, i)
	}
	sort.Ints(rest)
	for _, i := range rest {
		emit(pending[i])
	}
}

func runOne(ctx context.Context, i int, path string, ms *models, opts Options) Job {
	j := Job{Index: i, Path: path}
	fes, err := ms.frontends()
	if err != nil {
		j.Err = err
		return j
	}
	// The time limit covers the parse and hash as well as the engine: a
	// test of megabytes took seconds past -timeout to parse on a loaded
	// machine (robust5). The engine's own limit (within) then ends no
	// later than this one.
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	t, err := litmus.ParseFileContext(ctx, path, fes...)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// Stopped while parsing: no verdict (Canceled when the run
			// was stopped).
			name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			j.Result = &result.Result{File: path, Name: name, Status: result.Timeout, Limit: opts.Timeout}
			return j
		}
		if source.IsUnsupported(err) {
			// A valid test with a feature Musket does not handle: a
			// limit of the tool, reported by name, not bad input.
			name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			j.Result = &result.Result{File: path, Name: name, Status: result.Unsupported, Err: err}
			return j
		}
		j.Err = err
		return j
	}
	if err := opts.models().CheckDialect(t); err != nil {
		j.Err = err
		return j
	}
	if err := checkMachSize(t, opts.MachSize); err != nil {
		j.Err = err
		return j
	}
	m, name, err := ms.get(ctx, t.Arch)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// Stopped while the model loads: no verdict.
			j.Result = &result.Result{File: path, Name: t.Name, Quant: t.Quant, Status: result.Timeout, Limit: opts.Timeout}
			return j
		}
		j.Err = err
		return j
	}
	tags := driver.Tags(t.Arch, fes...)
	j.Result, j.Disagreement = RunTest(ctx, t, m, name, tags, opts)
	if j.Result == nil {
		j.Err = fmt.Errorf("unknown engine %q", opts.Engine)
	}
	return j
}

// RunTest checks one parsed test under a loaded model with the engine of
// opts (its time limit included), as Run does for each file: the result,
// and the engines' disagreement when opts.Engine is "both". It returns a
// nil result for an unknown engine. tags are the names of the tags of the
// test's architecture (driver.Tags).
func RunTest(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) (*result.Result, *Disagreement) {
	if opts.Engine == "both" {
		r, d := runBoth(ctx, t, m, name, tags, opts)
		if r != nil {
			r.Hash = t.Hash
		}
		return r, d
	}
	if opts.Engine == "auto" {
		r := within(ctx, opts.Timeout, t, func(c context.Context) *result.Result {
			return runAuto(c, t, m, name, tags, opts)
		})
		result.Unchunk(r, t)
		if r != nil {
			r.Hash = t.Hash
		}
		return r, nil
	}
	eng := opts.Engine
	if eng == "" {
		eng = "enum"
	}
	run := opts.engine(eng)
	if run == nil {
		return nil, nil
	}
	r := within(ctx, opts.Timeout, t, func(c context.Context) *result.Result {
		return run(c, t, m, name, tags, opts)
	})
	result.Unchunk(r, t)
	if r != nil {
		r.Hash = t.Hash
	}
	return r, nil
}

// MaxWorkers is the most workers a run starts, whatever -j asks: each
// worker holds a test's engine state, and more workers than a machine's
// cores many times over only share the same cores.
const MaxWorkers = 256

// Workers is the number of workers for n tests when jobs are asked (0:
// every core): never more than the tests, nor than MaxWorkers, at least 1.
func Workers(jobs, n int) int {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	return max(1, min(jobs, n, MaxWorkers))
}
