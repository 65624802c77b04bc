package bmc

import (
	"sort"
)

// The functions a model may call without defining them.

// builtins are the functions the model may call without defining them.
var builtins map[string]*builtinV

func init() {
	builtins = map[string]*builtinV{}
	for _, b := range []*builtinV{
		{name: "domain", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"domain of " + kindName(a)}
			}
			return ev.o.domain(r), nil
		}},
		{name: "range", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"range of " + kindName(a)}
			}
			return ev.o.rng(r), nil
		}},
		{name: "fencerel", fn: func(ev *evaluator, a value) (value, error) {
			s, ok := ev.asSet(a)
			if !ok {
				return nil, &evalError{"fencerel of " + kindName(a)}
			}
			po := ev.e.inputs["po"].(*Rel)
			return ev.o.seq(ev.o.relInter(po, ev.o.cross(ev.o.fullSet(), s)), po), nil
		}},
		{name: "classes-loc", fn: biClassesLoc},
		{name: "partition", fn: biClassesLoc},
		{name: "tag2events", fn: biTag2Events},
		{name: "tag2set", fn: biTag2Events},
		{name: "tag2instrs", fn: biTag2Events},
		{name: "different-values", fn: func(ev *evaluator, a value) (value, error) {
			r, ok := ev.asRel(a)
			if !ok {
				return nil, &evalError{"different-values of " + kindName(a)}
			}
			// The pairs whose values differ; events without a value
			// (fences, ...) differ from all others.
			out := newRel(ev.o.n())
			events := ev.e.p.events
			r.each(func(i, j int, x B) {
				if i == j {
					return
				}
				vi, vj := events[i].val, events[j].val
				if vi.IsZero() || vj.IsZero() {
					out.set(i, j, x)
					return
				}
				out.set(i, j, ev.f.and(x, ev.f.not(B{t: ev.e.ctx.Eq(vi, vj)})))
			})
			return out, nil
		}},
		// cross(F) is encoded where lock.cat uses it, in `with x from
		// cross(F)` over sets the analysis knows (withCross); elsewhere it
		// is refused by name.
		{name: "cross", fn: unsupportedFn("cross outside `with x from cross(F)`")},
		{name: "linearisations", fn: unsupportedFn("linearisations")},
		{name: "linearizations", fn: unsupportedFn("linearizations")},
		{name: "classes", fn: unsupportedFn("classes")},
		{name: "same-oa", fn: vmsaOnly("same-oa")},
		{name: "at-least-one-writable", fn: vmsaOnly("at-least-one-writable")},
		{name: "oa-changes", fn: vmsaOnly("oa-changes")},
	} {
		builtins[b.name] = b
	}
}

// vmsaOnly makes herd7's functions on page-table entries (same-oa(r),
// at-least-one-writable(r), oa-changes(S, r)) as the explicit engine
// does: executions have no virtual memory, so they answer only for
// arguments empty in every execution, with empty.
func vmsaOnly(name string) func(*evaluator, value) (value, error) {
	return func(ev *evaluator, a value) (value, error) {
		args := []value{a}
		if t, ok := a.(tupleV); ok {
			args = t
		}
		empty := false
		if s, ok := ev.asSet(args[0]); ok {
			empty = len(s.m) == 0
		} else if r, ok := ev.asRel(args[0]); ok {
			empty = r.isEmpty()
		}
		if !empty {
			return nil, &UnsupportedError{What: name + " (virtual memory)"}
		}
		if len(args) == 2 {
			return newSet(), nil
		}
		return newRel(ev.o.n()), nil
	}
}

func unsupportedFn(name string) func(*evaluator, value) (value, error) {
	return func(*evaluator, value) (value, error) {
		return nil, &UnsupportedError{What: name}
	}
}

func biClassesLoc(ev *evaluator, a value) (value, error) {
	s, ok := ev.asSet(a)
	if !ok {
		return nil, &evalError{"classes-loc of " + kindName(a)}
	}
	byLoc := map[string]*Set{}
	var locs []string
	for _, k := range s.elems() {
		l := ev.e.p.events[k].loc
		if l == "" {
			continue
		}
		if byLoc[l] == nil {
			byLoc[l] = newSet()
			locs = append(locs, l)
		}
		byLoc[l].m[k] = s.m[k]
	}
	sort.Strings(locs)
	out := &vsetV{}
	for _, l := range locs {
		out.elems = append(out.elems, byLoc[l])
	}
	return out, nil
}

func biTag2Events(ev *evaluator, a value) (value, error) {
	t, ok := a.(tagV)
	if !ok {
		return nil, &evalError{"tag2events of " + kindName(a)}
	}
	if s, ok := ev.e.inputs[string(t)].(*Set); ok {
		return s, nil
	}
	return newSet(), nil
}
