package gharachorloo

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/symexec"
)

// Each thread runs symbolically (package symexec, as in package enum):
// the result is the thread's paths, their memory operations and fences
// with symbolic values, their constraints and their final registers.
// This file builds the checker's events of the paths.

// path is a path of one thread.
type path = symexec.Path[pathEvent]

// pathEvent is a memory operation or a fence of a path.
type pathEvent struct {
	kind event.Kind // event.Read, event.Write or event.Fence
	loc  string
	tags []string
	val  *symexec.Sym // the value written (a read's: its own value)
}

func (e *pathEvent) has(tag string) bool {
	for _, t := range e.tags {
		if t == tag {
			return true
		}
	}
	return false
}

// newExplorer runs thread th; the instructions the checker does not know
// (locks, havoc) are refused.
func newExplorer(th *prog.Thread, labels map[string]int, bound int, locs []string, maxPaths int) *symexec.Explorer[pathEvent] {
	return &symexec.Explorer[pathEvent]{Th: th, Labels: labels, Bound: bound, Locs: locs, MaxPaths: maxPaths, Emit: emit}
}

// emit keeps what the specifications read of an event: its kind,
// location, tags and value.
func emit(_ *symexec.State[pathEvent], ev symexec.Event) pathEvent {
	return pathEvent{kind: ev.Kind, loc: ev.Loc, tags: ev.Tags, val: ev.Val}
}
