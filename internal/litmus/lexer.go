package litmus

import (
	"bytes"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// tokKind is the kind of a token of the litmus skeleton.
type tokKind int

const (
	tEOF     tokKind = iota
	tIllegal         // a character no rule accepts
	tIdent           // x, EAX, P0, exists, uint64_t
	tInt             // 12, 0x1f
	tString          // "doc"
	tLBrace          // {
	tRBrace          // }
	tLParen          // (
	tRParen          // )
	tLBrack          // [
	tRBrack          // ]
	tSemi            // ;
	tColon           // :
	tComma           // ,
	tEq              // =
	tEqEq            // ==
	tNeq             // !=
	tAnd             // /\
	tOr              // \/
	tTilde           // ~
	tBar             // |
	tAmp             // &
	tStar            // *
	tMinus           // -
	tPlus            // +
	tDollar          // $
	tLShift          // <<
	tRShift          // >>
)

var tokNames = [...]string{
	tEOF: "end of file", tIllegal: "illegal character", tIdent: "identifier",
	tInt: "integer", tString: "string", tLBrace: "'{'", tRBrace: "'}'",
	tLParen: "'('", tRParen: "')'", tLBrack: "'['", tRBrack: "']'",
	tSemi: "';'", tColon: "':'", tComma: "','", tEq: "'='", tEqEq: "'=='",
	tNeq: "'!='", tAnd: `'/\'`, tOr: `'\/'`, tTilde: "'~'", tBar: "'|'",
	tAmp: "'&'", tStar: "'*'", tMinus: "'-'", tPlus: "'+'", tDollar: "'$'",
	tLShift: "'<<'", tRShift: "'>>'",
}

func (k tokKind) String() string {
	if int(k) < len(tokNames) {
		return tokNames[k]
	}
	return "token" + itoa(int(k))
}

// token is one lexeme with its byte offset. nl tells whether a newline
// (or a comment spanning lines) separates it from the previous token.
type token struct {
	kind tokKind
	text string
	off  int
	nl   bool
}

// describe names a token for messages: identifiers and numbers by their
// text, punctuation by its spelling.
func (t token) describe() string {
	switch t.kind {
	case tIdent, tInt:
		return quote(t.text)
	case tString:
		return "string " + t.text
	case tIllegal:
		return "character " + source.QuoteChar(t.text)
	}
	return t.kind.String()
}

func quote(s string) string { return `"` + s + `"` }

// scanner reads the bytes of a litmus file. It tokenizes the structured
// parts (header, init, conditions) and reads the raw text of the thread
// table's cells. Positions are byte offsets, turned into line:col on
// demand. Errors go to errh; after an error the scanner still makes
// progress, so the caller decides when to stop.
type scanner struct {
	file  string
	src   []byte
	lines *source.Lines
	off   int
	errh  func(off int, msg string)
}

func newScanner(file string, src []byte, errh func(int, string)) *scanner {
	return &scanner{file: file, src: src, lines: source.NewLines(file, src), errh: errh}
}

// pos turns a byte offset into a position (1-based line and byte column).
func (s *scanner) pos(off int) prog.Pos { return s.lines.Pos(off) }

func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

func (s *scanner) atEOF() bool { return s.off >= len(s.src) }

// atComment tells whether a comment "(*" starts at the current offset.
func (s *scanner) atComment() bool {
	return s.peekByte(0) == '(' && s.peekByte(1) == '*'
}

// skipComment skips a comment starting at the current offset; comments
// nest, as in OCaml. It reports whether the comment spans lines.
func (s *scanner) skipComment() (nl bool) {
	start := s.off
	depth := 0
	for s.off < len(s.src) {
		switch {
		case s.atComment():
			depth++
			s.off += 2
		case s.peekByte(0) == '*' && s.peekByte(1) == ')':
			depth--
			s.off += 2
			if depth == 0 {
				return nl
			}
		default:
			if s.src[s.off] == '\n' {
				nl = true
			}
			s.off++
		}
	}
	s.errh(start, "comment not terminated")
	return nl
}

// commentCloses tells whether the comment starting at the current offset
// is closed before the end of the source (comments nest).
func (s *scanner) commentCloses() bool {
	depth := 0
	for i := s.off; i+1 < len(s.src); i++ {
		switch {
		case s.src[i] == '(' && s.src[i+1] == '*':
			depth++
			i++
		case s.src[i] == '*' && s.src[i+1] == ')':
			depth--
			i++
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// skipSpace skips blanks, newlines and comments, and reports whether it
// crossed a line end.
func (s *scanner) skipSpace() (nl bool) {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == '\n':
			nl = true
			s.off++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case s.atComment():
			if s.skipComment() {
				nl = true
			}
		default:
			return nl
		}
	}
	return nl
}

// skipHeaderSpace skips blanks and newlines, not comments (the header
// reads those its own way), and reports whether it crossed a line end.
func (s *scanner) skipHeaderSpace() (nl bool) {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == '\n':
			nl = true
			s.off++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		default:
			return nl
		}
	}
	return nl
}

// skipBlanks skips blanks and comments up to the end of the line.
func (s *scanner) skipBlanks() {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case s.atComment():
			save := s.off
			if s.skipComment() {
				// A comment that spans lines ends the line for us; leave
				// it to skipSpace.
				s.off = save
				return
			}
		default:
			return
		}
	}
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentByte(c byte) bool { return isLetter(c) || isDigit(c) }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// next skips space and comments and returns the next token.
func (s *scanner) next() token {
	nl := s.skipSpace()
	t := token{off: s.off, nl: nl}
	if s.atEOF() {
		t.kind = tEOF
		return t
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		for s.off < len(s.src) && isIdentByte(s.src[s.off]) {
			s.off++
		}
		t.kind = tIdent
	case isDigit(c):
		if c == '0' && (s.peekByte(1) == 'x' || s.peekByte(1) == 'X') {
			s.off += 2
		}
		for s.off < len(s.src) && isIdentByte(s.src[s.off]) {
			s.off++
		}
		t.kind = tInt
	case c == '"':
		s.off++
		for s.off < len(s.src) && s.src[s.off] != '"' && s.src[s.off] != '\n' {
			s.off++
		}
		if s.off < len(s.src) && s.src[s.off] == '"' {
			s.off++
		} else {
			s.errh(t.off, "string not terminated")
		}
		t.kind = tString
	default:
		t.kind = s.punct(c)
	}
	t.text = string(s.src[t.off:s.off])
	return t
}

// puncts are the punctuation tokens, each before its prefixes.
var puncts = []source.Punct[tokKind]{
	{Text: "==", Kind: tEqEq}, {Text: "!=", Kind: tNeq}, {Text: "<>", Kind: tNeq}, {Text: "/\\", Kind: tAnd}, {Text: "\\/", Kind: tOr},
	{Text: "<<", Kind: tLShift}, {Text: ">>", Kind: tRShift},
	{Text: "{", Kind: tLBrace}, {Text: "}", Kind: tRBrace}, {Text: "(", Kind: tLParen}, {Text: ")", Kind: tRParen},
	{Text: "[", Kind: tLBrack}, {Text: "]", Kind: tRBrack}, {Text: ";", Kind: tSemi}, {Text: ":", Kind: tColon},
	{Text: ",", Kind: tComma}, {Text: "=", Kind: tEq}, {Text: "~", Kind: tTilde}, {Text: "|", Kind: tBar},
	{Text: "&", Kind: tAmp}, {Text: "*", Kind: tStar}, {Text: "-", Kind: tMinus}, {Text: "+", Kind: tPlus},
	{Text: "$", Kind: tDollar},
}

// punct scans a punctuation token starting with c.
func (s *scanner) punct(c byte) tokKind {
	if k, n := source.MatchPunct(s.src[s.off:], puncts); n > 0 {
		s.off += n
		return k
	}
	// One illegal byte (or a whole UTF-8 sequence, for the message).
	n := 1
	if c >= 0x80 {
		for n < 4 && s.off+n < len(s.src) && s.src[s.off+n]&0xC0 == 0x80 {
			n++
		}
	}
	s.off += n
	return tIllegal
}

// word reads a run of non-blank bytes (the test name).
func (s *scanner) word() string {
	start := s.off
	for s.off < len(s.src) && !isSpace(s.src[s.off]) {
		s.off++
	}
	return string(s.src[start:s.off])
}

// ident reads an identifier-like run (letters, digits, '_', and the bytes
// in extra).
func (s *scanner) ident(extra string) string {
	start := s.off
	for s.off < len(s.src) {
		c := s.src[s.off]
		if !isIdentByte(c) && strings.IndexByte(extra, c) < 0 {
			break
		}
		s.off++
	}
	return string(s.src[start:s.off])
}

// restOfLine reads up to the end of the line (not included) and returns
// the text without surrounding blanks.
func (s *scanner) restOfLine() string {
	start := s.off
	for s.off < len(s.src) && s.src[s.off] != '\n' {
		s.off++
	}
	return strings.TrimSpace(string(s.src[start:s.off]))
}

// upTo reads up to the byte c on the same line and consumes it. It reports
// false, leaving the offset at the line end, when c is missing.
func (s *scanner) upTo(c byte) (string, bool) {
	start := s.off
	for s.off < len(s.src) && s.src[s.off] != c && s.src[s.off] != '\n' {
		s.off++
	}
	if s.off < len(s.src) && s.src[s.off] == c {
		s.off++
		return string(s.src[start : s.off-1]), true
	}
	return string(s.src[start:s.off]), false
}

// cell reads one cell of the thread table: the text up to '|', ';' or
// the end of the line, comments removed and blanks trimmed. It returns
// the text, the offset where it starts (or where the cell starts when it
// is empty) and the byte that ended it: '|' and ';' are consumed, '\n'
// and 0 (end of file) are not.
func (s *scanner) cell() (text string, start int, term byte) {
	s.skipBlanks()
	start = s.off
	// Most cells hold no comment: their text is the source's bytes, made
	// a string at once rather than byte by byte.
	for !s.atEOF() {
		c := s.src[s.off]
		if c == '|' || c == ';' || c == '\n' || s.atComment() {
			break
		}
		s.off++
	}
	if s.atEOF() || !s.atComment() {
		text = strings.TrimRight(string(s.src[start:s.off]), " \t\r\f\v")
		term = 0
		if !s.atEOF() {
			term = s.src[s.off]
			if term != '\n' {
				s.off++
			}
		}
		return text, start, term
	}
	var b strings.Builder
	b.Write(s.src[start:s.off])
	for {
		if s.atEOF() {
			term = 0
			break
		}
		c := s.src[s.off]
		if c == '|' || c == ';' {
			s.off++
			term = c
			break
		}
		if c == '\n' {
			term = '\n'
			break
		}
		if s.atComment() {
			// A comment on one line becomes as many blanks, so that the
			// columns of what follows stay right.
			from := s.off
			if s.skipComment() {
				b.WriteByte(' ')
			} else {
				b.WriteString(strings.Repeat(" ", s.off-from))
			}
			continue
		}
		b.WriteByte(c)
		s.off++
	}
	text = strings.TrimRight(b.String(), " \t\r\f\v")
	trimmed := strings.TrimLeft(text, " \t")
	if len(trimmed) < len(text) && !strings.Contains(string(s.src[start:s.off]), "\n") {
		start += len(text) - len(trimmed) // a comment came first
		text = trimmed
	}
	return text, start, term
}

// skipBlock skips a "<< ... >>" block whose "<<" has been read.
func (s *scanner) skipBlock(start int) {
	i := bytes.Index(s.src[s.off:], []byte(">>"))
	if i < 0 {
		s.off = len(s.src)
		s.errh(start, "'<<' block not terminated")
		return
	}
	s.off += i + 2
}

// atWord tells whether the identifier w (case-sensitive) starts at the
// current offset and is not the prefix of a longer identifier.
func (s *scanner) atWord(w string) bool {
	end := s.off + len(w)
	if end > len(s.src) || string(s.src[s.off:end]) != w {
		return false
	}
	return end == len(s.src) || !isIdentByte(s.src[end])
}
