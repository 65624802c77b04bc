package cfront

import (
	"context"
	"errors"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Replay is musket fix's kill test on a C program: it runs the model on
// given executions of the program at path (enum.Replay), the program
// compiled and prepared as CheckProgram prepares it for the SMT or
// explicit engine (narrowed, its own stores forwarded, compiled for the
// target), and tells for each pin whether it is an execution of that
// program which the model allows and in which an assertion fails.
//
// An answer true is an execution the explicit engine rebuilt from this
// program and the model accepted, with a failed assertion: the program
// is wrong, as a check would say. An answer false says nothing (the
// pinned accesses may not be this program's: clang compiled it another
// way). The caller uses only the true answers to skip a check, so the
// kill test cannot make a wrong program look right.
//
// The explicit engine lists every path of each thread before it rebuilds
// a pin: past ReplayMaxPaths paths in one thread it refuses (an error),
// and the caller checks instead (msqueue-bug.c compiled for aarch64 took
// 888 MB and 7.9 s of CPU in 34 replays, where its two checks take 1 s).
//
// It refuses (an error) what its condition does not cover: the graph
// engine's witnesses (made on a test that is not narrowed), and programs
// whose checks also look for uses after free or reads of uninitialised
// heap memory (faults the SMT engine instruments and the replay does
// not).
// ReplayMaxPaths bounds the paths of one thread a replay lists.
const ReplayMaxPaths = 1024

func Replay(ctx context.Context, path string, opts CheckOptions, pins []enum.Pin) ([]bool, error) {
	if opts.Engine == "graph" {
		return nil, errors.New("replay: the graph engine's witnesses are not replayed")
	}
	p, err := Lower(ctx, path, Options{Bound: opts.Bound, NoSpin: opts.NoSpin, Clang: opts.CompileOptions(), Liveness: opts.Liveness})
	if err != nil {
		return nil, err
	}
	if p.raw != nil || p.heaps != nil {
		return nil, errors.New("replay: a program with heap faults to check")
	}
	t := p.narrow(ctx, p.Test, opts.Target != "")
	if coherentModel(opts.ModelName) {
		t = ownStores(ctx, t)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var tags []string
	if fe, err := litmus.Lookup("C"); err == nil {
		tags = fe.Tags()
	}
	if opts.Target != "" {
		ct, err := CompileFor(t, opts.Target)
		if err != nil {
			return nil, err
		}
		t = ct
		tags = compile.Tags(opts.Target)
		if fe, err := litmus.Lookup(t.Arch); err == nil {
			tags = append(tags, fe.Tags()...)
		}
	}
	// An assertion failed, other than one of Musket's limits (a check
	// that reaches one has no verdict: atLimit).
	var fails spec.Cond
	for i := 0; i < p.Threads; i++ {
		for n, a := range p.Asserts {
			if !a.Limit {
				fails = orCond(fails, spec.Atom{Ref: spec.Ref{Thread: i, Name: failReg}, Val: prog.IntValue(int64(n + 1))})
			}
		}
	}
	if fails == nil {
		return make([]bool, len(pins)), nil
	}
	q := *t
	q.Quant, q.Cond = spec.Exists, fails
	return enum.Replay(ctx, &q, opts.Model, opts.ModelName, enum.Options{TagNames: tags, Bound: opts.Bound, MaxPaths: ReplayMaxPaths}, pins)
}
