package prove

import (
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

// Invariant is a loop invariant of a litmus test: a comment line
//
//	(* invariant P1:L COND *)
//
// after the thread table and before the final condition, where P1 names a
// thread, L the label at the head of one of its loops (the target of its
// backward branches) and COND a condition over the registers of that
// thread and the values it last wrote, in the language of parseInv (e.g.
// "1:o1=0 \/ 1:o1=1", "0:o1>=0 /\ 0:o1<3", "[lock]=0 \/ [lock]=255").
// It must hold whenever the thread is at L: when the loop is entered and
// after every backward branch. Being a comment, it leaves the file a
// valid litmus test for herd7, musket litmus and musket check.
type Invariant struct {
	Thread int
	Label  string
	Text   string    // COND as written
	Expr   prog.Expr // COND over the thread's registers, 0 or 1
	Mem    []string  // the locations COND mentions as [x] (see shadow)
	Pos    prog.Pos
}

// SoundModels are the built-in models under which the method is sound:
// they never reorder a read with a later access (PSO and stronger).
var SoundModels = []string{"sc", "tso", "pso"}

// ParseFile reads a litmus test with invariant lines.
func ParseFile(path string) (*spec.Test, []Invariant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return Parse(path, src)
}

// Parse parses a litmus test with invariant comments (see Invariant).
func Parse(file string, src []byte) (*spec.Test, []Invariant, error) {
	t, err := litmus.Parse(file, src)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(string(src), "\n")
	var invs []Invariant
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if !strings.HasPrefix(trimmed, "(*") {
			continue
		}
		body := strings.TrimSpace(trimmed[2:])
		if !strings.HasPrefix(body, "invariant ") {
			continue
		}
		start := strings.Index(l, "invariant ")
		end := strings.LastIndex(l, "*)")
		if end < start {
			return nil, nil, fmt.Errorf("%s:%d:%d: an invariant comment must end on its line with '*)'", file, i+1, start+1)
		}
		rest := l[start+len("invariant ") : end]
		sp := strings.TrimLeft(rest, " \t")
		headCol := start + len("invariant ") + len(rest) - len(sp)
		pos := prog.Pos{File: file, Line: i + 1, Col: headCol + 1}
		f := strings.Fields(sp)
		if len(f) < 2 {
			return nil, nil, fmt.Errorf("%s: want '(* invariant P<n>:<label> <condition> *)'", pos)
		}
		head := f[0]
		colon := strings.IndexByte(head, ':')
		var th int
		if colon < 2 || head[0] != 'P' {
			return nil, nil, fmt.Errorf("%s: want P<n>:<label>, found %q", pos, head)
		}
		if _, err := fmt.Sscanf(head[1:colon], "%d", &th); err != nil || fmt.Sprint(th) != head[1:colon] {
			return nil, nil, fmt.Errorf("%s: bad thread %q", pos, head[:colon])
		}
		if th < 0 || th >= len(t.Threads) {
			return nil, nil, fmt.Errorf("%s: no thread P%d", pos, th)
		}
		label := head[colon+1:]
		condCol := headCol + len(head)
		text := l[condCol:end]
		e, mem, err := parseInv(text, condCol, th, threadRegs(t.Threads[th]), func(col int) prog.Pos {
			return prog.Pos{File: file, Line: i + 1, Col: col + 1}
		})
		if err != nil {
			return nil, nil, err
		}
		invs = append(invs, Invariant{Thread: th, Label: label, Text: strings.TrimSpace(text), Expr: e, Mem: mem, Pos: pos})
	}
	return t, invs, nil
}

// threadRegs are the registers a thread's code mentions.
func threadRegs(th *prog.Thread) map[string]bool {
	regs := map[string]bool{}
	for _, in := range th.Code {
		for _, r := range prog.Defs(in) {
			regs[r] = true
		}
		for _, r := range uses(in) {
			regs[r] = true
		}
	}
	return regs
}

func exprRegs(e prog.Expr, out []string) []string {
	switch e := e.(type) {
	case prog.Reg:
		return append(out, e.Name)
	case prog.Bin:
		return exprRegs(e.Y, exprRegs(e.X, out))
	case prog.Un:
		return exprRegs(e.X, out)
	}
	return out
}

// uses are the registers an instruction reads.
func uses(in prog.Instr) []string {
	switch in := in.(type) {
	case prog.Load:
		return exprRegs(in.Addr, nil)
	case prog.Store:
		return exprRegs(in.Val, exprRegs(in.Addr, nil))
	case prog.RMW:
		out := exprRegs(in.Addr, nil)
		if in.Cond != nil {
			out = exprRegs(in.Cond, out)
		}
		return exprRegs(in.New, out)
	case prog.StoreCond:
		return exprRegs(in.Val, exprRegs(in.Addr, nil))
	case prog.Assign:
		return exprRegs(in.Val, nil)
	case prog.Jump:
		if in.Cond != nil {
			return exprRegs(in.Cond, nil)
		}
	}
	return nil
}

// loop is an annotated loop of a thread: Code[head] is its label, end
// its last backward branch; regs are the registers its body assigns
// (arbitrary at the head of an abstracted iteration) and writes the
// locations its repeating iterations may write (empty: they write
// nothing, and the loop needs no arbitrary iterations).
type loop struct {
	inv       Invariant
	head, end int
	regs      []string
	writes    map[string]bool
}

// findLoop locates the loop an invariant annotates and checks that it is
// in the fragment the method handles: no nested loop, entered only
// through its head.
func findLoop(th *prog.Thread, inv Invariant) (loop, error) {
	labels, err := th.Labels()
	if err != nil {
		return loop{}, fmt.Errorf("%s: %v", inv.Pos, err)
	}
	h, ok := labels[inv.Label]
	if !ok {
		return loop{}, fmt.Errorf("%s: P%d has no label %s", inv.Pos, inv.Thread, inv.Label)
	}
	end := -1
	for j, in := range th.Code {
		if jp, ok := in.(prog.Jump); ok && jp.Target == inv.Label && j > h {
			end = j
		}
	}
	if end < 0 {
		return loop{}, fmt.Errorf("%s: %s is not the head of a loop of P%d (no backward branch to it)", inv.Pos, inv.Label, inv.Thread)
	}
	for j, in := range th.Code {
		jp, ok := in.(prog.Jump)
		if !ok {
			continue
		}
		t := labels[jp.Target]
		inside := j >= h && j <= end
		switch {
		case inside && t <= j && jp.Target != inv.Label:
			return loop{}, fmt.Errorf("%s: the loop at %s contains another loop (to %s): nested loops are not supported", inv.Pos, inv.Label, jp.Target)
		case !inside && t > h && t <= end:
			return loop{}, fmt.Errorf("%s: a branch enters the loop at %s through %s: only entry through its head is supported", inv.Pos, inv.Label, jp.Target)
		}
	}
	assigned := map[string]bool{}
	for i := h; i <= end; i++ {
		for _, r := range prog.Defs(th.Code[i]) {
			if r != "" {
				assigned[r] = true
			}
		}
	}
	return loop{inv: inv, head: h, end: end, regs: sortedRegs(assigned)}, nil
}

// ErrTimeout is wrapped by the error of a proof that the context's
// deadline stopped (a limit reached, not a verdict).
var ErrTimeout = errors.New("time limit reached")

// Options say how to prove a test.
type Options struct {
	Model       string // sc, tso or pso
	IncludeDirs []string
}

// Report is the answer of the invariant method.
type Report struct {
	Name    string
	Model   string
	Proved  bool
	Reason  string         // why not proved
	Witness *result.Result // the execution behind the reason, if any
	Queries int            // SMT queries asked
	// Arbitrary lists the loops that needed arbitrary earlier iterations
	// in the last query asked, with their number ("P0:L 2").
	Arbitrary []string
	Time      time.Duration
}

// Prove applies the inductive-invariant method (seed 004, Chapter 4) to a
// litmus test whose loops carry invariants; see the package comment for
// the method and its fragment. The test's condition is read as a
// property: "exists C" and "~exists C" claim that C is unreachable,
// "forall C" that C always holds. The error is an input error or a
// refusal (model, loop shape).
func Prove(ctx context.Context, path string, opts Options) (*Report, error) {
	start := time.Now()
	t, invs, err := ParseFile(path)
	if err != nil {
		return nil, err
	}
	if !Sound(opts.Model) {
		return nil, fmt.Errorf("musket prove: the invariant method is sound only for models that never reorder a read with a later access (PSO and stronger: %s); %q is not one of them (use musket check -bound K for a bounded answer)", strings.Join(SoundModels, ", "), opts.Model)
	}
	m, _, err := driver.Models{IncludeDirs: opts.IncludeDirs}.Load(opts.Model)
	if err != nil {
		return nil, err
	}
	tags := driver.Tags(t.Arch)
	// A thread whose invariants mention [x] keeps the value it last
	// wrote to x in a register.
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
		if inst.Threads[ti], err = shadow(t, ti, sortedRegs(mem[ti])); err != nil {
			return nil, err
		}
	}
	t = &inst
	loops := make([][]loop, len(t.Threads))
	seen := map[string]bool{}
	for _, inv := range invs {
		key := fmt.Sprintf("%d:%s", inv.Thread, inv.Label)
		if seen[key] {
			return nil, fmt.Errorf("%s: a second invariant for P%d:%s", inv.Pos, inv.Thread, inv.Label)
		}
		seen[key] = true
		l, err := findLoop(t.Threads[inv.Thread], inv)
		if err != nil {
			return nil, err
		}
		loops[inv.Thread] = append(loops[inv.Thread], l)
	}
	for ti, th := range t.Threads {
		labels, err := th.Labels()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		for j, in := range th.Code {
			jp, ok := in.(prog.Jump)
			if !ok || labels[jp.Target] > j {
				continue
			}
			if !seen[fmt.Sprintf("%d:%s", ti, jp.Target)] {
				return nil, fmt.Errorf("%s: the loop of P%d at %s has no invariant: add a line 'invariant P%d:%s COND' (or use musket check)", path, ti, jp.Target, ti, jp.Target)
			}
		}
	}
	// The locations the repeating iterations of each loop may write:
	// those of its writes on a path that takes a backward branch (all
	// locations when an address is not a known one).
	all := testLocs(t)
	for ti, th := range t.Threads {
		for k := range loops[ti] {
			l := &loops[ti][k]
			ws, err := repeatWrites(th, *l)
			if err != nil {
				return nil, err
			}
			l.writes = map[string]bool{}
			for j := range ws {
				var a prog.Expr
				switch in := th.Code[j].(type) {
				case prog.Store:
					a = in.Addr
				case prog.RMW:
					a = in.Addr
				case prog.StoreCond:
					a = in.Addr
				}
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
	rep := &Report{Name: t.Name, Model: opts.Model}
	run := func(q *spec.Test) *result.Result {
		if ctx.Err() != nil {
			return &result.Result{Status: result.Timeout}
		}
		rep.Queries++
		r, _ := bmc.RunCut(ctx, q, m, opts.Model, bmc.Options{TagNames: tags, VerdictOnly: true, PositiveOnly: true})
		return r
	}
	// variant abstracts every thread, assuming the invariants, with as
	// many arbitrary iterations as the reads of the abstraction need.
	// With ti >= 0 it checks loop check of thread ti, which stops after
	// the check, and the other threads may stop anywhere.
	variant := func(ti, check int, cond spec.Cond) *spec.Test {
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
				out[i] = abstract(th, loops[i], pl)
			}
			return out
		}
		base := build(nil)
		blocks := blockCounts(t, loops, base, cond)
		q.Threads = build(blocks)
		rep.Arbitrary = nil
		for i, ls := range loops {
			for k, l := range ls {
				if blocks[i][k] > 0 {
					rep.Arbitrary = append(rep.Arbitrary, fmt.Sprintf("P%d:%s %d", i, l.inv.Label, blocks[i][k]))
				}
			}
		}
		return &q
	}
	status := func(r *result.Result) error {
		switch r.Status {
		case result.Done:
			return nil
		case result.Timeout:
			return fmt.Errorf("%s: %w after %d SMT queries", path, ErrTimeout, rep.Queries)
		default:
			return fmt.Errorf("%s: %v", path, r.Err)
		}
	}
	// Each invariant: true on entry and preserved by an iteration that
	// repeats the loop.
	for ti := range t.Threads {
		for k, l := range loops[ti] {
			checks := []struct{ reg, why string }{
				{regInit, "does not hold when the loop is entered"},
				{regStep, "is not inductive: an iteration that starts where it holds can repeat the loop where it fails"},
			}
			for _, c := range checks {
				q := variant(ti, k, spec.Atom{Ref: spec.Ref{Thread: ti, Name: c.reg}, Val: prog.IntValue(1)})
				r := run(q)
				if err := status(r); err != nil {
					return nil, err
				}
				if r.Positive > 0 {
					rep.Reason = fmt.Sprintf("the invariant of P%d:%s (%s) %s", ti, l.inv.Label, l.inv.Text, c.why)
					rep.Witness = r
					rep.Time = time.Since(start)
					return rep, nil
				}
			}
		}
	}
	// The property, with every loop abstracted.
	cond := t.Cond
	if t.Quant == spec.Forall {
		cond = spec.Not{C: t.Cond}
	}
	if t.Filter != nil {
		cond = spec.And{L: t.Filter, R: cond}
	}
	q := variant(-1, -1, cond)
	r := run(q)
	if err := status(r); err != nil {
		return nil, err
	}
	rep.Time = time.Since(start)
	if r.Positive > 0 {
		rep.Reason = "possible violation: exists (" + spec.FormatCond(q.Cond) + ") is reachable in the abstraction"
		rep.Witness = r
		return rep, nil
	}
	rep.Proved = true
	return rep, nil
}
