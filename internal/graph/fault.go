package graph

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Faults: an access outside every object (Options.Fault).
//
// A C program's every object has its cells in the test's initial state,
// so an access to a location with none is an access outside every object
// (a null pointer's field, %intN; an index past an object's end), which
// the SMT engine reports as a failure "invalid memory access": cfront's
// narrowing turns each access through a pointer into a branch over the
// cells it may reach, and the branch where none matches sets the
// failure register and jumps to the thread's end. A fault does the same
// here: the thread stops before the access, with Options.FaultReg set,
// and adds no event. The graph so built is the execution of the program
// in which that thread took the failure branch, and it is judged as any
// other: the exploration goes on (other threads run, and may revisit the
// read that gave the address, after which the thread replays and may not
// fault), and only a complete graph that the model accepts reaches
// complete(), where the failure register makes the test's condition
// true. A graph in which an address read from a stale write is null
// (msqueue.c's dequeue reading an old node's next) but which the model
// rejects is dropped as any inconsistent graph: its fault is never
// reported. Stopping the thread is sound for prefix-closed models, which
// are the ones the engine decides: the faulting thread's events are a
// prefix of what it would do, as after an assertion's failure.
//
// Under dependency tracking a revisit may keep events of the thread
// after one it removes; a replay that faults before such a kept event
// cannot drop it, so the run is refused there (faultKept) and left to
// the SMT engine.

// faultAt tells whether e, thread t's next event at instruction pc, is
// an access Options.Fault makes a fault of, and the value the fault
// register takes then.
func (x *engine) faultAt(e ev, t, pc int) (prog.Value, bool) {
	if x.opts.Fault == nil || e.kind == event.Fence {
		return prog.Value{}, false
	}
	if _, ok := x.initMem[e.loc]; ok {
		return prog.Value{}, false
	}
	return x.opts.Fault(t, pc), true
}

// faultKept refuses a fault at where (a position) that a replay meets
// before an event of its thread that a revisit kept.
func faultKept(where, loc string) error {
	return &UnsupportedError{fmt.Sprintf("%san access to %s, outside every object of the program (an invalid memory access), comes before an event a revisit kept: left to the SMT engine", where, loc)}
}
