package cfront

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
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
// not there to explore. commuteFor plans it:
//
//   - the locations xs: those main reads at a constant address, that no
//     other instruction accesses at a constant address, holding an
//     integer initially, no heap cell (no free, no use after free to
//     look for) nor flag; eight at most;
//   - the updates: prog.RMWs at a computed address in a thread other
//     than main that ends by its own %done flag, with no condition, tags
//     A, RLX, RMW, X only, a Dst read nowhere in the thread nor by the
//     test's condition, and New = W(old ∘ e) with e free of old, ∘ one of
//     add/sub, or, and, xor, and W none, the 64-bit wrap or cfront's wrap
//     to N bits (so that W(v) ≡ v and W depends on v modulo 2^N only,
//     N = 64 without a wrap); a family is an operation with its wrap;
//   - nothing when the program has a fence or a mixed-size access, or
//     fewer than two threads have updates.
//
// In P':
//
//   - an update of thread k, of family j, whose address is xs[i] (a test
//     on the address) goes to %acc<i>.<j>.<k>, a location of its own
//     whose initial value is the identity of ∘ (0; all ones for and):
//     thread k accumulates its own updates of xs[i], in program order,
//     with the same instruction (order, operand, wrap). A register of k
//     records the pair (i, j), and k writes 1 | those bits to %cend.k,
//     with its end flag's release store, right before that store;
//   - any other access at a computed address whose address is xs[i]
//     fails instead, with commuteBroken+i (a test per location);
//   - before each read of xs[i] by main, main reads %cend.k with acquire
//     for each thread k with updates; when one lacks bit 0, or the bits
//     name two families for xs[i], main fails with commuteBroken+i.
//     After the read (which reads xs[i]'s initial value: nothing writes
//     it in P'), main combines each %acc<i>.<j>.<k> of the family it saw
//     into the register, with ∘ and W.
//
// A run of P' that meets a commuteBroken+i failure gives xs[i] up and
// runs again (checkGraph); after commuteAttempts runs, P itself runs.
//
// Why P' answers as P does, under rc11 and sc, when its run meets no
// commuteBroken failure; x is a location of xs. The operations are
// commutative and associative modulo 2^N and W keeps values modulo 2^N,
// so any order of x's updates of one family ends with
// W(init ∘ e1 ∘ … ∘ en), which main computes in P' from x's initial value
// and the accumulators. The tests on addresses and the register bits are
// thread-local: they add no event.
//
//   - P' → P. Let G' be a consistent execution of P' with no
//     commuteBroken failure. Every access of x in it is an update of one
//     family, or a read by main after its checks. Main's read of %cend.k
//     read bit 0: an acquire reading k's release write, so thread k's
//     updates happen before main's read of x. Take a linear extension L
//     of po ∪ rf of G' (acyclic under rc11; under sc, the total order of
//     G') in which each update's read and write are adjacent (nothing
//     but its read enters its write). Let G be G' without the events of
//     %cend and main's reads of the accumulators, with x's updates on x
//     in the order of L (each reading the one before, the first reading
//     x's initial write) and main's reads of x reading the last. G is an
//     execution of P: the threads' values are those of G' (the updates'
//     results are unused; main's read of x gets the value main combined
//     in G'). Under rc11 it is consistent: happens-before on its events
//     is that of G' without the %cend synchronisation (relaxed updates
//     of a location that no release writes, and no fences, make no sw;
//     fewer hb edges keep coherence and psc acyclic), x's coherence
//     follows L, which extends hb, main's reads read the coherence-last
//     write, no SC event gets an mo or rb edge on x, and po ∪ rf is
//     acyclic: every edge of G goes forward in L. Under sc, every edge
//     of G goes forward in L. Its assertions and its cut are those of G',
//     and a race of G' is one of G (hb has no more edges in G).
//   - P → P'. Let G be a consistent execution of P. If each access of x
//     in G is an update of one family or a read by main, and each thread
//     k with updates ended (wrote %done.k) before, in happens-before,
//     each read of x by main, let G' have %cend.k written before %done.k
//     and read by main, each thread's updates on its own accumulators in
//     program order, and main's reads of them reading the last: hb is
//     G's (the %cend edges are already in hb), every new rf and co edge
//     goes along po or hb, and G' is consistent, with G's values,
//     assertions and races. If not, the execution of P' with the same
//     events up to the first access that differs fails commuteBroken:
//     an access of x by another instruction meets its test; a read of
//     %cend.k by main with no write of it happening before may read the
//     initial 0; two families meet main's check.
//   - So a run of P' that meets no commuteBroken failure has P's verdict.
//     A failure of another assertion found first is one of P too: the
//     events before it map back as above, main's reads of x coming after
//     its checks, and rc11 and sc are extensible. Under -races, where the
//     run goes on after a failure to look for a race, checkGraphOn
//     watches for the commuteBroken failures in every execution
//     (Options.Also).
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
	plan := &commutePlan{threads: map[int]string{}, update: map[[2]int]int{}}
	// The updates: relaxed, unused result, of a commuting shape, in a
	// thread that ends by its own flag.
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
			if !ok || !relaxedRMW(rmw) || read[rmw.Dst] || condRegs[rmw.Dst] {
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
	// The locations: read by main at a constant address, accessed at a
	// constant address by nothing else.
	mainReads, other := map[string]bool{}, map[string]bool{}
	for ti, th := range q.Threads {
		for pc, in := range th.Code {
			a, ok := prog.AddrOf(in)
			if !ok {
				continue
			}
			x := commuteLocOf(a)
			if x == "" {
				continue
			}
			if _, isUpdate := plan.update[[2]int{ti, pc}]; isUpdate {
				continue
			}
			if _, isLoad := in.(prog.Load); isLoad && ti == 0 {
				mainReads[x] = true
			} else {
				other[x] = true
			}
		}
	}
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
	// When every update has a constant address, only the locations they
	// update (no test on addresses for the others).
	constUpdated, computed := map[string]bool{}, false
	for k := range plan.update {
		if x := commuteLocOf(q.Threads[k[0]].Code[k[1]].(prog.RMW).Addr); x != "" {
			constUpdated[x] = true
		} else {
			computed = true
		}
	}
	if !computed {
		var xs []string
		for _, x := range plan.xs {
			if constUpdated[x] {
				xs = append(xs, x)
			}
		}
		plan.xs = xs
	}
	if len(plan.xs) == 0 || len(plan.xs) > commuteMaxLocs {
		return nil
	}
	sort.Strings(plan.xs)
	// The threads whose updates may reach a location of xs.
	for k := range plan.update {
		if x := commuteLocOf(q.Threads[k[0]].Code[k[1]].(prog.RMW).Addr); x != "" && !contains(plan.xs, x) {
			delete(plan.update, k)
		}
	}
	updaters = map[int]bool{}
	for k := range plan.update {
		updaters[k[0]] = true
	}
	for ti := range plan.threads {
		if !updaters[ti] {
			delete(plan.threads, ti)
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
			j, isUpdate := pl.update[[2]int{ti, pc}]
			if x := commuteLocOf(a); x != "" && !isUpdate {
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
			if !isUpdate {
				// any other access at a computed address: not to xs
				for i, x := range pl.xs {
					emit(prog.Jump{Cond: bin(prog.OpEq, a, prog.Const{V: prog.LocValue(x)}), Target: broken(i)})
				}
				emit(in)
				continue
			}
			rmw := in.(prog.RMW)
			if x := commuteLocOf(a); x != "" {
				// an update at a constant address: of a location of
				// xs, or of one a run gave up (left as it is)
				if !contains(pl.xs, x) {
					emit(in)
					continue
				}
				i := sort.SearchStrings(pl.xs, x)
				moved := rmw
				moved.Addr, moved.Cells = prog.Addr(pl.acc(i, j, done)), nil
				emit(moved)
				emit(prog.Assign{Dst: "%commute.used", Val: bin(prog.OpOr, reg("%commute.used"), prog.Int(pl.bit(i, j)))})
				pl.moved++
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

func contains(xs []string, x string) bool {
	i := sort.SearchStrings(xs, x)
	return i < len(xs) && xs[i] == x
}
