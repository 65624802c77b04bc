package param

import (
	"container/heap"
	"fmt"
)

// This file is the incremental backtracking of the search with
// approximations (approx.go). When a descendant of a guessed invariant g
// meets the initial states (or, in the deep phase, a sampled state), g
// is not an invariant. Before, the search then started over from the
// unsafe cubes, and every refuted guess cost the whole search so far
// (120 to 140 nodes on the FLASH examples). Now only what g brought is
// undone:
//
//   - g and its descendants (the cubes with g on their Parent chain,
//     visited or queued, guesses included) leave the visited set and
//     the queue;
//   - the visited cubes that a dropped cube deleted as subsumed
//     (deleteSubsumed) are visited again;
//   - the cubes found subsumed (the fixpoint test) since g was visited
//     go back to the queue, unless they descend from g or one visited
//     cube that stays covered them alone (a renaming of it);
//   - g's origin, the pre-image that g generalised, goes back to the
//     queue (the approximator no longer offers g, nor a guess more
//     general than g: refuted).
//
// Why a SAFE verdict still is a proof. The search's invariant is: every
// pre-image of a visited cube is visited, or covered by the visited set
// (the union of its cubes; the fixpoint test and deleteSubsumed only
// ever drop a cube covered by it), or queued. Write V(t) for the visited
// set once t cubes were visited (cube IDs count the visits). Deleting a
// cube keeps the union of V: the deleter covers it. So, without
// backtracking, the union of V only grows, and a cube found subsumed at
// time t stays covered. A rollback of g (visited at time t_g) removes
// only cubes visited at or after t_g (g's descendants are visited after
// g), and it restores what they deleted; every cube of V(t) for t <
// t_g is then in V again or deleted by a cube that is (by induction on
// the time of deletion: a deleter that was dropped has its victims
// restored), so the union of V still covers V(t) for every t < t_g, and
// every cube found subsumed before t_g is still covered. The cubes found
// subsumed at or after t_g may have been covered by a dropped cube only:
// they are queued again, except those that one cube covered alone (the
// syntactic test) when that cube is not dropped: it is in V again, or
// deleted by a cube that is (as above), so it still covers them. The pre-images of the dropped cubes are no
// longer obligations (their cubes are no longer visited), except that
// g's origin is the pre-image of a cube that stays (g's parent): it is
// queued again. Every obligation of a cube that stays is therefore
// visited, covered or queued after the rollback, and when the queue is
// empty the visited set is closed under pre-images, excludes the initial
// states (each cube was tested), and covers the unsafe cubes (the roots
// are never descendants of a guess): its negation is an inductive
// invariant. An UNSAFE verdict is unchanged: it is given for a path
// without guesses only.
//
// Weak systems (wguess.go) are undone the same way: their cubes carry
// events and a ghb order, but the argument above uses only what every
// search has (the visited set, the fixpoint test and deleteSubsumed,
// which drop a cube only when the visited cubes cover it, and the
// pre-images as obligations). Their guesses are of two kinds. A guess
// made from a pre-image (weakGuess) has that pre-image as origin,
// queued again as above. A template root (templateRoots) is a guess
// that is its own origin: a candidate explored beside the unsafe cubes,
// the pre-image of no visited cube; dropping it and its descendants
// leaves no obligation of a cube that stays, and it is not queued again
// (templateRoots and weakGuess skip refuted candidates). The other
// weak restarts are unchanged: a path through eliminated ticks that
// does not hold (tick.go) and the precise search of refine.go each
// start a new search.
//
// This is the backtracking of Conchon, Goel, Krstić, Mebsout and Zaïdi's
// BRAB ("Invariants for finite instances and beyond", FMCAD 2013), done
// in place rather than by a new search.

// backtrack is the log the rollback of a guess needs, kept while the
// search may make guesses.
type backtrack struct {
	// subsumed: the cubes dropped by the fixpoint test, with the number
	// of cubes visited then (e.nextID) and the cube that covered them
	// alone (nil: the union of the visited cubes did)
	subsumed []subsumedAt
	// deleted: the visited cubes that deleteSubsumed removed, with the
	// cube whose visit removed them
	deleted []deletion
}

type subsumedAt struct {
	c, by *Cube
	time  int
}

type deletion struct {
	c, by *Cube
}

// noteSubsumed records that the fixpoint test dropped c. When one
// cube covered c alone and no guess is on its path, no rollback can
// drop that cube: c is not recorded (most of the cubes dropped, so that
// the log does not keep them all alive).
func (b *backtrack) noteSubsumed(c, by *Cube, time int) {
	if by != nil && guessOn(by) == nil {
		return
	}
	b.subsumed = append(b.subsumed, subsumedAt{c, by, time})
}

// noteDeleted records the cubes of before that are not in after (in the
// same order): the visit of by deleted them. (The caller skips a cube
// by without a guess on its path: no rollback drops it.)
func (b *backtrack) noteDeleted(before, after []*Cube, by *Cube) {
	j := 0
	for _, v := range before {
		if j < len(after) && after[j] == v {
			j++
			continue
		}
		b.deleted = append(b.deleted, deletion{v, by})
	}
}

// descends reports whether c is g or has g on its Parent chain; memo
// keeps the answers for the cubes met on the way.
func descends(c, g *Cube, memo map[*Cube]bool) bool {
	var path []*Cube
	ans := false
	for x := c; x != nil; x = x.Parent {
		if x == g {
			ans = true
			break
		}
		if a, ok := memo[x]; ok {
			ans = a
			break
		}
		path = append(path, x)
	}
	for _, x := range path {
		memo[x] = ans
	}
	return ans
}

// rollback undoes the guess g (see the top of the file): it returns
// the number of visited cubes dropped.
func (r *run) rollback(g *Cube, q *queue) int {
	e, b := r.e, r.bt
	memo := map[*Cube]bool{}
	desc := func(c *Cube) bool { return descends(c, g, memo) }
	dropped := 0
	kept := e.visited[:0]
	for _, v := range e.visited {
		if desc(v) {
			dropped++
			continue
		}
		kept = append(kept, v)
	}
	clear(e.visited[len(kept):])
	e.visited = kept
	// restore what the dropped cubes deleted, in the order of deletion
	// (deterministic)
	dels := b.deleted[:0]
	for _, d := range b.deleted {
		switch {
		case desc(d.c):
			// gone with g
		case desc(d.by):
			e.visited = append(e.visited, d.c)
		default:
			dels = append(dels, d)
		}
	}
	clear(b.deleted[len(dels):])
	b.deleted = dels
	q.drop(desc)
	subs := b.subsumed[:0]
	for _, s := range b.subsumed {
		switch {
		case desc(s.c):
		case s.by != nil && !desc(s.by):
			subs = append(subs, s) // still covered by s.by
		case s.time >= g.ID:
			q.push(s.c)
		default:
			subs = append(subs, s)
		}
	}
	clear(b.subsumed[len(subs):])
	b.subsumed = subs
	if g.Origin != g {
		q.push(g.Origin)
	} // else a template root of a weak system (wguess.go): a candidate
	// the search explored beside the unsafe cubes, the pre-image of no
	// cube, so no obligation is left (templateRoots skips it as refuted)
	return dropped
}

// drop removes the queued cubes for which gone holds.
func (q *queue) drop(gone func(*Cube) bool) {
	n := len(q.items)
	items := q.items[:0]
	for _, c := range q.items {
		if !gone(c) {
			items = append(items, c)
		}
	}
	clear(q.items[len(items):])
	q.items = items
	later := q.postponed[:0]
	for _, c := range q.postponed {
		if !gone(c) {
			later = append(later, c)
		}
	}
	q.live -= n - len(items) + len(q.postponed) - len(later)
	clear(q.postponed[len(later):])
	q.postponed = later
	if !q.dfs {
		heap.Init(q)
	}
}

// widen doubles the bound of the deep sample after a refuted guess
// (up to deepSample), and undoes the visited guesses that the larger
// sample refutes: a guess that a sampled state satisfies, or (exact
// samples) whose descendant a sampled state satisfies. It reports
// whether the larger sample met an unsafe state that the replay
// confirmed (the trace is then in the result).
func (r *run) widen(q *queue) bool {
	e := r.e
	a := e.approx
	if a == nil || !a.deep || a.done || a.unsafe || a.weak != nil || a.sampleLimit() >= deepSample {
		return false
	}
	a.deepCap = min(2*a.sampleLimit(), deepSample)
	if r.growSample() {
		return true
	}
	if a.unsafe {
		return false
	}
	if e.opts.Verbose != nil {
		fmt.Fprintf(e.opts.Verbose, "refuted guess: the deep sample grows to %d states\n", a.sampled())
	}
	r.dropSampled(q)
	return false
}

// dropSampled undoes the visited guesses that the sample refutes: a
// guess that a sampled state satisfies, or (exact samples) whose
// descendant a sampled state satisfies. Undoing a guess is sound
// whatever the reason (see the argument at the top of this file); the
// refuted guess is remembered, as the approximator would no longer
// offer it (guess rejects a candidate the sample reaches, and then any
// generalisation of it, which the sample reaches too).
func (r *run) dropSampled(q *queue) {
	e := r.e
	a := e.approx
	// unreached: the visited cubes already found unreached by this sample. A
	// rollback only removes visited cubes and restores deleted ones, and
	// whether the sample reaches a cube depends on its literals only, so
	// a cube found unreached stays so: the scans after the first skip it
	// and find the same first reached cube (they were quadratic in the
	// visited cubes, 4 % of challenges_flash2_nodata)
	unreached := map[*Cube]bool{}
	for {
		var bad *Cube
		for _, v := range e.visited {
			if unreached[v] {
				continue
			}
			g := guessOn(v)
			if g == nil || len(v.Nodes) > 0 || (a.abstract && v != g) {
				continue
			}
			ok := true
			for _, l := range v.Lits {
				if !groundable(l) {
					ok = false
					break
				}
			}
			if ok && a.reached(v.Lits, v.Slots, e.sys.Pinned) {
				bad = g
				break
			}
			unreached[v] = true
		}
		if bad == nil {
			return
		}
		a.bad = append(a.bad, bad)
		r.res.Backtracks++
		n := r.rollback(bad, q)
		if e.opts.Verbose != nil {
			fmt.Fprintf(e.opts.Verbose, "refuted guess %s by the larger sample: %d visited cubes undone\n", e.sys.CubeString(bad), n)
		}
	}
}
