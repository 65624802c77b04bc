package litmus

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// init reads the initial state "{ ... }": entries separated by ';' or
// line ends, each "[type] loc [= value]".
func (p *parser) init() {
	p.next() // '{'
	p.next()
	seen := map[Ref]prog.Pos{}
	for {
		switch p.tok.kind {
		case tRBrace:
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
		for len(toks) == 0 || !p.tok.nl {
			k := p.tok.kind
			if k == tSemi || k == tRBrace || k == tEOF {
				break
			}
			toks = append(toks, p.tok)
			p.next()
		}
		p.initEntry(toks, seen)
	}
}

func (p *parser) initEntry(toks []token, seen map[Ref]prog.Pos) {
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
	// The location is at the end of the left-hand side; a type may
	// precede it.
	n := len(lhs)
	var ref Ref
	var locStart int
	var array string
	last := lhs[n-1]
	switch {
	case last.kind == tRBrack && n >= 4 && lhs[n-2].kind == tInt && lhs[n-3].kind == tLBrack && lhs[n-4].kind == tIdent:
		// An array "uint8_t x[128]": the type records the size.
		if size := p.intValue(lhs[n-2], false); size <= 0 {
			p.fail(lhs[n-2].off, "bad array size "+quote(lhs[n-2].text))
		}
		ref, locStart, array = Ref{Thread: -1, Name: lhs[n-4].text}, n-4, "["+lhs[n-2].text+"]"
		if hasVal {
			p.fail(lhs[n-1].off, "initial values of arrays are not supported")
		}
	case last.kind == tRBrack && n >= 3 && lhs[n-2].kind == tIdent && lhs[n-3].kind == tLBrack:
		ref, locStart = Ref{Thread: -1, Name: lhs[n-2].text}, n-3
	case last.kind == tIdent && n >= 3 && lhs[n-2].kind == tColon && isThreadToken(lhs[n-3]):
		th := p.threadNum(lhs[n-3])
		ref, locStart = Ref{Thread: th, Name: p.regName(last, th)}, n-3
	case last.kind == tIdent:
		ref, locStart = Ref{Thread: -1, Name: last.text}, n-1
	default:
		p.fail(last.off, "expected a location or register in the initial state, found "+last.describe())
	}
	var typ strings.Builder
	for _, t := range lhs[:locStart] {
		switch t.kind {
		case tIdent:
			if typ.Len() > 0 && !strings.HasSuffix(typ.String(), "*") {
				typ.WriteByte(' ')
			}
			typ.WriteString(t.text)
		case tStar:
			typ.WriteByte('*')
		default:
			p.fail(t.off, "unexpected "+t.describe()+" in the initial state")
		}
	}
	if typ.Len() > 0 && strings.HasPrefix(typ.String(), "*") {
		p.fail(lhs[0].off, "unexpected '*' in the initial state")
	}
	typ.WriteString(array)
	// C's "atomic_t x = ATOMIC_INIT(1)" is x = 1.
	if n := len(rhs); n >= 3 && rhs[0].kind == tIdent && rhs[0].text == "ATOMIC_INIT" && rhs[1].kind == tLParen && rhs[n-1].kind == tRParen {
		rhs = rhs[2 : n-1]
	}
	var val prog.Value
	switch {
	case !hasVal:
		// "int x;": zero.
	case len(rhs) == 1 && rhs[0].kind == tInt:
		val = prog.IntValue(p.intValue(rhs[0], false))
	case len(rhs) == 2 && (rhs[0].kind == tMinus || rhs[0].kind == tPlus) && rhs[1].kind == tInt:
		val = prog.IntValue(p.intValue(rhs[1], rhs[0].kind == tMinus))
	case len(rhs) == 1 && rhs[0].kind == tIdent:
		val = prog.AddrValue(rhs[0].text)
	case len(rhs) == 2 && rhs[0].kind == tAmp && rhs[1].kind == tIdent:
		val = prog.AddrValue(rhs[1].text)
	case len(rhs) == 0:
		p.fail(toks[len(toks)-1].off, "missing value after '='")
	default:
		p.fail(rhs[0].off, "expected an integer or an address as initial value, found "+rhs[0].describe())
	}
	pos := p.sc.pos(lhs[locStart].off)
	if first, dup := seen[ref]; dup {
		p.fail(lhs[locStart].off, fmt.Sprintf("duplicate initial value for %s (first at %d:%d)", ref, first.Line, first.Col))
	}
	seen[ref] = pos
	p.t.Init = append(p.t.Init, InitEntry{Ref: ref, Val: val, Type: typ.String(), Pos: pos})
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
	return strconv.ParseInt(s, base, 64)
}
