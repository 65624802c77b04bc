// Package event is the event graph of one control-flow path of a program:
// memory events (reads, writes, fences, initial writes) with their tags and
// values, and the static relations every engine shares (po, loc, int/ext,
// rmw and the addr/data/ctrl dependencies through registers). The dynamic
// relations (rf, co) are chosen by the engines.
package event

import (
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/rel"
)

// Kind is the kind of an event.
type Kind uint8

// The kinds of events.
const (
	Read Kind = iota
	Write
	Fence
	Branch // a conditional branch (herd's B set); carries no location
	// Located is an event at a location that is neither a read nor a
	// write (herd7's lock and SRCU events: LKR, LKW, UL, LF, RL, RU,
	// Sync-srcu); its tags say what it is. It is in loc, po, int/ext and
	// its tags' sets, in none of R, W, M, F, and the engines give it no
	// rf or co: the model does (lock.cat).
	Located
)

func (k Kind) String() string {
	switch k {
	case Read:
		return "R"
	case Write:
		return "W"
	case Fence:
		return "F"
	case Located:
		return "L"
	}
	return "B"
}

// Event is one event of an execution.
type Event struct {
	ID     int
	Thread int // -1 for initial writes
	Kind   Kind
	Loc    string // location of a memory event; "" for fences and branches
	Tags   []string
	Instr  int        // dynamic instruction instance, unique within the thread
	PC     int        // index of the instruction in the thread's code
	Value  prog.Value // value read or written, once known
}

// IsInit tells whether e is an initial write.
func (e *Event) IsInit() bool { return e.Thread < 0 }

// IsMem tells whether e accesses memory.
func (e *Event) IsMem() bool { return e.Kind == Read || e.Kind == Write }

// HasTag tells whether e carries tag t.
func (e *Event) HasTag(t string) bool {
	for _, x := range e.Tags {
		if x == t {
			return true
		}
	}
	return false
}

// Label prints e as herd's graphs do, e.g. "a: W[x]=1" or "c: F[MFENCE]".
func (e *Event) Label() string {
	// Built by hand rather than with fmt: every witness labels each of
	// its events, and fmt is slow in the playground's WebAssembly.
	var b strings.Builder
	b.Grow(32)
	b.WriteString(eventName(e.ID))
	b.WriteString(": ")
	switch e.Kind {
	case Read, Write:
		b.WriteString(e.Kind.String())
		for _, tag := range e.Tags {
			if tag != "IW" {
				b.WriteByte('.')
				b.WriteString(tag)
			}
		}
		b.WriteByte('[')
		b.WriteString(e.Loc)
		b.WriteString("]=")
		b.WriteString(e.Value.String())
	case Fence:
		b.WriteString("F[")
		writeJoined(&b, e.Tags)
		b.WriteByte(']')
	case Located:
		writeJoined(&b, e.Tags)
		b.WriteByte('[')
		b.WriteString(e.Loc)
		b.WriteByte(']')
	default:
		b.WriteByte('B')
	}
	return b.String()
}

// writeJoined writes tags joined by dots.
func writeJoined(b *strings.Builder, tags []string) {
	for i, t := range tags {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
}

func eventName(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

// Graph is the events of one control-flow path of every thread together
// with the initial writes, and the static relations among them.
type Graph struct {
	Events []Event
	// Dependencies and intra-instruction relations, as pairs of event IDs.
	Addr, Data, Ctrl, Rmw, IicoData, IicoCtrl [][2]int
	// TagNames are the tags whose sets a model may name even when no event
	// carries them (the front-end's vocabulary).
	TagNames []string
}

// N is the number of events.
func (g *Graph) N() int { return len(g.Events) }

// Locations lists the locations of the memory events, sorted.
func (g *Graph) Locations() []string {
	seen := map[string]bool{}
	var out []string
	for i := range g.Events {
		if l := g.Events[i].Loc; l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// TagAliases gives the other names under which models know some tags:
// Dat3M's .cat files name fence sets in lower case ("mfence" for herd's
// MFENCE). An alias is bound only when the tag is known and no tag of that
// name exists. The table is fixed (nothing writes it); package arch gives
// each architecture the aliases of its own tags.
var TagAliases = map[string]string{
	// x86
	"mfence": "MFENCE",
	"lfence": "LFENCE",
	"sfence": "SFENCE",
	// x86 has no acquire tag: its atomic (locked) accesses are herd's A.
	"A": "X",
	// Power
	"sync":   "SYNC",
	"lwsync": "LWSYNC",
	"isync":  "ISYNC",
	"eieio":  "EIEIO",
	// RISC-V's AMO is a tag of its own (the accesses of AMOs, not lr/sc),
	// not an alias of X.
}

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
// test, was 24.5 KB of wasm that the browser's optimising compiler took
// long to compile on a page's first runs.
func (g *Graph) Static() *Static {
	n := g.N()
	s := &Static{N: n, Sets: map[string]rel.Set{}, Rels: map[string]rel.Rel{}, Loc: make([]int, n)}
	g.staticSets(s)
	po, loc, intl, same := g.staticPairs()
	g.staticRels(s, po, loc, intl, same)
	return s
}

// addTo appends e to the set name of sets.
//
//go:noinline
func addTo(sets map[string][]int, name string, e int) { sets[name] = append(sets[name], e) }

// staticSets fills s's sets and its location classes.
//
//go:noinline
func (g *Graph) staticSets(s *Static) {
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
		addTo(sets, "_", i)
		s.Loc[i] = -1
		if e.Loc != "" {
			s.Loc[i] = locID[e.Loc]
		}
		switch e.Kind {
		case Read:
			addTo(sets, "R", i)
			addTo(sets, "M", i)
			addTo(sets, "Exp", i)
		case Write:
			addTo(sets, "W", i)
			addTo(sets, "M", i)
			addTo(sets, "Exp", i)
			if e.IsInit() {
				addTo(sets, "IW", i)
			}
		case Fence:
			addTo(sets, "F", i)
		case Branch:
			addTo(sets, "B", i)
		}
		for _, t := range e.Tags {
			addTo(sets, t, i)
		}
	}
	for name, elems := range sets {
		s.Sets[name] = rel.SetOf(n, elems...)
	}
	for alias, tag := range TagAliases {
		if _, taken := s.Sets[alias]; !taken {
			if set, ok := s.Sets[tag]; ok {
				s.Sets[alias] = set
			}
		}
	}
}

// staticPairs computes po, loc, int and same-instance.
//
//go:noinline
func (g *Graph) staticPairs() (po, loc, intl, same *rel.Builder) {
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
//
//go:noinline
func putRel(rels map[string]rel.Rel, name string, r rel.Rel) { rels[name] = r }

// staticRels fills s's relations.
//
//go:noinline
func (g *Graph) staticRels(s *Static, po, loc, intl, same *rel.Builder) {
	n := s.N
	putRel(s.Rels, "po", po.Rel())
	putRel(s.Rels, "loc", loc.Rel())
	putRel(s.Rels, "int", intl.Rel())
	putRel(s.Rels, "ext", intl.Rel().Complement())
	putRel(s.Rels, "id", rel.Identity(rel.Full(n)))
	putRel(s.Rels, "same-instance", same.Rel())
	putRel(s.Rels, "sm", smRel(g))
	putRel(s.Rels, "si", s.Rels["sm"])
	putRel(s.Rels, "addr", rel.RelOf(n, g.Addr...))
	putRel(s.Rels, "data", rel.RelOf(n, g.Data...))
	putRel(s.Rels, "ctrl", rel.RelOf(n, g.Ctrl...))
	putRel(s.Rels, "iico_data", rel.RelOf(n, g.IicoData...))
	putRel(s.Rels, "iico_ctrl", rel.RelOf(n, g.IicoCtrl...))
	rmw := rel.RelOf(n, g.Rmw...)
	putRel(s.Rels, "rmw", rmw)
	x := s.Sets["X"]
	putRel(s.Rels, "amo", rmw.Restrict(x, x))
	ex := s.Sets["EX"]
	putRel(s.Rels, "lxsx", rmw.Restrict(ex, ex))
}
