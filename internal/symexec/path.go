package symexec

import (
	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Event is what the explorer emits: an access, a fence or a located event
// of the path, which the engine's emitter turns into its own event type.
type Event struct {
	Kind     event.Kind
	Loc      string
	Tags     []string
	Val      *Sym  // the value written; for a read, ReadOf itself; nil for a fence
	AddrDeps []int // the reads the address depends on
	DataDeps []int // the reads the value written depends on
	// AddrPick and DataPick are the further reads the address and the
	// value written depend on by a pick only (Sym.Pick).
	AddrPick, DataPick []int
}

// Constraint requires that S evaluates to true (Want) or false (!Want).
type Constraint struct {
	S    *Sym
	Want bool
}

// Division is a division or remainder on a path: the candidates where its
// divisor is 0 perform a division by zero, an error of the program when
// the model allows one of them (see prog.DividesByZero).
type Division struct {
	Op      prog.Op
	Divisor *Sym
	At      string // file:line:col: thread
}

// Path is one control-flow path of a thread, with events of type E.
type Path[E any] struct {
	Events []E
	Cons   []Constraint
	Divs   []Division
	Regs   map[string]*Sym // the final registers
	Rmw    [][2]int        // read, write of an atomic pair (local indices)
	Iico   [][2]int        // iico_data: read -> write of one instruction, when the write depends on the read
	// Single are the rmw pairs that the model sees as one event
	// (prog.RMW.Single; event.Fusion).
	Single [][2]int
}

// State is a path being explored.
type State[E any] struct {
	PC    int // the instruction to run
	Instr int // the instance of the instruction PC (a further chunk of an access stays in its instance)
	Regs  map[string]*Sym
	P     *Path[E]

	ctrl   []int              // reads of the unscoped branches taken (ctrl.go)
	pctrl  []int              // further reads of their conditions by a pick (ctrl.go)
	scoped map[string][]int   // reads of the open scoped branches, per join label (ctrl.go)
	visits map[int]int        // backward jumps taken, per jump pc
	ll     int                // the latest load-reserve not yet consumed (local event index), -1 for none
	llLoc  string             // its location
	llMore []reservation      // the load-reserves of the further chunks of that access
	scHead int8               // the outcome of the latest store-conditional: 1 success, 2 failure (its further parts follow it)
	pins   map[int]prog.Value // the values the path's constraints fix for some reads (pins.go); never changed in place
	offs   []symPin           // the values they fix for some offsets added to an address (pins.go); never changed in place
}

// Fork returns a copy of st that may go its own way.
func (st *State[E]) Fork() *State[E] {
	regs := make(map[string]*Sym, len(st.Regs))
	for k, v := range st.Regs {
		regs[k] = v
	}
	visits := make(map[int]int, len(st.visits))
	for k, v := range st.visits {
		visits[k] = v
	}
	p := &Path[E]{
		Events: append([]E(nil), st.P.Events...),
		Cons:   append([]Constraint(nil), st.P.Cons...),
		Divs:   append([]Division(nil), st.P.Divs...),
		Rmw:    append([][2]int(nil), st.P.Rmw...),
		Iico:   append([][2]int(nil), st.P.Iico...),
		Single: append([][2]int(nil), st.P.Single...),
	}
	return &State[E]{PC: st.PC, Instr: st.Instr, Regs: regs, P: p, ctrl: st.ctrl, pctrl: st.pctrl, scoped: st.scoped, visits: visits, ll: st.ll, llLoc: st.llLoc, llMore: append([]reservation(nil), st.llMore...), scHead: st.scHead, pins: st.pins, offs: st.offs}
}

// reservation is a load-reserve of a further chunk of an exclusive load.
type reservation struct {
	ev  int
	loc string
}
