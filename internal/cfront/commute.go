package cfront

import (
	"github.com/musket-verify/musket/internal/result"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Commuting read-modify-writes, for the graph engine under rc11 and sc.
//
// A relaxed atomic_fetch_add (sub, or, and, xor) whose result the
// program never uses, on a location x that every thread but main only
// updates that way with the same operation, and that main reads only
// once the threads are done: the order in which the threads' updates
// reach x decides only the intermediate values of x, which nothing
// reads. The graph engine still builds one graph per coherence order of
// the updates: n! per location, multiplied over the locations
// (cw4/fetchops: 6^6 = 46,656 executions, 177,165 graphs). GenMC does
// the same: its front end marks such an update non-value-returning
// (NoRetFai), which it uses for the Linux kernel model's smp_rmb, not to
// merge the orders.
//
// commuteRMWs rewrites the program P into P', in which the orders are
// not there to explore:
//
//   - each such update of x by thread k goes to a location of its own,
//     %accI.k (I numbers x), whose initial value is the operation's
//     identity (0; all ones for and): thread k accumulates its own
//     updates, in program order, with the same instruction (the same
//     memory order, operand and wrap to the type's width);
//   - thread k writes 1 to %cend.k, with the release store of its end
//     flag's tags, right before that store (%done.k);
//   - before each read of x by main, main reads %cend.k with acquire for
//     each thread k that updates x, and when one is not 1 it fails with
//     commuteBroken (below); after the read of x (which now reads x's
//     initial value: nothing else writes x in P'), main reads each
//     %accI.k (relaxed) and combines it into the register, with the
//     operation and the wrap.
//
// Conditions (commuteFor, per location x; any other access that may
// touch x, by the address analysis of narrowcells.go, drops x, and an
// access the analysis does not place drops the rewrite): every write of
// x is such an update (a prog.RMW with no condition, tags A, RLX, RMW,
// X only, its Dst read nowhere in its thread nor by the test's
// condition, New = W(old ∘ e) with e free of old, ∘ one operation of
// add/sub, or, and, xor for all of x's updates, and W the same wrap
// for all: none, 64 bits, or cfront's wrap to N bits, so that W(v) ≡ v
// and W depends only on v modulo 2^N, N = 64 without a wrap), in a
// thread other than main that ends by its %done flag; every other
// access of x is a plain read in main; the program has no fence; x is
// no heap cell (no free, no use after free to look for), holds an
// integer initially, and is no symmetric copy's (the rewrite is not
// made when the symmetry reduction applies).
//
// Why P' answers as P does (under rc11 and sc). The ops are commutative
// and associative modulo 2^N, and W keeps values modulo 2^N, so any
// order of x's updates ends with W(init ∘ e1 ∘ … ∘ en), which is what
// main computes in P' from x's initial value and the accumulators.
//
//   - P' → P. Let G' be a consistent execution of P' in which every
//     read of %cend.k by main read 1 (else main failed commuteBroken,
//     below). That read is an acquire reading the release write of
//     %cend.k, so thread k's updates happen before main's read of x.
//     Take a linear extension L of po ∪ rf of G' (acyclic under rc11;
//     under sc, G''s total order) in which each update's read and write
//     are adjacent (nothing but its read enters its write). Let G be G'
//     without the reads of %cend and %acc, with x's updates on x in the
//     order of L (each reading the one before, the first x's initial
//     write) and main's reads of x reading the last. G is an execution
//     of P: the threads' values are those of G' (the updates' results
//     are unused; main's read of x gets the combined value of G').
//     Under rc11 it is consistent: happens-before on the other events
//     is that of G' minus the %cend synchronisation (relaxed updates of
//     a location no release writes and no fences make no sw; fewer hb
//     edges keep coherence and psc acyclic), x's coherence follows L,
//     which extends hb, main's reads read the coherence-last write, no
//     SC event gets an mo or rb edge on x, and po ∪ rf is acyclic: every
//     edge of G goes forward in L. Under sc every edge of G goes forward
//     in L too. Its assertions and its cut are those of G'.
//   - P → P'. Let G be a consistent execution of P. If in G each thread
//     k that updates x ended (wrote %done.k) before, in happens-before,
//     each read of x by main, let G' have %cend.k written before %done.k
//     and read by main (1), each thread's updates on its own %accI.k in
//     program order, and main's reads of %accI.k reading the last: hb
//     is G's (the %cend edges are already in hb), every new rf and co
//     edge goes along po or hb, and G' is consistent with G's values,
//     assertions and races. If not, some main read of x has a thread k
//     whose end is not before it: main's read of %cend.k may read the
//     initial 0 (no write of it happens before), and that execution of
//     P' fails commuteBroken.
//   - So when the run of P' meets no commuteBroken failure, its verdict
//     is P's; when it meets one, checkGraph runs P itself (as the
//     symmetry reduction starts again without itself: Stats.SymOff).
//     A failure of another assertion found first is P's: the events
//     before it map back as above (main's reads of x come after its
//     checks), and rc11 and sc are extensible.
const commuteBroken = int64(1) << 40

// commuteFam is one kind of update: its operation and its wrap.
type commuteFam struct {
	op      prog.Op // OpAdd (for add and sub), OpOr, OpAnd, OpXor
	wrapKey string
	wrapped func(prog.Expr) prog.Expr
}

// ident is the identity of the family's operation, wrapped.
func (f commuteFam) ident() int64 {
	if f.op != prog.OpAnd {
		return 0
	}
	if f.wrapKey == "1" {
		return 1
	}
	return -1
}

// commutePlan is what commuteFor found: the locations main reads at a
// constant address (xs), the families of the updates (fams), the
// threads whose updates go to accumulators (by their end flag's
// number), and each candidate update's family (by thread and pc).
type commutePlan struct {
	xs      []string
	fams    []commuteFam
	threads map[int]string // thread -> the number of its %done flag
	update  map[[2]int]int // (thread, pc) of a redirected update -> family
	moved   int
}

// commuteHole stands for the operation inside a wrap.
var commuteHole = prog.Reg{Name: "%commute.hole"}

// commuteShape splits an RMW's New into W(old ∘ e): the operation, the
// wrap (W applied to an expression) and its key, and whether it has that
// shape.
func commuteShape(e prog.Expr) (op prog.Op, key string, w func(prog.Expr) prog.Expr, ok bool) {
	var inner prog.Bin
	var path []prog.Bin // the wrap's Bins from the top, the operation on X
	cur := e
	for {
		b, isBin := cur.(prog.Bin)
		if !isBin {
			return 0, "", nil, false
		}
		if commuteOp(b) {
			inner = b
			break
		}
		path = append(path, b)
		cur = b.X
	}
	op = inner.Op
	if op == prog.OpSub {
		op = prog.OpAdd
	}
	rebuild := func(x prog.Expr) prog.Expr {
		for i := len(path) - 1; i >= 0; i-- {
			x = prog.Bin{Op: path[i].Op, X: x, Y: path[i].Y}
		}
		return x
	}
	wrapOf := rebuild(commuteHole)
	switch {
	case len(path) == 0:
		key = "none"
	case reflect.DeepEqual(wrapOf, wrap64(commuteHole)):
		key = "64"
	default:
		for bits := uint64(1); bits < 64; bits++ {
			if reflect.DeepEqual(wrapOf, wrap(commuteHole, bits)) {
				key = fmt.Sprint(bits)
				break
			}
		}
		if key == "" {
			return 0, "", nil, false
		}
	}
	return op, key, rebuild, true
}

// commuteOp tells whether b is old ∘ e (or e ∘ old for a commutative
// ∘) with e free of old.
func commuteOp(b prog.Bin) bool {
	switch b.Op {
	case prog.OpAdd, prog.OpAnd, prog.OpOr, prog.OpXor:
		if _, ok := b.Y.(prog.Old); ok && !hasOld(b.X) {
			return true
		}
		fallthrough
	case prog.OpSub:
		_, ok := b.X.(prog.Old)
		return ok && !hasOld(b.Y)
	}
	return false
}

func hasOld(e prog.Expr) bool {
	found := false
	prog.WalkExpr(e, func(e prog.Expr) {
		if _, ok := e.(prog.Old); ok {
			found = true
		}
	})
	return found
}

// commuteTags are the only tags an update may have (a relaxed atomic
// read-modify-write).
var commuteTags = map[string]bool{tagA: true, "RLX": true, tagRMW: true, tagX: true}

func relaxedRMW(in prog.RMW) bool {
	if in.Cond != nil || in.FailRTags != nil || in.Part || in.Single {
		return false
	}
	for _, ts := range [][]string{in.RTags, in.WTags} {
		if len(ts) == 0 {
			return false
		}
		for _, t := range ts {
			if !commuteTags[t] {
				return false
			}
		}
	}
	return true
}

// doneFlag is the number of the end flag (%done.N) thread th writes at
// its end, with the tags of that store; "" when it has none, or several.
func doneFlag(th *prog.Thread) (string, []string) {
	loc, tags := "", []string(nil)
	for _, in := range th.Code {
		if st, ok := in.(prog.Store); ok {
			if c, ok := st.Addr.(prog.Const); ok && c.V.IsAddr() && strings.HasPrefix(c.V.Loc, "%done.") {
				if loc != "" && loc != c.V.Loc {
					return "", nil
				}
				loc, tags = c.V.Loc, st.Tags
			}
		}
	}
	return strings.TrimPrefix(loc, "%done."), tags
}

// regsRead are the registers thread th reads.
func regsRead(th *prog.Thread) map[string]bool {
	out := map[string]bool{}
	for _, in := range th.Code {
		for _, e := range prog.Exprs(in) {
			prog.WalkExpr(e, func(e prog.Expr) {
				if r, ok := e.(prog.Reg); ok {
					out[r.Name] = true
				}
			})
		}
	}
	return out
}

// commuteLocOf is the location of a constant address, or "".
func commuteLocOf(a prog.Expr) string {
	if c, ok := a.(prog.Const); ok && c.V.IsAddr() {
		return locName(c.V.Loc, c.V.Int)
	}
	return ""
}

// commuteMaxLocs bounds the locations the rewrite takes: each access at
// a computed address gets a test per location.
const commuteMaxLocs = 8

// commuteFor plans the rewrite of q (see above); nil when it does not
// apply.
func commuteFor(p *Program, q *spec.Test) *commutePlan {
	if len(q.Threads) < 3 {
		return nil // main and at least two threads
	}
	for _, th := range q.Threads {
		exits := 0
		for _, in := range th.Code {
			switch in := in.(type) {
			case prog.Label:
				if in.Name == exitLabel {
					exits++
				}
			case prog.Fence, prog.Located:
				return nil
			}
			if prog.IsPart(in) {
				return nil
			}
		}
		if exits != 1 || th.Sizes != nil {
			return nil // no one place for a failure
		}
	}
	init := map[string]prog.Value{}
	for _, e := range q.Init {
		if !e.Ref.IsReg() {
			init[e.Ref.Name] = e.Val
		}
	}
	condRegs := map[string]bool{}
	for _, c := range []spec.Cond{q.Cond, q.Filter} {
		if c != nil {
			for _, r := range spec.Refs(c) {
				condRegs[r.Name] = true
			}
		}
	}
	for _, r := range q.Locations {
		condRegs[r.Name] = true
	}
	// The locations: read by main at a constant address, accessed at a
	// constant address by nothing else.
	mainReads, other := map[string]bool{}, map[string]bool{}
	for ti, th := range q.Threads {
		for _, in := range th.Code {
			a, ok := prog.AddrOf(in)
			if !ok {
				continue
			}
			x := commuteLocOf(a)
			if x == "" {
				continue
			}
			if _, isLoad := in.(prog.Load); isLoad && ti == 0 {
				mainReads[x] = true
			} else {
				other[x] = true
			}
		}
	}
	plan := &commutePlan{threads: map[int]string{}, update: map[[2]int]int{}}
	for x := range mainReads {
		v, ok := init[x]
		if other[x] || !ok || v.IsAddr() || strings.HasPrefix(x, "%") {
			continue
		}
		if p != nil && (p.heaps != nil && p.freedMark(x) != "" || p.raw != nil && p.rawCell(x)) {
			continue
		}
		plan.xs = append(plan.xs, x)
	}
	if len(plan.xs) == 0 || len(plan.xs) > commuteMaxLocs {
		return nil
	}
	sort.Strings(plan.xs)
	// The updates: relaxed, unused result, of a commuting shape, at a
	// computed address, in a thread that ends by its own flag.
	fams := map[[2]interface{}]int{}
	updaters := map[int]bool{}
	for ti, th := range q.Threads {
		if ti == 0 {
			continue
		}
		done, _ := doneFlag(th)
		if done == "" {
			continue
		}
		read := regsRead(th)
		for pc, in := range th.Code {
			rmw, ok := in.(prog.RMW)
			if !ok || commuteLocOf(rmw.Addr) != "" || !relaxedRMW(rmw) || read[rmw.Dst] || condRegs[rmw.Dst] {
				continue
			}
			op, key, w, ok := commuteShape(rmw.New)
			if !ok {
				continue
			}
			k := [2]interface{}{op, key}
			j, seen := fams[k]
			if !seen {
				j = len(plan.fams)
				fams[k] = j
				plan.fams = append(plan.fams, commuteFam{op: op, wrapKey: key, wrapped: w})
			}
			plan.update[[2]int{ti, pc}] = j
			plan.threads[ti] = done
			updaters[ti] = true
		}
	}
	if len(updaters) < 2 || 1+len(plan.xs)*len(plan.fams) > 62 {
		return nil
	}
	return plan
}

// bit is the bit of %commute.used that says a thread updated xs[i]
// with family j.
func (pl *commutePlan) bit(i, j int) int64 { return int64(1) << (1 + i*len(pl.fams) + j) }

func (pl *commutePlan) acc(i, j int, done string) string {
	return fmt.Sprintf("%%acc%d.%d.%s", i, j, done)
}

// commuteRMWs is P' (see above) for plan pl.
func commuteRMWs(q *spec.Test, pl *commutePlan) *spec.Test {
	pl.moved = 0
	out := *q
	out.Init = append([]spec.InitEntry(nil), q.Init...)
	out.Threads = make([]*prog.Thread, len(q.Threads))
	var ks []int
	for k := range pl.threads {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	for _, k := range ks {
		done := pl.threads[k]
		out.Init = append(out.Init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: "%cend." + done}, Val: prog.IntValue(0)})
		for i := range pl.xs {
			for j, f := range pl.fams {
				out.Init = append(out.Init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: pl.acc(i, j, done)}, Val: prog.IntValue(f.ident())})
			}
		}
	}
	reg := func(n string) prog.Expr { return prog.Reg{Name: n} }
	broken := func(i int) string { return fmt.Sprintf("%%commute.broken%d", i) }
	bin := func(op prog.Op, x, y prog.Expr) prog.Expr { return prog.Bin{Op: op, X: x, Y: y} }
	n := 0
	for ti, th := range q.Threads {
		nt := *th
		nt.Code, nt.Pos = nil, nil
		var pos prog.Pos
		emit := func(in prog.Instr) {
			nt.Code = append(nt.Code, in)
			if len(th.Pos) > 0 {
				nt.Pos = append(nt.Pos, pos)
			}
		}
		label := func(what string) string { n++; return fmt.Sprintf("%%commute.%s%d", what, n) }
		done, doneTags := pl.threads[ti], []string(nil)
		if done != "" {
			_, doneTags = doneFlag(th)
			emit(prog.Assign{Dst: "%commute.used", Val: prog.Int(0)})
		}
		for pc, in := range th.Code {
			pos = prog.Pos{}
			if pc < len(th.Pos) {
				pos = th.Pos[pc]
			}
			if lb, ok := in.(prog.Label); ok && lb.Name == exitLabel {
				// the failures when the rewrite does not hold for xs[i]
				for i := range pl.xs {
					emit(prog.Jump{Target: exitLabel})
					emit(prog.Label{Name: broken(i)})
					emit(prog.Assign{Dst: failReg, Val: prog.Int(commuteBroken + int64(i))})
				}
				emit(in)
				continue
			}
			a, isAccess := prog.AddrOf(in)
			if !isAccess {
				emit(in)
				continue
			}
			if x := commuteLocOf(a); x != "" {
				i := sort.SearchStrings(pl.xs, x)
				ld, isLoad := in.(prog.Load)
				if i == len(pl.xs) || pl.xs[i] != x || !isLoad || ti != 0 {
					if st, ok := in.(prog.Store); ok && done != "" && strings.HasPrefix(x, "%done.") {
						emit(prog.Store{Addr: prog.Addr("%cend." + done), Val: bin(prog.OpOr, reg("%commute.used"), prog.Int(1)), Tags: doneTags})
						_ = st
					}
					emit(in)
					continue
				}
				// main's read of xs[i]: every updating thread ended
				// before, one family at most, then the accumulators.
				emit(prog.Assign{Dst: "%commute.used", Val: prog.Int(0)})
				for _, k := range ks {
					emit(prog.Load{Dst: "%commute.end", Addr: prog.Addr("%cend." + pl.threads[k]), Tags: []string{tagA, "ACQ"}})
					emit(prog.Jump{Cond: bin(prog.OpNe, bin(prog.OpAnd, reg("%commute.end"), prog.Int(1)), prog.Int(1)), Target: broken(i)})
					emit(prog.Assign{Dst: "%commute.used", Val: bin(prog.OpOr, reg("%commute.used"), reg("%commute.end"))})
				}
				var mask int64
				for j := range pl.fams {
					mask |= pl.bit(i, j)
				}
				emit(prog.Assign{Dst: "%commute.fams", Val: bin(prog.OpAnd, reg("%commute.used"), prog.Int(mask))})
				emit(prog.Jump{Cond: bin(prog.OpAnd, reg("%commute.fams"), bin(prog.OpSub, reg("%commute.fams"), prog.Int(1))), Target: broken(i)})
				emit(in)
				for j, f := range pl.fams {
					skip := label("skip")
					emit(prog.Jump{Cond: bin(prog.OpEq, bin(prog.OpAnd, reg("%commute.used"), prog.Int(pl.bit(i, j))), prog.Int(0)), Target: skip})
					for _, k := range ks {
						emit(prog.Load{Dst: "%commute.acc", Addr: prog.Addr(pl.acc(i, j, pl.threads[k])), Tags: []string{tagA, "RLX"}})
						emit(prog.Assign{Dst: ld.Dst, Val: f.wrapped(bin(f.op, reg(ld.Dst), reg("%commute.acc")))})
					}
					emit(prog.Label{Name: skip})
				}
				continue
			}
			j, isUpdate := pl.update[[2]int{ti, pc}]
			if !isUpdate {
				// any other access at a computed address: not to xs
				for i, x := range pl.xs {
					emit(prog.Jump{Cond: bin(prog.OpEq, a, prog.Const{V: prog.LocValue(x)}), Target: broken(i)})
				}
				emit(in)
				continue
			}
			after := label("after")
			var to []string
			for range pl.xs {
				to = append(to, label("to"))
			}
			for i, x := range pl.xs {
				emit(prog.Jump{Cond: bin(prog.OpEq, a, prog.Const{V: prog.LocValue(x)}), Target: to[i]})
			}
			emit(in)
			emit(prog.Jump{Target: after})
			rmw := in.(prog.RMW)
			for i := range pl.xs {
				emit(prog.Label{Name: to[i]})
				moved := rmw
				moved.Addr, moved.Cells = prog.Addr(pl.acc(i, j, done)), nil
				emit(moved)
				emit(prog.Assign{Dst: "%commute.used", Val: bin(prog.OpOr, reg("%commute.used"), prog.Int(pl.bit(i, j)))})
				emit(prog.Jump{Target: after})
			}
			emit(prog.Label{Name: after})
			pl.moved++
		}
		out.Threads[ti] = &nt
	}
	return &out
}

// commutePlanFor is the plan of the rewrite for the graph engine's run
// of q under opts (nil when it does not apply): under rc11 and sc, not
// for -liveness (which looks at where threads stop), nor where the
// symmetry reduction applies. (Under -races, where the run goes on after
// a failure to look for a race, checkGraphOn watches for a commuteBroken
// failure in every execution: a race of P' is one of P, whose
// happens-before has no more edges; a race of P in an execution where
// main reads x before a thread ended is met, in P', as that failure.)
func (opts CheckOptions) commutePlanFor(p *Program, q *spec.Test) *commutePlan {
	switch strings.ToLower(strings.TrimSuffix(opts.ModelName, ".cat")) {
	case "rc11", "sc":
	default:
		return nil
	}
	if opts.GraphNoCommute || opts.Liveness || opts.GraphCountClasses {
		return nil
	}
	if !opts.GraphNoSymmetry {
		if sym, _ := opts.graphSymmetric(q, p.Asserts); sym != nil {
			return nil
		}
	}
	return commuteFor(p, q)
}

// commuteAttempts bounds the runs of P' (each gives up one location
// whose rewrite did not hold) before P is run.
const commuteAttempts = 4

// commuteBrokenCond holds when a thread of q failed commuteBroken for
// one of n locations.
func commuteBrokenCond(q *spec.Test, n int) spec.Cond {
	var c spec.Cond
	for t := range q.Threads {
		for i := 0; i < n; i++ {
			c = orCond(c, spec.Atom{Ref: spec.Ref{Thread: t, Name: failReg}, Val: prog.IntValue(commuteBroken + int64(i))})
		}
	}
	return c
}

// commuteFailed is the location whose rewrite r met a commuteBroken
// failure for (by its witness, or by any execution: Result.commuteAt),
// or -1.
func commuteFailed(r *Result, n int) int {
	if r == nil || r.Result == nil {
		return -1
	}
	for _, x := range []*result.Execution{r.Result.Witness, r.commuteAt} {
		if x == nil {
			continue
		}
		for i, ref := range r.Result.Observed {
			if ref.Name == failReg && i < len(x.State) {
				if v := x.State[i].Int - commuteBroken; v >= 0 && v < int64(n) {
					return int(v)
				}
			}
		}
	}
	return -1
}
