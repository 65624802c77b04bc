package litmus

// This file reads the cells of the x86 front-end: lexemes, the optional
// label and LOCK prefix, the mnemonic and the operands.

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

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

// parseCell reads "[label:] [LOCK] MNEMONIC op, op".
func (x *x86Thread) parseCell(c Cell) (x86Instr, bool) {
	in := x86Instr{pos: c.Pos}
	var toks []cellTok
	var ok bool
	if in.label, toks, ok = x.cellHead(c, cellLexer{inWord: ".", arch: "x86", punct: "[],$:+-", dotWords: true}); !ok || len(toks) == 0 {
		return in, ok
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
	in.ops, ok = cellOps(&x.asmThread, c, in.mn, toks[1:], func(g []cellTok) (x86Op, bool) { return x.operand(c, g) })
	return in, ok
}

// operand reads one operand from its lexemes.
func (x *x86Thread) operand(c Cell, toks []cellTok) (x86Op, bool) {
	op := x86Op{pos: at(c.Pos, toks[0].off)}
	text := func() string { return cellText(c, toks) }
	num := func(t cellTok, neg bool) bool {
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
