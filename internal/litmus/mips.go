package litmus

import (
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The MIPS front-end reads herd7's MIPS dialect (64-bit MIPS as herd7's
// tests write it; no branch delay slots, as in herd7). Registers are $0
// to $31 and their ABI names (zero at v0 v1 a0-a3 t0-t9 s0-s7 k0 k1 gp sp
// fp ra), with or without '$', and the O64 temporaries a4-a7; a register
// is spelled "$N" (herd7's printing: "0:$2"), a4-a7 "$a4".."$a7". herd7's
// symbolic registers (%x0, set in the initial state) are read too. $0
// reads as 0 and writes to it are dropped.
//
// Instructions, with herd7's semantics:
//
//	li rd,k          rd = k's low 16 bits, zero-extended
//	lui rd,k         rd = (k << 16) sign-extended from 32 bits
//	move rd,rs       nop   sync
//	add addu daddu sub subu slt sltu and or xor nor   rd,rs,rt
//	addi addiu daddiu subi subiu slti sltiu           rd,rs,k (k sign-extended from 16 bits)
//	andi ori xori                                     rd,rs,k (k zero-extended from 16 bits)
//	dsll rd,rs,k     dext rd,rs,pos,size
//	b L   beq bne rs,rt,L   blez bgtz bltz bgez rs,L
//	jr $31           (a return: the thread ends)
//	jr rs            (a jump to the code label rs holds from the initial state)
//	lw ld ll rd,k(rs)   sw sc rt,k(rs)   (k may be left out: "(rs)")
//
// As in herd7, the 32-bit and unsigned forms compute as their 64-bit
// signed counterparts (add is addu is daddu, sltu is slt); lw sign-extends
// the word it reads. Locations are one cell each: a displacement other
// than 0 would address a part of a location and is refused by name, as
// in the PPC front-end.
//
// ll is a load tagged "EX" and sc a store-conditional tagged "EX" that
// sets rt to 1 when it writes and to 0 when it fails (always possibly, as
// herd7's sc). sync is a fence tagged SYNC, the set herd7's mipsfences.cat
// names. A conditional branch is a jump on a comparison of its registers
// (a control dependency). jr to another register jumps to the code label
// the register holds from the initial state (herd7's A006: "0:a0=P0:L1";
// see codelabel.go).

func init() { Register("MIPS", mipsFrontend{}) }

// mipsEX tags ll and sc: the reserved accesses.
const mipsEX = "EX"

// mipsDiscard receives what an instruction writes to $0.
const mipsDiscard = "%zero"

// mipsReturn labels the end of a thread that returns (jr $31).
const mipsReturn = "%return"

type mipsFrontend struct{}

func (mipsFrontend) Arch() string { return "MIPS" }

func (mipsFrontend) Tags() []string { return []string{TagSYNC, mipsEX} }

// mipsABI maps the ABI names to register numbers.
var mipsABI = map[string]int{
	"zero": 0, "at": 1, "v0": 2, "v1": 3, "a0": 4, "a1": 5, "a2": 6, "a3": 7,
	"t0": 8, "t1": 9, "t2": 10, "t3": 11, "t4": 12, "t5": 13, "t6": 14, "t7": 15,
	"s0": 16, "s1": 17, "s2": 18, "s3": 19, "s4": 20, "s5": 21, "s6": 22, "s7": 23,
	"t8": 24, "t9": 25, "k0": 26, "k1": 27, "gp": 28, "sp": 29, "fp": 30, "ra": 31,
}

// RegName accepts "$2", "v0" and "$v0" (canonical "$2"), and a4-a7
// (canonical "$a4").
func (mipsFrontend) RegName(name string) (string, bool) {
	n := strings.TrimPrefix(name, "$")
	if isDecimal(n) && (len(n) == 1 || n[0] != '0') {
		if k, err := strconv.Atoi(n); err == nil && k < 32 {
			return "$" + n, true
		}
		return "", false
	}
	if k, ok := mipsABI[n]; ok {
		return "$" + itoa(k), true
	}
	switch n {
	case "a4", "a5", "a6", "a7":
		return "$" + n, true
	}
	return "", false
}

func (mipsFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	m := &mipsThread{asmThread: newAsmThread(id, false)}
	for _, c := range cells {
		if in, ok := m.parseCell(c); ok {
			m.translate(in)
		}
	}
	if m.returns {
		m.emit(prog.Label{Name: mipsReturn})
	}
	checkLabels(m.t, &m.errs, "branch")
	return m.t, m.errs.Err()
}

type mipsThread struct {
	asmThread
	returns bool
}

type mipsOpKind int

const (
	mipsReg mipsOpKind = iota // $2, v0, %x0
	mipsImm                   // 1, -1, 0x10
	mipsMem                   // k(rs), (rs)
	mipsSym                   // a label
)

type mipsOp struct {
	kind mipsOpKind
	reg  string // mipsReg, and the base of mipsMem
	imm  int64  // mipsImm, and the displacement of mipsMem
	name string // mipsSym
	pos  prog.Pos
}

type mipsInstr struct {
	label string
	mn    string // lower case; "" for a label alone
	mnPos prog.Pos
	ops   []mipsOp
	pos   prog.Pos
}

func (m *mipsThread) parseCell(c Cell) (mipsInstr, bool) {
	in := mipsInstr{pos: c.Pos}
	var toks []cellTok
	var ok bool
	if in.label, toks, ok = m.cellHead(c, cellLexer{inWord: ".", arch: "MIPS", punct: ",:()-+$", symRegs: true}); !ok || len(toks) == 0 {
		return in, ok
	}
	in.mn, in.mnPos = strings.ToLower(toks[0].text), at(c.Pos, toks[0].off)
	in.ops, ok = cellOps(&m.asmThread, c, in.mn, toks[1:], func(g []cellTok) (mipsOp, bool) { return m.operand(c, g) })
	return in, ok
}

// register reads a register from the lexemes toks: "$2", "$v0", "v0" or
// "%x0"; false when they are not one.
func mipsRegister(toks []cellTok) (string, bool) {
	switch {
	case len(toks) == 2 && toks[0].kind == '$' && (toks[1].kind == 'n' || toks[1].kind == 'w') && toks[1].off == toks[0].off+1:
		return mipsFrontend{}.RegName("$" + toks[1].text)
	case len(toks) == 1 && toks[0].kind == 'w' && strings.HasPrefix(toks[0].text, "%"):
		return SymReg(toks[0].text[1:]), true
	case len(toks) == 1 && toks[0].kind == 'w':
		return mipsFrontend{}.RegName(toks[0].text)
	}
	return "", false
}

func (m *mipsThread) operand(c Cell, toks []cellTok) (mipsOp, bool) {
	op := mipsOp{pos: at(c.Pos, toks[0].off)}
	if r, ok := mipsRegister(toks); ok {
		op.kind, op.reg = mipsReg, r
		return op, true
	}
	if toks[0].kind == '$' {
		m.errorf(op.pos, "unknown MIPS register %q", cellText(c, toks))
		return op, false
	}
	num := toks
	neg := false
	if len(num) > 1 && (num[0].kind == '-' || num[0].kind == '+') {
		neg, num = num[0].kind == '-', num[1:]
	}
	var disp int64
	if len(num) >= 1 && num[0].kind == 'n' {
		v, err := parseInt(num[0].text, neg)
		if err != nil {
			m.errorf(at(c.Pos, num[0].off), "malformed integer %q", num[0].text)
			return op, false
		}
		if len(num) == 1 {
			op.kind, op.imm = mipsImm, v
			return op, true
		}
		disp, num = v, num[1:]
	} else if neg {
		num = toks
	}
	if n := len(num); n >= 3 && num[0].kind == '(' && num[n-1].kind == ')' {
		r, ok := mipsRegister(num[1 : n-1])
		if !ok {
			m.errorf(at(c.Pos, num[1].off), "expected a MIPS register, found %q", cellText(c, num[1:n-1]))
			return op, false
		}
		op.kind, op.imm, op.reg = mipsMem, disp, r
		return op, true
	}
	if len(toks) == 1 && toks[0].kind == 'w' {
		op.kind, op.name = mipsSym, toks[0].text
		return op, true
	}
	m.errorf(op.pos, "bad MIPS operand %q", cellText(c, toks))
	return op, false
}

// Operand shapes, one letter an operand: r register, i integer, m k(rs),
// l label.
var mipsShapes = map[string]string{
	"nop": "", "sync": "", "li": "ri", "lui": "ri", "move": "rr",
	"dsll": "rri", "dext": "rrii", "b": "l", "jr": "r",
	"beq": "rrl", "bne": "rrl", "blez": "rl", "bgtz": "rl", "bltz": "rl", "bgez": "rl",
	"lw": "rm", "ld": "rm", "ll": "rm", "sw": "rm", "sc": "rm",
}

// mipsALU are the register-register operations.
var mipsALU = map[string]prog.Op{
	"add": prog.OpAdd, "addu": prog.OpAdd, "daddu": prog.OpAdd, "sub": prog.OpSub, "subu": prog.OpSub,
	"slt": prog.OpLt, "sltu": prog.OpLt, "and": prog.OpAnd, "or": prog.OpOr, "xor": prog.OpXor, "nor": prog.OpOr,
}

// mipsImmALU are the operations with an immediate; logical ones take it
// zero-extended, the others sign-extended, from 16 bits.
var mipsImmALU = map[string]struct {
	op      prog.Op
	logical bool
}{
	"addi": {prog.OpAdd, false}, "addiu": {prog.OpAdd, false}, "daddiu": {prog.OpAdd, false},
	"subi": {prog.OpSub, false}, "subiu": {prog.OpSub, false},
	"slti": {prog.OpLt, false}, "sltiu": {prog.OpLt, false},
	"andi": {prog.OpAnd, true}, "ori": {prog.OpOr, true}, "xori": {prog.OpXor, true},
}

// mipsBranchZ maps the branches comparing a register with 0.
var mipsBranchZ = map[string]prog.Op{"blez": prog.OpLe, "bgtz": prog.OpGt, "bltz": prog.OpLt, "bgez": prog.OpGe}

func (m *mipsThread) translate(in mipsInstr) {
	m.pos = in.pos
	if in.label != "" {
		m.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	if op, ok := mipsALU[in.mn]; ok {
		if m.shape(in, "rrr") {
			v := bin(op, m.src(in.ops[1].reg), m.src(in.ops[2].reg))
			if in.mn == "nor" {
				v = prog.Un{Op: prog.OpBNot, X: v}
			}
			m.assign(in.ops[0].reg, v)
		}
		return
	}
	if o, ok := mipsImmALU[in.mn]; ok {
		if m.shape(in, "rri") {
			k := normInt(in.ops[2].imm, 16, !o.logical)
			m.assign(in.ops[0].reg, bin(o.op, m.src(in.ops[1].reg), prog.Int(k)))
		}
		return
	}
	shape, ok := mipsShapes[in.mn]
	if !ok {
		m.errorf(in.mnPos, "unknown MIPS instruction %q", in.mn)
		return
	}
	if !m.shape(in, shape) {
		return
	}
	ops := in.ops
	switch in.mn {
	case "nop":
	case "sync":
		m.emit(prog.Fence{Tags: []string{TagSYNC}})
	case "li":
		m.assign(ops[0].reg, prog.Int(ops[1].imm&0xffff))
	case "lui":
		m.assign(ops[0].reg, prog.Int(normInt(ops[1].imm<<16, 32, true)))
	case "move":
		m.assign(ops[0].reg, m.src(ops[1].reg))
	case "dsll":
		if k := ops[2].imm; k < 0 || k > 63 {
			m.errorf(ops[2].pos, "dsll's shift %d is outside 0..63", k)
			return
		}
		m.assign(ops[0].reg, bin(prog.OpShl, m.src(ops[1].reg), prog.Int(ops[2].imm)))
	case "dext":
		m.dext(ops)
	case "b":
		m.emit(prog.Jump{Target: ops[0].name})
	case "beq", "bne":
		op := map[string]prog.Op{"beq": prog.OpEq, "bne": prog.OpNe}[in.mn]
		m.emit(prog.Jump{Cond: bin(op, m.src(ops[0].reg), m.src(ops[1].reg)), Target: ops[2].name})
	case "blez", "bgtz", "bltz", "bgez":
		m.emit(prog.Jump{Cond: bin(mipsBranchZ[in.mn], m.src(ops[0].reg), prog.Int(0)), Target: ops[1].name})
	case "jr":
		if ops[0].reg != "$31" {
			// A jump to the code label the register holds (codelabel.go).
			m.emit(prog.Jump{Target: IndirectTarget(ops[0].reg)})
			return
		}
		m.returns = true
		m.emit(prog.Jump{Target: mipsReturn})
	case "lw", "ld", "ll":
		ea, ok := m.address(in, ops[1])
		if !ok {
			return
		}
		ld := prog.Load{Dst: m.dst(ops[0].reg), Addr: ea}
		if in.mn == "ll" {
			ld.Tags = []string{mipsEX}
		}
		m.emit(ld)
		if in.mn == "lw" && ld.Dst != mipsDiscard {
			m.emit(prog.Assign{Dst: ld.Dst, Val: a64Sext(reg(ld.Dst), 32)})
		}
	case "sw":
		if ea, ok := m.address(in, ops[1]); ok {
			m.emit(prog.Store{Addr: ea, Val: m.src(ops[0].reg)})
		}
	case "sc":
		if ea, ok := m.address(in, ops[1]); ok {
			m.emit(prog.StoreCond{Addr: ea, Val: m.src(ops[0].reg), Status: m.dst(ops[0].reg),
				OkVal: prog.IntValue(1), FailVal: prog.IntValue(0), Tags: []string{mipsEX}})
		}
	}
}

// dext rd,rs,pos,size: the size bits of rs from bit pos, moved down to
// bit 0 (herd7's mask of bits pos..pos+size-1, then a logical shift).
func (m *mipsThread) dext(ops []mipsOp) {
	pos, size := ops[2].imm, ops[3].imm
	if pos < 0 || size < 1 || pos+size > 64 {
		m.errorf(ops[2].pos, "dext's field (position %d, size %d) is not within 64 bits", pos, size)
		return
	}
	mask := uint64(1)<<uint(size) - 1
	if size == 64 {
		mask = ^uint64(0)
	}
	v := bin(prog.OpAnd, m.src(ops[1].reg), prog.Int(int64(mask<<uint(pos))))
	m.assign(ops[0].reg, a64LogicalShr(v, prog.Int(pos)))
}

// src is the value of register r as an operand: 0 for $0.
func (m *mipsThread) src(r string) prog.Expr {
	if r == "$0" {
		return prog.Int(0)
	}
	return reg(r)
}

// dst is where a write to r goes: nowhere that counts for $0.
func (m *mipsThread) dst(r string) string {
	if r == "$0" {
		return mipsDiscard
	}
	return r
}

func (m *mipsThread) assign(r string, v prog.Expr) {
	if r == "$0" {
		return
	}
	m.emit(prog.Assign{Dst: r, Val: v})
}

// address is the effective address of a k(rs) operand; only k = 0 is
// supported (see the package comment of this file).
func (m *mipsThread) address(in mipsInstr, op mipsOp) (prog.Expr, bool) {
	if op.imm != 0 {
		m.errorf(op.pos, "unsupported MIPS access %s with displacement %d: parts of locations (mixed-size accesses) are not supported", in.mn, op.imm)
		return nil, false
	}
	return m.src(op.reg), true
}

func (m *mipsThread) shape(in mipsInstr, shape string) bool {
	if len(in.ops) != len(shape) {
		m.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, len(shape), plural(len(shape)), len(in.ops))
		return false
	}
	names := map[byte]string{'r': "a register", 'i': "an integer", 'm': "a memory operand k(rs)", 'l': "a label"}
	kinds := map[byte]mipsOpKind{'r': mipsReg, 'i': mipsImm, 'm': mipsMem, 'l': mipsSym}
	for i := 0; i < len(shape); i++ {
		if in.ops[i].kind != kinds[shape[i]] {
			why := ""
			if shape[i] == 'r' {
				why = notAReg("MIPS", symName(in.ops[i].kind == mipsSym, in.ops[i].name))
			}
			m.errorf(in.ops[i].pos, "operand %d of %s must be %s%s", i+1, in.mn, names[shape[i]], why)
			return false
		}
	}
	return true
}
