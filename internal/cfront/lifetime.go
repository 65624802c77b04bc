package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// Lifetimes of locals and thread-locals.
//
// C11 6.2.4p2 and p4: an object of automatic storage duration lives until
// the block it is declared in ends (its function returns, or the thread
// calls pthread_exit), a thread-local object (_Thread_local, __thread)
// until its thread ends; "if an object is referred to outside of its
// lifetime, the behavior is undefined" (main's locals too: returning
// from main ends them even though the other threads go on, 5.1.2.2.3
// and its footnote). clang-14 marks a local's lifetime in the IR at -O1
// (llvm.lifetime.start at its declaration, llvm.lifetime.end where its
// block ends, kept by clang's own inlining), so Musket follows the C
// scopes, not the IR functions: a function clang inlined into main ends
// its locals where it returned.
//
// A tracked object gets a hidden mark, as a heap object has for free
// (free.go; here a location of its own, endMark, so that the cutting of
// the object into chunks, mixed.go, leaves it alone), and its lifetime's
// end is a plain store of
// 1 to the mark (no fence, no atomic: the end of a lifetime is no
// instruction of the machine, and an exchange would order the thread's
// accesses around it under the hardware models). Both engines then take
// it as a free (graph.Options.FreedMark, bmc.Options.FreedMark): an
// access to the object not ordered before the end, by the model's order,
// or in program order in the owner thread itself, is a failure "use of
// the local variable v of f after its lifetime ended" at the access. The
// owner's own earlier accesses count as before the end under every model
// (the machine reuses the frame only in that thread, which sees its own
// accesses in order).
//
// GenMC does the same at the level of its IR functions: its interpreter
// frees a function's allocas when the function returns (and every frame's
// at exit()), so an access after it is its access to freed memory.
//
// Tracked, so that only programs that can meet the error pay: a local
// whose address escapes (stored to memory, exchanged, passed to
// pthread_create, pthread_setspecific or pthread_exit, turned into an
// integer, returned, or passed to a function of the program whose
// parameter escapes so), of at most maxHeapObject bytes; and the copy of
// a thread-local variable whose address so escapes, in each created
// thread, and main's where main calls pthread_exit (main's return ends
// the process).
//
// A local whose lifetime a loop repeats (its markers on a cycle of its
// function's control flow, more than one start, or a function instance
// Musket inlines inside a loop, whose unrolled copies would share one
// object) is a new object at each entry into its block (C11 6.2.4p6:
// "If the block is entered recursively, a new instance of the object is
// created each time", and each entry starts a new lifetime; a pointer
// to the old one is indeterminate, 6.2.4p2, even where the machine puts
// the new one at the same address). Such a local is lowered as a heap
// object (repeatedLocal): each llvm.lifetime.start (or, with no start,
// the alloca itself) makes a fresh one, as malloc in a loop does once
// the loops are unrolled (threads.go's expand), its end is the plain
// store of 1 to that object's freed mark (free.go's freedOff), and a
// pointer kept from an earlier iteration names the earlier, ended
// object: a use of it is the failure above. The alloca's register holds
// the current object; the address arithmetic on it (getelementptr of
// constant indices, bit casts) is evaluated where it is used
// (lateAddr), not where clang computed it, since clang's -O1 hoists such
// arithmetic out of the loop, before the start. Other arithmetic on it
// (a variable index, a select, a phi) is computed where clang put it;
// if clang hoisted it before the start, it names the object of an
// earlier iteration (or, before the first start, no object: the
// register is null), so a use of it is a failure, never a silent PASS.

// lifetimeText is the failure text of a use of the object base (a
// tracked local or thread-local copy) after its lifetime ended, or ""
// when base is none.
func (p *Program) lifetimeText(loc string) string {
	if p == nil || p.lifetimes == nil {
		return ""
	}
	base := loc
	if i := strings.IndexByte(loc, '+'); i >= 0 {
		base = loc[:i]
	}
	return p.lifetimes[base]
}

// isLifetimeText tells whether a failure's text is one of lifetimeText's.
func isLifetimeText(s string) bool {
	return strings.HasPrefix(s, "use of the local variable ") || strings.HasPrefix(s, "use of the thread-local variable ")
}

// trackLocal decides whether the alloca in of frame fr is tracked (see
// above) and, if so, gives its object, named name, a mark cell and a
// failure text.
func (l *lowerer) trackLocal(fr *frame, in *ir.InstAlloca, name string, t types.Type) {
	if n, err := sizeOf(t); err != nil || n > maxHeapObject {
		return
	}
	_, ends, _ := l.lifetimeMarks(fr.f, in)
	if !l.escapes(fr.f, in) {
		return
	}
	l.addLifetime(name, localText(fr, in))
	tr := tracked{name: name}
	if fr.lifetimes == nil {
		fr.lifetimes = map[*ir.InstAlloca]tracked{}
	}
	fr.lifetimes[in] = tr
	fr.b.emit(prog.Assign{Dst: tr.ended(), Val: prog.Int(0)})
	if ends == 0 {
		// No end marked (clang drops the marks after a call that does
		// not return, pthread_exit): the function's return ends it.
		fr.endAtRet = append(fr.endAtRet, tr)
	}
}

// localText is the failure text of a use of local in of frame fr after
// its lifetime ended.
func localText(fr *frame, in *ir.InstAlloca) string {
	return fmt.Sprintf("use of the local variable %s of %s after its lifetime ended", localName(fr, in), localFunc(fr, in))
}

// localName is the C name of local in of frame fr (its IR name if the
// debug information has none); localFunc the C function declaring it.
// Without a debug intrinsic on it (clang's -O1 drops it when it keeps
// the local's value in a register too), the name is the IR's without
// the suffixes clang's inliner adds (".i"), and the function the one of
// the debug location of its lifetime's start (an inlined function's
// scope), else the IR function's.
func localName(fr *frame, in *ir.InstAlloca) string {
	if v, _ := localVarName(fr.f, in); v != "" {
		return v
	}
	v := strings.TrimPrefix(in.Name(), "%")
	for strings.HasSuffix(v, ".i") {
		v = strings.TrimSuffix(v, ".i")
	}
	return v
}

func localFunc(fr *frame, in *ir.InstAlloca) string {
	if _, fn := localVarName(fr.f, in); fn != "" {
		return fn
	}
	for _, blk := range fr.f.Blocks {
		for _, x := range blk.Insts {
			c, ok := x.(*ir.InstCall)
			if !ok || len(c.Args) != 2 {
				continue
			}
			callee, ok := c.Callee.(*ir.Func)
			if !ok || !strings.HasPrefix(callee.Name(), "llvm.lifetime.start") || allocaBehind(c.Args[1]) != in {
				continue
			}
			for _, a := range c.Metadata {
				if loc, ok := a.Node.(*metadata.DILocation); ok && a.Name == "dbg" {
					if fn := scopeFunc(loc.Scope); fn != "" {
						return fn
					}
				}
			}
		}
	}
	return fr.f.Name()
}

// repeats tells whether a loop repeats the lifetime of local in of frame
// fr (see above): the instance is inlined inside a loop, or the local's
// lifetime starts more than once or on a cycle of its function.
func (l *lowerer) repeats(fr *frame, in *ir.InstAlloca) bool {
	if fr.inLoop {
		return true
	}
	starts, _, inCycle := l.lifetimeMarks(fr.f, in)
	return starts > 1 || inCycle
}

// repeatedLocal lowers alloca in of frame fr, of type t, when a loop
// repeats its lifetime and its address escapes (see above): its register
// holds a fresh heap object at each start of its lifetime (at the alloca
// itself when clang marked no start), null before the first; it reports
// false, and lowers nothing, for any other alloca.
func (l *lowerer) repeatedLocal(fr *frame, in *ir.InstAlloca, t types.Type) (bool, error) {
	if in.NElems != nil {
		if _, ok := in.NElems.(*constant.Int); !ok {
			return false, nil // a variable-length array (memory.go)
		}
	}
	n, err := sizeOf(t)
	if err != nil || n > maxHeapObject || !l.repeats(fr, in) || !l.escapes(fr.f, in) {
		return false, nil
	}
	starts, ends, _ := l.lifetimeMarks(fr.f, in)
	if starts > 0 {
		if h := hoisted(fr.f, in); h != nil {
			pos := l.posOf(instMD(h))
			if pos.Line == 0 {
				pos = l.posOf(instMD(in)) // (clang's hoisting drops the line)
			}
			for _, blk := range fr.f.Blocks {
				for _, x := range blk.Insts {
					if c, ok := x.(*ir.InstCall); ok && pos.Line == 0 && len(c.Args) == 2 && allocaBehind(c.Args[1]) == in {
						pos = l.posOf(instMD(c)) // its lifetime's start
					}
				}
			}
			return true, l.errAt(pos, "unsupported: clang-14 computes an address in the local variable %s of %s, whose lifetime a loop repeats and whose address escapes, before its lifetime starts (Musket makes a new object at each start, C11 6.2.4p6, and cannot tell which one that address names)", localName(fr, in), localFunc(fr, in))
		}
	}
	tr := tracked{name: fr.reg(in), reg: fr.reg(in)}
	if fr.lifetimes == nil {
		fr.lifetimes = map[*ir.InstAlloca]tracked{}
	}
	fr.lifetimes[in] = tr
	if l.lifeSites == nil {
		l.lifeSites = map[*ir.InstAlloca]lifeSite{}
	}
	at, ok := t.(*types.ArrayType)
	bytes := ok && at.ElemType.Equal(types.I8) || t.Equal(types.I8)
	l.lifeSites[in] = lifeSite{size: n, bytes: bytes, text: localText(fr, in)}
	if starts == 0 {
		l.startRepeated(fr.b, in, tr)
	} else {
		// Before its first start the local is no object: a use is an
		// invalid memory access, and pthread_exit ends nothing.
		fr.b.emit(prog.Assign{Dst: tr.reg, Val: prog.Int(0)})
		fr.b.emit(prog.Assign{Dst: tr.ended(), Val: prog.Int(1)})
	}
	if ends == 0 {
		fr.endAtRet = append(fr.endAtRet, tr)
	}
	return true, nil
}

// lifeSite is a local whose lifetime a loop repeats: the size of its
// objects, whether they are character memory, its failure text.
type lifeSite struct {
	size  int64
	bytes bool
	text  string
}

// startRepeated starts a new lifetime of repeated local in: a fresh heap
// object (a call site of its own, numbered in l.heap, named by expand).
func (l *lowerer) startRepeated(b *builder, in *ir.InstAlloca, tr tracked) {
	site := l.lifeSites[in]
	k := len(l.heap)
	l.heap = append(l.heap, site.size)
	if site.bytes {
		l.markHeapBytes(k)
	}
	if l.heapLife == nil {
		l.heapLife = map[int]string{}
	}
	l.heapLife[k] = site.text
	b.emit(prog.Assign{Dst: tr.reg, Val: prog.Const{V: prog.Value{Loc: heapLoc, Int: int64(k)}}})
	b.emit(prog.Assign{Dst: tr.ended(), Val: prog.Int(0)})
}

// tracked is a tracked local of a frame: its object's name, and, for a
// local whose lifetime a loop repeats, the register that holds its
// current object (whose mark is the heap object's freed mark).
type tracked struct {
	name string
	reg  string
}

// ended is the register that says the lifetime has ended.
func (t tracked) ended() string { return endedReg(t.name) }

// mark is the address of the mark whose store ends the lifetime.
func (t tracked) mark() prog.Expr {
	if t.reg != "" {
		return addrPlus(prog.Reg{Name: t.reg}, freedOff)
	}
	return prog.Addr(endMark(t.name))
}

// lateAddr is v, an address computed from a local of fr whose lifetime
// a loop repeats by bit casts, getelementptr of constant indices and
// ptrtoint (Musket's integers made of pointers are the pointers), as the
// expression of the local's register (see above): the address in the
// current object, wherever clang computed it.
func (l *lowerer) lateAddr(fr *frame, v value.Value) (prog.Expr, bool) {
	if len(fr.lifetimes) == 0 {
		return nil, false
	}
	a, off, ok := lateChain(v)
	if !ok {
		return nil, false
	}
	tr, ok := fr.lifetimes[a]
	if !ok || tr.reg == "" {
		return nil, false
	}
	return addrPlus(prog.Reg{Name: tr.reg}, off), true
}

// lateChain is the alloca v is computed from by bit casts, getelementptr
// of constant indices and ptrtoint, and the offset.
func lateChain(v value.Value) (*ir.InstAlloca, int64, bool) {
	off := int64(0)
	for k := 0; k < 16; k++ {
		switch x := v.(type) {
		case *ir.InstAlloca:
			return x, off, true
		case *ir.InstBitCast:
			v = x.From
		case *ir.InstAddrSpaceCast:
			v = x.From
		case *ir.InstPtrToInt:
			v = x.From
		case *ir.InstGetElementPtr:
			d, ok := constGEPOffset(x)
			if !ok {
				return nil, 0, false
			}
			off += d
			v = x.Src
		default:
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// hoisted is an instruction of f that computes a value from the address
// of local a (whose lifetime a loop repeats and starts at the lifetime
// starts of a) other than lateChain's, and that clang placed where a's
// lifetime has not started on some path from f's entry (clang's -O1
// hoists such arithmetic out of loops), or nil. Its value would name the
// object of no iteration or of an earlier one.
func hoisted(f *ir.Func, a *ir.InstAlloca) ir.Instruction {
	derived := map[value.Value]bool{a: true}
	for changed := true; changed; {
		changed = false
		for _, blk := range f.Blocks {
			for _, in := range blk.Insts {
				v, ok := in.(value.Value)
				if !ok || derived[v] {
					continue
				}
				switch in.(type) {
				case *ir.InstLoad, *ir.InstStore, *ir.InstCall, *ir.InstCmpXchg, *ir.InstAtomicRMW, *ir.InstICmp, *ir.InstAlloca:
					continue // its value is no address of a
				}
				u, ok := in.(value.User)
				if !ok {
					continue
				}
				for _, op := range u.Operands() {
					if op != nil && *op != nil && derived[*op] {
						derived[v] = true
						changed = true
						break
					}
				}
			}
		}
	}
	// The blocks reached from the entry before a start, and in a start's
	// block the instructions before it.
	isStart := func(in ir.Instruction) bool {
		c, ok := in.(*ir.InstCall)
		if !ok || len(c.Args) != 2 {
			return false
		}
		callee, ok := c.Callee.(*ir.Func)
		return ok && strings.HasPrefix(callee.Name(), "llvm.lifetime.start") && allocaBehind(c.Args[1]) == a
	}
	seen := map[*ir.Block]bool{}
	stack := []*ir.Block{f.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		started := false
		for _, in := range b.Insts {
			if isStart(in) {
				started = true
				break
			}
			if v, ok := in.(value.Value); ok && derived[v] && v != value.Value(a) {
				if _, _, late := lateChain(v); !late {
					return in
				}
			}
		}
		if !started && b.Term != nil {
			stack = append(stack, b.Term.Succs()...)
		}
	}
	return nil
}

// constGEPOffset is the byte offset of a getelementptr of constant
// indices.
func constGEPOffset(in *ir.InstGetElementPtr) (int64, bool) {
	t := in.ElemType
	off := int64(0)
	for k, iv := range in.Indices {
		c, ok := iv.(*constant.Int)
		if !ok {
			return 0, false
		}
		i := c.X.Int64()
		if k == 0 {
			n, err := sizeOf(t)
			if err != nil {
				return 0, false
			}
			off += i * n
			continue
		}
		switch tt := t.(type) {
		case *types.ArrayType:
			n, err := sizeOf(tt.ElemType)
			if err != nil {
				return 0, false
			}
			off += i * n
			t = tt.ElemType
		case *types.StructType:
			offs, _, err := structLayout(tt)
			if err != nil || i < 0 || int(i) >= len(offs) {
				return 0, false
			}
			off += offs[i]
			t = tt.Fields[i]
		default:
			return 0, false
		}
	}
	return off, true
}

// addLifetime gives object name a mark cell and failure text.
func (l *lowerer) addLifetime(name, text string) {
	m := endMark(name)
	if !l.locs[m] {
		l.locs[m] = true
		l.init = append(l.init, initCell{name: m})
	}
	if l.heaps == nil {
		l.heaps = map[string]bool{}
	}
	l.heaps[name] = true
	if l.lifetimes == nil {
		l.lifetimes = map[string]string{}
	}
	l.lifetimes[name] = text
}

// addLifeHeap notes heap object obj, one lifetime of a local whose
// lifetime a loop repeats, with its failure text: its mark is its freed
// mark (free.go's freedMark).
func (l *lowerer) addLifeHeap(obj, text string) {
	if l.lifetimes == nil {
		l.lifetimes = map[string]string{}
	}
	l.lifetimes[obj] = text
	if l.lifeHeaps == nil {
		l.lifeHeaps = map[string]bool{}
	}
	l.lifeHeaps[obj] = true
}

// endLifetime emits the end of tracked object t's lifetime: a plain
// store of 1 to its mark (see above), and notes it in the thread's
// register t.ended(), so that pthread_exit (endFrames) does not end it a
// second time on a path that ended it already: one end per path, as the
// SMT engine's encoding of a lifetime's end asks (bmc's uaf.go).
func endLifetime(b *builder, t tracked) {
	b.emit(prog.Store{Addr: t.mark(), Val: prog.Int(1), Tags: withSize([]string{tagNA}, types.I32)})
	b.emit(prog.Assign{Dst: t.ended(), Val: prog.Int(1)})
}

// endedReg is the register that says the lifetime of name has ended.
func endedReg(name string) string { return "%ended." + name }

// endMark is the mark of tracked object name.
func endMark(name string) string { return "%end." + name }

// lifetime lowers llvm.lifetime.start and llvm.lifetime.end: the end of a
// tracked local's lifetime is its mark's store; the rest is no event.
func (l *lowerer) lifetime(cs *callSite) error {
	if len(cs.args) == 2 {
		if a := allocaBehind(cs.args[1]); a != nil {
			if tr, ok := cs.fr.lifetimes[a]; ok {
				switch {
				case strings.HasPrefix(cs.name, "llvm.lifetime.end"):
					endLifetime(cs.fr.b, tr)
				case tr.reg != "":
					l.startRepeated(cs.fr.b, a, tr)
				}
			}
		}
	}
	return l.noEvent(cs)
}

// endFrames ends the lifetimes of the tracked locals of every function
// instance being inlined (pthread_exit: the thread's stack goes).
func (l *lowerer) endFrames(b *builder) {
	for _, fr := range l.frames {
		for _, tr := range sortedTracked(fr.lifetimes) {
			skip := l.label("ended")
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: tr.ended()}, Y: prog.Int(0)}, Target: skip})
			endLifetime(b, tr)
			b.emit(prog.Label{Name: skip})
		}
	}
}

// sortedTracked are m's values in the order of their names (a stable
// emission order).
func sortedTracked(m map[*ir.InstAlloca]tracked) []tracked {
	var ns []tracked
	for _, n := range m {
		ns = append(ns, n)
	}
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].name < ns[j-1].name; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
	return ns
}

// trackThreadLocals makes, at the start of created thread id, its copy of
// every thread-local variable whose address escapes, each tracked (see
// above); endThreadLocals ends them where the thread ends.
func (l *lowerer) trackThreadLocals(id int) error {
	for _, g := range l.mod.Globals {
		if g.TLSModel == enum.TLSModelNone || !l.globalEscapes(g) {
			continue
		}
		if n, err := sizeOf(g.ContentType); err != nil || n > maxHeapObject {
			continue
		}
		c, err := l.globalAddr(g)
		if err != nil {
			return err
		}
		v := g.Name()
		if dv, ok := globalVarName(g); ok {
			v = dv
		}
		l.addLifetime(c.loc, fmt.Sprintf("use of the thread-local variable %s of thread P%d after the thread ended", v, id))
		if l.threadLocals == nil {
			l.threadLocals = map[int][]string{}
		}
		l.threadLocals[id] = append(l.threadLocals[id], c.loc)
	}
	return nil
}

// endMainThreadLocals ends, where main calls pthread_exit, the lifetime
// of main's copy of every thread-local variable whose address escapes
// (C11 6.2.4p4: its lifetime is the thread's execution, and the other
// threads go on after main's pthread_exit), each then tracked. Main's
// return ends the process (5.1.2.2.3), so nothing is tracked there.
func (l *lowerer) endMainThreadLocals(b *builder) error {
	for _, g := range l.mod.Globals {
		if g.TLSModel == enum.TLSModelNone || !l.globalEscapes(g) {
			continue
		}
		if n, err := sizeOf(g.ContentType); err != nil || n > maxHeapObject {
			continue
		}
		c, err := l.globalAddr(g)
		if err != nil {
			return err
		}
		v := g.Name()
		if dv, ok := globalVarName(g); ok {
			v = dv
		}
		l.addLifetime(c.loc, fmt.Sprintf("use of the thread-local variable %s of thread P0 after the thread ended", v))
		endLifetime(b, tracked{name: c.loc})
	}
	return nil
}

// endThreadLocals ends the lifetimes of thread id's tracked copies.
func (l *lowerer) endThreadLocals(b *builder, id int) {
	for _, n := range l.threadLocals[id] {
		endLifetime(b, tracked{name: n})
	}
}

// globalVarName is the C name of global g from its debug information.
func globalVarName(g *ir.Global) (string, bool) {
	for _, a := range g.Metadata {
		if e, ok := a.Node.(*metadata.DIGlobalVariableExpression); ok && a.Name == "dbg" && e.Var != nil {
			return e.Var.Name, true
		}
	}
	return "", false
}

// localVarName is the C name of alloca a of f and the function that
// declares it (after clang's inlining, not f), from the debug intrinsics.
func localVarName(f *ir.Func, a *ir.InstAlloca) (name, fn string) {
	for _, blk := range f.Blocks {
		for _, in := range blk.Insts {
			c, ok := in.(*ir.InstCall)
			if !ok || len(c.Args) < 2 {
				continue
			}
			callee, ok := c.Callee.(*ir.Func)
			if !ok || (callee.Name() != "llvm.dbg.declare" && callee.Name() != "llvm.dbg.value") || allocaOf(c.Args[0]) != a {
				continue
			}
			dv := localVarOf(c.Args[1])
			if dv == nil {
				continue
			}
			return dv.Name, scopeFunc(dv.Scope)
		}
	}
	return "", ""
}

// scopeFunc is the function a debug scope is in.
func scopeFunc(s metadata.Field) string {
	for k := 0; k < 64 && s != nil; k++ {
		switch x := s.(type) {
		case *metadata.DISubprogram:
			return x.Name
		case *metadata.DILexicalBlock:
			s = x.Scope
		case *metadata.DILexicalBlockFile:
			s = x.Scope
		default:
			return ""
		}
	}
	return ""
}

// allocaBehind is the alloca v names through casts and address
// arithmetic, or nil.
func allocaBehind(v value.Value) *ir.InstAlloca {
	for k := 0; k < 16; k++ {
		switch x := v.(type) {
		case *ir.InstAlloca:
			return x
		case *ir.Arg:
			v = x.Value
		case *ir.InstBitCast:
			v = x.From
		case *ir.InstGetElementPtr:
			v = x.Src
		case *ir.InstAddrSpaceCast:
			v = x.From
		case *constant.ExprBitCast:
			v = x.From
		default:
			return nil
		}
	}
	return nil
}

// lifetimeMarks counts the lifetime starts and ends of alloca a in f and
// tells whether one is on a cycle of f's control flow.
func (l *lowerer) lifetimeMarks(f *ir.Func, a *ir.InstAlloca) (starts, ends int, inCycle bool) {
	cyc := l.cyclic(f)
	for _, blk := range f.Blocks {
		for _, in := range blk.Insts {
			c, ok := in.(*ir.InstCall)
			if !ok || len(c.Args) != 2 {
				continue
			}
			callee, ok := c.Callee.(*ir.Func)
			if !ok || !strings.HasPrefix(callee.Name(), "llvm.lifetime.") || allocaBehind(c.Args[1]) != a {
				continue
			}
			if strings.HasPrefix(callee.Name(), "llvm.lifetime.start") {
				starts++
			} else {
				ends++
			}
			if cyc[blk] {
				inCycle = true
			}
		}
	}
	return starts, ends, inCycle
}

// cyclic are the blocks of f on a cycle of its control flow.
func (l *lowerer) cyclic(f *ir.Func) map[*ir.Block]bool {
	if c, ok := l.cycles[f]; ok {
		return c
	}
	out := map[*ir.Block]bool{}
	for _, start := range f.Blocks {
		seen := map[*ir.Block]bool{}
		stack := []*ir.Block{}
		if start.Term != nil {
			stack = append(stack, start.Term.Succs()...)
		}
		for len(stack) > 0 && !out[start] {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b == start {
				out[start] = true
				break
			}
			if seen[b] {
				continue
			}
			seen[b] = true
			if b.Term != nil {
				stack = append(stack, b.Term.Succs()...)
			}
		}
	}
	if l.cycles == nil {
		l.cycles = map[*ir.Func]map[*ir.Block]bool{}
	}
	l.cycles[f] = out
	return out
}
