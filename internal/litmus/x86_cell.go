package litmus

// This file reads the cells of the x86 front-end: lexemes, the optional
// label and LOCK prefix, the mnemonic and the operands.

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// x86Tok is a lexeme of an instruction cell: 'w' (word), 'n' (number)
// or the punctuation byte itself; off is its byte offset in the cell.
type x86Tok struct {
	kind byte
	text string
	off  int
}

type x86OpKind int

const (
	opReg x86OpKind = iota // EAX
	opMem                  // [x], [EAX]
	opImm                  // $1, 1, $x
	opSym                  // x: a label, or an address used as a value
)

type x86Op struct {
	kind x86OpKind
	reg  string     // opReg
	addr prog.Expr  // opMem
	imm  prog.Value // opImm
	name string     // opSym
	pos  prog.Pos
}

// x86Instr is a parsed cell.
type x86Instr struct {
	pos   prog.Pos // of the cell
	label string
	lock  bool
	mn    string // upper case; "" for a cell holding only a label
	mnPos prog.Pos
	ops   []x86Op
}

func at(p prog.Pos, off int) prog.Pos {
	p.Col += off
	return p
}

func (x *x86Thread) errorf(pos prog.Pos, format string, args ...any) {
	x.errs.Add(pos, fmt.Sprintf(format, args...))
}

func lexX86(c Cell) ([]x86Tok, *Error) {
	s := c.Text
	var toks []x86Tok
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case isLetter(ch) || ch == '.':
			j := i + 1
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, x86Tok{'w', s[i:j], i})
			i = j
		case isDigit(ch):
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			toks = append(toks, x86Tok{'n', s[i:j], i})
			i = j
		case strings.IndexByte("[],$:+-", ch) >= 0:
			toks = append(toks, x86Tok{ch, s[i : i+1], i})
			i++
		default:
			return nil, &Error{Pos: at(c.Pos, i), Msg: fmt.Sprintf("unexpected %q in x86 instruction", rune(ch))}
		}
	}
	return toks, nil
}

// parseCell reads "[label:] [LOCK] MNEMONIC op, op".
func (x *x86Thread) parseCell(c Cell) (x86Instr, bool) {
	in := x86Instr{pos: c.Pos}
	toks, err := lexX86(c)
	if err != nil {
		x.errs = append(x.errs, err)
		return in, false
	}
	if len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == ':' {
		in.label = toks[0].text
		toks = toks[2:]
	}
	if len(toks) == 0 {
		return in, true
	}
	if toks[0].kind != 'w' {
		x.errorf(at(c.Pos, toks[0].off), "expected an x86 instruction, found %q", toks[0].text)
		return in, false
	}
	if strings.EqualFold(toks[0].text, "LOCK") {
		in.lock = true
		toks = toks[1:]
		if len(toks) == 0 || toks[0].kind != 'w' {
			x.errorf(c.Pos, "expected an instruction after LOCK")
			return in, false
		}
	}
	in.mn, in.mnPos = strings.ToUpper(toks[0].text), at(c.Pos, toks[0].off)
	toks = toks[1:]
	for len(toks) > 0 {
		end := 0
		for end < len(toks) && toks[end].kind != ',' {
			end++
		}
		if end == 0 {
			x.errorf(at(c.Pos, toks[0].off), "missing operand of %s", in.mn)
			return in, false
		}
		op, ok := x.operand(c, toks[:end])
		if !ok {
			return in, false
		}
		in.ops = append(in.ops, op)
		if end < len(toks) {
			end++ // the comma
			if end == len(toks) {
				x.errorf(at(c.Pos, toks[end-1].off), "missing operand of %s after ','", in.mn)
				return in, false
			}
		}
		toks = toks[end:]
	}
	return in, true
}

// operand reads one operand from its lexemes.
func (x *x86Thread) operand(c Cell, toks []x86Tok) (x86Op, bool) {
	op := x86Op{pos: at(c.Pos, toks[0].off)}
	text := func() string {
		first, last := toks[0], toks[len(toks)-1]
		return c.Text[first.off : last.off+len(last.text)]
	}
	num := func(t x86Tok, neg bool) bool {
		v, err := parseInt(t.text, neg)
		if err != nil {
			x.errorf(at(c.Pos, t.off), "malformed integer %q", t.text)
			return false
		}
		op.kind, op.imm = opImm, prog.IntValue(v)
		return true
	}
	imm := toks
	if toks[0].kind == '$' {
		imm = toks[1:]
	}
	switch {
	case len(toks) == 3 && toks[0].kind == '[' && toks[1].kind == 'w' && toks[2].kind == ']':
		op.kind = opMem
		if r, ok := (x86Frontend{}).RegName(toks[1].text); ok {
			op.addr = prog.Reg{Name: r}
		} else {
			op.addr = prog.Addr(toks[1].text)
		}
		return op, true
	case len(imm) == 1 && imm[0].kind == 'n':
		return op, num(imm[0], false)
	case len(imm) == 2 && (imm[0].kind == '-' || imm[0].kind == '+') && imm[1].kind == 'n':
		return op, num(imm[1], imm[0].kind == '-')
	case len(toks) == 2 && toks[0].kind == '$' && toks[1].kind == 'w':
		op.kind, op.imm = opImm, prog.AddrValue(toks[1].text)
		return op, true
	case len(toks) == 1 && toks[0].kind == 'w':
		if r, ok := (x86Frontend{}).RegName(toks[0].text); ok {
			op.kind, op.reg = opReg, r
		} else {
			op.kind, op.name = opSym, toks[0].text
		}
		return op, true
	}
	x.errorf(op.pos, "bad x86 operand %q", text())
	return op, false
}
