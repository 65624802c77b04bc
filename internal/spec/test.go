// Package spec holds what a check is asked, independent of the front-end
// that read it: a test (its threads in the program IR, initial state,
// observed locations) and its final condition (quantifier, proposition
// over final values, references to registers and locations). Front-ends
// (litmus, pts, C) produce a Test; engines and reports consume it.
package spec

import (
	"github.com/musket-verify/musket/internal/prog"
	"strings"
)

// Test is a parsed litmus test.
type Test struct {
	File  string
	Arch  string // as written in the header: "X86", "PPC", "AArch64", "C", ...
	Name  string
	Alias string            // the optional "(alias)" after the name
	Doc   string            // the optional quoted line
	Meta  map[string]string // key=value lines of the header
	// Hash is the digest herd7 prints as the test's Hash= line
	// (package herdhash); empty when it is not known.
	Hash string

	Init    []InitEntry // in source order
	Threads []*prog.Thread

	Locations []Ref // the 'locations [...]' list
	Filter    Cond  // nil when absent
	Quant     Quant
	Cond      Cond

	// Mixed is set when the front-end modelled access sizes: the test's
	// locations are split into chunks (AArch64 mixed-size tests; see
	// aarch64_mixed.go). Chunks names the chunks of each split location
	// (their locations, e.g. "x" and "x+4", and offsets) so that final
	// values can be shown whole.
	Mixed bool
	// MinAccess is, for a mixed-size test, the size in bytes of its
	// smallest access, before the accesses were split into chunks.
	MinAccess int64
	Chunks    map[string][]Chunk
	// Cells are the array cells "a[i]" that the condition of a
	// mixed-size assembly test observes: the array and the cell's bytes
	// (Chunk.Loc is the array's name).
	Cells map[string]Chunk
	// CondLine is, for a test whose front-end rewrote Cond (a mixed-size
	// test's on chunks, a register's constants at the register's type),
	// the condition line as the test states it; "" otherwise.
	CondLine string
	// WholeArrays are the arrays a condition atom compares whole
	// ("t={1,3}"), with their numbers of cells: the final states show
	// their cells as one value, as herd prints them ("t={1,3};").
	WholeArrays map[string]int
}

// Chunk is a chunk of a location split by a mixed-size test: its bytes
// Off..Off+Size-1, which are the location named Loc.
type Chunk struct {
	Loc       string
	Off, Size int64
}

// InitEntry is one assignment of the initial state.
type InitEntry struct {
	Ref  Ref
	Val  prog.Value
	Type string // declared type if any ("int", "uint64_t", "int*", ...)
	Pos  prog.Pos
	// Elems are the initial values of the cells of an array of an
	// assembly test ("int x[2] = {1,2};"), in order; nil when none are
	// given. (A C test's cells are locations of their own.)
	Elems []prog.Value
}

// Ref names a register of a thread (Thread >= 0) or a shared location
// (Thread == -1).
type Ref struct {
	Thread int
	Name   string
}

// IsReg tells whether r names a register.
func (r Ref) IsReg() bool { return r.Thread >= 0 }

// String prints r as herd does: "0:EAX" or "x".
func (r Ref) String() string {
	if r.Thread >= 0 {
		return itoa(r.Thread) + ":" + r.Name
	}
	// Cell i of a C array is the location "a+i"; herd7 writes it a[i].
	if i := strings.LastIndexByte(r.Name, '+'); i > 0 && isDecimal(r.Name[i+1:]) {
		return r.Name[:i] + "[" + r.Name[i+1:] + "]"
	}
	return r.Name
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// Quant is the quantifier of the final condition.
type Quant int

// The quantifiers of a final condition.
const (
	Exists    Quant = iota // exists: some execution satisfies Cond
	NotExists              // ~exists: no execution satisfies Cond
	Forall                 // forall: every execution satisfies Cond
)

func (q Quant) String() string {
	switch q {
	case NotExists:
		return "~exists"
	case Forall:
		return "forall"
	}
	return "exists"
}

// Cond is a proposition over final values.
type Cond interface{ isCond() }

// And is L /\ R.
type And struct{ L, R Cond }

// Or is L \/ R.
type Or struct{ L, R Cond }

// Not is ~C.
type Not struct{ C Cond }

// Bool is true or false.
type Bool struct{ V bool }

// Atom compares the final value of Ref with Val: "0:EAX=1", "x=2",
// "[x]=2", "0:r1=x" (an address). Neq is true for "!=".
type Atom struct {
	Ref Ref
	Val prog.Value
	Neq bool
}

// RefEq compares the final values of two refs: "x=y", "0:r1=1:r2".
type RefEq struct {
	L, R Ref
	Neq  bool
}

func (And) isCond()   {}
func (Or) isCond()    {}
func (Not) isCond()   {}
func (Bool) isCond()  {}
func (Atom) isCond()  {}
func (RefEq) isCond() {}

// Refs lists every Ref a condition mentions, in order of appearance, each
// once.
func Refs(c Cond) []Ref {
	var out []Ref
	seen := map[Ref]bool{}
	add := func(r Ref) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	var walk func(Cond)
	walk = func(c Cond) {
		switch c := c.(type) {
		case And:
			walk(c.L)
			walk(c.R)
		case Or:
			walk(c.L)
			walk(c.R)
		case Not:
			walk(c.C)
		case Atom:
			add(c.Ref)
		case RefEq:
			add(c.L)
			add(c.R)
		}
	}
	if c != nil {
		walk(c)
	}
	return out
}

// Eval decides c given the final value of each ref.
func Eval(c Cond, val func(Ref) prog.Value) bool {
	switch c := c.(type) {
	case And:
		return Eval(c.L, val) && Eval(c.R, val)
	case Or:
		return Eval(c.L, val) || Eval(c.R, val)
	case Not:
		return !Eval(c.C, val)
	case Bool:
		return c.V
	case Atom:
		return (val(c.Ref) == c.Val) != c.Neq
	case RefEq:
		return (val(c.L) == val(c.R)) != c.Neq
	}
	return false
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
