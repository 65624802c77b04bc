package litmus

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// The syntax of the C dialect of litmus tests: a lexer and a recursive
// descent parser for the thread functions "P0(int *x) { ... }" and for the
// bodies of the macros of a .def file. The parser builds a small C syntax
// tree (cExpr, cStmt); c.go translates it into the program IR.

// cTokKind is the kind of a C token.
type cTokKind int

const (
	ctEOF   cTokKind = iota
	ctIdent          // r0, READ_ONCE, memory_order_relaxed
	ctInt            // 12, 0x1f
	ctPrim           // a herd primitive with its tags: __load{ONCE}, __fence{mb}
	ctPunct          // ( ) { } ; , = == + += ...
	ctIllegal
)

// cTok is one C token: its text, where it starts, and for a primitive its
// name (without the tags) and tags.
type cTok struct {
	kind cTokKind
	text string
	off  int
	nl   bool // a line end precedes the token
	tags []string
}

func (t cTok) describe() string {
	switch t.kind {
	case ctEOF:
		return "end of file"
	case ctIllegal:
		return "character " + source.QuoteChar(t.text)
	}
	return quote(t.text)
}

// cPuncts are the C punctuators, longest first.
var cPuncts = []string{
	"<<=", ">>=", "...",
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"(", ")", "{", "}", "[", "]", ";", ",", "=", "+", "-", "*", "/", "%",
	"&", "|", "^", "~", "!", "<", ">", "?", ":", ".",
}

// cLexer splits C text into tokens. Comments are "// ..." and "/* ... */".
type cLexer struct {
	src  []byte
	off  int
	errs *source.ErrorList
	pos  func(int) prog.Pos
}

//go:noinline // see source.ErrorList.Add
func (l *cLexer) errorf(off int, format string, args ...any) {
	l.errs.Add(l.pos(off), fmt.Sprintf(format, args...))
}

// skip skips blanks and comments; it reports whether it crossed a line end.
func (l *cLexer) skip() bool {
	nl := false
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\n':
			nl = true
			l.off++
		case isSpace(c):
			l.off++
		case c == '/' && l.peek(1) == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.off++
			}
		case c == '/' && l.peek(1) == '*':
			start := l.off
			end := strings.Index(string(l.src[l.off+2:]), "*/")
			if end < 0 {
				l.errorf(start, "comment not terminated")
				l.off = len(l.src)
				return nl
			}
			if strings.Contains(string(l.src[l.off:l.off+2+end]), "\n") {
				nl = true
			}
			l.off += end + 4
		default:
			return nl
		}
	}
	return nl
}

func (l *cLexer) peek(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

// next returns the next token.
func (l *cLexer) next() cTok {
	nl := l.skip()
	t := cTok{off: l.off, nl: nl}
	if l.off >= len(l.src) {
		t.kind = ctEOF
		return t
	}
	c := l.src[l.off]
	switch {
	case isLetter(c):
		for l.off < len(l.src) && isIdentByte(l.src[l.off]) {
			l.off++
		}
		t.kind = ctIdent
		t.text = string(l.src[t.off:l.off])
		if strings.HasPrefix(t.text, "__") && l.peek(0) == '{' {
			// A herd primitive: __load{ONCE}, __fence{rcu-lock}.
			end := strings.IndexAny(string(l.src[l.off:]), "}\n")
			if end < 0 || l.src[l.off+end] != '}' {
				l.errorf(l.off, "missing '}' after the tags of %s", t.text)
				return t
			}
			for _, tag := range strings.Split(string(l.src[l.off+1:l.off+end]), ",") {
				if tag = strings.TrimSpace(tag); tag != "" {
					t.tags = append(t.tags, tag)
				}
			}
			l.off += end + 1
			t.kind = ctPrim
		}
		return t
	case isDigit(c):
		for l.off < len(l.src) && isIdentByte(l.src[l.off]) {
			l.off++
		}
		t.kind = ctInt
		t.text = string(l.src[t.off:l.off])
		return t
	}
	for _, p := range cPuncts {
		if strings.HasPrefix(string(l.src[l.off:min(len(l.src), l.off+len(p))]), p) {
			l.off += len(p)
			t.kind = ctPunct
			t.text = p
			return t
		}
	}
	// One illegal character: a whole UTF-8 sequence, for the message.
	_, n := utf8.DecodeRune(l.src[l.off:])
	l.off += max(n, 1)
	t.kind = ctIllegal
	t.text = string(l.src[t.off:l.off])
	return t
}

// The C syntax tree.

type cExpr interface{ cOff() int }

type (
	cInt struct {
		V   int64
		Off int
	}
	cIdent struct {
		Name string
		Off  int
	}
	// cUnary is -x, +x, !x, ~x, *x (a read), &x (an address).
	cUnary struct {
		Op  string
		X   cExpr
		Off int
	}
	cBinary struct {
		Op   string
		X, Y cExpr
		Off  int
	}
	// cTernary is C ? T : E.
	cTernary struct {
		C, T, E cExpr
		Off     int
	}
	// cCall is f(args); for a herd primitive, Prim is true and Tags are
	// its tags. A primitive written without arguments (__fence{mb}) has
	// NoParens.
	cCall struct {
		Name     string
		Tags     []string
		Prim     bool
		NoParens bool
		Args     []cExpr
		Off      int
	}
	// cOpArg is the operator argument of __atomic_op(X,+,V).
	cOpArg struct {
		Op  string
		Off int
	}
	// cAssign is L = R, L += R, ... (also as an expression).
	cAssign struct {
		Op   string // "=", "+=", ...
		L, R cExpr
		Off  int
	}
	// cIncDec is x++, x--, ++x, --x.
	cIncDec struct {
		Op     string // "++" or "--"
		X      cExpr
		Prefix bool
		Off    int
	}
	// cCast is (type)x; the type is not kept.
	cCast struct {
		X   cExpr
		Off int
	}
	// cUnsupported is a construct the front-end does not translate
	// (a[i], s.f, p->f): it is reported by name when translated.
	cUnsupported struct {
		What string
		Off  int
	}
)

func (e *cInt) cOff() int           { return e.Off }
func (e *cIdent) cOff() int         { return e.Off }
func (e *cUnary) cOff() int         { return e.Off }
func (e *cBinary) cOff() int        { return e.Off }
func (e *cTernary) cOff() int       { return e.Off }
func (e *cCall) cOff() int          { return e.Off }
func (e *cOpArg) cOff() int         { return e.Off }
func (e *cAssign) cOff() int        { return e.Off }
func (e *cIncDec) cOff() int        { return e.Off }
func (e *cCast) cOff() int          { return e.Off }
func (e *cUnsupported) cOff() int   { return e.Off }
func (s *cDecl) cOff() int          { return s.Off }
func (s *cExprStmt) cOff() int      { return s.Off }
func (s *cIf) cOff() int            { return s.Off }
func (s *cWhile) cOff() int         { return s.Off }
func (s *cBlock) cOff() int         { return s.Off }
func (s *cUnsupportedSt) cOff() int { return s.Off }
func (s *cLoopJump) cOff() int      { return s.Off }

type cStmt interface{ cOff() int }

type (
	// cDecl declares local Name, with an initial value when Init is not nil.
	cDecl struct {
		Name string
		Init cExpr
		Off  int
	}
	cExprStmt struct {
		X   cExpr
		Off int
	}
	cIf struct {
		Cond       cExpr
		Then, Else []cStmt
		Off        int
	}
	// cWhile is a while loop, or a do-while loop when Do is true. A for
	// loop is a while loop with Init before it and Step at the end of
	// each iteration (where continue goes); a missing condition is true.
	cWhile struct {
		Init []cStmt
		Cond cExpr
		Step cExpr
		Body []cStmt
		Do   bool
		Off  int
	}
	// cLoopJump is break (Break true) or continue.
	cLoopJump struct {
		Break bool
		Off   int
	}
	cBlock struct {
		Body []cStmt
		Off  int
	}
	cUnsupportedSt struct {
		What string
		Off  int
	}
)

// cFunc is one thread function.
type cFunc struct {
	Name   string
	Params []string
	Atomic []bool // Atomic[i]: Params[i] has an atomic type
	Body   []cStmt
	Off    int
}

// cParser parses C tokens. After an error it stops (bailout).
type cParser struct {
	lex  *cLexer
	tok  cTok
	errs *source.ErrorList
	// depth bounds the nesting of expressions and statements.
	depth int
}

const maxCDepth = 500

func newCParser(src []byte, off int, pos func(int) prog.Pos, errs *source.ErrorList) *cParser {
	p := &cParser{lex: &cLexer{src: src, off: off, errs: errs, pos: pos}, errs: errs}
	p.next()
	return p
}

func (p *cParser) next() { p.tok = p.lex.next() }

func (p *cParser) fail(off int, format string, args ...any) {
	p.lex.errorf(off, format, args...)
	panic(bailout{})
}

func (p *cParser) is(s string) bool { return p.tok.kind == ctPunct && p.tok.text == s }

func (p *cParser) isWord(s string) bool { return p.tok.kind == ctIdent && p.tok.text == s }

func (p *cParser) expect(s, what string) cTok {
	t := p.tok
	if !p.is(s) {
		p.fail(t.off, "expected '%s' %s, found %s", s, what, t.describe())
	}
	p.next()
	return t
}

func (p *cParser) enter() {
	p.depth++
	if p.depth > maxCDepth {
		p.fail(p.tok.off, "code nested too deeply")
	}
}

func (p *cParser) leave() { p.depth-- }

// cTypeWords are the words that start a type.
var cTypeWords = map[string]bool{
	"int": true, "char": true, "short": true, "long": true, "unsigned": true, "signed": true,
	"void": true, "volatile": true, "const": true, "_Atomic": true, "struct": true, "union": true,
	"bool": true, "_Bool": true, "float": true, "double": true, "register": true, "static": true,
	"atomic_int": true, "atomic_uint": true, "atomic_long": true, "atomic_ulong": true,
	"atomic_bool": true, "atomic_char": true, "atomic_short": true, "atomic_llong": true,
	"atomic_intptr_t": true, "atomic_uintptr_t": true, "intptr_t": true, "uintptr_t": true,
	"atomic_t": true, "atomic64_t": true, "atomic_long_t": true, "spinlock_t": true, "size_t": true,
	"__int128": true,
}

func isCTypeWord(s string) bool {
	return cTypeWords[s] || strings.HasSuffix(s, "_t") && len(s) > 2
}

// atType tells whether a type starts at the current token.
func (p *cParser) atType() bool { return p.tok.kind == ctIdent && isCTypeWord(p.tok.text) }

// typeName skips a type: specifiers ("struct NAME" included) and stars.
// It tells whether the type is atomic (atomic_int, _Atomic, ...).
func (p *cParser) typeName() (atomic bool) {
	for p.atType() {
		w := p.tok.text
		if w == "_Atomic" || strings.HasPrefix(w, "atomic_") {
			atomic = true
		}
		p.next()
		if (w == "struct" || w == "union") && p.tok.kind == ctIdent {
			p.next()
		}
	}
	for p.is("*") || p.isWord("const") || p.isWord("volatile") {
		p.next()
	}
	return atomic
}

// cTrailerWords start the part of a test after the threads.
var cTrailerWords = map[string]bool{"exists": true, "forall": true, "final": true, "locations": true, "filter": true, "regions": true}

// atTrailer tells whether the part after the threads starts here.
func (p *cParser) atTrailer() bool {
	return p.tok.kind == ctEOF || p.tok.kind == ctIdent && cTrailerWords[p.tok.text] ||
		p.is("~") || p.is("<<")
}

// funcs reads thread functions up to the trailer.
func (p *cParser) funcs() []*cFunc {
	var out []*cFunc
	for !p.atTrailer() {
		start := p.tok.off
		for p.atType() {
			p.typeName()
		}
		if p.tok.kind != ctIdent {
			p.fail(p.tok.off, "expected a thread function P%d(...) { ... }, found %s", len(out), p.tok.describe())
		}
		name := p.tok.text
		if name != "P"+itoa(len(out)) {
			p.fail(p.tok.off, "expected thread function P%d, found %s", len(out), quote(name))
		}
		f := &cFunc{Name: name, Off: start}
		p.next()
		p.expect("(", "after "+name)
		for !p.is(")") {
			if p.isWord("void") && !p.atPointerParam() {
				p.next()
				continue
			}
			atomic := p.typeName()
			if p.tok.kind != ctIdent {
				p.fail(p.tok.off, "expected a parameter name, found %s", p.tok.describe())
			}
			f.Params = append(f.Params, p.tok.text)
			f.Atomic = append(f.Atomic, atomic)
			p.next()
			if p.is(",") {
				p.next()
			} else if !p.is(")") {
				p.fail(p.tok.off, "expected ',' or ')' in the parameters of %s, found %s", name, p.tok.describe())
			}
		}
		p.next()
		p.expect("{", "to start the body of "+name)
		f.Body = p.stmtsUntil("}")
		p.next()
		out = append(out, f)
	}
	return out
}

// nextIs tells whether the token after the current one is the
// punctuator text.
func (p *cParser) nextIs(text string) bool {
	save, tok := p.lex.off, p.tok
	p.next()
	ok := p.is(text)
	p.lex.off, p.tok = save, tok
	return ok
}

// atPointerParam tells whether "void" starts a pointer parameter (void *p).
func (p *cParser) atPointerParam() bool {
	save, tok := p.lex.off, p.tok
	p.next()
	ok := p.is("*")
	p.lex.off, p.tok = save, tok
	return ok
}

// stmtsUntil reads statements up to the punctuator end (not consumed).
func (p *cParser) stmtsUntil(end string) []cStmt {
	var out []cStmt
	for !p.is(end) {
		if p.tok.kind == ctEOF {
			p.fail(p.tok.off, "missing '%s'", end)
		}
		out = append(out, p.stmt()...)
	}
	return out
}

// stmt reads one statement (a declaration of several names gives several).
func (p *cParser) stmt() []cStmt {
	p.enter()
	defer p.leave()
	t := p.tok
	switch {
	case p.is(";"):
		p.next()
		return nil
	case p.is("{"):
		p.next()
		body := p.stmtsUntil("}")
		p.next()
		return []cStmt{&cBlock{Body: body, Off: t.off}}
	case p.isWord("if"):
		p.next()
		p.expect("(", "after if")
		c := p.expr()
		p.expect(")", "after the condition")
		s := &cIf{Cond: c, Off: t.off}
		s.Then = p.stmt()
		if p.isWord("else") {
			p.next()
			s.Else = p.stmt()
		}
		return []cStmt{s}
	case p.isWord("while"):
		p.next()
		p.expect("(", "after while")
		c := p.expr()
		p.expect(")", "after the condition")
		return []cStmt{&cWhile{Cond: c, Body: p.stmt(), Off: t.off}}
	case p.isWord("do"):
		p.next()
		body := p.stmt()
		if !p.isWord("while") {
			p.fail(p.tok.off, "expected while after the body of do, found %s", p.tok.describe())
		}
		p.next()
		p.expect("(", "after while")
		c := p.expr()
		p.expect(")", "after the condition")
		p.expect(";", "after do ... while")
		return []cStmt{&cWhile{Cond: c, Body: body, Do: true, Off: t.off}}
	case (p.isWord("break") || p.isWord("continue")) && p.nextIs(";"):
		// herd7's C has no break or continue: there they are names
		// (the kernel's lock-free tests use continue as a variable), so
		// only "break;" and "continue;" are statements here.
		p.next()
		p.expect(";", "after "+t.text)
		return []cStmt{&cLoopJump{Break: t.text == "break", Off: t.off}}
	case p.isWord("for"):
		return []cStmt{p.forStmt()}
	case p.isWord("return"), p.isWord("goto"), p.isWord("switch"):
		p.skipStmt()
		return []cStmt{&cUnsupportedSt{What: t.text + " statements", Off: t.off}}
	case p.atType():
		return p.decl()
	}
	x := p.expr()
	p.expect(";", "after the statement")
	return []cStmt{&cExprStmt{X: x, Off: t.off}}
}

// forStmt reads "for (init; cond; step) body"; each part may be empty
// and init may declare locals.
func (p *cParser) forStmt() cStmt {
	s := &cWhile{Off: p.tok.off}
	p.next()
	p.expect("(", "after for")
	switch {
	case p.is(";"):
		p.next()
	case p.atType():
		s.Init = p.decl()
	default:
		s.Init = []cStmt{&cExprStmt{X: p.expr(), Off: p.tok.off}}
		p.expect(";", "after the initialisation of for")
	}
	if !p.is(";") {
		s.Cond = p.expr()
	}
	p.expect(";", "after the condition of for")
	if !p.is(")") {
		s.Step = p.expr()
	}
	p.expect(")", "after the step of for")
	s.Body = p.stmt()
	return s
}

// skipStmt skips an unsupported statement: up to ';' or a balanced block.
func (p *cParser) skipStmt() {
	depth := 0
	for p.tok.kind != ctEOF {
		switch {
		case p.is("{"), p.is("("):
			depth++
		case p.is("}"), p.is(")"):
			depth--
			if depth == 0 && p.is("}") {
				p.next()
				if p.isWord("else") {
					p.next()
					continue
				}
				return
			}
		case p.is(";") && depth == 0:
			p.next()
			return
		}
		p.next()
	}
}

// decl reads "type name [= init], *name2 ...;".
func (p *cParser) decl() []cStmt {
	p.typeName()
	var out []cStmt
	for {
		for p.is("*") {
			p.next()
		}
		if p.tok.kind != ctIdent {
			p.fail(p.tok.off, "expected a variable name in the declaration, found %s", p.tok.describe())
		}
		d := &cDecl{Name: p.tok.text, Off: p.tok.off}
		p.next()
		if p.is("[") {
			out = append(out, &cUnsupportedSt{What: "local arrays", Off: d.Off})
			p.skipStmt()
			return out
		}
		if p.is("=") {
			p.next()
			d.Init = p.assign()
		}
		out = append(out, d)
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.expect(";", "after the declaration")
	return out
}

// expr reads an expression with the comma operator excluded.
func (p *cParser) expr() cExpr { return p.assign() }

var cAssignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}

func (p *cParser) assign() cExpr {
	p.enter()
	defer p.leave()
	l := p.ternary()
	if p.tok.kind == ctPunct && cAssignOps[p.tok.text] {
		op := p.tok
		p.next()
		r := p.assign()
		return &cAssign{Op: op.text, L: l, R: r, Off: op.off}
	}
	return l
}

func (p *cParser) ternary() cExpr {
	c := p.binary(0)
	if p.is("?") {
		off := p.tok.off
		p.next()
		t := p.expr()
		p.expect(":", "in the conditional expression")
		e := p.ternary()
		return &cTernary{C: c, T: t, E: e, Off: off}
	}
	return c
}

// cBinaryLevels are the binary operators, loosest first.
var cBinaryLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="},
	{"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

func (p *cParser) binary(level int) cExpr {
	if level == len(cBinaryLevels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for p.tok.kind == ctPunct && contains(cBinaryLevels[level], p.tok.text) {
		op := p.tok
		p.next()
		y := p.binary(level + 1)
		x = &cBinary{Op: op.text, X: x, Y: y, Off: op.off}
	}
	return x
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *cParser) unary() cExpr {
	p.enter()
	defer p.leave()
	t := p.tok
	if t.kind == ctPunct {
		switch t.text {
		case "-", "+", "!", "~", "*", "&":
			p.next()
			return &cUnary{Op: t.text, X: p.unary(), Off: t.off}
		case "++", "--":
			p.next()
			return &cIncDec{Op: t.text, X: p.unary(), Prefix: true, Off: t.off}
		case "(":
			// A cast "(type) x" or a parenthesised expression.
			save, tok := p.lex.off, p.tok
			p.next()
			if p.atType() {
				p.typeName()
				p.expect(")", "after the type of the cast")
				return &cCast{X: p.unary(), Off: t.off}
			}
			p.lex.off, p.tok = save, tok
		}
	}
	return p.postfix()
}

func (p *cParser) postfix() cExpr {
	x := p.primary()
	for {
		t := p.tok
		switch {
		case p.is("("):
			id, ok := x.(*cIdent)
			if !ok {
				p.fail(t.off, "only named functions can be called")
			}
			p.next()
			x = &cCall{Name: id.Name, Args: p.args(id.Name), Off: id.Off}
		case p.is("++"), p.is("--"):
			p.next()
			x = &cIncDec{Op: t.text, X: x, Off: t.off}
		case p.is("["):
			// a[i] is *(a + i): cell i of the array a (each cell a
			// location, see the initial state).
			p.next()
			i := p.expr()
			p.expect("]", "after the index")
			x = &cUnary{Op: "*", X: &cBinary{Op: "+", X: x, Y: i, Off: t.off}, Off: t.off}
		case p.is("->"), p.is("."):
			p.next()
			if p.tok.kind == ctIdent {
				p.next()
			}
			x = &cUnsupported{What: "structures", Off: t.off}
		default:
			return x
		}
	}
}

func (p *cParser) skipBalanced(open, close string) {
	depth := 0
	for p.tok.kind != ctEOF {
		if p.is(open) {
			depth++
		} else if p.is(close) {
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

// cOpPrims take an operator as their second argument.
var cOpPrims = map[string]bool{"__atomic_op": true, "__atomic_op_return": true, "__atomic_fetch_op": true}

// args reads call arguments after '(' up to and including ')'.
func (p *cParser) args(fn string) []cExpr {
	var out []cExpr
	for !p.is(")") {
		if cOpPrims[fn] && len(out) == 1 && p.tok.kind == ctPunct {
			op := p.tok
			p.next()
			text := op.text
			for p.tok.kind == ctPunct && !p.is(",") && !p.is(")") {
				text += p.tok.text
				p.next()
			}
			out = append(out, &cOpArg{Op: text, Off: op.off})
		} else {
			out = append(out, p.assign())
		}
		if p.is(",") {
			p.next()
		} else if !p.is(")") {
			p.fail(p.tok.off, "expected ',' or ')' in the arguments of %s, found %s", fn, p.tok.describe())
		}
	}
	p.next()
	return out
}

func (p *cParser) primary() cExpr {
	t := p.tok
	switch t.kind {
	case ctInt:
		p.next()
		v, err := parseInt(t.text, false)
		if err != nil {
			if len(t.text) > 1 && t.text[0] == '0' && isDecimal(t.text) {
				v, err = parseOctal(t.text)
			}
			if err != nil {
				p.fail(t.off, "malformed integer %s", quote(t.text))
			}
		}
		return &cInt{V: v, Off: t.off}
	case ctIdent:
		p.next()
		if t.text == "NULL" {
			return &cInt{V: 0, Off: t.off}
		}
		return &cIdent{Name: t.text, Off: t.off}
	case ctPrim:
		p.next()
		c := &cCall{Name: t.text, Tags: t.tags, Prim: true, Off: t.off}
		if p.is("(") {
			p.next()
			c.Args = p.args(t.text)
		} else {
			c.NoParens = true
		}
		return c
	case ctPunct:
		if t.text == "(" {
			p.next()
			x := p.expr()
			p.expect(")", "to close the parenthesis")
			return x
		}
	}
	p.fail(t.off, "expected an expression, found %s", t.describe())
	panic("unreachable")
}

func parseOctal(s string) (int64, error) {
	var v int64
	for i := 0; i < len(s); i++ {
		if s[i] > '7' {
			return 0, fmt.Errorf("bad octal")
		}
		v = v*8 + int64(s[i]-'0')
	}
	return v, nil
}
