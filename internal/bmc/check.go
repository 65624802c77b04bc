package bmc

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/spec"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/pts"
	"github.com/musket-verify/musket/internal/result"
)

// ProgramOptions say how to check a program of the C11-like language of
// "BMC with Memory Models as Modules" (FMCAD 2018).
type ProgramOptions struct {
	Target     string // x86, power, armv7, aarch64, riscv
	Bound      int    // loop unrolling bound (default 2)
	Engine     string // "smt" (default) or "enum"
	NoAnalysis bool
	Variants   map[string]bool
	// FlagWitnesses asks for an execution raising each raised flag
	// (Result.FlagWitnesses): musket check -races.
	FlagWitnesses bool
	// Explain fills Result.Explain (by the explicit engine): why the
	// condition is reachable or not (musket check -explain).
	Explain bool
}

// ProgramResult is the verdict on a program.
type ProgramResult struct {
	Name      string
	Target    string
	Model     string
	Bound     int
	Condition string // the reachability question: "exists (...)"
	Reachable bool   // the condition (for forall: its negation) is reachable
	Result    *result.Result
	Report    *Report
}

// PrepareProgram parses a .pts program, unrolls its loops to the bound and
// compiles it for the target. The tags are those the target's events may
// carry.
func PrepareProgram(path, target string, bound int) (*spec.Test, []string, error) {
	src, err := pts.ParseFile(path)
	if err != nil {
		return nil, nil, err
	}
	u, err := compile.Unroll(src, bound)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	c, err := compile.Compile(u, target)
	if err != nil {
		return nil, nil, err
	}
	tags := append(compile.Tags(target), driver.Tags(c.Arch)...)
	sort.Strings(tags)
	return c, tags, nil
}

// CheckProgram answers whether the condition of a .pts program is
// reachable on the target under the model, within the bound. Paths cut by
// the bound are kept, stopped at the bound (as the explicit engine runs
// Unroll's output and as the unrolled benchmarks of the FMCAD 2018 paper do), and the
// result says it is bounded. The error is an input error (bad program,
// target or model); timeouts and unsupported models are in the result's
// status.
func CheckProgram(ctx context.Context, path string, m *cat.Model, modelName string, opts ProgramOptions) (*ProgramResult, error) {
	if opts.Bound <= 0 {
		opts.Bound = 2
	}
	prepStart := time.Now()
	t, tags, err := PrepareProgram(path, opts.Target, opts.Bound)
	if err != nil {
		return nil, err
	}
	prepare := time.Since(prepStart)
	pr := &ProgramResult{Name: t.Name, Target: opts.Target, Model: modelName, Bound: opts.Bound}
	// The reachability question: the condition, or for forall its
	// negation.
	q := *t
	if t.Quant == spec.Forall {
		q.Cond = spec.Not{C: t.Cond}
		q.Quant = spec.Exists
	}
	pr.Condition = "exists (" + spec.FormatCond(q.Cond) + ")"
	if opts.Engine == "enum" {
		start := time.Now()
		r := enum.Run(ctx, &q, m, modelName, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound, FlagWitnesses: opts.FlagWitnesses, Explain: opts.Explain})
		pr.Result = r
		pr.Report = &Report{Solve: time.Since(start)}
		// A failed run (a division by zero, ...) has no verdict.
		pr.Reachable = r.Positive > 0 && r.Status != result.Failed
		r.Bounded = r.Bounded || compile.HasCutLabel(&q)
		return pr, nil
	}
	// The encoding of a program is Booleans and linear integer arithmetic
	// (values, clocks): Z3's QF_LIA solver decides it several times faster
	// than its default portfolio (Szymanski under Power: solving 1.0-1.6 s
	// down to 0.2 s). A program the logic does not cover (a product of two
	// variables) makes that solver fail; it is then asked again with the
	// default one.
	// Lazy acyclicity (Z3's SMT solver then, not the QF_LIA one): the
	// mutex benchmarks' 21 cells take a quarter less CPU time.
	o := Options{Variants: opts.Variants, TagNames: tags, VerdictOnly: true, PositiveOnly: true, NoAnalysis: opts.NoAnalysis, Logic: "QF_LIA", FlagWitnesses: opts.FlagWitnesses, Acyclicity: "lazy"}
	r, rep := RunReport(ctx, &q, m, modelName, o)
	var dz *prog.DivisionByZeroError
	if (r.Status == result.Failed || r.Status == result.Unsupported) && !errors.As(r.Err, &dz) {
		o.Logic = ""
		r, rep = RunReport(ctx, &q, m, modelName, o)
	}
	rep.Prepare += prepare
	pr.Result, pr.Report = r, rep
	pr.Reachable = r.Positive > 0
	if opts.Explain {
		enum.ExplainInto(ctx, pr.Result, &q, m, modelName, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound})
	}
	return pr, nil
}

// LitmusOptions say how to check a litmus test with loops.
type LitmusOptions struct {
	Model       string // built-in name or .cat path; "" for the architecture's
	IncludeDirs []string
	Bell        string // a .bell file read before the model
	Bound       int    // times a backward branch may be taken on one path
	Engine      string // "smt" (default) or "enum"
	NoAnalysis  bool
	Variants    map[string]bool
	// FlagWitnesses and Explain: as in ProgramOptions.
	FlagWitnesses bool
	Explain       bool
}

// CheckLitmus is the bounded method of Maleehuan's JAIST 2018
// thesis (Chapter 3) on a litmus
// test whose threads may loop: each loop is unwound so that its backward
// branch is taken at most opts.Bound times on a path; paths that need more
// are dropped, and the result is then Bounded, so that "no violation
// within the bound" is never reported as a proof. The error is an input
// error (bad file or model).
func CheckLitmus(ctx context.Context, path string, opts LitmusOptions) (*ProgramResult, error) {
	if opts.Bound < 0 {
		return nil, fmt.Errorf("%s: negative bound %d", path, opts.Bound)
	}
	t, err := litmus.ParseFileContext(ctx, path)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// Stopped while parsing (a test of megabytes): no verdict.
			name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			return &ProgramResult{Name: name, Bound: opts.Bound, Result: &result.Result{File: path, Name: name, Status: result.Timeout}, Report: &Report{}}, nil
		}
		return nil, err
	}
	ms := driver.Models{Model: opts.Model, Bell: opts.Bell, IncludeDirs: opts.IncludeDirs}
	if err := ms.CheckDialect(t); err != nil {
		return nil, err
	}
	modelSpec, err := ms.SpecFor(t.Arch)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	m, _, err := ms.Load(modelSpec)
	if err != nil {
		return nil, err
	}
	tags := driver.Tags(t.Arch)
	pr := &ProgramResult{Name: t.Name, Target: t.Arch, Model: modelSpec, Bound: opts.Bound}
	q := *t
	if t.Quant == spec.Forall {
		q.Cond = spec.Not{C: t.Cond}
		q.Quant = spec.Exists
	}
	pr.Condition = "exists (" + spec.FormatCond(q.Cond) + ")"
	if opts.Engine == "enum" {
		if opts.Bound == 0 {
			for _, th := range q.Threads {
				if compile.HasBackwardJump(th) {
					return nil, fmt.Errorf("%s: the explicit engine reads bound 0 as its default; give -bound 1 or more, or use the SMT engine", path)
				}
			}
		}
		start := time.Now()
		r := enum.Run(ctx, &q, m, modelSpec, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound, FlagWitnesses: opts.FlagWitnesses, Explain: opts.Explain})
		pr.Result = r
		pr.Report = &Report{Solve: time.Since(start)}
		pr.Reachable = r.Positive > 0 && r.Status != result.Failed
		return pr, nil
	}
	o := Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound, VerdictOnly: true, PositiveOnly: true, NoAnalysis: opts.NoAnalysis, FlagWitnesses: opts.FlagWitnesses}
	asked := q
	for _, th := range q.Threads {
		if compile.HasBackwardJump(th) {
			// Unwind here so that bound 0 means bound 0 (Run reads 0
			// as its default bound).
			u, err := compile.Unroll(&q, opts.Bound+1)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			q = *u
			o.discardCut = true
			break
		}
	}
	r, rep := RunReport(ctx, &q, m, modelSpec, o)
	pr.Result, pr.Report = r, rep
	pr.Reachable = r.Positive > 0
	if opts.Explain && opts.Bound > 0 {
		enum.ExplainInto(ctx, pr.Result, &asked, m, modelSpec, enum.Options{Variants: opts.Variants, TagNames: tags, Bound: opts.Bound})
	}
	return pr, nil
}

// RunCut is RunReport on a test whose threads may jump to
// compile.CutLabel: the paths that reach it are not executions of the
// program (an assumption that failed) and are discarded, as Run does with
// the paths its unrolling cuts. musket prove builds such tests.
func RunCut(ctx context.Context, t *spec.Test, m *cat.Model, modelName string, opts Options) (*result.Result, *Report) {
	opts.discardCut = true
	return RunReport(ctx, t, m, modelName, opts)
}
