package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The x86 front-end reads herd's X86 instructions in Intel operand order
// (destination first), mnemonics and registers in any case:
//
//	MOV r,[x]  MOV [x],$1  MOV [x],r  MOV r,$1  MOV r,r'  MOV r,x (address)
//	XCHG [x],r  XCHG r,[x]  XCHG r,r'
//	MFENCE  LFENCE  SFENCE  NOP
//	[LOCK] ADD/SUB/AND/OR/XOR dst,src   [LOCK] INC/DEC dst
//	[LOCK] XADD dst,r   [LOCK] CMPXCHG dst,r   CMP a,b   TEST a,b
//	JMP/JE/JZ/JNE/JNZ/JL/JLE/JG/JGE label   label: [instruction]
//
// Memory operands are [x] (a location) or [r] (the address in a
// register); immediates are 1, $1, -1, $0x10, or a location name (its
// address).
//
// Locked instructions and XCHG with memory are one prog.RMW whose read
// and write carry the tag "X". The same instructions without LOCK are a
// prog.Load then a prog.Store (not atomic: no rmw pair), as in herd.
// CMPXCHG writes only when it succeeds.
//
// Registers whose names start with '%' are the front-end's own
// temporaries, never visible in a condition: "%tmp" holds a value for the
// duration of one instruction, and the flags are the pair of registers
// "%cmpL" and "%cmpR": CMP a,b sets them to a and b, an arithmetic
// instruction to its result and 0, TEST a,b to a&b and 0, and a
// conditional jump compares them (JE: %cmpL == %cmpR, JL: %cmpL <
// %cmpR, ...; overflow is not modelled). Threads without a conditional
// jump do not compute flags.

func init() { Register("X86", x86Frontend{}) }

// Temporary registers of the x86 front-end.
const (
	x86Tmp  = "%tmp"
	x86CmpL = "%cmpL"
	x86CmpR = "%cmpR"
)

// Event tags of the x86 front-end.
const (
	TagMFENCE = "MFENCE"
	TagLFENCE = "LFENCE"
	TagSFENCE = "SFENCE"
	TagX      = "X" // the read and write of a locked instruction
)

var x86Regs = x86RegTable()

// x86RegTable builds x86Regs.
//
// The tables the package's variables hold are built by functions of
// their own, not by closures called in place, when they loop: the Go
// compiler inlines such a closure into the package's initialiser, one
// function of 34-39 KB in WebAssembly, where V8 charges the tier-up
// budget, at each jump back to the loop a Go function is compiled to,
// about the distance jumped; with the loops inside it, that initialiser,
// run once, was optimised on every first visit (the largest optimising
// compile of the playground's start, and 67 KB of the browser's code
// cache). go:noinline keeps it out.
//
//go:noinline
func x86RegTable() map[string]bool {
	m := map[string]bool{}
	for _, r := range strings.Fields("EAX EBX ECX EDX ESI EDI EBP ESP RAX RBX RCX RDX RSI RDI RBP RSP") {
		m[r] = true
	}
	for i := 8; i <= 15; i++ {
		m["R"+itoa(i)] = true
	}
	return m
}

type x86Frontend struct{}

func (x86Frontend) Arch() string { return "X86" }

// RegName upper-cases x86 register names: "eax" and "EAX" are one
// register. The 64-bit names are distinct registers (no aliasing of EAX
// with RAX).
func (x86Frontend) RegName(name string) (string, bool) {
	u := strings.ToUpper(name)
	return u, x86Regs[u]
}

func (x86Frontend) Tags() []string {
	return []string{TagMFENCE, TagLFENCE, TagSFENCE, TagX}
}

func (x86Frontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	x := &x86Thread{asmThread: newAsmThread(id, false)}
	var ins []x86Instr
	for _, c := range cells {
		if in, ok := x.parseCell(c); ok {
			ins = append(ins, in)
			if strings.HasPrefix(in.mn, "J") && in.mn != "JMP" {
				x.flags = true
			}
		}
	}
	for _, in := range ins {
		x.translate(in)
	}
	checkLabels(x.t, &x.errs, "jump")
	return x.t, x.errs.Err()
}

// x86Thread is the state of the translation of one thread.
type x86Thread struct {
	asmThread
	flags  bool   // the thread has conditional jumps: compute flags
	labels int    // counter for internal labels
	acc    string // the accumulator CMPXCHG compares with: EAX, or rax in X86_64
}

func (x *x86Thread) newLabel() string {
	x.labels++
	return "%L" + itoa(x.labels)
}

// value returns the expression of a source operand; a memory operand is
// loaded into the temporary register first.
func (x *x86Thread) value(op x86Op) prog.Expr {
	switch op.kind {
	case opReg:
		return prog.Reg{Name: op.reg}
	case opMem:
		x.emit(prog.Load{Dst: x86Tmp, Addr: op.addr})
		return prog.Reg{Name: x86Tmp}
	case opImm:
		return prog.Const{V: op.imm}
	}
	return prog.Addr(op.name)
}

// setFlags records the two compared values, when the thread needs flags.
func (x *x86Thread) setFlags(l, r prog.Expr) {
	if x.flags {
		x.emit(prog.Assign{Dst: x86CmpL, Val: l}, prog.Assign{Dst: x86CmpR, Val: r})
	}
}

func reg(name string) prog.Expr { return prog.Reg{Name: name} }

func bin(op prog.Op, a, b prog.Expr) prog.Expr { return prog.Bin{Op: op, X: a, Y: b} }

var x86ALU = map[string]prog.Op{
	"ADD": prog.OpAdd, "SUB": prog.OpSub, "AND": prog.OpAnd, "OR": prog.OpOr, "XOR": prog.OpXor,
	"INC": prog.OpAdd, "DEC": prog.OpSub, "SHL": prog.OpShl,
}

var x86Jumps = map[string]prog.Op{
	"JE": prog.OpEq, "JZ": prog.OpEq, "JNE": prog.OpNe, "JNZ": prog.OpNe,
	"JL": prog.OpLt, "JNGE": prog.OpLt, "JLE": prog.OpLe, "JNG": prog.OpLe,
	"JG": prog.OpGt, "JNLE": prog.OpGt, "JGE": prog.OpGe, "JNL": prog.OpGe,
}

// x86Lockable lists the instructions that take a LOCK prefix.
var x86Lockable = map[string]bool{
	"ADD": true, "SUB": true, "AND": true, "OR": true, "XOR": true, "INC": true, "DEC": true,
	"XADD": true, "CMPXCHG": true, "XCHG": true,
}

func (x *x86Thread) translate(in x86Instr) {
	x.pos = in.pos
	if in.label != "" {
		x.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	arity := func(n int) bool {
		if len(in.ops) != n {
			x.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, n, plural(n), len(in.ops))
			return false
		}
		return true
	}
	if in.lock {
		if !x86Lockable[in.mn] {
			x.errorf(in.mnPos, "LOCK prefix not allowed on %s", in.mn)
			return
		}
		if len(in.ops) > 0 && in.ops[0].kind != opMem {
			x.errorf(in.ops[0].pos, "LOCK %s needs a memory destination", in.mn)
			return
		}
	}
	switch in.mn {
	case "NOP":
		arity(0)
	case "MFENCE", "LFENCE", "SFENCE":
		if arity(0) {
			x.emit(prog.Fence{Tags: []string{in.mn}})
		}
	case "MOV":
		if arity(2) {
			x.mov(in)
		}
	case "XCHG":
		if arity(2) {
			x.xchg(in)
		}
	case "ADD", "SUB", "AND", "OR", "XOR", "SHL":
		if arity(2) {
			x.alu(in, x86ALU[in.mn], in.ops[0], in.ops[1])
		}
	case "INC", "DEC":
		if arity(1) {
			x.alu(in, x86ALU[in.mn], in.ops[0], x86Op{kind: opImm, imm: prog.IntValue(1)})
		}
	case "XADD":
		if arity(2) {
			x.xadd(in)
		}
	case "CMPXCHG":
		if arity(2) {
			x.cmpxchg(in)
		}
	case "CMP", "TEST":
		if arity(2) {
			x.cmp(in)
		}
	case "JMP":
		if arity(1) && x.isLabel(in.ops[0]) {
			x.emit(prog.Jump{Target: in.ops[0].name})
		}
	default:
		op, ok := x86Jumps[in.mn]
		if !ok {
			x.errorf(in.mnPos, "unknown x86 instruction %q", in.mn)
			return
		}
		if arity(1) && x.isLabel(in.ops[0]) {
			x.emit(prog.Jump{Cond: bin(op, reg(x86CmpL), reg(x86CmpR)), Target: in.ops[0].name})
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (x *x86Thread) isLabel(op x86Op) bool {
	if op.kind != opSym {
		x.errorf(op.pos, "expected a label")
		return false
	}
	return true
}

// dest checks that op is a register or memory destination.
func (x *x86Thread) dest(in x86Instr, op x86Op) bool {
	if op.kind != opReg && op.kind != opMem {
		x.errorf(op.pos, "%s needs a register or memory destination", in.mn)
		return false
	}
	return true
}

// srcReg checks that op is a register.
func (x *x86Thread) srcReg(in x86Instr, op x86Op) bool {
	if op.kind != opReg {
		x.errorf(op.pos, "%s needs a register source", in.mn)
		return false
	}
	return true
}

func (x *x86Thread) twoMem(in x86Instr) bool {
	if in.ops[0].kind == opMem && in.ops[1].kind == opMem {
		x.errorf(in.ops[1].pos, "%s cannot take two memory operands", in.mn)
		return true
	}
	return false
}

func (x *x86Thread) mov(in x86Instr) {
	d, s := in.ops[0], in.ops[1]
	if !x.dest(in, d) || x.twoMem(in) {
		return
	}
	switch {
	case d.kind == opReg && s.kind == opMem:
		x.emit(prog.Load{Dst: d.reg, Addr: s.addr})
	case d.kind == opReg:
		x.emit(prog.Assign{Dst: d.reg, Val: x.value(s)})
	default:
		x.emit(prog.Store{Addr: d.addr, Val: x.value(s)})
	}
}

func x86Locked() []string { return []string{TagX} }

func (x *x86Thread) xchg(in x86Instr) {
	a, b := in.ops[0], in.ops[1]
	switch {
	case a.kind == opMem && b.kind == opReg, a.kind == opReg && b.kind == opMem:
		if a.kind == opReg {
			a, b = b, a
		}
		// Always atomic: implicitly locked.
		x.emit(prog.RMW{Dst: b.reg, Addr: a.addr, New: reg(b.reg), RTags: x86Locked(), WTags: x86Locked()})
	case a.kind == opReg && b.kind == opReg:
		if a.reg != b.reg {
			x.emit(prog.Assign{Dst: x86Tmp, Val: reg(a.reg)},
				prog.Assign{Dst: a.reg, Val: reg(b.reg)},
				prog.Assign{Dst: b.reg, Val: reg(x86Tmp)})
		}
	default:
		x.errorf(in.mnPos, "XCHG needs a register and a register or memory operand")
	}
}

// alu is ADD, SUB, AND, OR, XOR, INC and DEC: d = d op s.
func (x *x86Thread) alu(in x86Instr, op prog.Op, d, s x86Op) {
	if !x.dest(in, d) || len(in.ops) == 2 && x.twoMem(in) {
		return
	}
	switch {
	case d.kind == opReg:
		x.emit(prog.Assign{Dst: d.reg, Val: bin(op, reg(d.reg), x.value(s))})
		x.setFlags(reg(d.reg), prog.Int(0))
	case in.lock:
		v := x.value(s)
		dst := ""
		if x.flags {
			dst = x86Tmp
		}
		x.emit(prog.RMW{Dst: dst, Addr: d.addr, New: bin(op, prog.Old{}, v), RTags: x86Locked(), WTags: x86Locked()})
		x.setFlags(bin(op, reg(x86Tmp), v), prog.Int(0))
	default:
		v := x.value(s)
		x.emit(prog.Load{Dst: x86Tmp, Addr: d.addr},
			prog.Store{Addr: d.addr, Val: bin(op, reg(x86Tmp), v)})
		x.setFlags(bin(op, reg(x86Tmp), v), prog.Int(0))
	}
}

// xadd is XADD d,s: s gets d, d gets d+s.
func (x *x86Thread) xadd(in x86Instr) {
	d, s := in.ops[0], in.ops[1]
	if !x.dest(in, d) || !x.srcReg(in, s) {
		return
	}
	switch {
	case d.kind == opReg:
		x.emit(prog.Assign{Dst: x86Tmp, Val: bin(prog.OpAdd, reg(d.reg), reg(s.reg))},
			prog.Assign{Dst: s.reg, Val: reg(d.reg)},
			prog.Assign{Dst: d.reg, Val: reg(x86Tmp)})
		x.setFlags(reg(d.reg), prog.Int(0))
	case in.lock:
		if x.flags {
			x.emit(prog.Assign{Dst: x86Tmp, Val: reg(s.reg)})
		}
		// New is computed before Dst is written: reg(s) is the addend.
		x.emit(prog.RMW{Dst: s.reg, Addr: d.addr, New: bin(prog.OpAdd, prog.Old{}, reg(s.reg)), RTags: x86Locked(), WTags: x86Locked()})
		x.setFlags(bin(prog.OpAdd, reg(s.reg), reg(x86Tmp)), prog.Int(0))
	default:
		x.emit(prog.Load{Dst: x86Tmp, Addr: d.addr},
			prog.Store{Addr: d.addr, Val: bin(prog.OpAdd, reg(x86Tmp), reg(s.reg))})
		x.setFlags(bin(prog.OpAdd, reg(x86Tmp), reg(s.reg)), prog.Int(0))
		x.emit(prog.Assign{Dst: s.reg, Val: reg(x86Tmp)})
	}
}

// cmpxchg is CMPXCHG d,s: if EAX = d then d gets s, else EAX gets d;
// the flags compare EAX with the old d (rax in X86_64: x.acc).
func (x *x86Thread) cmpxchg(in x86Instr) {
	d, s := in.ops[0], in.ops[1]
	if !x.dest(in, d) || !x.srcReg(in, s) {
		return
	}
	eax := "EAX"
	if x.acc != "" {
		eax = x.acc
	}
	switch {
	case d.kind == opReg:
		ne, end := x.newLabel(), x.newLabel()
		x.emit(prog.Assign{Dst: x86Tmp, Val: reg(d.reg)})
		x.setFlags(reg(eax), reg(x86Tmp))
		x.emit(prog.Jump{Cond: bin(prog.OpNe, reg(x86Tmp), reg(eax)), Target: ne},
			prog.Assign{Dst: d.reg, Val: reg(s.reg)},
			prog.Jump{Target: end},
			prog.Label{Name: ne},
			prog.Assign{Dst: eax, Val: reg(x86Tmp)},
			prog.Label{Name: end})
	case in.lock:
		x.emit(prog.RMW{Dst: x86Tmp, Addr: d.addr, Cond: bin(prog.OpEq, prog.Old{}, reg(eax)), New: reg(s.reg),
			RTags: x86Locked(), WTags: x86Locked()})
		x.setFlags(reg(eax), reg(x86Tmp))
		x.emit(prog.Assign{Dst: eax, Val: reg(x86Tmp)})
	default:
		skip := x.newLabel()
		x.emit(prog.Load{Dst: x86Tmp, Addr: d.addr})
		x.setFlags(reg(eax), reg(x86Tmp))
		x.emit(prog.Jump{Cond: bin(prog.OpNe, reg(x86Tmp), reg(eax)), Target: skip},
			prog.Store{Addr: d.addr, Val: reg(s.reg)},
			prog.Label{Name: skip},
			prog.Assign{Dst: eax, Val: reg(x86Tmp)})
	}
}

// cmp is CMP a,b and TEST a,b: memory operands are read even when no
// jump looks at the flags.
func (x *x86Thread) cmp(in x86Instr) {
	a, b := in.ops[0], in.ops[1]
	if !x.dest(in, a) || x.twoMem(in) {
		return
	}
	va, vb := x.value(a), x.value(b)
	if in.mn == "TEST" {
		x.setFlags(bin(prog.OpAnd, va, vb), prog.Int(0))
	} else {
		x.setFlags(va, vb)
	}
}
