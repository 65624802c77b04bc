package litmus

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/musket-verify/musket/internal/prog"
)

// Error is a problem found at a position of a litmus file.
type Error struct {
	Pos prog.Pos
	Msg string
}

// Error prints the error as "file:line:col: msg".
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		if e.Pos.File != "" {
			return e.Pos.File + ": " + e.Msg
		}
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList is a list of positioned errors; Parse and the front-ends
// return one (as an error) when anything is wrong.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos prog.Pos, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// maxErrorLines bounds how many lines Error prints.
const maxErrorLines = 10

// Error prints every error, one a line (at most ten, then a count of the
// others).
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == maxErrorLines {
			b.WriteString("\n(and ")
			b.WriteString(itoa(len(l) - i))
			b.WriteString(" more errors)")
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Sort orders the list by position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// quoteChar shows the first character of s for a message: quoted as Go
// quotes a rune ('é', '\u00a0'), with its code point when it is not
// ASCII ('∧' U+2227), or as a byte when s does not start with valid
// UTF-8 (byte 0xff). Non-ASCII input is thus never shown as mojibake.
func quoteChar(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case n == 0:
		return "end of text"
	case r == utf8.RuneError && n == 1:
		return fmt.Sprintf("byte 0x%02x (not UTF-8)", s[0])
	case r < utf8.RuneSelf:
		return fmt.Sprintf("%q", r)
	}
	return fmt.Sprintf("%q (U+%04X)", r, r)
}

// notAReg ends a message about an operand that should be a register: a
// word in its place is named, as a register the architecture lacks.
func notAReg(arch, word string) string {
	if word == "" {
		return ""
	}
	return fmt.Sprintf(": %q is not a%s %s register", word, article(arch), arch)
}

func article(arch string) string {
	if arch != "" && strings.ContainsRune("AEIOU", rune(arch[0])) {
		return "n"
	}
	return ""
}

// symName is name when the operand is a word (isSym), else "".
func symName(isSym bool, name string) string {
	if isSym {
		return name
	}
	return ""
}
