package graph

import (
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/rel"
)

// rvFuse maps xe, the execution of g numbered by num, to the model's
// events when g has both halves of some AMOs (event.Fusion), as the
// explicit engine does.
func (x *engine) rvFuse(g *graph, num []int, xe *cat.Execution) *cat.Execution {
	var pairs [][2]int
	for _, th := range g.threads {
		for j := 1; j < len(th); j++ {
			if g.evs[th[j]].rmwW && g.evs[th[j-1]].rmwR && x.rvSingle(g, th[j]) {
				pairs = append(pairs, [2]int{num[th[j-1]], num[th[j]]})
			}
		}
	}
	fu := event.NewFusion(xe.N, pairs)
	if fu == nil {
		return xe
	}
	out := &cat.Execution{N: fu.M, Sets: make(map[string]rel.Set, len(xe.Sets)), Loc: fu.Loc(xe.Loc), Rels: make(map[string]rel.Rel, len(xe.Rels))}
	for k, v := range xe.Sets {
		out.Sets[k] = fu.Set(v)
	}
	for k, v := range xe.Rels {
		out.Rels[k] = fu.Rel(v)
	}
	return out
}
