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
// with an order changed. A path may therefore start at any event of the
// first access's thread and end at any event of the second's: each
// access stands for wherever in its thread the compiler may put it.
// This keeps a candidate of either thread that reaches the other, which
// is what the source order would give, and more.
func relevantRace(c Cand, w *Witness) bool {
	a, b := w.Race[0], w.Race[1]
	to := func(i, j int) bool { return i == j || w.raceReach[i][j] }
	// from reaches e: some event of from's thread reaches e.
	reaches := func(from, e int) bool {
		for x, xv := range w.Events {
			if (x == from || xv.Thread == w.Events[from].Thread) && to(x, e) {
				return true
			}
		}
		return false
	}
	between := func(e, from, dst int) bool {
		if !reaches(from, e) {
			return false
		}
		if !c.Fence {
			return reachesThread(w, e, dst, to)
		}
		for y := range w.Events {
			if w.Po[e][y] && reachesThread(w, y, dst, to) {
				return true
			}
		}
		return false
	}
	for e, ev := range w.Events {
		if ev.Line != c.Line || ev.Thread < 0 || (c.Thread >= 0 && ev.Thread != c.Thread) {
			continue
		}
		if between(e, a, b) || between(e, b, a) {
			return true
		}
	}
	return false
}

// reachesThread tells whether e reaches dst or an event of dst's thread.
func reachesThread(w *Witness, e, dst int, to func(i, j int) bool) bool {
	for y, yv := range w.Events {
		if (y == dst || yv.Thread == w.Events[dst].Thread) && to(e, y) {
			return true
		}
	}
	return false
}
