package cfront

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
)

// A PASS under -target power through IMM (IMMForPower).
//
// Under -target power a C program's C11 events are compiled to Power
// (CompileFor) and checked against the Power model of Alglave, Maranget
// and Tautschnig, "Herding Cats" (TOPLAS 2014): the built-in power.cat.
// Only the SMT engine decides that model. The graph engine decides IMM
// (imm.cat; package graph's imm.go), and Podkopaev, Lahav and Vafeiadis,
// "Bridging the Gap between Programming Languages and Hardware Weak
// Memory Models" (POPL 2019), prove that the compilation of IMM to
// Power is correct: every execution of the compiled program that Power
// allows is, with the same events, reads-from and coherence order (so
// the same values read and written in every thread), an execution of the
// source that IMM allows. So when no IMM-consistent execution of the
// C-level program fails (an assertion, an invalid access, a use after
// free, a read of uninitialised memory) nor reaches the unroller's cut,
// no Power-consistent execution of its compilation does: the answer is
// PASS without the SMT engine. The converse does not hold (IMM allows
// behaviours the compiled program does not have on Power: the stronger
// fences Musket emits, below), so a failure or a cut found under IMM
// says nothing about Power: only a PASS is taken.
//
// The theorem is about a given mapping and about the paper's IMM. What
// each difference does:
//
// The mapping. The paper's scheme (its Coq development states it as the
// hypotheses of the IMM-to-Power proof, on the Power execution labelled
// with the IMM modes):
//
//	IMM                Power (paper)                   Musket (CompileFor)
//	R rlx (and plain)  ld                              lwz
//	R acq              ld; cmp; bc; isync  or          lwz; lwsync
//	                   ld; lwsync (both allowed: an
//	                   acquire read is followed by a
//	                   ctrl;isync or an lwsync)
//	W rlx (and plain)  st                              stw
//	W rel              lwsync; st                      lwsync; stw
//	F acq, rel, acqrel lwsync                          lwsync
//	F sc               sync                            sync
//	RMW (order o)      [lwsync if o releases];         [sync if o is sc, lwsync if
//	                   L: lwarx; cmp; bc Le; stwcx.;   it releases]; the pair (one
//	                   bc L; Le: [isync if o acquires] read, one write, in rmw);
//	                                                   [lwsync if o acquires]
//
// Reads and writes are the paper's. An acquire read followed by lwsync is
// one of the two forms the proof takes (an lwsync orders a read before
// every later access, and is cumulative). The RMWs differ: the paper's
// loop puts the read under a control dependency of everything after it
// (the proof's hypotheses rmw ⊆ ctrl ∪ data and [R_ex] ; po ⊆ ctrl),
// which is why IMM's ppo has [R_ex] ; po: IMM orders an RMW's read
// before every later write. Musket's pair has no such dependency. Its
// own write is still ordered after its read (po-loc from a read to a
// write is in power.cat's ppo), and when the RMW acquires, the lwsync
// after it orders its read before every later access; but a relaxed or
// release RMW leaves its read unordered with later writes, and Power
// then allows load buffering that IMM forbids (an exchange, relaxed,
// then a relaxed store that another thread's load feeds back into the
// exchanged location: testdata/immpower/lbrmw.c, FAIL under power, PASS
// under IMM). So every RMW must have its read ordered before every later
// write of its thread on every path of the compiled code (unfencedRMW):
// an lwsync or a sync comes first (an acquiring RMW's own lwsync; a
// fence; a release or SC store's fence), or a conditional jump on the
// value the RMW read (Power's ctrl orders a read before every later
// write: the usual compare-and-swap loop or test). IMM's ppo chains end
// at a write, and every write after the RMW is then ordered after its
// read by Power's ppo (ctrl, ic) or by its fences, both in Power's hb,
// where the proof puts the loop's ctrl (an earlier read a whose chain
// reaches the RMW's read, by deps and rfi, is before the same fence, or
// in Power's ii to the read and so in its ic to the write). A program
// with another RMW gets no shortcut.
//
// SC accesses. The paper's IMM-to-Power proof has none (its hypotheses
// put SC on fences only); Musket's imm.cat orders SC accesses and fences
// by RC11's partial SC order psc (Lahav, Vafeiadis, Kang, Hur, Dreyer,
// "Repairing Sequential Consistency in C/C++11", PLDI 2017), as GenMC's
// IMM does, and takes an SC read as at least acquire, an SC write as at
// least release. Musket compiles them with the leading-sync scheme
// (sync; lwz; lwsync, sync; stw, sync before and lwsync after an SC
// RMW), the Power scheme that paper gives for RC11's SC accesses: psc's
// acyclicity comes from Power's propagation and observation axioms
// through the sync before each SC access, not from RC11's acyclic
// po ∪ rf (which would need more of relaxed reads, and which imm.cat
// does not have: IMM's no-thin-air replaces it). With the sync before
// it, an SC access also has every fence of the paper's F sc ; R acq or
// F sc ; W rel translation, so IMM's own axioms hold as above. This
// part rests on the RC11 paper's result rather than on the IMM proof's
// hypotheses; the check against the SMT engine (below) covers it too.
//
// Plain accesses are relaxed ones in imm.cat, and compile as relaxed
// ones. Consume is relaxed in imm.cat and an acquire (lwz; lwsync) here:
// stronger. A fence of inline asm is Power's sync, lowered as a C11 SC
// fence (asm.go), which IMM and the mapping treat alike.
//
// What transfers. The correspondence keeps each thread's events, the
// values read and written, and reads-from. Everything Musket checks from
// a thread's own values transfers: an assertion, an invalid (null, out
// of bounds) access, a division by zero, a double free, the unroller's
// cut (a thread's %bound register). A read of uninitialised heap memory
// is a read whose reads-from is malloc's initial write: it transfers
// too. A use after free is an access to a freed object not ordered
// before the free's exchange (acq_rel: lwsync before and after it) by
// the model's order: IMM's happens-before hb (sb ∪ sw)+ in the graph
// engine, Power's hb (ppo ∪ fences ∪ rfe)+ in the SMT engine (bmc's
// uaf.go). Every hb step maps into Power's: a release write (or a
// release fence, or the first write of a release sequence) has an
// lwsync before it, which orders every earlier access before it and
// every later write of its thread; an acquire read (or an acquire
// fence after a read) has an lwsync after it, which orders it before
// every later access; reads-from across threads is rfe; the reads and
// writes of an RMW in a release sequence are ordered (po-loc); and a
// free after an access in the same thread has its lwsync between them.
// So an access not Power-hb-before the free is not IMM-hb-before it.
// Data races do not transfer (Power has none; -target power checks none).
//
// Dependencies. The compilation adds fences only: every register
// computation and jump of the C-level program is in the compiled one, so
// the addr, data and ctrl dependencies both engines compute (syntactic,
// from registers: bmc's ctrl.go, the graph engine's deps.go) are the
// same pairs of events.
//
// What breaks the argument, refused with its reason (the SMT engine then
// checks the program exactly as without the shortcut): mixed-size
// accesses (IMM's proof has one size; Power's parts tear), an RMW whose
// read a later write may overtake (above), an access or fence with a
// tag outside C11's (the Linux-kernel primitives: their Power mapping is
// not IMM's), an exclusive load or store-conditional, a program the
// compilation to Power refuses, any other model than the built-in
// power.cat, model variants, -races, -liveness and -explain. The graph
// engine itself
// refuses what its IMM decision does not cover (a nondeterministic value,
// for one), and its refusals, failures and cuts all go to the SMT
// engine.
//
// Checked against the SMT engine: TestIMMPowerAgrees runs both on a
// sample of the repository's C programs (MUSKET_LONG=1: all of them)
// and fails when the shortcut answers PASS where Power's SMT check does
// not; TestIMMPowerShapes shows the load buffering the RMW rule is for,
// and litmus shapes of SC accesses (Z6.U, IRIW, RWC, SB with a fence).

// immTags are the tags of the C11 accesses and fences whose mapping the
// argument covers: their orders, atomicity and RMW markers.
var immTags = map[string]bool{tagNA: true, tagA: true, tagRMW: true, tagX: true,
	"RLX": true, "CON": true, "ACQ": true, "REL": true, "ACQ_REL": true, "SC": true}

// immKernelTwins are the Linux-kernel kinds that an access carries
// beside the C11 order of the same meaning (the threads' start and end
// flags carry both, for the LKMM): with it, they add nothing.
var immKernelTwins = map[string]string{"ACQUIRE": "ACQ", "RELEASE": "REL"}

// IMMForPower returns the options of a check of p by the graph engine
// under IMM whose PASS is the answer of opts, a check under -target power
// (see above), or an error saying why p or opts are outside the
// argument.
func IMMForPower(p *Program, opts CheckOptions) (CheckOptions, error) {
	switch {
	case opts.Target != compile.Power:
		return opts, fmt.Errorf("not -target power")
	case opts.Model == nil || opts.Model.Path() != "builtin:power.cat":
		return opts, fmt.Errorf("the model is not the built-in power.cat")
	case len(opts.Variants) > 0:
		return opts, fmt.Errorf("model variants are set")
	case opts.Races:
		return opts, fmt.Errorf("-races: data races do not transfer from IMM to Power")
	case opts.Liveness:
		return opts, fmt.Errorf("-liveness: a livelock is not covered")
	case opts.Explain:
		return opts, fmt.Errorf("-explain asks the SMT engine's candidates")
	}
	t := p.Test
	if hasParts(t) {
		return opts, fmt.Errorf("mixed-size accesses")
	}
	// What the SMT engine would refuse or reject is left to it, to be
	// reported as without the shortcut.
	if err := p.checkAsmTarget(compile.Power); err != nil {
		return opts, err
	}
	if err := p.splitRMWError(opts); err != nil {
		return opts, err
	}
	if err := kernelOnlyError(t, opts.Model, opts.ModelName); err != nil {
		return opts, err
	}
	ct, err := CompileFor(t, compile.Power)
	if err != nil {
		return opts, err
	}
	for i, th := range t.Threads {
		for k, in := range th.Code {
			if err := immCovers(in); err != nil {
				return opts, fmt.Errorf("%s: %v", posAt(th, k, i), err)
			}
		}
	}
	for i, th := range ct.Threads {
		if k := unfencedRMW(th); k >= 0 {
			return opts, fmt.Errorf("%s: a read-modify-write that a write may follow before any lwsync or sync (IMM orders its read before every later write; Power, without the loop's control dependency, only through a fence)", posAt(th, k, i))
		}
	}
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		return opts, err
	}
	g := opts
	g.Engine, g.Target, g.Model, g.ModelName = "graph", "", m, "imm"
	return g, nil
}

// posAt names where instruction k of thread th (number i) comes from.
func posAt(th *prog.Thread, k, i int) string {
	if k < len(th.Pos) && th.Pos[k].Line > 0 {
		return th.Pos[k].String()
	}
	return fmt.Sprintf("thread P%d", i)
}

// immCovers says why the argument does not cover instruction in (nil
// when it does).
func immCovers(in prog.Instr) error {
	tags := func(what string, ts []string) error {
		for _, t := range ts {
			if same, ok := immKernelTwins[t]; ok && slices.Contains(ts, same) {
				continue // a thread's start or end flag (threads.go)
			}
			if !immTags[t] && !strings.HasPrefix(t, sizeTagPrefix) {
				return fmt.Errorf("%s tagged %s (outside C11's orders)", what, t)
			}
		}
		return nil
	}
	switch in := in.(type) {
	case prog.Load:
		return tags("a load", in.Tags)
	case prog.Store:
		return tags("a store", in.Tags)
	case prog.Fence:
		return tags("a fence", in.Tags)
	case prog.StoreCond:
		return fmt.Errorf("a store-conditional")
	case prog.Located:
		return fmt.Errorf("a Linux-kernel primitive")
	case prog.RMW:
		if in.Single {
			return fmt.Errorf("a single-event read-modify-write")
		}
		if err := tags("a read-modify-write", in.RTags); err != nil {
			return err
		}
		return tags("a read-modify-write", in.WTags)
	}
	return nil
}

// unfencedRMW is the first read-modify-write of th, a thread compiled
// for Power, from which some path of th's code reaches a write (a store,
// a read-modify-write, a store-conditional) that Power does not order
// after the RMW's read, or -1 when there is none. The write is ordered
// when an lwsync or a sync comes between (an acquiring RMW has its lwsync
// right after it; a later release or SC store has its own fence first),
// or when a conditional jump between depends on the value the RMW read:
// Power's ctrl orders a read before every later write (a failed
// compare-and-swap's branch, the usual CAS loop). cfront's jumps set no
// Join, so a control dependency covers the rest of the thread.
func unfencedRMW(th *prog.Thread) int {
	labels := map[string]int{}
	for k, in := range th.Code {
		if l, ok := in.(prog.Label); ok {
			labels[l.Name] = k
		}
	}
	for k, in := range th.Code {
		if r, ok := in.(prog.RMW); ok && !fencedAfter(th.Code, labels, k+1, r.Dst) {
			return k
		}
	}
	return -1
}

// fencedAfter tells whether every path of code from instruction k meets
// an lwsync, a sync, or a conditional jump that depends on register dst
// (as it is at k) before a write.
func fencedAfter(code []prog.Instr, labels map[string]int, k int, dst string) bool {
	type state struct {
		k     int
		taint string // the registers holding a value computed from dst's, sorted, comma-separated
	}
	key := func(t map[string]bool) string {
		ks := make([]string, 0, len(t))
		for r := range t {
			ks = append(ks, r)
		}
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	seen := map[state]bool{}
	type item struct {
		k     int
		taint map[string]bool
	}
	stack := []item{{k, map[string]bool{dst: true}}}
	if dst == "" {
		stack[0].taint = map[string]bool{}
	}
	uses := func(e prog.Expr, taint map[string]bool) bool {
		found := false
		prog.WalkExpr(e, func(x prog.Expr) {
			if r, ok := x.(prog.Reg); ok && taint[r.Name] {
				found = true
			}
		})
		return found
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k, taint := it.k, it.taint
	path:
		for ; k < len(code); k++ {
			st := state{k, key(taint)}
			if seen[st] {
				break
			}
			seen[st] = true
			switch in := code[k].(type) {
			case prog.Fence:
				if slices.Contains(in.Tags, "SYNC") || slices.Contains(in.Tags, "LWSYNC") {
					break path
				}
			case prog.Store, prog.RMW, prog.StoreCond:
				return false
			case prog.Assign:
				if uses(in.Val, taint) {
					taint = maps.Clone(taint)
					taint[in.Dst] = true
				} else if taint[in.Dst] {
					taint = maps.Clone(taint)
					delete(taint, in.Dst)
				}
				continue
			case prog.Jump:
				if in.Cond != nil && !in.NoCtrl && uses(in.Cond, taint) {
					break path // everything after depends on the read
				}
				t, ok := labels[in.Target]
				if !ok {
					return false // a jump out of the code: not vouched for
				}
				if in.Cond == nil {
					k = t - 1
					continue
				}
				stack = append(stack, item{t, taint})
				continue
			}
			// Any other register written (a load's, a nondeterministic
			// value's) no longer holds a value computed from dst's.
			for _, d := range prog.Defs(code[k]) {
				if taint[d] {
					taint = maps.Clone(taint)
					delete(taint, d)
				}
			}
		}
	}
	return true
}
