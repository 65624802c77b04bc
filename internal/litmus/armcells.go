package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The two ARM front-ends (AArch64, and ARM for ARMv7 and AArch32) read
// cells of one shape, "[label:] [MNEMONIC op, op, ...]", into the
// operands of this file, and check them alike.

type armOpKind int

const (
	armReg   armOpKind = iota // R1, SP; W1, X2, XZR
	armImm                    // #1, #-1, #0x10
	armMem                    // [R1], [R1,#0], [R1,R2], [R1,R2,LSL #2]; [X1,W2,SXTW], [X1,#4]!
	armSym                    // a label, an option (ISH), or a shift or extend keyword (SXTW)
	armShift                  // LSL #k
	armList                   // {R1, R2, ...}: ARM's register lists (LDM, STM)
)

type armOp struct {
	kind  armOpKind
	reg   string // armReg: canonical name; AArch64: "" for the zero register
	wide  bool   // armReg: AArch64's 64-bit name
	imm   int64  // armImm; armShift: the amount
	name  string // armSym (AArch64: upper case for keywords, as written for labels); armShift: "LSL"
	addr  prog.Expr
	index bool   // armMem: the address has an index register (AArch64: or an immediate offset)
	pre   bool   // armMem: AArch64's pre-indexed [Xn,#imm]! (addr is Xn+imm)
	base  string // armMem: AArch64's base register
	off   int64  // armMem: the immediate offset of AArch64's [Xn,#imm]
	list  []int  // armList: the register numbers, ascending
	pos   prog.Pos
}

// armInstr is a parsed cell.
type armInstr struct {
	pos   prog.Pos
	label string
	mn    string // upper case; "" for a cell with only a label
	mnPos prog.Pos
	ops   []armOp
}

// armCells is the state both ARM front-ends keep while they translate
// one thread, and what they share of its reading and checking.
type armCells struct {
	asmThread
	arch    string // in messages: "ARM", "AArch64"
	memForm string // the plain memory operand, in messages: "[Rn]", "[Xn]"
}

// parseCell reads "[label:] [MNEMONIC op, op, ...]": punct are the
// punctuation characters of the dialect, unsupported names the
// mnemonics it refuses (with why), and operand reads one operand.
func (a *armCells) parseCell(c Cell, punct string, unsupported func(mn string) (string, bool), operand func(c Cell, mn string, toks []cellTok) (armOp, bool)) (armInstr, bool) {
	in := armInstr{pos: c.Pos}
	var toks []cellTok
	var ok bool
	if in.label, toks, ok = a.cellHead(c, cellLexer{inWord: ".", arch: a.arch, punct: punct, dotWords: true, symRegs: a.arch == "ARM" || a.arch == "AArch64"}); !ok || len(toks) == 0 {
		return in, ok
	}
	in.mn, in.mnPos = strings.ToUpper(toks[0].text), at(c.Pos, toks[0].off)
	if why, ok := unsupported(in.mn); ok {
		a.errorf(in.mnPos, "unsupported %s instruction %s: %s", a.arch, in.mn, why)
		return in, false
	}
	in.ops, ok = cellOps(&a.asmThread, c, in.mn, toks[1:], func(g []cellTok) (armOp, bool) { return operand(c, in.mn, g) })
	return in, ok
}

// immediate reads [-]number.
func (a *armCells) immediate(c Cell, toks []cellTok) (int64, bool) {
	neg := false
	if len(toks) == 2 && (toks[0].kind == '-' || toks[0].kind == '+') {
		neg, toks = toks[0].kind == '-', toks[1:]
	}
	if len(toks) != 1 || toks[0].kind != 'n' {
		pos := c.Pos
		if len(toks) > 0 {
			pos = at(c.Pos, toks[0].off)
		}
		a.errorf(pos, "expected an immediate number after '#'")
		return 0, false
	}
	v, err := parseInt(toks[0].text, neg)
	if err != nil {
		a.errorf(at(c.Pos, toks[0].off), "malformed integer %q", toks[0].text)
		return 0, false
	}
	return v, true
}

// memParts splits the inside of a memory operand of mn on its commas;
// false (reported) when a part is empty.
func (a *armCells) memParts(pos prog.Pos, mn string, inner []cellTok) ([][]cellTok, bool) {
	var parts [][]cellTok
	start := 0
	for i, t := range inner {
		if t.kind == ',' {
			parts = append(parts, inner[start:i])
			start = i + 1
		}
	}
	parts = append(parts, inner[start:])
	for _, p := range parts {
		if len(p) == 0 {
			a.errorf(pos, "bad memory operand of %s", mn)
			return nil, false
		}
	}
	return parts, true
}

// arity checks that in has n operands (the message names the mnemonic
// as written).
func (a *armCells) arity(in armInstr, n int) bool {
	if len(in.ops) != n {
		a.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, n, plural(n), len(in.ops))
		return false
	}
	return true
}

func (a *armCells) isReg(in armInstr, i int) bool {
	if in.ops[i].kind != armReg {
		a.errorf(in.ops[i].pos, "%s needs a register as operand %d%s", in.mn, i+1, notAReg(a.arch, symName(in.ops[i].kind == armSym, in.ops[i].name)))
		return false
	}
	return true
}

func (a *armCells) isImm(in armInstr, i int) bool {
	if in.ops[i].kind != armImm {
		a.errorf(in.ops[i].pos, "%s needs an immediate as operand %d", in.mn, i+1)
		return false
	}
	return true
}

func (a *armCells) isRegOrImm(in armInstr, i int) bool {
	if k := in.ops[i].kind; k != armReg && k != armImm {
		a.errorf(in.ops[i].pos, "%s needs a register or an immediate as operand %d%s", in.mn, i+1, notAReg(a.arch, symName(k == armSym, in.ops[i].name)))
		return false
	}
	return true
}

func (a *armCells) isMem(in armInstr, i int) bool {
	if in.ops[i].kind != armMem {
		a.errorf(in.ops[i].pos, "%s needs a memory operand %s as operand %d", in.mn, a.memForm, i+1)
		return false
	}
	return true
}

func (a *armCells) isLabel(in armInstr, i int) bool {
	if in.ops[i].kind != armSym {
		a.errorf(in.ops[i].pos, "%s needs a label", in.mn)
		return false
	}
	return true
}

// barrierOpt reads the option of barrier in (SY when it has none), one
// of opts; false (reported) otherwise.
func (a *armCells) barrierOpt(in armInstr, opts []string) (string, bool) {
	opt := "SY"
	switch len(in.ops) {
	case 0:
	case 1:
		if in.ops[0].kind != armSym {
			a.errorf(in.ops[0].pos, "bad %s option", in.mn)
			return "", false
		}
		opt = strings.ToUpper(in.ops[0].name)
	default:
		a.errorf(in.mnPos, "%s takes one option, found %d operands", in.mn, len(in.ops))
		return "", false
	}
	for _, o := range opts {
		if o == opt {
			return opt, true
		}
	}
	a.errorf(in.ops[0].pos, "unknown %s option %s", in.mn, opt)
	return "", false
}
