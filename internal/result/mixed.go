package result

import "github.com/musket-verify/musket/internal/spec"

// Unchunk shows the final states of a mixed-size test (whose locations the
// front-end split into chunks, t.Chunks) with whole locations again: the
// observed chunks "x", "x+4" of x become one x, whose value is assembled
// little-endian from them, in the states, the witness and the candidate
// executions of an explanation; and the condition is printed as the test wrote
// it (t.CondLine).
func Unchunk(r *Result, t *spec.Test) {
	if !t.Mixed || r == nil {
		return
	}
	if t.CondLine != "" {
		r.Condition = t.CondLine
	}
	// Which observed chunk belongs to which location, at which offset.
	type part struct {
		whole string
		off   int64
	}
	of := map[string]part{}
	for l, cs := range t.Chunks {
		if len(cs) < 2 {
			continue
		}
		for _, c := range cs {
			of[c.Loc] = part{l, c.Off}
		}
	}
	var obs []spec.Ref
	index := map[spec.Ref]int{}
	for _, ref := range r.Observed {
		if p, ok := of[ref.Name]; ok && !ref.IsReg() {
			ref = spec.Ref{Thread: -1, Name: p.whole}
		}
		if _, seen := index[ref]; !seen {
			index[ref] = len(obs)
			obs = append(obs, ref)
		}
	}
	if len(obs) == len(r.Observed) {
		return
	}
	sorted := SortRefs(obs)
	pos := map[spec.Ref]int{}
	for i, ref := range sorted {
		pos[ref] = i
	}
	merge := func(s State) State {
		out := make(State, len(sorted))
		for i, ref := range r.Observed {
			v := s[i]
			if p, ok := of[ref.Name]; ok && !ref.IsReg() {
				k := pos[spec.Ref{Thread: -1, Name: p.whole}]
				out[k].Int |= v.Int << (8 * p.off)
				continue
			}
			out[pos[ref]] = v
		}
		return out
	}
	states := make([]State, len(r.States))
	for i, s := range r.States {
		states[i] = merge(s)
	}
	executions := []*Execution{r.Witness}
	if r.Explain != nil {
		for _, rj := range r.Explain.Rejected {
			executions = append(executions, rj.Execution)
		}
	}
	for _, e := range executions {
		if e != nil && len(e.State) == len(r.Observed) {
			e.State = merge(e.State)
		}
	}
	r.Observed = sorted
	r.States = SortStates(sorted, states)
}
