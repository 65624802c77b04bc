package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Read-modify-writes whose write a later read of their thread may take
// early, under ARMv8: when the graph engine must refuse a program.
//
// arm.go's argument that no revisit is lost (in a consistent graph where
// r reads w, r is not in w's prefix) fails on one stretch: an atomic's
// read a, its write b, and a later read x of the same thread that reads
// b, which aarch64.cat orders after a only when x or a is an acquire (A,
// Q) or a DMB between orders them. A consistent graph may then hold a
// cycle of the prefix's steps that ordered-before leaves open at b → x
// (LB+amo-rfi in arm_test.go): its value is justified by itself, and no
// exploration that adds events with the values their reads read builds
// it. Such a cycle leaves x's thread by a write after x that depends on
// x (x's value goes somewhere), goes from thread to thread through
// reads-from, each thread writing after what it read, and comes back to
// x's thread by a read before a or at a (what a depends on, or a
// itself; a read between a and x leads only to events after a). Two
// facts of the model shorten it: a write after x to the atomic's own
// location is ordered after b (lws), so a cycle through it is a cycle of
// ordered-before (forbidden); and the stretch exists only on paths where
// the atomic writes (a compare-and-swap that succeeds).
//
// armRMWRefuse refuses a program where, for some such a and x, these
// over-approximations all hold:
//   - x is reached from a on a path where a writes (armSuccReach: a
//     compare-and-swap's success, as the code tests it, steers the jumps
//     after it) and nothing that orders a before x lies on the path (a
//     DMB; an acquire read after a release atomic);
//   - x may read a's location, x's value is used, and x is not an
//     acquire (nor a);
//   - a location written after x (other than a's, when both are the
//     same constant) leads, by the location flow of the whole program (a
//     thread that reads a location may write, after, any location it
//     writes after that read), to a location read by x's thread at or
//     before a (armFlow).
// The earlier rule (arm.go's hwRefuse, kept for RISC-V's use) refused on the first two points without the paths, and on any write
// after x instead of the third: it refused Treiber's stack (a CAS retried
// in a loop: the next CAS is reached only when the first fails), and a
// reader-writer lock whose reader releases a relaxed fetch-sub and reads
// the lock word again (what it writes after goes to main's join flag,
// which leads nowhere back).

// armRMWRefuse says why the graph engine does not decide program ths
// under ARMv8 ("" when it does): a branch whose control dependency does
// not cover the rest of its thread, or a read that may take a
// read-modify-write's write early in a cycle (see above; not for an
// atomic before which no other thread has started, armspawn.go; await
// is Options.Await, init the program's initial values).
func armRMWRefuse(ths []*prog.Thread, await func(string) bool, init []spec.InitEntry) string {
	for _, th := range ths {
		if why := jumpRefuse(th, "aarch64"); why != "" {
			return why
		}
	}
	flow := newArmFlow(ths)
	for ti, th := range ths {
		for i, in := range th.Code {
			rmw, ok := in.(prog.RMW)
			if !ok || armAcquire(rmw.RTags) || flow.startsAfter(ti, i, await, init) {
				continue
			}
			for _, j := range armSuccReach(th, i, rmw) {
				addr, dst, ok := armPlainRead(th.Code[j])
				if !ok || !mayAlias(flow.resolve(ti, rmw.Addr), flow.resolve(ti, addr)) || !flow.usedAfter(ti, j, dst) || !flow.cycle(ti, i, j, flow.resolve(ti, rmw.Addr)) {
					continue
				}
				return hwAt(th, j) + fmt.Sprintf("a read that is not an acquire after a read-modify-write (line %s) that is not one either, of a location that may be the same, whose value may flow back to that read-modify-write through other threads: under aarch64 it may take that write's value before the read-modify-write reads, a load buffering the graph engine does not explore (left to the SMT engine)", lineOf(th, i))
			}
		}
	}
	return ""
}

// armPlainRead is the address and destination register of a read that
// is not an acquire (ok false for any other instruction).
func armPlainRead(in prog.Instr) (addr prog.Expr, dst string, ok bool) {
	switch r := in.(type) {
	case prog.Load:
		return r.Addr, r.Dst, !armAcquire(r.Tags)
	case prog.RMW:
		return r.Addr, r.Dst, !armAcquire(r.RTags)
	}
	return nil, "", false
}

// armSuccReach lists the instructions of th reached after the
// read-modify-write rmw at i on a path where it writes and nothing that
// orders its read before later reads lies between: a DMB, or, when the
// write is a release, a read with A (a →rmw b →bob r: [L]; po; [A], and
// r before everything after it: [A]; po). A compare-and-swap
// whose condition is Old == e writes when its destination register
// equals e: registers assigned that comparison (or copies of one) are
// known true until reassigned, and a jump on one known true is taken.
// The facts are dropped when the destination or a register of e is
// assigned again.
func armSuccReach(th *prog.Thread, i int, rmw prog.RMW) []int {
	labels, err := th.Labels()
	if err != nil {
		return armAllAfter(th, i)
	}
	var eq prog.Expr // the e of Dst == e while it holds
	switch c := rmw.Cond.(type) {
	case nil:
	case prog.Bin:
		if _, old := c.X.(prog.Old); old && c.Op == prog.OpEq {
			if _, isReg := c.Y.(prog.Reg); isReg {
				eq = c.Y
			} else if _, isConst := c.Y.(prog.Const); isConst {
				eq = c.Y
			}
		}
	}
	type state struct {
		pc    int
		eq    bool
		known map[string]bool
	}
	key := func(s state) string {
		ks := make([]string, 0, len(s.known))
		for k := range s.known {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return fmt.Sprint(s.pc, s.eq, strings.Join(ks, ","))
	}
	isCmp := func(e prog.Expr) bool {
		b, ok := e.(prog.Bin)
		if !ok || b.Op != prog.OpEq || eq == nil {
			return false
		}
		d, ok := b.X.(prog.Reg)
		return ok && d.Name == rmw.Dst && b.Y == eq
	}
	rel := hasTag(rmw.WTags, "L")
	seen := map[string]bool{}
	at := map[int]bool{}
	stack := []state{{pc: i + 1, eq: eq != nil, known: map[string]bool{}}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for s.pc < len(th.Code) {
			k := key(s)
			if seen[k] {
				break
			}
			seen[k] = true
			at[s.pc] = true
			in := th.Code[s.pc]
			if f, ok := in.(prog.Fence); ok && armOrdersRMWRead(f.Tags, rmw.RTags) {
				break
			}
			if rel && armAcquireRead(in) {
				break // [L]; po; [A], then [A]; po
			}
			if j, ok := in.(prog.Jump); ok {
				t, known := labels[j.Target]
				if !known {
					break
				}
				taken := j.Cond == nil
				if r, ok := j.Cond.(prog.Reg); ok && s.known[r.Name] {
					taken = true
				}
				if !taken {
					stack = append(stack, state{pc: s.pc + 1, eq: s.eq, known: s.known})
				}
				s.pc = t
				continue
			}
			if defs := prog.Defs(in); len(defs) > 0 {
				d := defs[0]
				nt := map[string]bool{}
				for k := range s.known {
					if k != d {
						nt[k] = true
					}
				}
				if a, ok := in.(prog.Assign); ok {
					if s.eq && isCmp(a.Val) {
						nt[d] = true
					} else if r, ok := a.Val.(prog.Reg); ok && s.known[r.Name] {
						nt[d] = true
					}
				}
				if d == rmw.Dst || eq != nil && usesReg(eq, d) {
					s.eq = false
				}
				s.known = nt
			}
			s.pc++
		}
	}
	out := make([]int, 0, len(at))
	for pc := range at {
		out = append(out, pc)
	}
	sort.Ints(out)
	return out
}

// armAcquireRead tells whether in reads with an acquire of tag A (LDAR,
// the A forms of the atomics): [L]; po; [A] orders a release write
// before it.
func armAcquireRead(in prog.Instr) bool {
	switch r := in.(type) {
	case prog.Load:
		return hasTag(r.Tags, "A")
	case prog.RMW:
		return hasTag(r.RTags, "A")
	}
	return false
}

// armAllAfter is every instruction after i.
func armAllAfter(th *prog.Thread, i int) []int {
	var out []int
	for j := i + 1; j < len(th.Code); j++ {
		out = append(out, j)
	}
	return out
}

// usesReg tells whether expression e reads register reg.
func usesReg(e prog.Expr, reg string) bool {
	found := false
	prog.WalkExpr(e, func(e prog.Expr) {
		if r, ok := e.(prog.Reg); ok && r.Name == reg {
			found = true
		}
	})
	return found
}

// armOrdersRMWRead tells whether a fence of tags orders the read of an
// atomic of read tags rtags before every later read (po; [dmb.full]; po,
// [R \ NoRet]; po; [dmb.ld]; po).
func armOrdersRMWRead(tags, rtags []string) bool {
	for _, t := range tags {
		if armFullDMB[t] || !hasTag(rtags, "NoRet") && armLdDMB[t] {
			return true
		}
	}
	return false
}

// armFlow is the location flow of a program: which locations each
// thread writes after each of its reads.
type armFlow struct {
	ths    []*prog.Thread
	back   []bool                  // the thread has a backward jump: "after" is anywhere
	consts []map[string]prog.Const // registers every assignment of which is one constant
}

func newArmFlow(ths []*prog.Thread) *armFlow {
	f := &armFlow{ths: ths, back: make([]bool, len(ths)), consts: make([]map[string]prog.Const, len(ths))}
	for t, th := range ths {
		labels, err := th.Labels()
		for pc, in := range th.Code {
			if j, ok := in.(prog.Jump); ok {
				if t2, known := labels[j.Target]; err != nil || !known || t2 <= pc {
					f.back[t] = true
				}
			}
		}
		if !f.back[t] {
			f.consts[t] = constRegs(th)
		}
	}
	return f
}

// constRegs are the registers of th that only ever hold one constant:
// every instruction that assigns them assigns it (the addresses of the
// locals a compiler keeps in memory), and no initial value is given
// (a thread's registers start at 0, the constant must be assigned first:
// a register read before its assignment is not one).
func constRegs(th *prog.Thread) map[string]prog.Const {
	out := map[string]prog.Const{}
	bad := map[string]bool{}
	for _, in := range th.Code {
		for _, d := range prog.Defs(in) {
			a, ok := in.(prog.Assign)
			c, isConst := prog.Const{}, false
			if ok {
				c, isConst = a.Val.(prog.Const)
			}
			if old, seen := out[d]; !isConst || seen && old != c {
				bad[d] = true
				continue
			}
			out[d] = c
		}
	}
	// A use before the first assignment (in code order, with no backward
	// jump; otherwise not trusted) would read the initial value.
	first := map[string]int{}
	for pc, in := range th.Code {
		for _, d := range prog.Defs(in) {
			if _, ok := first[d]; !ok {
				first[d] = pc
			}
		}
	}
	for pc, in := range th.Code {
		for _, u := range prog.Uses(in) {
			if p, ok := first[u]; !ok || p >= pc {
				bad[u] = true
			}
		}
	}
	for d := range bad {
		delete(out, d)
	}
	return out
}

// resolve is addr with a register of thread t that holds one constant
// replaced by it.
func (f *armFlow) resolve(t int, addr prog.Expr) prog.Expr {
	if r, ok := addr.(prog.Reg); ok {
		if c, ok := f.consts[t][r.Name]; ok {
			return c
		}
	}
	return addr
}

// after is the range of instructions of thread t that may run after pc
// (all of them when the thread jumps backward).
func (f *armFlow) after(t, pc int) []prog.Instr {
	if f.back[t] {
		return f.ths[t].Code
	}
	return f.ths[t].Code[pc+1:]
}

// before is the range of instructions of thread t that may run before
// pc, pc included.
func (f *armFlow) before(t, pc int) []prog.Instr {
	if f.back[t] {
		return f.ths[t].Code
	}
	return f.ths[t].Code[:pc+1]
}

// usedAfter tells whether an instruction that may run after pc in thread
// t reads register reg, but an assignment to a register itself unused
// (the comparisons a compiler leaves after a compare-and-swap whose
// result the program drops).
func (f *armFlow) usedAfter(t, pc int, reg string) bool {
	return f.live(t, pc, reg, map[[2]int]bool{}, 0)
}

func (f *armFlow) live(t, pc int, reg string, busy map[[2]int]bool, depth int) bool {
	if reg == "" {
		return false
	}
	if depth > 16 {
		return true
	}
	code := f.after(t, pc)
	base := len(f.ths[t].Code) - len(code)
	for k, in := range code {
		uses := false
		for _, u := range prog.Uses(in) {
			uses = uses || u == reg
		}
		if !uses {
			continue
		}
		a, ok := in.(prog.Assign)
		if !ok {
			return true
		}
		key := [2]int{base + k, depth}
		if busy[key] {
			continue
		}
		busy[key] = true
		if f.live(t, base+k, a.Dst, busy, depth+1) {
			return true
		}
	}
	return false
}

// locSet is a set of locations (constant addresses), or any location.
type locSet struct {
	any bool
	c   map[prog.Value]bool
}

// add adds the location at address addr; it tells whether it was new.
func (s *locSet) add(addr prog.Expr) bool {
	if s.any {
		return false
	}
	c, ok := addr.(prog.Const)
	if !ok {
		s.any = true
		return true
	}
	if s.c[c.V] {
		return false
	}
	s.c[c.V] = true
	return true
}

// may tells whether the location at addr may be in s.
func (s *locSet) may(addr prog.Expr) bool {
	if s.any {
		return true
	}
	if len(s.c) == 0 {
		return false
	}
	c, ok := addr.(prog.Const)
	return !ok || s.c[c.V]
}

// cycle tells whether a value read at j in thread t, after the atomic at
// i of address own, may come back to a read of t at or before i: through
// a write after j to a location other than own, then from thread to
// thread (the over-approximation of the comment above).
func (f *armFlow) cycle(t, i, j int, own prog.Expr) bool {
	reach := &locSet{c: map[prog.Value]bool{}}
	oc, ownConst := own.(prog.Const)
	for _, in := range f.after(t, j) {
		if a, _, w, ok := prog.Access(in); ok && w {
			a = f.resolve(t, a)
			if c, same := a.(prog.Const); ownConst && same && c.V == oc.V {
				continue // ordered after the atomic's write (lws)
			}
			reach.add(a)
		}
	}
	for grew := true; grew; {
		grew = false
		for u := range f.ths {
			for pc, in := range f.ths[u].Code {
				a, r, _, ok := prog.Access(in)
				if !ok || !r || !reach.may(f.resolve(u, a)) {
					continue
				}
				for _, in2 := range f.after(u, pc) {
					if a2, _, w2, ok2 := prog.Access(in2); ok2 && w2 && reach.add(f.resolve(u, a2)) {
						grew = true
					}
				}
			}
		}
	}
	for _, in := range f.before(t, i) {
		if a, r, _, ok := prog.Access(in); ok && r && reach.may(f.resolve(t, a)) {
			return true
		}
	}
	return false
}
