package litmus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// The ARM front-end reads herd's ARM dialect (ARMv7, and the AArch32
// acquire/release instructions of ARMv8), mnemonics and registers in any
// case:
//
//	LDR Rt,[Rn]  [Rn,#0]  [Rn,Rm]  [Rn,Rm,LSL #k]      STR (the same forms)
//	LDREX Rt,[Rn]   STREX Rd,Rt,[Rn]                   (exclusives: "EX")
//	LDA LDAEX STL STLEX                                 (acquire "A", release "L")
//	DMB/DSB [SY|ST|ISH|ISHST|NSH|NSHST|OSH|OSHST]   ISB [SY]   NOP
//	MOV Rd,Rm|#imm   MOVW MOVT Rd,#imm
//	ADD SUB EOR AND ORR MUL Rd,Rn,Rm|#imm[,LSL #k]  (and Rd,Rm|#imm: Rd op= ...)
//	ADDS SUBS EORS ANDS ORRS MOVS (set the flags from the result)
//	CMP Rn,Rm|#imm   B L   B<cond> L   CBZ CBNZ Rn,L
//	LDR<cond> STR<cond> MOV<cond> ADD<cond> ... CMP<cond> MOVT<cond> (conditional execution)
//	label: [instruction]
//
// Registers are R0..R14 (FP, IP, SP and LR are R11 to R14), spelled
// upper-case. Access sizes are not modelled: every access reads or writes
// a whole location, so byte and half-word accesses (LDRB, STRH, ...) are
// reported unsupported by name, as are non-zero immediate offsets (they
// address part of a location) outside arrays. LDRD, STRD, LDM and STM
// (IA, IB, DA, DB, without write-back) are word accesses four bytes apart:
// an array's cells.
//
// Exclusives are a prog.Load tagged "EX" and a prog.StoreCond tagged "EX"
// whose status register gets 0 on success and 1 on failure (herd's lxsx
// pairs; a store-exclusive may fail spuriously). Barriers are fences tagged
// as herd's armfences.cat names them: "DMB" and "DSB" for the full-system
// option SY, "DMB.ST", "DMB.ISH", "DSB.ISHST", ... for the others, and
// "ISB".
//
// The condition flags are the pair of front-end temporaries "%cmpL" and
// "%cmpR": CMP a,b sets them to a and b, the S forms to the result and 0,
// and a condition compares them (EQ NE LT GE GT LE; signed, overflow not
// modelled; the carry and overflow conditions are unsupported). A
// conditional LDR, STR or MOV is a conditional jump over the instruction,
// which orders the instruction and every later one after the reads the
// flags depend on (herd's control dependency of a conditional
// instruction). herd gives no such dependency to its other conditional
// forms (indexed LDR and STR, STREX): they are reported unsupported.

func init() {
	Register("ARM", armv7Frontend{})
}

// Event tags of the ARM front-end.
const (
	TagARMAcquire   = "A"  // LDA, LDAEX
	TagARMRelease   = "L"  // STL, STLEX
	TagARMExclusive = "EX" // LDREX, STREX, LDAEX, STLEX
	TagARMISB       = "ISB"
)

// Temporary registers of the ARM front-end: the condition flags.
const (
	armCmpL = "%cmpL"
	armCmpR = "%cmpR"
)

// armBarrierOpts are the options of DMB and DSB; SY is the default.
var armBarrierOpts = []string{"SY", "ST", "ISH", "ISHST", "NSH", "NSHST", "OSH", "OSHST"}

// armBarrierTag is herd's name of a barrier: "DMB" for DMB SY, "DMB.ISH".
func armBarrierTag(mn, opt string) string {
	if opt == "SY" {
		return mn
	}
	return mn + "." + opt
}

type armv7Frontend struct{}

func (armv7Frontend) Arch() string { return "ARM" }

// RegName maps R<n> (n ≤ 14), SP and LR, in any case, to R<n>.
func (armv7Frontend) RegName(name string) (string, bool) {
	n, ok := armRegNum(name)
	if !ok {
		return "", false
	}
	return "R" + strconv.Itoa(n), true
}

// armOperandReg reads a register operand: "R<n>" for a general-purpose
// register, or herd7's symbolic register %name (SymReg).
func armOperandReg(w string) (string, bool) {
	if len(w) > 1 && w[0] == '%' {
		return SymReg(w[1:]), true
	}
	n, ok := armRegNum(w)
	return "R" + strconv.Itoa(n), ok
}

// armRegNum returns the number of a general-purpose register.
func armRegNum(name string) (int, bool) {
	u := strings.ToUpper(name)
	switch u {
	case "FP":
		return 11, true
	case "IP":
		return 12, true
	case "SP":
		return 13, true
	case "LR":
		return 14, true
	}
	if len(u) < 2 || len(u) > 3 || u[0] != 'R' || !isDecimal(u[1:]) || len(u) == 3 && u[1] == '0' {
		return 0, false
	}
	n, _ := strconv.Atoi(u[1:])
	if n > 14 {
		return 0, false
	}
	return n, true
}

// Tags lists the front end's tags, and the names of the AArch64 tags an
// ARM test has no events for (Q, NoRet, the SY barriers under their
// AArch64 names, the LD options), bound empty: herd7's aarch32.cat runs
// ARM tests under an AArch64 model (it includes aarch64.cat, the
// built-in model when no herd library is beside it), which reads them.
func (armv7Frontend) Tags() []string {
	tags := []string{TagARMAcquire, TagARMRelease, TagARMExclusive, TagARMISB, "Q", "NoRet"}
	for _, b := range []string{"DMB", "DSB"} {
		for _, o := range armBarrierOpts {
			tags = append(tags, armBarrierTag(b, o))
		}
		for _, o := range []string{"SY", "LD", "ISHLD", "OSHLD", "NSHLD"} {
			tags = append(tags, b+"."+o)
		}
	}
	return tags
}

func (armv7Frontend) Thread(id int, cells []Cell) (*prog.Thread, error) {
	a := &armThread{armCells: armCells{asmThread: newAsmThread(id, false), arch: "ARM", memForm: "[Rn]"}}
	for _, c := range cells {
		if in, ok := a.parseCell(c); ok {
			a.translate(in)
		}
	}
	if a.returns {
		a.emit(prog.Label{Name: armReturn})
	}
	checkLabels(a.t, &a.errs, "jump")
	return a.t, a.errs.Err()
}

// armThread is the state of the translation of one thread.
type armThread struct {
	armCells
	skips   int  // labels made for conditional instructions
	returns bool // a BX LR jumps to the end of the thread (armReturn)
}

// armReturn labels the end of a thread that returns (BX LR).
const armReturn = "%return"

// ret translates BX LR, the return of a function compiled for herd7's
// telechat variant (its tests from C, ARM A024): a jump to the end of the
// thread. A branch to another register goes to the code label it holds
// (codelabel.go).
func (a *armThread) ret(in armInstr) {
	if !a.arity(in, 1) {
		return
	}
	if op := in.ops[0]; op.kind == armReg && op.reg != "R14" {
		// A branch to the code label the register holds (codelabel.go).
		a.emit(prog.Jump{Target: IndirectTarget(op.reg)})
		return
	} else if op.kind != armReg {
		a.errorf(in.mnPos, "BX takes a register")
		return
	}
	a.returns = true
	a.emit(prog.Jump{Target: armReturn})
}

// Lexemes and operands (armcells.go).

// parseCell reads "[label:] [MNEMONIC op, op, ...]".
func (a *armThread) parseCell(c Cell) (armInstr, bool) {
	return a.armCells.parseCell(c, "[],#:!-+{}", armUnsupported, a.operand)
}

// operand reads one operand.
func (a *armThread) operand(c Cell, mn string, toks []cellTok) (armOp, bool) {
	op := armOp{pos: at(c.Pos, toks[0].off)}
	text := func() string { return cellText(c, toks) }
	switch {
	case toks[0].kind == '#':
		v, ok := a.immediate(c, toks[1:])
		op.kind, op.imm = armImm, v
		return op, ok
	case toks[0].kind == '[':
		return a.memOperand(c, mn, toks)
	case toks[0].kind == '{':
		return a.regList(c, mn, toks)
	case len(toks) == 2 && toks[0].kind == 'w' && toks[1].kind == '!':
		a.errorf(op.pos, "unsupported ARM addressing mode: write-back %s in %s", text(), mn)
		return op, false
	case len(toks) == 1 && toks[0].kind == 'w':
		if r, ok := armOperandReg(toks[0].text); ok {
			op.kind, op.reg = armReg, r
			return op, true
		}
		if u := strings.ToUpper(toks[0].text); u == "PC" || u == "R15" {
			a.errorf(op.pos, "unsupported ARM register %s in %s: the program counter is not modelled", toks[0].text, mn)
			return op, false
		}
		op.kind, op.name = armSym, toks[0].text
		return op, true
	case len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == '#':
		kw := strings.ToUpper(toks[0].text)
		if kw != "LSL" {
			a.errorf(op.pos, "unsupported shift %s in ARM operand %q", kw, text())
			return op, false
		}
		v, ok := a.immediate(c, toks[2:])
		op.kind, op.name, op.imm = armShift, kw, v
		return op, ok
	}
	a.errorf(op.pos, "bad ARM operand %q", text())
	return op, false
}

// memOperand reads [Rn], [Rn,#imm], [Rn,Rm], [Rn,Rm,LSL #k].
func (a *armThread) memOperand(c Cell, mn string, toks []cellTok) (armOp, bool) {
	op := armOp{kind: armMem, pos: at(c.Pos, toks[0].off)}
	last := toks[len(toks)-1]
	if last.kind == '!' {
		a.errorf(at(c.Pos, last.off), "unsupported ARM addressing mode: pre-indexed %s", mn)
		return op, false
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
	name, ok := "", len(base) == 1 && base[0].kind == 'w'
	if ok {
		name, ok = armOperandReg(base[0].text)
	}
	if !ok {
		a.errorf(at(c.Pos, base[0].off), "expected a base register in memory operand of %s", mn)
		return op, false
	}
	op.addr = prog.Reg{Name: name}
	if len(parts) == 1 {
		return op, true
	}
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
			// A cell of an array; on a location that is not one, the
			// test is refused (CheckTest).
			op.index = true
			op.addr = prog.Bin{Op: prog.OpAdd, X: op.addr, Y: prog.Int(v)}
		}
		return op, true
	case off[0].kind == '-':
		a.errorf(at(c.Pos, off[0].off), "unsupported ARM addressing mode: subtracted index in %s", mn)
		return op, false
	case len(off) == 1 && off[0].kind == 'w':
		m, ok := armOperandReg(off[0].text)
		if !ok {
			a.errorf(at(c.Pos, off[0].off), "bad index register %q in memory operand of %s", off[0].text, mn)
			return op, false
		}
		var idx prog.Expr = prog.Reg{Name: m}
		switch {
		case len(parts) == 3:
			ext := parts[2]
			if len(ext) < 2 || ext[0].kind != 'w' || !strings.EqualFold(ext[0].text, "LSL") || ext[1].kind != '#' {
				a.errorf(at(c.Pos, ext[0].off), "unsupported index shift in memory operand of %s", mn)
				return op, false
			}
			k, ok := a.immediate(c, ext[2:])
			if !ok {
				return op, false
			}
			if k != 0 {
				idx = prog.Bin{Op: prog.OpShl, X: idx, Y: prog.Int(k)}
			}
		case len(parts) > 3:
			a.errorf(at(c.Pos, parts[3][0].off), "bad memory operand of %s", mn)
			return op, false
		}
		op.index = true
		op.addr = prog.Bin{Op: prog.OpAdd, X: op.addr, Y: idx}
		return op, true
	}
	a.errorf(at(c.Pos, off[0].off), "bad offset in memory operand of %s", mn)
	return op, false
}

// Mnemonics.

// armConds are the supported conditions, on the flags %cmpL and %cmpR.
var armConds = map[string]prog.Op{
	"EQ": prog.OpEq, "NE": prog.OpNe, "LT": prog.OpLt, "LE": prog.OpLe, "GT": prog.OpGt, "GE": prog.OpGe,
}

// armNegConds negate the conditions of armConds.
var armNegConds = map[string]prog.Op{
	"EQ": prog.OpNe, "NE": prog.OpEq, "LT": prog.OpGe, "LE": prog.OpGt, "GT": prog.OpLe, "GE": prog.OpLt,
}

// armFlagConds are the conditions on the carry, negative and overflow
// flags, which the front-end does not model.
var armFlagConds = map[string]bool{
	"CS": true, "HS": true, "CC": true, "LO": true, "MI": true, "PL": true,
	"VS": true, "VC": true, "HI": true, "LS": true,
}

// armALU are the arithmetic instructions.
var armALU = map[string]prog.Op{
	"ADD": prog.OpAdd, "SUB": prog.OpSub, "EOR": prog.OpXor, "AND": prog.OpAnd, "ORR": prog.OpOr, "MUL": prog.OpMul,
}

// armLoads are the loads: their read tags.
var armLoads = map[string][]string{
	"LDR":   nil,
	"LDA":   {TagARMAcquire},
	"LDREX": {TagARMExclusive},
	"LDAEX": {TagARMExclusive, TagARMAcquire},
}

// armBases are the mnemonics without condition or S suffix.
var armBases = map[string]bool{
	"LDR": true, "LDA": true, "LDREX": true, "LDAEX": true, "STR": true, "STL": true, "STREX": true, "STLEX": true,
	"LDRD": true, "STRD": true,
	"LDM": true, "LDMIA": true, "LDMIB": true, "LDMDA": true, "LDMDB": true,
	"STM": true, "STMIA": true, "STMIB": true, "STMDA": true, "STMDB": true,
	"DMB": true, "DSB": true, "ISB": true, "NOP": true, "MOV": true, "MOVW": true, "MOVT": true,
	"CMP": true, "B": true, "CBZ": true, "CBNZ": true,
	"ADD": true, "SUB": true, "EOR": true, "AND": true, "ORR": true, "MUL": true,
}

// armSuffixed are the mnemonics that take a condition suffix, and whether
// the front-end supports it.
var armSuffixed = map[string]bool{
	"LDR": true, "STR": true, "MOV": true, "B": true,
	"ADD": true, "SUB": true, "EOR": true, "AND": true, "ORR": true, "MUL": true,
	"CMP": true, "MOVW": true, "MOVT": true,
	"LDREX": false, "STREX": false, "NOP": false,
}

// armSplit splits a mnemonic into its base, its S (set flags) suffix and
// its condition ("" when none; "AL" is none). ok is false when mn is no
// known instruction.
func armSplit(mn string) (base string, s bool, cond string, ok bool) {
	if armBases[mn] {
		return mn, false, "", true
	}
	// S forms of the arithmetic, before the conditions: "ADDS", "MOVS".
	if b, found := strings.CutSuffix(mn, "S"); found && armSetsFlags(b) {
		return b, true, "", true
	}
	if len(mn) > 2 {
		b, c := mn[:len(mn)-2], mn[len(mn)-2:]
		_, known := armConds[c]
		if known || armFlagConds[c] || c == "AL" {
			if _, ok := armSuffixed[b]; ok {
				if c == "AL" {
					c = ""
				}
				return b, false, c, true
			}
			if bb, found := strings.CutSuffix(b, "S"); found && armSetsFlags(bb) {
				if c == "AL" {
					c = ""
				}
				return bb, true, c, true
			}
		}
	}
	return "", false, "", false
}

// armSetsFlags tells whether base has an S form that sets the flags.
func armSetsFlags(base string) bool {
	_, ok := armALU[base]
	return ok || base == "MOV"
}

// armUnsupported names instructions the front-end knows and refuses, with
// the reason.
func armUnsupported(mn string) (string, bool) {
	if _, _, _, ok := armSplit(mn); ok {
		return "", false
	}
	for _, p := range []string{"LDREX", "STREX", "LDAEX", "STLEX", "LDR", "STR", "LDA", "STL"} {
		if rest, ok := strings.CutPrefix(mn, p); ok {
			switch rest {
			case "B", "H", "SB", "SH", "BT", "HT", "SBT", "SHT":
				return "byte and half-word accesses (mixed-size) are not supported", true
			case "EXD":
				return "double-word exclusives are not supported", true
			case "T":
				return "unprivileged accesses are not supported", true
			}
			break
		}
	}
	switch {
	case mn == "PUSH" || mn == "POP":
		return "stack accesses are not supported", true
	case (strings.HasPrefix(mn, "LDM") || strings.HasPrefix(mn, "STM")) && armMultiple[mn] == "":
		return "this form of multiple-register access is not supported (LDM and STM with IA, IB, DA or DB are)", true
	case mn == "BL" || mn == "BLX" || mn == "BXJ":
		return "calls and register branches are not supported", true
	case mn == "CLREX":
		return "clearing the exclusive monitor is not supported", true
	case mn == "SWP" || mn == "SWPB":
		return "the deprecated swap instructions are not supported", true
	case mn == "SADD16" || mn == "SEL":
		return "SIMD instructions are not supported", true
	case mn == "SVC" || mn == "MRC" || mn == "MCR" || mn == "MRS" || mn == "MSR" || mn == "CPS" || mn == "WFE" || mn == "WFI" || mn == "SEV":
		return "system instructions are not supported", true
	}
	return "", false
}

// Translation.

func (a *armThread) translate(in armInstr) {
	a.pos = in.pos
	if in.label != "" {
		a.emit(prog.Label{Name: in.label})
	}
	if in.mn == "" {
		return
	}
	if in.mn == "BX" {
		a.ret(in)
		return
	}
	base, setFlags, cond, ok := armSplit(in.mn)
	if !ok {
		a.errorf(in.mnPos, "unknown ARM instruction %q", in.mn)
		return
	}
	if armFlagConds[cond] {
		a.errorf(in.mnPos, "unsupported ARM condition %s in %s: the carry, negative and overflow flags are not modelled", cond, in.mn)
		return
	}
	for i, op := range in.ops {
		if op.kind == armMem && i < len(in.ops)-1 && in.ops[i+1].kind == armImm {
			a.errorf(in.ops[i+1].pos, "unsupported ARM addressing mode: post-indexed %s", in.mn)
			return
		}
	}
	if base == "B" {
		if a.arity(in, 1) && a.isLabel(in, 0) {
			var c prog.Expr
			if cond != "" {
				c = prog.Bin{Op: armConds[cond], X: prog.Reg{Name: armCmpL}, Y: prog.Reg{Name: armCmpR}}
			}
			a.emit(prog.Jump{Cond: c, Target: in.ops[0].name})
		}
		return
	}
	if cond == "" {
		a.instr(in, base, setFlags)
		return
	}
	// A conditional instruction: jump over it when the condition fails.
	if !armSuffixed[base] || setFlags || base == "LDR" && a.indexed(in) || base == "STR" && a.indexed(in) {
		a.errorf(in.mnPos, "unsupported ARM instruction %s: conditional execution is supported for LDR, STR [Rn], MOV, MOVW, MOVT, CMP and the arithmetic (without S) only", in.mn)
		return
	}
	a.skips++
	skip := "%skip" + strconv.Itoa(a.skips)
	a.emit(prog.Jump{Cond: prog.Bin{Op: armNegConds[cond], X: prog.Reg{Name: armCmpL}, Y: prog.Reg{Name: armCmpR}}, Target: skip})
	a.instr(in, base, false)
	a.emit(prog.Label{Name: skip})
}

// indexed tells whether some operand of in is an indexed memory operand.
func (a *armThread) indexed(in armInstr) bool {
	for _, op := range in.ops {
		if op.kind == armMem && op.index {
			return true
		}
	}
	return false
}

// instr translates an unconditional instruction.
func (a *armThread) instr(in armInstr, base string, setFlags bool) {
	if tags, ok := armLoads[base]; ok {
		if a.arity(in, 2) && a.isReg(in, 0) && a.isMem(in, 1) && a.plainIfExclusive(in, base, 1) {
			a.emit(prog.Load{Dst: in.ops[0].reg, Addr: in.ops[1].addr, Tags: tags})
		}
		return
	}
	switch base {
	case "NOP":
		a.arity(in, 0)
	case "ISB":
		if len(in.ops) == 1 && in.ops[0].kind == armSym && strings.EqualFold(in.ops[0].name, "SY") || a.arity(in, 0) {
			a.emit(prog.Fence{Tags: []string{TagARMISB}})
		}
	case "DMB", "DSB":
		a.barrier(in, base)
	case "LDRD", "STRD":
		a.pair(in, base)
	case "LDM", "LDMIA", "LDMIB", "LDMDA", "LDMDB", "STM", "STMIA", "STMIB", "STMDA", "STMDB":
		a.multiple(in, base)
	case "STR", "STL":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isMem(in, 1) {
			var tags []string
			if base == "STL" {
				tags = []string{TagARMRelease}
			}
			a.emit(prog.Store{Addr: in.ops[1].addr, Val: a.value(in.ops[0]), Tags: tags})
		}
	case "STREX", "STLEX":
		if a.arity(in, 3) && a.isReg(in, 0) && a.isReg(in, 1) && a.isMem(in, 2) && a.plainIfExclusive(in, base, 2) {
			tags := []string{TagARMExclusive}
			if base == "STLEX" {
				tags = append(tags, TagARMRelease)
			}
			a.emit(prog.StoreCond{Addr: in.ops[2].addr, Val: a.value(in.ops[1]), Status: in.ops[0].reg,
				OkVal: prog.IntValue(0), FailVal: prog.IntValue(1), Tags: tags})
		}
	case "MOV", "MOVW":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isRegOrImm(in, 1) {
			if base == "MOVW" && in.ops[1].kind != armImm {
				a.errorf(in.ops[1].pos, "MOVW needs an immediate source")
				return
			}
			a.assign(in.ops[0].reg, a.value(in.ops[1]), setFlags)
		}
	case "MOVT":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isImm(in, 1) {
			rd := in.ops[0].reg
			a.assign(rd, prog.Bin{Op: prog.OpOr,
				X: prog.Bin{Op: prog.OpAnd, X: prog.Reg{Name: rd}, Y: prog.Int(0xFFFF)},
				Y: prog.Int(in.ops[1].imm << 16)}, false)
		}
	case "CMP":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isRegOrImm(in, 1) {
			a.emit(prog.Assign{Dst: armCmpL, Val: a.value(in.ops[0])}, prog.Assign{Dst: armCmpR, Val: a.value(in.ops[1])})
		}
	case "CBZ", "CBNZ":
		if a.arity(in, 2) && a.isReg(in, 0) && a.isLabel(in, 1) {
			op := prog.OpEq
			if base == "CBNZ" {
				op = prog.OpNe
			}
			a.emit(prog.Jump{Cond: prog.Bin{Op: op, X: a.value(in.ops[0]), Y: prog.Int(0)}, Target: in.ops[1].name})
		}
	default:
		if op, ok := armALU[base]; ok {
			a.alu(in, op, setFlags)
			return
		}
		a.errorf(in.mnPos, "unknown ARM instruction %q", in.mn)
	}
}

// plainIfExclusive refuses an index register in the address of an
// exclusive access: LDREX and STREX only take [Rn].
func (a *armThread) plainIfExclusive(in armInstr, base string, i int) bool {
	if strings.HasSuffix(base, "EX") && in.ops[i].index {
		a.errorf(in.ops[i].pos, "%s takes a memory operand [Rn] without an index", in.mn)
		return false
	}
	return true
}

func (a *armThread) barrier(in armInstr, mn string) {
	if opt, ok := a.barrierOpt(in, armBarrierOpts); ok {
		a.emit(prog.Fence{Tags: []string{armBarrierTag(mn, opt)}})
	}
}

// alu is OP Rd,Rn,Rm|#imm[,LSL #k] and OP Rd,Rm|#imm (Rd = Rd op Rm).
func (a *armThread) alu(in armInstr, op prog.Op, setFlags bool) {
	ops := in.ops
	switch len(ops) {
	case 2:
		ops = []armOp{ops[0], ops[0], ops[1]}
	case 3, 4:
	default:
		a.errorf(in.mnPos, "%s takes 3 operands, found %d", in.mn, len(in.ops))
		return
	}
	in.ops = ops
	if !a.isReg(in, 0) || !a.isReg(in, 1) || !a.isRegOrImm(in, 2) {
		return
	}
	rhs := a.value(ops[2])
	if len(ops) == 4 {
		sh := ops[3]
		if ops[2].kind != armReg || sh.kind != armShift {
			a.errorf(sh.pos, "unsupported operand of %s", in.mn)
			return
		}
		if sh.imm != 0 {
			rhs = prog.Bin{Op: prog.OpShl, X: rhs, Y: prog.Int(sh.imm)}
		}
	}
	a.assign(ops[0].reg, prog.Bin{Op: op, X: a.value(ops[1]), Y: rhs}, setFlags)
}

// assign writes a register, and the flags from it for the S forms.
func (a *armThread) assign(dst string, v prog.Expr, setFlags bool) {
	a.emit(prog.Assign{Dst: dst, Val: v})
	if setFlags {
		a.emit(prog.Assign{Dst: armCmpL, Val: prog.Reg{Name: dst}}, prog.Assign{Dst: armCmpR, Val: prog.Int(0)})
	}
}

// value is the expression of a register or immediate operand.
func (a *armThread) value(op armOp) prog.Expr {
	if op.kind == armImm {
		return prog.Int(op.imm)
	}
	return prog.Reg{Name: op.reg}
}

// CheckTest rejects the tests that state the size of a location (herd's
// mixed-size tests): Musket does not model ARM's access sizes. A test
// with an array ("int x[2] = {1,2};", indexed by [R0,#4] or [R1,R3,LSL
// #2]) is lowered into chunks as an AArch64 one (aarch64_mixed.go): every
// ARM access is a word, and a load sign-extends it into the 32-bit
// register, which Musket holds as a signed value.
func (armv7Frontend) CheckTest(t *spec.Test) error {
	var errs source.ErrorList
	arrays := false
	for _, e := range t.Init {
		if !e.Ref.IsReg() && a64SizedTypes[e.Type] {
			errs.Add(e.Pos, fmt.Sprintf("unsupported ARM test: location %s is declared %s: mixed-size accesses are not supported", e.Ref.Name, e.Type))
		}
		if !e.Ref.IsReg() && strings.Contains(e.Type, "[") || e.Elems != nil {
			arrays = true
		}
	}
	if !arrays {
		// An immediate offset reads a part of a location, or past it.
		for _, th := range t.Threads {
			for pc, in := range th.Code {
				if v, ok := armImmOffset(in); ok && pc < len(th.Pos) {
					errs.Add(th.Pos[pc], fmt.Sprintf("unsupported ARM access with immediate offset #%d: parts of locations (mixed-size accesses) are not supported", v))
				}
			}
		}
	}
	if err := errs.Err(); err != nil || !arrays {
		return err
	}
	for _, th := range t.Threads {
		th.Sizes = make([]int, len(th.Code))
		for pc, in := range th.Code {
			switch in.(type) {
			case prog.Load, prog.RMW:
				th.Sizes[pc] = -4
			case prog.Store:
				th.Sizes[pc] = 4
			}
		}
	}
	return lowerMixedSizes(t, "ARM", false)
}

// armImmOffset is the immediate offset of the address of a memory access
// written [Rn,#imm] (imm not 0).
func armImmOffset(in prog.Instr) (int64, bool) {
	var addr prog.Expr
	switch in := in.(type) {
	case prog.Load:
		addr = in.Addr
	case prog.Store:
		addr = in.Addr
	case prog.RMW:
		addr = in.Addr
	default:
		return 0, false
	}
	if b, ok := addr.(prog.Bin); ok && b.Op == prog.OpAdd {
		if c, ok := b.Y.(prog.Const); ok && !c.V.IsAddr() {
			return c.V.Int, true
		}
	}
	return 0, false
}
