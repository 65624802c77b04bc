package enum

import (
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/rel"
)

// Single-event read-modify-writes (prog.RMW.Single, a RISC-V AMO): the
// engine runs a read and a write, the model sees one event in R and W
// (event.Fusion says how the relations map).

// fusedStatic is the image of a combination's static sets and relations,
// built once for all its candidates.
type fusedStatic struct {
	sets map[string]rel.Set
	rels map[string]rel.Rel
	loc  []int
}

// dynamicRels are the relations evaluate sets per candidate.
var dynamicRels = map[string]bool{"rf": true, "rfi": true, "rfe": true, "co": true, "coi": true, "coe": true, "fr": true, "fri": true, "fre": true}

// fuse returns the execution x as the model sees it, its single-event
// read-modify-writes one event each.
func (c *combo) fuse(x *cat.Execution) *cat.Execution {
	f := c.fus
	if c.fst == nil {
		fs := &fusedStatic{sets: make(map[string]rel.Set, len(c.st.Sets)), rels: make(map[string]rel.Rel, len(c.st.Rels)), loc: f.Loc(c.st.Loc)}
		for k, v := range c.st.Sets {
			fs.sets[k] = f.Set(v)
		}
		for k, v := range c.st.Rels {
			if !dynamicRels[k] {
				fs.rels[k] = f.Rel(v)
			}
		}
		c.fst = fs
	}
	rels := make(map[string]rel.Rel, len(x.Rels)+len(x.Over))
	for k, v := range x.Rels {
		if s, ok := c.fst.rels[k]; ok && !dynamicRels[k] {
			rels[k] = s
		} else {
			rels[k] = f.Rel(v)
		}
	}
	// The candidate's own relations (rf, co, ...; see dynamic), which
	// come before Rels' by name.
	for _, o := range x.Over {
		rels[o.Name] = f.Rel(o.Rel)
	}
	out := &cat.Execution{N: f.M, Sets: c.fst.sets, Loc: c.fst.loc, Rels: rels}
	if same := x.SameValue; same != nil {
		// A fused event's value is the value it reads (as the SMT
		// engine's different-values has it).
		out.SameValue = func(i, j int) bool { return same(f.Read[i], f.Read[j]) }
	}
	return out
}

// unfuse maps the relations the model gives back (co when it binds it,
// those an explanation follows) to the engine's events: a fused event is
// its write in co, its read elsewhere.
func (c *combo) unfuse(get func(string) (rel.Rel, bool)) func(string) (rel.Rel, bool) {
	f := c.fus
	return func(name string) (rel.Rel, bool) {
		r, ok := get(name)
		if !ok {
			return r, false
		}
		return f.Back(r, name == "co"), true
	}
}
