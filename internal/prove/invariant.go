package prove

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// The invariant language (Definition 4.1 of the thesis, over registers):
//
//	inv  := inv \/ inv | inv /\ inv | ~inv | not inv | (inv) | true | false | cmp
//	cmp  := sum op sum        op: = == != <> < <= > >=
//	sum  := atom | sum + atom | sum - atom
//	atom := N:reg | [loc] | integer | -integer | loc | (sum)
//
// N:reg is a register of the loop's thread (N its number), [loc] the
// value the thread last wrote to location loc (the thesis' assertion
// expressions: "the recent write operations appearing before the
// condition"; loc's initial value if the thread has not written it),
// loc the address of a shared location (registers that hold addresses
// are compared with it, as in litmus conditions: 0:R1=x). The value of
// a location in memory is not part of the language: under a relaxed
// model a thread has no "value of x", and the registers it read say what
// the loop saw. Comparisons yield 0 or 1 and are signed.

type invTok struct {
	text string
	col  int // 0-based in the line
}

type invParser struct {
	toks []invTok
	i    int
	end  int // column after the condition
	th   int
	regs map[string]bool
	pos  func(col int) prog.Pos
	mem  map[string]bool // locations mentioned as [x]
}

func (p *invParser) errAt(col int, format string, args ...any) error {
	return source.Errorf(p.pos(col), format, args...)
}

func (p *invParser) peek() invTok {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return invTok{col: p.end}
}

func (p *invParser) next() invTok {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

var invOps = []string{"/\\", "\\/", "==", "!=", "<>", "<=", ">=", "&&", "||", "=", "<", ">", "~", "!", "(", ")", "[", "]", "+", "-"}

// lexInv splits an invariant; col0 is the column of src[0].
func lexInv(src string, col0 int, pos func(int) prog.Pos) ([]invTok, error) {
	var out []invTok
	isWord := func(c byte) bool {
		return c == '_' || c == '%' || c == '.' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case isWord(c):
			j := i
			for j < len(src) && isWord(src[j]) {
				j++
			}
			out = append(out, invTok{src[i:j], col0 + i})
			i = j
			continue
		}
		matched := false
		for _, op := range invOps {
			if strings.HasPrefix(src[i:], op) {
				out = append(out, invTok{op, col0 + i})
				i += len(op)
				matched = true
				break
			}
		}
		if !matched {
			r, _ := utf8.DecodeRuneInString(src[i:]) // the whole character, not its first byte
			return nil, source.Errorf(pos(col0+i), "unexpected %q in an invariant", string(r))
		}
	}
	return out, nil
}

// parseInv parses the condition of an invariant of thread th; mem are
// the locations it mentions as [x].
func parseInv(src string, col0 int, th int, regs map[string]bool, pos func(int) prog.Pos) (e prog.Expr, mem []string, err error) {
	toks, err := lexInv(src, col0, pos)
	if err != nil {
		return nil, nil, err
	}
	p := &invParser{toks: toks, end: col0 + len(src), th: th, regs: regs, pos: pos, mem: map[string]bool{}}
	e, err = p.or()
	if err != nil {
		return nil, nil, err
	}
	if t := p.peek(); p.i < len(p.toks) {
		return nil, nil, p.errAt(t.col, "unexpected %q after the invariant", t.text)
	}
	return e, sortedRegs(p.mem), nil
}

// memReg is the register that holds the value a thread last wrote to a
// location (see shadow).
func memReg(loc string) string { return "%prove_mem_" + loc }

func (p *invParser) or() (prog.Expr, error) {
	x, err := p.and()
	for err == nil && (p.peek().text == "\\/" || p.peek().text == "||") {
		p.next()
		var y prog.Expr
		if y, err = p.and(); err == nil {
			x = prog.Bin{Op: prog.OpLOr, X: x, Y: y}
		}
	}
	return x, err
}

func (p *invParser) and() (prog.Expr, error) {
	x, err := p.unary()
	for err == nil && (p.peek().text == "/\\" || p.peek().text == "&&") {
		p.next()
		var y prog.Expr
		if y, err = p.unary(); err == nil {
			x = prog.Bin{Op: prog.OpLAnd, X: x, Y: y}
		}
	}
	return x, err
}

func (p *invParser) unary() (prog.Expr, error) {
	t := p.peek()
	switch t.text {
	case "~", "!", "not":
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return prog.Un{Op: prog.OpNot, X: x}, nil
	case "true":
		p.next()
		return prog.Int(1), nil
	case "false":
		p.next()
		return prog.Int(0), nil
	case "(":
		// A parenthesised condition, or a parenthesised sum that starts
		// a comparison: try the condition first.
		save := p.i
		p.next()
		x, err := p.or()
		if err == nil && p.peek().text == ")" {
			p.next()
			if !isCmpOp(p.peek().text) && !isSumOp(p.peek().text) {
				return x, nil
			}
		}
		p.i = save
	}
	return p.cmp()
}

func isCmpOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<>", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func isSumOp(s string) bool { return s == "+" || s == "-" }

var cmpOps = map[string]prog.Op{"=": prog.OpEq, "==": prog.OpEq, "!=": prog.OpNe, "<>": prog.OpNe, "<": prog.OpLt, "<=": prog.OpLe, ">": prog.OpGt, ">=": prog.OpGe}

func (p *invParser) cmp() (prog.Expr, error) {
	x, err := p.sum(true)
	if err != nil {
		return nil, err
	}
	t := p.next()
	op, ok := cmpOps[t.text]
	if !ok {
		if t.text == "" {
			return nil, p.errAt(t.col, "expected a comparison (=, !=, <, <=, >, >=)")
		}
		return nil, p.errAt(t.col, "expected a comparison (=, !=, <, <=, >, >=), found %q", t.text)
	}
	y, err := p.sum(false)
	if err != nil {
		return nil, err
	}
	return prog.Bin{Op: op, X: x, Y: y}, nil
}

func (p *invParser) sum(left bool) (prog.Expr, error) {
	x, err := p.atom(left)
	for err == nil && isSumOp(p.peek().text) {
		op := prog.OpAdd
		if p.next().text == "-" {
			op = prog.OpSub
		}
		var y prog.Expr
		if y, err = p.atom(left); err == nil {
			x = prog.Bin{Op: op, X: x, Y: y}
		}
	}
	return x, err
}

func (p *invParser) atom(left bool) (prog.Expr, error) {
	t := p.next()
	switch {
	case t.text == "":
		return nil, p.errAt(t.col, "expected a value")
	case t.text == "(":
		x, err := p.sum(left)
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.text != ")" {
			return nil, p.errAt(c.col, "expected ')'")
		}
		return x, nil
	case t.text == "[":
		n := p.next()
		if !isIdent(n.text) || isNumeric(n.text[0]) {
			return nil, p.errAt(n.col, "expected a location in [ ]")
		}
		if c := p.next(); c.text != "]" {
			return nil, p.errAt(c.col, "expected ']'")
		}
		p.mem[n.text] = true
		return prog.Reg{Name: memReg(n.text)}, nil
	case t.text == "-":
		n := p.next()
		v, err := strconv.ParseInt(n.text, 0, 64)
		if err != nil {
			return nil, p.errAt(n.col, "expected a number after '-'")
		}
		return prog.Int(-v), nil
	}
	if v, err := strconv.ParseInt(t.text, 0, 64); err == nil {
		return prog.Int(v), nil
	}
	if c := strings.IndexByte(t.text, ':'); c > 0 {
		n, err := strconv.Atoi(t.text[:c])
		name := t.text[c+1:]
		switch {
		case err != nil || name == "":
			return nil, p.errAt(t.col, "bad register %q (want N:reg)", t.text)
		case n != p.th:
			return nil, p.errAt(t.col, "the invariant of P%d may only mention registers of P%d, found %s", p.th, p.th, t.text)
		case !p.regs[name]:
			return nil, p.errAt(t.col, "P%d has no register %s", p.th, name)
		}
		return prog.Reg{Name: name}, nil
	}
	if isNumeric(t.text[0]) || !isIdent(t.text) {
		return nil, p.errAt(t.col, "expected a value, found %q", t.text)
	}
	if left {
		return nil, p.errAt(t.col, "the invariant of P%d may only mention registers of P%d (N:reg) and the values it last wrote ([%s]), found %s: shared memory has no value a thread could assert under a relaxed model", p.th, p.th, t.text, t.text)
	}
	return prog.Addr(t.text), nil
}

func isNumeric(c byte) bool { return c >= '0' && c <= '9' }

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || isNumeric(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}
