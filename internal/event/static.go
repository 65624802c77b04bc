package event

import (
	"context"
	"sort"

	"github.com/musket-verify/musket/internal/rel"
)

// Static holds the relations and sets of a graph that do not depend on rf
// and co.
type Static struct {
	N    int
	Sets map[string]rel.Set
	Rels map[string]rel.Rel
	Loc  []int // location class of each event, -1 when none
}

// Static computes the static sets and relations of g.
//
// It is three functions (the sets, the pairs of events, the relations)
// and its helpers are never inlined: in Go's WebAssembly each inlined
// append or map store is a long code sequence, and Static, run once per
// combination of paths, was 24.5 KB of wasm that the browser's optimising
// compiler took long to compile on a page's first runs. It makes no map
// but the two it returns, and those at their size: the explicit engine
// runs it for every combination of paths, and string-keyed maps (hashed
// without AES, their seeds and ranges drawn at random) are slow in
// WebAssembly.
func (g *Graph) Static() *Static {
	s, _ := g.StaticContext(context.Background())
	return s
}

// StaticContext is Static given up, with ctx's error and no relations,
// once ctx is done. The pass over all pairs of events looks
// at ctx every 64 events: at 10^4 events it costs tenths of a second of
// CPU, seconds of wall time on a loaded machine (fix on big10k went 1.5 s
// past -timeout; robust5).
func (g *Graph) StaticContext(ctx context.Context) (*Static, error) {
	n := g.N()
	s := &Static{N: n, Loc: make([]int, n)}
	atomic := g.staticSets(s)
	po, loc, intl, same, err := g.staticPairs(ctx, s.Loc)
	if err != nil {
		return nil, err
	}
	g.staticRels(s, atomic, po, loc, intl, same)
	return s, nil
}

// fixedSets are the sets every graph has, empty or not; the first eight
// are those staticSets fills from the events' kinds (the indexes set*).
var fixedSets = []string{"_", "R", "W", "M", "Exp", "IW", "F", "B", "FW", "NExp", "EX", "X", "PTE", "RMW", "UB"}

const (
	setAll = iota
	setR
	setW
	setM
	setExp
	setIW
	setF
	setB
	setEX = 10 // fixedSets[setEX] == "EX"
	setX  = 11 // fixedSets[setX] == "X"
)

// tagAliasList is TagAliases as a list, in a fixed order (each alias is
// bound or not whatever the order: no alias names a tag another aliases).
var tagAliasList = func() [][2]string {
	var l [][2]string
	for alias, tag := range TagAliases {
		l = append(l, [2]string{alias, tag})
	}
	sort.Slice(l, func(i, j int) bool { return l[i][0] < l[j][0] })
	return l
}()

// indexOf is the position of name in names, -1 when absent.
func indexOf(names []string, name string) int {
	for i, x := range names {
		if x == name {
			return i
		}
	}
	return -1
}

// staticSets fills s's sets and its location classes (the rank of the
// event's location among the graph's, sorted). Each set is a row of one
// block of words: the fixed sets, the front-end's tags, then the other
// tags of the events.
//
// The set X is the events tagged X or EX (atomicset.go says why); it
// returns the events tagged X alone, from which amo is made.
//
//go:noinline
func (g *Graph) staticSets(s *Static) (atomic rel.Set) {
	n := s.N
	locs := g.sortedLocations()
	names := make([]string, len(fixedSets), len(fixedSets)+len(g.TagNames)+4)
	copy(names, fixedSets)
	for _, t := range g.TagNames {
		if indexOf(names, t) < 0 {
			names = append(names, t)
		}
	}
	for i := range g.Events {
		for _, t := range g.Events[i].Tags {
			if indexOf(names, t) < 0 {
				names = append(names, t)
			}
		}
	}
	w := rel.SetWords(n)
	atom := len(names) // one more row: the events tagged X alone
	buf := make([]uint64, (len(names)+1)*w)
	add := func(k, e int) { buf[k*w+e>>6] |= 1 << (uint(e) & 63) }
	for i := range g.Events {
		e := &g.Events[i]
		add(setAll, i)
		s.Loc[i] = -1
		if e.Loc != "" {
			s.Loc[i] = sort.SearchStrings(locs, e.Loc)
		}
		switch e.Kind {
		case Read:
			add(setR, i)
			add(setM, i)
			add(setExp, i)
		case Write:
			add(setW, i)
			add(setM, i)
			add(setExp, i)
			if e.IsInit() {
				add(setIW, i)
			}
		case Fence:
			add(setF, i)
		case Branch:
			add(setB, i)
		}
		for _, t := range e.Tags {
			k := indexOf(names, t)
			add(k, i)
			switch k {
			case setX:
				add(atom, i)
			case setEX:
				add(setX, i) // herd's X holds the exclusive accesses too
			}
		}
	}
	s.Sets = make(map[string]rel.Set, len(names)+len(tagAliasList))
	for k, name := range names {
		s.Sets[name] = rel.NewSetIn(n, buf[k*w:(k+1)*w])
	}
	for _, a := range tagAliasList {
		if _, taken := s.Sets[a[0]]; !taken {
			if set, ok := s.Sets[a[1]]; ok {
				s.Sets[a[0]] = set
			}
		}
	}
	return rel.NewSetIn(n, buf[atom*w:(atom+1)*w])
}

// sortedLocations is Locations without a map: the locations of the
// events, sorted, each once.
func (g *Graph) sortedLocations() []string {
	var out []string
	for i := range g.Events {
		if l := g.Events[i].Loc; l != "" {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	k := 0
	for i, l := range out {
		if i == 0 || l != out[k-1] {
			out[k] = l
			k++
		}
	}
	return out[:k]
}

// staticPairs computes po, loc, int and same-instance; loc is the
// events' location classes. It gives up with ctx's error once ctx is
// done, looked at every 64 rows.
//
//go:noinline
func (g *Graph) staticPairs(ctx context.Context, locClass []int) (po, loc, intl, same *rel.Builder, err error) {
	n := g.N()
	po, loc, intl, same = rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n), rel.NewBuilder(n)
	for i := range g.Events {
		if i&63 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, nil, err
			}
		}
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
			if locClass[i] >= 0 && locClass[i] == locClass[j] {
				loc.Add(i, j) // the same location
			}
		}
	}
	return po, loc, intl, same, nil
}

// putRel stores r under name in rels.
//
//go:noinline
func putRel(rels map[string]rel.Rel, name string, r rel.Rel) { rels[name] = r }

// staticRels fills s's relations; atomic is the events tagged X (the
// accesses of the atomic read-modify-write instructions), amo's domain.
//
//go:noinline
func (g *Graph) staticRels(s *Static, atomic rel.Set, po, loc, intl, same *rel.Builder) {
	n := s.N
	s.Rels = make(map[string]rel.Rel, 17)
	putRel(s.Rels, "po", po.Rel())
	putRel(s.Rels, "loc", loc.Rel())
	putRel(s.Rels, "int", intl.Rel())
	putRel(s.Rels, "ext", intl.Rel().Complement())
	putRel(s.Rels, "id", rel.Identity(rel.Full(n)))
	putRel(s.Rels, "same-instance", same.Rel())
	sm := smRel(g)
	putRel(s.Rels, "sm", sm)
	putRel(s.Rels, "si", sm)
	putRel(s.Rels, "addr", rel.RelOf(n, g.Addr...))
	putRel(s.Rels, "data", rel.RelOf(n, g.Data...))
	putRel(s.Rels, "ctrl", rel.RelOf(n, g.Ctrl...))
	pickRels(s.Rels, n, g)
	putRel(s.Rels, "iico_data", rel.RelOf(n, g.IicoData...))
	putRel(s.Rels, "iico_ctrl", rel.RelOf(n, g.IicoCtrl...))
	rmw := rel.RelOf(n, g.Rmw...)
	putRel(s.Rels, "rmw", rmw)
	putRel(s.Rels, "amo", rmw.Restrict(atomic, atomic))
	ex := s.Sets["EX"]
	putRel(s.Rels, "lxsx", rmw.Restrict(ex, ex))
}
