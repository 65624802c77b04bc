package cfront

import (
	"fmt"
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/prog"
)

// This file runs the program's constructors (__attribute__((constructor))
// functions, listed by clang in @llvm.global_ctors): the C runtime calls
// them before main, in the order of their priorities (a lower number
// first; the same priority in the order of the list). They are inlined
// at the start of main's thread, before main's first instruction, so
// that they run before any thread exists, as natively. Before, they were
// ignored: a program whose constructor sets a global read by main was
// checked as if the global kept its initial value (a wrong verdict
// under the models without a race flag; with races checked, clang's
// GlobalOpt had sometimes evaluated the constructor into the initial
// value, so the verdict depended on the model).
//
// The exit handlers run where main returns and where exit() is called
// (C11 7.22.4.4: returning from main is calling exit with its value):
// first the functions registered with atexit, in the reverse order of
// their registration, then the destructors (@llvm.global_dtors,
// __attribute__((destructor))): glibc runs them from a handler it
// registered before main, so after every handler the program
// registered, by priority from the largest number (GCC: "a smaller
// priority number means the destructor runs later"), and for one
// priority in the reverse order of the list (.fini_array runs from its
// end); a native run with two destructors of each kind and atexit
// handlers from main and a constructor printed that order. They run
// inlined, in the thread that exits, while the other threads go on (as
// natively, until the process ends). _Exit, quick_exit and abort run
// none; an assertion failure (abort) none either.
//
// atexit registers at run time, so its calls are lowered as stores
// into registers of main's thread: %atexit.n counts the registrations,
// and slot j (%atexit.j, j < the number of atexit calls in the code
// times -bound, at most maxAtexit: a call in a loop may run -bound times)
// holds the number of the function registered j-th
// (the functions passed to atexit, numbered from 1; each must be named).
// At an exit, slot j runs the function its number names, from the last
// slot to the first. A registration beyond the last slot stops the path
// at the bound (BOUND, as a loop that needs more iterations: no verdict
// is claimed for it, and a larger -bound gives more slots). Refused by name: atexit called in a thread other
// than main's or from an exit handler, exit() called in another thread
// of a program that uses atexit (the registrations are main's
// registers), and pthread_exit from main in a program with exit
// handlers (they would run when the last thread ends).

// structor is one entry of @llvm.global_ctors or @llvm.global_dtors.
type structor struct {
	prio int64
	fn   *ir.Func
}

// structors are the functions of the appending global name, in the
// order the runtime calls them (by priority, stable).
func (l *lowerer) structors(name string) ([]*ir.Func, error) {
	var list []structor
	for _, g := range l.mod.Globals {
		if g.Name() != name || g.Init == nil {
			continue
		}
		arr, ok := g.Init.(*constant.Array)
		if !ok {
			continue // zeroinitializer: none
		}
		for _, e := range arr.Elems {
			st, ok := e.(*constant.Struct)
			if !ok || len(st.Fields) < 2 {
				return nil, l.errAt(prog.Pos{File: l.file}, "%s: an entry that is not {priority, function, data} (unsupported)", name)
			}
			prio := int64(65535)
			if c, ok := st.Fields[0].(*constant.Int); ok {
				prio = c.X.Int64()
			}
			fc := st.Fields[1]
			if bc, ok := fc.(*constant.ExprBitCast); ok {
				fc = bc.From
			}
			f, ok := fc.(*ir.Func)
			if !ok {
				return nil, l.errAt(prog.Pos{File: l.file}, "%s: an entry whose function is not named (unsupported)", name)
			}
			list = append(list, structor{prio, f})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].prio < list[j].prio })
	fns := make([]*ir.Func, len(list))
	for i, s := range list {
		fns[i] = s.fn
	}
	return fns, nil
}

// constructors inlines the program's constructors at b, the start of
// main's thread (after the atexit registers are cleared).
func (l *lowerer) constructors(b *builder) error {
	es, err := l.exitsOf()
	if err != nil {
		return err
	}
	if len(es.atexit) > 0 {
		b.emit(prog.Assign{Dst: atexitCount, Val: prog.Int(0)})
		for j := 0; j < es.slots; j++ {
			b.emit(prog.Assign{Dst: atexitSlot(j), Val: prog.Int(0)})
		}
	}
	ctors, err := l.structors("llvm.global_ctors")
	if err != nil {
		return err
	}
	for _, f := range ctors {
		if err := l.lowerFunc(b, f, nil, "", 0, l.funcPos(f)); err != nil {
			return err
		}
	}
	return nil
}

// funcPos is where f is defined (its debug subprogram), or the file.
func (l *lowerer) funcPos(f *ir.Func) prog.Pos {
	for _, a := range f.Metadata {
		if sp, ok := a.Node.(*metadata.DISubprogram); ok && a.Name == "dbg" {
			return prog.Pos{File: l.fileOf(sp), Line: int(sp.Line)}
		}
	}
	return prog.Pos{File: l.file}
}

func init() {
	knownCalls["exit"] = (*lowerer).exitCall // the exit handlers first
	knownCalls["atexit"] = (*lowerer).atexitCall
}

// maxAtexit bounds the registrations of atexit a path may make (C11
// guarantees 32; each slot is a copy of the handlers at every exit).
const maxAtexit = 32

// atexitCount is main's register counting the atexit registrations.
const atexitCount = "%atexit.n"

// atexitSlot is main's register holding the function registered j-th.
func atexitSlot(j int) string { return fmt.Sprintf("%%atexit.%d", j) }

// exitState is what the exit handlers need (see the top of the file).
type exitState struct {
	dtors  []*ir.Func       // in the order they run
	atexit []*ir.Func       // the functions passed to atexit, numbered from 1
	num    map[*ir.Func]int // their numbers
	slots  int              // the registrations a path may make
	in     bool             // the handlers are being lowered
}

// exitsOf finds the program's destructors and atexit functions (once).
func (l *lowerer) exitsOf() (*exitState, error) {
	if l.exits != nil {
		return l.exits, nil
	}
	es := &exitState{num: map[*ir.Func]int{}}
	dtors, err := l.structors("llvm.global_dtors")
	if err != nil {
		return nil, err
	}
	for i := len(dtors) - 1; i >= 0; i-- {
		es.dtors = append(es.dtors, dtors[i])
	}
	calls := 0
	for _, c := range moduleCalls(l.mod) {
		if calleeName(c) != "atexit" || len(c.Args) != 1 {
			continue
		}
		calls++
		if h := funcOf(c.Args[0]); h != nil && es.num[h] == 0 {
			es.atexit = append(es.atexit, h)
			es.num[h] = len(es.atexit)
		}
	}
	es.slots = min(calls*max(l.bound, 1), maxAtexit)
	l.exits = es
	return es, nil
}

// funcOf is the function a constant names (through a cast), or nil.
func funcOf(v value.Value) *ir.Func {
	v = argValue(v)
	if bc, ok := v.(*constant.ExprBitCast); ok {
		v = bc.From
	}
	f, _ := v.(*ir.Func)
	return f
}

// hasExitHandlers tells whether the program has a destructor or calls
// atexit.
func (l *lowerer) hasExitHandlers() bool {
	es, err := l.exitsOf()
	return err == nil && (len(es.dtors) > 0 || len(es.atexit) > 0)
}

// atexitCall lowers atexit(f): f's number into the next slot; 0.
func (l *lowerer) atexitCall(cs *callSite) error {
	es, err := l.exitsOf()
	if err != nil {
		return err
	}
	f := funcOf(cs.args[0])
	switch {
	case f == nil || es.num[f] == 0:
		return l.errAt(cs.pos, "atexit of a function that is not named (unsupported: the handler must be a function of the program)")
	case len(f.Blocks) == 0:
		return l.errAt(cs.pos, "atexit(%s): %s has no definition (unsupported)", f.Name(), f.Name())
	case es.in:
		return l.errAt(cs.pos, "atexit called from an exit handler (unsupported)")
	case l.curThread != 0:
		return l.errAt(cs.pos, "atexit called in a thread other than main's (unsupported: the registrations are kept in main's thread)")
	}
	b := cs.fr.b
	n := prog.Reg{Name: atexitCount}
	ok := l.label("atexit")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: n, Y: prog.Int(int64(es.slots))}, Target: ok})
	b.emit(prog.Assign{Dst: compile.BoundReg, Val: prog.Int(1)}) // more registrations than slots
	b.emit(prog.Jump{Target: exitLabel})
	b.emit(prog.Label{Name: ok})
	for j := 0; j < es.slots; j++ {
		s := prog.Reg{Name: atexitSlot(j)}
		d := prog.Bin{Op: prog.OpSub, X: prog.Int(int64(es.num[f])), Y: s}
		b.emit(prog.Assign{Dst: atexitSlot(j), Val: prog.Bin{Op: prog.OpAdd, X: s,
			Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpEq, X: n, Y: prog.Int(int64(j))}, Y: d}}})
	}
	b.emit(prog.Assign{Dst: atexitCount, Val: prog.Bin{Op: prog.OpAdd, X: n, Y: prog.Int(1)}})
	cs.returnZero()
	return nil
}

// runExitHandlers inlines the exit handlers at b (see the top of the
// file); depth is the inlining depth of the exit.
func (l *lowerer) runExitHandlers(b *builder, depth int, pos prog.Pos) error {
	es, err := l.exitsOf()
	if err != nil {
		return err
	}
	if es.in {
		return nil // exit() in a handler: undefined (C11); the path stops
	}
	if len(es.atexit) > 0 && l.curThread != 0 {
		return l.errAt(pos, "exit() in a thread other than main's, in a program that calls atexit (unsupported: the registrations are kept in main's thread)")
	}
	es.in = true
	defer func() { es.in = false }()
	if l.curThread == 0 {
		for j := es.slots - 1; j >= 0; j-- {
			for i, f := range es.atexit {
				skip := l.label("atexit.skip")
				b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: atexitSlot(j)}, Y: prog.Int(int64(i + 1))}, Target: skip})
				if err := l.lowerFunc(b, f, nil, "", depth+1, pos); err != nil {
					return err
				}
				b.emit(prog.Label{Name: skip})
			}
		}
	}
	for _, f := range es.dtors {
		if err := l.lowerFunc(b, f, nil, "", depth+1, l.funcPos(f)); err != nil {
			return err
		}
	}
	return nil
}

// exitCall lowers exit(): the exit handlers, then the path stops as
// verifier.go's stop.
func (l *lowerer) exitCall(cs *callSite) error {
	if err := l.runExitHandlers(cs.fr.b, cs.fr.depth, cs.pos); err != nil {
		return err
	}
	return l.stop(cs)
}
