package graph

import (
	"fmt"

	"github.com/musket-verify/musket/internal/event"
	"github.com/musket-verify/musket/internal/prog"
)

// Use after free (Options.FreedMark).
//
// cfront gives each heap object of a program that calls free a hidden
// mark cell; free(p) is an atomic exchange of 1 into the mark of p's
// object (cfront/free.go), so the first free of object O is the write
// right after the initial one in the mark's coherence order, f. free
// ends O's lifetime: an access to a cell of O that is not ordered before
// f, in the sense of the model, is undefined (C11 §7.22.3: the pointer's
// value is indeterminate once the space is deallocated; ASan reports a
// heap-use-after-free). The check is made on each complete graph the
// model accepts (complete()), so it is a property of an execution: its
// failure is reported, as a fault's is, by setting the failure register
// of the accessing thread (Options.FaultReg, to UseAfterFree(thread,
// instruction)); the thread is not stopped, its later events stay (an
// execution with undefined behaviour is a failure whatever follows).
//
// "Ordered before f", per model:
//
//   - rc11 and imm (C-level models): happens-before, (sb ∪ sw)+, walked as
//     hbview.go's hbPrefix does (the events of a thread that happen
//     before f form a prefix of it). This is the C standard's own
//     order: an access that does not happen before the free either races
//     with it or comes after it. IMM's hb is the same union of program
//     order and synchronisation through release sequences.
//   - sc: (po ∪ rf ∪ co ∪ fr)+. An sc graph stands for the interleavings
//     that are linear extensions of that order; when e is not before f in
//     it, adding f before e keeps it acyclic, so some interleaving of the
//     same graph performs e after the free; when e is before f, every
//     interleaving performs e first.
//   - tso (x86) and pso: ghb = (ppo ∪ fences ∪ implied ∪ rfe ∪ co ∪ fr)+,
//     the order tso.cat (pso.cat) requires acyclic: a TSO execution is a
//     linear order of memory events extending ghb (Owens, Sarkar, Sewell,
//     "A Better x86 Memory Model: x86-TSO"), and as under sc, e not ghb-
//     before f has one that performs e after f. The free's exchange is a
//     locked instruction: every access po-before it is ghb-before it.
//   - aarch64: ordered-before, ob = (obs ∪ lob)+ (aarch64.cat's external
//     axiom, as armNative builds it): the order in which the events are
//     performed in the multicopy-atomic model (Pulte, Flur, Deacon,
//     French, Sarkar, Sewell, "Simplifying ARM Concurrency: Multicopy-
//     Atomic Axiomatic and Operational Models for ARMv8"); an access not
//     ob-before f may be performed after it.
//   - riscv: the global memory order's steps, ppo ∪ rfe ∪ co ∪ fr (RVWMO,
//     as rvNative builds it), with an AMO one node: an access not before
//     f in it may come after f in the global memory order.
//
// Any other model: the run is refused (UnsupportedError) when a graph
// has a freed object's cell accessed.
//
// The end of a local's or a thread-local's lifetime (cfront's
// lifetime.go) is a plain write of 1 to the object's mark, no exchange:
// it is no instruction of the machine, and must not order the thread's
// accesses. Its first write is found as a free's is (the write after the
// initial one in coherence), and an access is before it when the model's
// order says so, as above, or when the access is the owner thread's own,
// earlier in program order: the frame is reused by that thread only,
// which sees its own accesses in order (under rc11, imm, sc and tso the
// order contains it already; under aarch64 and riscv a plain write is not
// ordered after every earlier access).

// uafOrder is how useAfterFree decides "ordered before the free".
type uafOrder int

const (
	uafNone uafOrder = iota
	uafHB            // rc11, imm: happens-before
	uafSC            // sc: po ∪ com
	uafTSO           // tso: ghb
	uafPSO           // pso: ghb
	uafARM           // aarch64: ob
	uafRV            // riscv: the global order's steps
)

// uafOrderFor is the order of model name (uafNone: not decided).
func uafOrderFor(name string) uafOrder {
	switch normModel(name) {
	case "rc11", "imm":
		return uafHB
	case "sc":
		return uafSC
	case "tso", "x86tso":
		return uafTSO
	case "pso":
		return uafPSO
	case "aarch64":
		return uafARM
	case "riscv":
		return uafRV
	}
	return uafNone
}

// Reads of uninitialised memory (Options.Raw): the contents of an object
// malloc makes are indeterminate until written (C11 7.22.3.4), and GenMC
// reports a read of such a cell that reads its initial write ("attempt
// to read from uninitialized memory") rather than give it a value. The
// same check is made here, on each complete graph the model accepts: a
// read, in any thread, whose write is the cell's initial write sets the
// reading thread's failure register. It is a property of the execution
// (another execution of the program, where the read reads a program
// write, is judged on its own), so the models' differences show: a read
// that may miss the initialising write under a weak model fails there.

// memSafety checks the complete, consistent graph g for a read of
// uninitialised memory (Options.Raw), then for a use after free
// (Options.FreedMark). When it finds one, it returns regs with the
// thread's failure register set (when it was zero), else regs as they
// are.
func (x *engine) memSafety(g *graph, regs []regFile) ([]regFile, error) {
	if x.opts.Raw != nil {
		for _, th := range g.threads {
			for _, y := range th {
				ey := &g.evs[y]
				if ey.kind != event.Read || ey.rf < 0 || g.evs[ey.rf].thread >= 0 {
					continue
				}
				raw, ok := x.rawLocs[ey.loc]
				if !ok {
					raw = x.opts.Raw(ey.loc)
					if x.rawLocs == nil {
						x.rawLocs = map[string]bool{}
					}
					x.rawLocs[ey.loc] = raw
				}
				if raw {
					return x.failAt(regs, ey.thread, x.opts.RawRead(ey.thread, ey.pc))
				}
			}
		}
	}
	if x.opts.FreedMark == nil {
		return regs, nil
	}
	return x.useAfterFree(g, regs)
}

// failAt is regs with thread t's failure register set to v. A failure
// it held already (an assertion's, a fault's) is replaced: the thread
// stopped there, so the access found here came before it, and is the
// execution's first error in the thread.
func (x *engine) failAt(regs []regFile, t int, v prog.Value) ([]regFile, error) {
	if t >= len(regs) || regs[t].ct == nil {
		return regs, nil
	}
	i, ok := regs[t].ct.slot[x.opts.FaultReg]
	if !ok || i >= len(regs[t].v) {
		return regs, fmt.Errorf("internal error: thread %d has no failure register %s", t, x.opts.FaultReg)
	}
	out := append([]regFile(nil), regs...)
	vs := append([]prog.Value(nil), regs[t].v...)
	vs[i] = v
	out[t] = regFile{ct: regs[t].ct, v: vs}
	return out, nil
}

// useAfterFree checks the complete, consistent graph g for an access to
// a freed object's cell not ordered before the free (see above).
func (x *engine) useAfterFree(g *graph, regs []regFile) ([]regFile, error) {
	type access struct{ e, free int }
	var accs []access
	for _, th := range g.threads {
		for _, y := range th {
			ey := &g.evs[y]
			if ey.kind != event.Read && ey.kind != event.Write {
				continue
			}
			m, ok := x.uafMarks[ey.loc]
			if !ok {
				m = x.opts.FreedMark(ey.loc)
				if x.uafMarks == nil {
					x.uafMarks = map[string]string{}
				}
				x.uafMarks[ey.loc] = m
			}
			if m == "" {
				continue
			}
			if o := g.co[m]; len(o) >= 2 {
				accs = append(accs, access{y, o[1]})
			}
		}
	}
	if len(accs) == 0 {
		return regs, nil
	}
	before, err := x.uafBefore(g)
	if err != nil {
		return regs, err
	}
	var pos []int
	for _, a := range accs {
		b := before(a.e, a.free)
		if x.opts.CrossCheck {
			if err := x.uafCross(g, a.e, a.free, b); err != nil {
				return regs, err
			}
		}
		if ef := &g.evs[a.free]; !b && !ef.rmwW && g.evs[a.e].thread == ef.thread {
			// The end of a lifetime, after the owner's own access in
			// program order (see above).
			if pos == nil {
				pos = x.poIndex(g)
			}
			b = pos[a.e] < pos[a.free]
		}
		if b {
			continue
		}
		e := &g.evs[a.e]
		return x.failAt(regs, e.thread, x.opts.UseAfterFree(e.thread, e.pc, e.loc))
	}
	return regs, nil
}

// uafBefore gives, for complete consistent g, whether event a is ordered
// before event f under the model (see above).
func (x *engine) uafBefore(g *graph) (func(a, f int) bool, error) {
	switch x.uafOrd {
	case uafHB:
		pos := x.poIndex(g)
		return func(a, f int) bool {
			ef := &g.evs[f]
			have := x.hbPrefix(g, ef.thread, pos[f]+1)
			ea := &g.evs[a]
			return ea.thread >= 0 && pos[a] < have[ea.thread]
		}, nil
	case uafSC, uafTSO, uafPSO:
		k := map[uafOrder]nativeModel{uafSC: nativeSC, uafTSO: nativeTSO, uafPSO: nativePSO}[x.uafOrd]
		if !x.chk.consistent(k, g, nil) {
			return nil, fmt.Errorf("internal error: a complete graph the model accepted fails its native check: %s", x.dump(g))
		}
		return reach(x.chk.adj, nil), nil
	case uafARM:
		if !x.armNative(g) {
			return nil, fmt.Errorf("internal error: a complete graph the model accepted fails its native check: %s", x.dump(g))
		}
		return reach(x.arena.armOb, nil), nil
	case uafRV:
		if !x.rvNative(g) {
			return nil, fmt.Errorf("internal error: a complete graph the model accepted fails its native check: %s", x.dump(g))
		}
		return reach(x.arena.rv.gord, x.arena.rv.rep), nil
	}
	return nil, &UnsupportedError{fmt.Sprintf("a heap object is accessed and freed: the graph engine decides a use after free under rc11, imm, sc, tso, pso, aarch64 and riscv, not under %s", x.res.Model)}
}

// poIndex is each event's index in its thread (-1: an initial write).
func (x *engine) poIndex(g *graph) []int {
	pos := make([]int, len(g.evs))
	for i := range pos {
		pos[i] = -1
	}
	for _, th := range g.threads {
		for k, y := range th {
			pos[y] = k
		}
	}
	return pos
}

// reach tells whether b is reachable from a by the steps succ (over the
// nodes rep maps events to, when not nil), one search per target b,
// remembered.
func reach(succ [][]int, rep []int) func(a, b int) bool {
	node := func(e int) int {
		if rep != nil {
			return rep[e]
		}
		return e
	}
	anc := map[int][]bool{}
	return func(a, b int) bool {
		b = node(b)
		in, ok := anc[b]
		if !ok {
			pred := make([][]int, len(succ))
			for u, vs := range succ {
				for _, v := range vs {
					pred[v] = append(pred[v], u)
				}
			}
			in = make([]bool, len(succ))
			stack := []int{b}
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, u := range pred[v] {
					if !in[u] {
						in[u] = true
						stack = append(stack, u)
					}
				}
			}
			anc[b] = in
		}
		return in[node(a)]
	}
}

// uafCross checks useAfterFree's answer b (e is ordered before f) another
// way, under Options.CrossCheck: under rc11, against the native check's
// happens-before (native.go, rc11vc.go); under sc, tso, pso, aarch64 and
// riscv, e is before f exactly when an edge from f to e closes a cycle
// of the (acyclic) order, which the native checks' cycle searches tell.
// (Not under imm, whose hb is inside immConsistent.)
func (x *engine) uafCross(g *graph, e, f int, b bool) error {
	want, known := false, true
	switch x.uafOrd {
	case uafHB:
		if normModel(x.res.Model) != "rc11" {
			return nil
		}
		if !x.chk.consistent(nativeRC11, g, nil) {
			return fmt.Errorf("internal error: a complete graph rc11 accepted fails its native check: %s", x.dump(g))
		}
		want = x.chk.hbHas(e, f)
	case uafSC, uafTSO, uafPSO:
		c := &x.chk
		c.edge(f, e)
		want = !c.acyclic()
		c.adj[f] = c.adj[f][:len(c.adj[f])-1]
	case uafARM:
		succ := x.arena.armOb
		succ[f] = append(succ[f], e)
		want = cyclic(succ)
		succ[f] = succ[f][:len(succ[f])-1]
	case uafRV:
		succ, rep := x.arena.rv.gord, x.arena.rv.rep
		succ[rep[f]] = append(succ[rep[f]], rep[e])
		want = cyclic(succ)
		succ[rep[f]] = succ[rep[f]][:len(succ[rep[f]])-1]
	default:
		known = false
	}
	if known && want != b {
		return fmt.Errorf("internal error: use after free: the engine says the access %d is ordered before the free %d: %v, the cross-check %v: %s", e, f, b, want, x.dump(g))
	}
	return nil
}
