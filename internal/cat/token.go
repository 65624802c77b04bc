package cat

import (
	"fmt"

	srcpos "github.com/musket-verify/musket/internal/source"
)

// Position is a place in a model source file, as go/token.Position.
type Position struct {
	Filename string
	Offset   int // byte offset, from 0
	Line     int // from 1
	Column   int // from 1, in bytes
}

// Source is p as the other front-ends' positions (package source), for
// sorting and printing with them.
func (p Position) Source() srcpos.Pos {
	return srcpos.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

// IsValid tells whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String prints file:line:col (or line:col without a file name).
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Token is a lexical token of the CAT language.
type Token int

// The tokens of the CAT language.
const (
	ILLEGAL Token = iota
	EOF

	IDENT  // po-loc, fence.r.r, _RMW
	TAG    // 'acq
	STRING // "cos-opt"

	ZERO       // 0
	UNDERSCORE // _
	LPAREN     // (
	RPAREN     // )
	LBRACE     // {
	RBRACE     // }
	LBRACK     // [
	RBRACK     // ]
	BAR        // |
	ALT        // ||
	AMP        // &
	LAND       // &&
	STAR       // *
	PLUS       // +
	ADD        // ++
	QUEST      // ?
	TILDE      // ~
	HAT        // ^
	INV        // -1 (after ^)
	BACKSLASH  // \
	SEMI       // ;
	COMMA      // ,
	EQ         // =
	ARROW      // ->

	keywordBeg
	LET
	REC
	AND
	IN
	AS
	FUN
	ACYCLIC
	IRREFLEXIVE
	EMPTY
	SHOW
	UNSHOW
	INCLUDE
	PROCEDURE
	CALL
	FORALL
	DO
	FROM
	WITH
	TRY
	IF
	THEN
	ELSE
	MATCH
	BEGIN
	END
	ENUM
	FLAG
	UNDEFINED // undefined_unless
	ASSERT
	WHEN
	DEBUG
	INSTRUCTIONS
	DEFAULT
	SUBSET
	CATDEP
	keywordEnd
)

var tokenNames = [...]string{
	ILLEGAL:      "ILLEGAL",
	EOF:          "end of file",
	IDENT:        "identifier",
	TAG:          "tag",
	STRING:       "string",
	ZERO:         "0",
	UNDERSCORE:   "_",
	LPAREN:       "(",
	RPAREN:       ")",
	LBRACE:       "{",
	RBRACE:       "}",
	LBRACK:       "[",
	RBRACK:       "]",
	BAR:          "|",
	ALT:          "||",
	AMP:          "&",
	LAND:         "&&",
	STAR:         "*",
	PLUS:         "+",
	ADD:          "++",
	QUEST:        "?",
	TILDE:        "~",
	HAT:          "^",
	INV:          "-1",
	BACKSLASH:    "\\",
	SEMI:         ";",
	COMMA:        ",",
	EQ:           "=",
	ARROW:        "->",
	LET:          "let",
	REC:          "rec",
	AND:          "and",
	IN:           "in",
	AS:           "as",
	FUN:          "fun",
	ACYCLIC:      "acyclic",
	IRREFLEXIVE:  "irreflexive",
	EMPTY:        "empty",
	SHOW:         "show",
	UNSHOW:       "unshow",
	INCLUDE:      "include",
	PROCEDURE:    "procedure",
	CALL:         "call",
	FORALL:       "forall",
	DO:           "do",
	FROM:         "from",
	WITH:         "with",
	TRY:          "try",
	IF:           "if",
	THEN:         "then",
	ELSE:         "else",
	MATCH:        "match",
	BEGIN:        "begin",
	END:          "end",
	ENUM:         "enum",
	FLAG:         "flag",
	UNDEFINED:    "undefined_unless",
	ASSERT:       "assert",
	WHEN:         "when",
	DEBUG:        "debug",
	INSTRUCTIONS: "instructions",
	DEFAULT:      "default",
	SUBSET:       "subset",
	CATDEP:       "catdep",
}

// String names the token as it is written.
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// IsKeyword tells whether t is a reserved word.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

var keywords map[string]Token

func init() {
	keywords = make(map[string]Token, keywordEnd-keywordBeg)
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		keywords[tokenNames[t]] = t
	}
}

// Lookup maps an identifier to its keyword token, or IDENT.
func Lookup(name string) Token {
	if t, ok := keywords[name]; ok {
		return t
	}
	return IDENT
}
