package param

import (
	"fmt"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/source"
)

// lexer splits a .cub source into tokens. Comments are OCaml's (* … *)
// and nest; an unterminated comment is an error at its start.
type lexer struct {
	file string
	src  []byte
	off  int
	line int
	col  int
	errs *ErrorList
}

func newLexer(file string, src []byte, errs *ErrorList) *lexer {
	return &lexer{file: file, src: src, line: 1, col: 1, errs: errs}
}

func (l *lexer) pos() Pos { return Pos{File: l.file, Line: l.line, Col: l.col} }

func (l *lexer) peekByte(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

func (l *lexer) advance() {
	if l.off >= len(l.src) {
		return
	}
	if l.src[l.off] == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	l.off++
}

// skip passes blanks and comments.
func (l *lexer) skip() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.advance()
		case c == '(' && l.peekByte(1) == '*':
			if !l.comment() {
				return
			}
		default:
			return
		}
	}
}

// comment passes a comment, nested ones included; false (reported) when
// the source ends inside it.
func (l *lexer) comment() bool {
	start := l.pos()
	depth := 0
	for {
		switch {
		case l.off >= len(l.src):
			l.errs.Add(start, "comment not terminated")
			return false
		case l.src[l.off] == '(' && l.peekByte(1) == '*':
			depth++
			l.advance()
			l.advance()
		case l.src[l.off] == '*' && l.peekByte(1) == ')':
			depth--
			l.advance()
			l.advance()
			if depth == 0 {
				return true
			}
		default:
			l.advance()
		}
	}
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// next returns the next token.
func (l *lexer) next() token {
	l.skip()
	p := l.pos()
	if l.off >= len(l.src) {
		return token{kind: tEOF, pos: p}
	}
	switch c := l.src[l.off]; {
	case isLetter(c):
		return l.word(p)
	case isDigit(c):
		return l.number(p)
	case c == '#':
		return l.procID(p)
	}
	if t, ok := l.punct(p); ok {
		return t
	}
	// The character as written (a byte of UTF-8 read as Latin-1 named
	// 'Ä' as 'Ã' and each byte after it as one more error).
	r, n := utf8.DecodeRune(l.src[l.off:])
	l.advance()
	for i := 1; i < n; i++ {
		l.off++ // the rest of the character: one column
	}
	msg := fmt.Sprintf("unexpected character %q", r)
	if r >= utf8.RuneSelf {
		msg += fmt.Sprintf(" (%U)", r)
	}
	if r == utf8.RuneError && n <= 1 {
		msg = fmt.Sprintf("unexpected byte 0x%02x (not UTF-8 text)", l.src[l.off-1])
	}
	l.errs.Add(p, msg)
	return l.next()
}

// digits passes a run of decimal digits.
func (l *lexer) digits() {
	for l.off < len(l.src) && isDigit(l.src[l.off]) {
		l.advance()
	}
}

// word reads an identifier (letters, digits, '_' and primes), a keyword
// or the wildcard '_'.
func (l *lexer) word(p Pos) token {
	start := l.off
	for l.off < len(l.src) && (isLetter(l.src[l.off]) || isDigit(l.src[l.off]) || l.src[l.off] == '\'') {
		l.advance()
	}
	s := string(l.src[start:l.off])
	if s == "_" {
		return token{kind: tUnder, pos: p, text: s}
	}
	if k, ok := keywords[s]; ok {
		return token{kind: k, pos: p, text: s}
	}
	return token{kind: tIdent, pos: p, text: s}
}

// number reads an integer, or a real with digits after its dot.
func (l *lexer) number(p Pos) token {
	start := l.off
	l.digits()
	kind := tInt
	// a real: digits '.' digits*, as in Cubicle's lexer ("0." is 0.0;
	// no construct has a number followed by a dot)
	if l.off < len(l.src) && l.src[l.off] == '.' {
		kind = tReal
		l.advance()
		l.digits()
	}
	return token{kind: kind, pos: p, text: string(l.src[start:l.off])}
}

// procID reads a process constant #n (its text is n).
func (l *lexer) procID(p Pos) token {
	l.advance()
	if !isDigit(l.peekByte(0)) {
		l.errs.Add(p, "'#' must be followed by a process number")
		return l.next()
	}
	start := l.off
	l.digits()
	return token{kind: tProcID, pos: p, text: string(l.src[start:l.off])}
}

// puncts are the punctuation tokens, each before its prefixes.
var puncts = []source.Punct[tokKind]{
	{Text: "<=>", Kind: tIff},
	{Text: "->", Kind: tImp}, {Text: "=>", Kind: tImp}, {Text: ":=", Kind: tAssign}, {Text: "||", Kind: tOr},
	{Text: "&&", Kind: tAnd}, {Text: "<>", Kind: tNeq}, {Text: "<=", Kind: tLe}, {Text: ">=", Kind: tGe},
	{Text: "(", Kind: tLParen}, {Text: ")", Kind: tRParen}, {Text: "[", Kind: tLBrack}, {Text: "]", Kind: tRBrack},
	{Text: "{", Kind: tLBrace}, {Text: "}", Kind: tRBrace}, {Text: ",", Kind: tComma}, {Text: ";", Kind: tSemi},
	{Text: ".", Kind: tDot}, {Text: "@", Kind: tAt}, {Text: "?", Kind: tQMark}, {Text: "+", Kind: tPlus}, {Text: "-", Kind: tMinus},
	{Text: "*", Kind: tStar}, {Text: ":", Kind: tColon}, {Text: "|", Kind: tBar}, {Text: "=", Kind: tEq},
	{Text: "<", Kind: tLt}, {Text: ">", Kind: tGt},
}

// punct reads the longest punctuation token at l; false when none
// starts there.
func (l *lexer) punct(p Pos) (token, bool) {
	k, n := source.MatchPunct(l.src[l.off:], puncts)
	if n == 0 {
		return token{}, false
	}
	start := l.off
	for range n {
		l.advance()
	}
	return token{kind: k, pos: p, text: string(l.src[start:l.off])}, true
}
