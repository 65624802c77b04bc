package param

import (
	"fmt"

	"github.com/musket-verify/musket/internal/source"
)

// Pos is a position in a .cub file.
type Pos = source.Pos

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt    // 42
	tReal   // 4.2
	tProcID // #3
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tComma
	tSemi
	tColon
	tDot
	tBar
	tUnder
	tAssign // :=
	tEq     // =
	tNeq    // <>
	tLt
	tLe
	tGt
	tGe
	tAnd // &&
	tOr  // ||
	tImp // =>
	tIff // <=>
	tPlus
	tMinus
	tStar
	tAt
	tQMark // ?
	// keywords
	tType
	tVar
	tArray
	tConst
	tWeak
	tInit
	tUnsafe
	tInvariant
	tPredicate
	tTransition
	tRequires
	tCase
	tForallOther
	tExistsOther
	tNumberProcs
	tNot
	tIf
	tThen
	tElse
	tForall
	tExists
	tLet
	tIn
)

var keywords = map[string]tokKind{
	"type":         tType,
	"var":          tVar,
	"array":        tArray,
	"const":        tConst,
	"weak":         tWeak,
	"init":         tInit,
	"unsafe":       tUnsafe,
	"invariant":    tInvariant,
	"predicate":    tPredicate,
	"transition":   tTransition,
	"requires":     tRequires,
	"case":         tCase,
	"forall_other": tForallOther,
	"exists_other": tExistsOther,
	"number_procs": tNumberProcs,
	"not":          tNot,
	"if":           tIf,
	"then":         tThen,
	"else":         tElse,
	"forall":       tForall,
	"exists":       tExists,
	"let":          tLet,
	"in":           tIn,
}

var tokNames = map[tokKind]string{
	tEOF: "end of file", tIdent: "identifier", tInt: "integer", tReal: "real number",
	tProcID: "process constant", tLParen: "'('", tRParen: "')'", tLBrack: "'['",
	tRBrack: "']'", tLBrace: "'{'", tRBrace: "'}'", tComma: "','", tSemi: "';'",
	tColon: "':'", tDot: "'.'", tBar: "'|'", tUnder: "'_'", tAssign: "':='",
	tEq: "'='", tNeq: "'<>'", tLt: "'<'", tLe: "'<='", tGt: "'>'", tGe: "'>='",
	tAnd: "'&&'", tOr: "'||'", tImp: "'=>'", tIff: "'<=>'", tPlus: "'+'",
	tMinus: "'-'", tStar: "'*'", tAt: "'@'", tQMark: "'?'",
}

func (k tokKind) String() string {
	if s, ok := tokNames[k]; ok {
		return s
	}
	for w, kk := range keywords {
		if kk == k {
			return "'" + w + "'"
		}
	}
	return fmt.Sprintf("token(%d)", int(k))
}

// token is one lexical token.
type token struct {
	kind tokKind
	pos  Pos
	text string
}
