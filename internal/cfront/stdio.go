package cfront

import (
	"github.com/musket-verify/musket/internal/prog"
)

// This file gives the output functions of <stdio.h> their results. Their
// output is not modelled (nothing is checked about it), but a program may
// use what they return, and glibc's values on a stream that does not
// fail are (C11 7.21.7, glibc's implementations):
//
//   - puts(s): the number of characters written, the newline included
//     (strlen(s) + 1; C asks for a non-negative value);
//   - fputs(s, stream): 1 (C: non-negative);
//   - putchar(c), fputc(c, stream), putc(c, stream): c converted to
//     unsigned char;
//   - fwrite(p, size, n, stream): n, or 0 when size or n is 0;
//   - fflush, perror: 0 / nothing.
//
// puts and fputs read their string (as %s does in printf, sprintf.go)
// when it is not a literal: a write to it by another thread at the same
// time is a data race.

func init() {
	for name, f := range map[string]callLowering{
		"puts":    (*lowerer).putsCall,
		"fputs":   (*lowerer).putsCall,
		"putchar": (*lowerer).putcharCall,
		"fputc":   (*lowerer).putcharCall,
		"putc":    (*lowerer).putcharCall,
		"fwrite":  (*lowerer).fwriteCall,
	} {
		knownCalls[name] = ownFirst(f)
	}
}

// putsCall lowers puts and fputs.
func (l *lowerer) putsCall(cs *callSite) error {
	if len(cs.args) == 0 {
		return l.errAt(cs.pos, "%s: missing arguments", cs.name)
	}
	n := int64(-1)
	if lit, ok := l.literalString(cs.args[0]); ok {
		n = int64(len(lit))
	}
	if n < 0 && !l.callResultUsed(cs) {
		return nil // a result nobody uses: no event (doc.go)
	}
	if n >= 0 {
		if cs.name == "puts" {
			cs.result(prog.Int(n + 1))
		} else {
			cs.result(prog.Int(1))
		}
		return nil
	}
	s, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	w := &charWriter{l: l, b: cs.fr.b, p: l.fresh("pf"), count: true}
	w.b.emit(prog.Assign{Dst: w.p, Val: prog.Int(0)})
	w.str(&fmtSpec{width: -1, prec: -1, conv: 's'}, s)
	if cs.name == "puts" {
		cs.result(prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: w.p}, Y: prog.Int(1)})
	} else {
		cs.result(prog.Int(1))
	}
	return nil
}

// putcharCall lowers putchar, fputc and putc.
func (l *lowerer) putcharCall(cs *callSite) error {
	if cs.dst == "" {
		return nil
	}
	c, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	cs.result(umod(c, 256))
	return nil
}

// fwriteCall lowers fwrite.
func (l *lowerer) fwriteCall(cs *callSite) error {
	if cs.dst == "" {
		return nil
	}
	size, err := l.arg(cs, 1)
	if err != nil {
		return err
	}
	n, err := l.arg(cs, 2)
	if err != nil {
		return err
	}
	b := cs.fr.b
	cs.result(n)
	skip := l.label("fwrite")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpNe, X: size, Y: prog.Int(0)}, Target: skip})
	cs.result(prog.Int(0))
	b.emit(prog.Label{Name: skip})
	return nil
}
