package param

import (
	"fmt"
	"strings"
	"testing"
)

// lexAll lists the tokens of src as kind:text@line:col, and the errors.
func lexAll(src string) string {
	var errs ErrorList
	l := newLexer("t.cub", []byte(src), &errs)
	var out []string
	for {
		t := l.next()
		if t.kind == tEOF {
			break
		}
		out = append(out, fmt.Sprintf("%d:%s@%d:%d", t.kind, t.text, t.pos.Line, t.pos.Col))
	}
	for _, e := range errs {
		out = append(out, "error "+e.Error())
	}
	return strings.Join(out, " ")
}

func TestLexerTokens(t *testing.T) {
	tests := []struct{ src, want string }{
		{"var X : int", fmt.Sprintf("%d:var@1:1 %d:X@1:5 %d::@1:7 %d:int@1:9", tVar, tIdent, tColon, tIdent)},
		{"x' _ a_1", fmt.Sprintf("%d:x'@1:1 %d:_@1:4 %d:a_1@1:6", tIdent, tUnder, tIdent)},
		// "4." is a real, as in Cubicle's lexer (digits '.' digits*)
		{"12 3.5 4. #7", fmt.Sprintf("%d:12@1:1 %d:3.5@1:4 %d:4.@1:8 %d:7@1:11", tInt, tReal, tReal, tProcID)},
		{"( ) [ ] { } , ; . @ + - * :", fmt.Sprintf("%d:(@1:1 %d:)@1:3 %d:[@1:5 %d:]@1:7 %d:{@1:9 %d:}@1:11 %d:,@1:13 %d:;@1:15 %d:.@1:17 %d:@@1:19 %d:+@1:21 %d:-@1:23 %d:*@1:25 %d::@1:27",
			tLParen, tRParen, tLBrack, tRBrack, tLBrace, tRBrace, tComma, tSemi, tDot, tAt, tPlus, tMinus, tStar, tColon)},
		{"-> := || | && => = <> <=> <= < >= >", fmt.Sprintf("%d:->@1:1 %d::=@1:4 %d:||@1:7 %d:|@1:10 %d:&&@1:12 %d:=>@1:15 %d:=@1:18 %d:<>@1:20 %d:<=>@1:23 %d:<=@1:27 %d:<@1:30 %d:>=@1:32 %d:>@1:35",
			tImp, tAssign, tOr, tBar, tAnd, tImp, tEq, tNeq, tIff, tLe, tLt, tGe, tGt)},
		{"a (* c (* nested *) *)\n b", fmt.Sprintf("%d:a@1:1 %d:b@2:2", tIdent, tIdent)},
		{"a & b", fmt.Sprintf("%d:a@1:1 %d:b@1:5 error t.cub:1:3: unexpected character '&'", tIdent, tIdent)},
		// A character beyond ASCII is one error, named as written.
		{"a Ä b", fmt.Sprintf("%d:a@1:1 %d:b@1:5 error t.cub:1:3: unexpected character 'Ä' (U+00C4)", tIdent, tIdent)},
		{"a \xff b", fmt.Sprintf("%d:a@1:1 %d:b@1:5 error t.cub:1:3: unexpected byte 0xff (not UTF-8 text)", tIdent, tIdent)},
		{"# 1", fmt.Sprintf("%d:1@1:3 error t.cub:1:1: '#' must be followed by a process number", tInt)},
		{"a (* open", fmt.Sprintf("%d:a@1:1 error t.cub:1:3: comment not terminated", tIdent)},
	}
	for _, tc := range tests {
		if got := lexAll(tc.src); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}
