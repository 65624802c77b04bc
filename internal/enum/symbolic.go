package enum

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/symexec"
)

// Each thread runs symbolically (package symexec); this file builds the
// engine's events of its paths.

type (
	sym   = symexec.Sym
	path  = symexec.Path[pathEvent]
	state = symexec.State[pathEvent]
)

// pathEvent is an event of one thread's path, before numbering.
type pathEvent struct {
	kind      event.Kind
	loc       string
	tags      []string
	val       *sym // value written; for reads, the value read
	instr, pc int
	addrDeps  []int
	dataDeps  []int
	ctrlDeps  []int
	// The further reads the address, the value and the control depend
	// on by a pick only (symexec.Sym.Pick).
	addrPick, dataPick, ctrlPick []int
}

// explorer runs one thread symbolically and collects its paths.
type explorer struct {
	*symexec.Explorer[pathEvent]
}

func newExplorer(th *prog.Thread, labels map[string]int, bound int, locs []string, maxPaths int, tick func() error) *explorer {
	x := &explorer{&symexec.Explorer[pathEvent]{Th: th, Labels: labels, Bound: bound, Locs: locs, MaxPaths: maxPaths, Tick: tick, Emit: emit}}
	x.Other = x.other
	return x
}

// emit builds the event ev at st's instruction, with its dependencies.
func emit(st *state, ev symexec.Event) pathEvent {
	return pathEvent{kind: ev.Kind, loc: ev.Loc, tags: ev.Tags, val: ev.Val, instr: st.Instr, pc: st.PC,
		addrDeps: ev.AddrDeps, dataDeps: ev.DataDeps, ctrlDeps: st.CtrlDeps(),
		addrPick: ev.AddrPick, dataPick: ev.DataPick, ctrlPick: st.CtrlPick()}
}

// other runs the instructions only this engine knows.
func (x *explorer) other(st *state, in prog.Instr) error {
	switch in := in.(type) {
	case prog.Located:
		return x.located(st, in)
	case prog.Havoc:
		return x.ErrAt(st, fmt.Errorf("%s: an arbitrary value (havoc) is not supported by the explicit engine, which enumerates values; use the SMT engine", in))
	}
	return x.ErrAt(st, fmt.Errorf("unsupported instruction %T", in))
}
