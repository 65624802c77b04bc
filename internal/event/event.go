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
	// PickAddr, PickData and PickCtrl are the further pairs of the pick
	// dependencies (herd7's AArch64 pick-addr-dep, pick-data-dep and
	// pick-ctrl-dep contain addr, data and ctrl): a read reaches the
	// address, the value or a branch condition only through a pick
	// (prog.OpPick).
	PickAddr, PickData, PickCtrl [][2]int
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
