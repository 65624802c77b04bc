package cfront

import (
	"fmt"
	"strconv"

	"github.com/llir/llvm/ir"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// maxThreads bounds the threads a program may create within the bound.
const maxThreads = 64

// created is a thread made by a pthread_create site instance.
type created struct {
	parent int
	fn     *ir.Func  // nil: chosen by the pointer in fnpLoc (threadfn.go)
	fnt    string    // the type of that pointer
	arg    prog.Expr // a constant argument, or nil: read from argLoc
	pos    prog.Pos
}

func startLoc(k int) string { return fmt.Sprintf("%%start.%d", k) }
func doneLoc(k int) string  { return fmt.Sprintf("%%done.%d", k) }
func argLoc(k int) string   { return fmt.Sprintf("%%arg.%d", k) }
func retLoc(k int) string   { return fmt.Sprintf("%%ret.%d", k) }

// program lowers the whole program: main is thread 0, every
// pthread_create site instance of the unrolled code a further thread,
// numbered in the order the instances are met.
func (l *lowerer) program(name string, bound int) (*spec.Test, error) {
	l.bound = bound
	main := l.funcs["main"]
	if main == nil || len(main.Blocks) == 0 {
		return nil, l.errAt(prog.Pos{File: l.file}, "no main function")
	}
	if err := l.globals(); err != nil {
		return nil, err
	}
	t := &spec.Test{File: l.file, Arch: "C", Name: name}
	l.joinRet = joinsResult(l.mod)
	l.created = []created{{parent: -1}}
	for id := 0; id < len(l.created); id++ {
		if id > maxThreads {
			p := l.created[id].pos
			return nil, &LimitError{Msg: fmt.Sprintf("%s:%d: more than %d threads are created within the bound", p.File, p.Line, maxThreads)}
		}
		th, err := l.thread(id, bound)
		if err != nil {
			return nil, err
		}
		if l.expired() {
			return nil, errDeadline
		}
		t.Threads = append(t.Threads, th)
	}
	if l.lateJoin {
		for id, th := range t.Threads {
			l.lateJoins(th, id)
		}
	}
	if l.coins > 0 {
		// The thread that sets every coin.
		th := &prog.Thread{ID: len(t.Threads), Name: fmt.Sprintf("P%d", len(t.Threads))}
		for k := 1; k <= l.coins; k++ {
			th.Code = append(th.Code, prog.Store{Addr: prog.Addr(coinName(k)), Val: prog.Int(1), Tags: []string{tagA, "RLX"}})
			th.Pos = append(th.Pos, prog.Pos{File: l.file})
		}
		t.Threads = append(t.Threads, th)
	}
	for _, c := range l.init {
		t.Init = append(t.Init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: c.name}, Val: prog.Value{Loc: c.loc(), Int: c.val.n}})
	}
	for id := 1; id < len(l.created); id++ {
		locs := []string{startLoc(id), doneLoc(id), argLoc(id)}
		if l.created[id].fn == nil {
			locs = append(locs, fnpLoc(id))
		}
		if l.joinRet {
			locs = append(locs, retLoc(id))
		}
		for _, n := range locs {
			t.Init = append(t.Init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: n}})
		}
	}
	for k := 1; k <= l.coins; k++ {
		t.Init = append(t.Init, spec.InitEntry{Ref: spec.Ref{Thread: -1, Name: coinName(k)}})
	}
	l.resolveSpins(t)
	if err := l.mixedSizes(t); err != nil {
		return nil, err
	}
	return t, nil
}

// isVoidFunc tells whether f returns nothing.
func isVoidFunc(f *ir.Func) bool { return f.Sig.RetType == nil || f.Sig.RetType.String() == "void" }

func coinName(k int) string { return fmt.Sprintf("%%coin.%d", k) }

func (c initCell) loc() string { return c.val.loc }

// thread lowers, unrolls and expands thread id.
func (l *lowerer) thread(id int, bound int) (*prog.Thread, error) {
	l.curThread = id
	l.atomicBegun = 0
	b := &builder{cur: prog.Pos{File: l.file}}
	var err error
	if id == 0 {
		var args []prog.Expr
		if args, err = l.mainArgs(l.funcs["main"]); err == nil {
			err = l.constructors(b)
		}
		if err == nil {
			err = l.lowerFunc(b, l.funcs["main"], args, "", 0, prog.Pos{File: l.file})
		}
		if err == nil {
			// main returned: exit(its value) (ctors.go).
			err = l.runExitHandlers(b, 0, l.funcPos(l.funcs["main"]))
		}
	} else {
		c := l.created[id]
		b.cur = c.pos
		b.emit(prog.Load{Dst: "%start", Addr: prog.Addr(startLoc(id)), Tags: flagAcquire()})
		site := spinSite{pos: c.pos}
		site.add("%start", prog.Addr(startLoc(id)))
		l.spinAt(b, site)
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: "%start"}, Y: prog.Int(1)}, Target: spinLabel})
		a := c.arg
		if a == nil {
			b.emit(prog.Load{Dst: "%targ", Addr: prog.Addr(argLoc(id)), Tags: []string{tagNA}})
			a = prog.Reg{Name: "%targ"}
		}
		if err := l.trackThreadLocals(id); err != nil {
			return nil, err
		}
		ret := ""
		if l.joinRet && c.returns() {
			ret = "%tret"
		}
		if c.fn != nil {
			var args []prog.Expr
			if len(c.fn.Params) > 0 {
				args = []prog.Expr{a}
			}
			err = l.lowerFunc(b, c.fn, args, ret, 0, c.pos)
		} else {
			err = l.threadByPointer(b, id, c, a, ret)
		}
		if err == nil {
			err = l.tssDtorRun(b, id, c.pos)
		}
		l.endThreadLocals(b, id)
		if ret != "" {
			b.emit(prog.Store{Addr: prog.Addr(retLoc(id)), Val: prog.Reg{Name: ret}, Tags: []string{tagNA}})
		}
		b.emit(prog.Store{Addr: prog.Addr(doneLoc(id)), Val: prog.Int(1), Tags: flagRelease()})
	}
	if err != nil {
		return nil, err
	}
	b.emit(prog.Jump{Target: exitLabel})
	b.emit(prog.Label{Name: spinLabel})
	b.emit(prog.Assign{Dst: spinReg, Val: prog.Int(1)})
	b.emit(prog.Label{Name: blockLabel})
	b.emit(prog.Assign{Dst: blockedReg, Val: prog.Int(1)})
	b.emit(prog.Jump{Target: exitLabel})
	b.emit(prog.Label{Name: exitLabel})
	code, pos := dropDeadHavocs(b.code, b.pos)
	th := &prog.Thread{ID: id, Name: fmt.Sprintf("P%d", id), Code: code, Pos: pos}
	u, err := compile.UnrollThreadCounts(th, bound, l.waitCounts(loopBounds(th, compile.TripCounts(th)), bound))
	if err != nil {
		return nil, &LimitError{Msg: fmt.Sprintf("%s: %v", l.file, err)}
	}
	u.ID, u.Name = id, th.Name
	return l.expand(u, id)
}

// expand replaces the placeholders of an unrolled thread: each
// pthread_create instance starts a new thread (appended to l.created),
// each pthread_join waits for the thread whose id it is given; the coins
// are numbered.
func (l *lowerer) expand(th *prog.Thread, id int) (*prog.Thread, error) {
	out := &prog.Thread{ID: th.ID, Name: th.Name}
	var stopped error
	emit := func(in prog.Instr, p prog.Pos) {
		out.Code = append(out.Code, in)
		out.Pos = append(out.Pos, p)
		if len(out.Code)&4095 == 0 && stopped == nil {
			stopped = l.stopped(len(out.Code))
		}
	}
	regs := newConstRegs(th)
	for i, in := range th.Code {
		if stopped != nil {
			return nil, stopped
		}
		p := th.Pos[i]
		if as, ok := in.(prog.Assign); !ok || func() bool { c, ok := as.Val.(prog.Const); return !ok || c.V.Loc != heapLoc }() {
			regs.step(in)
		}
		if ld, ok := in.(prog.Load); ok {
			if c, ok := ld.Addr.(prog.Const); ok && c.V.Loc == coinLoc {
				l.coins++
				ld.Addr = prog.Addr(coinName(l.coins))
				emit(ld, p)
				continue
			}
		}
		if as, ok := in.(prog.Assign); ok {
			if c, ok := as.Val.(prog.Const); ok && c.V.Loc == heapLoc {
				size := l.heap[c.V.Int]
				if size < 0 {
					// A size known once unrolled: the value its
					// expression has here.
					hs := l.heapSize[int(c.V.Int)]
					n, known := foldConst(hs.size, regs.cur)
					if !known {
						return nil, l.errAt(hs.pos, "%s of a size that is not a constant once the loops are unrolled (Musket makes an object of one size per call)", hs.name)
					}
					if n < 0 || n > maxHeapObject {
						return nil, &LimitError{Msg: l.errAt(hs.pos, "%s: size %d (at most %d bytes)", hs.name, n, maxHeapObject).Error()}
					}
					size = n
				}
				regs.step(in)
				l.objects++
				obj := fmt.Sprintf("heap%d", l.objects)
				if l.heapRaw[int(c.V.Int)] {
					if l.raw == nil {
						l.raw = map[string]bool{}
					}
					l.raw[obj] = true
				}
				step := int64(4)
				if l.heapBytes[int(c.V.Int)] {
					step = 1
				}
				for off := int64(0); off < size || off == 0; off += step {
					n := locName(obj, off)
					l.locs[n] = true
					l.init = append(l.init, initCell{name: n})
				}
				text, life := l.heapLife[int(c.V.Int)]
				if l.frees || life {
					if l.heaps == nil {
						l.heaps = map[string]bool{}
					}
					l.heaps[obj] = true
					n := locName(obj, freedOff)
					l.locs[n] = true
					mark := initCell{name: n}
					if life {
						mark.val = cval{n: localMark} // (free.go)
					}
					l.init = append(l.init, mark)
				}
				if life {
					// A local whose lifetime a loop repeats
					// (lifetime.go): this lifetime's object.
					l.addLifeHeap(obj, text)
				}
				if l.reallocs {
					n := locName(obj, sizeOff) // (realloc.go)
					l.locs[n] = true
					l.init = append(l.init, initCell{name: n, val: cval{n: size}, size: 8})
				}
				emit(prog.Assign{Dst: as.Dst, Val: prog.Addr(obj)}, p)
				regs.set(as.Dst, prog.AddrValue(obj))
				continue
			}
		}
		f, ok := in.(prog.Fence)
		if !ok || len(f.Tags) != 2 || f.Tags[0] != placeholder {
			emit(in, p)
			continue
		}
		s := l.sites[atoi(f.Tags[1])]
		if !s.join {
			k := len(l.created)
			c := created{parent: id, fn: s.fn, fnt: s.fnt, pos: s.pos}
			if c.fn == nil {
				if v, ok := foldValue(s.fnp, regs.cur); ok && l.funcAt(v) != nil {
					c.fn = l.funcAt(v) // known here: as if named
				} else {
					emit(prog.Store{Addr: prog.Addr(fnpLoc(k)), Val: s.fnp, Tags: []string{tagNA}}, p)
				}
			}
			if v, ok := foldValue(s.arg, regs.cur); ok {
				// Known here (constregs.go): the new thread starts
				// with it, as with a constant written out.
				c.arg = prog.Const{V: v}
			} else {
				emit(prog.Store{Addr: prog.Addr(argLoc(k)), Val: s.arg, Tags: []string{tagNA}}, p)
			}
			l.created = append(l.created, c)
			emit(prog.Store{Addr: s.tid, Val: prog.Int(int64(k)), Tags: []string{tagNA}}, p)
			emit(prog.Store{Addr: prog.Addr(startLoc(k)), Val: prog.Int(1), Tags: flagRelease()}, p)
			continue
		}
		// A join: wait for the done flag of the thread named.
		if c, ok := s.tid.(prog.Const); ok && !c.V.IsAddr() {
			l.emitJoin(emit, s, p, id, []int{int(c.V.Int)})
			continue
		}
		// An id read from memory may name any thread (a sibling's, from
		// a global array, too), also one created by a thread not yet
		// lowered: the join is expanded once every thread is
		// (lateJoins).
		emit(prog.Fence{Tags: []string{lateJoinTag, f.Tags[1]}}, p)
		l.lateJoin = true
	}
	return out, nil
}

// lateJoinTag tags the placeholder of a join whose thread id is read
// from memory, expanded by lateJoins.
const lateJoinTag = "%latejoin"

// emitJoin emits a join: wait for the done flag of the thread named by
// s.tid among cands (no thread of that id: wait forever). A thread
// joining itself gets EDEADLK (s.selfErr) at once, as glibc returns it
// (POSIX: "may fail"), instead of waiting forever; the call's value is 0
// after a join.
func (l *lowerer) emitJoin(emit func(prog.Instr, prog.Pos), s site, p prog.Pos, self int, cands []int) {
	after := l.label("joined")
	c, isConst := s.tid.(prog.Const)
	isConst = isConst && !c.V.IsAddr()
	selfLbl := after + ".self"
	var waits []int
	hasSelf := false
	for _, k := range cands {
		target := l.joinLabel(k, after)
		if k == self {
			target, hasSelf = selfLbl, true
		} else {
			waits = append(waits, k)
		}
		if isConst {
			emit(prog.Jump{Target: target}, p)
			continue
		}
		emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: s.tid, Y: prog.Int(int64(k))}, Target: target}, p)
	}
	// No thread of that id: the join waits forever.
	emit(prog.Jump{Target: blockLabel}, p)
	if hasSelf {
		emit(prog.Label{Name: selfLbl}, p)
		if s.dst != "" {
			emit(prog.Assign{Dst: s.dst, Val: prog.Int(s.selfErr)}, p)
		}
		emit(prog.Jump{Target: after}, p)
	}
	for _, k := range waits {
		r := fmt.Sprintf("%%join%d", k)
		emit(prog.Label{Name: l.joinLabel(k, after)}, p)
		emit(prog.Load{Dst: r, Addr: prog.Addr(doneLoc(k)), Tags: flagAcquire()}, p)
		site := spinSite{pos: s.pos, real: true, join: true}
		site.add(r, prog.Addr(doneLoc(k)))
		l.spins = append(l.spins, site)
		emit(prog.Assign{Dst: spinAtReg, Val: prog.Int(int64(len(l.spins)))}, p)
		emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: r}, Y: prog.Int(1)}, Target: spinLabel}, p)
		if s.ret != nil {
			v := fmt.Sprintf("%%joinret%d", k)
			emit(prog.Load{Dst: v, Addr: prog.Addr(retLoc(k)), Tags: []string{tagNA}}, p)
			emit(prog.Store{Addr: s.ret, Val: prog.Reg{Name: v}, Tags: []string{tagNA}}, p)
		}
		if s.dst != "" {
			emit(prog.Assign{Dst: s.dst, Val: prog.Int(0)}, p)
		}
		emit(prog.Jump{Target: after}, p)
	}
	emit(prog.Label{Name: after}, p)
}

// lateJoins expands the joins of th whose thread id is read from memory,
// once every thread of the program is known: the candidates are every
// thread but main, and the thread itself (a self-join).
func (l *lowerer) lateJoins(th *prog.Thread, self int) {
	cands := []int{}
	if self == 0 {
		cands = append(cands, 0)
	}
	for k := 1; k < len(l.created); k++ {
		cands = append(cands, k)
	}
	var code []prog.Instr
	var pos []prog.Pos
	emit := func(in prog.Instr, p prog.Pos) {
		code = append(code, in)
		pos = append(pos, p)
	}
	for pc, in := range th.Code {
		f, ok := in.(prog.Fence)
		if !ok || len(f.Tags) != 2 || f.Tags[0] != lateJoinTag {
			emit(in, th.Pos[pc])
			continue
		}
		l.emitJoin(emit, l.sites[atoi(f.Tags[1])], th.Pos[pc], self, cands)
	}
	th.Code, th.Pos = code, pos
}

func (l *lowerer) joinLabel(k int, after string) string {
	return fmt.Sprintf("%s.t%d", after, k)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// flagAcquire and flagRelease tag the accesses to the start and done flags
// of create and join: acquire and release for the C11 models (A, ACQ /
// REL) and for the Linux-kernel model (ACQUIRE / RELEASE); each model
// ignores the other's tags, and the compiled code takes the C11 order.
func flagAcquire() []string { return []string{tagA, "ACQ", "ACQUIRE"} }
func flagRelease() []string { return []string{tagA, "REL", "RELEASE"} }

// maxThreadInstrs is the most instructions a thread may have once its
// loops are unrolled and its creates and joins expanded.
const maxThreadInstrs = 1 << 20

// stopped says why the lowering must stop, n instructions into a thread:
// the check's time or memory limit, or a thread too large.
func (l *lowerer) stopped(n int) error {
	if n > maxThreadInstrs {
		return &LimitError{Msg: fmt.Sprintf("%s: a thread has more than %d instructions once its loops are unrolled and its creates and joins expanded", l.file, maxThreadInstrs)}
	}
	if l.ctx != nil && l.ctx.Err() != nil {
		return l.ctx.Err()
	}
	return nil
}

// dropDeadHavocs deletes the arbitrary values (__VERIFIER_nondet_*) that
// nothing uses: a register is live when an instruction other than an
// assignment reads it (a memory access, a jump, ...), or an assignment to
// a live register does. The suites' threads return
// __VERIFIER_nondet_pointer() that no join reads; the value changes
// nothing, and an arbitrary value keeps the graph engine out.
func dropDeadHavocs(code []prog.Instr, pos []prog.Pos) ([]prog.Instr, []prog.Pos) {
	has := false
	for _, in := range code {
		if _, ok := in.(prog.Havoc); ok {
			has = true
			break
		}
	}
	if !has {
		return code, pos
	}
	live := map[string]bool{}
	for _, in := range code {
		switch in.(type) {
		case prog.Assign, prog.Havoc:
		default:
			for _, r := range prog.Uses(in) {
				live[r] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, in := range code {
			if as, ok := in.(prog.Assign); ok && live[as.Dst] {
				for _, r := range prog.Uses(in) {
					if !live[r] {
						live[r], changed = true, true
					}
				}
			}
		}
	}
	var outC []prog.Instr
	var outP []prog.Pos
	for i, in := range code {
		if h, ok := in.(prog.Havoc); ok && !live[h.Dst] {
			continue
		}
		outC = append(outC, in)
		if i < len(pos) {
			outP = append(outP, pos[i])
		}
	}
	return outC, outP
}
