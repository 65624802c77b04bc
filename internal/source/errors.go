package source

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Error is a problem found at a position of a source file.
type Error struct {
	Pos Pos
	Msg string
}

// Error prints the error as "file:line:col: msg" ("file: msg" without a
// line, only msg without a file either).
func (e *Error) Error() string {
	msg := ClipMessage(e.Msg)
	if e.Pos.Line == 0 {
		if e.Pos.File != "" {
			return e.Pos.File + ": " + msg
		}
		return msg
	}
	return e.Pos.String() + ": " + msg
}

// MaxMessage is the longest error message printed whole: a message that
// quotes a token of a hostile input (a 10 MB line) is cut in the middle.
const MaxMessage = 400

// ClipMessage cuts msg to about MaxMessage bytes, keeping its start and
// its end, and says how much was left out.
func ClipMessage(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	head, tail := msg[:MaxMessage/2], msg[len(msg)-MaxMessage/4:]
	return fmt.Sprintf("%s ...(%d bytes left out)... %s", strings.ToValidUTF8(head, ""), len(msg)-len(head)-len(tail), strings.ToValidUTF8(tail, ""))
}

// ErrorList is a list of positioned errors, as go/scanner.ErrorList; a
// front-end returns one (as an error) when anything is wrong.
type ErrorList []*Error

// Add appends an error at pos.
//
// It is never inlined: front-ends report errors from hundreds of places,
// and each inlined copy (an allocation, an append, write barriers) made
// their hot functions several times larger. In the playground's
// WebAssembly engine every copy is code V8's optimising compiler must
// compile on a page's first runs, which is what a first visit waits for.
//
//go:noinline
func (l *ErrorList) Add(pos Pos, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// MaxErrorLines bounds how many errors ErrorList.Error prints.
const MaxErrorLines = 10

// Error prints every error, one a line (at most MaxErrorLines, then a
// count of the others).
func (l ErrorList) Error() string {
	return FormatList(len(l), func(i int) string { return l[i].Error() })
}

// FormatList prints n error messages (msg(i) is the i-th) as an error
// list does: "no errors" for none, one a line, at most MaxErrorLines and
// then a count of the others. Front-ends with error types of their own
// (the CAT loader's) print through it.
func FormatList(n int, msg func(i int) string) string {
	switch n {
	case 0:
		return "no errors"
	case 1:
		return msg(0)
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i == MaxErrorLines {
			b.WriteString("\n(and ")
			b.WriteString(strconv.Itoa(n - i))
			b.WriteString(" more errors)")
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(msg(i))
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

// Sort orders the list by position (file, line, column), keeping the
// order of errors at one position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// Errorf is an *Error at pos whose message is formatted as fmt.Sprintf.
func Errorf(pos Pos, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// The front-ends begin the message of an error about a feature of the
// input that is valid but that Musket does not handle with "unsupported "
// (e.g. "unsupported mixed-size RISCV test: ..."); IsUnsupported tells
// such errors from errors of bad input.

// Unsupported tells whether e is about a feature Musket does not handle.
func (e *Error) Unsupported() bool { return strings.HasPrefix(e.Msg, "unsupported ") }

// IsUnsupported tells whether err is an *Error or an ErrorList that is
// only about features Musket does not handle (no error of bad input).
func IsUnsupported(err error) bool {
	var l ErrorList
	if errors.As(err, &l) {
		for _, x := range l {
			if !x.Unsupported() {
				return false
			}
		}
		return len(l) > 0
	}
	var e *Error
	return errors.As(err, &e) && e.Unsupported()
}
