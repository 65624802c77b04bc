package cat

import (
	"sort"

	srcpos "github.com/musket-verify/musket/internal/source"
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

// Add appends an error at pos. It is never inlined, for the reason
// source.ErrorList.Add gives.
//
//go:noinline
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{Pos: pos, Msg: msg}) }

// Sort sorts the list by position (file, line, column).
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Source().Before(l[j].Pos.Source()) })
}

// Error prints the errors one a line, as the other front-ends' lists do
// (srcpos.FormatList).
func (l ErrorList) Error() string {
	return srcpos.FormatList(len(l), func(i int) string { return l[i].Error() })
}

// Err returns nil for an empty list, the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
