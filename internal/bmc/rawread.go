package bmc

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/smt"
)

// Reads of uninitialised memory (Options.RawRead): a read of a location
// RawRead names that reads the location's initial write is a failure of
// the reading thread, as the graph engine's memSafety makes it (package
// graph, uaf.go; GenMC's "attempt to read from uninitialized memory").
// The engine encodes it in the final value of the thread's failure
// register (Options.FaultReg): where such a read executes and its rf
// variable from the initial write is true, the register's final term is
// RawFault's value for the read's instruction, whatever the thread's
// code left there (the read came first: the thread would have stopped at
// it). The earliest such read of the thread in code order gives the
// value. Each event has a static location (a computed address is one
// event per location it may name), so the set of reads concerned is
// known before the solver runs, and the condition "the failure register
// is not 0" holds in exactly the consistent executions in which some
// read of the thread fails an assertion or reads uninitialised memory.
// Nothing else changes: the reads keep their values (the initial ones),
// so an execution is consistent, and reaches the same final state
// otherwise, exactly as without the option.

// rawFault wraps base, the final term of thread th's failure register,
// with the failures of its reads of uninitialised memory.
func (e *encoding) rawFault(th int, base smt.Term) smt.Term {
	p := e.p
	if th < 0 || th >= len(p.threadEvents) {
		return base
	}
	evs := p.threadEvents[th]
	for i := len(evs) - 1; i >= 0; i-- {
		r := p.events[evs[i]]
		if r.kind != event.Read || !e.rawLoc(r.loc) {
			continue
		}
		iw, ok := p.initOf[r.loc]
		if !ok {
			continue
		}
		v, ok := e.rf[[2]int{iw, r.id}]
		if !ok {
			continue // it cannot read the initial write
		}
		fault := e.ctx.IntVal(p.enc(e.opts.RawFault(th, r.node)))
		base = e.ctx.Ite(e.f.term(e.f.and(r.exec, v)), fault, base)
	}
	return base
}

// rawLoc is Options.RawRead, asked once per location.
func (e *encoding) rawLoc(loc string) bool {
	if b, ok := e.rawLocs[loc]; ok {
		return b
	}
	if e.rawLocs == nil {
		e.rawLocs = map[string]bool{}
	}
	b := e.opts.RawRead(loc)
	e.rawLocs[loc] = b
	return b
}
