package param

import "fmt"

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
			start := l.pos()
			depth := 0
			for {
				if l.off >= len(l.src) {
					l.errs.Add(start, "comment not terminated")
					return
				}
				if l.src[l.off] == '(' && l.peekByte(1) == '*' {
					depth++
					l.advance()
					l.advance()
					continue
				}
				if l.src[l.off] == '*' && l.peekByte(1) == ')' {
					depth--
					l.advance()
					l.advance()
					if depth == 0 {
						break
					}
					continue
				}
				l.advance()
			}
		default:
			return
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
	c := l.src[l.off]
	start := l.off
	switch {
	case isLetter(c):
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
	case isDigit(c):
		for l.off < len(l.src) && isDigit(l.src[l.off]) {
			l.advance()
		}
		kind := tInt
		if l.off < len(l.src) && l.src[l.off] == '.' && isDigit(l.peekByte(1)) {
			kind = tReal
			l.advance()
			for l.off < len(l.src) && isDigit(l.src[l.off]) {
				l.advance()
			}
		}
		return token{kind: kind, pos: p, text: string(l.src[start:l.off])}
	case c == '#':
		l.advance()
		if !isDigit(l.peekByte(0)) {
			l.errs.Add(p, "'#' must be followed by a process number")
			return l.next()
		}
		for l.off < len(l.src) && isDigit(l.src[l.off]) {
			l.advance()
		}
		return token{kind: tProcID, pos: p, text: string(l.src[start+1 : l.off])}
	}
	two := func(k tokKind) token {
		l.advance()
		l.advance()
		return token{kind: k, pos: p, text: string(l.src[start:l.off])}
	}
	one := func(k tokKind) token {
		l.advance()
		return token{kind: k, pos: p, text: string(l.src[start:l.off])}
	}
	n := l.peekByte(1)
	switch c {
	case '(':
		return one(tLParen)
	case ')':
		return one(tRParen)
	case '[':
		return one(tLBrack)
	case ']':
		return one(tRBrack)
	case '{':
		return one(tLBrace)
	case '}':
		return one(tRBrace)
	case ',':
		return one(tComma)
	case ';':
		return one(tSemi)
	case '.':
		return one(tDot)
	case '@':
		return one(tAt)
	case '+':
		return one(tPlus)
	case '-':
		if n == '>' {
			return two(tImp)
		}
		return one(tMinus)
	case '*':
		return one(tStar)
	case ':':
		if n == '=' {
			return two(tAssign)
		}
		return one(tColon)
	case '|':
		if n == '|' {
			return two(tOr)
		}
		return one(tBar)
	case '&':
		if n == '&' {
			return two(tAnd)
		}
	case '=':
		if n == '>' {
			return two(tImp)
		}
		return one(tEq)
	case '<':
		if n == '>' {
			return two(tNeq)
		}
		if n == '=' {
			if l.peekByte(2) == '>' {
				l.advance()
				return two(tIff)
			}
			return two(tLe)
		}
		return one(tLt)
	case '>':
		if n == '=' {
			return two(tGe)
		}
		return one(tGt)
	}
	l.advance()
	l.errs.Add(p, fmt.Sprintf("unexpected character %q", rune(c)))
	return l.next()
}
