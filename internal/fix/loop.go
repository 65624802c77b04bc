package fix

import (
	"context"
	"errors"
	"time"
)

// Witness is an execution that reaches the condition, as the loop needs
// it: its events (memory accesses and initial writes) and which reach
// which along program order and communication.
type Witness struct {
	Events []WEvent
	// Reach[i][j]: a path of one or more po, rf, co or fr edges from
	// event i to event j.
	Reach [][]bool
}

// WEvent is an event of a witness: its thread (-1 for an initial write)
// and the line of the input its instruction comes from (0: an inserted
// line, or unknown).
type WEvent struct {
	Thread, Line int
}

// Subject is a program to repair.
type Subject interface {
	// Candidates are the insertions the repertoire offers.
	Candidates() []Cand
	// Check checks the program patched with the candidates sel: whether
	// the condition is reachable and, when it is, a witness (nil if the
	// engine gives none: every candidate is then taken as relevant).
	Check(ctx context.Context, sel []int) (bad bool, w *Witness, err error)
	// Loopy tells whether a thread's code has a backward jump, so that
	// the order of its lines is not its program order.
	Loopy(thread int) bool
	// Name is the test's or program's name, Target what it is repaired
	// for ("X86, model tso"), Condition the reachability question.
	Name() string
	Target() string
	Condition() string
}

// Outcome is the answer of Repair.
type Outcome struct {
	// Fix lists the candidates chosen (indices into Cands), sorted.
	Fix   []int
	Cost  int
	Cands []Cand
	// Correct: the program is correct as given (Fix empty).
	Correct bool
	// NoFix: no set of candidates repairs it (a witness that no
	// candidate of the repertoire can forbid).
	NoFix bool
	// Checks counts the checks of patched programs, Witnesses the
	// witnesses met (constraints of the hitting set).
	Checks, Witnesses int
	Time              time.Duration
}

// ErrLimit is returned when the loop needs more checks than allowed.
var ErrLimit = errors.New("the repair needs more checks than -max-checks allows")

// Repair runs the counterexample-guided loop on s: check, add the
// witness's constraint, choose a cheapest set meeting every constraint,
// check the program patched with it, until a check finds the condition
// unreachable (a cheapest repair), or a witness leaves no candidate (no
// repair within the repertoire). maxChecks bounds the checks (0: no
// bound).
func Repair(ctx context.Context, s Subject, maxChecks int) (*Outcome, error) {
	start := time.Now()
	cands := s.Candidates()
	out := &Outcome{Cands: cands}
	var cons [][]int
	var sel []int
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if maxChecks > 0 && out.Checks >= maxChecks {
			return nil, ErrLimit
		}
		out.Checks++
		bad, w, err := s.Check(ctx, sel)
		if err != nil {
			return nil, err
		}
		if !bad {
			out.Fix, out.Correct = sel, len(sel) == 0
			for _, c := range sel {
				out.Cost += cands[c].Cost
			}
			out.Time = time.Since(start)
			return out, nil
		}
		out.Witnesses++
		in := map[int]bool{}
		for _, c := range sel {
			in[c] = true
		}
		var con []int
		for i, c := range cands {
			if !in[i] && relevant(c, w, s) {
				con = append(con, i)
			}
		}
		cons = append(cons, con)
		next, ok := cheapest(cands, cons)
		if !ok {
			out.NoFix, out.Time = true, time.Since(start)
			return out, nil
		}
		sel = next
	}
}

// relevant tells whether c can forbid w: it orders two accesses on a
// cycle of po and communication (see the package comment).
func relevant(c Cand, w *Witness, s Subject) bool {
	if w == nil {
		return true
	}
	loopy := s.Loopy(c.Thread)
	for i, a := range w.Events {
		if a.Thread != c.Thread || a.Line == 0 {
			continue
		}
		if !c.Fence {
			if a.Line == c.Line && w.Reach[i][i] {
				return true
			}
			continue
		}
		if !loopy && a.Line > c.Line {
			continue
		}
		for j, b := range w.Events {
			if j == i || b.Thread != c.Thread || b.Line == 0 {
				continue
			}
			if loopy {
				if w.Reach[i][j] && w.Reach[j][i] {
					return true
				}
				continue
			}
			if b.Line > c.Line && w.Reach[j][i] {
				return true
			}
		}
	}
	return false
}
