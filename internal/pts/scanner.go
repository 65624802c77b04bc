package pts

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// token is the kind of a lexical token.
type token int

const (
	tEOF     token = iota
	tIllegal       // a character no rule accepts
	tIdent         // x, _rx, thread, while
	tInt           // 12, 0x1f
	tLBrace        // {
	tRBrace        // }
	tLParen        // (
	tRParen        // )
	tLBrack        // [
	tRBrack        // ]
	tComma         // ,
	tSemi          // ;
	tDot           // .
	tColon         // :
	tAssign        // =
	tArrow         // <-
	tEql           // ==
	tNeq           // !=
	tLss           // <
	tLeq           // <=
	tGtr           // >
	tGeq           // >=
	tAdd           // +
	tSub           // -
	tMul           // *
	tQuo           // /
	tRem           // %
	tLAnd          // &&
	tLOr           // ||
	tNot           // !
	tTilde         // ~
	tConj          // /\
	tDisj          // \/
)

var tokenNames = [...]string{
	tEOF: "end of file", tIllegal: "illegal character", tIdent: "identifier",
	tInt: "integer", tLBrace: "'{'", tRBrace: "'}'", tLParen: "'('",
	tRParen: "')'", tLBrack: "'['", tRBrack: "']'", tComma: "','",
	tSemi: "';'", tDot: "'.'", tColon: "':'", tAssign: "'='", tArrow: "'<-'",
	tEql: "'=='", tNeq: "'!='", tLss: "'<'", tLeq: "'<='", tGtr: "'>'",
	tGeq: "'>='", tAdd: "'+'", tSub: "'-'", tMul: "'*'", tQuo: "'/'",
	tRem: "'%'", tLAnd: "'&&'", tLOr: "'||'", tNot: "'!'", tTilde: "'~'",
	tConj: `'/\'`, tDisj: `'\/'`,
}

func (t token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// scanner splits a source into tokens, in the manner of go/scanner: Scan
// returns the offset, kind and text of the next token and reports lexical
// errors to the error handler.
type scanner struct {
	file  string
	src   []byte
	off   int           // offset of the next unread byte
	lines *source.Lines // for positions
	err   func(off int, msg string)
}

func newScanner(file string, src []byte, err func(off int, msg string)) *scanner {
	return &scanner{file: file, src: src, err: err, lines: source.NewLines(file, src)}
}

// pos converts an offset to a position; columns count bytes from 1.
func (s *scanner) pos(off int) prog.Pos { return s.lines.Pos(off) }

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// skip passes blanks and comments.
func (s *scanner) skip() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.off
			s.off += 2
			for {
				if s.off+1 >= len(s.src) {
					s.off = len(s.src)
					s.err(start, "comment not terminated")
					return
				}
				if s.src[s.off] == '*' && s.src[s.off+1] == '/' {
					s.off += 2
					break
				}
				s.off++
			}
		default:
			return
		}
	}
}

// puncts are the punctuation tokens, each before its prefixes.
var puncts = []source.Punct[token]{
	{Text: "==", Kind: tEql}, {Text: "!=", Kind: tNeq}, {Text: "<=", Kind: tLeq}, {Text: "<-", Kind: tArrow},
	{Text: ">=", Kind: tGeq}, {Text: "&&", Kind: tLAnd}, {Text: "||", Kind: tLOr}, {Text: "/\\", Kind: tConj},
	{Text: "\\/", Kind: tDisj},
	{Text: "{", Kind: tLBrace}, {Text: "}", Kind: tRBrace}, {Text: "(", Kind: tLParen}, {Text: ")", Kind: tRParen},
	{Text: "[", Kind: tLBrack}, {Text: "]", Kind: tRBrack}, {Text: ",", Kind: tComma}, {Text: ";", Kind: tSemi},
	{Text: ".", Kind: tDot}, {Text: ":", Kind: tColon}, {Text: "+", Kind: tAdd}, {Text: "-", Kind: tSub},
	{Text: "*", Kind: tMul}, {Text: "%", Kind: tRem}, {Text: "~", Kind: tTilde}, {Text: "=", Kind: tAssign},
	{Text: "!", Kind: tNot}, {Text: "<", Kind: tLss}, {Text: ">", Kind: tGtr}, {Text: "/", Kind: tQuo},
}

// scan returns the next token: its offset, kind and text.
func (s *scanner) scan() (int, token, string) {
	s.skip()
	start := s.off
	if s.off >= len(s.src) {
		return start, tEOF, ""
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		return start, tIdent, string(s.src[start:s.off])
	case isDigit(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		return start, tInt, string(s.src[start:s.off])
	}
	if k, n := source.MatchPunct(s.src[start:], puncts); n > 0 {
		s.off = start + n
		return start, k, string(s.src[start:s.off])
	}
	// An illegal character: report it whole, even when it is not ASCII.
	s.off = start
	r, size := utf8.DecodeRune(s.src[s.off:])
	s.off += size
	if r == utf8.RuneError && size == 1 {
		return start, tIllegal, fmt.Sprintf("byte %#x", c)
	}
	return start, tIllegal, strconv.QuoteRune(r)
}
