package prove

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/compile"
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
// backward branches) and COND a litmus condition over the registers of
// that thread (e.g. "1:o1=0 \/ 1:o1=1"). Being a comment, it leaves the
// file a valid litmus test for herd7, musket litmus and musket check.
type Invariant struct {
	Thread int
	Label  string
	Cond   litmus.Cond
	Pos    prog.Pos
}

// SoundModels are the built-in models under which the method is sound:
// they never reorder a read with a later access (PSO and stronger).
var SoundModels = []string{"sc", "tso", "pso"}

// ParseFile reads a litmus test with invariant lines.
func ParseFile(path string) (*litmus.Test, []Invariant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return Parse(path, src)
}

// Parse parses a litmus test with invariant comments (see Invariant).
func Parse(file string, src []byte) (*litmus.Test, []Invariant, error) {
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
		// Parse the condition with the litmus parser, at its own line
		// and column, so that its errors point into the file.
		cl := append([]string{}, lines[:i]...)
		cl = append(cl, "exists"+strings.Repeat(" ", condCol-len("exists"))+l[condCol:end])
		ct, err := litmus.Parse(file, []byte(strings.Join(cl, "\n")))
		if err != nil {
			return nil, nil, err
		}
		inv := Invariant{Thread: th, Label: label, Cond: ct.Cond, Pos: pos}
		if err := checkRegs(inv, t.Threads[th]); err != nil {
			return nil, nil, err
		}
		invs = append(invs, inv)
	}
	return t, invs, nil
}

// checkRegs makes sure an invariant mentions only registers of its thread.
func checkRegs(inv Invariant, th *prog.Thread) error {
	regs := map[string]bool{}
	for _, in := range th.Code {
		for _, r := range defs(in) {
			regs[r] = true
		}
		for _, r := range uses(in) {
			regs[r] = true
		}
	}
	var bad error
	var walk func(c litmus.Cond)
	ref := func(r litmus.Ref) {
		switch {
		case bad != nil:
		case r.Thread != inv.Thread:
			bad = fmt.Errorf("%s: the invariant of P%d may only mention registers of P%d, found %s", inv.Pos, inv.Thread, inv.Thread, r)
		case !regs[r.Name]:
			bad = fmt.Errorf("%s: P%d has no register %s", inv.Pos, inv.Thread, r.Name)
		}
	}
	walk = func(c litmus.Cond) {
		switch c := c.(type) {
		case litmus.And:
			walk(c.L)
			walk(c.R)
		case litmus.Or:
			walk(c.L)
			walk(c.R)
		case litmus.Not:
			walk(c.C)
		case litmus.Atom:
			ref(c.Ref)
		case litmus.RefEq:
			ref(c.L)
			ref(c.R)
		case litmus.Bool:
		default:
			if bad == nil {
				bad = fmt.Errorf("%s: unsupported invariant condition %s", inv.Pos, litmus.FormatCond(c))
			}
		}
	}
	walk(inv.Cond)
	return bad
}

// expr translates an invariant into an expression over registers.
func expr(c litmus.Cond) prog.Expr {
	switch c := c.(type) {
	case litmus.And:
		return prog.Bin{Op: prog.OpLAnd, X: expr(c.L), Y: expr(c.R)}
	case litmus.Or:
		return prog.Bin{Op: prog.OpLOr, X: expr(c.L), Y: expr(c.R)}
	case litmus.Not:
		return prog.Un{Op: prog.OpNot, X: expr(c.C)}
	case litmus.Atom:
		op := prog.OpEq
		if c.Neq {
			op = prog.OpNe
		}
		return prog.Bin{Op: op, X: prog.Reg{Name: c.Ref.Name}, Y: prog.Const{V: c.Val}}
	case litmus.RefEq:
		op := prog.OpEq
		if c.Neq {
			op = prog.OpNe
		}
		return prog.Bin{Op: op, X: prog.Reg{Name: c.L.Name}, Y: prog.Reg{Name: c.R.Name}}
	case litmus.Bool:
		if c.V {
			return prog.Int(1)
		}
		return prog.Int(0)
	}
	return prog.Int(0)
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

// defs are the registers an instruction writes.
func defs(in prog.Instr) []string {
	switch in := in.(type) {
	case prog.Load:
		return []string{in.Dst}
	case prog.RMW:
		return []string{in.Dst}
	case prog.StoreCond:
		return []string{in.Status}
	case prog.Assign:
		return []string{in.Dst}
	}
	return nil
}

// loop is an annotated loop of a thread: Code[Head] is its label, End
// its last backward branch.
type loop struct {
	inv       Invariant
	head, end int
}

// findLoop locates the loop an invariant annotates and checks that it is
// in the fragment the method handles.
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
	// Registers the body writes must not be read before the body writes
	// them: nothing may flow from one iteration to the next except
	// through memory (arbitrary register values are not supported).
	assigned := map[string]bool{}
	for i := h; i <= end; i++ {
		for _, r := range defs(th.Code[i]) {
			assigned[r] = true
		}
	}
	var in []map[string]bool // must-defined registers at each index of the body
	in = make([]map[string]bool, end-h+2)
	in[0] = map[string]bool{}
	meet := func(k int, s map[string]bool) {
		if k < 0 || k >= len(in) {
			return
		}
		if in[k] == nil {
			in[k] = map[string]bool{}
			for r := range s {
				in[k][r] = true
			}
			return
		}
		for r := range in[k] {
			if !s[r] {
				delete(in[k], r)
			}
		}
	}
	for i := h; i <= end; i++ {
		cur := in[i-h]
		if cur == nil {
			continue // unreachable inside the body
		}
		ins := th.Code[i]
		for _, r := range uses(ins) {
			if assigned[r] && !cur[r] {
				return loop{}, fmt.Errorf("%s: register %s is carried from one iteration of the loop at %s to the next: not supported (only memory may carry values between iterations)", inv.Pos, r, inv.Label)
			}
		}
		out := map[string]bool{}
		for r := range cur {
			out[r] = true
		}
		for _, r := range defs(ins) {
			out[r] = true
		}
		if jp, ok := ins.(prog.Jump); ok {
			if t := labels[jp.Target]; t > i && t <= end {
				meet(t-h, out)
			}
			if jp.Cond == nil {
				continue
			}
		}
		meet(i+1-h, out)
	}
	return loop{inv: inv, head: h, end: end}, nil
}

// Names of the registers and labels the transformation adds: '%' keeps
// them apart from every front-end's names.
const (
	regInit  = "%prove_init"
	regStep  = "%prove_step"
	lblBack  = "%prove_back"
	lblAfter = "%prove_after"
	lblEnd   = "%prove_end"
	suffix   = "%last"
)

// abstract rewrites a thread: each loop keeps one iteration, its last (a
// backward branch starts a path that is not an execution), which the
// earlier iterations cannot influence: they write nothing and pass no
// register on. With assume set, the invariant is assumed at the head of
// each loop.
//
// With check the index of one of the loops, that loop is entered twice:
// a first iteration records in regInit whether the invariant fails on
// entry and in regStep whether it fails at a backward branch, after
// which a second copy of the body runs as the last iteration and the
// thread goes on; if the first iteration leaves the loop, the thread
// goes on from there. So the iteration ending at a backward branch is
// checked in every context the rest of the program gives it.
func abstract(th *prog.Thread, loops []loop, check int, assume bool) *prog.Thread {
	heads := map[int]int{}
	for k, l := range loops {
		heads[l.head] = k
	}
	bodyOf := func(i int) int {
		for k, l := range loops {
			if i >= l.head && i <= l.end {
				return k
			}
		}
		return -1
	}
	out := &prog.Thread{ID: th.ID, Name: th.Name}
	emit := func(ins ...prog.Instr) { out.Code = append(out.Code, ins...) }
	notInv := func(k int) prog.Expr { return prog.Un{Op: prog.OpNot, X: expr(loops[k].inv.Cond)} }
	if check >= 0 {
		emit(prog.Assign{Dst: regInit, Val: prog.Int(0)}, prog.Assign{Dst: regStep, Val: prog.Int(0)})
	}
	for i := 0; i < len(th.Code); i++ {
		ins := th.Code[i]
		k := bodyOf(i)
		if k < 0 {
			emit(ins)
			continue
		}
		l := loops[k]
		if i == l.head && k == check {
			emit(prog.Assign{Dst: regInit, Val: prog.Bin{Op: prog.OpLOr, X: prog.Reg{Name: regInit}, Y: notInv(k)}})
			emit(ins)
			for j := l.head + 1; j <= l.end; j++ {
				in := th.Code[j]
				if jp, ok := in.(prog.Jump); ok && jp.Target == l.inv.Label {
					in = prog.Jump{Cond: jp.Cond, Target: lblBack}
				}
				emit(in)
			}
			emit(prog.Jump{Target: lblAfter})
			emit(prog.Label{Name: lblBack})
			emit(prog.Assign{Dst: regStep, Val: notInv(k)})
			// The last iteration: a copy of the body, its labels renamed.
			local := map[string]bool{}
			for j := l.head; j <= l.end; j++ {
				if lb, ok := th.Code[j].(prog.Label); ok {
					local[lb.Name] = true
				}
			}
			for j := l.head; j <= l.end; j++ {
				switch in := th.Code[j].(type) {
				case prog.Label:
					emit(prog.Label{Name: in.Name + suffix})
				case prog.Jump:
					switch {
					case in.Target == l.inv.Label:
						emit(prog.Jump{Cond: in.Cond, Target: compile.CutLabel})
					case local[in.Target]:
						emit(prog.Jump{Cond: in.Cond, Target: in.Target + suffix})
					default:
						emit(in)
					}
				default:
					emit(in)
				}
			}
			emit(prog.Label{Name: lblAfter})
			i = l.end
			continue
		}
		if i == l.head {
			emit(ins)
			if assume {
				emit(prog.Jump{Cond: notInv(k), Target: compile.CutLabel})
			}
			continue
		}
		if jp, ok := ins.(prog.Jump); ok && jp.Target == l.inv.Label {
			emit(prog.Jump{Cond: jp.Cond, Target: compile.CutLabel})
			continue
		}
		emit(ins)
	}
	if needsCut(out) {
		emit(prog.Jump{Target: lblEnd})
		emit(prog.Label{Name: compile.CutLabel})
		emit(prog.Label{Name: lblEnd})
	}
	return out
}

func needsCut(th *prog.Thread) bool {
	for _, in := range th.Code {
		if j, ok := in.(prog.Jump); ok && j.Target == compile.CutLabel {
			return true
		}
	}
	return false
}

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
	Time    time.Duration
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
	m, err := bmc.LoadModel(opts.Model, opts.IncludeDirs)
	if err != nil {
		return nil, err
	}
	var tags []string
	if fe, err := litmus.Lookup(t.Arch); err == nil {
		tags = fe.Tags()
	}
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
	rep := &Report{Name: t.Name, Model: opts.Model}
	run := func(q *litmus.Test) *result.Result {
		rep.Queries++
		r, _ := bmc.RunCut(ctx, q, m, opts.Model, bmc.Options{TagNames: tags, VerdictOnly: true, PositiveOnly: true})
		return r
	}
	variant := func(ti, check int, assume bool) *litmus.Test {
		q := *t
		q.Threads = make([]*prog.Thread, len(t.Threads))
		for i, th := range t.Threads {
			c := -1
			if i == ti {
				c = check
			}
			q.Threads[i] = abstract(th, loops[i], c, assume)
		}
		q.Filter = nil
		q.Locations = nil
		q.Quant = litmus.Exists
		return &q
	}
	status := func(r *result.Result) error {
		switch r.Status {
		case result.Done:
			return nil
		case result.Timeout:
			return fmt.Errorf("%s: timed out", path)
		default:
			return fmt.Errorf("%s: %v", path, r.Err)
		}
	}
	// No iteration that repeats a loop may write to memory: a property
	// of the thread alone, whatever its reads return.
	for ti := range t.Threads {
		for _, l := range loops[ti] {
			w, err := repeatsWrite(t.Threads[ti], l)
			if err != nil {
				return nil, err
			}
			if w {
				rep.Reason = fmt.Sprintf("the loop of P%d at %s may write to memory in an iteration that repeats it: the arbitrary writes of previous iterations (Section 4.2.2) are not supported yet", ti, l.inv.Label)
				rep.Time = time.Since(start)
				return rep, nil
			}
		}
	}
	// Each invariant: true on entry and at every backward branch.
	for ti := range t.Threads {
		for k, l := range loops[ti] {
			checks := []struct{ reg, why string }{
				{regInit, "does not hold when the loop is entered"},
				{regStep, "is not inductive: an iteration that repeats the loop can end where it fails"},
			}
			for _, c := range checks {
				q := variant(ti, k, false)
				q.Cond = litmus.Atom{Ref: litmus.Ref{Thread: ti, Name: c.reg}, Val: prog.IntValue(1)}
				r := run(q)
				if err := status(r); err != nil {
					return nil, err
				}
				if r.Positive > 0 {
					rep.Reason = fmt.Sprintf("the invariant of P%d:%s (%s) %s", ti, l.inv.Label, litmus.FormatCond(l.inv.Cond), c.why)
					rep.Witness = r
					rep.Time = time.Since(start)
					return rep, nil
				}
			}
		}
	}
	// The property, with every loop abstracted.
	q := variant(-1, -1, true)
	q.Cond = t.Cond
	if t.Quant == litmus.Forall {
		q.Cond = litmus.Not{C: t.Cond}
	}
	if t.Filter != nil {
		q.Cond = litmus.And{L: t.Filter, R: q.Cond}
	}
	r := run(q)
	if err := status(r); err != nil {
		return nil, err
	}
	rep.Time = time.Since(start)
	if r.Positive > 0 {
		rep.Reason = "possible violation: exists (" + litmus.FormatCond(q.Cond) + ") is reachable in the abstraction"
		rep.Witness = r
		return rep, nil
	}
	rep.Proved = true
	return rep, nil
}
