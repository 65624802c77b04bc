package fix

import (
	"context"
	"sort"
)

// Swap is a change of a repair replaced by a weaker one at the same place
// (a candidate of its group that is cheaper, or that it dominates:
// weakerThan) under which the program is still correct.
type Swap struct {
	// Change is the repair's candidate, Weaker the one that could take
	// its place (indices into the candidates).
	Change, Weaker int
}

// Slack is what the self-check of a repair found it could do without:
// changes that can be taken out (Unneeded) and changes that can be
// weakened (Weaker). A cheapest repair has no Unneeded change and no
// Weaker swap to a cheaper candidate; a swap at equal cost to a candidate
// the change dominates is a tie the loop broke the other way (Tie).
type Slack struct {
	Unneeded []int
	Weaker   []Swap
	Checks   int
}

// Tie tells whether a swap costs as much as the change it replaces.
func (sl Swap) Tie(cands []Cand) bool { return cands[sl.Weaker].Cost >= cands[sl.Change].Cost }

// Cheaper lists the swaps to a strictly cheaper candidate: each one a
// cheaper repair, which a cheapest repair never has.
func (s *Slack) Cheaper(cands []Cand) []Swap {
	var out []Swap
	for _, w := range s.Weaker {
		if !w.Tie(cands) {
			out = append(out, w)
		}
	}
	return out
}

// weakerIn lists, for candidate c, the candidates of its group that order
// no more than it does by the cost table or by the manuals: those that
// cost less, and those it dominates (weakerThan). Dependencies from
// another load are of c's group too (they change the same access), and
// count when cheaper.
func weakerIn(cands []Cand, c int) []int {
	var out []int
	for i, d := range cands {
		if i == c || d.Group != cands[c].Group {
			continue
		}
		if d.Cost < cands[c].Cost || dominates(cands[c].Name, d.Name) {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return cands[out[a]].Cost < cands[out[b]].Cost })
	return out
}

// Minimal is the self-check of a repair, local minimality in both
// directions: for each change of fix, the program patched with the other
// changes is checked (the condition must be reachable: the change is
// needed), then with the change replaced by each weaker candidate of its
// place (weakerIn; the condition must be reachable again: the change
// cannot be weakened). Together with the re-check of the whole fix
// (Verify) it justifies each insertion and its strength: no fence of the
// repair can be removed or weakened, the property "Don't Sit on the
// Fence" (Alglave, Kroening, Nimal, Poetzl) asks of a placement.
func Minimal(ctx context.Context, s Subject, fix []int) (*Slack, error) {
	cands := s.Candidates()
	sl := &Slack{}
	bad := func(sel []int) (bool, error) {
		sl.Checks++
		b, _, err := s.Check(ctx, sel)
		if err != nil && ctx.Err() != nil {
			return false, ctx.Err()
		}
		return b, err
	}
	for k, c := range fix {
		rest := make([]int, 0, len(fix))
		rest = append(rest, fix[:k]...)
		rest = append(rest, fix[k+1:]...)
		b, err := bad(rest)
		if err != nil {
			return nil, err
		}
		if !b {
			// Removable, so weakenable too: nothing more to learn.
			sl.Unneeded = append(sl.Unneeded, c)
			continue
		}
		for _, d := range weakerIn(cands, c) {
			sel := append(append([]int(nil), rest...), d)
			sort.Ints(sel)
			b, err := bad(sel)
			if err != nil {
				return nil, err
			}
			if !b {
				sl.Weaker = append(sl.Weaker, Swap{Change: c, Weaker: d})
			}
		}
	}
	return sl, nil
}
