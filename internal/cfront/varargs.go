package cfront

import (
	"fmt"

	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the functions of the program that take a variable
// number of arguments (a logging wrapper: int logf(const char *fmt,
// ...)) and the va_start, va_arg, va_copy and va_end they use.
//
// On x86-64 (System V ABI, the layout clang-14 compiles for), a va_list
// is a struct { i32 gp_offset; i32 fp_offset; i8 *overflow_arg_area;
// i8 *reg_save_area } and clang expands va_arg inline: when gp_offset
// is at most 40 (48 for a double's fp_offset at most 160) the argument
// is read from the register save area at that offset, otherwise from
// overflow_arg_area, which then moves on by 8 bytes. Musket passes every
// variable argument in memory, as the ABI does for those after the
// sixth: the call stores them in an object of its own, one 8-byte slot
// each, in order, and va_start sets gp_offset to 48 and fp_offset to
// 176 (the register save area used up) and overflow_arg_area to that
// object. Every va_arg then takes the memory path and reads the next
// slot, which is the value the ABI gives it. reg_save_area points at the
// same object so that the register path, never taken, still reads a
// location. Only integers and pointers are passed this way (a double
// is refused with the floating point).

// varArgs stores the variable arguments of a call to the variadic
// function f in a fresh object and returns its name, for lowerFunc
// (frame.va).
func (l *lowerer) varArgs(cs *callSite, fixed int) (string, error) {
	l.vaObjects++
	obj := fmt.Sprintf("%s.va%d", cs.name, l.vaObjects)
	var fields []types.Type
	var offs []int64
	for i := fixed; i < len(cs.args); i++ {
		t := cs.args[i].Type()
		switch t := t.(type) {
		case *types.PointerType:
		case *types.IntType:
			if t.BitSize != 32 && t.BitSize != 64 {
				return "", l.errAt(cs.pos, "call to %s: a variable argument of type %v (unsupported: only int, long and pointers are passed to variadic functions)", cs.name, t)
			}
		default:
			return "", l.errAt(cs.pos, "call to %s: a variable argument of type %v (unsupported: only int, long and pointers are passed to variadic functions)", cs.name, t)
		}
		offs = append(offs, int64(8*len(offs)))
		fields = append(fields, t)
		if n, _ := sizeOf(t); n == 4 {
			fields = append(fields, types.I32) // the slot's other half
		}
	}
	if len(fields) == 0 {
		fields = append(fields, types.I64)
	}
	if err := l.addObject(obj, types.NewStruct(fields...), nil, cs.pos); err != nil {
		return "", err
	}
	var cells []cell
	_ = l.cells(types.NewStruct(fields...), nil, 0, &cells)
	for _, c := range cells {
		l.nonAt[locName(obj, c.off)] = true
	}
	for k, i := 0, fixed; i < len(cs.args); k, i = k+1, i+1 {
		v, err := l.arg(cs, i)
		if err != nil {
			return "", err
		}
		cs.fr.b.emit(prog.Store{Addr: prog.Const{V: prog.Value{Loc: obj, Int: offs[k]}}, Val: v,
			Tags: withSizeAlign([]string{tagNA}, cs.args[i].Type(), 8)})
	}
	return obj, nil
}

// vaStart lowers llvm.va_start(ap) in a variadic function: ap's
// gp_offset 48, fp_offset 176, and both areas the call's object.
func (l *lowerer) vaStart(cs *callSite) error {
	if cs.fr.va == "" {
		return l.errAt(cs.pos, "va_start outside a variadic function")
	}
	ap, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	area := prog.Addr(cs.fr.va)
	for _, f := range []struct {
		off int64
		t   types.Type
		v   prog.Expr
	}{{0, types.I32, prog.Int(48)}, {4, types.I32, prog.Int(176)}, {8, types.I8Ptr, area}, {16, types.I8Ptr, area}} {
		cs.fr.b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: ap, Y: prog.Int(f.off)}, Val: f.v, Tags: withSizeAlign([]string{tagNA}, f.t, 4)})
	}
	return nil
}

// vaCopy lowers llvm.va_copy(dst, src): the four fields copied.
func (l *lowerer) vaCopy(cs *callSite) error {
	dst, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	src, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		off int64
		t   types.Type
	}{{0, types.I32}, {4, types.I32}, {8, types.I8Ptr}, {16, types.I8Ptr}} {
		r := l.fresh("vacopy")
		tags := withSizeAlign([]string{tagNA}, f.t, 4)
		cs.fr.b.emit(prog.Load{Dst: r, Addr: prog.Bin{Op: prog.OpAdd, X: src, Y: prog.Int(f.off)}, Tags: tags})
		cs.fr.b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: dst, Y: prog.Int(f.off)}, Val: prog.Reg{Name: r}, Tags: tags})
	}
	return nil
}
