package prove

import (
	"fmt"
	"sort"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Names of the registers and labels the transformation adds: '%' keeps
// them apart from every front-end's names.
const (
	regInit   = "%prove_init"   // the invariant failed when the loop was entered
	regStep   = "%prove_step"   // it failed after an iteration that repeats
	regChoice = "%prove_choice" // a nondeterministic choice
	regOld    = "%prove_old"    // the value an abstracted read-modify-write read
	lblEnd    = "%prove_end"
)

// plan says how to abstract the loops of one thread.
type plan struct {
	assume bool  // assume each loop's invariant at the head of its iterations
	check  int   // the loop whose invariant is checked, -1 for none
	blocks []int // per loop: the arbitrary iterations that may write
	// halt lets the thread stop before any memory access and at the
	// head of any loop's last iteration (the other threads of an
	// invariant check: see the package comment).
	halt bool
}

// builder emits the abstraction of one thread.
type builder struct {
	th    *prog.Thread
	loops []loop
	out   *prog.Thread
	n     int  // fresh labels
	halt  bool // the thread may stop before each memory access
}

func (b *builder) emit(ins ...prog.Instr) { b.out.Code = append(b.out.Code, ins...) }

func (b *builder) fresh() string {
	b.n++
	return fmt.Sprintf("%%prove_l%d", b.n)
}

func (b *builder) assumeInv(k int) {
	b.emit(prog.Jump{Cond: notInv(b.loops[k]), Target: compile.CutLabel})
}

// havocRegs gives every register the body of loop k assigns an arbitrary
// value: the state at the head of an iteration whose predecessors are
// not modelled.
func (b *builder) havocRegs(k int) {
	for _, r := range b.loops[k].regs {
		b.emit(prog.Havoc{Dst: r})
	}
}

func notInv(l loop) prog.Expr { return prog.Un{Op: prog.OpNot, X: l.inv.Expr} }

// abstract rewrites a thread for one query (see the package comment):
// each loop L becomes
//
//	L: [arbitrary iterations]  havoc(regs)  [assume inv]  last iteration
//
// where the last iteration is a copy of the body whose backward branches
// cut the path (it must leave the loop), and each of the pl.blocks[k]
// arbitrary iterations may be skipped or run as an iteration that
// repeats the loop, from arbitrary registers (and, with pl.assume, the
// invariant), its reads replaced by arbitrary values: only its writes
// remain as memory events.
//
// The loop pl.check is instead
//
//	L: init = !inv  [halt]  [arbitrary iterations, inv assumed]
//	   havoc(regs)  assume inv  checked iteration
//	   (repeating the loop: step = !inv; halt)
//
// after which the thread stops: an execution with init = 1 is one where
// the invariant fails on entry, one with step = 1 one where an iteration
// that starts where it holds repeats the loop where it fails.
//
// With pl.halt the thread may stop before each memory access, before the
// last iteration of a loop, and at a backward branch of the last
// iteration.
func abstract(th *prog.Thread, loops []loop, pl plan) *prog.Thread {
	b := &builder{th: th, loops: loops, out: &prog.Thread{ID: th.ID, Name: th.Name, NonAtomic: th.NonAtomic}, halt: pl.halt}
	bodyOf := func(i int) int {
		for k, l := range loops {
			if i >= l.head && i <= l.end {
				return k
			}
		}
		return -1
	}
	if pl.check >= 0 {
		b.emit(prog.Assign{Dst: regInit, Val: prog.Int(0)}, prog.Assign{Dst: regStep, Val: prog.Int(0)})
	}
	last := compile.CutLabel
	if pl.halt {
		last = lblEnd
	}
code:
	for i := 0; i < len(th.Code); i++ {
		k := bodyOf(i)
		if k < 0 {
			b.haltPoint(th.Code[i])
			b.emit(th.Code[i])
			continue
		}
		l := loops[k]
		nb := 0
		if k < len(pl.blocks) {
			nb = pl.blocks[k]
		}
		b.emit(th.Code[l.head]) // the head's label: forward jumps may enter there
		if k == pl.check {
			b.emit(prog.Assign{Dst: regInit, Val: notInv(l)})
			b.emit(prog.Havoc{Dst: regChoice}, prog.Jump{Cond: prog.Reg{Name: regChoice}, Target: lblEnd})
			for j := 0; j < nb; j++ {
				b.block(k, fmt.Sprintf("%%%db%d", k, j), true)
			}
			back := b.fresh()
			b.havocRegs(k)
			b.assumeInv(k)
			b.body(k, fmt.Sprintf("%%%dj", k), back, true)
			b.emit(prog.Jump{Target: compile.CutLabel}) // left the loop: nothing to check
			b.emit(prog.Label{Name: back})
			b.emit(prog.Assign{Dst: regStep, Val: notInv(l)})
			break code
		}
		for j := 0; j < nb; j++ {
			b.block(k, fmt.Sprintf("%%%db%d", k, j), pl.assume)
		}
		if pl.halt {
			b.emit(prog.Havoc{Dst: regChoice}, prog.Jump{Cond: prog.Reg{Name: regChoice}, Target: lblEnd})
		}
		b.havocRegs(k)
		if pl.assume {
			b.assumeInv(k)
		}
		b.body(k, fmt.Sprintf("%%%dlast", k), last, false)
		i = l.end
	}
	if needsCut(b.out) {
		b.emit(prog.Jump{Target: lblEnd})
		b.emit(prog.Label{Name: compile.CutLabel})
	}
	b.emit(prog.Label{Name: lblEnd})
	return b.out
}

// haltPoint lets a halting thread stop before a memory access.
func (b *builder) haltPoint(in prog.Instr) {
	if !b.halt {
		return
	}
	switch in.(type) {
	case prog.Load, prog.Store, prog.RMW, prog.StoreCond, prog.Fence:
		b.emit(prog.Havoc{Dst: regChoice}, prog.Jump{Cond: prog.Reg{Name: regChoice}, Target: lblEnd})
	}
}

// localLabels are the labels defined in the body of loop k.
func (b *builder) localLabels(k int) map[string]bool {
	l := b.loops[k]
	local := map[string]bool{}
	for j := l.head; j <= l.end; j++ {
		if lb, ok := b.th.Code[j].(prog.Label); ok {
			local[lb.Name] = true
		}
	}
	return local
}

// body emits a copy of the body of loop k, its labels renamed with sfx
// and its backward branches sent to back. Leaving the loop (a jump out
// of the body, or falling through its end) goes on after the loop, or
// with cutExits cuts the path.
func (b *builder) body(k int, sfx, back string, cutExits bool) {
	l := b.loops[k]
	local := b.localLabels(k)
	for j := l.head; j <= l.end; j++ {
		in := b.th.Code[j]
		b.haltPoint(in)
		switch in := in.(type) {
		case prog.Label:
			b.emit(prog.Label{Name: in.Name + sfx})
		case prog.Jump:
			switch {
			case in.Target == l.inv.Label:
				b.emit(prog.Jump{Cond: in.Cond, Target: back})
			case local[in.Target]:
				b.emit(prog.Jump{Cond: in.Cond, Target: in.Target + sfx})
			case cutExits:
				b.emit(prog.Jump{Cond: in.Cond, Target: compile.CutLabel})
			default:
				b.emit(in)
			}
		default:
			b.emit(in)
		}
	}
}

// block emits one arbitrary iteration of loop k (Section 4.2.2's
// arbitrary writes, Figure 4-5's cases): it may be skipped; otherwise
// the registers the body assigns start arbitrary (constrained by the
// invariant when assume is set), every read returns an arbitrary value
// and makes no event, a read-modify-write writes what its condition and
// new value give for an arbitrary old value, a store-conditional either
// succeeds (writes, status OkVal) or fails (no write, status FailVal),
// stores and fences stay, and the iteration must end at a backward
// branch: leaving the loop cuts the path. The writes are plain writes
// (no tags): the models under which prove runs only lose orderings by
// that.
func (b *builder) block(k int, sfx string, assume bool) {
	l := b.loops[k]
	local := b.localLabels(k)
	skip := b.fresh()
	end := "%prove_end" + sfx
	b.emit(prog.Havoc{Dst: regChoice}, prog.Jump{Cond: prog.Reg{Name: regChoice}, Target: skip})
	b.havocRegs(k)
	if assume {
		b.assumeInv(k)
	}
	for j := l.head; j <= l.end; j++ {
		switch in := b.th.Code[j].(type) {
		case prog.Label:
			b.emit(prog.Label{Name: in.Name + sfx})
		case prog.Jump:
			switch {
			case in.Target == l.inv.Label:
				b.emit(prog.Jump{Cond: in.Cond, Target: end})
			case local[in.Target]:
				b.emit(prog.Jump{Cond: in.Cond, Target: in.Target + sfx})
			default:
				b.emit(prog.Jump{Cond: in.Cond, Target: compile.CutLabel})
			}
		case prog.Load:
			if in.Dst != "" {
				b.emit(prog.Havoc{Dst: in.Dst})
			}
		case prog.Store:
			b.emit(prog.Store{Addr: in.Addr, Val: in.Val})
		case prog.RMW:
			b.emit(prog.Havoc{Dst: regOld})
			nw := b.fresh()
			if in.Cond != nil {
				b.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: prog.ReplaceOld(in.Cond, prog.Reg{Name: regOld})}, Target: nw})
			}
			b.emit(prog.Store{Addr: in.Addr, Val: prog.ReplaceOld(in.New, prog.Reg{Name: regOld})})
			b.emit(prog.Label{Name: nw})
			if in.Dst != "" {
				b.emit(prog.Assign{Dst: in.Dst, Val: prog.Reg{Name: regOld}})
			}
		case prog.StoreCond:
			fail, done := b.fresh(), b.fresh()
			b.emit(prog.Havoc{Dst: regChoice}, prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: prog.Reg{Name: regChoice}}, Target: fail})
			b.emit(prog.Store{Addr: in.Addr, Val: in.Val})
			if in.Status != "" {
				b.emit(prog.Assign{Dst: in.Status, Val: prog.Const{V: in.OkVal}})
			}
			b.emit(prog.Jump{Target: done}, prog.Label{Name: fail})
			if in.Status != "" {
				b.emit(prog.Assign{Dst: in.Status, Val: prog.Const{V: in.FailVal}})
			}
			b.emit(prog.Label{Name: done})
		default:
			b.emit(in)
		}
	}
	b.emit(prog.Jump{Target: compile.CutLabel}) // fell out of the loop
	b.emit(prog.Label{Name: end}, prog.Label{Name: skip})
}

func needsCut(th *prog.Thread) bool {
	for _, in := range th.Code {
		if j, ok := in.(prog.Jump); ok && j.Target == compile.CutLabel {
			return true
		}
	}
	return false
}

// locSet is a set of locations; any stands for every location (an
// address the analysis cannot name).
type locSet struct {
	any  bool
	locs map[string]bool
}

func (s *locSet) add(loc string, ok bool) {
	if !ok {
		s.any = true
		return
	}
	if s.locs == nil {
		s.locs = map[string]bool{}
	}
	s.locs[loc] = true
}

// addrOf names the location an address expression of thread ti denotes
// when it is a constant, or a register the thread never assigns and the
// test initialises to an address.
func addrOf(t *spec.Test, th *prog.Thread, ti int, e prog.Expr) (string, bool) {
	switch e := e.(type) {
	case prog.Const:
		if e.V.IsAddr() {
			return e.V.String(), true
		}
	case prog.Reg:
		for _, in := range th.Code {
			for _, r := range prog.Defs(in) {
				if r == e.Name {
					return "", false
				}
			}
		}
		for _, in := range t.Init {
			if in.Ref.Thread == ti && in.Ref.Name == e.Name && in.Val.IsAddr() {
				return in.Val.String(), true
			}
		}
	}
	return "", false
}

// addrs are the locations a thread's code reads (reads) or writes.
func addrs(t *spec.Test, th *prog.Thread, ti int) (reads []locRef) {
	for _, in := range th.Code {
		if a, read, _, ok := prog.Access(in); ok && read {
			l, ok := addrOf(t, th, ti, a)
			reads = append(reads, locRef{l, ok})
		}
	}
	return reads
}

type locRef struct {
	loc string
	ok  bool
}

// condLocs are the locations a condition mentions.
func condLocs(c spec.Cond, s *locSet) {
	switch c := c.(type) {
	case spec.And:
		condLocs(c.L, s)
		condLocs(c.R, s)
	case spec.Or:
		condLocs(c.L, s)
		condLocs(c.R, s)
	case spec.Not:
		condLocs(c.C, s)
	case spec.Atom:
		if !c.Ref.IsReg() {
			s.add(c.Ref.Name, true)
		}
	case spec.RefEq:
		for _, r := range []spec.Ref{c.L, c.R} {
			if !r.IsReg() {
				s.add(r.Name, true)
			}
		}
	case nil, spec.Bool:
	default:
		s.any = true
	}
}

// blockCounts gives, for each loop of each thread, how many arbitrary
// iterations its abstraction needs (Section 4.2.2): none when no
// iteration that repeats the loop may write; otherwise one per read the
// other threads' abstractions make of a location those iterations may
// write (each read returns one write), plus one per such location the
// thread itself reads or the condition observes (only the last of the
// thread's own earlier writes to a location can be read by its later
// reads, or be the final value there). Any other iteration can be left
// out of an execution. base are the abstract threads without arbitrary
// iterations (those make no reads).
func blockCounts(t *spec.Test, loops [][]loop, base []*prog.Thread, cond spec.Cond) [][]int {
	reads := make([][]locRef, len(base))
	for ti, th := range base {
		reads[ti] = addrs(t, th, ti)
	}
	var observed locSet
	condLocs(cond, &observed)
	out := make([][]int, len(loops))
	for ti, ls := range loops {
		out[ti] = make([]int, len(ls))
		for k, l := range ls {
			if len(l.writes) == 0 {
				continue
			}
			n := 0
			for ui := range base {
				if ui == ti {
					continue
				}
				for _, r := range reads[ui] {
					if !r.ok || l.writes[r.loc] {
						n++
					}
				}
			}
			for loc := range l.writes {
				seen := observed.any || observed.locs[loc]
				for _, r := range reads[ti] {
					if !r.ok || r.loc == loc {
						seen = true
					}
				}
				if seen {
					n++
				}
			}
			out[ti][k] = n
		}
	}
	return out
}

// testLocs are the locations of a test: the initialised ones, the
// addresses in initial values and in the code, the observed ones.
func testLocs(t *spec.Test) map[string]bool {
	set := map[string]bool{}
	for _, e := range t.Init {
		if !e.Ref.IsReg() {
			set[e.Ref.Name] = true
		}
		if e.Val.IsAddr() {
			set[e.Val.String()] = true
		}
	}
	for _, th := range t.Threads {
		for _, in := range th.Code {
			for _, v := range prog.AddrConsts(in) {
				set[v.String()] = true
			}
		}
	}
	var obs locSet
	condLocs(t.Cond, &obs)
	condLocs(t.Filter, &obs)
	for l := range obs.locs {
		set[l] = true
	}
	return set
}

// sortedRegs lists a set of registers in order.
func sortedRegs(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
