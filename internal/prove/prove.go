package prove

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
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
	return parseFile(context.Background(), path)
}

// parseFile is ParseFile stopped when ctx is done (its error is then
// ctx.Err()): a test of megabytes takes seconds to parse on a loaded
// machine.
func parseFile(ctx context.Context, path string) (*spec.Test, []Invariant, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return parse(ctx, path, src)
}

// Parse parses a litmus test with invariant comments (see Invariant).
func Parse(file string, src []byte) (*spec.Test, []Invariant, error) {
	return parse(context.Background(), file, src)
}

func parse(ctx context.Context, file string, src []byte) (*spec.Test, []Invariant, error) {
	t, err := litmus.ParseContext(ctx, file, src)
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
			return nil, nil, source.Errorf(prog.Pos{File: file, Line: i + 1, Col: start + 1}, "an invariant comment must end on its line with '*)'")
		}
		rest := l[start+len("invariant ") : end]
		sp := strings.TrimLeft(rest, " \t")
		headCol := start + len("invariant ") + len(rest) - len(sp)
		pos := prog.Pos{File: file, Line: i + 1, Col: headCol + 1}
		f := strings.Fields(sp)
		if len(f) < 2 {
			return nil, nil, source.Errorf(pos, "want '(* invariant P<n>:<label> <condition> *)'")
		}
		head := f[0]
		colon := strings.IndexByte(head, ':')
		var th int
		if colon < 2 || head[0] != 'P' {
			return nil, nil, source.Errorf(pos, "want P<n>:<label>, found %q", head)
		}
		if _, err := fmt.Sscanf(head[1:colon], "%d", &th); err != nil || fmt.Sprint(th) != head[1:colon] {
			return nil, nil, source.Errorf(pos, "bad thread %q", head[:colon])
		}
		if th < 0 || th >= len(t.Threads) {
			return nil, nil, source.Errorf(pos, "no thread P%d", th)
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
		for _, r := range prog.Uses(in) {
			regs[r] = true
		}
	}
	return regs
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
		return loop{}, source.Errorf(inv.Pos, "%v", err)
	}
	h, ok := labels[inv.Label]
	if !ok {
		return loop{}, source.Errorf(inv.Pos, "P%d has no label %s", inv.Thread, inv.Label)
	}
	end := -1
	for j, in := range th.Code {
		if jp, ok := in.(prog.Jump); ok && jp.Target == inv.Label && j > h {
			end = j
		}
	}
	if end < 0 {
		return loop{}, source.Errorf(inv.Pos, "%s is not the head of a loop of P%d (no backward branch to it)", inv.Label, inv.Thread)
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
			return loop{}, source.Errorf(inv.Pos, "the loop at %s contains another loop (to %s): nested loops are not supported", inv.Label, jp.Target)
		case !inside && t > h && t <= end:
			return loop{}, source.Errorf(inv.Pos, "a branch enters the loop at %s through %s: only entry through its head is supported", inv.Label, jp.Target)
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
