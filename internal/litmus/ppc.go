package litmus

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// The PPC front-end reads herd's Power instructions: general-purpose
// registers r0..r31 (any case; canonical lower case), condition-register
// fields cr0..cr7, and these mnemonics:
//
//	li rD,v        addi rD,rA,v   addis rD,rA,v   mr rD,rS
//	add sub subf or and xor mullw divw rD,rA,rB   (and the record forms "add." ...)
//	ori xori mulli rD,rA,v   andi. rD,rA,v
//	lwz ld rD,d(rA)   lwzx ldx rD,rA,rB   lwzu ldu rD,d(rA)
//	stw std rS,d(rA)  stwx stdx rS,rA,rB  stwu stdu rS,d(rA)
//	lwarx ldarx rD,rA,rB   stwcx. stdcx. rS,rA,rB
//	cmpw cmpd [crN,]rA,rB   cmpwi cmpdi [crN,]rA,v
//	b L   beq bne blt bge bgt ble [crN,]L
//	sync hwsync lwsync isync eieio   nop dcbf rA,rB (no memory effect)
//
// Effective addresses follow the ISA: (rA|0) + d and (rA|0) + rB, where
// r0 as the base register stands for 0 (herd does the same for the
// indexed forms, and for "addi rD,r0,v", which is li). Registers hold
// location addresses, set in the initial state ("0:r2=x"). A displacement
// d other than 0 would address a part of a location: it is reported as
// unsupported (mixed-size).
//
// A condition-register field is a temporary register "%crN" holding its
// LT, GT and EQ bits as herd numbers them (8, 4 and 2); cmpw and the
// record forms ("add.", "andi.") set it, a conditional branch tests one
// bit of it, and stwcx. sets %cr0 to EQ on success and to 0 on failure.
// Threads without a conditional branch do not compute it; threads without
// blt/bge/bgt/ble compute only the EQ bit.
//
// lwarx is a prog.Load tagged "EX" and stwcx. a prog.StoreCond tagged "EX"
// (herd's lxsx pair). The barriers are fences tagged SYNC, LWSYNC, ISYNC
// and EIEIO, the sets of herd's ppcfences.cat; Dat3M's lower-case names
// are aliases. Byte and half-word accesses (lbz, sth, ...) are mixed-size
// accesses: reported as unsupported.

func init() { Register("PPC", ppcFrontend{}) }

// Event tags of the PPC front-end.
const (
	TagSYNC   = "SYNC"
	TagLWSYNC = "LWSYNC"
	TagISYNC  = "ISYNC"
	TagEIEIO  = "EIEIO"
)

// ppcEX tags lwarx and stwcx.: herd's exclusive (reserved) accesses.
const ppcEX = "EX"

// The bits of a condition-register field, as herd numbers them.
const (
	ppcLT = 8
	ppcGT = 4
	ppcEQ = 2
)

type ppcFrontend struct{}

func (ppcFrontend) Arch() string { return "PPC" }

// RegName accepts r0..r31 in any case and spells them in lower case.
func (ppcFrontend) RegName(name string) (string, bool) {
	l := strings.ToLower(name)
	return l, ppcGPR(l)
}

// ppcOperandReg reads a register operand: a GPR, or herd7's symbolic
// register %name (SymReg).
func ppcOperandReg(w string) (string, bool) {
	if len(w) > 1 && w[0] == '%' {
		return SymReg(w[1:]), true
	}
	return (ppcFrontend{}).RegName(w)
}

func ppcGPR(l string) bool {
	if len(l) < 2 || len(l) > 3 || l[0] != 'r' || !isDecimal(l[1:]) || len(l) == 3 && l[1] == '0' {
		return false
	}
	n := 0
	for _, c := range l[1:] {
		n = n*10 + int(c-'0')
	}
	return n <= 31
}

// CheckTest gives the accesses their sizes (word or double word): a word
// load of a value outside the word's range reads the word, zero- or
// sign-extended (lwz, lwa), as herd7 does, through the lowering of
// mixed-size tests (lowerMixedSizes), each location one chunk. A location
// read or written with two sizes would be split into chunks, little-endian
// as the lowering lays them out; Power is big-endian in herd7, so such a
// test is refused by name.
func (ppcFrontend) CheckTest(t *spec.Test) error {
	if err := lowerMixedSizes(t, "PPC", true); err != nil {
		return err
	}
	for l, cs := range t.Chunks {
		if len(cs) > 1 {
			return fmt.Errorf("unsupported PPC test: location %s is accessed with several sizes (big-endian mixed-size accesses are not modelled)", l)
		}
	}
	return nil
}

func (ppcFrontend) Tags() []string {
	return []string{TagSYNC, TagLWSYNC, TagISYNC, TagEIEIO, ppcEX}
}

func (ppcFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	x := &ppcThread{asmThread: newAsmThread(id, true)}
	var ins []ppcInstr
	for _, c := range cells {
		if in, ok := x.parseCell(c); ok {
			ins = append(ins, in)
			if op, ok := ppcBranches[in.mn]; ok {
				x.flags = true
				if op != prog.OpEq && op != prog.OpNe {
					x.order = true
				}
			}
		}
	}
	for _, in := range ins {
		x.translate(in)
	}
	if x.ret {
		x.emit(prog.Label{Name: ppcEndLabel})
	}
	checkLabels(x.t, &x.errs, "branch")
	return x.t, x.errs.Err()
}

// ppcThread is the state of the translation of one thread.
type ppcThread struct {
	asmThread
	flags bool // the thread has conditional branches: compute the CR fields
	order bool // ... and some test LT or GT
	ret   bool // the thread has a blr: its code ends at ppcEndLabel
}

// ppcEndLabel ends the code of a thread that returns (blr): a blr is a
// jump to it. It is not a name a test can write (labels are identifiers
// or numbers, not beginning with '.').
const ppcEndLabel = ".blr"

type ppcOpKind int

const (
	ppcReg ppcOpKind = iota // r1
	ppcCR                   // cr1
	ppcImm                  // 1, -1, 0x10
	ppcMem                  // d(rA)
	ppcSym                  // a label
)

type ppcOp struct {
	kind ppcOpKind
	reg  string // ppcReg, and the base of ppcMem
	cr   int    // ppcCR
	imm  int64  // ppcImm, and the displacement of ppcMem
	name string // ppcSym
	pos  prog.Pos
}

// ppcInstr is a parsed cell.
type ppcInstr struct {
	label string
	mn    string // lower case; "" for a cell holding only a label
	mnPos prog.Pos
	ops   []ppcOp
	pos   prog.Pos
}

// parseCell reads "[label:] mnemonic op, op, ...".
func (x *ppcThread) parseCell(c Cell) (ppcInstr, bool) {
	in := ppcInstr{pos: c.Pos}
	var toks []cellTok
	var ok bool
	if in.label, toks, ok = x.cellHead(c, cellLexer{inWord: ".", arch: "PPC", punct: ",:()+-", dotWords: false, symRegs: true}); !ok || len(toks) == 0 {
		return in, ok
	}
	in.mn, in.mnPos = strings.ToLower(toks[0].text), at(c.Pos, toks[0].off)
	in.ops, ok = cellOps(&x.asmThread, c, in.mn, toks[1:], func(g []cellTok) (ppcOp, bool) { return x.operand(c, g) })
	return in, ok
}

// operand reads one operand from its lexemes.
func (x *ppcThread) operand(c Cell, toks []cellTok) (ppcOp, bool) {
	op := ppcOp{pos: at(c.Pos, toks[0].off)}
	num := toks
	neg := false
	if len(num) > 1 && (num[0].kind == '-' || num[0].kind == '+') {
		neg = num[0].kind == '-'
		num = num[1:]
	}
	if len(num) >= 1 && num[0].kind == 'n' {
		v, err := parseInt(num[0].text, neg)
		if err != nil {
			x.errorf(at(c.Pos, num[0].off), "malformed integer %q", num[0].text)
			return op, false
		}
		switch {
		case len(num) == 1:
			op.kind, op.imm = ppcImm, v
			return op, true
		case len(num) == 4 && num[1].kind == '(' && num[2].kind == 'w' && num[3].kind == ')':
			r, ok := ppcOperandReg(num[2].text)
			if !ok {
				x.errorf(at(c.Pos, num[2].off), "expected a PPC register, found %q", num[2].text)
				return op, false
			}
			op.kind, op.imm, op.reg = ppcMem, v, r
			return op, true
		}
	}
	if len(toks) == 1 && toks[0].kind == 'w' {
		w := toks[0].text
		if r, ok := ppcOperandReg(w); ok {
			op.kind, op.reg = ppcReg, r
			return op, true
		}
		if l := strings.ToLower(w); len(l) == 3 && l[:2] == "cr" && l[2] >= '0' && l[2] <= '7' {
			op.kind, op.cr = ppcCR, int(l[2]-'0')
			return op, true
		}
		op.kind, op.name = ppcSym, w
		return op, true
	}
	first, last := toks[0], toks[len(toks)-1]
	x.errorf(op.pos, "bad PPC operand %q", c.Text[first.off:last.off+len(last.text)])
	return op, false
}

// Operand shapes of the instructions, one letter an operand: r register,
// i immediate, m d(rA), l label.
var ppcShapes = map[string]string{
	"li": "ri", "lis": "ri", "addi": "rri", "addis": "rri", "mr": "rr", "extsw": "rr", "extsh": "rr", "extsb": "rr",
	"ori": "rri", "xori": "rri", "andi.": "rri", "mulli": "rri", "clrldi": "rri", "rlwinm": "rriii", "rlwimi": "rriii",
	"lwz": "rm", "ld": "rm", "lwzu": "rm", "ldu": "rm", "lwa": "rm", "lwax": "rrr",
	"stw": "rm", "std": "rm", "stwu": "rm", "stdu": "rm",
	"lwzx": "rrr", "ldx": "rrr", "stwx": "rrr", "stdx": "rrr",
	"lwarx": "rrr", "ldarx": "rrr", "stwcx.": "rrr", "stdcx.": "rrr",
	"sync": "", "hwsync": "", "lwsync": "", "isync": "", "eieio": "", "nop": "",
	"dcbf": "rr", "b": "l", "blr": "",
}

// ppcALU are the register-register operations; each has a record form
// with a '.' that also sets cr0.
var ppcALU = map[string]prog.Op{
	"add": prog.OpAdd, "sub": prog.OpSub, "subf": prog.OpSub, "or": prog.OpOr,
	"and": prog.OpAnd, "xor": prog.OpXor, "mullw": prog.OpMul, "divw": prog.OpDiv,
	"mulld": prog.OpMul, "divd": prog.OpDiv,
}

var ppcImmALU = map[string]prog.Op{
	"addi": prog.OpAdd, "ori": prog.OpOr, "xori": prog.OpXor, "andi.": prog.OpAnd, "mulli": prog.OpMul,
}

// ppcBranches maps each conditional branch to the comparison it makes.
var ppcBranches = map[string]prog.Op{
	"beq": prog.OpEq, "bne": prog.OpNe, "blt": prog.OpLt, "bge": prog.OpGe, "bgt": prog.OpGt, "ble": prog.OpLe,
}

// ppcMixedSize are the byte and half-word accesses: mixed-size.
var ppcMixedSize = map[string]bool{
	"lbz": true, "lhz": true, "lha": true, "stb": true, "sth": true,
	"lbzx": true, "lhzx": true, "lhax": true, "stbx": true, "sthx": true,
	"lbzu": true, "lhzu": true, "stbu": true, "sthu": true,
	"lbarx": true, "lharx": true, "stbcx.": true, "sthcx.": true,
}

func ppcCRReg(n int) string { return "%cr" + itoa(n) }

func (x *ppcThread) translate(in ppcInstr) {
	x.pos = in.pos
	if in.label != "" {
		x.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	mn := in.mn
	if ppcMixedSize[mn] {
		x.errorf(in.mnPos, "unsupported PPC instruction %q: mixed-size accesses are not supported", mn)
		return
	}
	if shape, ok := ppcShapes[mn]; ok {
		if !x.shape(in, shape) {
			return
		}
		x.simple(in)
		return
	}
	record := strings.HasSuffix(mn, ".")
	if op, ok := ppcALU[strings.TrimSuffix(mn, ".")]; ok {
		if x.shape(in, "rrr") {
			a, b := reg(in.ops[1].reg), reg(in.ops[2].reg)
			if strings.HasPrefix(mn, "subf") {
				a, b = b, a // subtract from: rD = rB - rA
			}
			d := in.ops[0].reg
			x.emit(prog.Assign{Dst: d, Val: bin(op, a, b)})
			if record {
				x.setCR(0, reg(d), prog.Int(0))
			}
		}
		return
	}
	switch mn {
	case "cmplw", "cmplwi":
		// Unsigned, on the low words: a signed comparison of the words
		// zero-extended.
		ops := in.ops
		cr := 0
		if len(ops) == 3 && ops[0].kind == ppcCR {
			cr, ops = ops[0].cr, ops[1:]
		}
		want := "rr"
		if mn == "cmplwi" {
			want = "ri"
		}
		if !x.shape(ppcInstr{mn: mn, mnPos: in.mnPos, ops: ops}, want) {
			return
		}
		word := func(e prog.Expr) prog.Expr { return bin(prog.OpAnd, e, prog.Int(0xffffffff)) }
		x.setCR(cr, word(reg(ops[0].reg)), word(x.value(ops[1])))
		return
	case "cmpw", "cmpd", "cmpwi", "cmpdi":
		ops := in.ops
		cr := 0
		if len(ops) == 3 && ops[0].kind == ppcCR {
			cr, ops = ops[0].cr, ops[1:]
		}
		want := "rr"
		if strings.HasSuffix(mn, "i") {
			want = "ri"
		}
		if !x.shape(ppcInstr{mn: mn, mnPos: in.mnPos, ops: ops}, want) {
			return
		}
		x.setCR(cr, reg(ops[0].reg), x.value(ops[1]))
		return
	}
	if op, ok := ppcBranches[mn]; ok {
		ops := in.ops
		cr := 0
		if len(ops) == 2 && ops[0].kind == ppcCR {
			cr, ops = ops[0].cr, ops[1:]
		}
		if !x.shape(ppcInstr{mn: mn, mnPos: in.mnPos, ops: ops}, "l") {
			return
		}
		x.emit(prog.Jump{Cond: ppcTest(op, reg(ppcCRReg(cr))), Target: ops[0].name})
		return
	}
	x.errorf(in.mnPos, "unknown PPC instruction %q", mn)
}

// rlwinm rA,rS,SH,MB,ME: the low word of rS rotated left by SH, and with
// the mask of its bits MB..ME (bit 0 the most significant). A mask that
// wraps (MB > ME) also keeps a copy of the rotated word in the high word
// (the Power ISA's ROTL32 rotates the doubleword of two copies); that form
// is refused by name. rlwimi (insert) keeps rA's bits outside the mask.
func (x *ppcThread) rlwinm(ops []ppcOp, insert bool) {
	sh, mb, me := ops[2].imm, ops[3].imm, ops[4].imm
	for i, v := range []int64{sh, mb, me} {
		if v < 0 || v > 31 {
			x.errorf(ops[2+i].pos, "rlwinm's operand %d is outside 0..31", v)
			return
		}
	}
	if mb > me {
		x.errorf(ops[3].pos, "unsupported PPC instruction %s with a wrapping mask (MB %d > ME %d)", map[bool]string{false: "rlwinm", true: "rlwimi"}[insert], mb, me)
		return
	}
	low := bin(prog.OpAnd, prog.Reg{Name: ops[1].reg}, prog.Int(0xffffffff))
	rot := bin(prog.OpAnd, bin(prog.OpOr, bin(prog.OpShl, low, prog.Int(sh)), bin(prog.OpShr, low, prog.Int(32-sh))), prog.Int(0xffffffff))
	mask := (int64(1)<<(32-mb) - 1) &^ (int64(1)<<(31-me) - 1)
	val := bin(prog.OpAnd, rot, prog.Int(mask))
	if insert {
		val = bin(prog.OpOr, val, bin(prog.OpAnd, prog.Reg{Name: ops[0].reg}, prog.Int(^mask)))
	}
	x.emit(prog.Assign{Dst: ops[0].reg, Val: val})
}

// ppcTest is the condition of a branch on the bits of a CR field.
func ppcTest(op prog.Op, cr prog.Expr) prog.Expr {
	bit := func(b int64) prog.Expr { return bin(prog.OpAnd, cr, prog.Int(b)) }
	set := func(b int64) prog.Expr { return bin(prog.OpNe, bit(b), prog.Int(0)) }
	clear := func(b int64) prog.Expr { return bin(prog.OpEq, bit(b), prog.Int(0)) }
	switch op {
	case prog.OpEq:
		return set(ppcEQ)
	case prog.OpNe:
		return clear(ppcEQ)
	case prog.OpLt:
		return set(ppcLT)
	case prog.OpGe:
		return clear(ppcLT)
	case prog.OpGt:
		return set(ppcGT)
	}
	return clear(ppcGT) // ble
}

// setCR sets field cr to the comparison of a with b, when the thread
// branches.
func (x *ppcThread) setCR(cr int, a, b prog.Expr) {
	if !x.flags {
		return
	}
	scaled := func(op prog.Op, k int64) prog.Expr { return bin(prog.OpMul, bin(op, a, b), prog.Int(k)) }
	v := scaled(prog.OpEq, ppcEQ)
	if x.order {
		v = bin(prog.OpAdd, bin(prog.OpAdd, scaled(prog.OpLt, ppcLT), scaled(prog.OpGt, ppcGT)), v)
	}
	x.emit(prog.Assign{Dst: ppcCRReg(cr), Val: v})
}

// shape checks the operands of in against a shape of ppcShapes.
func (x *ppcThread) shape(in ppcInstr, shape string) bool {
	if len(in.ops) != len(shape) {
		x.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, len(shape), plural(len(shape)), len(in.ops))
		return false
	}
	names := map[byte]string{'r': "a register", 'i': "an integer", 'm': "a memory operand d(rA)", 'l': "a label"}
	kinds := map[byte]ppcOpKind{'r': ppcReg, 'i': ppcImm, 'm': ppcMem, 'l': ppcSym}
	for i := 0; i < len(shape); i++ {
		if in.ops[i].kind != kinds[shape[i]] {
			why := ""
			if shape[i] == 'r' {
				why = notAReg("PPC", symName(in.ops[i].kind == ppcSym, in.ops[i].name))
			}
			x.errorf(in.ops[i].pos, "operand %d of %s must be %s%s", i+1, in.mn, names[shape[i]], why)
			return false
		}
	}
	return true
}

func (x *ppcThread) value(op ppcOp) prog.Expr {
	if op.kind == ppcImm {
		return prog.Int(op.imm)
	}
	return reg(op.reg)
}

// base is (rA|0): r0 as a base register stands for 0.
func ppcBase(r string) prog.Expr {
	if r == "r0" {
		return nil
	}
	return reg(r)
}

// ppcEA is the effective address base + off (either may be nil for 0).
func ppcEA(base, off prog.Expr) prog.Expr {
	switch {
	case base == nil && off == nil:
		return prog.Int(0)
	case base == nil:
		return off
	case off == nil:
		return base
	}
	return bin(prog.OpAdd, base, off)
}

// simple translates the instructions of ppcShapes, whose operands are
// checked.
func (x *ppcThread) simple(in ppcInstr) {
	ops := in.ops
	switch in.mn {
	case "sync", "hwsync":
		x.emit(prog.Fence{Tags: []string{TagSYNC}})
	case "lwsync":
		x.emit(prog.Fence{Tags: []string{TagLWSYNC}})
	case "isync":
		x.emit(prog.Fence{Tags: []string{TagISYNC}})
	case "eieio":
		x.emit(prog.Fence{Tags: []string{TagEIEIO}})
	case "nop", "dcbf":
	case "b":
		x.emit(prog.Jump{Target: ops[0].name})
	case "blr":
		// Return: the thread ends.
		x.ret = true
		x.emit(prog.Jump{Target: ppcEndLabel})
	case "li":
		x.emit(prog.Assign{Dst: ops[0].reg, Val: prog.Int(ops[1].imm)})
	case "lis":
		// addis rD,0,v: v in the upper half-word, sign-extended from 32 bits.
		x.emit(prog.Assign{Dst: ops[0].reg, Val: prog.Int(normInt(ops[1].imm<<16, 32, true))})
	case "addis":
		x.emit(prog.Assign{Dst: ops[0].reg, Val: ppcEA(ppcBase(ops[1].reg), prog.Int(ops[2].imm<<16))})
	case "mr":
		x.emit(prog.Assign{Dst: ops[0].reg, Val: reg(ops[1].reg)})
	case "clrldi":
		// The n high bits cleared.
		if n := ops[2].imm; n < 0 || n > 63 {
			x.errorf(ops[2].pos, "clrldi's count %d is outside 0..63", n)
		} else {
			x.emit(prog.Assign{Dst: ops[0].reg, Val: bin(prog.OpAnd, reg(ops[1].reg), prog.Int(int64(^uint64(0)>>n)))})
		}
	case "rlwinm", "rlwimi":
		x.rlwinm(ops, in.mn == "rlwimi")
	case "extsw", "extsh", "extsb":
		// The low word, half-word or byte, sign-extended.
		bits := map[string]int64{"extsw": 32, "extsh": 16, "extsb": 8}[in.mn]
		x.emit(prog.Assign{Dst: ops[0].reg, Val: a64Sext(reg(ops[1].reg), bits)})
	case "addi", "ori", "xori", "andi.", "mulli":
		d, a := ops[0].reg, ops[1].reg
		if in.mn == "addi" && a == "r0" {
			x.emit(prog.Assign{Dst: d, Val: prog.Int(ops[2].imm)}) // addi rD,0,v is li
			return
		}
		x.emit(prog.Assign{Dst: d, Val: bin(ppcImmALU[in.mn], reg(a), prog.Int(ops[2].imm))})
		if in.mn == "andi." {
			x.setCR(0, reg(d), prog.Int(0))
		}
	case "lwz", "ld", "lwzu", "ldu", "lwa":
		d, m := ops[0].reg, ops[1]
		if ea, ok := x.address(in, m, d); ok {
			x.emitAccess(ppcSize(in.mn), prog.Load{Dst: d, Addr: ea})
		}
	case "stw", "std", "stwu", "stdu":
		if ea, ok := x.address(in, ops[1], ""); ok {
			x.emitAccess(ppcSize(in.mn), prog.Store{Addr: ea, Val: reg(ops[0].reg)})
		}
	case "lwzx", "ldx", "lwax":
		x.emitAccess(ppcSize(in.mn), prog.Load{Dst: ops[0].reg, Addr: ppcEA(ppcBase(ops[1].reg), reg(ops[2].reg))})
	case "stwx", "stdx":
		x.emitAccess(ppcSize(in.mn), prog.Store{Addr: ppcEA(ppcBase(ops[1].reg), reg(ops[2].reg)), Val: reg(ops[0].reg)})
	case "lwarx", "ldarx":
		x.emitAccess(ppcSize(in.mn), prog.Load{Dst: ops[0].reg, Addr: ppcEA(ppcBase(ops[1].reg), reg(ops[2].reg)), Tags: []string{ppcEX}})
	case "stwcx.", "stdcx.":
		sc := prog.StoreCond{Addr: ppcEA(ppcBase(ops[1].reg), reg(ops[2].reg)), Val: reg(ops[0].reg),
			Tags: []string{ppcEX}}
		if x.flags {
			sc.Status, sc.OkVal, sc.FailVal = ppcCRReg(0), prog.IntValue(ppcEQ), prog.IntValue(0)
		}
		x.emitAccess(ppcSize(in.mn), sc)
	}
}

// ppcSize is the size in bytes of an access instruction's access: a word
// (lwz, stw, lwarx, ...) or a double word (ld, std, ldarx, ...); negative
// for lwa and lwax, whose word is sign-extended (the lowering of
// mixed-size tests and the extension of narrow loads read it; see
// aarch64_mixed.go and loadext.go).
func ppcSize(mn string) int {
	switch {
	case strings.HasPrefix(mn, "lwa") && mn != "lwarx":
		return -4
	case mn[1] == 'w' || strings.HasPrefix(mn, "stw"):
		return 4
	}
	return 8
}

// address is the effective address of a d(rA) operand. Only d = 0 is
// supported: a location's address plus an offset is a part of another
// location. The update forms (lwzu, stwu, ...) set rA to the effective
// address, which is then rA itself; their base cannot be r0, nor the
// destination of a load.
func (x *ppcThread) address(in ppcInstr, m ppcOp, dst string) (prog.Expr, bool) {
	if m.imm != 0 {
		x.errorf(m.pos, "unsupported PPC access %s with displacement %d: parts of locations (mixed-size accesses) are not supported", in.mn, m.imm)
		return nil, false
	}
	ea := ppcEA(ppcBase(m.reg), nil)
	if !strings.HasSuffix(in.mn, "u") {
		return ea, true
	}
	if m.reg == "r0" || m.reg == dst {
		x.errorf(m.pos, "invalid %s: the base register cannot be r0 or the destination", in.mn)
		return nil, false
	}
	return ea, true
}
