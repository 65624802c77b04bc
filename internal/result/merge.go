package result

// Merge returns x with the two events of each pair (a, b) of pairs drawn
// as one event, in a's place: a RISC-V AMO, which the engines run as a
// read and a write and the model sees as one event (herd7 draws it as
// one). The events are numbered again in their order; label(id, old)
// gives the label of the event numbered id that stands for x's event old
// (a pair's first event for a merged pair). The edges of either event of
// a pair become the merged event's; those between the two events of a
// pair (po from the read to its write, fr from the read to its own
// write) are left out. The returned slice maps x's event IDs to the
// result's.
func Merge(x *Execution, pairs [][2]int, label func(id, old int) string) (*Execution, []int) {
	partner := map[int]int{}
	for _, p := range pairs {
		partner[p[1]] = p[0]
	}
	to := make([]int, len(x.Events))
	out := &Execution{State: x.State}
	for i, e := range x.Events { // x's events are numbered 0, 1, ...
		if first, ok := partner[i]; ok {
			to[i] = to[first]
			continue
		}
		to[i] = len(out.Events)
		e.ID = to[i]
		e.Label = label(e.ID, i)
		out.Events = append(out.Events, e)
	}
	edges := func(pairs [][2]int) [][2]int {
		seen := map[[2]int]bool{}
		var r [][2]int
		for _, p := range pairs {
			q := [2]int{to[p[0]], to[p[1]]}
			if q[0] == q[1] || seen[q] {
				continue
			}
			seen[q] = true
			r = append(r, q)
		}
		return r
	}
	out.Po, out.Rf, out.Co, out.Fr = edges(x.Po), edges(x.Rf), edges(x.Co), edges(x.Fr)
	return out, to
}

// MapSteps maps the events of an explanation's steps with to (Merge's
// map), leaving out a step within a merged event.
func MapSteps(steps []Step, to []int) []Step {
	var out []Step
	for _, s := range steps {
		s.From, s.To = to[s.From], to[s.To]
		if s.From != s.To {
			out = append(out, s)
		}
	}
	return out
}
