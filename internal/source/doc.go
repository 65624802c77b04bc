// Package source holds what every front-end needs about its input text,
// as Go's go/token and go/scanner do for Go: a position (Pos: file, line,
// column), the line table that turns a byte offset into a position
// (Lines), and a list of positioned errors (ErrorList) that prints one
// "file:line:col: message" a line, sorted by position on request, and at
// most ten before "(and N more errors)". Lexers find their punctuation
// tokens in a table with MatchPunct.
//
// The litmus dialects, the .pts language, the loop invariants of package
// prove and the Gharachorloo comparison report their errors with it; a
// Pos is the same type as prog.Pos (an alias), so instructions carry it.
package source
