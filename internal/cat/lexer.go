package cat

import (
	"fmt"
	"unicode/utf8"
)

// A lexer splits a CAT source into tokens. Comments are skipped: nested
// (* ... *) blocks, /* ... */ blocks (Dat3M), and // or # to the end of the
// line.
type lexer struct {
	src      []byte
	filename string
	off      int // reading offset
	line     int
	lineOff  int // offset of the current line's first byte
	errs     *ErrorList

	flat        bool // (* *) comments do not nest
	openComment bool // a comment was left open
}

func newLexer(filename string, src []byte, errs *ErrorList) *lexer {
	return &lexer{src: src, filename: filename, line: 1, errs: errs}
}

func (l *lexer) pos(off int) Position {
	return Position{Filename: l.filename, Offset: off, Line: l.line, Column: off - l.lineOff + 1}
}

func (l *lexer) error(off int, format string, args ...any) {
	l.errs.Add(l.pos(off), fmt.Sprintf(format, args...))
}

func (l *lexer) peek(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

func (l *lexer) newline() {
	l.line++
	l.lineOff = l.off + 1
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isNameByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_' || c == '.' || c == '-'
}

// skipSpace skips blanks and comments.
func (l *lexer) skipSpace() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\n':
			l.newline()
			l.off++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.off++
		case c == '#' || c == '/' && l.peek(1) == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.off++
			}
		case c == '(' && l.peek(1) == '*':
			l.skipBlock('(', ')')
		case c == '/' && l.peek(1) == '*':
			l.skipBlock('/', '/')
		default:
			return
		}
	}
}

// skipBlock skips a block comment opened by open+'*' and closed by
// '*'+close; (* *) comments nest, /* */ ones do not.
func (l *lexer) skipBlock(open, close byte) {
	start := l.off
	startPos := l.pos(start)
	l.off += 2
	depth := 1
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\n':
			l.newline()
			l.off++
		case c == '*' && l.peek(1) == close:
			l.off += 2
			depth--
			if depth == 0 {
				return
			}
		case open == '(' && !l.flat && c == '(' && l.peek(1) == '*':
			l.off += 2
			depth++
		default:
			l.off++
		}
	}
	l.openComment = true
	l.errs.Add(startPos, "comment not terminated")
}

// next returns the next token, its start position, and its text (the
// name of an identifier or tag, the contents of a string).
func (l *lexer) next() (Token, Position, string) {
	l.skipSpace()
	start := l.off
	pos := l.pos(start)
	if l.off >= len(l.src) {
		return EOF, pos, ""
	}
	c := l.src[l.off]
	l.off++
	two := func(second byte, t2, t1 Token) Token {
		if l.off < len(l.src) && l.src[l.off] == second {
			l.off++
			return t2
		}
		return t1
	}
	switch {
	case isLetter(c) || c == '_' && l.off < len(l.src) && isLetter(l.src[l.off]):
		name := l.name(start)
		return Lookup(name), pos, name
	case c == '_':
		return UNDERSCORE, pos, "_"
	case c == '0':
		return l.zero(start, pos)
	case c == '\'':
		return l.tag(start, pos)
	case c == '"':
		return l.str(start, pos)
	}
	switch c {
	case '(':
		return LPAREN, pos, ""
	case ')':
		return RPAREN, pos, ""
	case '{':
		return LBRACE, pos, ""
	case '}':
		return RBRACE, pos, ""
	case '[':
		return LBRACK, pos, ""
	case ']':
		return RBRACK, pos, ""
	case '|':
		return two('|', ALT, BAR), pos, ""
	case '&':
		return two('&', LAND, AMP), pos, ""
	case '*':
		return STAR, pos, ""
	case '+':
		return two('+', ADD, PLUS), pos, ""
	case '?':
		return QUEST, pos, ""
	case '~':
		return TILDE, pos, ""
	case '^':
		return HAT, pos, ""
	case '\\':
		return BACKSLASH, pos, ""
	case ';':
		return SEMI, pos, ""
	case ',':
		return COMMA, pos, ""
	case '=':
		return EQ, pos, ""
	case '-':
		if l.off < len(l.src) && l.src[l.off] == '1' {
			l.off++
			return INV, pos, ""
		}
		if l.off < len(l.src) && l.src[l.off] == '>' {
			l.off++
			return ARROW, pos, ""
		}
	}
	return l.invalid(start, pos, c)
}

// The rarer tokens are scanned out of line, so that next stays small: in
// WebAssembly V8 charges a function's tier-up budget, at each jump back
// to the loop a Go function is compiled to, about the distance jumped,
// and a large next, run for every token of a model, was optimised (a
// compile of tens of milliseconds on a first visit) although it runs
// only when a model is loaded.

// zero scans a token that starts with '0'.
//
//go:noinline
func (l *lexer) zero(start int, pos Position) (Token, Position, string) {
	if l.off < len(l.src) && isNameByte(l.src[l.off]) {
		l.error(start, "invalid number")
		for l.off < len(l.src) && isNameByte(l.src[l.off]) {
			l.off++
		}
		return ILLEGAL, pos, string(l.src[start:l.off])
	}
	return ZERO, pos, "0"
}

// tag scans a tag after its quote.
//
//go:noinline
func (l *lexer) tag(start int, pos Position) (Token, Position, string) {
	if l.off < len(l.src) && (isLetter(l.src[l.off]) || l.src[l.off] == '_') {
		return TAG, pos, l.name(l.off)
	}
	l.error(start, "tag name expected after '")
	return ILLEGAL, pos, "'"
}

// str scans a string after its opening quote.
//
//go:noinline
func (l *lexer) str(start int, pos Position) (Token, Position, string) {
	for l.off < len(l.src) && l.src[l.off] != '"' {
		if l.src[l.off] == '\n' {
			l.newline()
		}
		l.off++
	}
	if l.off >= len(l.src) {
		l.errs.Add(pos, "string not terminated")
		return STRING, pos, string(l.src[start+1:])
	}
	l.off++
	return STRING, pos, string(l.src[start+1 : l.off-1])
}

// invalid reports the character c at start.
//
//go:noinline
func (l *lexer) invalid(start int, pos Position, c byte) (Token, Position, string) {
	switch r := l.runeAt(start); {
	case c < 0x80:
		l.off = start + 1
		l.error(start, "invalid character %q", rune(c))
	case r == utf8.RuneError && l.off == start+1:
		// Not UTF-8 (a Latin-1 file): the byte, as the other parsers
		// say it; %q gave '\ufffd', and the parser's "unexpected"
		// then read the byte as Latin-1 (robust7).
		l.error(start, "unexpected byte 0x%02x (not UTF-8 text)", c)
	default:
		l.error(start, "invalid character %q", r)
	}
	return ILLEGAL, pos, string(l.src[start:l.off])
}

// runeAt decodes the (possibly invalid) UTF-8 sequence at off and moves
// past it.
func (l *lexer) runeAt(off int) rune {
	r := []rune(string(l.src[off:min(off+4, len(l.src))]))
	if len(r) == 0 {
		return 0xFFFD
	}
	n := len(string(r[0]))
	if r[0] == 0xFFFD {
		n = 1
	}
	l.off = off + n
	return r[0]
}

// name scans the rest of a name started at start: letters, digits, '_',
// '.', '-', and an optional final quote.
func (l *lexer) name(start int) string {
	for l.off < len(l.src) && isNameByte(l.src[l.off]) {
		// "x->e" is x followed by an arrow, not the name "x-".
		if l.src[l.off] == '-' && l.off+1 < len(l.src) && l.src[l.off+1] == '>' {
			break
		}
		l.off++
	}
	if l.off < len(l.src) && l.src[l.off] == '\'' {
		l.off++
	}
	return string(l.src[start:l.off])
}
