package cfront

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"

	"github.com/musket-verify/musket/internal/prog"
)

// Threads whose function is held in a pointer: pthread_create(&t, NULL,
// table[i].fn, arg), thrd_create(&t, fns[i], arg), a start routine chosen
// at run time. As an indirect call is lowered (calls.go), the thread's
// code is a choice among the functions of the program that have the
// pointer's type, by the value the pointer holds:
//
//   - When the pointer's value is known once the creating thread's loops
//     are unrolled (constregs.go), the thread is that function's, as if
//     it were named at the call.
//   - Otherwise the creating thread writes the pointer into the new
//     thread's location %fnp.N (a plain write before the release write
//     of %start.N, as the argument's is), and the new thread reads it
//     after its start and jumps to the body of the function it names.
//     A pointer that names no function of the program reaches an
//     assertion that says so (the program's behaviour is undefined).
//
// The choice reads the value the creator wrote, so each thread runs the
// function the pointer held at its creation, as pthread_create does.

func fnpLoc(k int) string { return fmt.Sprintf("%%fnp.%d", k) }

// funcAt is the function whose address v is, or nil.
func (l *lowerer) funcAt(v prog.Value) *ir.Func {
	if !v.IsAddr() || v.Int != 0 || !strings.HasPrefix(v.Loc, fnLoc("")) {
		return nil
	}
	f := l.funcs[strings.TrimPrefix(v.Loc, fnLoc(""))]
	if f == nil || len(f.Blocks) == 0 {
		return nil
	}
	return f
}

// returns tells whether the thread's function returns a value (a
// function chosen by a pointer: a start routine, which does).
func (c created) returns() bool { return c.fn == nil || !isVoidFunc(c.fn) }

// threadByPointer emits the body of thread id, created with a function
// pointer that was not known: the read of %fnp.id and a branch to each
// candidate's inlined body; the result, if any, goes to register ret.
func (l *lowerer) threadByPointer(b *builder, id int, c created, arg prog.Expr, ret string) error {
	cands := funcsOfType(l.mod, c.fnt)
	if len(cands) == 0 {
		return l.errAt(c.pos, "pthread_create through a function pointer: no function of the program has type %s", c.fnt)
	}
	if len(cands) > 16 {
		return l.errAt(c.pos, "pthread_create through a function pointer: %d functions have its type (at most 16 are tried)", len(cands))
	}
	fp := "%tfn"
	b.emit(prog.Load{Dst: fp, Addr: prog.Addr(fnpLoc(id)), Tags: []string{tagNA}})
	after := l.label("tfn")
	var labels []string
	for _, f := range cands {
		lb := l.label("tfn." + f.Name())
		labels = append(labels, lb)
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: fp}, Y: prog.Addr(fnLoc(f.Name()))}, Target: lb})
	}
	l.fail(b, c.pos, "pthread_create with a function pointer that holds no function of the program")
	for i, f := range cands {
		b.emit(prog.Label{Name: labels[i]})
		var args []prog.Expr
		if len(f.Params) > 0 {
			args = []prog.Expr{arg}
		}
		r := ret
		if isVoidFunc(f) {
			r = ""
		}
		if err := l.lowerFunc(b, f, args, r, 0, c.pos); err != nil {
			return err
		}
		b.emit(prog.Jump{Target: after})
	}
	b.emit(prog.Label{Name: after})
	return nil
}
