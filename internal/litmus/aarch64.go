package litmus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// The AArch64 front-end reads herd's AArch64 dialect, mnemonics and
// registers in any case:
//
//	LDR/STR Rt,[Xn]  [Xn,#imm]  [Xn,Rm]  [Xn,Wm,SXTW|UXTW]  [Xn,Xm,LSL #k]
//	  [Xn,#imm]! and [Xn],#imm (pre/post-indexed: Xn += imm as a register write)
//	LDRSB LDRSH LDRSW LDURS* (sign-extending loads)
//	LDAR LDAPR STLR (acquire "A", acquire-PC "Q", release "L")
//	LDXR LDAXR STXR STLXR (exclusives: "EX", plus "A" / "L")
//	SWP CAS LDADD LDCLR LDEOR LDSET LDSMAX LDSMIN LDUMAX LDUMIN {,A,L,AL},
//	  STADD STCLR STEOR STSET STSMAX STSMIN STUMAX STUMIN {,L}
//	DMB/DSB SY ISH OSH NSH LD ST ISHLD ISHST ...   ISB   NOP
//	MOV ADD SUB EOR AND ORR  CMP  CBZ CBNZ  B  B.EQ B.NE B.LT B.LE B.GT B.GE
//	LSR ASR ROR MVN MOVN ORN BIC EON UBFX SBFX SXTB SXTH SXTW UXTB UXTH
//	MUL MNEG MADD MSUB SDIV UDIV (aarch64_alu.go)
//	label: [instruction]
//
// Registers W<n> and X<n> (n < 31) are one register, spelled X<n>; WZR and
// XZR read as zero and ignore writes. Each access records its size (W: 4
// bytes, X: 8, the B and H forms LDRB, STRH, SWPALB, ...: 1 and 2). A test
// without sized locations, byte or half-word accesses or accesses at an
// offset keeps herd's whole-location semantics (a W, H or B load still
// extends what it reads, a narrow store writes the low bytes of its
// register: loadext.go); a mixed-size test is
// lowered into per-chunk accesses (aarch64_mixed.go). LDP and STP are two
// accesses (Rt1 at the address, Rt2 one register width further); the
// exclusive and compare-and-swap pairs (LDXP, STXP, CASP...) and LDPSW are
// reported unsupported by name, and so is
// an access through a register a pre/post-indexed access updates whose
// address is not known before running.
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
	// a64CmpZ is the Z flag, 0 or 1, in a thread that reads a signed
	// condition (aarch64_zflag.go)
	a64CmpZ = "%cmpZ"
)

// a64BarrierOpts are the options of DMB and DSB.
var a64BarrierOpts = []string{"SY", "ST", "LD", "ISH", "ISHST", "ISHLD", "NSH", "NSHST", "NSHLD", "OSH", "OSHST", "OSHLD"}

type a64Frontend struct{}

func (a64Frontend) Arch() string { return "AArch64" }

// RegName maps W<n> and X<n> (any case) to X<n>.
func (a64Frontend) RegName(name string) (string, bool) {
	n, _, ok := a64RegNum(name)
	if !ok {
		return "", false
	}
	if n < 0 {
		// The zero register: herd's tests observe it ("0:XZR=0");
		// no instruction writes it, so it keeps its initial 0.
		return "XZR", true
	}
	return a64RegName(n), true
}

// a64SP is the number a64RegNum gives the stack pointer SP (WSP): herd7
// reads it as a register of its own, which a test may initialise
// ("0:SP=x") and use as a base or an operand (ADD X2,SP,#8).
const a64SP = 31

// a64RegName is the name Musket gives register number n: Xn, or SP.
func a64RegName(n int) string {
	if n == a64SP {
		return "SP"
	}
	return "X" + strconv.Itoa(n)
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
	case "SP":
		return a64SP, true, true
	case "WSP":
		return a64SP, false, true
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
	a := &a64Thread{armCells: armCells{asmThread: newAsmThread(id, true), arch: "AArch64", memForm: "[Xn]"}}
	var ins []armInstr
	for _, c := range cells {
		if in, ok := a.parseCell(c); ok {
			ins = append(ins, in)
			a.nzcv = a.nzcv || readsNZCV(in)
			a.signed = a.signed || readsSignedCond(in)
			a.readsZ = a.readsZ || readsZCond(in)
			a.wAdd = a.wAdd || isWAdd(in)
		}
	}
	a.zApart = a.signed && a.readsZ && a.wAdd
	for _, in := range a.pcRelTargets(ins) {
		a.translate(in)
	}
	checkLabels(a.t, &a.errs, "jump")
	return a.t, a.errs.Err()
}

// a64Thread is the state of the translation of one thread.
type a64Thread struct {
	armCells
	nzcv   bool // the thread reads N, C or V (aarch64_nzcv.go)
	signed bool // the thread reads LT, LE, GT or GE (cmpOperands)
	// zApart: the thread also reads EQ, NE, HI or LS and has a CMN or
	// ADDS on W registers, so it keeps Z apart (aarch64_zflag.go);
	// readsZ and wAdd are its two other conditions.
	zApart, readsZ, wAdd bool
	picks                int // the selections emitted (aarch64_pick.go), for their labels
}

// Lexemes and operands (armcells.go).

// parseCell reads "[label:] [MNEMONIC op, op, ...]".
func (a *a64Thread) parseCell(c Cell) (armInstr, bool) {
	if mn, ok := a64SIMDCell(c.Text); ok {
		a.errorf(c.Pos, "unsupported AArch64 instruction %s: SIMD&FP (Neon) registers are not modelled", mn)
		return armInstr{pos: c.Pos}, false
	}
	return a.armCells.parseCell(c, "[],#:!-+", a64Unsupported, a.operand)
}

// operand reads one operand.
func (a *a64Thread) operand(c Cell, mn string, toks []cellTok) (armOp, bool) {
	op := armOp{pos: at(c.Pos, toks[0].off)}
	text := func() string { return cellText(c, toks) }
	switch {
	case toks[0].kind == '#':
		v, ok := a.immediate(c, toks[1:])
		op.kind, op.imm = armImm, v
		return op, ok
	case toks[0].kind == '[':
		return a.memOperand(c, mn, toks)
	case toks[0].kind == 'n' || len(toks) == 2 && toks[0].kind == '-' && toks[1].kind == 'n':
		// An immediate without its '#' ("MOV W2,3"), as herd7 reads it.
		v, ok := a.immediate(c, toks)
		op.kind, op.imm = armImm, v
		return op, ok
	case len(toks) == 1 && toks[0].kind == 'w' && strings.HasPrefix(toks[0].text, "%"):
		// herd7's symbolic register %name, a 64-bit register the
		// initial state gives a value (init.go, bindSymRegs).
		op.kind, op.wide, op.reg = armReg, true, SymReg(toks[0].text[1:])
		return op, true
	case len(toks) == 1 && toks[0].kind == 'w':
		if n, wide, ok := a64RegNum(toks[0].text); ok {
			op.kind, op.wide = armReg, wide
			if n >= 0 {
				op.reg = a64RegName(n)
			}
			return op, true
		}
		op.kind, op.name = armSym, toks[0].text
		return op, true
	case len(toks) >= 2 && toks[0].kind == 'w' && (toks[1].kind == '#' || a64ShiftNames[strings.ToUpper(toks[0].text)]):
		kw := strings.ToUpper(toks[0].text)
		if !a64ShiftNames[kw] {
			a.errorf(op.pos, "unsupported shift %s in AArch64 operand %q", kw, text())
			return op, false
		}
		// herd7 also reads the amount without its '#' ("LSL 12").
		rest := toks[1:]
		if rest[0].kind == '#' {
			rest = rest[1:]
		}
		v, ok := a.immediate(c, rest)
		op.kind, op.name, op.imm = armShift, kw, v
		return op, ok
	}
	if isPCRel(text()) {
		// ".+8": resolved by pcRelTargets.
		op.kind, op.name = armSym, strings.Join(strings.Fields(text()), "")
		return op, true
	}
	a.errorf(op.pos, "bad AArch64 operand %q", text())
	return op, false
}

// a64ShiftNames are the shifts of a shifted register operand.
var a64ShiftNames = map[string]bool{"LSL": true, "LSR": true, "ASR": true, "ROR": true}

// memOperand reads [Xn], [Xn,#imm], [Xn,Rm], [Xn,Rm,SXTW|UXTW|LSL #k].
func (a *a64Thread) memOperand(c Cell, mn string, toks []cellTok) (armOp, bool) {
	op := armOp{kind: armMem, pos: at(c.Pos, toks[0].off)}
	last := toks[len(toks)-1]
	if last.kind == '!' && len(toks) > 1 {
		op.pre = true
		toks = toks[:len(toks)-1]
		last = toks[len(toks)-1]
	}
	if last.kind != ']' {
		a.errorf(at(c.Pos, last.off), "missing ']' in memory operand of %s", mn)
		return op, false
	}
	parts, ok := a.memParts(op.pos, mn, toks[1:len(toks)-1])
	if !ok {
		return op, false
	}
	base := parts[0]
	if len(base) != 1 || base[0].kind != 'w' {
		a.errorf(at(c.Pos, base[0].off), "expected a base register in memory operand of %s", mn)
		return op, false
	}
	n, _, ok := a64RegNum(base[0].text)
	name := a64RegName(n)
	if t := base[0].text; strings.HasPrefix(t, "%") {
		// herd7's symbolic register as the base ([%p]).
		n, ok, name = 0, true, SymReg(t[1:])
	}
	if !ok || n < 0 {
		a.errorf(at(c.Pos, base[0].off), "bad base register %q in memory operand of %s", base[0].text, mn)
		return op, false
	}
	op.addr, op.base = prog.Reg{Name: name}, name
	if len(parts) == 1 {
		if op.pre {
			a.errorf(op.pos, "pre-indexed memory operand of %s needs an immediate offset [Xn,#imm]!", mn)
			return op, false
		}
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
		op.off = v
		return op, true
	case op.pre:
		a.errorf(at(c.Pos, off[0].off), "pre-indexed memory operand of %s needs an immediate offset [Xn,#imm]!", mn)
		return op, false
	case len(off) == 1 && off[0].kind == 'w':
		m, _, ok := a64RegNum(off[0].text)
		if !ok {
			a.errorf(at(c.Pos, off[0].off), "bad index register %q in memory operand of %s", off[0].text, mn)
			return op, false
		}
		var idx prog.Expr = prog.Int(0)
		if m >= 0 {
			idx = prog.Reg{Name: a64RegName(m)}
		}
		if len(parts) == 3 {
			ext := parts[2]
			kw := strings.ToUpper(ext[0].text)
			switch {
			case len(ext) == 1 && (kw == "SXTW" || kw == "UXTW" || kw == "SXTX" || kw == "UXTX"):
			case len(ext) >= 2 && ext[0].kind == 'w' && (ext[1].kind == '#' || ext[1].kind == 'n') && (kw == "LSL" || kw == "SXTW" || kw == "UXTW" || kw == "SXTX"):
				// herd reads the amount with or without '#' (LSL 1).
				amt := ext[1:]
				if ext[1].kind == '#' {
					amt = ext[2:]
				}
				k, ok := a.immediate(c, amt)
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

// CheckTest removes the W-register extensions the value ranges show
// useless (aarch64_masks.go), then lowers the mixed-size tests into per-chunk accesses (see
// aarch64_mixed.go), or reports what of them is not supported.
func (a64Frontend) CheckTest(t *spec.Test) error {
	a64DropMasks(t)
	if err := a64CheckWriteback(t); err != nil {
		return err
	}
	return lowerMixed(t)
}

// a64CheckWriteback refuses an access whose base register a pre- or
// post-indexed access updates and whose address is not known before
// running (in a loop, or from memory): the location it reaches may be
// none the test declares. Known addresses are checked against the
// declared locations by the mixed-size lowering.
func a64CheckWriteback(t *spec.Test) error {
	var errs source.ErrorList
	for _, a := range a64StaticAccesses(t) {
		if a.known {
			continue
		}
		th := t.Threads[a.thread]
		addr, _ := prog.AddrOf(th.Code[a.pc])
		for _, r := range a64ExprRegs(addr) {
			if a64Updated(th, r) {
				errs.Add(th.Pos[a.pc], fmt.Sprintf("unsupported AArch64 test: pre/post-indexed addressing updates %s, and the address of this access is not known before running", r))
				break
			}
		}
	}
	return errs.Err()
}

// a64ExprRegs are the registers e reads.
func a64ExprRegs(e prog.Expr) []string {
	switch e := e.(type) {
	case prog.Reg:
		return []string{e.Name}
	case prog.Bin:
		return append(a64ExprRegs(e.X), a64ExprRegs(e.Y)...)
	case prog.Un:
		return a64ExprRegs(e.X)
	}
	return nil
}

// a64Updated tells whether thread th adds a constant to register r (the
// writeback of a pre- or post-indexed access, or an ADD Xn,Xn,#imm).
func a64Updated(th *prog.Thread, r string) bool {
	for _, in := range th.Code {
		if as, ok := in.(prog.Assign); ok && as.Dst == r {
			if b, ok := as.Val.(prog.Bin); ok && b.Op == prog.OpAdd && b.X == (prog.Reg{Name: r}) {
				if _, ok := b.Y.(prog.Const); ok {
					return true
				}
			}
		}
	}
	return false
}
