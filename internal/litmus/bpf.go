package litmus

import (
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The BPF front-end reads herd7's BPF dialect: the eBPF instructions in
// the kernel's C-like assembler syntax, as the tests of herdtools7's
// catalogue/bpf write them. Registers are r0..r10 (any case), r10 also
// called fp; a register is spelled "r0".."r9" and "fp" (herd7's printing).
//
//	rd = rs          rd = k
//	rd += rs   (and -= *= /= %= &= ^= <<= >>=, with a register or an integer)
//	rd = *(uN *)(rs + k)             *(uN *)(rd + k) = rs     *(uN *)(rd + k) = k2
//	rd = load_acquire((uN *)(rs + k))                          store_release((uN *)(rd + k), rs)
//	rs = atomic_fetch_add((uN *)(rd + k), rs)   (and _and, _or, _xor)
//	lock *(uN *)(rd + k) += rs                  (and &= |= ^=)
//	rs = xchg_64(rd + k, rs)         r0 = cmpxchg_64(rd + k, r0, rs)   (xchg_32_32, cmpxchg32_32)
//	goto L           if rd == rs goto L   (and != < >=, with a register or an integer)
//
// The semantics are herd7's (herd/BPFSem.ml): the width N (8, 16, 32, 64)
// of an access is not modelled, each location being one cell, as herd7
// runs BPF tests (its BPF has no mixed-size accesses); an offset k other
// than 0 would address a part of a location and is refused by name. Event
// tags are herd7's annotation sets of bpf.cat: a load_acquire reads with
// AQ, a store_release writes with RL; the fetching atomics (atomic_fetch_*,
// xchg) are one event in R and W tagged X and SC; lock is one such event
// tagged X only; cmpxchg reads and writes with X and SC, the two events
// related by rmw (and so by amo) when it succeeds, and fails with a plain
// read; r0 receives the value read. As in herd7, the value a fetching
// atomic or xchg reads goes to its source register rs, whatever register
// is written left of '=' ("r3 = atomic_fetch_add((u32 *)(r2 + 0), r1)"
// sets r1), and cmpxchg's to r0. >>= is a logical shift, as in herd7;
// s>>= (arithmetic), which herd7 does not implement, is refused by name.
// The comparisons of the conditional jumps are signed, as herd7 computes
// them.

func init() { Register("BPF", bpfFrontend{}) }

// Event tags of the BPF front-end: herd7's annotation sets.
const (
	TagBPFAtomic  = "X"
	TagBPFSC      = "SC"
	TagBPFAcquire = "AQ"
	TagBPFRelease = "RL"
)

type bpfFrontend struct{}

func (bpfFrontend) Arch() string { return "BPF" }

func (bpfFrontend) Tags() []string {
	return []string{TagBPFAtomic, TagBPFSC, TagBPFAcquire, TagBPFRelease}
}

// RegName accepts r0..r10 and fp in any case; r10 is spelled "fp".
func (bpfFrontend) RegName(name string) (string, bool) {
	l := strings.ToLower(name)
	if l == "fp" || l == "r10" {
		return "fp", true
	}
	if len(l) == 2 && l[0] == 'r' && l[1] >= '0' && l[1] <= '9' {
		return l, true
	}
	return "", false
}

func (bpfFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	b := &bpfThread{asmThread: newAsmThread(id, false)}
	for _, c := range cells {
		b.cell(c)
	}
	checkLabels(b.t, &b.errs, "jump")
	return b.t, b.errs.Err()
}

type bpfThread struct {
	asmThread
}

// bpfOps are the operator lexemes, each before its prefixes.
// bpfLexer reads a BPF cell: words ('w'), numbers ('n') and operators
// ('o'), the operators of several bytes first.
var bpfLexer = cellLexer{arch: "BPF", opKind: true, punct: "<=*()+-,:",
	ops: []string{"s>>=", "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "==", "!=", ">="}}

// bpfCursor reads the lexemes of one cell.
type bpfCursor struct {
	cellCursor
	b *bpfThread
}

func (p *bpfCursor) reg() string {
	t := p.peek(0)
	if t.kind == 'w' {
		if r, ok := (bpfFrontend{}).RegName(t.text); ok {
			p.i++
			return r
		}
	}
	p.fail("a BPF register")
	return ""
}

func (p *bpfCursor) isReg() bool {
	t := p.peek(0)
	_, ok := (bpfFrontend{}).RegName(t.text)
	return t.kind == 'w' && ok
}

// word consumes the word w (one of the keywords).
func (p *bpfCursor) word(w string) bool {
	if t := p.peek(0); !p.bad && t.kind == 'w' && t.text == w {
		p.i++
		return true
	}
	p.fail("\"" + w + "\"")
	return false
}

// size reads a width "uN" or "sN" (not modelled) and the '*' after it.
func (p *bpfCursor) size() {
	t := p.peek(0)
	switch t.text {
	case "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64":
		p.i++
	default:
		p.fail("a width (u8, u16, u32, u64)")
		return
	}
	p.op("*")
}

// addr reads "rd + k" (or "rd - k") and gives rd, refusing k != 0.
func (p *bpfCursor) addr() prog.Expr {
	r := p.reg()
	t := p.peek(0)
	k := p.int()
	if !p.bad && k != 0 {
		p.b.errorf(at(p.c.Pos, t.off), "unsupported BPF access at offset %d from %s: parts of locations (mixed-size accesses) are not supported", k, r)
		p.bad = true
	}
	return reg(r)
}

// mem reads "(uN *)(rd + k)".
func (p *bpfCursor) mem() prog.Expr {
	p.op("(")
	p.size()
	p.op(")")
	p.op("(")
	a := p.addr()
	p.op(")")
	return a
}

// bpfALU maps the assignment operators to operations.
var bpfALU = map[string]prog.Op{
	"+=": prog.OpAdd, "-=": prog.OpSub, "*=": prog.OpMul, "/=": prog.OpDiv, "%=": prog.OpMod,
	"&=": prog.OpAnd, "|=": prog.OpOr, "^=": prog.OpXor, "<<=": prog.OpShl, ">>=": prog.OpShr,
}

// bpfConds maps the comparisons of the conditional jumps.
var bpfConds = map[string]prog.Op{"==": prog.OpEq, "!=": prog.OpNe, "<": prog.OpLt, ">=": prog.OpGe}

// bpfFetch maps the fetching atomics to the operation they apply.
var bpfFetch = map[string]prog.Op{
	"atomic_fetch_add": prog.OpAdd, "atomic_fetch_and": prog.OpAnd, "atomic_fetch_or": prog.OpOr, "atomic_fetch_xor": prog.OpXor,
}

// bpfLockOps are the operators of lock, as herd7 implements them.
var bpfLockOps = map[string]prog.Op{"+=": prog.OpAdd, "&=": prog.OpAnd, "|=": prog.OpOr, "^=": prog.OpXor}

// cell translates one cell: [label:] [instruction].
func (b *bpfThread) cell(c Cell) {
	b.pos = c.Pos
	toks, ok := b.lexCell(c, bpfLexer)
	if !ok {
		return
	}
	for len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == 'o' && toks[1].text == ":" {
		b.emit(prog.Label{Name: toks[0].text})
		toks = toks[2:]
	}
	if len(toks) == 0 {
		return
	}
	p := &bpfCursor{cellCursor: cellCursor{a: &b.asmThread, arch: "BPF", c: c, toks: toks, plus: true}, b: b}
	var ins []prog.Instr
	switch t := p.peek(0); {
	case t.kind == 'o' && t.text == "*":
		ins = p.store()
	case t.kind == 'w' && t.text == "lock":
		ins = p.lock()
	case t.kind == 'w' && t.text == "store_release":
		p.i++
		p.op("(")
		a := p.mem()
		p.op(",")
		v := p.reg()
		p.op(")")
		ins = []prog.Instr{prog.Store{Addr: a, Val: reg(v), Tags: []string{TagBPFRelease}}}
	case t.kind == 'w' && t.text == "goto":
		p.i++
		l := p.peek(0)
		if l.kind != 'w' {
			p.fail("a label")
			break
		}
		p.i++
		ins = []prog.Instr{prog.Jump{Target: l.text}}
	case t.kind == 'w' && t.text == "if":
		ins = p.jump()
	case p.isReg():
		ins = p.assign()
	default:
		b.errorf(at(c.Pos, t.off), "unknown BPF instruction %q", c.Text)
		return
	}
	if p.end() {
		b.emit(ins...)
	}
}

// store reads "*(uN *)(rd + k) = rs" or "= k".
func (p *bpfCursor) store() []prog.Instr {
	p.op("*")
	a := p.mem()
	p.op("=")
	var v prog.Expr
	if p.isReg() {
		v = reg(p.reg())
	} else {
		v = prog.Int(p.int())
	}
	return []prog.Instr{prog.Store{Addr: a, Val: v}}
}

// lock reads "lock *(uN *)(rd + k) op= rs": one event in R and W, tagged X.
func (p *bpfCursor) lock() []prog.Instr {
	p.i++
	p.op("*")
	a := p.mem()
	t := p.peek(0)
	op, ok := bpfLockOps[t.text]
	if t.kind != 'o' || !ok {
		p.fail("one of += &= |= ^=")
		return nil
	}
	p.i++
	v := p.reg()
	tags := []string{TagBPFAtomic}
	return []prog.Instr{prog.RMW{Addr: a, New: bin(op, prog.Old{}, reg(v)), RTags: tags, WTags: tags, Single: true}}
}

// jump reads "if rd cond rs goto L" or "if rd cond k goto L".
func (p *bpfCursor) jump() []prog.Instr {
	p.i++
	r := p.reg()
	t := p.peek(0)
	op, ok := bpfConds[t.text]
	if t.kind != 'o' || !ok {
		p.fail("one of == != < >=")
		return nil
	}
	p.i++
	var y prog.Expr
	if p.isReg() {
		y = reg(p.reg())
	} else {
		y = prog.Int(p.int())
	}
	p.word("goto")
	l := p.peek(0)
	if l.kind != 'w' {
		p.fail("a label")
		return nil
	}
	p.i++
	return []prog.Instr{prog.Jump{Cond: bin(op, reg(r), y), Target: l.text}}
}

// assign reads the instructions that begin with a register: moves,
// arithmetic, loads and the atomics that return a value.
func (p *bpfCursor) assign() []prog.Instr {
	d := p.reg()
	t := p.peek(0)
	if t.kind == 'o' && t.text == "s>>=" {
		p.b.errorf(at(p.c.Pos, t.off), "unsupported BPF instruction s>>= (an arithmetic shift, which herd7 does not implement)")
		p.bad = true
		return nil
	}
	if op, ok := bpfALU[t.text]; ok && t.kind == 'o' {
		p.i++
		var y prog.Expr
		if p.isReg() {
			y = reg(p.reg())
		} else {
			y = prog.Int(p.int())
		}
		if op == prog.OpShr {
			return []prog.Instr{prog.Assign{Dst: d, Val: a64LogicalShr(reg(d), y)}}
		}
		return []prog.Instr{prog.Assign{Dst: d, Val: bin(op, reg(d), y)}}
	}
	p.op("=")
	t = p.peek(0)
	fop, fetch := bpfFetch[t.text]
	switch {
	case t.kind == 'o' && t.text == "*":
		p.i++
		return []prog.Instr{prog.Load{Dst: d, Addr: p.mem()}}
	case t.kind == 'w' && t.text == "load_acquire":
		p.i++
		p.op("(")
		a := p.mem()
		p.op(")")
		return []prog.Instr{prog.Load{Dst: d, Addr: a, Tags: []string{TagBPFAcquire}}}
	case t.kind == 'w' && fetch:
		p.i++
		p.op("(")
		a := p.mem()
		p.op(",")
		v := p.reg()
		p.op(")")
		tags := []string{TagBPFAtomic, TagBPFSC}
		return []prog.Instr{prog.RMW{Dst: v, Addr: a, New: bin(fop, prog.Old{}, reg(v)), RTags: tags, WTags: tags, Single: true}}
	case t.kind == 'w' && (t.text == "xchg_64" || t.text == "xchg_32_32"):
		p.i++
		p.op("(")
		a := p.addr()
		p.op(",")
		v := p.reg()
		p.op(")")
		tags := []string{TagBPFAtomic, TagBPFSC}
		return []prog.Instr{prog.RMW{Dst: v, Addr: a, New: reg(v), RTags: tags, WTags: tags, Single: true}}
	case t.kind == 'w' && (t.text == "cmpxchg_64" || t.text == "cmpxchg32_32"):
		p.i++
		p.op("(")
		a := p.addr()
		p.op(",")
		if r0 := p.reg(); r0 != "r0" && !p.bad {
			p.i--
			p.fail("r0")
		}
		p.op(",")
		v := p.reg()
		p.op(")")
		tags := []string{TagBPFAtomic, TagBPFSC}
		return []prog.Instr{prog.RMW{Dst: "r0", Addr: a, Cond: bin(prog.OpEq, prog.Old{}, reg("r0")), New: reg(v),
			RTags: tags, WTags: tags, FailRTags: []string{}}}
	case p.isReg():
		return []prog.Instr{prog.Assign{Dst: d, Val: reg(p.reg())}}
	case t.kind == 'n' || t.kind == 'o' && (t.text == "-" || t.text == "+"):
		return []prog.Instr{prog.Assign{Dst: d, Val: prog.Int(p.int())}}
	}
	p.fail("a register, an integer, a load or an atomic")
	return nil
}
