package litmus

import (
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The SPARC front-end reads SPARC V9 assembly in the usual assembler
// syntax (source operands first, destination last; registers with '%').
// herd7 has no SPARC dialect: the header word "SPARC" is Musket's own.
//
// Registers are %g0-%g7, %o0-%o7, %l0-%l7, %i0-%i7, their aliases
// %r0-%r31, %sp (%o6) and %fp (%i6). %g0 reads as 0 and writes to it are
// discarded. In the initial state, the locations and the condition, where
// '%' cannot be written, a register is named without it: "0:o1=x",
// "exists (1:o2=0)"; the canonical spelling is the lower-case name
// without '%' ("o1").
//
// Instructions:
//
//	ld lduw ldsw ldx ldub ldsb lduh ldsh [a],rd     st stw stx stb sth rs,[a]
//	ldstub [a],rd   swap [a],rd   cas casa casx [a],rs2,rd
//	membar MASK     stbar          nop
//	mov set setx src,rd   clr rd   clr [a]   cmp rs1,src   tst rs
//	add sub and or xor andn orn sll sra sllx srax (and the "cc" forms) rs1,src,rd
//	inc dec [imm,]rd
//	ba bn bne bnz be bz bg ble bge bl [%icc|%xcc,] label   (b is ba)
//	brz brnz brlz brlez brgz brgez rs,label
//
// Branches take the suffixes ",a" (annul) and ",pt"/",pn" (prediction,
// ignored). Addresses [a] are [x] (a location), [%r], [%r+imm], [%r+%r]
// and [x+imm]; a source operand src is a register, an integer, or a
// location name (its address).
//
// Accesses have no size: a location is one cell, so the byte forms
// (ldub, stb, ldstub) read and write the whole location. A test must use
// one size per location; a thread that accesses one location with two
// sizes is reported as unsupported (mixed-size).
//
// Delay slots. The instruction after a branch (its delay slot) executes
// before the branch takes effect. The translation gives each edge of the
// branch its own copy of the delay-slot instruction:
//
//   - a conditional branch without ",a" evaluates its condition into the
//     temporary %br, then runs the delay slot, then jumps when %br holds
//     (the delay slot may overwrite the registers the condition reads);
//   - a conditional branch with ",a" (annulled) runs the delay slot only
//     when it jumps: "if !cond goto skip; delay; goto L; skip:";
//   - ba runs the delay slot then jumps; "ba,a" jumps without it;
//     bn runs it and falls through; "bn,a" skips it.
//
// When the delay-slot instruction carries a label, a third copy is placed
// under the label (reachable only by jumping to it, as on the machine),
// and the fall-through path jumps over it. A branch in a delay slot
// (a DCTI couple) is reported as unsupported; a branch needs a delay slot.
//
// Atomic instructions are one prog.RMW whose read and write are tagged
// "X": ldstub writes 255 (0xff) and returns the old value, swap exchanges
// rd with memory, cas writes rd when memory equals rs2 and always returns
// the old value in rd.
//
// Fences. "membar" takes a mask: #LoadLoad, #StoreLoad, #LoadStore,
// #StoreStore, #Sync, #MemIssue (the last two order everything), joined
// by '+' (the litmus table separates columns with '|', so the
// assembler's "#StoreLoad|#StoreStore" cannot be written in a cell), or
// a number (bit 0 LoadLoad, 1 StoreLoad, 2 LoadStore, 3 StoreStore,
// 5 MemIssue, 6 Sync, as in the V9 encoding). A membar is a fence event
// tagged MEMBAR and one tag per ordering bit: LoadLoad, StoreLoad,
// LoadStore, StoreStore. "stbar" is a fence tagged STBAR and StoreStore
// (it is membar #StoreStore). A membar whose mask has #StoreLoad is also
// tagged MFENCE, so that x86-TSO models (built-in tso) see it as the
// fence it is under TSO; the pso and rmo models tell it from x86's MFENCE
// by the MEMBAR tag. #Lookaside is reported as unsupported.
//
// Condition codes are the pair of temporaries %ccL and %ccR: cmp a,b sets
// them to a and b, the "cc" arithmetic forms to the result and 0, and a
// Bicc compares them (be: %ccL == %ccR, bl: %ccL < %ccR, ...; overflow
// and the unsigned conditions are not modelled).

func init() { Register("SPARC", sparcFrontend{}) }

// Event tags of the SPARC front-end.
const (
	TagMEMBAR     = "MEMBAR"
	TagSTBAR      = "STBAR"
	TagLoadLoad   = "LoadLoad"
	TagStoreLoad  = "StoreLoad"
	TagLoadStore  = "LoadStore"
	TagStoreStore = "StoreStore"
)

// Temporary registers of the SPARC front-end.
const (
	sparcCcL = "%ccL"
	sparcCcR = "%ccR"
	sparcBr  = "%br"
)

type sparcFrontend struct{}

func (sparcFrontend) Arch() string { return "SPARC" }

func (sparcFrontend) Tags() []string {
	return []string{TagX, TagMEMBAR, TagSTBAR, TagLoadLoad, TagStoreLoad, TagLoadStore, TagStoreStore, TagMFENCE}
}

// RegName accepts "o1", "%o1", "r9" (canonical "o1"), "sp" and "fp", in
// any case.
func (sparcFrontend) RegName(name string) (string, bool) {
	return sparcReg(strings.TrimPrefix(name, "%"))
}

// sparcReg canonicalizes a register name given without '%'.
func sparcReg(name string) (string, bool) {
	n := strings.ToLower(name)
	switch n {
	case "sp":
		return "o6", true
	case "fp":
		return "i6", true
	}
	if len(n) < 2 {
		return "", false
	}
	num, err := strconv.Atoi(n[1:])
	if err != nil || n[1] == '+' || n[1] == '-' || (len(n) > 2 && n[1] == '0') {
		return "", false
	}
	switch n[0] {
	case 'g', 'o', 'l', 'i':
		if num < 8 {
			return n, true
		}
	case 'r':
		if num < 32 {
			return string("goli"[num/8]) + strconv.Itoa(num%8), true
		}
	}
	return "", false
}

func (sparcFrontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	s := &sparcThread{asmThread: newAsmThread(id, false), sizes: map[string]sparcSize{}}
	var ins []*sparcInstr
	var pending []string // labels waiting for their instruction
	var pendingPos prog.Pos
	for _, c := range cells {
		in, ok := s.parseCell(c)
		if !ok {
			continue
		}
		if in.mn == "" {
			if len(pending) == 0 {
				pendingPos = in.pos
			}
			pending = append(pending, in.labels...)
			continue
		}
		in.labels = append(pending, in.labels...)
		pending = nil
		ins = append(ins, in)
	}
	if len(s.errs) == 0 {
		for i := 0; i < len(ins); {
			i = s.translate(ins, i)
		}
		if len(pending) > 0 {
			s.pos = pendingPos
			s.labels(pending)
		}
		checkLabels(s.t, &s.errs, "jump")
	}
	return s.t, s.errs.Err()
}

// sparcThread is the state of the translation of one thread.
type sparcThread struct {
	asmThread
	nlabel int
	sizes  map[string]sparcSize // access size of each constant location
}

type sparcSize struct {
	n   int
	pos prog.Pos
}

func (s *sparcThread) newLabel() string {
	s.nlabel++
	return "%L" + itoa(s.nlabel)
}

func (s *sparcThread) labels(ls []string) {
	for _, l := range ls {
		s.emit(prog.Label{Name: l})
	}
}

// sparcOpKind is the kind of an operand.
type sparcOpKind int

const (
	spReg  sparcOpKind = iota // %o1
	spImm                     // 1, -1, 0x10
	spSym                     // x: a label, or a location's address
	spMem                     // [x], [%o1+4]
	spMask                    // #StoreLoad+#StoreStore
)

type sparcOp struct {
	kind sparcOpKind
	reg  string    // spReg
	imm  int64     // spImm; spMask: the mask bits
	name string    // spSym; spMem: the location when the address is constant
	addr prog.Expr // spMem
	pos  prog.Pos
}

// sparcInstr is a parsed cell.
type sparcInstr struct {
	pos    prog.Pos
	labels []string
	mn     string // lower case, without suffixes; "" for a label-only cell
	mnPos  prog.Pos
	annul  bool
	ops    []sparcOp
}

// The branch mnemonics: Bicc conditions on %ccL/%ccR, and the register
// branches (BPr) comparing one register with 0.
var sparcBicc = map[string]prog.Op{
	"bne": prog.OpNe, "bnz": prog.OpNe, "be": prog.OpEq, "bz": prog.OpEq,
	"bg": prog.OpGt, "ble": prog.OpLe, "bge": prog.OpGe, "bl": prog.OpLt,
}

var sparcBPr = map[string]prog.Op{
	"brz": prog.OpEq, "brnz": prog.OpNe, "brlz": prog.OpLt, "brlez": prog.OpLe, "brgz": prog.OpGt, "brgez": prog.OpGe,
}

func sparcIsBranch(mn string) bool {
	_, bicc := sparcBicc[mn]
	_, bpr := sparcBPr[mn]
	return bicc || bpr || mn == "ba" || mn == "b" || mn == "bn"
}

var sparcLoads = map[string]int{"ld": 4, "lduw": 4, "ldsw": 4, "ldx": 8, "ldub": 1, "ldsb": 1, "lduh": 2, "ldsh": 2}
var sparcStores = map[string]int{"st": 4, "stw": 4, "stx": 8, "stb": 1, "sth": 2}

var sparcALU = map[string]prog.Op{
	"add": prog.OpAdd, "sub": prog.OpSub, "and": prog.OpAnd, "or": prog.OpOr, "xor": prog.OpXor,
	"sll": prog.OpShl, "sra": prog.OpShr, "sllx": prog.OpShl, "srax": prog.OpShr,
	"andn": prog.OpAnd, "orn": prog.OpOr,
}

// The membar mask bits of the V9 encoding.
const (
	sparcLoadLoad   = 0x01
	sparcStoreLoad  = 0x02
	sparcLoadStore  = 0x04
	sparcStoreStore = 0x08
	sparcLookaside  = 0x10
	sparcMemIssue   = 0x20
	sparcSync       = 0x40
)

var sparcMaskNames = map[string]int64{
	"loadload": sparcLoadLoad, "storeload": sparcStoreLoad, "loadstore": sparcLoadStore,
	"storestore": sparcStoreStore, "lookaside": sparcLookaside, "memissue": sparcMemIssue, "sync": sparcSync,
}

// translate translates ins[i] (with its delay slot when it is a branch)
// and returns the index of the next instruction to translate.
func (s *sparcThread) translate(ins []*sparcInstr, i int) int {
	in := ins[i]
	s.pos = in.pos
	s.labels(in.labels)
	if !sparcIsBranch(in.mn) {
		s.instr(in)
		return i + 1
	}
	if i+1 >= len(ins) {
		s.errorf(in.mnPos, "%s has no delay slot: a branch cannot end a thread", in.mn)
		return i + 1
	}
	d := ins[i+1]
	if sparcIsBranch(d.mn) {
		s.errorf(d.mnPos, "unsupported SPARC feature: branch %s in the delay slot of %s (DCTI couple)", d.mn, in.mn)
		return i + 2
	}
	cond, target, ok := s.branch(in)
	if !ok {
		return i + 2
	}
	delay := func() {
		s.pos = d.pos
		s.instr(d)
		s.pos = in.pos
	}
	endsInGoto := false
	switch {
	case in.mn == "ba" || in.mn == "b":
		if !in.annul {
			delay()
		}
		s.emit(prog.Jump{Target: target})
		endsInGoto = true
	case in.mn == "bn":
		if !in.annul {
			delay()
		}
	case !in.annul:
		s.emit(prog.Assign{Dst: sparcBr, Val: cond})
		delay()
		s.emit(prog.Jump{Cond: reg(sparcBr), Target: target})
	default:
		skip := s.newLabel()
		s.emit(prog.Jump{Cond: prog.Un{Op: prog.OpNot, X: cond}, Target: skip})
		delay()
		s.emit(prog.Jump{Target: target}, prog.Label{Name: skip})
	}
	if len(d.labels) > 0 {
		// The delay slot is also the target of a jump: there it runs as an
		// ordinary instruction.
		after := ""
		if !endsInGoto {
			after = s.newLabel()
			s.emit(prog.Jump{Target: after})
		}
		s.pos = d.pos
		s.labels(d.labels)
		s.instr(d)
		if after != "" {
			s.emit(prog.Label{Name: after})
		}
	}
	return i + 2
}

// branch checks a branch's operands and returns its condition (nil for
// ba and bn) and its target.
func (s *sparcThread) branch(in *sparcInstr) (prog.Expr, string, bool) {
	ops := in.ops
	if op, isBicc := sparcBicc[in.mn]; isBicc || in.mn == "ba" || in.mn == "b" || in.mn == "bn" {
		if len(ops) == 2 && ops[0].kind == spReg && (ops[0].reg == "icc" || ops[0].reg == "xcc") {
			ops = ops[1:]
		}
		if len(ops) != 1 || ops[0].kind != spSym {
			s.errorf(in.mnPos, "%s takes a label", in.mn)
			return nil, "", false
		}
		if !isBicc {
			return nil, ops[0].name, true
		}
		return bin(op, reg(sparcCcL), reg(sparcCcR)), ops[0].name, true
	}
	op := sparcBPr[in.mn]
	if len(ops) != 2 || ops[0].kind != spReg || ops[1].kind != spSym {
		s.errorf(in.mnPos, "%s takes a register and a label", in.mn)
		return nil, "", false
	}
	if !s.isGPR(ops[0]) {
		return nil, "", false
	}
	return bin(op, s.regVal(ops[0].reg), prog.Int(0)), ops[1].name, true
}

// isGPR checks that op is a general-purpose register.
func (s *sparcThread) isGPR(op sparcOp) bool {
	if op.kind != spReg || op.reg == "icc" || op.reg == "xcc" {
		s.errorf(op.pos, "expected a general-purpose register")
		return false
	}
	return true
}

// regVal is the value of a register: %g0 is 0.
func (s *sparcThread) regVal(r string) prog.Expr {
	if r == "g0" {
		return prog.Int(0)
	}
	return reg(r)
}

// dst is the destination register name ("" for %g0: discarded).
func dst(r string) string {
	if r == "g0" {
		return ""
	}
	return r
}

// src is the value of a source operand: a register, an integer or an
// address.
func (s *sparcThread) src(op sparcOp) (prog.Expr, bool) {
	switch op.kind {
	case spReg:
		if !s.isGPR(op) {
			return nil, false
		}
		return s.regVal(op.reg), true
	case spImm:
		return prog.Int(op.imm), true
	case spSym:
		return prog.Addr(op.name), true
	}
	s.errorf(op.pos, "expected a register, an integer or a location name")
	return nil, false
}

// mem checks a memory operand and records the access size of its
// location.
func (s *sparcThread) mem(in *sparcInstr, op sparcOp, size int) (prog.Expr, bool) {
	if op.kind != spMem {
		s.errorf(op.pos, "%s needs a memory operand [address]", in.mn)
		return nil, false
	}
	if op.name != "" {
		if prev, ok := s.sizes[op.name]; ok && prev.n != size {
			s.errorf(op.pos, "unsupported SPARC feature: mixed-size accesses to %s (%d-byte %s here, %d-byte access at %d:%d)",
				op.name, size, in.mn, prev.n, prev.pos.Line, prev.pos.Col)
			return nil, false
		}
		s.sizes[op.name] = sparcSize{size, op.pos}
	}
	return op.addr, true
}

func (s *sparcThread) arity(in *sparcInstr, n ...int) bool {
	for _, k := range n {
		if len(in.ops) == k {
			return true
		}
	}
	s.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, n[0], plural(n[0]), len(in.ops))
	return false
}

func sparcAtomic() []string { return []string{TagX} }

// setFlags records the compared pair in the condition codes.
func (s *sparcThread) setFlags(l, r prog.Expr) {
	s.emit(prog.Assign{Dst: sparcCcL, Val: l}, prog.Assign{Dst: sparcCcR, Val: r})
}

// instr translates one non-branch instruction.
func (s *sparcThread) instr(in *sparcInstr) {
	if size, ok := sparcLoads[in.mn]; ok {
		s.load(in, size)
		return
	}
	if size, ok := sparcStores[in.mn]; ok {
		s.store(in, size)
		return
	}
	if op, ok := sparcALU[strings.TrimSuffix(in.mn, "cc")]; ok {
		s.alu(in, op)
		return
	}
	switch in.mn {
	case "nop":
		s.arity(in, 0)
	case "stbar":
		if s.arity(in, 0) {
			s.emit(prog.Fence{Tags: []string{TagSTBAR, TagStoreStore}})
		}
	case "membar":
		if s.arity(in, 1) {
			s.membar(in.ops[0])
		}
	case "ldstub", "swap", "cas", "casa", "casx", "casxa":
		s.atomic(in)
	case "mov", "set", "setuw", "setx", "clr":
		s.move(in)
	case "cmp", "tst":
		s.compare(in)
	case "inc", "dec", "inccc", "deccc":
		s.incDec(in)
	default:
		s.errorf(in.mnPos, "unknown SPARC instruction %q", in.mn)
	}
}

// load is "ld [address], rd" and its sized forms.
func (s *sparcThread) load(in *sparcInstr, size int) {
	ops := in.ops
	if !s.arity(in, 2) || !s.isGPR(ops[1]) {
		return
	}
	if a, ok := s.mem(in, ops[0], size); ok {
		s.emit(prog.Load{Dst: dst(ops[1].reg), Addr: a})
	}
}

// store is "st rs, [address]" and its sized forms.
func (s *sparcThread) store(in *sparcInstr, size int) {
	ops := in.ops
	if !s.arity(in, 2) {
		return
	}
	if ops[0].kind != spReg {
		s.errorf(ops[0].pos, "%s stores a register (use %%g0 for 0)", in.mn)
		return
	}
	if !s.isGPR(ops[0]) {
		return
	}
	if a, ok := s.mem(in, ops[1], size); ok {
		s.emit(prog.Store{Addr: a, Val: s.regVal(ops[0].reg)})
	}
}

// atomic is one of the atomic read-modify-writes: ldstub, swap and the
// compare-and-swaps.
func (s *sparcThread) atomic(in *sparcInstr) {
	ops := in.ops
	switch in.mn {
	case "ldstub":
		if s.arity(in, 2) && s.isGPR(ops[1]) {
			if a, ok := s.mem(in, ops[0], 1); ok {
				s.emit(prog.RMW{Dst: dst(ops[1].reg), Addr: a, New: prog.Int(0xff), RTags: sparcAtomic(), WTags: sparcAtomic()})
			}
		}
	case "swap":
		if s.arity(in, 2) && s.isGPR(ops[1]) {
			if a, ok := s.mem(in, ops[0], 4); ok {
				s.emit(prog.RMW{Dst: dst(ops[1].reg), Addr: a, New: s.regVal(ops[1].reg), RTags: sparcAtomic(), WTags: sparcAtomic()})
			}
		}
	case "cas", "casa", "casx", "casxa":
		size := 4
		if strings.HasPrefix(in.mn, "casx") {
			size = 8
		}
		if s.arity(in, 3) && s.isGPR(ops[1]) && s.isGPR(ops[2]) {
			if a, ok := s.mem(in, ops[0], size); ok {
				s.emit(prog.RMW{Dst: dst(ops[2].reg), Addr: a, Cond: bin(prog.OpEq, prog.Old{}, s.regVal(ops[1].reg)),
					New: s.regVal(ops[2].reg), RTags: sparcAtomic(), WTags: sparcAtomic()})
			}
		}
	}
}

// move is mov, set (and its synonyms) and clr, of a register or memory.
func (s *sparcThread) move(in *sparcInstr) {
	ops := in.ops
	switch in.mn {
	case "mov", "set", "setuw", "setx":
		if !s.arity(in, 2, 3) || !s.isGPR(ops[len(ops)-1]) {
			return
		}
		if v, ok := s.src(ops[0]); ok {
			if d := dst(ops[len(ops)-1].reg); d != "" {
				s.emit(prog.Assign{Dst: d, Val: v})
			}
		}
	case "clr":
		if !s.arity(in, 1) {
			return
		}
		if ops[0].kind == spMem {
			if a, ok := s.mem(in, ops[0], 4); ok {
				s.emit(prog.Store{Addr: a, Val: prog.Int(0)})
			}
			return
		}
		if s.isGPR(ops[0]) {
			if d := dst(ops[0].reg); d != "" {
				s.emit(prog.Assign{Dst: d, Val: prog.Int(0)})
			}
		}
	}
}

// compare is cmp and tst: they set the condition codes.
func (s *sparcThread) compare(in *sparcInstr) {
	ops := in.ops
	switch in.mn {
	case "cmp":
		if !s.arity(in, 2) || !s.isGPR(ops[0]) {
			return
		}
		if v, ok := s.src(ops[1]); ok {
			s.setFlags(s.regVal(ops[0].reg), v)
		}
	case "tst":
		if s.arity(in, 1) && s.isGPR(ops[0]) {
			s.setFlags(s.regVal(ops[0].reg), prog.Int(0))
		}
	}
}

// incDec is inc, dec and their "cc" forms.
func (s *sparcThread) incDec(in *sparcInstr) {
	ops := in.ops
	if !s.arity(in, 1, 2) || !s.isGPR(ops[len(ops)-1]) {
		return
	}
	var by prog.Expr = prog.Int(1)
	if len(ops) == 2 {
		v, ok := s.src(ops[0])
		if !ok {
			return
		}
		by = v
	}
	op := prog.OpAdd
	if strings.HasPrefix(in.mn, "dec") {
		op = prog.OpSub
	}
	r := ops[len(ops)-1].reg
	res := bin(op, s.regVal(r), by)
	if d := dst(r); d != "" {
		s.emit(prog.Assign{Dst: d, Val: res})
		res = reg(d)
	}
	if strings.HasSuffix(in.mn, "cc") {
		s.setFlags(res, prog.Int(0))
	}
}

// alu is "op rs1, src, rd" and its "cc" form.
func (s *sparcThread) alu(in *sparcInstr, op prog.Op) {
	ops := in.ops
	if !s.arity(in, 3) || !s.isGPR(ops[0]) || !s.isGPR(ops[2]) {
		return
	}
	b, ok := s.src(ops[1])
	if !ok {
		return
	}
	base := strings.TrimSuffix(in.mn, "cc")
	if base == "andn" || base == "orn" {
		b = prog.Un{Op: prog.OpBNot, X: b}
	}
	res := bin(op, s.regVal(ops[0].reg), b)
	if d := dst(ops[2].reg); d != "" {
		s.emit(prog.Assign{Dst: d, Val: res})
		res = reg(d)
	}
	if strings.HasSuffix(in.mn, "cc") {
		s.setFlags(res, prog.Int(0))
	}
}

// membar emits the fence of a mask.
func (s *sparcThread) membar(op sparcOp) {
	if op.kind != spMask && op.kind != spImm {
		s.errorf(op.pos, "membar takes a mask (#StoreLoad+#StoreStore, or a number)")
		return
	}
	m := op.imm
	if m&^0x7f != 0 || m < 0 {
		s.errorf(op.pos, "bad membar mask %#x", m)
		return
	}
	if m&sparcLookaside != 0 {
		s.errorf(op.pos, "unsupported SPARC feature: membar #Lookaside")
		return
	}
	if m&(sparcSync|sparcMemIssue) != 0 {
		m |= sparcLoadLoad | sparcStoreLoad | sparcLoadStore | sparcStoreStore
	}
	tags := []string{TagMEMBAR}
	for _, b := range []struct {
		bit int64
		tag string
	}{{sparcLoadLoad, TagLoadLoad}, {sparcStoreLoad, TagStoreLoad}, {sparcLoadStore, TagLoadStore}, {sparcStoreStore, TagStoreStore}} {
		if m&b.bit != 0 {
			tags = append(tags, b.tag)
		}
	}
	if m&sparcStoreLoad != 0 {
		tags = append(tags, TagMFENCE)
	}
	s.emit(prog.Fence{Tags: tags})
}
