package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// The X86_64 front-end reads herd's X86_64 dialect: AT&T syntax (source
// first, destination last), registers written %rax, mnemonics with an
// optional size suffix b, w, l or q, in any case:
//
//	movl $1,(x)  movq (x),%rax  movl %eax,(%rbx)  movq $x,%rax (address)
//	xchgl %eax,(x)  [lock] addl/subl/andl/orl/xorl src,dst  [lock] incl/decl dst
//	[lock] xaddl %eax,(x)  [lock] cmpxchgl %ebx,(x)  cmpl src,dst  testl src,dst
//	shll/sall count,dst (herd's SHL: dst = dst << count, flags from the result)
//	mfence  lfence  sfence  nop  jmp/je/jne/jl/jle/jg/jge label  label: [instruction]  ret
//
// Memory operands are (x) (a location), (%reg) or 0(%reg); immediates
// are $1, $-1, $0x10, or $x (the address of x). Each instruction is read
// into the x86 front-end's form and translated by it (see x86.go): the
// locked instructions and XCHG with memory are one atomic RMW tagged "X",
// as in herd, and the events carry the x86 fence tags, so that herd's
// x86tso.cat applies.
//
// Registers: the 64-bit name is the register (rax, rbx, ..., r15), as
// herd prints it; the 32-bit names (eax, ..., r15d) are the same register,
// a write to them zero-extending as x86-64 does. The 8- and 16-bit names
// (al, ax, ...) write the register's low bytes and keep its upper bits
// (x86_64_narrow.go). The accesses have the size of their suffix or register
// (movb: one byte), so that a test whose locations have several sizes is
// lowered into chunks as the AArch64 front-end does (aarch64_mixed.go).

func init() { Register("X86_64", x8664Frontend{}) }

type x8664Frontend struct{}

func (x8664Frontend) Arch() string { return "X86_64" }

// x8664Reg is a register name: the register (its 64-bit name) and the
// size in bytes the name reads and writes.
type x8664Reg struct {
	reg  string
	size int
}

var x8664Regs = x8664RegTable()

// x8664RegTable builds x8664Regs in a function of its own (see
// x86RegTable).
//
//go:noinline
func x8664RegTable() map[string]x8664Reg {
	m := map[string]x8664Reg{}
	for _, r := range []struct{ q, l, w, b string }{
		{"rax", "eax", "ax", "al"}, {"rbx", "ebx", "bx", "bl"}, {"rcx", "ecx", "cx", "cl"}, {"rdx", "edx", "dx", "dl"},
		{"rsi", "esi", "si", "sil"}, {"rdi", "edi", "di", "dil"}, {"rbp", "ebp", "bp", "bpl"}, {"rsp", "esp", "sp", "spl"},
	} {
		m[r.q], m[r.l], m[r.w], m[r.b] = x8664Reg{r.q, 8}, x8664Reg{r.q, 4}, x8664Reg{r.q, 2}, x8664Reg{r.q, 1}
	}
	// Registers no instruction here writes; herd's tests name them.
	for _, r := range []string{"rip", "cs", "ds", "es", "fs", "gs", "ss"} {
		m[r] = x8664Reg{r, 8}
	}
	for i := 8; i <= 15; i++ {
		q := "r" + itoa(i)
		m[q], m[q+"d"], m[q+"w"], m[q+"b"] = x8664Reg{q, 8}, x8664Reg{q, 4}, x8664Reg{q, 2}, x8664Reg{q, 1}
	}
	return m
}

// RegName reads a register name in any case, with or without its '%',
// as the 64-bit register it names ("EAX" and "%rax" are "rax").
func (x8664Frontend) RegName(name string) (string, bool) {
	r, ok := x8664Regs[strings.ToLower(strings.TrimPrefix(name, "%"))]
	return r.reg, ok
}

func (x8664Frontend) Tags() []string { return x86Frontend{}.Tags() }

// CheckTest lowers the tests whose locations have several sizes into
// per-chunk accesses (see aarch64_mixed.go).
func (x8664Frontend) CheckTest(t *spec.Test) error { return lowerMixedSizes(t, "X86_64", false) }

// x8664Sized are the mnemonics that take a size suffix, and
// x8664Plain those that take none.
var x8664Sized = map[string]string{
	"mov": "MOV", "xchg": "XCHG", "add": "ADD", "sub": "SUB", "and": "AND", "or": "OR", "xor": "XOR",
	"inc": "INC", "dec": "DEC", "xadd": "XADD", "cmpxchg": "CMPXCHG", "cmp": "CMP", "test": "TEST",
	"shl": "SHL", "sal": "SHL",
}

var x8664Plain = map[string]bool{"mfence": true, "lfence": true, "sfence": true, "jmp": true}

// x8664Nops are no-operations (endbr64, a branch-target marker, is one
// for herd too).
var x8664Nops = map[string]bool{"nop": true, "nopl": true, "nopw": true, "nopq": true, "endbr64": true}

// x8664Suffix is the size of a mnemonic's suffix.
var x8664Suffix = map[byte]int{'b': 1, 'w': 2, 'l': 4, 'q': 8}

func (x8664Frontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	x := &x86Thread{asmThread: newAsmThread(id, true), acc: "rax"}
	type sized struct {
		in   x86Instr
		size int
	}
	var ins []sized
	for _, c := range cells {
		if in, size, ok := x.parseATT(c); ok {
			ins = append(ins, sized{in, size})
			if strings.HasPrefix(in.mn, "J") && in.mn != "JMP" {
				x.flags = true
			}
		}
	}
	for _, s := range ins {
		from := len(x.t.Code)
		if (s.size == 1 || s.size == 2) && s.in.hasRegOp() {
			x.translateNarrow(s.in, s.size) // al, ax, ...: see x86_64_narrow.go
		} else {
			x.translate(s.in)
		}
		for j := from; j < len(x.t.Code); j++ {
			switch x.t.Code[j].(type) {
			case prog.Load, prog.Store, prog.RMW:
				x.t.Sizes[j] = s.size
			}
		}
	}
	for _, s := range ins {
		if len(s.in.ops) == 1 && s.in.ops[0].name == x8664End {
			x.emit(prog.Label{Name: x8664End})
			break
		}
	}
	checkLabels(x.t, &x.errs, "jump")
	return x.t, x.errs.Err()
}

// x8664End labels the end of a thread, where ret goes.
const x8664End = "%ret"

// parseATT reads "[label:] [lock] mnemonic op, op" in AT&T order into the
// x86 front-end's form (destination first), with the size of its memory
// access.
func (x *x86Thread) parseATT(c Cell) (in x86Instr, size int, ok bool) {
	in = x86Instr{pos: c.Pos}
	var toks []cellTok
	if in.label, toks, ok = x.cellHead(c, cellLexer{inWord: ".", arch: "X86_64", punct: "(),$:+-%"}); !ok || len(toks) == 0 {
		return in, 0, ok
	}
	if strings.EqualFold(toks[0].text, "lock") {
		in.lock = true
		toks = toks[1:]
		if len(toks) == 0 || toks[0].kind != 'w' {
			x.errorf(c.Pos, "expected an instruction after lock")
			return in, 0, false
		}
	}
	mn := strings.ToLower(toks[0].text)
	in.mnPos = at(c.Pos, toks[0].off)
	if mn == "ret" {
		// The end of the thread (herd's compiled tests end each
		// thread's paths with it).
		in.mn, in.ops = "JMP", []x86Op{{kind: opSym, name: x8664End, pos: in.mnPos}}
		if len(toks) > 1 {
			x.errorf(at(c.Pos, toks[1].off), "ret takes no operand")
			return in, 0, false
		}
		return in, 0, true
	}
	if x8664Nops[mn] {
		// A no-operation whatever its operands (the nopl and nopw
		// compilers emit for padding read nothing).
		in.mn = "NOP"
		return in, 0, true
	}
	switch {
	case x8664Plain[mn]:
		in.mn = strings.ToUpper(mn)
	case isX86Jump(mn):
		in.mn = strings.ToUpper(mn)
	case x8664Sized[mn] != "":
		in.mn = x8664Sized[mn]
	case len(mn) > 1 && x8664Sized[mn[:len(mn)-1]] != "" && x8664Suffix[mn[len(mn)-1]] != 0:
		in.mn, size = x8664Sized[mn[:len(mn)-1]], x8664Suffix[mn[len(mn)-1]]
	default:
		x.errorf(in.mnPos, "unknown X86_64 instruction %q", toks[0].text)
		return in, 0, false
	}
	var groups [][]cellTok
	rest := toks[1:]
	for len(rest) > 0 {
		end, depth := 0, 0
		for end < len(rest) && (rest[end].kind != ',' || depth > 0) {
			switch rest[end].kind {
			case '(':
				depth++
			case ')':
				depth--
			}
			end++
		}
		if end == 0 {
			x.errorf(at(c.Pos, rest[0].off), "missing operand of %s", toks[0].text)
			return in, 0, false
		}
		groups = append(groups, rest[:end])
		if end < len(rest) {
			end++ // the comma
			if end == len(rest) {
				x.errorf(at(c.Pos, rest[end-1].off), "missing operand of %s after ','", toks[0].text)
				return in, 0, false
			}
		}
		rest = rest[end:]
	}
	regSize := 0
	for i := len(groups) - 1; i >= 0; i-- { // AT&T order: the destination last
		op, rs, ok := x.attOperand(c, groups[i])
		if !ok {
			return in, 0, false
		}
		if rs != 0 {
			if regSize != 0 && rs != regSize {
				x.errorf(op.pos, "%s: registers of different sizes", toks[0].text)
				return in, 0, false
			}
			regSize = rs
		}
		in.ops = append(in.ops, op)
	}
	switch {
	case size != 0 && regSize != 0 && size != regSize:
		x.errorf(in.mnPos, "%s: the size of its suffix (%d bytes) is not that of its register (%d)", toks[0].text, size, regSize)
		return in, 0, false
	case size == 0:
		size = regSize
	}
	if size == 0 && x8664Sized[mn] != "" {
		for _, op := range in.ops {
			if op.kind == opMem {
				x.errorf(in.mnPos, "%s: give the size of the access with a suffix (%sb, %sw, %sl or %sq)", toks[0].text, mn, mn, mn, mn)
				return in, 0, false
			}
		}
	}
	return in, size, true
}

// attOperand reads one AT&T operand: %reg, $imm, $sym, (x), (%reg),
// 0(%reg), a bare number (herd reads it as an immediate) or a label. rs
// is the size of a register operand, 0 for others.
func (x *x86Thread) attOperand(c Cell, toks []cellTok) (op x86Op, rs int, ok bool) {
	op = x86Op{pos: at(c.Pos, toks[0].off)}
	text := cellText(c, toks)
	num := func(t cellTok, neg bool) bool {
		v, err := parseInt(t.text, neg)
		if err != nil {
			x.errorf(at(c.Pos, t.off), "malformed integer %q", t.text)
			return false
		}
		op.kind, op.imm = opImm, prog.IntValue(v)
		return true
	}
	reg := func(t cellTok) (x8664Reg, bool) {
		r, ok := x8664Regs[strings.ToLower(t.text)]
		if !ok {
			x.errorf(at(c.Pos, t.off), "unknown X86_64 register %%%s", t.text)
		}
		return r, ok
	}
	// A displacement of 0 before a parenthesis is no displacement.
	if len(toks) > 1 && toks[0].kind == 'n' && toks[1].kind == '(' {
		if v, err := parseInt(toks[0].text, false); err == nil && v == 0 {
			toks = toks[1:]
		}
	}
	switch {
	case len(toks) == 2 && toks[0].kind == '%' && toks[1].kind == 'w':
		r, ok := reg(toks[1])
		if !ok {
			return op, 0, false
		}
		op.kind, op.reg = opReg, r.reg
		return op, r.size, true
	case len(toks) >= 1 && toks[0].kind == '$':
		imm := toks[1:]
		switch {
		case len(imm) == 1 && imm[0].kind == 'n':
			return op, 0, num(imm[0], false)
		case len(imm) == 2 && (imm[0].kind == '-' || imm[0].kind == '+') && imm[1].kind == 'n':
			return op, 0, num(imm[1], imm[0].kind == '-')
		case len(imm) == 1 && imm[0].kind == 'w':
			op.kind, op.imm = opImm, prog.AddrValue(imm[0].text)
			return op, 0, true
		}
	case len(toks) == 3 && toks[0].kind == '(' && toks[1].kind == 'w' && toks[2].kind == ')':
		op.kind, op.addr = opMem, prog.Addr(toks[1].text)
		return op, 0, true
	case len(toks) == 4 && toks[0].kind == '(' && toks[1].kind == '%' && toks[2].kind == 'w' && toks[3].kind == ')':
		r, ok := reg(toks[2])
		if !ok {
			return op, 0, false
		}
		if r.size != 8 {
			x.errorf(op.pos, "unsupported X86_64 address %q: the address register is a 64-bit one", text)
			return op, 0, false
		}
		op.kind, op.addr = opMem, prog.Reg{Name: r.reg}
		return op, 0, true
	case toks[len(toks)-1].kind == ')' && len(toks) >= 4:
		if addr, ok := x.attAddress(c, toks); ok {
			op.kind, op.addr = opMem, addr
			return op, 0, true
		}
	case len(toks) == 1 && toks[0].kind == 'n':
		return op, 0, num(toks[0], false)
	case len(toks) == 1 && toks[0].kind == 'w':
		op.kind, op.name = opSym, toks[0].text
		return op, 0, true
	}
	x.errorf(op.pos, "unsupported X86_64 operand %q ((x), d(%%reg), d(%%reg,%%index,scale), %%reg, $n, $x and labels are)", text)
	return op, 0, false
}

func isX86Jump(mn string) bool {
	_, ok := x86Jumps[strings.ToUpper(mn)]
	return ok
}

// attAddress reads "[d](%base[,%index[,scale]])": base + index*scale + d,
// the base a 64-bit register. False, unreported, for another shape.
func (x *x86Thread) attAddress(c Cell, toks []cellTok) (prog.Expr, bool) {
	var d int64
	switch {
	case toks[0].kind == 'n':
		v, err := parseInt(toks[0].text, false)
		if err != nil {
			return nil, false
		}
		d, toks = v, toks[1:]
	case toks[0].kind == '-' && len(toks) > 1 && toks[1].kind == 'n':
		v, err := parseInt(toks[1].text, true)
		if err != nil {
			return nil, false
		}
		d, toks = v, toks[2:]
	}
	if len(toks) < 4 || toks[0].kind != '(' || toks[len(toks)-1].kind != ')' {
		return nil, false
	}
	in := toks[1 : len(toks)-1]
	regAt := func(k int) (x8664Reg, bool) {
		if k+1 >= len(in) || in[k].kind != '%' || in[k+1].kind != 'w' {
			return x8664Reg{}, false
		}
		r, ok := x8664Regs[strings.ToLower(in[k+1].text)]
		return r, ok && r.size >= 4
	}
	base, ok := regAt(0)
	if !ok || base.size != 8 {
		return nil, false
	}
	addr := prog.Expr(prog.Reg{Name: base.reg})
	switch len(in) {
	case 2:
	case 7:
		// (%base,%index,scale)
		idx, ok := regAt(3)
		if !ok || in[2].kind != ',' || in[5].kind != ',' || in[6].kind != 'n' {
			return nil, false
		}
		sc, err := parseInt(in[6].text, false)
		if err != nil || sc != 1 && sc != 2 && sc != 4 && sc != 8 {
			return nil, false
		}
		addr = bin(prog.OpAdd, addr, bin(prog.OpMul, prog.Reg{Name: idx.reg}, prog.Int(sc)))
	default:
		return nil, false
	}
	if d != 0 {
		addr = bin(prog.OpAdd, addr, prog.Int(d))
	}
	return addr, true
}
