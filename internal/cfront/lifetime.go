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
// A local whose lifetime a loop repeats is a new object at each entry
// into its block: looplife.go.

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
	return l.eachEscapingThreadLocal(id, func(loc string) {
		if l.threadLocals == nil {
			l.threadLocals = map[int][]string{}
		}
		l.threadLocals[id] = append(l.threadLocals[id], loc)
	})
}

// endMainThreadLocals ends, where main calls pthread_exit, the lifetime
// of main's copy of every thread-local variable whose address escapes
// (C11 6.2.4p4: its lifetime is the thread's execution, and the other
// threads go on after main's pthread_exit), each then tracked. Main's
// return ends the process (5.1.2.2.3), so nothing is tracked there.
func (l *lowerer) endMainThreadLocals(b *builder) error {
	return l.eachEscapingThreadLocal(0, func(loc string) {
		endLifetime(b, tracked{name: loc})
	})
}

// eachEscapingThreadLocal tracks thread id's copy of every thread-local
// variable whose address escapes (objects larger than maxHeapObject
// aside), with the message naming it and the thread, and hands its
// location to f.
func (l *lowerer) eachEscapingThreadLocal(id int, f func(loc string)) error {
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
		f(c.loc)
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
