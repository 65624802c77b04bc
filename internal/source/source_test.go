package source

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPosString(t *testing.T) {
	for _, tc := range []struct {
		p    Pos
		want string
	}{
		{Pos{File: "a.litmus", Line: 3, Col: 7}, "a.litmus:3:7"},
		{Pos{Line: 3, Col: 7}, "3:7"},
		{Pos{}, "0:0"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	src := []byte("ab\n\ncd\ne")
	l := NewLines("f", src)
	for _, tc := range []struct {
		off       int
		line, col int
	}{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {4, 3, 1}, {6, 3, 3}, {7, 4, 1}, {8, 4, 2},
		{100, 4, 2}, // past the end: the end
	} {
		p := l.Pos(tc.off)
		if p != (Pos{File: "f", Line: tc.line, Col: tc.col}) {
			t.Errorf("Pos(%d) = %v, want f:%d:%d", tc.off, p, tc.line, tc.col)
		}
		if tc.off <= len(src) {
			if off, ok := l.Offset(p); !ok || off != tc.off {
				t.Errorf("Offset(%v) = %d, %v, want %d", p, off, ok, tc.off)
			}
		}
	}
	for _, p := range []Pos{{File: "g", Line: 1, Col: 1}, {File: "f", Line: 0, Col: 1}, {File: "f", Line: 5, Col: 1}, {File: "f", Line: 1, Col: 0}} {
		if _, ok := l.Offset(p); ok {
			t.Errorf("Offset(%v) ok, want not", p)
		}
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Pos{File: "x.pts", Line: 2, Col: 5}, "bad"}, "x.pts:2:5: bad"},
		{Error{Pos{Line: 2, Col: 5}, "bad"}, "2:5: bad"},
		{Error{Pos{File: "x.pts"}, "bad"}, "x.pts: bad"},
		{Error{Pos{}, "bad"}, "bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.e, got, tc.want)
		}
	}
	err := Errorf(Pos{File: "f", Line: 1, Col: 2}, "no thread P%d", 3)
	var e *Error
	if !errors.As(err, &e) || err.Error() != "f:1:2: no thread P3" {
		t.Errorf("Errorf: %T %v", err, err)
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil || l.Error() != "no errors" {
		t.Fatalf("empty list: %v %q", l.Err(), l.Error())
	}
	l.Add(Pos{File: "b", Line: 1, Col: 1}, "third")
	l.Add(Pos{File: "a", Line: 2, Col: 1}, "second")
	l.Add(Pos{File: "a", Line: 1, Col: 9}, "first")
	l.Add(Pos{File: "a", Line: 2, Col: 1}, "second, again")
	l.Sort()
	want := "a:1:9: first\na:2:1: second\na:2:1: second, again\nb:1:1: third"
	if got := l.Err().Error(); got != want {
		t.Errorf("sorted list:\n%s\nwant\n%s", got, want)
	}
	var one ErrorList
	one.Add(Pos{File: "a", Line: 1, Col: 1}, "only")
	if got := one.Error(); got != "a:1:1: only" {
		t.Errorf("one error: %q", got)
	}
	var many ErrorList
	for i := 1; i <= MaxErrorLines+3; i++ {
		many.Add(Pos{File: "m", Line: i, Col: 1}, fmt.Sprint("e", i))
	}
	lines := strings.Split(many.Error(), "\n")
	if len(lines) != MaxErrorLines+1 || lines[MaxErrorLines] != "(and 3 more errors)" || lines[0] != "m:1:1: e1" {
		t.Errorf("capped list: %q", lines)
	}
}

func TestQuoteChar(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "end of text"},
		{"a", "'a'"},
		{"∧x", "'∧' (U+2227)"},
		{"\xffz", "byte 0xff (not UTF-8)"},
	} {
		if got := QuoteChar(tc.in); got != tc.want {
			t.Errorf("QuoteChar(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMatchPunct(t *testing.T) {
	table := []Punct[int]{{"<=>", 3}, {"<=", 2}, {"<", 1}, {"=", 4}}
	for _, tc := range []struct {
		src     string
		kind, n int
	}{
		{"<=> x", 3, 3}, {"<= x", 2, 2}, {"<x", 1, 1}, {"<", 1, 1}, {"=<", 4, 1}, {"x<", 0, 0}, {"", 0, 0},
	} {
		if k, n := MatchPunct([]byte(tc.src), table); k != tc.kind || n != tc.n {
			t.Errorf("MatchPunct(%q) = %d, %d; want %d, %d", tc.src, k, n, tc.kind, tc.n)
		}
	}
	// Entries with the same first byte, and an empty entry (it matches
	// anything, with length 0, as before the first-byte check).
	table = []Punct[int]{{"ab", 5}, {"ac", 6}, {"", 7}}
	for _, tc := range []struct {
		src     string
		kind, n int
	}{
		{"ac", 6, 2}, {"abc", 5, 2}, {"a", 7, 0}, {"", 7, 0}, {"x", 7, 0},
	} {
		if k, n := MatchPunct([]byte(tc.src), table); k != tc.kind || n != tc.n {
			t.Errorf("MatchPunct(%q) = %d, %d; want %d, %d", tc.src, k, n, tc.kind, tc.n)
		}
	}
}

func TestClipMessage(t *testing.T) {
	long := "unknown instruction " + strings.Repeat("A", 10<<20)
	e := &Error{Pos: Pos{File: "f.litmus", Line: 3, Col: 1}, Msg: long}
	if got := e.Error(); len(got) > MaxMessage+100 || !strings.HasPrefix(got, "f.litmus:3:1: unknown instruction AAA") || !strings.Contains(got, "bytes left out") {
		t.Errorf("Error() of a 10 MB message: %d bytes: %.200s", len(got), got)
	}
	if got := ClipMessage("short"); got != "short" {
		t.Errorf("ClipMessage(short) = %q", got)
	}
}

// TestTooLargeText: the limit is spelled exactly (-max-input 10 read "0
// MiB" before).
func TestTooLargeText(t *testing.T) {
	for _, c := range []struct {
		limit int64
		want  string
	}{
		{10, "f: larger than the input limit of 10 bytes"},
		{1, "of 1 byte "},
		{2048, "of 2 KiB "},
		{64 << 20, "of 64 MiB "},
		{(1 << 20) + 1, "of 1048577 bytes "},
	} {
		if got := (&TooLargeError{Path: "f", Limit: c.limit}).Error(); !strings.Contains(got, c.want) {
			t.Errorf("limit %d: %q, want %q in it", c.limit, got, c.want)
		}
	}
}
