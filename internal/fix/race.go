package fix

import (
	"path/filepath"
	"strings"

	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/spec"
)

// A data race (musket fix -races) is a witness too, with its own notion
// of relevance. The race flag of RC11, IMM and C11 holds when two
// conflicting accesses, one of them plain, are ordered by happens-before
// neither way, where hb is (po ∪ sw)+ and every sw edge (a release, or a
// release fence po-before a write, then rf, possibly through the reads
// of read-modify-writes of a release sequence, to an acquire read or a
// read po-before an acquire fence) is a path of po and rf edges. So
// hb ⊆ (po ∪ rf)+ ⊆ (po ∪ com)+.
//
// Let X be the racy execution of the program patched with S, with the
// two accesses a and b, and c a candidate. Memory orders and fences
// change no value and no control flow, so X (with c's order, or c's
// fence event added) is an execution of the program patched with
// S ∪ {c}. Under it, X stops being a witness only if it becomes
// inconsistent, which needs c on a cycle of po and communication (the
// package comment: relevant), or a and b become ordered by hb, which
// needs c's instance on a path of po and rf edges between them: an
// access's instance e with a →* e →* b or b →* e →* a; a fence after
// e (its only edges in and out are po edges to and from its
// neighbours) with a →* e and y →* b for some y po-after e, or the
// same from b to a — where a and b stand for any event of their
// threads, since the compiler may have put them elsewhere in their
// threads (relevantRace). The paths are taken over po ∪ rf ∪ co (co too, so
// that a release sequence defined along the coherence order, as in
// C11 as Batty et al. formalised it, is covered; more paths only keep
// more candidates, which keeps the constraint sound). A candidate that
// is on neither can be left out of the witness's constraint.
//
// The argument holds for the models whose race relation is built that
// way: raceModels names them (built-in names only: a .cat file of the
// user's may call anything a race). For any other model a race keeps
// its old treatment: no witness, every candidate counts.
var raceModels = map[string]bool{"rc11": true, "imm": true, "c11": true}

// raceWitness is the loop's witness of the race r reports on the patched
// test t (nil when the model is not one of raceModels, or the engine's
// witness does not give the race's two accesses).
func raceWitness(model string, r *cfront.Result, t *spec.Test, lineOf []int) *Witness {
	if !raceModels[model] || r.RacePair == nil || r.Result == nil || r.Result.Witness == nil {
		return nil
	}
	x := r.Result.Witness
	w := witnessOf(x, t, lineOf)
	race := [2]int{-1, -1}
	for i, e := range x.Events {
		for k, acc := range r.RacePair {
			if e.ID == acc.Event {
				race[k] = i
			}
		}
	}
	if race[0] < 0 || race[1] < 0 || race[0] == race[1] {
		return nil
	}
	w.Race = &race
	// The kill test's replay asks whether an assertion fails (a C
	// program's, cfront.Replay), not whether a race flag is raised: a
	// race's execution is not replayed.
	w.pin = nil
	n := len(x.Events)
	idx := make(map[int]int, n)
	for i, e := range x.Events {
		idx[e.ID] = i
	}
	w.raceReach = make([][]bool, n)
	for i := range w.raceReach {
		w.raceReach[i] = make([]bool, n)
	}
	for _, es := range [][][2]int{x.Po, x.Rf, x.Co} {
		for _, p := range es {
			a, ok1 := idx[p[0]]
			b, ok2 := idx[p[1]]
			if ok1 && ok2 {
				w.raceReach[a][b] = true
			}
		}
	}
	closure(w.raceReach)
	return w
}

// builtinModel is the built-in name a -model value gives ("" for a .cat
// file).
func builtinModel(model string) string {
	if strings.ContainsAny(model, `/\`) || filepath.Ext(model) == ".cat" {
		return ""
	}
	return strings.ToLower(model)
}

// relevantRace tells whether c has an instance on a path of po, rf and
// co between the two accesses of w's race (see above).
//
// The compiler's order is not the source's: clang at -O1 moves a plain
// access across relaxed atomics (a plain store in a loop sunk after the
// loop's relaxed flag stores), and a release or acquire given to one of
// those forbids the move, so the patched program's execution is not X
// with an order changed. Each race access therefore stands for every
// place of its thread where the compiler may put it in a patched version
// (window): a path may start at any event of the first access's window
// and end at any event of the second's.
func relevantRace(c Cand, w *Witness) bool {
	a, b := w.Race[0], w.Race[1]
	to := func(i, j int) bool { return i == j || w.raceReach[i][j] }
	wa, wb := window(w, a), window(w, b)
	// reaches: some event of from's window reaches e.
	reaches := func(win []int, e int) bool {
		for _, x := range win {
			if to(x, e) {
				return true
			}
		}
		return false
	}
	between := func(e int, from, dst []int) bool {
		if !reaches(from, e) {
			return false
		}
		if !c.Fence {
			return reachesWindow(e, dst, to)
		}
		for y := range w.Events {
			if w.Po[e][y] && reachesWindow(y, dst, to) {
				return true
			}
		}
		return false
	}
	for e, ev := range w.Events {
		if ev.Line != c.Line || ev.Thread < 0 || (c.Thread >= 0 && ev.Thread != c.Thread) {
			continue
		}
		if between(e, wa, wb) || between(e, wb, wa) {
			return true
		}
	}
	return false
}

// window lists the events of a's thread among which the compiler may
// place the access a (the a of a race) in any patched version of the
// program: a itself and the events po-between a lower bound L and an
// upper bound U of X (exclusive), where
//
//   - R is the last release event po-before a, and L the last acquire
//     event at or po-before R;
//   - A is the first acquire event po-after a, and U the first release
//     event at or po-after A;
//
// with no bound (the thread's start or end) where there is no such event.
//
// Why. The rules are those of the C11 standard's happens-before (a plain
// access moved after a release it precedes, or before an acquire it
// follows, could change what another thread that synchronises with them
// sees: a data-race-free program would get a new behaviour), which
// LLVM's optimisations keep (its LangRef's atomic orderings: an acquire
// load or fence is a barrier to the motion of later accesses before it,
// a release store or fence to the motion of earlier ones after it; the
// "roach motel" moves, into the region, are the ones allowed). Atomic
// accesses and fences keep their order (LLVM's passes do not reorder
// ordered atomics; race.go's argument above assumes it of every atomic).
// So, where s is a's place in the source order: a was not moved down
// past a release nor up past an acquire to its place in X, hence
// R < s < A. In a patched version, whose barriers include all of X's
// (candidates only strengthen), a is not above the last acquire before s,
// which is at or after L, nor below the first release after s, at or
// before U. Each bound is an event of X whose kind the label gives
// (c11Strength); an event whose strength is unknown is no bound, which
// only widens the window.
func window(w *Witness, a int) []int {
	th := w.Events[a].Thread
	lastBefore := func(at int, want func(WEvent) bool, inclusive bool) int {
		best := -1
		for x, xv := range w.Events {
			if xv.Thread != th || !want(xv) || !(w.Po[x][at] || inclusive && x == at) {
				continue
			}
			if best < 0 || w.Po[best][x] {
				best = x
			}
		}
		return best
	}
	firstAfter := func(at int, want func(WEvent) bool, inclusive bool) int {
		best := -1
		for x, xv := range w.Events {
			if xv.Thread != th || !want(xv) || !(w.Po[at][x] || inclusive && x == at) {
				continue
			}
			if best < 0 || w.Po[x][best] {
				best = x
			}
		}
		return best
	}
	acq := func(e WEvent) bool { return e.Acq }
	rel := func(e WEvent) bool { return e.Rel }
	lo, hi := -1, -1
	if r := lastBefore(a, rel, false); r >= 0 {
		lo = lastBefore(r, acq, true)
	}
	if q := firstAfter(a, acq, false); q >= 0 {
		hi = firstAfter(q, rel, true)
	}
	out := []int{a}
	for x, xv := range w.Events {
		if x == a || xv.Thread != th {
			continue
		}
		if (lo < 0 || w.Po[lo][x]) && (hi < 0 || w.Po[x][hi]) {
			out = append(out, x)
		}
	}
	return out
}

// reachesWindow tells whether e reaches an event of win.
func reachesWindow(e int, win []int, to func(i, j int) bool) bool {
	for _, y := range win {
		if to(e, y) {
			return true
		}
	}
	return false
}
