package fix

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/musket-verify/musket/internal/enum"
)

// The kill test: the explicit engine's Replay runs the model on one
// witness execution of the program patched with a set of candidates (the
// same accesses, the same reads-from and coherence, with the set's fences
// and stronger accesses), which says whether that set forbids that
// witness without checking the whole program. The loop uses it twice:
//
//   - Before a check of the next cheapest set S, the witnesses found so
//     far are replayed under S. One that S leaves consistent is a
//     witness of S, found without a check: its constraint is added and
//     the next cheapest set chosen (Outcome.Revived counts those).
//   - A witness w found under S constrains a repair to contain one of its
//     statically relevant candidates C outside S (relevant). The kill
//     test shrinks C: going through C, a candidate c is dropped when w
//     stays consistent under S, the candidates dropped so far and c.
//     What is left must still be hit: a set R that avoids it is, group by
//     group, no stronger than S with the dropped candidates and
//     candidates irrelevant to w, under which w is consistent (the models
//     are monotone in fences, dependencies and orders, and irrelevant
//     candidates add no order on a cycle of w). On SB this makes each
//     witness's constraint one mfence, not a choice of two.
//
// C programs (cfront.Replay) replay their assertions' witnesses on the
// patched program as clang compiles it: a witness whose accesses that
// compilation no longer makes (clang moved a plain access past a new
// release, say) is not rebuilt, so it counts as killed, as below. Races'
// witnesses have no pin (the replay's condition is a failed assertion).
// A revived witness is an execution of the patched program, exactly. The
// pruning's monotonicity (a set R group by group no stronger than one
// under which w is alive leaves w alive) holds of the compiled program
// when clang compiles R's version to the same accesses in the same order;
// fewer barriers let it move plain accesses, the exposure the static
// relevance of C witnesses has too (race.go). Nothing unsound reaches
// the user through it: a repair is always a set a full check found
// correct, and before the loop says "no fix" for a C program on
// constraints the kill test shaped, it runs again without the kill test
// (loop.go). The price of a wrong drop would be a dearer repair.
//
// An answer "consistent" is an execution the engine built from the
// patched program and the model accepted, so it is never a guess; an
// execution the replay cannot rebuild (a replacement with other accesses,
// as x86's locked store) counts as killed, which keeps every constraint
// sound (a candidate is kept, a check is made).

// replayer is a Subject whose witnesses can be replayed in a patched
// version: alive[k] tells whether ws[k] is an execution of the program
// patched with sel that reaches the condition.
type replayer interface {
	replay(ctx context.Context, sel []int, ws []*Witness) (alive []bool, err error)
}

// killTest turns the kill test on; MUSKET_FIX_NOKILL=1 turns it off, to
// measure what it saves.
var killTest = os.Getenv("MUSKET_FIX_NOKILL") == ""

// replayable is s as a replayer, if it is one and can replay now.
func replayable(s Subject) replayer {
	if !killTest {
		return nil
	}
	switch s := s.(type) {
	case *litmusSubject:
		return s
	case *ptsSubject:
		return s
	case *cSubject:
		// Witnesses of assertions only: a race's (the race flag)
		// has no pin (race.go), and the graph engine's are made on
		// a test the replay does not rebuild.
		if engineName(s.copts.Engine) != "graph" && !s.noKill {
			return s
		}
	}
	return nil
}

// pinsOf are the pins of the witnesses that have one, with their indices.
func pinsOf(ws []*Witness) ([]enum.Pin, []int) {
	var pins []enum.Pin
	var at []int
	for k, w := range ws {
		if w != nil && w.pin != nil {
			pins = append(pins, *w.pin)
			at = append(at, k)
		}
	}
	return pins, at
}

// spread maps the answers for the pinned witnesses back to ws.
func spread(n int, at []int, got []bool) []bool {
	alive := make([]bool, n)
	for i, k := range at {
		alive[k] = got[i]
	}
	return alive
}

// withCand is sel with c added (same true when a member of c's group
// dominates c: the set orders as much without it), or false when c's
// group has a member neither dominates (a group takes one insertion). A
// member c dominates is replaced.
func withCand(cands []Cand, sel []int, c int) (out []int, same, ok bool) {
	out = make([]int, 0, len(sel)+1)
	for _, x := range sel {
		if x == c {
			return sel, true, true
		}
		if cands[x].Group == cands[c].Group {
			switch {
			case dominates(cands[c].Name, cands[x].Name):
				continue
			case dominates(cands[x].Name, cands[c].Name):
				return sel, true, true
			default:
				return nil, false, false
			}
		}
		out = append(out, x)
	}
	out = append(out, c)
	sort.Ints(out)
	return out, false, true
}

// shrink is the kill test's pruning of the constraints cons[k] of the
// witnesses ws[k] found under sel (see the comment at the top). It
// returns the candidates it dropped and the replays it made.
func shrink(ctx context.Context, rp replayer, cands []Cand, sel []int, ws []*Witness, cons [][]int) (dropped, replays int, err error) {
	// Witnesses with the same dropped set share a replay.
	type class struct {
		set []int
		ws  []int // indices into ws
	}
	key := func(set []int) string { return fmt.Sprint(set) }
	classes := map[string]*class{}
	var order []string
	for k, w := range ws {
		if w == nil || w.pin == nil || len(cons[k]) == 0 {
			continue
		}
		kk := key(sel)
		if classes[kk] == nil {
			classes[kk] = &class{set: sel}
			order = append(order, kk)
		}
		classes[kk].ws = append(classes[kk].ws, k)
	}
	if len(order) == 0 {
		return 0, 0, nil
	}
	// Candidates in the order tried: every candidate of some constraint.
	var all []int
	in := map[int]bool{}
	for _, con := range cons {
		for _, c := range con {
			if !in[c] {
				in[c] = true
				all = append(all, c)
			}
		}
	}
	sort.Ints(all)
	drop := make([]map[int]bool, len(ws))
	for k := range drop {
		drop[k] = map[int]bool{}
	}
	for _, c := range all {
		next := map[string]*class{}
		var nextOrder []string
		put := func(set []int, k int) {
			kk := key(set)
			if next[kk] == nil {
				next[kk] = &class{set: set}
				nextOrder = append(nextOrder, kk)
			}
			next[kk].ws = append(next[kk].ws, k)
		}
		for _, kk := range order {
			cl := classes[kk]
			var try []int // witnesses whose constraint has c
			for _, k := range cl.ws {
				if slices.Contains(cons[k], c) {
					try = append(try, k)
				} else {
					put(cl.set, k)
				}
			}
			if len(try) == 0 {
				continue
			}
			set, same, ok := withCand(cands, cl.set, c)
			if !ok || same {
				// Not testable (kept), or no stronger than the
				// set the witnesses are consistent under (dropped).
				for _, k := range try {
					if same {
						drop[k][c] = true
						dropped++
					}
					put(cl.set, k)
				}
				continue
			}
			sub := make([]*Witness, len(try))
			for i, k := range try {
				sub[i] = ws[k]
			}
			replays++
			alive, err := rp.replay(ctx, set, sub)
			if err != nil {
				return dropped, replays, err
			}
			for i, k := range try {
				if alive[i] {
					drop[k][c] = true
					dropped++
					put(set, k)
				} else {
					put(cl.set, k)
				}
			}
		}
		classes, order = next, nextOrder
	}
	for k := range cons {
		if len(drop[k]) == 0 {
			continue
		}
		kept := cons[k][:0:0]
		for _, c := range cons[k] {
			if !drop[k][c] {
				kept = append(kept, c)
			}
		}
		if debug {
			fmt.Fprintf(os.Stderr, "fix: kill test: constraint %v -> %v\n", cons[k], kept)
		}
		cons[k] = kept
	}
	return dropped, replays, nil
}
