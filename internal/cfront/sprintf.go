package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers sprintf(buf, fmt, ...) and snprintf(buf, n, fmt, ...)
// (C11 7.21.6.5, 7.21.6.6) for a format that is a string literal made of
// text and the conversions %d, %i (int), %u, %x (unsigned int), %c, %s
// and %%, without flags, width, precision or length modifier; any other
// format is refused by name. The characters are written one by one
// (plain one-byte writes) at buf + p, p counting the characters the
// format produces: snprintf writes only those with p < n-1 and then the
// terminating 0 at min(p, n-1) when n > 0; sprintf writes them all and
// the 0 at p. The result is p, as C says (the length the output has, or
// would have had without the limit). A number's digits are written by
// cases on its number of digits (division and remainder by constants
// only); %s copies its argument up to its 0 with the loop of the string
// functions (strfuncs.go: its bound, BOUND beyond).

// printfCall lowers sprintf and snprintf.
func (l *lowerer) printfCall(cs *callSite) error {
	first := 1 // the format's argument
	if cs.name == "snprintf" {
		first = 2
	}
	if len(cs.args) <= first {
		return l.errAt(cs.pos, "%s: missing arguments", cs.name)
	}
	format, ok := l.constString(cs.args[first])
	if !ok {
		return l.errAt(cs.pos, "%s with a format that is not a string literal (unsupported)", cs.name)
	}
	buf, err := l.arg(cs, 0)
	if err != nil {
		return err
	}
	b := cs.fr.b
	w := &charWriter{l: l, b: b, buf: buf, p: l.fresh("pf")}
	if cs.name == "snprintf" {
		n, err := l.arg(cs, 1)
		if err != nil {
			return err
		}
		w.limit = l.limitReg(b, n)
	}
	b.emit(prog.Assign{Dst: w.p, Val: prog.Int(0)})
	arg := first + 1
	next := func() (prog.Expr, error) {
		if arg >= len(cs.args) {
			return nil, l.errAt(cs.pos, "%s: the format %q asks for more arguments than the call has", cs.name, format)
		}
		arg++
		return l.arg(cs, arg-1)
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			w.char(prog.Int(int64(c)))
			continue
		}
		i++
		if i >= len(format) {
			return l.errAt(cs.pos, "%s: the format %q ends with %%", cs.name, format)
		}
		switch format[i] {
		case '%':
			w.char(prog.Int('%'))
		case 'c':
			v, err := next()
			if err != nil {
				return err
			}
			w.char(umod(v, 256))
		case 's':
			v, err := next()
			if err != nil {
				return err
			}
			w.str(v)
		case 'd', 'i':
			v, err := next()
			if err != nil {
				return err
			}
			w.signed(v)
		case 'u':
			v, err := next()
			if err != nil {
				return err
			}
			w.digits(umod(v, 1<<32), 10, 10)
		case 'x':
			v, err := next()
			if err != nil {
				return err
			}
			w.digits(umod(v, 1<<32), 16, 8)
		default:
			return l.errAt(cs.pos, "%s: the conversion %%%c of the format %q is not supported (only %%d %%i %%u %%x %%c %%s %%%%, without flags, width, precision or length)", cs.name, format[i], format)
		}
	}
	// The terminating 0.
	end := prog.Expr(prog.Reg{Name: w.p})
	if w.limit != nil {
		skip, at := l.label("pfnoend"), l.fresh("pfend")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLe, X: w.limit, Y: prog.Int(0)}, Target: skip})
		b.emit(prog.Assign{Dst: at, Val: end})
		cut := l.label("pfcut")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: end, Y: w.limit}, Target: cut})
		b.emit(prog.Assign{Dst: at, Val: prog.Bin{Op: prog.OpSub, X: w.limit, Y: prog.Int(1)}})
		b.emit(prog.Label{Name: cut})
		w.store(prog.Reg{Name: at}, prog.Int(0))
		b.emit(prog.Label{Name: skip})
	} else {
		w.store(end, prog.Int(0))
	}
	cs.result(end)
	return nil
}

// charWriter writes a format's characters (see the top of the file).
type charWriter struct {
	l     *lowerer
	b     *builder
	buf   prog.Expr
	limit prog.Expr // snprintf's n (nil: sprintf)
	p     string    // the register counting the characters
}

// store writes the byte v at buf + at.
func (w *charWriter) store(at, v prog.Expr) {
	w.b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: w.buf, Y: at}, Val: v, Tags: withSize([]string{tagNA}, types.I8)})
}

// char writes the character c (0..255) at p when it fits, and counts it.
func (w *charWriter) char(c prog.Expr) {
	p := prog.Reg{Name: w.p}
	v := prog.Bin{Op: prog.OpSub, X: umod(prog.Bin{Op: prog.OpAdd, X: c, Y: prog.Int(128)}, 256), Y: prog.Int(128)} // as a signed char
	if w.limit != nil {
		skip := w.l.label("pfskip")
		w.b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: p, Y: prog.Bin{Op: prog.OpSub, X: w.limit, Y: prog.Int(1)}}, Target: skip})
		w.store(p, v)
		w.b.emit(prog.Label{Name: skip})
	} else {
		w.store(p, v)
	}
	w.b.emit(prog.Assign{Dst: w.p, Val: prog.Bin{Op: prog.OpAdd, X: p, Y: prog.Int(1)}})
}

// str writes the string at s up to its 0.
func (w *charWriter) str(s prog.Expr) {
	i, head := w.l.strLoop(w.b)
	done := w.l.label("pfsdone")
	c := w.l.byteAt(w.b, s, prog.Reg{Name: i})
	cr := w.l.fresh("pfc")
	w.b.emit(prog.Assign{Dst: cr, Val: c})
	w.b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: cr}, Y: prog.Int(0)}, Target: done})
	w.char(prog.Reg{Name: cr})
	next(w.b, i, head)
	w.b.emit(prog.Label{Name: done})
}

// signed writes the int v in decimal, with its sign.
func (w *charWriter) signed(v prog.Expr) {
	r := w.l.fresh("pfv")
	w.b.emit(prog.Assign{Dst: r, Val: v})
	pos := w.l.label("pfpos")
	w.b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: prog.Reg{Name: r}, Y: prog.Int(0)}, Target: pos})
	w.char(prog.Int('-'))
	w.b.emit(prog.Assign{Dst: r, Val: prog.Un{Op: prog.OpNeg, X: prog.Reg{Name: r}}})
	w.b.emit(prog.Label{Name: pos})
	w.digits(prog.Reg{Name: r}, 10, 10) // |INT_MIN| = 2^31 has 10 digits
}

// digits writes u (0 <= u < base^most) in base 10 or 16, lower-case:
// one case per number of digits.
func (w *charWriter) digits(u prog.Expr, base int64, most int) {
	r := w.l.fresh("pfu")
	w.b.emit(prog.Assign{Dst: r, Val: u})
	uv := prog.Reg{Name: r}
	done := w.l.label("pfdone")
	pow := int64(1)
	for k := 1; k <= most; k++ {
		pow *= base // base^k
		next := w.l.label("pfdigits")
		if k < most {
			w.b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: uv, Y: prog.Int(pow)}, Target: next})
		}
		div := pow / base
		for j := 0; j < k; j++ {
			d := umod(prog.Bin{Op: prog.OpDiv, X: uv, Y: prog.Int(div)}, base)
			ch := prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpAdd, X: d, Y: prog.Int('0')},
				Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpGe, X: d, Y: prog.Int(10)}, Y: prog.Int('a' - '0' - 10)}}
			w.char(ch)
			div /= base
		}
		w.b.emit(prog.Jump{Target: done})
		w.b.emit(prog.Label{Name: next})
	}
	w.b.emit(prog.Label{Name: done})
}
