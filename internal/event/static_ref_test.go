package event

import "github.com/musket-verify/musket/internal/rel"

// The implementation of Static before it was rewritten without maps of
// lists, kept as the reference TestStaticAgainstReference compares it
// with.

// Static computes the static sets and relations of g.
//
// It is three functions (the sets, the pairs of events, the relations)
// and its helpers are never inlined: in Go's WebAssembly each inlined
// append or map store is a long code sequence, and Static, run once per
// test, was 24.5 KB of wasm that the browser's optimising compiler took
// long to compile on a page's first runs.
func (g *Graph) staticRef() *Static {
	n := g.N()
	s := &Static{N: n, Sets: map[string]rel.Set{}, Rels: map[string]rel.Rel{}, Loc: make([]int, n)}
	g.staticSetsRef(s)
	po, loc, intl, same := g.staticPairsRef()
	g.staticRelsRef(s, po, loc, intl, same)
	return s
}

// addTo appends e to the set name of sets.
func addToRef(sets map[string][]int, name string, e int) { sets[name] = append(sets[name], e) }

// staticSets fills s's sets and its location classes.
func (g *Graph) staticSetsRef(s *Static) {
	n := s.N
	locID := map[string]int{}
	for _, l := range g.Locations() {
		locID[l] = len(locID)
	}
	sets := map[string][]int{}
	for _, t := range g.TagNames {
		sets[t] = sets[t]
	}
	for _, name := range []string{"R", "W", "M", "F", "IW", "FW", "B", "Exp", "NExp", "EX", "X", "PTE", "RMW", "UB", "_"} {
		sets[name] = sets[name]
	}
	for i := range g.Events {
		e := &g.Events[i]
		addToRef(sets, "_", i)
		s.Loc[i] = -1
		if e.Loc != "" {
			s.Loc[i] = locID[e.Loc]
		}
		switch e.Kind {
		case Read:
			addToRef(sets, "R", i)
			addToRef(sets, "M", i)
			addToRef(sets, "Exp", i)
		case Write:
			addToRef(sets, "W", i)
			addToRef(sets, "M", i)
			addToRef(sets, "Exp", i)
			if e.IsInit() {
				addToRef(sets, "IW", i)
			}
		case Fence:
			addToRef(sets, "F", i)
		case Branch:
			addToRef(sets, "B", i)
		}
		for _, t := range e.Tags {
			addToRef(sets, t, i)
		}
	}
	for name, elems := range sets {
		s.Sets[name] = rel.SetOf(n, elems...)
	}
	s.Sets["X"] = s.Sets["X"].Union(s.Sets["EX"]) // herd's X (atomicset.go)
	for alias, tag := range TagAliases {
		if _, taken := s.Sets[alias]; !taken {
			if set, ok := s.Sets[tag]; ok {
				s.Sets[alias] = set
			}
		}
	}
}

// staticPairs computes po, loc, int and same-instance.
func (g *Graph) staticPairsRef() (po, loc, intl, same *rel.Builder) {
	n := g.N()
	po, loc, intl, same = rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n)
	for i := range g.Events {
		a := &g.Events[i]
		for j := range g.Events {
			b := &g.Events[j]
			sameThread := a.Thread == b.Thread && (a.Thread >= 0 || i == j)
			if sameThread {
				intl.Add(i, j)
				if a.Thread >= 0 && i < j && !SameAccess(a, b) {
					po.Add(i, j) // events of a thread are numbered in program order
				}
				if a.Instr == b.Instr {
					same.Add(i, j)
				}
			}
			if a.Loc != "" && a.Loc == b.Loc {
				loc.Add(i, j)
			}
		}
	}
	return po, loc, intl, same
}

// putRel stores r under name in rels.
func putRelRef(rels map[string]rel.Rel, name string, r rel.Rel) { rels[name] = r }

// staticRels fills s's relations.
func (g *Graph) staticRelsRef(s *Static, po, loc, intl, same *rel.Builder) {
	n := s.N
	putRelRef(s.Rels, "po", po.Rel())
	putRelRef(s.Rels, "loc", loc.Rel())
	putRelRef(s.Rels, "int", intl.Rel())
	putRelRef(s.Rels, "ext", intl.Rel().Complement())
	putRelRef(s.Rels, "id", rel.Identity(rel.Full(n)))
	putRelRef(s.Rels, "same-instance", same.Rel())
	putRelRef(s.Rels, "sm", smRelRef(g))
	putRelRef(s.Rels, "si", s.Rels["sm"])
	putRelRef(s.Rels, "addr", rel.RelOf(n, g.Addr...))
	putRelRef(s.Rels, "data", rel.RelOf(n, g.Data...))
	putRelRef(s.Rels, "ctrl", rel.RelOf(n, g.Ctrl...))
	putRelRef(s.Rels, "iico_data", rel.RelOf(n, g.IicoData...))
	putRelRef(s.Rels, "iico_ctrl", rel.RelOf(n, g.IicoCtrl...))
	// The pick dependencies contain the full ones.
	pa := rel.RelOf(n, append(append([][2]int(nil), g.Addr...), g.PickAddr...)...)
	pd := rel.RelOf(n, append(append([][2]int(nil), g.Data...), g.PickData...)...)
	pc := rel.RelOf(n, append(append([][2]int(nil), g.Ctrl...), g.PickCtrl...)...)
	putRelRef(s.Rels, "pick-addr-dep", pa)
	putRelRef(s.Rels, "pick-data-dep", pd)
	putRelRef(s.Rels, "pick-ctrl-dep", pc)
	putRelRef(s.Rels, "pick-basic-dep", pa.Union(pd))
	putRelRef(s.Rels, "pick-dep", pa.Union(pd).Union(pc))
	rmw := rel.RelOf(n, g.Rmw...)
	putRelRef(s.Rels, "rmw", rmw)
	var tagged []int // the events tagged X: amo's domain
	for i := range g.Events {
		if g.Events[i].HasTag("X") {
			tagged = append(tagged, i)
		}
	}
	x := rel.SetOf(n, tagged...)
	putRelRef(s.Rels, "amo", rmw.Restrict(x, x))
	ex := s.Sets["EX"]
	putRelRef(s.Rels, "lxsx", rmw.Restrict(ex, ex))
}

// smRelRef is smRel as it was, testing SameAccess on every pair of events.
func smRelRef(g *Graph) rel.Rel {
	n := g.N()
	b := rel.NewBuilder(n)
	for i := range g.Events {
		b.Add(i, i)
		for j := range g.Events {
			if SameAccess(&g.Events[i], &g.Events[j]) {
				b.Add(i, j)
			}
		}
	}
	return b.Rel()
}
