package litmus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// init reads the initial state "{ ... }": entries separated by ';' or
// line ends, each "[type] loc [= value]".
func (p *parser) init() {
	p.next() // '{'
	p.next()
	seen := map[spec.Ref]prog.Pos{}
	for {
		switch p.tok.kind {
		case tRBrace:
			p.resolveElems()
			// The table comes next, read raw: do not scan past '}'.
			p.sc.skipSpace()
			if p.sc.peekByte(0) == ';' {
				p.sc.off++
			}
			return
		case tSemi:
			p.next()
			continue
		case tEOF:
			p.fail(p.tok.off, "initial state not terminated: missing '}'")
		}
		var toks []token
		depth := 0 // inside the braces of an array's values
		for len(toks) == 0 || !p.tok.nl || depth > 0 {
			k := p.tok.kind
			if k == tEOF || depth == 0 && (k == tSemi || k == tRBrace) {
				break
			}
			switch k {
			case tLBrace:
				depth++
			case tRBrace:
				depth--
			}
			toks = append(toks, p.tok)
			p.next()
		}
		p.initEntry(toks, seen)
	}
}

func (p *parser) initEntry(toks []token, seen map[spec.Ref]prog.Pos) {
	lhs, rhs, hasVal := toks, []token(nil), false
	for i, t := range toks {
		if t.kind == tEq {
			lhs, rhs, hasVal = toks[:i], toks[i+1:], true
			break
		}
	}
	if len(lhs) == 0 {
		p.fail(toks[0].off, "expected a location or register before '='")
	}
	if len(lhs) >= 5 && lhs[0].kind == tLBrack && lhs[1].kind == tIdent && lhs[2].kind == tLParen {
		p.bracketFunc(lhs)
	}
	if n := len(lhs); n >= 2 && lhs[n-2].text == "%" && lhs[n-1].kind == tIdent && lhs[n-1].off == lhs[n-2].off+1 {
		p.symInit(lhs, rhs, hasVal)
		return
	}
	// The location is at the end of the left-hand side; a type may
	// precede it.
	n := len(lhs)
	var ref spec.Ref
	var locStart int
	var array string
	size := int64(0)
	last := lhs[n-1]
	switch {
	case last.kind == tRBrack && n >= 4 && lhs[n-2].kind == tInt && lhs[n-3].kind == tLBrack && lhs[n-4].kind == tIdent:
		ref, locStart, array, size = p.arrayDecl(lhs)
	case last.kind == tRBrack && n >= 3 && lhs[n-2].kind == tIdent && lhs[n-3].kind == tLBrack:
		ref, locStart = spec.Ref{Thread: -1, Name: lhs[n-2].text}, n-3
	case (last.kind == tInt || last.kind == tIdent) && n >= 4 && lhs[n-2].kind == tDollar && lhs[n-2].off+1 == last.off && lhs[n-3].kind == tColon && isThreadToken(lhs[n-4]):
		// A MIPS register "0:$2".
		th := p.threadNum(lhs[n-4])
		ref, locStart = spec.Ref{Thread: th, Name: p.regName(token{kind: tIdent, text: "$" + last.text, off: lhs[n-2].off}, th)}, n-4
	case last.kind == tIdent && n >= 3 && lhs[n-2].kind == tColon && isThreadToken(lhs[n-3]):
		th := p.threadNum(lhs[n-3])
		ref, locStart = spec.Ref{Thread: th, Name: p.regName(last, th)}, n-3
	case last.kind == tIdent:
		ref, locStart = spec.Ref{Thread: -1, Name: last.text}, n-1
	default:
		p.fail(last.off, "expected a location or register in the initial state, found "+last.describe())
	}
	var elem, typ string
	if locStart > 0 || array != "" {
		elem, typ = p.initType(lhs, locStart, array)
	}
	if array != "" {
		p.initArray(toks, lhs, rhs, hasVal, ref, locStart, elem, typ, size, seen)
		return
	}
	// C's "atomic_t x = ATOMIC_INIT(1)" is x = 1.
	if n := len(rhs); n >= 3 && rhs[0].kind == tIdent && rhs[0].text == "ATOMIC_INIT" && rhs[1].kind == tLParen && rhs[n-1].kind == tRParen {
		rhs = rhs[2 : n-1]
	}
	var val prog.Value
	switch {
	case !hasVal:
		// "int x;": zero.
	case len(rhs) == 0:
		p.fail(toks[len(toks)-1].off, "missing value after '='")
	default:
		if ref.Thread >= 0 && isCodeLabel(rhs) {
			p.codeLabelInit(ref, rhs)
			return
		}
		val = p.initValue(rhs)
	}
	if ref.Thread >= 0 && val != (prog.Value{}) && isZeroReg(p.fe.Arch(), ref.Name) {
		// The instructions read 0 from it whatever it is given, but the
		// final state would report the value given: a condition on it
		// would be answered wrongly (robust6: "0:XZR=1" made
		// "exists (0:XZR=1)" Always).
		name := lhs[n-1].text
		if lhs[n-2].kind == tDollar {
			name = "$" + name // MIPS
		}
		p.error(lhs[locStart].off, fmt.Sprintf("%s is the zero register: it reads 0 whatever it is given; give it no initial value, or 0", name))
		return
	}
	p.addInit(ref, val, typ, lhs[locStart].off, seen)
}

// isZeroReg tells whether reg (the front-end's spelling) is a register
// wired to zero: AArch64's XZR (WZR), RISC-V's x0, MIPS's $0.
func isZeroReg(arch, reg string) bool {
	switch arch {
	case "AArch64":
		return reg == "XZR"
	case "RISCV":
		return reg == "x0"
	case "MIPS":
		return reg == "$0"
	}
	return false
}

// arrayDecl reads the left-hand side of an array's entry, "[type] x[N]"
// (its last four tokens are x, '[', N and ']'): the array's ref, where
// its name starts, its type's suffix "[N]" and its size N. This and
// initType are out of line, as are initArray and the rest of what few
// entries need: initEntry, which every entry of every test runs, stays
// small, and the browser, which compiles a WebAssembly function again
// whole once it has run for a while, compiled its 9 KB on the X86
// suite's second pass.
//
//go:noinline
func (p *parser) arrayDecl(lhs []token) (spec.Ref, int, string, int64) {
	n := len(lhs)
	// An array "uint8_t x[128]": the type records the size.
	size := p.intValue(lhs[n-2], false)
	if size <= 0 {
		p.fail(lhs[n-2].off, "bad array size "+quote(lhs[n-2].text))
	}
	if size > maxArray {
		// A valid test, too large for Musket: a limit (exit status 3),
		// as the other bounds of codelimit.go; it was "bad array size"
		// (exit status 2, bad input; robust7).
		p.codeLimit(lhs[n-2].off, fmt.Sprintf("array %s has %s cells, more than %d", lhs[n-4].text, lhs[n-2].text, maxArray))
	}
	return spec.Ref{Thread: -1, Name: lhs[n-4].text}, n - 4, "[" + lhs[n-2].text + "]", size
}

// initType reads the type before an entry's location, lhs[:locStart]
// ("int", "uint64_t", "int*", ...), and returns it as the element's type
// and as the entry's (with array, "[N]" or "", after it).
//
//go:noinline
func (p *parser) initType(lhs []token, locStart int, array string) (elem, typ string) {
	var b strings.Builder
	for _, t := range lhs[:locStart] {
		switch t.kind {
		case tIdent:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "*") {
				b.WriteByte(' ')
			}
			b.WriteString(t.text)
		case tStar:
			b.WriteByte('*')
		default:
			if strings.HasPrefix(t.text, "%") {
				p.fail(t.off, "unsupported register: herd7's symbolic registers (%name) are not supported")
			}
			p.fail(t.off, "unexpected "+t.describe()+" in the initial state")
		}
	}
	if b.Len() > 0 && strings.HasPrefix(b.String(), "*") {
		p.fail(lhs[0].off, "unexpected '*' in the initial state")
	}
	elem = b.String()
	return elem, elem + array
}

// maxArray bounds the size of an array of the initial state.
const maxArray = 1 << 12

// initValue reads one initial value: an integer, a location's address
// ("x", "&x", or "*(&x)", which is x again, as in tests of arrays whose
// cells hold the address of another array).
func (p *parser) initValue(v []token) prog.Value {
	switch {
	case len(v) == 1 && v[0].kind == tInt:
		return prog.IntValue(p.intValue(v[0], false))
	case len(v) == 2 && (v[0].kind == tMinus || v[0].kind == tPlus) && v[1].kind == tInt:
		return prog.IntValue(p.intValue(v[1], v[0].kind == tMinus))
	case len(v) == 1 && v[0].kind == tIdent:
		return prog.AddrValue(v[0].text)
	case len(v) == 2 && v[0].kind == tAmp && v[1].kind == tIdent:
		return prog.AddrValue(v[1].text)
	case isElemValue(v):
		return p.elemValue(v)
	case len(v) == 5 && v[0].kind == tStar && v[1].kind == tLParen && v[2].kind == tAmp && v[3].kind == tIdent && v[4].kind == tRParen,
		len(v) == 3 && v[0].kind == tStar && v[1].kind == tAmp && v[2].kind == tIdent:
		return prog.AddrValue(v[len(v)-1-btoi(v[len(v)-1].kind == tRParen)].text)
	}
	p.vmValue(v)
	if len(v) >= 2 && v[0].kind == tIdent && v[0].text == "instr" && v[1].kind == tColon {
		if len(v) == 3 && v[2].kind == tString {
			return instrValue(v[2].text)
		}
		p.fail(v[1].off, "expected an instruction in quotes after instr:")
	}
	if len(v) == 3 && v[0].kind == tIdent && v[1].kind == tColon && v[2].kind == tIdent {
		// herd7's code labels as values (0:R0=P0:foo, for BX R0: ARM
		// A015), for tests of computed branches.
		p.fail(v[0].off, "unsupported initial value: code labels as values ("+v[0].text+":"+v[2].text+") are not supported")
	}
	p.fail(v[0].off, "expected an integer or an address as initial value, found "+v[0].describe())
	panic("unreachable")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// initArray reads an array "[type] a[N] [= {v0, ..., vN-1}]". In C tests
// each cell is a location: a (cell 0), a+1, ..., a+N-1, so that pointer
// arithmetic (a + i, a[i]) reaches cell i; the entry of cell 0 keeps the
// array type. Other dialects count offsets in bytes: they take arrays
// without initial values only (the mixed-size AArch64 front-end refuses
// them by name).
func (p *parser) initArray(toks, lhs, rhs []token, hasVal bool, ref spec.Ref, locStart int, elem, typ string, size int64, seen map[spec.Ref]prog.Pos) {
	vals := make([]prog.Value, size)
	if hasVal {
		if len(rhs) < 2 || rhs[0].kind != tLBrace || rhs[len(rhs)-1].kind != tRBrace {
			at := toks[len(toks)-1]
			if len(rhs) > 0 {
				at = rhs[0]
			}
			p.fail(at.off, "expected the values of array "+ref.Name+" in braces: {v0, v1, ...}")
		}
		inner := rhs[1 : len(rhs)-1]
		var items [][]token
		for len(inner) > 0 {
			i := 0
			for i < len(inner) && inner[i].kind != tComma {
				i++
			}
			if i == 0 {
				p.fail(inner[0].off, "missing value in the values of array "+ref.Name)
			}
			items = append(items, inner[:i])
			if i == len(inner) {
				break
			}
			inner = inner[i+1:]
			if len(inner) == 0 {
				p.fail(rhs[len(rhs)-1].off, "missing value in the values of array "+ref.Name)
			}
		}
		if int64(len(items)) != size {
			p.fail(rhs[0].off, fmt.Sprintf("array %s has %d cells and %d initial values", ref.Name, size, len(items)))
		}
		for i, it := range items {
			if isElemValue(it) {
				p.fail(it[0].off, "unsupported initial value: an array element's address ("+it[0].text+"["+it[2].text+"]) in the values of an array")
			}
			vals[i] = p.initValue(it)
		}
	}
	if !strings.EqualFold(p.fe.Arch(), "C") {
		if hasVal && !asmArrays(p.fe.Arch()) {
			p.fail(rhs[0].off, "initial values of arrays are supported in C, AArch64, ARM, RISC-V and X86_64 tests only")
		}
		p.addInit(ref, vals[0], typ, lhs[locStart].off, seen)
		if hasVal {
			p.t.Init[len(p.t.Init)-1].Elems = vals
		}
		return
	}
	for i, v := range vals {
		r, t := ref, typ
		if i > 0 {
			r.Name, t = CellName(ref.Name, i), elem
		}
		p.addInit(r, v, t, lhs[locStart].off, seen)
	}
}

// asmArrays tells whether the front-end of arch lowers arrays of bytes
// (mixed-size tests, aarch64_mixed.go): their initial values and their
// cells in the condition ("x[1]", element 1) are supported.
func asmArrays(arch string) bool {
	switch strings.ToUpper(arch) {
	case "AARCH64", "RISCV", "X86_64", "ARM":
		return true
	}
	return false
}

// CellName names cell i of array a, a location of its own: a, a+1, ...
// (the name the engines give the address a plus i).
func CellName(a string, i int) string {
	if i == 0 {
		return a
	}
	return a + "+" + strconv.Itoa(i)
}

// addInit records an entry of the initial state, refusing a second value
// for the same ref.
func (p *parser) addInit(ref spec.Ref, val prog.Value, typ string, off int, seen map[spec.Ref]prog.Pos) {
	pos := p.sc.pos(off)
	if first, dup := seen[ref]; dup {
		p.fail(off, fmt.Sprintf("duplicate initial value for %s (first at %d:%d)", ref, first.Line, first.Col))
	}
	if len(p.t.Init) == MaxInit {
		p.codeLimit(off, fmt.Sprintf("the initial state has more than %d entries", MaxInit))
	}
	seen[ref] = pos
	p.t.Init = append(p.t.Init, spec.InitEntry{Ref: ref, Val: val, Type: typ, Pos: pos})
}

// isThreadToken tells whether t names a thread: "0" or "P0".
func isThreadToken(t token) bool {
	switch t.kind {
	case tInt:
		return isDecimal(t.text)
	case tIdent:
		return isProcName(t.text)
	}
	return false
}

func isProcName(s string) bool { return len(s) > 1 && s[0] == 'P' && isDecimal(s[1:]) }

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// maxThreads bounds thread numbers (a test has a handful).
const maxThreads = 1 << 16

// threadNum returns the thread number of "0" or "P0" and records it for
// the check against the table.
func (p *parser) threadNum(t token) int {
	s := strings.TrimPrefix(t.text, "P")
	n, err := strconv.Atoi(s)
	if err != nil || n >= maxThreads {
		p.fail(t.off, "bad thread number "+quote(t.text))
	}
	p.threads = append(p.threads, threadRef{thread: n, off: t.off})
	return n
}

// regName asks the front-end for the canonical spelling of a register of
// thread th.
func (p *parser) regName(t token, th int) string {
	name, ok := p.fe.RegName(t.text)
	if !ok {
		p.fail(t.off, fmt.Sprintf("unknown %s register %q of thread P%d", p.fe.Arch(), t.text, th))
	}
	return name
}

// intValue converts an integer token (decimal or 0x hexadecimal).
func (p *parser) intValue(t token, neg bool) int64 {
	v, err := parseInt(t.text, neg)
	if err != nil {
		p.fail(t.off, "malformed integer "+quote(t.text))
	}
	return v
}

func parseInt(s string, neg bool) (int64, error) {
	base := 10
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, base = s[2:], 16
	}
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, base, 64)
	if err != nil && !neg {
		// An unsigned 64-bit value (uint64_t's 0xffffffffffffffff, or
		// 18446744073709551615) is the signed one with the same bits,
		// as herd reads it.
		if u, uerr := strconv.ParseUint(s, base, 64); uerr == nil {
			return int64(u), nil
		}
	}
	return v, err
}

func itoa(i int) string { return strconv.Itoa(i) }

// symInit reads herd7's symbolic register "[type] %name = value": a
// register that the threads name %name instead of a machine register
// (herd7 allocates one for each thread that uses it). It is recorded, and
// given to each thread whose code uses it once the code is read
// (bindSymRegs).
func (p *parser) symInit(lhs, rhs []token, hasVal bool) {
	n := len(lhs)
	if !symRegArch(p.fe.Arch()) {
		p.fail(lhs[n-2].off, "unsupported register: herd7's symbolic registers (%name) are supported in AArch64, ARM, MIPS and PPC tests only")
	}
	var typ []string
	for _, t := range lhs[:n-2] {
		if t.kind != tIdent {
			p.fail(t.off, "unexpected "+t.describe()+" in the initial state")
		}
		typ = append(typ, t.text)
	}
	var v prog.Value
	if hasVal {
		if len(rhs) == 0 {
			p.fail(lhs[n-1].off, "missing value of %"+lhs[n-1].text)
		}
		v = p.initValue(rhs)
	}
	p.syms = append(p.syms, symInit{name: lhs[n-1].text, val: v, typ: strings.Join(typ, " "), off: lhs[n-2].off})
}

// symInit is a symbolic register of the initial state.
type symInit struct {
	name, typ string
	val       prog.Value
	off       int
}

// symRegArch tells whether the front-end of arch reads symbolic registers.
func symRegArch(arch string) bool {
	return arch == "ARM" || arch == "PPC" || arch == "MIPS" || arch == "AArch64"
}

// bindSymRegs gives each thread that uses a symbolic register of the
// initial state its initial value.
func (p *parser) bindSymRegs() {
	seen := map[spec.Ref]prog.Pos{}
	for _, e := range p.t.Init {
		seen[e.Ref] = e.Pos
	}
	for _, s := range p.syms {
		reg := SymReg(s.name)
		for i, th := range p.t.Threads {
			used := false
			for _, in := range th.Code {
				if slices.Contains(prog.Uses(in), reg) {
					used = true
					break
				}
			}
			if used {
				p.addInit(spec.Ref{Thread: i, Name: reg}, s.val, s.typ, s.off, seen)
			}
		}
	}
}
