// Package batch runs many litmus tests under a model with a pool of
// workers: it expands folders into test files, picks and loads the model
// each test needs (once per model), applies the per-test time limit, runs
// one engine or both and compares them (both.go), and hands results back
// in input order, each as soon as it and every file before it are done.
package batch

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// Options configure a batch run.
type Options struct {
	Model       string // built-in name or .cat path; "" picks the architecture's default
	IncludeDirs []string
	Variants    map[string]bool
	Jobs        int           // workers; 0 means every core
	Timeout     time.Duration // per test; 0 means none
	Bound       int           // loop unrolling bound
	Engine      string        // "enum" (default), "smt", "both" (each test under both, compared) or "auto" (the first answer of the two; see AutoDelay)
	VerdictOnly bool          // smt: the verdict without listing every final state
	Bell        string        // a .bell file read before the model (herd7's -bell)
	Macros      string        // a .def file of C macros (herd7's -macros)
	LibDirs     []string      // herd7's library folders (-set-libdir), see cat.ResolveModel
	Explain     bool          // fill Result.Explain (by the explicit engine, whichever engine answers)
	// Skip, Through, Show and NShow are the explicit engine's herd7
	// options -skipchecks, -through, -show and -nshow (see enum.Options).
	Skip    []string
	Through string
	Show    string
	NShow   int

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

// Engine checks one parsed test under a model; tags are the names of
// the tags the test's architecture gives its events.
type Engine func(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, tags []string, opts Options) *result.Result

// builtinEngines are the engines of Options.Engine.
var builtinEngines = map[string]Engine{
	"enum": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		return enum.Run(ctx, t, m, name, enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: t.Mixed, Explain: opts.Explain,
			Skip: skipSet(opts.Skip), Through: opts.Through, Show: opts.Show, NShow: opts.NShow})
	},
	"smt": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		r := bmc.Run(ctx, t, m, name, bmc.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, VerdictOnly: opts.VerdictOnly})
		// The SMT engine finds final states, not every execution: its
		// Positive/Negative are not herd7's counts, and with VerdictOnly
		// it lists no states. The printers leave out what was not
		// computed.
		r.CountsOmitted = true
		r.StatesOmitted = opts.VerdictOnly
		if opts.Explain && r.Status == result.Done {
			// Explanations come from the explicit engine, which sees
			// every candidate execution.
			e := enum.Run(ctx, t, m, name, enum.Options{Variants: opts.Variants, Bound: opts.Bound, TagNames: tags, Uniproc: t.Mixed, Explain: true})
			if e.Status == result.Done {
				r.Explain = e.Explain
				if r.Witness == nil || r.Explain != nil && !r.Explain.Forbidden {
					r.Witness = e.Witness
				}
			}
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

// Files expands the arguments: a folder stands for every .litmus file below
// it, in lexical order; "@LIST" stands for the files LIST names, one a
// line, relative to LIST's folder (herd7's index files, e.g. "@all"; blank
// lines and lines starting with '#' are skipped, and a line may itself be
// a folder or an @list).
func Files(args []string) ([]string, error) {
	return files(args, map[string]bool{})
}

func files(args []string, lists map[string]bool) ([]string, error) {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "@") {
			found, err := listFile(a[1:], lists)
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".litmus") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// listFile reads the index file path: the files it names, in order.
func listFile(path string, lists map[string]bool) ([]string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if lists[abs] {
		return nil, fmt.Errorf("%s: the list includes itself", path)
	}
	lists[abs] = true
	defer delete(lists, abs)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := ""
		if strings.HasPrefix(line, "@") {
			at, line = "@", line[1:]
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		found, err := files([]string{at + line}, lists)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out = append(out, found...)
	}
	return out, nil
}

// DefaultModel is the built-in model for each litmus architecture.
var DefaultModel = map[string]string{
	"X86":     "tso",
	"PPC":     "power",
	"ARM":     "armv7",
	"AARCH64": "aarch64",
	"RISCV":   "riscv",
	"C":       "c11",
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
	once sync.Once
	m    *cat.Model
	name string
	err  error
}

func (ms *models) get(arch string) (*cat.Model, string, error) {
	spec := ms.opts.Model
	if spec == "" {
		spec = DefaultModel[strings.ToUpper(arch)]
		if spec == "" {
			return nil, "", fmt.Errorf("no default model for architecture %s: give one with -model", arch)
		}
	}
	ms.mu.Lock()
	e, ok := ms.cache[spec]
	if !ok {
		e = &modelEntry{}
		ms.cache[spec] = e
	}
	ms.mu.Unlock()
	e.once.Do(func() {
		e.m, e.name, e.err = LoadModelWith(spec, cat.LoadOptions{IncludeDirs: ms.opts.IncludeDirs, Bell: ms.opts.Bell, LibDirs: ms.opts.LibDirs})
	})
	return e.m, e.name, e.err
}

// frontends returns the front-ends that replace the registered ones for
// this run: the C front-end with the macros of opts.Macros.
func (ms *models) frontends() ([]litmus.Frontend, error) {
	ms.feOnce.Do(func() {
		if ms.opts.Macros == "" {
			return
		}
		m, err := litmus.ReadMacros(ms.opts.Macros)
		if err != nil {
			ms.feErr = err
			return
		}
		ms.fes = []litmus.Frontend{litmus.NewCFrontend(m)}
	})
	return ms.fes, ms.feErr
}

// LoadModel loads a model given by built-in name or by file path.
func LoadModel(spec string, includeDirs []string) (*cat.Model, string, error) {
	return LoadModelWith(spec, cat.LoadOptions{IncludeDirs: includeDirs})
}

// LoadModelWith loads a model given by built-in name or by file path, with
// load options (include folders, a bell file).
func LoadModelWith(spec string, opts cat.LoadOptions) (*cat.Model, string, error) {
	r, err := cat.ResolveModel(spec, opts.LibDirs)
	if err != nil {
		return nil, spec, err
	}
	m, err := cat.LoadResolved(r, opts)
	return m, spec, err
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
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
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
	t, err := litmus.ParseFileWith(path, fes...)
	if err != nil {
		j.Err = err
		return j
	}
	m, name, err := ms.get(t.Arch)
	if err != nil {
		j.Err = err
		return j
	}
	fe, _ := litmus.Lookup(t.Arch)
	for _, o := range fes {
		if strings.EqualFold(o.Arch(), t.Arch) {
			fe = o
		}
	}
	var tags []string
	if fe != nil {
		tags = fe.Tags()
	}
	if opts.Engine == "both" {
		j.Result, j.Disagreement = runBoth(ctx, t, m, name, tags, opts)
		return j
	}
	if opts.Engine == "auto" {
		tctx := ctx
		if opts.Timeout > 0 {
			var cancel context.CancelFunc
			tctx, cancel = context.WithTimeout(ctx, opts.Timeout)
			defer cancel()
		}
		j.Result = runAuto(tctx, t, m, name, tags, opts)
		result.Unchunk(j.Result, t)
		return j
	}
	eng := opts.Engine
	if eng == "" {
		eng = "enum"
	}
	if opts.engine(eng) == nil {
		j.Err = fmt.Errorf("unknown engine %q", eng)
		return j
	}
	tctx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	j.Result = opts.engine(eng)(tctx, t, m, name, tags, opts)
	result.Unchunk(j.Result, t)
	return j
}
