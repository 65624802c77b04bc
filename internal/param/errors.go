package param

import (
	"sort"
	"strconv"
	"strings"
)

// Error is a problem found at a position of a .cub file.
type Error struct {
	Pos Pos
	Msg string
}

// Error prints the error as "file:line:col: msg".
func (e *Error) Error() string {
	if e.Pos.Line == 0 && e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList is a list of positioned errors.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

const maxErrorLines = 10

// Error prints the errors, one a line (at most ten).
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == maxErrorLines {
			b.WriteString("\n(and " + strconv.Itoa(len(l)-i) + " more errors)")
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l sorted by position as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}
