package fix

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
)

// Witness is an execution that reaches the condition, as the loop needs
// it: its events (memory accesses and initial writes) and which reach
// which along program order and communication.
type Witness struct {
	Events []WEvent
	// Reach[i][j]: a path of one or more po, rf, co or fr edges from
	// event i to event j.
	Reach [][]bool
	// Po[i][j]: event i is po-before event j.
	Po [][]bool
	// More are other witnesses the same check found (the explicit
	// engine lists several): each gives its own constraint.
	More []*Witness
	// Race, when the condition reached is a data race (-races), is
	// the indices of the race's two accesses in Events (race.go).
	Race *[2]int
	// raceReach[i][j]: a path of po, rf and co edges from event i to
	// event j (race.go; nil when Race is).
	raceReach [][]bool
	// raw is the engine's execution the witness was read from.
	raw *result.Execution
	// pin names the execution for the kill test (enum.Replay); nil when
	// the engine's witness does not say enough.
	pin *enum.Pin
}

// WEvent is an event of a witness: its thread (-1 for an initial write)
// and the line of the input its instruction comes from (0: an inserted
// line, or unknown).
type WEvent struct {
	Thread, Line int
	// Kind is 'R' or 'W' for a read or a write, 0 when unknown.
	Kind byte
	// Acq and Rel, for a C11 event, say that it has acquire or
	// release semantics (race.go: barriers to the compiler's motion of
	// plain accesses).
	Acq, Rel bool
}

// Subject is a program to repair.
type Subject interface {
	// Candidates are the insertions the repertoire offers.
	Candidates() []Cand
	// Check checks the program patched with the candidates sel: whether
	// the condition is reachable and, when it is, a witness (nil if the
	// engine gives none: every candidate is then taken as relevant).
	Check(ctx context.Context, sel []int) (bad bool, w *Witness, err error)
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
	// witnesses met (constraints of the hitting set; the explicit engine
	// gives several per check).
	Checks, Witnesses int
	Time              time.Duration
	// Incumbent: the loop looked for a repair from above (descend) and
	// stopped when the cheapest set meeting the constraints cost as much.
	Incumbent bool
	// The kill test (kill.go): Replays counts the replays of witnesses
	// in patched versions (each one model evaluation per witness, no
	// search), Revived the sets shown no repair by a witness met before
	// (a check saved each), Pruned the candidates dropped from the
	// witnesses' constraints.
	Replays, Revived, Pruned int
	// First is the engine's witness on the program as given (the first
	// check), nil when it is correct or the engine gave none.
	First *result.Execution
}

// maxKnown bounds the witnesses the loop keeps to replay.
const maxKnown = 4096

var debug = os.Getenv("MUSKET_FIX_DEBUG") != ""

// ErrLimit is returned when the loop needs more checks than allowed.
var ErrLimit = errors.New("the repair needs more checks than -max-checks allows")

// Repair runs the counterexample-guided loop on s: check, add the
// witness's constraint, choose a cheapest set meeting every constraint,
// check the program patched with it, until a check finds the condition
// unreachable (a cheapest repair), or a witness leaves no candidate (no
// repair within the repertoire). maxChecks bounds the checks (0: no
// bound).
func Repair(ctx context.Context, s Subject, maxChecks int) (*Outcome, error) {
	return RepairWith(ctx, s, maxChecks, nil)
}

// Progress is what the loop has done so far, for a progress line: the
// checks of patched programs, the witnesses met, and the cost of the
// cheapest set meeting their constraints (a lower bound on the repair's).
type Progress struct {
	Checks, Witnesses, Bound int
}

// RepairWith is Repair calling progress (when not nil) before each check.
func RepairWith(ctx context.Context, s Subject, maxChecks int, progress func(Progress)) (*Outcome, error) {
	start := time.Now()
	cands := s.Candidates()
	out := &Outcome{Cands: cands}
	var cons [][]int
	rp := replayable(s)
	// killOff turns the kill test off for the rest of the run when a
	// replay fails (a version the explicit engine cannot run): the
	// checks decide alone, as without it.
	killOff := func(err error) {
		if debug {
			fmt.Fprintf(os.Stderr, "fix: kill test off: %v\n", err)
		}
		rp = nil
	}
	var known []*Witness // the witnesses met, for the kill test
	seenCons := map[string]bool{}
	// constrain adds the constraints of witnesses ws of the program
	// patched with sel: the candidates outside sel that can forbid
	// them, shrunk by the kill test when the subject replays.
	constrain := func(sel []int, ws []*Witness, met bool) error {
		in := map[int]bool{}
		have := map[string]string{} // group -> name chosen
		for _, c := range sel {
			in[c] = true
			have[cands[c].Group] = cands[c].Name
		}
		out.Witnesses += len(ws)
		fresh := make([][]int, len(ws))
		for k, w := range ws {
			var con []int
			for i, c := range cands {
				if in[i] || dominates(have[c.Group], c.Name) || !relevant(c, w) {
					continue
				}
				con = append(con, i)
			}
			fresh[k] = con
		}
		if rp != nil {
			dropped, n, err := shrink(ctx, rp, cands, sel, ws, fresh)
			out.Replays += n
			out.Pruned += dropped
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// The constraints stay the static ones (shrink
				// changes them only at its end); the loop goes on
				// without the kill test.
				killOff(err)
			}
		}
		for _, con := range fresh {
			// A constraint met before adds nothing but work to
			// the hitting set's branch and bound (the kill test
			// revives the same witnesses under set after set).
			k := setKey(con)
			if seenCons[k] {
				continue
			}
			seenCons[k] = true
			cons = append(cons, con)
			if debug {
				fmt.Fprintf(os.Stderr, "fix: check %d: sel %v bad; constraint %v\n", out.Checks, sel, con)
			}
		}
		for _, w := range ws {
			// A revived witness (met) is known already: adding it
			// again doubled the list at every revival, up to
			// maxKnown copies of a few executions replayed each time.
			if w != nil && w.pin != nil && !met {
				known = append(known, w)
			}
		}
		if len(known) > maxKnown {
			known = known[len(known)-maxKnown:]
		}
		return nil
	}
	// repairs and failed are the sets checked and found repairs or not
	// (descend's, then the loop's last choice may be one of them: not
	// checked twice).
	repairs, failed := map[string]bool{}, map[string]bool{}
	// lower is the cost of the cheapest set meeting the constraints so
	// far (a lower bound on the repair's), for the progress line.
	lower := 0
	// check checks the program patched with sel and, when the condition
	// is reachable, adds the constraints of its witnesses.
	check := func(sel []int) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if maxChecks > 0 && out.Checks >= maxChecks {
			return false, ErrLimit
		}
		if repairs[setKey(sel)] {
			return false, nil // checked before: a repair
		}
		if failed[setKey(sel)] {
			// Checked before and not a repair (descend's chunks
			// can come back to a set): its witnesses' constraints
			// are in already.
			return true, nil
		}
		if progress != nil {
			progress(Progress{Checks: out.Checks, Witnesses: out.Witnesses, Bound: lower})
		}
		out.Checks++
		t0 := time.Now()
		bad, w, err := s.Check(ctx, sel)
		if debug {
			fmt.Fprintf(os.Stderr, "fix: check %d of %v: bad %v, %v\n", out.Checks, sel, bad, time.Since(t0))
		}
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err() // the limit, not a fault of the check
			}
			return false, err
		}
		if !bad {
			repairs[setKey(sel)] = true
			return false, nil
		}
		failed[setKey(sel)] = true
		if out.Checks == 1 && w != nil {
			out.First = w.raw
		}
		ws := []*Witness{w}
		if w != nil {
			ws = append(ws, w.More...)
		}
		return true, constrain(sel, ws, false)
	}
	// revive replays the witnesses met so far in the program patched
	// with sel (the kill test) and adds the constraints of those it
	// leaves consistent: sel is then no repair, known without a check.
	revive := func(sel []int) (bool, error) {
		if rp == nil || len(known) == 0 {
			return false, nil
		}
		out.Replays++
		alive, err := rp.replay(ctx, sel, known)
		if err != nil {
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			killOff(err)
			return false, nil
		}
		var ws []*Witness
		for k, a := range alive {
			if a {
				ws = append(ws, known[k])
			}
		}
		if len(ws) == 0 {
			return false, nil
		}
		out.Revived++
		out.Witnesses -= len(ws) // counted when first met
		return true, constrain(sel, ws, true)
	}
	finish := func(sel []int) *Outcome {
		out.Fix, out.Correct = sel, len(sel) == 0
		out.Cost = costOf(cands, sel)
		out.Time = time.Since(start)
		return out
	}
	var sel []int
	var inc []int // a repair known, not yet known to be cheapest
	tried := false
	for {
		bad, err := revive(sel)
		if err != nil {
			return nil, err
		}
		if !bad {
			if bad, err = check(sel); err != nil {
				return nil, err
			}
			if !bad {
				return finish(sel), nil
			}
		}
		// Sets refuted by the kill test count as checks here: without
		// them a program whose witnesses the kill test keeps reviving
		// never looked for a repair from above, and the lower bound
		// climbed set by set (safe563 of the Power corpus without its
		// syncs: 100 000 revived sets in 5 minutes, one check).
		if !tried && out.Checks+out.Revived >= incumbentAfter && !skipsDescend(s) {
			tried = true
			if inc, err = descend(cands, check); err != nil {
				return nil, err
			}
			out.Incumbent = inc != nil
		}
		next, ok := cheapest(cands, cons)
		lower = costOf(cands, next)
		if !ok {
			if c, isC := s.(*cSubject); isC && out.Pruned+out.Revived > 0 && !c.noKill {
				// "No fix" is an answer no check confirms: for a
				// C program, where the kill test's monotonicity
				// rests on clang compiling each patched version
				// to the same accesses (kill.go), the loop runs
				// again without it before saying so.
				c.noKill = true
				defer func() { c.noKill = false }()
				again, err := RepairWith(ctx, s, maxChecks, progress)
				if again != nil {
					again.Checks += out.Checks
					again.Witnesses += out.Witnesses
					again.Replays, again.Revived, again.Pruned = out.Replays, out.Revived, out.Pruned
					again.Time = time.Since(start)
				}
				return again, err
			}
			out.NoFix, out.Time = true, time.Since(start)
			return out, nil
		}
		if inc != nil && costOf(cands, next) >= costOf(cands, inc) {
			// The lower bound meets the repair known: it is a
			// cheapest one (the loop's own choice at that cost
			// first, so that ties go as they would without it).
			bad, err := check(next)
			if err != nil {
				return nil, err
			}
			if !bad {
				return finish(next), nil
			}
			return finish(inc), nil
		}
		sel = next
	}
}

// incumbentAfter is the number of checks after which Repair looks for a
// repair from above (descend) to stop as soon as the lower bound of the
// hitting sets reaches its cost: programs whose every access lies on a
// cycle of po and communication (mutual exclusion) give weak constraints,
// and the loop alone refutes every cheaper set one by one.
const incumbentAfter = 16

// skipsDescend tells whether the loop on s looks for no repair from above:
// compare -fix's explicit checks with a budget (their top check, every
// access made the strongest, is the dearest check there is: Szymanski's
// protocol under Power with every access seq_cst takes the SMT engine
// about a minute of CPU, the explicit engine more than its budget).
func skipsDescend(s Subject) bool {
	p, ok := s.(*ptsSubject)
	return ok && p.budget > 0
}

// setKey names a sorted set of candidates.
func setKey(sel []int) string { return fmt.Sprint(sel) }

// costOf is the cost of a set of candidates.
func costOf(cands []Cand, sel []int) int {
	n := 0
	for _, c := range sel {
		n += cands[c].Cost
	}
	return n
}

// descend finds a repair from above: the strongest candidate of every
// group (the costliest), then groups taken out in chunks (halves, ...,
// one by one, the costliest first) while the rest still repairs the
// program, then each group left made the cheapest weaker candidate that
// still does. Each check that fails adds its witnesses' constraints
// (check does). It returns nil when the strongest candidates do not
// repair the program (their groups' candidates need not be comparable:
// the loop decides then).
func descend(cands []Cand, check func([]int) (bool, error)) ([]int, error) {
	var groups []string
	members := map[string][]int{}
	for i, c := range cands {
		if _, ok := members[c.Group]; !ok {
			groups = append(groups, c.Group)
		}
		members[c.Group] = append(members[c.Group], i)
	}
	cur := map[string]int{}
	for _, g := range groups {
		top := -1
		for _, i := range members[g] {
			if top < 0 || cands[i].Cost > cands[top].Cost {
				top = i
			}
		}
		cur[g] = top
	}
	set := func() []int {
		var out []int
		for _, i := range cur {
			if i >= 0 {
				out = append(out, i)
			}
		}
		sort.Ints(out)
		return out
	}
	bad, err := check(set())
	if err != nil || bad {
		return nil, err
	}
	sort.SliceStable(groups, func(a, b int) bool { return cands[cur[groups[a]]].Cost > cands[cur[groups[b]]].Cost })
	// First take whole groups out, many at a time as delta debugging
	// does (Zeller, Hildebrandt, "Simplifying and Isolating
	// Failure-Inducing Input", TSE 2002): halves, then quarters, ...
	// then one by one, a chunk staying out when the rest is still a
	// repair. A repair needing k of n groups takes about 2k·log(n/k)
	// checks instead of n, and the checks of big sets are the dear ones
	// (chase-lev-bug.c under rc11: 34 groups, one needed).
	active := append([]string(nil), groups...)
	for chunk := len(active) / 2; chunk >= 1; chunk /= 2 {
		for i := 0; i < len(active); {
			end := min(i+chunk, len(active))
			saved := map[string]int{}
			for _, g := range active[i:end] {
				saved[g], cur[g] = cur[g], -1
			}
			bad, err := check(set())
			if err != nil {
				return nil, err
			}
			if !bad {
				active = append(active[:i], active[end:]...)
				continue
			}
			for g, c := range saved {
				cur[g] = c
			}
			i = end
		}
	}
	// Then each group left is made the cheapest weaker candidate that
	// still repairs the program.
	for _, g := range active {
		was := cur[g]
		var weaker []int
		for _, i := range members[g] {
			if cands[i].Cost < cands[was].Cost {
				weaker = append(weaker, i)
			}
		}
		sort.SliceStable(weaker, func(a, b int) bool { return cands[weaker[a]].Cost < cands[weaker[b]].Cost })
		for _, alt := range weaker {
			cur[g] = alt
			bad, err := check(set())
			if err != nil {
				return nil, err
			}
			if !bad {
				break
			}
			cur[g] = was
		}
	}
	return set(), nil
}

// relevant tells whether c can forbid w: it orders two events on a
// cycle of po and communication (see the package comment). The events
// of c's line are its instances in w (one per iteration of a loop); a
// fence follows its access at once, so it orders the events po-before or
// at an instance with those po-after it. A stronger access orders the
// instance with the events po-before or po-after it in its thread (for a
// target, through the fences or the acquire/release instruction it
// compiles to); at the model's level (C11 orders: Coarse) it may also
// count in relations that do not follow po, so it is relevant as soon as
// its instance is on a cycle.
func relevant(c Cand, w *Witness) bool {
	if w == nil {
		return true
	}
	if w.Race != nil && relevantRace(c, w) {
		return true
	}
	if c.From > 0 {
		return relevantDep(c, w)
	}
	if c.effects != nil {
		return relevantEffects(c, w)
	}
	for e, ev := range w.Events {
		if ev.Line != c.Line || ev.Thread < 0 || (c.Thread >= 0 && ev.Thread != c.Thread) {
			continue
		}
		if !c.Fence && c.Coarse {
			if w.Reach[e][e] {
				return true
			}
			continue
		}
		for a, av := range w.Events {
			if av.Thread != ev.Thread || (a != e && !w.Po[a][e]) {
				continue
			}
			for b, bv := range w.Events {
				if bv.Thread != ev.Thread || a == b {
					continue
				}
				after := w.Po[e][b] || (!c.Fence && b == e)
				if after && w.Reach[b][a] {
					return true
				}
			}
		}
	}
	return false
}

// weakerThan lists, for an insertion, the insertions of the same place
// that order less (by the architectures' manuals and the C11 standard):
// when w survives the stronger one, it survives these.
var weakerThan = map[string][]string{
	"sync":          {"lwsync"},
	"dmb ish":       {"dmb ishld", "dmb ishst"},
	"dmb":           {"dmb st"},
	"fence rw,rw":   {"fence r,r", "fence w,w", "fence r,rw", "fence rw,w", "fence r,w", "fence w,r", "fence w,rw", "fence rw,r", "fence.tso"},
	"fence.tso":     {"fence r,r", "fence w,w", "fence r,rw", "fence rw,w", "fence r,w"},
	"fence r,rw":    {"fence r,r", "fence r,w"},
	"fence rw,w":    {"fence w,w", "fence r,w"},
	"fence w,rw":    {"fence w,r", "fence w,w"},
	"fence rw,r":    {"fence r,r", "fence w,r"},
	"fence seq_cst": {"fence acquire", "fence release", "fence acq_rel"},
	"fence acq_rel": {"fence acquire", "fence release"},
	"seq_cst":       {"acquire", "release", "acq_rel", "consume"},
	"acq_rel":       {"acquire", "release", "consume"},
	"acquire":       {"consume"},
	"ldar":          {"ldapr"},
}

// dominates tells whether the insertion strong orders at least what weak
// does at the same place.
func dominates(strong, weak string) bool {
	for _, w := range weakerThan[strong] {
		if w == weak {
			return true
		}
	}
	return false
}

// relevantDep tells whether the dependency c, from the load at line
// c.From to the access at c.Line, can forbid w: an instance a of the load
// po-before an instance b of the access with a path back to a from b or
// from an event po-after b (the models order a before b, and Power's and
// RVWMO's addr;po before later writes).
func relevantDep(c Cand, w *Witness) bool {
	for a, av := range w.Events {
		if av.Line != c.From || av.Thread != c.Thread {
			continue
		}
		for b, bv := range w.Events {
			if bv.Line != c.Line || bv.Thread != c.Thread || !w.Po[a][b] {
				continue
			}
			for x, xv := range w.Events {
				if xv.Thread == c.Thread && (x == b || w.Po[b][x]) && w.Reach[x][a] {
					return true
				}
			}
		}
	}
	return false
}

// Needed is the self-check of a repair: for each change of fix, the
// program patched with the other changes is checked again, and the
// condition must be reachable there (the change kills a witness that the
// others leave). It returns the changes (indices into the candidates)
// without which the program is still correct, which a cheapest repair
// with positive costs never has, and the number of checks. Together with
// the re-check of the whole fix (every witness killed: Verify) it
// justifies each insertion.
func Needed(ctx context.Context, s Subject, fix []int) (unneeded []int, checks int, err error) {
	for k, c := range fix {
		rest := make([]int, 0, len(fix)-1)
		rest = append(rest, fix[:k]...)
		rest = append(rest, fix[k+1:]...)
		checks++
		bad, _, err := s.Check(ctx, rest)
		if err != nil {
			if ctx.Err() != nil {
				return nil, checks, ctx.Err()
			}
			return nil, checks, err
		}
		if !bad {
			unneeded = append(unneeded, c)
		}
	}
	return unneeded, checks, nil
}
