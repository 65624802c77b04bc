package litmus

import (
	"fmt"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// The AArch64 front-end reads herd's AArch64 dialect, mnemonics and
// registers in any case:
//
//	LDR/STR Rt,[Xn]  [Xn,#imm]  [Xn,Rm]  [Xn,Wm,SXTW|UXTW]  [Xn,Xm,LSL #k]
//	LDAR LDAPR STLR (acquire "A", acquire-PC "Q", release "L")
//	LDXR LDAXR STXR STLXR (exclusives: "EX", plus "A" / "L")
//	SWP CAS LDADD LDCLR LDEOR LDSET {,A,L,AL}, STADD STCLR STEOR STSET {,L}
//	DMB/DSB SY ISH OSH NSH LD ST ISHLD ISHST ...   ISB   NOP
//	MOV ADD SUB EOR AND ORR  CMP  CBZ CBNZ  B  B.EQ B.NE B.LT B.LE B.GT B.GE
//	label: [instruction]
//
// Registers W<n> and X<n> (n < 31) are one register, spelled X<n>; WZR and
// XZR read as zero and ignore writes. Each access records its size (W: 4
// bytes, X: 8, the B and H forms LDRB, STRH, SWPALB, ...: 1 and 2). A test
// without sized locations, byte or half-word accesses or accesses at an
// offset keeps herd's whole-location semantics; a mixed-size test is
// lowered into per-chunk accesses (aarch64_mixed.go). Pair accesses (LDP,
// STP) and the sign-extending loads are reported unsupported by name.
//
// Atomic read-modify-writes (SWP, CAS, LD<op>, ST<op>) are one prog.RMW
// whose read and write carry "X" (herd's amo pairs), plus "A" on the read
// and "L" on the write for the acquire and release forms; the reads of
// ST<op> also carry "NoRet". Exclusives are a prog.Load tagged "EX" and a
// prog.StoreCond tagged "EX" whose status register gets 0 on success and 1
// on failure (herd's lxsx pairs). Barriers are fences tagged as herd's
// aarch64fences.cat names them: "DMB.SY", "DMB.ISHLD", "DSB.ST", "ISB".
//
// The condition flags are the pair of front-end temporaries "%cmpL" and
// "%cmpR": CMP a,b sets them to a and b and B.cond compares them (signed;
// overflow is not modelled).

func init() {
	Register("AArch64", a64Frontend{})
}

// Event tags of the AArch64 front-end.
const (
	TagA64Acquire   = "A"     // LDAR, LDAXR, the A forms of atomics
	TagA64AcquirePC = "Q"     // LDAPR
	TagA64Release   = "L"     // STLR, STLXR, the L forms of atomics
	TagA64Atomic    = "X"     // the read and write of an atomic RMW instruction
	TagA64Exclusive = "EX"    // load and store exclusives
	TagA64NoRet     = "NoRet" // the read of ST<op>: no register gets the value
	TagA64ISB       = "ISB"
)

// Temporary registers of the AArch64 front-end.
const (
	a64CmpL = "%cmpL"
	a64CmpR = "%cmpR"
)

// a64BarrierOpts are the options of DMB and DSB.
var a64BarrierOpts = []string{"SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "NSH", "NSHST", "NSHLD", "OSH", "OSHST", "OSHLD"}

type a64Frontend struct{}

func (a64Frontend) Arch() string { return "AArch64" }

// RegName maps W<n> and X<n> (any case) to X<n>.
func (a64Frontend) RegName(name string) (string, bool) {
	n, _, ok := a64RegNum(name)
	if !ok || n < 0 {
		return "", false
	}
	return "X" + strconv.Itoa(n), true
}

// a64RegNum returns the number of a general-purpose register (-1 for the
// zero register) and whether it is a 64-bit name.
func a64RegNum(name string) (n int, wide bool, ok bool) {
	u := strings.ToUpper(name)
	switch u {
	case "XZR":
		return -1, true, true
	case "WZR":
		return -1, false, true
	}
	if len(u) < 2 || len(u) > 3 || (u[0] != 'X' && u[0] != 'W') {
		return 0, false, false
	}
	if !isDecimal(u[1:]) || len(u) == 3 && u[1] == '0' {
		return 0, false, false
	}
	n, _ = strconv.Atoi(u[1:])
	if n > 30 {
		return 0, false, false
	}
	return n, u[0] == 'X', true
}

func (a64Frontend) Tags() []string {
	tags := []string{TagA64Acquire, TagA64AcquirePC, TagA64Release, TagA64Atomic, TagA64Exclusive, TagA64NoRet, TagA64ISB}
	for _, b := range []string{"DMB", "DSB"} {
		for _, o := range a64BarrierOpts {
			tags = append(tags, b+"."+o)
		}
	}
	return tags
}

func (a64Frontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	a := &a64Thread{t: &prog.Thread{ID: id, Name: "P" + itoa(id)}}
	for _, c := range cells {
		if in, ok := a.parseCell(c); ok {
			a.translate(in)
		}
	}
	a.checkLabels()
	return a.t, a.errs.Err()
}

// a64Thread is the state of the translation of one thread.
type a64Thread struct {
	t    *prog.Thread
	errs source.ErrorList
	pos  prog.Pos
}

func (a *a64Thread) errorf(pos prog.Pos, format string, args ...any) {
	a.errs.Add(pos, fmt.Sprintf(format, args...))
}

func (a *a64Thread) emit(ins ...prog.Instr) {
	for _, in := range ins {
		a.t.Code = append(a.t.Code, in)
		a.t.Pos = append(a.t.Pos, a.pos)
		a.t.Sizes = append(a.t.Sizes, 0)
	}
}

// emitAccess emits the memory access in, of size bytes (the lowering of
// mixed-size tests uses the sizes; see aarch64_mixed.go).
func (a *a64Thread) emitAccess(size int, in prog.Instr) {
	a.emit(in)
	a.t.Sizes[len(a.t.Sizes)-1] = size
}

// Lexemes and operands.

type a64OpKind int

const (
	a64Reg   a64OpKind = iota // W1, X2, XZR
	a64Imm                    // #1, #-1, #0x10
	a64Mem                    // [X1], [X1,#4], [X1,X2], [X1,W2,SXTW]
	a64Sym                    // a label, or a shift or extend keyword (SXTW)
	a64Shift                  // LSL #k
)

type a64Op struct {
	kind  a64OpKind
	reg   string // a64Reg: canonical name, "" for the zero register
	wide  bool   // a64Reg: 64-bit name
	imm   int64  // a64Imm; a64Shift: the amount
	name  string // a64Sym (upper case for keywords, as written for labels); a64Shift: "LSL"
	addr  prog.Expr
	index bool // a64Mem: the address has a register or immediate offset
	pos   prog.Pos
}

// a64Instr is a parsed cell.
type a64Instr struct {
	pos   prog.Pos
	label string
	mn    string // upper case; "" for a cell with only a label
	mnPos prog.Pos
	ops   []a64Op
}

// parseCell reads "[label:] [MNEMONIC op, op, ...]".
func (a *a64Thread) parseCell(c Cell) (a64Instr, bool) {
	in := a64Instr{pos: c.Pos}
	toks, err := cellLexer{arch: "AArch64", punct: "[],#:!-+", dotWords: true}.lex(c)
	if err != nil {
		a.errs = append(a.errs, err)
		return in, false
	}
	in.label, toks = cellLabel(toks)
	if len(toks) == 0 {
		return in, true
	}
	if toks[0].kind != 'w' {
		a.errorf(at(c.Pos, toks[0].off), "expected an AArch64 instruction, found %q", toks[0].text)
		return in, false
	}
	in.mn, in.mnPos = strings.ToUpper(toks[0].text), at(c.Pos, toks[0].off)
	if why, ok := a64Unsupported(in.mn); ok {
		a.errorf(in.mnPos, "unsupported AArch64 instruction %s: %s", in.mn, why)
		return in, false
	}
	groups, ok := cellOperands(c, in.mn, toks[1:], &a.errs)
	if !ok {
		return in, false
	}
	for _, g := range groups {
		op, ok := a.operand(c, in.mn, g)
		if !ok {
			return in, false
		}
		in.ops = append(in.ops, op)
	}
	return in, true
}

// operand reads one operand.
func (a *a64Thread) operand(c Cell, mn string, toks []cellTok) (a64Op, bool) {
	op := a64Op{pos: at(c.Pos, toks[0].off)}
	text := func() string { return cellText(c, toks) }
	switch {
	case toks[0].kind == '#':
		v, ok := a.immediate(c, toks[1:])
		op.kind, op.imm = a64Imm, v
		return op, ok
	case toks[0].kind == '[':
		return a.memOperand(c, mn, toks)
	case len(toks) == 1 && toks[0].kind == 'w':
		if n, wide, ok := a64RegNum(toks[0].text); ok {
			op.kind, op.wide = a64Reg, wide
			if n >= 0 {
				op.reg = "X" + strconv.Itoa(n)
			}
			return op, true
		}
		op.kind, op.name = a64Sym, toks[0].text
		return op, true
	case len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == '#':
		kw := strings.ToUpper(toks[0].text)
		if kw != "LSL" {
			a.errorf(op.pos, "unsupported shift %s in AArch64 operand %q", kw, text())
			return op, false
		}
		v, ok := a.immediate(c, toks[2:])
		op.kind, op.name, op.imm = a64Shift, kw, v
		return op, ok
	}
	a.errorf(op.pos, "bad AArch64 operand %q", text())
	return op, false
}

// immediate reads [-]number.
func (a *a64Thread) immediate(c Cell, toks []cellTok) (int64, bool) {
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

// memOperand reads [Xn], [Xn,#imm], [Xn,Rm], [Xn,Rm,SXTW|UXTW|LSL #k].
func (a *a64Thread) memOperand(c Cell, mn string, toks []cellTok) (a64Op, bool) {
	op := a64Op{kind: a64Mem, pos: at(c.Pos, toks[0].off)}
	last := toks[len(toks)-1]
	if last.kind == '!' {
		a.errorf(at(c.Pos, last.off), "unsupported AArch64 addressing mode: pre-indexed %s", mn)
		return op, false
	}
	if last.kind != ']' {
		a.errorf(at(c.Pos, last.off), "missing ']' in memory operand of %s", mn)
		return op, false
	}
	inner := toks[1 : len(toks)-1]
	// Split the inside on commas.
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
			a.errorf(op.pos, "bad memory operand of %s", mn)
			return op, false
		}
	}
	base := parts[0]
	if len(base) != 1 || base[0].kind != 'w' {
		a.errorf(at(c.Pos, base[0].off), "expected a base register in memory operand of %s", mn)
		return op, false
	}
	n, _, ok := a64RegNum(base[0].text)
	if !ok || n < 0 {
		a.errorf(at(c.Pos, base[0].off), "bad base register %q in memory operand of %s", base[0].text, mn)
		return op, false
	}
	op.addr = prog.Reg{Name: "X" + strconv.Itoa(n)}
	if len(parts) == 1 {
		return op, true
	}
	op.index = true
	off := parts[1]
	switch {
	case off[0].kind == '#':
		v, ok := a.immediate(c, off[1:])
		if !ok {
			return op, false
		}
		if len(parts) > 2 {
			a.errorf(at(c.Pos, parts[2][0].off), "unexpected operand after the offset of %s", mn)
			return op, false
		}
		if v != 0 {
			op.addr = prog.Bin{Op: prog.OpAdd, X: op.addr, Y: prog.Int(v)}
		}
		return op, true
	case len(off) == 1 && off[0].kind == 'w':
		m, _, ok := a64RegNum(off[0].text)
		if !ok {
			a.errorf(at(c.Pos, off[0].off), "bad index register %q in memory operand of %s", off[0].text, mn)
			return op, false
		}
		var idx prog.Expr = prog.Int(0)
		if m >= 0 {
			idx = prog.Reg{Name: "X" + strconv.Itoa(m)}
		}
		if len(parts) == 3 {
			ext := parts[2]
			kw := strings.ToUpper(ext[0].text)
			switch {
			case len(ext) == 1 && (kw == "SXTW" || kw == "UXTW" || kw == "SXTX" || kw == "UXTX"):
			case len(ext) >= 2 && ext[0].kind == 'w' && ext[1].kind == '#' && (kw == "LSL" || kw == "SXTW" || kw == "UXTW" || kw == "SXTX"):
				k, ok := a.immediate(c, ext[2:])
				if !ok {
					return op, false
				}
				if k != 0 {
					idx = prog.Bin{Op: prog.OpShl, X: idx, Y: prog.Int(k)}
				}
			default:
				a.errorf(at(c.Pos, ext[0].off), "unsupported index extension in memory operand of %s", mn)
				return op, false
			}
		} else if len(parts) > 3 {
			a.errorf(at(c.Pos, parts[3][0].off), "bad memory operand of %s", mn)
			return op, false
		}
		op.addr = prog.Bin{Op: prog.OpAdd, X: op.addr, Y: idx}
		return op, true
	}
	a.errorf(at(c.Pos, off[0].off), "bad offset in memory operand of %s", mn)
	return op, false
}

// Translation.

func a64RegExpr(name string) prog.Expr { return prog.Reg{Name: name} }

// a64ALU are the three-operand arithmetic instructions.
var a64ALU = map[string]prog.Op{
	"ADD": prog.OpAdd, "SUB": prog.OpSub, "EOR": prog.OpXor, "AND": prog.OpAnd, "ORR": prog.OpOr,
}

// a64Conds are the conditions of B.cond, on the flags %cmpL and %cmpR.
var a64Conds = map[string]prog.Op{
	"EQ": prog.OpEq, "NE": prog.OpNe, "LT": prog.OpLt, "LE": prog.OpLe, "GT": prog.OpGt, "GE": prog.OpGe,
}

// a64Loads are the plain, acquire and exclusive loads: their read tags.
var a64Loads = map[string][]string{
	"LDR":    nil,
	"LDUR":   nil,
	"LDAR":   {TagA64Acquire},
	"LDAPR":  {TagA64AcquirePC},
	"LDAPUR": {TagA64AcquirePC},
	"LDXR":   {TagA64Exclusive},
	"LDAXR":  {TagA64Exclusive, TagA64Acquire},
}

// a64AMOOps are the operations of LD<op> and ST<op>.
var a64AMOOps = map[string]func(old, v prog.Expr) prog.Expr{
	"ADD": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpAdd, X: old, Y: v} },
	"EOR": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpXor, X: old, Y: v} },
	"SET": func(old, v prog.Expr) prog.Expr { return prog.Bin{Op: prog.OpOr, X: old, Y: v} },
	"CLR": func(old, v prog.Expr) prog.Expr {
		return prog.Bin{Op: prog.OpAnd, X: old, Y: prog.Un{Op: prog.OpBNot, X: v}}
	},
}

// a64Unsupported names instructions the front-end knows and refuses, with
// the reason.
func a64Unsupported(mn string) (string, bool) {
	base := mn
	for _, p := range []string{"LDR", "STR", "LDUR", "STUR", "LDAR", "LDAPR", "STLR", "LDXR", "LDAXR", "STXR", "STLXR", "SWP", "CAS",
		"LDADD", "LDCLR", "LDEOR", "LDSET", "STADD", "STCLR", "STEOR", "STSET"} {
		if strings.HasPrefix(mn, p) {
			base = p
			break
		}
	}
	if base != mn {
		rest := strings.TrimPrefix(mn, base)
		switch strings.TrimPrefix(strings.TrimPrefix(rest, "A"), "L") {
		case "SB", "SH", "SW":
			return "sign-extending accesses are not supported", true
		}
	}
	switch {
	case mn == "LDP" || mn == "STP" || mn == "LDXP" || mn == "STXP" || mn == "LDAXP" || mn == "STLXP" || mn == "CASP" || strings.HasPrefix(mn, "CASP"):
		return "pair accesses (mixed-size) are not supported", true
	case strings.HasPrefix(mn, "LDSMAX"), strings.HasPrefix(mn, "LDSMIN"), strings.HasPrefix(mn, "LDUMAX"), strings.HasPrefix(mn, "LDUMIN"),
		strings.HasPrefix(mn, "STSMAX"), strings.HasPrefix(mn, "STSMIN"), strings.HasPrefix(mn, "STUMAX"), strings.HasPrefix(mn, "STUMIN"):
		return "atomic minimum and maximum are not supported", true
	case mn == "TLBI" || mn == "DC" || mn == "IC" || mn == "MRS" || mn == "MSR" || mn == "SVC" || mn == "ERET" || mn == "HVC":
		return "system instructions are not supported", true
	}
	return "", false
}

// a64AccessMnemonic tells whether mn is a load, store or atomic whose
// byte and half-word forms add B or H.
func a64AccessMnemonic(mn string) bool {
	if _, ok := a64Loads[mn]; ok {
		return true
	}
	switch mn {
	case "STR", "STLR", "STUR", "STLUR", "STXR", "STLXR":
		return true
	}
	for _, p := range []string{"SWP", "CAS"} {
		if strings.HasPrefix(mn, p) {
			_, _, ok := a64Ordering(mn[len(p):])
			return ok
		}
	}
	if len(mn) >= 5 && (strings.HasPrefix(mn, "LD") || strings.HasPrefix(mn, "ST")) {
		if _, ok := a64AMOOps[mn[2:5]]; ok {
			_, _, ok := a64Ordering(mn[5:])
			return ok
		}
	}
	return false
}

// a64Ordering splits the acquire/release suffix of an atomic: "", "A", "L"
// or "AL".
func a64Ordering(suffix string) (rtags, wtags []string, ok bool) {
	switch suffix {
	case "":
	case "A":
		rtags = []string{TagA64Acquire}
	case "L":
		wtags = []string{TagA64Release}
	case "AL":
		rtags, wtags = []string{TagA64Acquire}, []string{TagA64Release}
	default:
		return nil, nil, false
	}
	return append([]string{TagA64Atomic}, rtags...), append([]string{TagA64Atomic}, wtags...), true
}

func (a *a64Thread) translate(in a64Instr) {
	a.pos = in.pos
	if in.label != "" {
		a.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	arity := func(n int) bool {
		if len(in.ops) != n {
			a.errorf(in.mnPos, "%s takes %d operand%s, found %d", in.mn, n, plural(n), len(in.ops))
			return false
		}
		return true
	}
	mn := in.mn
	// Byte and half-word forms: LDRB, STLRH, SWPALB, LDADDH, ...
	size := 0
	if n := len(mn); n > 3 && (mn[n-1] == 'B' || mn[n-1] == 'H') && a64AccessMnemonic(mn[:n-1]) {
		size, mn = 1, mn[:n-1]
		if in.mn[n-1] == 'H' {
			size = 2
		}
	}
	width := func(i int) int {
		switch {
		case size != 0:
			return size
		case i < len(in.ops) && in.ops[i].wide:
			return 8
		}
		return 4
	}
	for i, op := range in.ops {
		if op.kind == a64Mem && i < len(in.ops)-1 && in.ops[i+1].kind == a64Imm {
			a.errorf(in.ops[i+1].pos, "unsupported AArch64 addressing mode: post-indexed %s", mn)
			return
		}
	}
	if tags, ok := a64Loads[mn]; ok {
		if arity(2) && a.isReg(in, 0) && a.isMem(in, 1) {
			a.emitAccess(width(0), prog.Load{Dst: in.ops[0].reg, Addr: in.ops[1].addr, Tags: tags})
		}
		return
	}
	switch mn {
	case "NOP":
		arity(0)
		return
	case "ISB":
		if arity(0) {
			a.emit(prog.Fence{Tags: []string{TagA64ISB}})
		}
		return
	case "DMB", "DSB":
		a.barrier(in)
		return
	case "STR", "STLR", "STUR", "STLUR":
		if arity(2) && a.isReg(in, 0) && a.isMem(in, 1) {
			var tags []string
			if mn == "STLR" || mn == "STLUR" {
				tags = []string{TagA64Release}
			}
			a.emitAccess(width(0), prog.Store{Addr: in.ops[1].addr, Val: a.value(in.ops[0]), Tags: tags})
		}
		return
	case "STXR", "STLXR":
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			tags := []string{TagA64Exclusive}
			if mn == "STLXR" {
				tags = append(tags, TagA64Release)
			}
			a.emitAccess(width(1), prog.StoreCond{Addr: in.ops[2].addr, Val: a.value(in.ops[1]), Status: in.ops[0].reg,
				OkVal: prog.IntValue(0), FailVal: prog.IntValue(1), Tags: tags})
		}
		return
	case "MOV":
		if arity(2) && a.isReg(in, 0) {
			if in.ops[1].kind != a64Reg && in.ops[1].kind != a64Imm {
				a.errorf(in.ops[1].pos, "MOV needs a register or an immediate source")
				return
			}
			a.assign(in.ops[0].reg, a.value(in.ops[1]))
		}
		return
	case "CMP":
		if arity(2) && a.isReg(in, 0) && a.isRegOrImm(in, 1) {
			a.emit(prog.Assign{Dst: a64CmpL, Val: a.value(in.ops[0])}, prog.Assign{Dst: a64CmpR, Val: a.value(in.ops[1])})
		}
		return
	case "CMN", "TST":
		// The flags as CMP leaves them: Rn+op compared with 0 is Rn
		// compared with -op; TST compares Rn AND op with 0.
		if arity(2) && a.isReg(in, 0) && a.isRegOrImm(in, 1) {
			l, r := a.value(in.ops[0]), prog.Expr(prog.Un{Op: prog.OpNeg, X: a.value(in.ops[1])})
			if mn == "TST" {
				l, r = prog.Bin{Op: prog.OpAnd, X: l, Y: a.value(in.ops[1])}, prog.Int(0)
			}
			a.emit(prog.Assign{Dst: a64CmpL, Val: l}, prog.Assign{Dst: a64CmpR, Val: r})
		}
		return
	case "ADDS", "SUBS":
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isRegOrImm(in, 2) {
			r := a.value(in.ops[2])
			op := prog.OpSub
			if mn == "ADDS" {
				r, op = prog.Un{Op: prog.OpNeg, X: r}, prog.OpAdd
			}
			a.emit(prog.Assign{Dst: a64CmpL, Val: a.value(in.ops[1])}, prog.Assign{Dst: a64CmpR, Val: r})
			a.assign(in.ops[0].reg, prog.Bin{Op: op, X: a.value(in.ops[1]), Y: a.value(in.ops[2])})
		}
		return
	case "CSEL", "CSINC", "CSINV", "CSNEG":
		if arity(4) && a.isReg(in, 0) && a.isReg(in, 1) && a.isReg(in, 2) {
			c, ok := a.cond(in.ops[3])
			if !ok {
				return
			}
			x, y := a.value(in.ops[1]), a.value(in.ops[2])
			switch mn {
			case "CSINC":
				y = prog.Bin{Op: prog.OpAdd, X: y, Y: prog.Int(1)}
			case "CSINV":
				y = prog.Un{Op: prog.OpBNot, X: y}
			case "CSNEG":
				y = prog.Un{Op: prog.OpNeg, X: y}
			}
			// c ? x : y, as data: y + c*(x-y) (c is 0 or 1).
			a.assign(in.ops[0].reg, prog.Bin{Op: prog.OpAdd, X: y, Y: prog.Bin{Op: prog.OpMul, X: c, Y: prog.Bin{Op: prog.OpSub, X: x, Y: y}}})
		}
		return
	case "CSET", "CSETM":
		if arity(2) && a.isReg(in, 0) {
			c, ok := a.cond(in.ops[1])
			if !ok {
				return
			}
			if mn == "CSETM" {
				c = prog.Un{Op: prog.OpNeg, X: c}
			}
			a.assign(in.ops[0].reg, c)
		}
		return
	case "NEG":
		if arity(2) && a.isReg(in, 0) && a.isReg(in, 1) {
			a.assign(in.ops[0].reg, prog.Un{Op: prog.OpNeg, X: a.value(in.ops[1])})
		}
		return
	case "LSL":
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isRegOrImm(in, 2) {
			a.assign(in.ops[0].reg, prog.Bin{Op: prog.OpShl, X: a.value(in.ops[1]), Y: a.value(in.ops[2])})
		}
		return
	case "MOVZ", "MOVK":
		// MOVZ Rd,#imm[,LSL #k]; MOVK keeps the other bits of Rd.
		if (len(in.ops) == 2 || arity(3)) && a.isReg(in, 0) {
			if in.ops[1].kind != a64Imm || len(in.ops) == 3 && in.ops[2].kind != a64Shift {
				a.errorf(in.ops[1].pos, "%s takes Rd,#imm[,LSL #k]", mn)
				return
			}
			k := int64(0)
			if len(in.ops) == 3 {
				k = in.ops[2].imm
			}
			if in.ops[1].imm < 0 || in.ops[1].imm > 0xffff || k%16 != 0 || k > 48 {
				a.errorf(in.ops[1].pos, "%s: bad immediate or shift (#0..#65535, LSL #0, #16, #32 or #48)", mn)
				return
			}
			v := prog.Expr(prog.Int(in.ops[1].imm << k))
			if mn == "MOVK" {
				keep := prog.Bin{Op: prog.OpAnd, X: a.value(in.ops[0]), Y: prog.Int(^(int64(0xffff) << k))}
				v = prog.Bin{Op: prog.OpOr, X: keep, Y: v}
			}
			a.assign(in.ops[0].reg, v)
		}
		return
	case "TBZ", "TBNZ":
		// TBZ Rt,#bit,label: branch when bit number bit of Rt is 0.
		if arity(3) && a.isReg(in, 0) && a.isLabel(in, 2) {
			if in.ops[1].kind != a64Imm || in.ops[1].imm < 0 || in.ops[1].imm > 63 {
				a.errorf(in.ops[1].pos, "%s needs a bit number #0..#63 as operand 2", mn)
				return
			}
			bit := prog.Bin{Op: prog.OpAnd, X: prog.Bin{Op: prog.OpShr, X: a.value(in.ops[0]), Y: prog.Int(in.ops[1].imm)}, Y: prog.Int(1)}
			op := prog.OpEq
			if mn == "TBNZ" {
				op = prog.OpNe
			}
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: bit, Y: prog.Int(0)}, Target: in.ops[2].name})
		}
		return
	case "CBZ", "CBNZ":
		if arity(2) && a.isReg(in, 0) && a.isLabel(in, 1) {
			op := prog.OpEq
			if mn == "CBNZ" {
				op = prog.OpNe
			}
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: a.value(in.ops[0]), Y: prog.Int(0)}, Target: in.ops[1].name})
		}
		return
	case "B":
		if arity(1) && a.isLabel(in, 0) {
			a.emit(prog.Jump{Target: in.ops[0].name})
		}
		return
	}
	if op, ok := a64ALU[mn]; ok {
		a.alu(in, op)
		return
	}
	if strings.HasPrefix(mn, "B.") {
		op, ok := a64Conds[mn[2:]]
		if !ok {
			a.errorf(in.mnPos, "unsupported AArch64 branch condition %s", mn)
			return
		}
		if arity(1) && a.isLabel(in, 0) {
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: a64RegExpr(a64CmpL), Y: a64RegExpr(a64CmpR)}, Target: in.ops[0].name})
		}
		return
	}
	in.mn = mn
	if a.atomic(in, width(0)) {
		return
	}
	a.errorf(in.mnPos, "unknown AArch64 instruction %q", mn)
}

// atomic translates SWP, CAS, LD<op> and ST<op>; false when mn is none.
func (a *a64Thread) atomic(in a64Instr, size int) bool {
	mn := in.mn
	arity := func(n int) bool {
		if len(in.ops) != n {
			a.errorf(in.mnPos, "%s takes %d operands, found %d", mn, n, len(in.ops))
			return false
		}
		return true
	}
	switch {
	case strings.HasPrefix(mn, "SWP"):
		rt, wt, ok := a64Ordering(mn[3:])
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			a.emitAccess(size, prog.RMW{Dst: in.ops[1].reg, Addr: in.ops[2].addr, New: a.value(in.ops[0]), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "CAS"):
		rt, wt, ok := a64Ordering(mn[3:])
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			a.emitAccess(size, prog.RMW{Dst: in.ops[0].reg, Addr: in.ops[2].addr,
				Cond: prog.Bin{Op: prog.OpEq, X: prog.Old{}, Y: a.value(in.ops[0])},
				New:  a.value(in.ops[1]), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "LD") && len(mn) >= 5:
		f, ok := a64AMOOps[mn[2:5]]
		if !ok {
			return false
		}
		rt, wt, ok := a64Ordering(mn[5:])
		if !ok {
			return false
		}
		if arity(3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) {
			if in.ops[1].reg == "" {
				rt = append(rt, TagA64NoRet)
			}
			a.emitAccess(size, prog.RMW{Dst: in.ops[1].reg, Addr: in.ops[2].addr, New: f(prog.Old{}, a.value(in.ops[0])), RTags: rt, WTags: wt})
		}
		return true
	case strings.HasPrefix(mn, "ST") && len(mn) >= 5:
		f, ok := a64AMOOps[mn[2:5]]
		if !ok {
			return false
		}
		suffix := mn[5:]
		if suffix != "" && suffix != "L" {
			return false
		}
		rt, wt, _ := a64Ordering(suffix)
		if arity(2) && a.isReg(in, 0) && a.isMem(in, 1) {
			a.emitAccess(size, prog.RMW{Addr: in.ops[1].addr, New: f(prog.Old{}, a.value(in.ops[0])), RTags: append(rt, TagA64NoRet), WTags: wt})
		}
		return true
	}
	return false
}

func (a *a64Thread) barrier(in a64Instr) {
	opt := "SY"
	switch len(in.ops) {
	case 0:
	case 1:
		if in.ops[0].kind != a64Sym {
			a.errorf(in.ops[0].pos, "bad %s option", in.mn)
			return
		}
		opt = strings.ToUpper(in.ops[0].name)
	default:
		a.errorf(in.mnPos, "%s takes one option, found %d operands", in.mn, len(in.ops))
		return
	}
	for _, o := range a64BarrierOpts {
		if o == opt {
			a.emit(prog.Fence{Tags: []string{in.mn + "." + opt}})
			return
		}
	}
	a.errorf(in.ops[0].pos, "unknown %s option %s", in.mn, opt)
}

// alu is ADD, SUB, EOR, AND, ORR Rd,Rn,Rm|#imm[,extend|LSL #k].
func (a *a64Thread) alu(in a64Instr, op prog.Op) {
	if len(in.ops) != 3 && len(in.ops) != 4 {
		a.errorf(in.mnPos, "%s takes 3 operands, found %d", in.mn, len(in.ops))
		return
	}
	if !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isRegOrImm(in, 2) {
		return
	}
	rhs := a.value(in.ops[2])
	if len(in.ops) == 4 {
		ext := in.ops[3]
		switch {
		case in.ops[2].kind != a64Reg:
			a.errorf(ext.pos, "%s: a shift or extension needs a register operand", in.mn)
			return
		case ext.kind == a64Sym && (strings.EqualFold(ext.name, "SXTW") || strings.EqualFold(ext.name, "UXTW") || strings.EqualFold(ext.name, "SXTX") || strings.EqualFold(ext.name, "UXTX")):
		case ext.kind == a64Shift:
			if ext.imm != 0 {
				rhs = prog.Bin{Op: prog.OpShl, X: rhs, Y: prog.Int(ext.imm)}
			}
		default:
			a.errorf(ext.pos, "unsupported operand of %s", in.mn)
			return
		}
	}
	a.assign(in.ops[0].reg, prog.Bin{Op: op, X: a.value(in.ops[1]), Y: rhs})
}

// cond is a condition operand (EQ, NE, LT, LE, GT, GE) as 0 or 1 from
// the flags CMP left.
func (a *a64Thread) cond(op a64Op) (prog.Expr, bool) {
	if op.kind == a64Sym {
		if o, ok := a64Conds[strings.ToUpper(op.name)]; ok {
			return prog.Bin{Op: o, X: a64RegExpr(a64CmpL), Y: a64RegExpr(a64CmpR)}, true
		}
	}
	a.errorf(op.pos, "unsupported AArch64 condition %q (EQ, NE, LT, LE, GT and GE are)", op.name)
	return nil, false
}

// assign writes a register; writes to the zero register vanish.
func (a *a64Thread) assign(dst string, v prog.Expr) {
	if dst != "" {
		a.emit(prog.Assign{Dst: dst, Val: v})
	}
}

// value is the expression of a register or immediate operand.
func (a *a64Thread) value(op a64Op) prog.Expr {
	if op.kind == a64Imm {
		return prog.Int(op.imm)
	}
	if op.reg == "" {
		return prog.Int(0)
	}
	return a64RegExpr(op.reg)
}

func (a *a64Thread) isReg(in a64Instr, i int) bool {
	if in.ops[i].kind != a64Reg {
		a.errorf(in.ops[i].pos, "%s needs a register as operand %d%s", in.mn, i+1, notAReg("AArch64", symName(in.ops[i].kind == a64Sym, in.ops[i].name)))
		return false
	}
	return true
}

func (a *a64Thread) isRegOrImm(in a64Instr, i int) bool {
	if k := in.ops[i].kind; k != a64Reg && k != a64Imm {
		a.errorf(in.ops[i].pos, "%s needs a register or an immediate as operand %d%s", in.mn, i+1, notAReg("AArch64", symName(k == a64Sym, in.ops[i].name)))
		return false
	}
	return true
}

func (a *a64Thread) isMem(in a64Instr, i int) bool {
	if in.ops[i].kind != a64Mem {
		a.errorf(in.ops[i].pos, "%s needs a memory operand [Xn] as operand %d", in.mn, i+1)
		return false
	}
	return true
}

func (a *a64Thread) isLabel(in a64Instr, i int) bool {
	if in.ops[i].kind != a64Sym {
		a.errorf(in.ops[i].pos, "%s needs a label", in.mn)
		return false
	}
	return true
}

// checkLabels reports labels defined twice and jumps to no label.
func (a *a64Thread) checkLabels() {
	defined := map[string]prog.Pos{}
	for i, in := range a.t.Code {
		if l, ok := in.(prog.Label); ok {
			if first, dup := defined[l.Name]; dup {
				a.errorf(a.t.Pos[i], "label %s defined twice (first at %d:%d)", l.Name, first.Line, first.Col)
				continue
			}
			defined[l.Name] = a.t.Pos[i]
		}
	}
	for i, in := range a.t.Code {
		if j, ok := in.(prog.Jump); ok {
			if _, ok := defined[j.Target]; !ok {
				a.errorf(a.t.Pos[i], "jump to undefined label %s", j.Target)
			}
		}
	}
}

// TestChecker is a Frontend that checks a whole parsed test, for what no
// single thread shows (e.g. a feature of the test the front-end does not
// support). Errors are positioned (a source.ErrorList or a *source.Error).
type TestChecker interface {
	CheckTest(t *spec.Test) error
}

// a64SizedTypes are the integer types whose size a test states for a
// location: herd's mixed-size tests declare their locations with them.
var a64SizedTypes = map[string]bool{
	"int8_t": true, "uint8_t": true, "int16_t": true, "uint16_t": true,
	"int32_t": true, "uint32_t": true, "int64_t": true, "uint64_t": true,
	"__int128": true, "unsigned __int128": true,
}

// CheckTest lowers the mixed-size tests into per-chunk accesses (see
// aarch64_mixed.go), or reports what of them is not supported.
func (a64Frontend) CheckTest(t *spec.Test) error {
	return lowerMixed(t)
}
