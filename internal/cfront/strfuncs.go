package cfront

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/musket-verify/musket/internal/prog"
)

// This file defines the C library's string functions that programs call
// most and clang leaves as calls (C11 7.24; POSIX for strnlen): strlen,
// strnlen, strcmp, strncmp, strchr, memchr and strcpy (of a string that
// is not a literal: clang copies a literal with memcpy), and POSIX's
// rand_r. Each
// is lowered as the loop its definition is, byte by byte, with plain
// reads of one byte (as a program's own loop would read; the C
// library's word-at-a-time reads give the same values to a race-free
// program, and any concurrent write to the bytes is a race either way):
//
//   - strlen(s): the number of bytes before the first 0.
//   - strnlen(s, n): the same, at most n (no byte at or after s+n read).
//   - strcmp(a, b), strncmp(a, b, n): the difference of the first
//     differing bytes, read as unsigned char (C asks only for its sign),
//     0 when the strings are equal (up to n bytes).
//   - strchr(s, c): the address of the first byte equal to (char)c, the
//     terminating 0 included (strchr(s, 0) is the address of the 0);
//     NULL when there is none.
//   - memchr(s, c, n): the same over exactly n bytes, 0 not special.
//   - strcpy(d, s): the bytes of s up to its 0 included, one by one;
//     d. stpcpy (POSIX; clang's form of a strcpy followed by strlen):
//     the same, returning the address of the 0 written.
//   - rand_r(seed): glibc's generator (three steps of the linear
//     congruence next = next*1103515245 + 12345 mod 2^32, giving 11, 10
//     and 10 bits of next/65536), *seed updated: the values a native run
//     gets.
//
// A loop's bound is the size of the largest character array the program
// declares (its globals, its string literals, its locals), at least
// -bound and at most maxStrLoop: a string the loop finds no end of
// within it stops the path at the bound (BOUND: no verdict claimed; a
// larger -bound helps for strings in heap objects), and a read past the
// end of the object is an invalid memory access, as for the program's
// own reads (an unterminated string is undefined behaviour).
// The printf family: sprintf.go; strtol and atoi: strtol.go; rand:
// rand.go; strdup: stdlib.go; <ctype.h>: ctype.go.

// In a program that calls one of these functions, a copy, fill or
// comparison (memcpy, memset, memcmp and clang's forms of strcpy and of
// strcmp with a literal) between character memory (no pointer of
// another type cast to char *) is made of one-byte accesses, as the
// string functions read: with clang's widest units (8 bytes) the buffer
// had accesses of mixed sizes, which only the SMT engine decides, and
// slowly (a parser of a 16-byte setting timed out at 60 s). Programs
// that call none of them keep their units.

// maxStrLoop bounds the iterations of a string function's loop.
const maxStrLoop = 64

func init() {
	for name, f := range map[string]callLowering{
		"strlen":  (*lowerer).strLen,
		"strnlen": (*lowerer).strLen,
		"strcmp":  (*lowerer).strCmp,
		"strncmp": (*lowerer).strCmp,
		"strchr":  (*lowerer).strChr,
		"memchr":  (*lowerer).strChr,
		"rand_r":  (*lowerer).randR,
		"strcpy":  (*lowerer).strCpy,
		"stpcpy":  (*lowerer).strCpy, // clang's form of strcpy then strlen
		// sprintf.go
		"sprintf":  (*lowerer).printfCall,
		"snprintf": (*lowerer).printfCall,
		"printf":   (*lowerer).printfCall,
		"fprintf":  (*lowerer).printfCall,
		"dprintf":  (*lowerer).printfCall,
	} {
		knownCalls[name] = ownFirst(f)
	}
}

// strLoopBound is the bound of a string function's loop (see the top of
// the file), computed once.
func (l *lowerer) strLoopBound() int64 {
	if l.strBound > 0 {
		return l.strBound
	}
	n := int64(max(l.bound, 1))
	grow := func(t types.Type) {
		if a, ok := t.(*types.ArrayType); ok {
			if it, ok := a.ElemType.(*types.IntType); ok && it.BitSize == 8 {
				n = max(n, int64(a.Len)+1)
			}
		}
	}
	for _, g := range l.mod.Globals {
		grow(g.ContentType)
	}
	for _, in := range moduleInsts(l.mod) {
		if a, ok := in.(*ir.InstAlloca); ok {
			grow(a.ElemType)
		}
	}
	l.strBound = min(n, maxStrLoop)
	return l.strBound
}

// byteAt emits a plain one-byte read of p + i into a fresh register,
// read unsigned (0..255).
func (l *lowerer) byteAt(b *builder, p prog.Expr, i prog.Expr) prog.Expr {
	r := l.fresh("sb")
	b.emit(prog.Load{Dst: r, Addr: prog.Bin{Op: prog.OpAdd, X: p, Y: i}, Tags: withSize([]string{tagNA}, types.I8)})
	return umod(prog.Reg{Name: r}, 256)
}

// strLoop emits the head of a string function's loop: the bound mark, i
// = 0, the loop's label; it returns i's register and the label.
func (l *lowerer) strLoop(b *builder) (string, string) {
	i := l.fresh("si")
	b.emit(prog.Assign{Dst: i, Val: prog.Int(0)})
	b.emit(prog.Assign{Dst: loopBoundReg, Val: prog.Int(l.strLoopBound())})
	head := l.label("strloop")
	b.emit(prog.Label{Name: head})
	return i, head
}

// limitReg holds a length argument in a register of its own: a length
// computed as a difference of pointers is then rewritten once, where it
// is assigned (ptrcmp.go), and the loop compares integers.
func (l *lowerer) limitReg(b *builder, e prog.Expr) prog.Expr {
	r := l.fresh("slim")
	b.emit(prog.Assign{Dst: r, Val: e})
	return prog.Reg{Name: r}
}

// strArgs reads the n arguments of a string function and, when the
// function is bounded (its name is bounded: strnlen, strncmp, memchr),
// its limit, the argument after them, put in a register (limitReg);
// limit is nil for the unbounded form.
func (l *lowerer) strArgs(cs *callSite, n int, bounded string) (args []prog.Expr, limit prog.Expr, err error) {
	for k := 0; k <= n; k++ {
		if k == n && cs.name != bounded {
			break
		}
		a, err := l.arg(cs, k)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, a)
	}
	if len(args) > n {
		limit = l.limitReg(cs.fr.b, args[n])
	}
	return args[:n], limit, nil
}

// boundedLoop opens a string loop (strLoop) whose exit is done, and
// leaves it at once when the index reaches limit (none when nil).
func (l *lowerer) boundedLoop(b *builder, limit prog.Expr) (i, head, done string, iv prog.Reg) {
	i, head = l.strLoop(b)
	done = l.label("strdone")
	iv = prog.Reg{Name: i}
	if limit != nil {
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: iv, Y: limit}, Target: done})
	}
	return i, head, done, iv
}

// next emits i++ and the jump back to head.
func next(b *builder, i, head string) {
	b.emit(prog.Assign{Dst: i, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: i}, Y: prog.Int(1)}})
	b.emit(prog.Jump{Target: head})
}

// result assigns v to the call's result, if it is used.
func (cs *callSite) result(v prog.Expr) {
	if cs.dst != "" {
		cs.fr.b.emit(prog.Assign{Dst: cs.dst, Val: v})
	}
}

// strLen lowers strlen(s) and strnlen(s, n).
func (l *lowerer) strLen(cs *callSite) error {
	args, limit, err := l.strArgs(cs, 1, "strnlen")
	if err != nil {
		return err
	}
	s, b := args[0], cs.fr.b
	i, head, done, iv := l.boundedLoop(b, limit)
	c := l.byteAt(b, s, iv)
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: c, Y: prog.Int(0)}, Target: done})
	next(b, i, head)
	b.emit(prog.Label{Name: done})
	cs.result(iv)
	return nil
}

// strCmp lowers strcmp(a, b) and strncmp(a, b, n).
func (l *lowerer) strCmp(cs *callSite) error {
	args, limit, err := l.strArgs(cs, 2, "strncmp")
	if err != nil {
		return err
	}
	a, b2, b := args[0], args[1], cs.fr.b
	res := l.fresh("scmp")
	b.emit(prog.Assign{Dst: res, Val: prog.Int(0)})
	i, head, done, iv := l.boundedLoop(b, limit)
	x := l.byteAt(b, a, iv)
	y := l.byteAt(b, b2, iv)
	b.emit(prog.Assign{Dst: res, Val: prog.Bin{Op: prog.OpSub, X: x, Y: y}})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: prog.Reg{Name: res}, Y: prog.Int(0)}, Target: done})
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: x, Y: prog.Int(0)}, Target: done})
	next(b, i, head)
	b.emit(prog.Label{Name: done})
	cs.result(prog.Reg{Name: res})
	return nil
}

// strChr lowers strchr(s, c) and memchr(s, c, n).
func (l *lowerer) strChr(cs *callSite) error {
	args, limit, err := l.strArgs(cs, 2, "memchr")
	if err != nil {
		return err
	}
	s, c, b := args[0], args[1], cs.fr.b
	res := l.fresh("schr")
	b.emit(prog.Assign{Dst: res, Val: prog.Int(0)}) // NULL
	want := umod(c, 256)
	i, head, done, iv := l.boundedLoop(b, limit)
	x := l.byteAt(b, s, iv)
	found := l.label("strfound")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: x, Y: want}, Target: found})
	if limit == nil {
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: x, Y: prog.Int(0)}, Target: done})
	}
	next(b, i, head)
	b.emit(prog.Label{Name: found})
	b.emit(prog.Assign{Dst: res, Val: prog.Bin{Op: prog.OpAdd, X: s, Y: iv}})
	b.emit(prog.Label{Name: done})
	cs.result(prog.Reg{Name: res})
	return nil
}

// strCpy lowers strcpy(d, s).
func (l *lowerer) strCpy(cs *callSite) error {
	d, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	s, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	b := cs.fr.b
	i, head := l.strLoop(b)
	iv := prog.Reg{Name: i}
	r := l.fresh("scpy")
	b.emit(prog.Load{Dst: r, Addr: prog.Bin{Op: prog.OpAdd, X: s, Y: iv}, Tags: withSize([]string{tagNA}, types.I8)})
	b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: d, Y: iv}, Val: prog.Reg{Name: r}, Tags: withSize([]string{tagNA}, types.I8)})
	done := l.label("strdone")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Target: done})
	next(b, i, head)
	b.emit(prog.Label{Name: done})
	if cs.name == "stpcpy" {
		cs.result(prog.Bin{Op: prog.OpAdd, X: d, Y: iv}) // the address of the 0 written
	} else {
		cs.result(d)
	}
	return nil
}

// randR lowers POSIX's rand_r(seed) as glibc computes it (see the top
// of the file).
func (l *lowerer) randR(cs *callSite) error {
	p, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	b := cs.fr.b
	r := l.fresh("seed")
	b.emit(prog.Load{Dst: r, Addr: p, Tags: withSize([]string{tagNA}, types.I32)})
	step := func(x prog.Expr) prog.Expr {
		return umod(prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpMul, X: x, Y: prog.Int(1103515245)}, Y: prog.Int(12345)}, 1<<32)
	}
	var next prog.Expr = umod(prog.Reg{Name: r}, 1<<32)
	var res prog.Expr
	for k, bits := range []int64{2048, 1024, 1024} {
		n := l.fresh("seed")
		b.emit(prog.Assign{Dst: n, Val: step(next)})
		next = prog.Reg{Name: n}
		part := umod(prog.Bin{Op: prog.OpDiv, X: next, Y: prog.Int(65536)}, bits)
		if k == 0 {
			res = part
		} else {
			// (res << 10) ^ part, part < 2^10: a sum.
			res = prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpMul, X: res, Y: prog.Int(1024)}, Y: part}
		}
	}
	b.emit(prog.Store{Addr: p, Val: wrap(next, 32), Tags: withSize([]string{tagNA}, types.I32)})
	cs.result(res)
	return nil
}

// byteCopies tells whether a copy between the pointers dst and src (a
// fill: both the same) is made of bytes (see the top of the file).
func (l *lowerer) byteCopies(dst, src value.Value) bool {
	if !l.callsStringFuncs() {
		return false
	}
	for _, v := range []value.Value{dst, src} {
		v = argValue(v)
		if pt := pointeeBeforeCast(v); pt != nil && !pt.Equal(types.I8) {
			return false
		}
	}
	return true
}

// callsStringFuncs tells whether the program calls a string function of
// this file (declared, not defined, by the program).
func (l *lowerer) callsStringFuncs() bool {
	if l.strFuncs == 0 {
		l.strFuncs = 1
		for _, name := range []string{"strlen", "strnlen", "strcmp", "strncmp", "strchr", "memchr", "strcpy", "stpcpy", "sprintf", "snprintf",
			"strtol", "strtoll", "strtoul", "strtoull", "atoi", "atol", "atoll"} {
			if f := l.funcs[name]; f != nil && len(f.Blocks) == 0 {
				l.strFuncs = 2
			}
		}
		// The output functions read their strings only when their result
		// is used (sprintf.go, stdio.go).
		for f, c := range moduleCalls(l.mod) {
			switch calleeName(c) {
			case "printf", "fprintf", "dprintf", "puts", "fputs":
				if l.resultUsed(f, c) {
					l.strFuncs = 2
				}
			}
		}
	}
	return l.strFuncs == 2
}
