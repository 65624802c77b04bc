package cat

import (
	"fmt"
	"strings"
)

// ParseFile parses the source of one CAT file. Includes are left as
// *IncludeStmt; Load resolves them. The error, if any, is an ErrorList.
//
// Comments (* ... *) nest, as in herd7. A file that leaves such a comment
// open is parsed again with flat comments, as Dat3M reads them (its models
// may hold "(*" inside a comment).
func ParseFile(filename string, src []byte) (*File, error) {
	f, errs, open := parse(filename, src, false)
	if open {
		if f2, errs2, _ := parse(filename, src, true); len(errs2) == 0 {
			return f2, nil
		}
	}
	return f, errs.Err()
}

func parse(filename string, src []byte, flat bool) (*File, ErrorList, bool) {
	var errs ErrorList
	p := &parser{src: src, errs: &errs}
	p.lex = newLexer(filename, src, &errs)
	p.lex.flat = flat
	p.next()
	f := p.parseFile(filename)
	errs.Sort()
	return f, errs, p.lex.openComment
}

const (
	maxErrors = 10
	// maxDepth limits the nesting of expressions (parentheses, brackets,
	// let, fun, if, match, ~) and of statement blocks: herd7 has no such
	// limit, generated models nest a few hundred deep, and the parser's
	// stack must stay bounded on hostile input.
	maxDepth = 1000
)

type parser struct {
	src  []byte
	lex  *lexer
	errs *ErrorList

	tok    Token
	pos    Position
	lit    string
	end    int // offset just after the current token
	prevEn int // offset just after the previous token

	ahead bool // a lookahead token is buffered
	aTok  Token
	aPos  Position
	aLit  string
	aEnd  int
	depth int
}

// bailout aborts the statement being parsed after an error.
type bailout struct{}

func (p *parser) next() {
	p.prevEn = p.end
	if p.ahead {
		p.ahead = false
		p.tok, p.pos, p.lit, p.end = p.aTok, p.aPos, p.aLit, p.aEnd
		return
	}
	p.tok, p.pos, p.lit = p.lex.next()
	p.end = p.lex.off
}

// peek returns the token after the current one.
func (p *parser) peek() Token {
	if !p.ahead {
		p.aTok, p.aPos, p.aLit = p.lex.next()
		p.aEnd = p.lex.off
		p.ahead = true
	}
	return p.aTok
}

func (p *parser) errorf(pos Position, format string, args ...any) {
	p.errs.Add(pos, fmt.Sprintf(format, args...))
	panic(bailout{})
}

func (p *parser) describe() string {
	switch p.tok {
	case IDENT:
		return fmt.Sprintf("identifier %s", p.lit)
	case TAG:
		return fmt.Sprintf("tag '%s", p.lit)
	case STRING:
		return fmt.Sprintf("string %q", p.lit)
	case EOF:
		return "end of file"
	case ILLEGAL:
		return fmt.Sprintf("%q", p.lit)
	}
	if p.tok.IsKeyword() {
		return "keyword " + p.tok.String()
	}
	return "'" + p.tok.String() + "'"
}

func (p *parser) unexpected(what string) {
	if p.tok == ILLEGAL {
		panic(bailout{}) // the lexer has said what is wrong there
	}
	p.errorf(p.pos, "unexpected %s, expected %s", p.describe(), what)
}

func (p *parser) expect(t Token) Position {
	pos := p.pos
	if p.tok != t {
		p.unexpected("'" + t.String() + "'")
	}
	p.next()
	return pos
}

func (p *parser) ident() string {
	if p.tok != IDENT {
		p.unexpected("a name")
	}
	s := p.lit
	p.next()
	return s
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.pos, "expressions or blocks nested more than %d deep", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) parseFile(filename string) *File {
	f := &File{Name: filename}
	// The optional title: a name, a string, or a name and a name or string
	// ("X86 TSO", BPF "BPF Memory model").
	if p.tok == IDENT || p.tok == STRING {
		f.TitlePos = p.pos
		first, firstTok := p.lit, p.tok
		p.next()
		f.Title = first
		if firstTok == IDENT && (p.tok == IDENT || p.tok == STRING) {
			if p.tok == STRING {
				f.Title = p.lit
			} else {
				f.Title = first + " " + p.lit
			}
			p.next()
		}
	}
	for p.tok == CATDEP {
		f.Catdep = true
		p.next()
	}
	f.Stmts = p.parseStmtsTop()
	return f
}

// parseStmtsTop parses statements to the end of file, recovering from
// errors at the next statement keyword.
func (p *parser) parseStmtsTop() []Stmt {
	var list []Stmt
	for p.tok != EOF {
		if len(*p.errs) >= maxErrors {
			break
		}
		start := p.pos.Offset
		s, ok := p.safeStmt()
		if ok {
			list = append(list, s)
			continue
		}
		p.depth = 0
		p.sync(start)
	}
	return list
}

func (p *parser) safeStmt() (s Stmt, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			ok = false
		}
	}()
	return p.parseStmt(), true
}

// sync skips to the next token that can start a top-level statement,
// after the one at offset start whose parse failed.
func (p *parser) sync(start int) {
	if p.tok != EOF && p.pos.Offset == start {
		p.next()
	}
	for p.tok != EOF {
		switch p.tok {
		case LET, INCLUDE, ACYCLIC, IRREFLEXIVE, EMPTY, FLAG, UNDEFINED, ASSERT,
			SHOW, UNSHOW, PROCEDURE, CALL, FORALL, ENUM, INSTRUCTIONS, DEFAULT:
			return
		}
		p.next()
	}
}

func startsStmt(t Token) bool {
	switch t {
	case LET, INCLUDE, ACYCLIC, IRREFLEXIVE, EMPTY, TILDE, FLAG, UNDEFINED, ASSERT,
		SHOW, UNSHOW, PROCEDURE, CALL, FORALL, WITH, ENUM, INSTRUCTIONS, DEFAULT,
		IF, MATCH, DEBUG:
		return true
	}
	return false
}

// parseStmtList parses statements up to one of the stop tokens.
func (p *parser) parseStmtList(stop ...Token) []Stmt {
	p.enter()
	defer p.leave()
	var list []Stmt
	for {
		for _, t := range stop {
			if p.tok == t {
				return list
			}
		}
		if p.tok == EOF {
			p.unexpected("'" + stop[0].String() + "'")
		}
		list = append(list, p.parseStmt())
	}
}

func (p *parser) parseStmt() Stmt {
	pos := p.pos
	switch p.tok {
	case LET:
		return p.parseLetStmt()
	case INCLUDE:
		p.next()
		if p.tok != STRING {
			p.unexpected("a file name string")
		}
		s := &IncludeStmt{At: pos, Path: p.lit}
		p.next()
		return s
	case ACYCLIC, IRREFLEXIVE, EMPTY, TILDE:
		return &CheckStmt{At: pos, Kind: Check, Test: p.parseTest()}
	case FLAG, UNDEFINED, ASSERT:
		kind := map[Token]CheckKind{FLAG: Flag, UNDEFINED: UndefinedUnless, ASSERT: Assert}[p.tok]
		p.next()
		return &CheckStmt{At: pos, Kind: kind, Test: p.parseTest()}
	case SHOW:
		return p.parseShowStmt(pos)
	case UNSHOW:
		return p.parseUnshowStmt(pos)
	case PROCEDURE:
		return p.parseProcStmt(pos)
	case CALL:
		return p.parseCallStmt(pos)
	case FORALL:
		return p.parseForallStmt(pos)
	case WITH:
		p.next()
		s := &WithStmt{At: pos, Var: p.ident()}
		p.expect(FROM)
		s.Set = p.parseExpr()
		return s
	case ENUM:
		return p.parseEnumStmt(pos)
	case INSTRUCTIONS, DEFAULT:
		p.next()
		s := &EventsStmt{At: pos, Name: p.ident()}
		p.expect(LBRACK)
		s.Args = p.parseExprList(RBRACK)
		p.expect(RBRACK)
		return s
	case IF:
		return p.parseIfStmt(pos)
	case MATCH:
		return p.parseMatchStmt()
	case DEBUG:
		p.next()
		return &DebugStmt{At: pos, X: p.parseExpr()}
	}
	p.unexpected("a statement (let, include, acyclic, irreflexive, empty, flag, show, procedure, call, forall, with, enum, if ...)")
	return nil
}

// parseShowStmt parses show e as name, or show name, ... (no effect on
// checking).
func (p *parser) parseShowStmt(pos Position) Stmt {
	p.next()
	x := p.parseExpr()
	if p.tok == AS {
		p.next()
		return &ShowStmt{At: pos, X: x, As: p.ident()}
	}
	id, ok := x.(*Ident)
	if !ok {
		p.unexpected("'as'")
	}
	s := &ShowStmt{At: pos, Names: []string{id.Name}}
	for p.tok == COMMA {
		p.next()
		s.Names = append(s.Names, p.ident())
	}
	return s
}

// parseUnshowStmt parses unshow name, ....
func (p *parser) parseUnshowStmt(pos Position) Stmt {
	p.next()
	s := &ShowStmt{At: pos, Unshow: true, Names: []string{p.ident()}}
	for p.tok == COMMA {
		p.next()
		s.Names = append(s.Names, p.ident())
	}
	return s
}

// parseProcStmt parses procedure [rec] name(params) = statements end.
func (p *parser) parseProcStmt(pos Position) Stmt {
	p.next()
	if p.tok == REC {
		p.next()
	}
	s := &ProcStmt{At: pos, Name: p.ident()}
	if p.tok == LPAREN {
		s.Params = p.parseFormals()
	} else {
		s.Params = Pattern{Names: []string{p.pat0()}}
	}
	p.expect(EQ)
	s.Body = p.parseStmtList(END)
	p.expect(END)
	return s
}

// parseCallStmt parses call name arg [as name].
func (p *parser) parseCallStmt(pos Position) Stmt {
	p.next()
	s := &CallStmt{At: pos, Name: p.ident()}
	s.Arg = p.parseArg()
	if p.tok == AS {
		p.next()
		s.As = p.ident()
	}
	return s
}

// parseForallStmt parses forall x in e do statements end.
func (p *parser) parseForallStmt(pos Position) Stmt {
	p.next()
	s := &ForallStmt{At: pos, Var: p.ident()}
	p.expect(IN)
	s.Set = p.parseExpr()
	p.expect(DO)
	s.Body = p.parseStmtList(END)
	p.expect(END)
	return s
}

// parseEnumStmt parses enum Name = 'tag || 'tag ....
func (p *parser) parseEnumStmt(pos Position) Stmt {
	p.next()
	s := &EnumStmt{At: pos, Name: p.ident()}
	p.expect(EQ)
	if p.tok == ALT {
		p.next()
	}
	for {
		if p.tok != TAG {
			p.unexpected("a tag")
		}
		s.Tags = append(s.Tags, p.lit)
		p.next()
		if p.tok != ALT {
			break
		}
		p.next()
	}
	return s
}

// parseIfStmt parses if cond [then] statements [else statements] end.
func (p *parser) parseIfStmt(pos Position) Stmt {
	p.next()
	s := &IfStmt{At: pos, Cond: p.parseCond()}
	if p.tok == THEN {
		p.next()
	}
	s.Then = p.parseStmtList(ELSE, END)
	if p.tok == ELSE {
		p.next()
		s.Else = p.parseStmtList(END)
	}
	p.expect(END)
	return s
}

func (p *parser) parseLetStmt() Stmt {
	s := &LetStmt{At: p.expect(LET)}
	if p.tok == REC {
		s.Rec = true
		p.next()
	}
	s.Binds = p.parseBindings()
	if p.tok == WHEN {
		p.next()
		s.When = p.parseTest()
	}
	if p.tok == IN && startsStmt(p.peek()) || p.tok == IN && p.peek() == EOF {
		p.next() // herd accepts a dangling `in` after a top-level let
	}
	return s
}

func (p *parser) parseBindings() []*Binding {
	var bs []*Binding
	for {
		bs = append(bs, p.parseBinding())
		if p.tok != AND {
			return bs
		}
		p.next()
	}
}

// parseBinding parses `x = e`, `(a, b) = e`, `f(x, y) = e` or `f x = e`.
func (p *parser) parseBinding() *Binding {
	pos := p.pos
	if p.tok == LPAREN {
		pat := p.parseFormals()
		p.expect(EQ)
		return &Binding{At: pos, Pat: pat, Value: p.parseExpr()}
	}
	name := p.ident()
	switch p.tok {
	case EQ:
		p.next()
		return &Binding{At: pos, Pat: single(name), Value: p.parseExpr()}
	case LPAREN:
		params := p.parseFormals()
		p.expect(EQ)
		body := p.parseExpr()
		return &Binding{At: pos, Pat: single(name), Value: &FunExpr{At: pos, Params: params, Body: body, Name: name}}
	case IDENT, UNDERSCORE:
		param := p.pat0()
		p.expect(EQ)
		body := p.parseExpr()
		return &Binding{At: pos, Pat: single(name), Value: &FunExpr{At: pos, Params: single(param), Body: body, Name: name}}
	}
	p.unexpected("'='")
	return nil
}

func single(name string) Pattern { return Pattern{Names: []string{name}} }

// pat0 is a name or _.
func (p *parser) pat0() string {
	if p.tok == UNDERSCORE {
		p.next()
		return "_"
	}
	return p.ident()
}

// parseFormals parses `(x, y, ...)`: one name is a plain pattern, zero or
// several a tuple.
func (p *parser) parseFormals() Pattern {
	p.expect(LPAREN)
	var names []string
	if p.tok != RPAREN {
		names = append(names, p.pat0())
		for p.tok == COMMA {
			p.next()
			names = append(names, p.pat0())
		}
	}
	p.expect(RPAREN)
	return Pattern{Names: names, Tuple: len(names) != 1}
}

// parseTest parses `[~](acyclic|irreflexive|empty) e [as name]`.
func (p *parser) parseTest() *Test {
	t := &Test{At: p.pos}
	start := p.pos.Offset
	if p.tok == TILDE {
		t.Negate = true
		p.next()
	}
	switch p.tok {
	case ACYCLIC:
		t.Kind = Acyclic
	case IRREFLEXIVE:
		t.Kind = Irreflexive
	case EMPTY:
		t.Kind = IsEmpty
	default:
		p.unexpected("acyclic, irreflexive or empty")
	}
	p.next()
	t.X = p.parseExpr()
	t.Text = collapse(string(p.src[start:p.prevEn]))
	if p.tok == AS {
		p.next()
		t.Name = p.ident()
	}
	return t
}

// collapse turns runs of blanks into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func (p *parser) parseMatchStmt() Stmt {
	s := &MatchStmt{At: p.expect(MATCH)}
	s.X = p.parseExpr()
	p.expect(WITH)
	if p.tok == ALT {
		p.next()
	}
	for {
		if p.tok == UNDERSCORE {
			p.next()
			p.expect(ARROW)
			s.Default = p.parseStmtList(ALT, END)
			s.HasDef = true
		} else {
			if p.tok != TAG {
				p.unexpected("a tag or _")
			}
			tag := p.lit
			p.next()
			p.expect(ARROW)
			s.Clauses = append(s.Clauses, StmtClause{Tag: tag, Body: p.parseStmtList(ALT, END)})
		}
		if p.tok != ALT {
			break
		}
		p.next()
	}
	p.expect(END)
	return s
}
