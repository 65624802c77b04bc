package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// Condition variables (pthread_cond_*, C11's cnd_*).
//
// Semantics. POSIX lets pthread_cond_wait return without a signal (a
// spurious wake-up), and pthread_cond_timedwait return ETIMEDOUT at any
// time; C11's cnd_wait and cnd_timedwait are the same. So a wait is, for
// every outcome a program can show, "unlock the mutex; some time later,
// lock it again": a wait returns whenever the mutex can be taken again,
// whether or not some thread signalled. pthread_cond_signal and
// pthread_cond_broadcast wake no one who could not wake without them:
// they are no event for the safety questions (but see -liveness below).
// PTHREAD_COND_INITIALIZER, pthread_cond_init and pthread_cond_destroy
// are no event. (A timed wait's result is
// chosen by a coin: 0 or ETIMEDOUT, thrd_success or thrd_timedout.)
//
// That alone makes every `while (!p) pthread_cond_wait(&c, &m);` loop go
// round to the bound: a waiter may wake, find p false and wait again,
// for ever. Such a round is cut as a spin loop's is. Let a wait W sit in
// a loop whose body writes nothing but by condition waits (the wait's
// innermost natural loop; no store, read-modify-write, allocation or
// call but the waits and the calls a spin loop may make). When the
// thread arrives at W again with W the last wait it returned from since
// it entered the loop, and every value of the loop that W's code after
// it can read (the SSA values defined in the loop in blocks dominating
// W, phis of the header included) is what it was at the previous
// arrival, the round from the previous return to this arrival read
// memory and changed nothing: the thread unlocks the mutex (the wait's
// first half) and stops there, asleep for good.
//
// Why no verdict is lost. Take any execution X of the program (every
// wait returning when it may) and in it a thread T that returned from W
// (its relock L1), ran a round R that wrote nothing, and arrived at W
// again in the same state, where it unlocked (U2) and went on. L1 R U2 is
// a critical section of the mutex that only reads. Remove it: the lock
// that read U2 reads the unlock that L1 read (both wrote "free"; no other
// write of the mutex comes between them while T held it, as POSIX
// requires of a mutex: only its owner unlocks it), and T's first wait
// now returns at the relock that followed U2, in the same state, so T's
// events after it are those of X. Every relation the models build on the
// remaining events is contained in X's (the removed events were between
// the unlock and the lock in happens-before, ordered-before and
// coherence, so the new reads-from edge was already a path of X), so the
// result is consistent under every model Musket has, and it shows every
// assertion X shows: those of T after the removed reads are computed from
// the same state, the other threads read the same writes. A data race of
// a removed read is shown by X's prefix that ends with it, in which T
// stops at W (the cut). Repeating this ends (each step removes events)
// in an execution the lowering explores.
//
// What a lost wake-up becomes. A waiter that is never signalled but
// whose predicate becomes true goes on (it may wake spuriously): no
// safety question depends on signals. A waiter whose predicate stays
// false stops at the cut, asleep: the execution is blocked (-stats of
// the graph engine counts it). With -liveness (Options.Liveness) the
// signals are counted too: pthread_cond_signal and _broadcast add 1 to
// the condition variable's first cell (a relaxed read-modify-write), a
// wait reads it (relaxed) before it unlocks, and after the unlock the
// waiter may also stop for good (a coin), as a waiter that no spurious
// wake-up saves. Then a thread stopped in a wait whose read of the count
// read its final value (no signal or broadcast came after it began to
// wait), or stopped at the cut with its last round's reads reading the
// final values (its predicate stays false), waits forever in a fair
// execution: LIVELOCK, at the wait's line, when every other thread
// ended or waits forever too (Dartagnan's liveness question). So a
// missing signal, and a signal sent before the waiter waits (a lost
// wake-up), are reported under -liveness; a signal that another waiter
// took is not (the count says a signal came): a possible miss, never a
// false alarm.
//
// A wait in an `if` (no loop) is exact: it returns, spuriously or not,
// and an assertion that relied on the predicate fails (the lost-wake-up
// bug of `if (!p) wait` is a FAIL).

// waitNames are the condition waits; timed ones map to the value a
// time-out returns.
var waitNames = map[string]int64{
	"pthread_cond_wait":      -1,
	"pthread_cond_timedwait": 110, // ETIMEDOUT
	"cnd_wait":               -1,
	"cnd_timedwait":          4, // thrd_timedout
}

func init() {
	for name, f := range map[string]callLowering{
		"pthread_cond_init":           (*lowerer).noEvent,
		"pthread_cond_destroy":        (*lowerer).noEvent,
		"pthread_cond_signal":         (*lowerer).condSignal,
		"pthread_cond_broadcast":      (*lowerer).condSignal,
		"pthread_condattr_init":       (*lowerer).noEvent,
		"pthread_condattr_destroy":    (*lowerer).noEvent,
		"pthread_condattr_setclock":   (*lowerer).noEvent,
		"pthread_condattr_setpshared": (*lowerer).noEvent,
		"cnd_init":                    (*lowerer).noEvent,
		"cnd_destroy":                 (*lowerer).noEvent,
		"cnd_signal":                  (*lowerer).condSignal,
		"cnd_broadcast":               (*lowerer).condSignal,
	} {
		knownCalls[name] = ownFirst(f)
	}
	for name := range waitNames {
		knownCalls[name] = ownFirst((*lowerer).condWait)
	}
}

// ownFirst lowers a call to a primitive of this file or posixsync.go by
// the program's own definition when it has one (a benchmark's own
// semaphore or barrier named as POSIX names it is what is checked), and
// by f otherwise.
func ownFirst(f callLowering) callLowering {
	return func(l *lowerer, cs *callSite) error {
		if d := l.funcs[cs.name]; d != nil && len(d.Blocks) > 0 {
			return l.inlineCall(cs)
		}
		return f(l, cs)
	}
}

// waitSite is a condition wait of a function whose loop can be cut.
type waitSite struct {
	idx    int       // its number in the function (from 1)
	header *ir.Block // its innermost loop's header
	state  []value.Named
	loads  []ir.Instruction // the loads of the loop (liveness: what the waiter reads)
}

// funcWaits are the condition waits of a function that sit in loops
// that can be cut, and those loops.
type funcWaits struct {
	sites map[*ir.InstCall]*waitSite
	heads map[*ir.Block]map[*ir.Block]bool // header: its loop's body
}

// posixState is what the lowering keeps for the POSIX primitives of
// this file and posixsync.go.
type posixState struct {
	waits    map[*ir.Func]*funcWaits
	heads    map[string]bool  // labels of the headers of the loops with a cut wait
	barriers map[string]int64 // a barrier's location: its count
	liveness bool             // signals are counted, waits may sleep for good
}

func (l *lowerer) posixOf() *posixState {
	if l.posix == nil {
		l.posix = &posixState{waits: map[*ir.Func]*funcWaits{}, heads: map[string]bool{}, barriers: map[string]int64{}}
	}
	return l.posix
}

// waitsOf finds the waits of f whose loop can be cut (once per function).
func (l *lowerer) waitsOf(f *ir.Func) *funcWaits {
	ps := l.posixOf()
	if fw, ok := ps.waits[f]; ok {
		return fw
	}
	fw := &funcWaits{sites: map[*ir.InstCall]*waitSite{}, heads: map[*ir.Block]map[*ir.Block]bool{}}
	ps.waits[f] = fw
	hasWait := false
	for _, b := range f.Blocks {
		for _, in := range b.Insts {
			if c, ok := in.(*ir.InstCall); ok {
				if _, w := waitNames[calleeName(c)]; w {
					hasWait = true
				}
			}
		}
	}
	if !hasWait || l.noSpin {
		return fw
	}
	succ, pred := edges(f)
	dom := dominators(f.Blocks, pred)
	loops := map[*ir.Block]map[*ir.Block]bool{}
	for _, b := range f.Blocks {
		for _, h := range succ[b] {
			if !dom[b][h] {
				continue
			}
			if loops[h] == nil {
				loops[h] = map[*ir.Block]bool{h: true}
			}
			addLoopBody(loops[h], b, pred)
		}
	}
	n := 0
	for _, blk := range f.Blocks {
		for i, in := range blk.Insts {
			c, ok := in.(*ir.InstCall)
			if !ok {
				continue
			}
			if _, w := waitNames[calleeName(c)]; !w {
				continue
			}
			var h *ir.Block
			for hh, body := range loops {
				if body[blk] && (h == nil || len(body) < len(loops[h]) || len(body) == len(loops[h]) && hh.Ident() < h.Ident()) {
					h = hh
				}
			}
			if h == nil {
				continue
			}
			body := loops[h]
			loads, ok := waitLoopReads(body)
			if !ok {
				continue
			}
			n++
			ws := &waitSite{idx: n, header: h, loads: loads}
			for _, x := range sortedBlocks(body) {
				if !dom[blk][x] {
					continue
				}
				insts := x.Insts
				if x == blk {
					insts = blk.Insts[:i]
				}
				for _, y := range insts {
					if v, ok := y.(value.Named); ok && hasValue(y) {
						ws.state = append(ws.state, v)
					}
				}
			}
			fw.sites[c] = ws
			fw.heads[h] = body
		}
	}
	return fw
}

// hasValue tells whether an instruction gives a value a register holds.
func hasValue(in ir.Instruction) bool {
	switch in := in.(type) {
	case *ir.InstCall:
		return !isVoid(in)
	case *ir.InstCmpXchg:
		return false // a pair: its parts are registers of their own
	case value.Named:
		return in.Type().String() != "void"
	}
	return false
}

// waitLoopReads tells whether a loop body writes nothing but by condition
// waits, and lists its loads.
func waitLoopReads(body map[*ir.Block]bool) ([]ir.Instruction, bool) {
	var loads []ir.Instruction
	for _, b := range sortedBlocks(body) {
		for _, in := range b.Insts {
			switch in := in.(type) {
			case *ir.InstStore, *ir.InstAlloca, *ir.InstAtomicRMW, *ir.InstCmpXchg:
				return nil, false
			case *ir.InstLoad:
				loads = append(loads, in)
			case *ir.InstCall:
				name := calleeName(in)
				if _, w := waitNames[name]; w {
					continue
				}
				if strings.HasPrefix(name, "llvm.dbg.") || strings.HasPrefix(name, "llvm.lifetime.") || strings.HasPrefix(name, "llvm.expect.") ||
					name == "__VERIFIER_assume" || name == "llvm.assume" || isDelayCall(name) ||
					strings.HasPrefix(name, "llvm.x86.sse2.pause") || isKnownAsm(in) {
					continue
				}
				return nil, false
			}
		}
	}
	return loads, true
}

// waitLastReg is the register of a function instance holding the number
// of the cut wait it last returned from in the loop it is in (0: none
// since it entered the loop).
func waitLastReg(fr *frame) string { return fr.prefix + "%wlast" }

func waitSnapReg(fr *frame, ws *waitSite, k int) string {
	return fmt.Sprintf("%s%%wsnap%d.%d", fr.prefix, ws.idx, k)
}

// waitEntry tells whether the edge from→to enters a loop with a cut wait
// (from outside it): the edge clears waitLastReg.
func (l *lowerer) waitEntry(fr *frame, from, to *ir.Block) bool {
	body := l.waitsOf(fr.f).heads[to]
	return body != nil && !body[from]
}

// waitEdge emits the code of an edge entering a loop with a cut wait.
func (l *lowerer) waitEdge(fr *frame, from, to *ir.Block) {
	if l.waitEntry(fr, from, to) {
		fr.b.emit(prog.Assign{Dst: waitLastReg(fr), Val: prog.Int(0)})
	}
}

// condWait lowers a condition wait (see the top of this file): the
// mutex unlocked, the cut, the mutex locked again.
func (l *lowerer) condWait(cs *callSite) error {
	b := cs.fr.b
	cv, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	m, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	var ws *waitSite
	if cs.in != nil {
		ws = l.waitsOf(cs.fr.f).sites[cs.in]
	}
	live := l.posixOf().liveness
	var count string
	if live {
		count = l.fresh("cvseq")
		b.emit(prog.Load{Dst: count, Addr: cv, Tags: []string{tagA, "RLX"}})
	}
	if l.ownedMutexes() {
		// One level of an owned mutex given back (mutexkind.go; a wait
		// by a thread that does not hold a normal one releases it, as
		// the unlock does).
		if err := l.ownedUnlockAt(b, m, cs.pos, "", false); err != nil {
			return err
		}
	} else {
		b.emit(prog.Store{Addr: m, Val: prog.Int(0), Tags: mutexWord([]string{tagA, "REL"})})
	}
	if ws != nil {
		fr := cs.fr
		var cond prog.Expr = prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: waitLastReg(fr)}, Y: prog.Int(int64(ws.idx))}
		for k, v := range ws.state {
			cond = prog.Bin{Op: prog.OpLAnd, X: cond, Y: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: fr.reg(v)}, Y: prog.Reg{Name: waitSnapReg(fr, ws, k)}}}
		}
		site := spinSite{pos: cs.pos, real: true}
		for _, ld := range ws.loads {
			if a, err := l.operand(fr, ld.(*ir.InstLoad).Src, cs.pos); err == nil {
				site.add(fr.reg(ld.(value.Named)), a)
			}
		}
		if len(ws.loads) == 0 {
			site.dyn = true // nothing read: never said to wait for good
		}
		l.spinAt(b, site)
		b.emit(prog.Jump{Cond: cond, Target: spinLabel})
		l.posixOf().heads[fr.blockLabel(ws.header)] = true
	}
	if live {
		// Asleep for good: waits forever when no signal came after the
		// count was read.
		c := l.coin(b)
		site := spinSite{pos: cs.pos, real: true}
		site.add(count, cv)
		l.spinAt(b, site)
		b.emit(prog.Jump{Cond: prog.Reg{Name: c}, Target: spinLabel})
	}
	if l.ownedMutexes() {
		l.ownedLockAt(b, m, cs.pos, "", true)
	} else {
		l.lockAt(b, m, cs.pos)
	}
	if ws != nil {
		fr := cs.fr
		for k, v := range ws.state {
			b.emit(prog.Assign{Dst: waitSnapReg(fr, ws, k), Val: prog.Reg{Name: fr.reg(v)}})
		}
		b.emit(prog.Assign{Dst: waitLastReg(fr), Val: prog.Int(int64(ws.idx))})
	}
	if cs.dst == "" {
		return nil
	}
	if to := waitNames[cs.name]; to > 0 {
		c := l.coin(b)
		b.emit(prog.Assign{Dst: cs.dst, Val: prog.Bin{Op: prog.OpMul, X: prog.Reg{Name: c}, Y: prog.Int(to)}})
		return nil
	}
	cs.returnZero()
	return nil
}

// waitCounts adds to counts (the loops' trip counts) the loops with a cut
// wait: unrolled max(bound, 2) times, so that the second arrival at the
// wait, where the cut is, is in the code.
func (l *lowerer) waitCounts(counts map[string]int, bound int) map[string]int {
	if l.posix == nil || len(l.posix.heads) == 0 {
		return counts
	}
	for h := range l.posix.heads {
		if _, known := counts[h]; known {
			continue
		}
		if counts == nil {
			counts = map[string]int{}
		}
		counts[h] = max(bound, 2)
	}
	return counts
}

// condSignal lowers pthread_cond_signal and _broadcast (cnd_*): no event,
// but under -liveness a relaxed increment of the condition variable's
// count of signals.
func (l *lowerer) condSignal(cs *callSite) error {
	cv, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	if l.posixOf().liveness {
		tags := []string{tagA, "RLX", tagRMW, tagX}
		cs.fr.b.emit(prog.RMW{Dst: l.fresh("cvseq"), Addr: cv, New: prog.Bin{Op: prog.OpAdd, X: prog.Old{}, Y: prog.Int(1)}, RTags: tags, WTags: tags})
	}
	cs.returnZero()
	return nil
}
