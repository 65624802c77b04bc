package cat

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one error at a position of a model: file:line:col: message.
type Error struct {
	Pos Position
	Msg string

	traced bool // the call site of the innermost function is in Msg
	// Limit says the evaluator stopped at one of its own limits (a
	// recursion too deep, too many linearisations), not at an error of
	// the model.
	Limit bool
}

func (e *Error) Error() string {
	if e.Pos.IsValid() || e.Pos.Filename != "" {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of errors, as go/scanner.ErrorList.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Len, Swap and Less sort the list by file and position.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// Sort sorts the list by position.
func (l ErrorList) Sort() { sort.Sort(l) }

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == 10 {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-10)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns nil for an empty list, the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
