package cfront

import (
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"

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
// Destructors (@llvm.global_dtors) run after main returns or at exit(),
// which ends a path here (verifier.go's stop): they are refused by name
// rather than skipped.

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
// main's thread; a program with a destructor is refused.
func (l *lowerer) constructors(b *builder) error {
	dtors, err := l.structors("llvm.global_dtors")
	if err != nil {
		return err
	}
	if len(dtors) > 0 {
		return l.errAt(l.funcPos(dtors[0]), "%s is a destructor (__attribute__((destructor))), which is not supported: it would run after main returns or at exit()", dtors[0].Name())
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
