package cfront

import (
	"github.com/llir/llvm/ir/types"

	"github.com/musket-verify/musket/internal/prog"
)

// This file lowers the printf family (C11 7.21.6): sprintf(buf, fmt,
// ...) and snprintf(buf, n, fmt, ...) write what the format produces;
// printf(fmt, ...), fprintf(stream, fmt, ...) and dprintf(fd, fmt, ...)
// only count it (their output is not modelled), and only when their
// result is used: otherwise they are no event, as GenMC and Dartagnan
// treat them (their %s arguments are then not read).
//
// The format must be a string literal (fmtspec.go reads it): text and
// the conversions d i u x X o c s p %, with the flags - + space # 0, a
// width and a precision (digits, or * with an argument known when the
// program is lowered), and the length modifiers hh h l ll j z t. What a
// conversion produces is C's (7.21.6.1) and glibc's where C leaves a
// choice: a precision of 0 prints no digit for 0 (but %#o prints "0"),
// # adds 0x/0X to a non-zero hexadecimal number and a leading 0 to an
// octal one, 0 pads with zeros after the sign and the 0x unless a
// precision is given or - is, a negative * width means - and its
// absolute value, a negative * precision none. %p prints an address,
// which Musket has no number for: refused where the output or its
// length is used. Floating-point conversions and %n are refused there
// too; a printf whose result is not used accepts any format.
//
// The characters are written one by one (plain one-byte writes) at buf
// + p, p counting the characters the format produces: snprintf writes
// only those with p < n-1 and then the terminating 0 at min(p, n-1)
// when n > 0; sprintf writes them all and the 0 at p. The result is p,
// as C says (the length the output has, or would have had without the
// limit). A number's digits are written by cases on its number of
// digits (division and remainder by constants only), each case with its
// padding known; a 64-bit value of 2^63 or more (unsigned) or negative
// (signed) is cut into its quotient by 10 and its last digit, both
// computed without leaving the 64-bit range. %s copies its argument up
// to its 0 (or its precision) with the loop of the string functions
// (strfuncs.go: its bound, BOUND beyond); with a width, a first loop
// measures it.

// printfCall lowers the printf family.
func (l *lowerer) printfCall(cs *callSite) error {
	first := 0 // the format's argument
	switch cs.name {
	case "sprintf", "fprintf", "dprintf":
		first = 1
	case "snprintf":
		first = 2
	}
	count := cs.name == "printf" || cs.name == "fprintf" || cs.name == "dprintf"
	if len(cs.args) <= first {
		return l.errAt(cs.pos, "%s: missing arguments", cs.name)
	}
	if count && !l.callResultUsed(cs) {
		// Output that is not modelled and a count nobody uses: no
		// event, as GenMC and Dartagnan treat printf (reading its %s
		// arguments' characters made cw5/cfeat_fnptr.c's logging time
		// out under power, where it had an answer in 1.5 s).
		return nil
	}
	format, ok := l.constString(cs.args[first])
	if !ok {
		return l.errAt(cs.pos, "%s with a format that is not a string literal (unsupported)", cs.name)
	}
	pieces, err := parseFormat(format)
	if err != nil {
		return l.errAt(cs.pos, "%s: %v", cs.name, err)
	}
	b := cs.fr.b
	w := &charWriter{l: l, b: b, p: l.fresh("pf"), count: count}
	if !count {
		if w.buf, err = l.arg(cs, 0); err != nil {
			return err
		}
	}
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
	constArg := func(what string) (int, error) {
		v, err := next()
		if err != nil {
			return 0, err
		}
		c, ok := v.(prog.Const)
		if !ok || c.V.IsAddr() {
			return 0, l.errAt(cs.pos, "%s: a %s given by * that is not known when the program is lowered (unsupported)", cs.name, what)
		}
		return int(int32(c.V.Int)), nil
	}
	for _, pc := range pieces {
		if pc.spec == nil {
			w.text(pc.text)
			continue
		}
		sp := *pc.spec
		if sp.widthArg {
			n, err := constArg("width")
			if err != nil {
				return err
			}
			if n < 0 {
				sp.minus, n = true, -n
			}
			sp.width = n
		}
		if sp.precArg {
			n, err := constArg("precision")
			if err != nil {
				return err
			}
			sp.prec = max(n, -1)
		}
		if sp.width > maxFieldWidth || sp.prec > maxFieldWidth {
			return l.errAt(cs.pos, "%s: a width or precision over %d is not supported", cs.name, maxFieldWidth)
		}
		if sp.conv == 'p' {
			return l.errAt(cs.pos, "%s: %%p prints an address, which has no number in Musket (unsupported where the output or its length is used)", cs.name)
		}
		v, err := next()
		if err != nil {
			return err
		}
		switch sp.conv {
		case 'c':
			w.field(&sp, 1, func() { w.char(umod(v, 256)) })
		case 's':
			if lit, ok := l.literalString(cs.args[arg-1]); ok {
				// A string literal: its characters are known (and a
				// literal only printed is not declared: literals.go).
				if sp.prec >= 0 && len(lit) > sp.prec {
					lit = lit[:sp.prec]
				}
				w.field(&sp, len(lit), func() { w.text(lit) })
				break
			}
			w.str(&sp, v)
		default:
			w.integer(&sp, v)
		}
	}
	end := prog.Expr(prog.Reg{Name: w.p})
	if !count {
		w.terminate(end)
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
	count bool      // only count: nothing written
}

// terminate writes the terminating 0 (see the top of the file).
func (w *charWriter) terminate(end prog.Expr) {
	b, l := w.b, w.l
	if w.limit == nil {
		w.store(end, prog.Int(0))
		return
	}
	skip, at := l.label("pfnoend"), l.fresh("pfend")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLe, X: w.limit, Y: prog.Int(0)}, Target: skip})
	b.emit(prog.Assign{Dst: at, Val: end})
	cut := l.label("pfcut")
	b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpLt, X: end, Y: w.limit}, Target: cut})
	b.emit(prog.Assign{Dst: at, Val: prog.Bin{Op: prog.OpSub, X: w.limit, Y: prog.Int(1)}})
	b.emit(prog.Label{Name: cut})
	w.store(prog.Reg{Name: at}, prog.Int(0))
	b.emit(prog.Label{Name: skip})
}

// store writes the byte v at buf + at.
func (w *charWriter) store(at, v prog.Expr) {
	w.b.emit(prog.Store{Addr: prog.Bin{Op: prog.OpAdd, X: w.buf, Y: at}, Val: v, Tags: withSize([]string{tagNA}, types.I8)})
}

// advance adds n to the count.
func (w *charWriter) advance(n int64) {
	if n != 0 {
		w.b.emit(prog.Assign{Dst: w.p, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: w.p}, Y: prog.Int(n)}})
	}
}

// char writes the character c (0..255) at p when it fits, and counts it.
func (w *charWriter) char(c prog.Expr) {
	if w.count {
		w.advance(1)
		return
	}
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
	w.advance(1)
}

// text writes the characters of s.
func (w *charWriter) text(s string) {
	if w.count {
		w.advance(int64(len(s)))
		return
	}
	for i := 0; i < len(s); i++ {
		w.char(prog.Int(int64(s[i])))
	}
}

// repeat writes n times the character c.
func (w *charWriter) repeat(c byte, n int) {
	if n <= 0 {
		return
	}
	if w.count {
		w.advance(int64(n))
		return
	}
	for ; n > 0; n-- {
		w.char(prog.Int(int64(c)))
	}
}

// field writes a conversion of a known length n whose characters body
// writes, padded with spaces to the width (on the left, on the right
// under -). In count mode body is not called.
func (w *charWriter) field(sp *fmtSpec, n int, body func()) {
	pad := sp.width - n
	if !sp.minus {
		w.repeat(' ', pad)
	}
	if w.count {
		w.advance(int64(n))
	} else {
		body()
	}
	if sp.minus {
		w.repeat(' ', pad)
	}
}

// str writes the string at s up to its 0 or its precision, padded to
// the width.
func (w *charWriter) str(sp *fmtSpec, s prog.Expr) {
	l, b := w.l, w.b
	var n prog.Reg // its length, measured when a width asks for it
	if sp.width > 0 || w.count {
		i, head := l.strLoop(b)
		done := l.label("pfslen")
		iv := prog.Reg{Name: i}
		if sp.prec >= 0 {
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: iv, Y: prog.Int(int64(sp.prec))}, Target: done})
		}
		c := l.byteAt(b, s, iv)
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: c, Y: prog.Int(0)}, Target: done})
		next(b, i, head)
		b.emit(prog.Label{Name: done})
		n = prog.Reg{Name: l.fresh("pfslen")}
		b.emit(prog.Assign{Dst: n.Name, Val: iv})
	}
	pad := func() {
		// max(width - n, 0) spaces, unrolled: space k is written when
		// k < width - n.
		for k := 0; k < sp.width; k++ {
			skip := l.label("pfpad")
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: prog.Bin{Op: prog.OpAdd, X: n, Y: prog.Int(int64(k))}, Y: prog.Int(int64(sp.width))}, Target: skip})
			w.char(prog.Int(' '))
			b.emit(prog.Label{Name: skip})
		}
	}
	if !sp.minus {
		pad()
	}
	if w.count {
		b.emit(prog.Assign{Dst: w.p, Val: prog.Bin{Op: prog.OpAdd, X: prog.Reg{Name: w.p}, Y: n}})
	} else {
		i, head := l.strLoop(b)
		done := l.label("pfsdone")
		iv := prog.Reg{Name: i}
		if sp.prec >= 0 {
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: iv, Y: prog.Int(int64(sp.prec))}, Target: done})
		}
		c := l.byteAt(b, s, iv)
		cr := l.fresh("pfc")
		b.emit(prog.Assign{Dst: cr, Val: c})
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpEq, X: prog.Reg{Name: cr}, Y: prog.Int(0)}, Target: done})
		w.char(prog.Reg{Name: cr})
		next(b, i, head)
		b.emit(prog.Label{Name: done})
	}
	if sp.minus {
		pad()
	}
}

// digitCount is the number of digits of m >= 0 in base (0 for 0).
func digitCount(m uint64, base int64) int {
	n := 0
	for ; m > 0; m /= uint64(base) {
		n++
	}
	return n
}

// integer writes an integer conversion of the value v.
func (w *charWriter) integer(sp *fmtSpec, v prog.Expr) {
	l, b := w.l, w.b
	bits, base := sp.intBits(), sp.base()
	signed := sp.conv == 'd' || sp.conv == 'i'
	r := l.fresh("pfv")
	// The argument as the conversion reads it: narrowed to its length,
	// signed or not; a 64-bit one keeps its bits (negative: 2^63 or more
	// when unsigned).
	switch {
	case bits == 64:
		b.emit(prog.Assign{Dst: r, Val: v})
	case signed:
		half := int64(1) << (bits - 1)
		b.emit(prog.Assign{Dst: r, Val: prog.Bin{Op: prog.OpSub, X: umod(prog.Bin{Op: prog.OpAdd, X: v, Y: prog.Int(half)}, int64(1)<<bits), Y: prog.Int(half)}})
	default:
		b.emit(prog.Assign{Dst: r, Val: umod(v, int64(1)<<bits)})
	}
	rv := prog.Reg{Name: r}
	maxMag := uint64(1)<<bits - 1 // the largest magnitude of a non-negative value
	if bits == 64 {
		maxMag = 1<<63 - 1
	} else if signed {
		maxMag = uint64(1) << (bits - 1)
	}
	most := digitCount(maxMag, base)
	done := l.label("pfnum")
	sign := ""
	switch {
	case sp.plus:
		sign = "+"
	case sp.space:
		sign = " "
	}
	if signed || bits == 64 {
		nonneg := l.label("pfnonneg")
		b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: rv, Y: prog.Int(0)}, Target: nonneg})
		switch {
		case signed && bits < 64:
			w.magnitude(sp, "-", prog.Un{Op: prog.OpNeg, X: rv}, base, most, nil)
		case signed:
			// |v| = 10q + t, q = -floor((v+9)/10), t = 10 floor((v+9)/10) - v.
			f := floorDiv64(prog.Bin{Op: prog.OpAdd, X: rv, Y: prog.Int(9)}, 10)
			w.magnitude(sp, "-", prog.Un{Op: prog.OpNeg, X: f}, 10, 18,
				prog.Bin{Op: prog.OpSub, X: prog.Bin{Op: prog.OpMul, X: f, Y: prog.Int(10)}, Y: rv})
		case base == 10:
			// v + 2^64 = 10q + t: 2^64 = 10K + 6, q = K + floor((v+6)/10).
			const k = 1844674407370955161
			x := prog.Bin{Op: prog.OpAdd, X: rv, Y: prog.Int(6)}
			w.magnitude(sp, "", prog.Bin{Op: prog.OpAdd, X: prog.Int(k), Y: floorDiv64(x, 10)}, 10, 19, umod(x, 10))
		default:
			// All the digits of the 64 bits: 16 hexadecimal, or 22 octal
			// whose first is 1 (bit 63).
			nd := 16
			if base == 8 {
				nd = 22
			}
			w.number(sp, "", nd, false, true, func() {
				start := nd - 1
				if base == 8 {
					w.char(prog.Int('1'))
					start--
				}
				pow := int64(1)
				for j := 0; j < start; j++ {
					pow *= base
				}
				for j := start; j >= 0; j-- {
					w.digit(sp, umod(floorDiv64(rv, pow), base))
					pow /= base
				}
			})
		}
		b.emit(prog.Jump{Target: done})
		b.emit(prog.Label{Name: nonneg})
	}
	w.magnitude(sp, sign, rv, base, most, nil)
	b.emit(prog.Label{Name: done})
}

// magnitude writes m >= 0 (at most most digits in base) followed, when
// tail is not nil, by the decimal digit tail, after the sign: one case
// per number of digits of m.
func (w *charWriter) magnitude(sp *fmtSpec, sign string, m prog.Expr, base int64, most int, tail prog.Expr) {
	l, b := w.l, w.b
	r := l.fresh("pfu")
	b.emit(prog.Assign{Dst: r, Val: m})
	mv := prog.Reg{Name: r}
	done := l.label("pfdone")
	pow, div := int64(1), int64(0) // base^k, base^(k-1)
	for k := 0; k <= most; k++ {
		nextCase := l.label("pfdigits")
		if k < most {
			b.emit(prog.Jump{Cond: prog.Bin{Op: prog.OpGe, X: mv, Y: prog.Int(pow)}, Target: nextCase})
		}
		nd, zero := k, false
		if tail != nil {
			nd++
		} else if k == 0 {
			// The value 0: one digit "0", none under a precision of 0.
			zero = true
			if sp.prec != 0 {
				nd = 1
			}
		}
		kk, kdiv := k, div
		w.number(sp, sign, nd, zero, !zero, func() {
			if zero {
				if nd == 1 {
					w.char(prog.Int('0'))
				}
				return
			}
			d := kdiv
			for j := 0; j < kk; j++ {
				w.digit(sp, umod(prog.Bin{Op: prog.OpDiv, X: mv, Y: prog.Int(d)}, base))
				d /= base
			}
			if tail != nil {
				w.digit(sp, tail)
			}
		})
		b.emit(prog.Jump{Target: done})
		b.emit(prog.Label{Name: nextCase})
		div = pow
		if k+1 < most {
			pow *= base
		}
	}
	b.emit(prog.Label{Name: done})
}

// number writes a number of nd digits (written by digits) after its
// sign, with the zeros its precision and # ask for and the padding of
// its width; zero tells the value is 0 (its digits are "0" or none),
// nonzero that it is not.
func (w *charWriter) number(sp *fmtSpec, sign string, nd int, zero, nonzero bool, digits func()) {
	prefix := sign
	zeros := max(sp.prec-nd, 0)
	if sp.hash {
		switch sp.conv {
		case 'x':
			if nonzero {
				prefix += "0x"
			}
		case 'X':
			if nonzero {
				prefix += "0X"
			}
		case 'o':
			// The first digit is 0: "0" itself, or an added zero.
			if zeros == 0 && !(zero && nd == 1) {
				zeros = 1
			}
		}
	}
	n := len(prefix) + zeros + nd
	if sp.zero && !sp.minus && sp.prec < 0 && sp.width > n {
		// The 0 flag pads with zeros after the sign and prefix: more
		// zeros, and no spaces.
		zeros += sp.width - n
		n = sp.width
	}
	w.field(sp, n, func() {
		w.text(prefix)
		w.repeat('0', zeros)
		digits()
	})
}

// digit writes the digit d (0..base-1), in lower or upper case.
func (w *charWriter) digit(sp *fmtSpec, d prog.Expr) {
	letter := int64('a' - '0' - 10)
	if sp.conv == 'X' {
		letter = 'A' - '0' - 10
	}
	r := w.l.fresh("pfd")
	w.b.emit(prog.Assign{Dst: r, Val: d})
	dv := prog.Reg{Name: r}
	w.char(prog.Bin{Op: prog.OpAdd, X: prog.Bin{Op: prog.OpAdd, X: dv, Y: prog.Int('0')},
		Y: prog.Bin{Op: prog.OpMul, X: prog.Bin{Op: prog.OpGe, X: dv, Y: prog.Int(10)}, Y: prog.Int(letter)}})
}

// floorDiv64 is floor(x/d) for d > 0, by the truncated quotient and the
// sign of the remainder: no intermediate value leaves the 64-bit range
// (floorDiv's x - (x mod d) does for x near -2^63).
func floorDiv64(x prog.Expr, d int64) prog.Expr {
	return prog.Bin{Op: prog.OpSub, X: prog.Bin{Op: prog.OpDiv, X: x, Y: prog.Int(d)},
		Y: prog.Bin{Op: prog.OpLt, X: prog.Bin{Op: prog.OpMod, X: x, Y: prog.Int(d)}, Y: prog.Int(0)}}
}
