// Package lazyre holds regular expressions that are compiled on their
// first use rather than when the program starts.
//
// A package-level regexp.MustCompile runs in every process that links
// the package, whatever command it runs: the musket binary links every
// front end, so the regular expressions of the litmus, C and fix
// packages cost each short `musket param` run several milliseconds
// before main starts. A *Regexp has the methods of *regexp.Regexp that
// the packages use, and compiles its expression once, when one of them
// is first called (safe for concurrent use). A malformed expression
// panics then, as regexp.MustCompile would at start-up.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns the regular expression expr, not yet compiled.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// The methods below are those of regexp.Regexp.

func (r *Regexp) Match(b []byte) bool        { return r.Re().Match(b) }
func (r *Regexp) MatchString(s string) bool  { return r.Re().MatchString(s) }
func (r *Regexp) FindString(s string) string { return r.Re().FindString(s) }
func (r *Regexp) FindIndex(b []byte) []int   { return r.Re().FindIndex(b) }
func (r *Regexp) FindStringIndex(s string) []int {
	return r.Re().FindStringIndex(s)
}
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindSubmatch(b []byte) [][]byte { return r.Re().FindSubmatch(b) }
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Re().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.Re().ReplaceAll(src, repl) }
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.Re().ReplaceAllFunc(src, repl)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) SubexpNames() []string { return r.Re().SubexpNames() }
func (r *Regexp) NumSubexp() int        { return r.Re().NumSubexp() }
