package fix

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// Verdict is the re-check of a repaired program by the ordinary checker
// (musket check's path: the file written out and read back), with the
// engine that was not the loop's.
type Verdict struct {
	Engine    string
	Reachable bool
	// Skipped says why the second engine gave no verdict ("" when it
	// did): the model uses what the SMT engine cannot encode, ...
	Skipped string
}

// Verify writes the input patched with fix to a temporary file and checks
// it as musket check would: a repair is printed only if this check finds
// the condition unreachable too. A litmus test is checked with the engine
// the loop did not use (the SMT engine for a test without loops, the
// explicit one for a test with loops); a .pts program with the SMT engine
// again, from the file.
func Verify(ctx context.Context, s Subject, fix []int, opts Options) (*Verdict, error) {
	dir, err := os.MkdirTemp("", "musket-fix-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var pr *bmc.ProgramResult
	engine := "smt"
	switch s := s.(type) {
	case *litmusSubject:
		path := filepath.Join(dir, filepath.Base(s.text.File))
		if err := os.WriteFile(path, s.apply(fix).src, 0o644); err != nil {
			return nil, err
		}
		engine = "smt"
		if loopy(s.t) {
			engine = "enum"
		}
		pr, err = bmc.CheckLitmus(ctx, path, bmc.LitmusOptions{Model: opts.Model, IncludeDirs: opts.IncludeDirs, Bound: opts.Bound, Engine: engine})
	case *ptsSubject:
		path := filepath.Join(dir, filepath.Base(s.text.File))
		if err := os.WriteFile(path, s.apply(fix).src, 0o644); err != nil {
			return nil, err
		}
		pr, err = bmc.CheckProgram(ctx, path, s.m, s.mname, bmc.ProgramOptions{Target: s.target, Bound: opts.Bound, Engine: engine})
	case *cSubject:
		path := filepath.Join(dir, filepath.Base(s.text.File))
		if err := os.WriteFile(path, s.apply(fix).src, 0o644); err != nil {
			return nil, err
		}
		r, err := cfront.Check(ctx, path, s.copts)
		if err != nil {
			return nil, err
		}
		engine = s.copts.Engine
		if engine == "" {
			engine = "smt"
		}
		v := &Verdict{Engine: engine, Reachable: r.Verdict == cfront.Violation || r.Verdict == cfront.Race}
		if r.Verdict == cfront.Unknown {
			v.Skipped = fmt.Sprintf("%v", r.Result.Status)
		}
		return v, nil
	default:
		return nil, fmt.Errorf("no verifier for %T", s)
	}
	if err != nil {
		return nil, err
	}
	v := &Verdict{Engine: engine, Reachable: pr.Reachable}
	if pr.Result.Status != result.Done {
		v.Skipped = fmt.Sprintf("%v", pr.Result.Status)
		if pr.Result.Err != nil {
			v.Skipped += ": " + pr.Result.Err.Error()
		}
	}
	return v, nil
}
