package prove

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// Prove applies the inductive-invariant method (Maleehuan's JAIST 2018
// thesis, Chapter 4) to a litmus test whose loops carry invariants; see
// the package comment for the method and its fragment. The test's
// condition is read as a property: "exists C" and "~exists C" claim that
// C is unreachable, "forall C" that C always holds. The error is an
// input error or a refusal (model, loop shape).
func Prove(ctx context.Context, path string, opts Options) (*Report, error) {
	start := time.Now()
	t, invs, err := parseFile(ctx, path)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			// Stopped while parsing (a test of megabytes).
			return nil, fmt.Errorf("%s: %w while reading the test", path, ErrTimeout)
		}
		return nil, err
	}
	if !Sound(opts.Model) {
		return nil, fmt.Errorf("musket prove: the invariant method is sound only for models that never reorder a read with a later access (PSO and stronger: %s); %q is not one of them (use musket check -bound K for a bounded answer)", strings.Join(SoundModels, ", "), opts.Model)
	}
	m, _, err := driver.Models{IncludeDirs: opts.IncludeDirs}.Load(opts.Model)
	if err != nil {
		return nil, err
	}
	pr := &prover{ctx: ctx, path: path, opts: opts, model: m, start: start}
	pr.tags = driver.Tags(t.Arch)
	if pr.t, err = shadowMemory(t, invs); err != nil {
		return nil, err
	}
	if err := pr.findLoops(invs); err != nil {
		return nil, err
	}
	if err := pr.loopWrites(); err != nil {
		return nil, err
	}
	pr.rep = &Report{Name: pr.t.Name, Model: opts.Model}
	done, err := pr.checkInvariants()
	if err != nil {
		return nil, err
	}
	if done {
		return pr.rep, nil
	}
	return pr.checkProperty()
}

// prover is one run of the method on a test.
type prover struct {
	ctx   context.Context
	path  string
	opts  Options
	model *cat.Model
	tags  []string
	start time.Time

	t     *spec.Test // the test, its threads keeping [x] in registers
	loops [][]loop   // per thread, its loops with their invariants
	rep   *Report
}

// shadowMemory is t where a thread whose invariants mention [x] keeps
// the value it last wrote to x in a register.
func shadowMemory(t *spec.Test, invs []Invariant) (*spec.Test, error) {
	mem := make([]map[string]bool, len(t.Threads))
	for _, inv := range invs {
		if mem[inv.Thread] == nil {
			mem[inv.Thread] = map[string]bool{}
		}
		for _, l := range inv.Mem {
			mem[inv.Thread][l] = true
		}
	}
	inst := *t
	inst.Threads = make([]*prog.Thread, len(t.Threads))
	for ti := range t.Threads {
		var err error
		if inst.Threads[ti], err = shadow(t, ti, sortedRegs(mem[ti])); err != nil {
			return nil, err
		}
	}
	return &inst, nil
}

// findLoops finds the loop of every invariant, and refuses a second
// invariant for a loop and a loop without one.
func (pr *prover) findLoops(invs []Invariant) error {
	t := pr.t
	pr.loops = make([][]loop, len(t.Threads))
	seen := map[string]bool{}
	for _, inv := range invs {
		key := fmt.Sprintf("%d:%s", inv.Thread, inv.Label)
		if seen[key] {
			return source.Errorf(inv.Pos, "a second invariant for P%d:%s", inv.Thread, inv.Label)
		}
		seen[key] = true
		l, err := findLoop(t.Threads[inv.Thread], inv)
		if err != nil {
			return err
		}
		pr.loops[inv.Thread] = append(pr.loops[inv.Thread], l)
	}
	for ti, th := range t.Threads {
		labels, err := th.Labels()
		if err != nil {
			return fmt.Errorf("%s: %v", pr.path, err)
		}
		for j, in := range th.Code {
			jp, ok := in.(prog.Jump)
			if !ok || labels[jp.Target] > j {
				continue
			}
			if !seen[fmt.Sprintf("%d:%s", ti, jp.Target)] {
				return fmt.Errorf("%s: the loop of P%d at %s has no invariant: add a line 'invariant P%d:%s COND' (or use musket check)", pr.path, ti, jp.Target, ti, jp.Target)
			}
		}
	}
	return nil
}

// loopWrites finds the locations the repeating iterations of each loop
// may write: those of its writes on a path that takes a backward branch
// (all locations when an address is not a known one).
func (pr *prover) loopWrites() error {
	t := pr.t
	all := testLocs(t)
	for ti, th := range t.Threads {
		for k := range pr.loops[ti] {
			l := &pr.loops[ti][k]
			ws, err := repeatWrites(th, *l)
			if err != nil {
				return err
			}
			l.writes = map[string]bool{}
			for j := range ws {
				a, _ := prog.WriteAddr(th.Code[j])
				if loc, ok := addrOf(t, th, ti, a); ok {
					l.writes[loc] = true
				} else {
					for loc := range all {
						l.writes[loc] = true
					}
				}
			}
		}
	}
	return nil
}

// run asks the SMT engine whether q's condition is reachable.
func (pr *prover) run(q *spec.Test) *result.Result {
	if pr.ctx.Err() != nil {
		return &result.Result{Status: result.Timeout}
	}
	pr.rep.Queries++
	r, _ := bmc.RunCut(pr.ctx, q, pr.model, pr.opts.Model, bmc.Options{TagNames: pr.tags, VerdictOnly: true, PositiveOnly: true})
	return r
}

// status is the error of a query that gave no answer.
func (pr *prover) status(r *result.Result) error {
	switch r.Status {
	case result.Done:
		return nil
	case result.Timeout:
		return fmt.Errorf("%s: %w after %d SMT queries", pr.path, ErrTimeout, pr.rep.Queries)
	default:
		if r.Err == nil {
			return fmt.Errorf("%s: %v", pr.path, r.Status)
		}
		// Wrapped: Z3 out of memory must stay a memory limit (exit 3).
		return fmt.Errorf("%s: %w", pr.path, r.Err)
	}
}

// variant abstracts every thread, assuming the invariants, with as many
// arbitrary iterations as the reads of the abstraction need. With ti >=
// 0 it checks loop check of thread ti, which stops after the check, and
// the other threads may stop anywhere.
func (pr *prover) variant(ti, check int, cond spec.Cond) *spec.Test {
	t := pr.t
	q := *t
	q.Filter = nil
	q.Locations = nil
	q.Quant = spec.Exists
	q.Cond = cond
	build := func(blocks [][]int) []*prog.Thread {
		out := make([]*prog.Thread, len(t.Threads))
		for i, th := range t.Threads {
			pl := plan{assume: true, check: -1}
			switch {
			case i == ti:
				pl.check = check
			case ti >= 0:
				pl.halt = true
			}
			if blocks != nil {
				pl.blocks = blocks[i]
			}
			out[i] = abstract(th, pr.loops[i], pl)
		}
		return out
	}
	base := build(nil)
	blocks := blockCounts(t, pr.loops, base, cond)
	q.Threads = build(blocks)
	pr.rep.Arbitrary = nil
	for i, ls := range pr.loops {
		for k, l := range ls {
			if blocks[i][k] > 0 {
				pr.rep.Arbitrary = append(pr.rep.Arbitrary, fmt.Sprintf("P%d:%s %d", i, l.inv.Label, blocks[i][k]))
			}
		}
	}
	return &q
}

// checkInvariants checks that each invariant is true on entry and
// preserved by an iteration that repeats the loop; done when one is not
// (the report says which and why).
func (pr *prover) checkInvariants() (done bool, err error) {
	for ti := range pr.t.Threads {
		for k, l := range pr.loops[ti] {
			checks := []struct{ reg, why string }{
				{regInit, "does not hold when the loop is entered"},
				{regStep, "is not inductive: an iteration that starts where it holds can repeat the loop where it fails"},
			}
			for _, c := range checks {
				q := pr.variant(ti, k, spec.Atom{Ref: spec.Ref{Thread: ti, Name: c.reg}, Val: prog.IntValue(1)})
				r := pr.run(q)
				if err := pr.status(r); err != nil {
					return true, err
				}
				if r.Positive > 0 {
					pr.rep.Reason = fmt.Sprintf("the invariant of P%d:%s (%s) %s", ti, l.inv.Label, l.inv.Text, c.why)
					pr.rep.Witness = r
					pr.rep.Time = time.Since(pr.start)
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// checkProperty checks the test's property with every loop abstracted.
func (pr *prover) checkProperty() (*Report, error) {
	t, rep := pr.t, pr.rep
	cond := t.Cond
	if t.Quant == spec.Forall {
		cond = spec.Not{C: t.Cond}
	}
	if t.Filter != nil {
		cond = spec.And{L: t.Filter, R: cond}
	}
	q := pr.variant(-1, -1, cond)
	r := pr.run(q)
	if err := pr.status(r); err != nil {
		return nil, err
	}
	rep.Time = time.Since(pr.start)
	if r.Positive > 0 {
		rep.Reason = "possible violation: exists (" + spec.FormatCond(q.Cond) + ") is reachable in the abstraction"
		rep.Witness = r
		return rep, nil
	}
	rep.Proved = true
	return rep, nil
}
