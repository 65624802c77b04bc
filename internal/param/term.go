package param

import (
	"fmt"
	"strconv"
	"strings"
)

// SortKind is the kind of a value sort.
type SortKind uint32 // 32 bits: Sort has no padding (see Term)

// The sorts of values.
const (
	SBool SortKind = iota
	SInt
	SReal
	SProc
	SEnum
	SAbs // an abstract type (no constructors): equality only
)

// Sort is the sort of a term; Enum indexes System.Enums for SEnum and
// SAbs.
type Sort struct {
	Kind SortKind
	Enum int32
}

func (s Sort) numeric() bool { return s.Kind == SInt || s.Kind == SReal }

// Rat is a normalised rational (Den > 0, gcd 1); the zero value is not
// valid, use rat(n, d).
type Rat struct{ Num, Den int64 }

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func rat(n, d int64) Rat {
	if d < 0 {
		n, d = -n, -d
	}
	if d == 0 {
		d = 1
	}
	g := gcd(n, d)
	if g > 1 {
		n, d = n/g, d/g
	}
	return Rat{n, d}
}

func (r Rat) add(s Rat) Rat { return rat(r.Num*s.Den+s.Num*r.Den, r.Den*s.Den) }
func (r Rat) neg() Rat      { return Rat{-r.Num, r.Den} }
func (r Rat) isZero() bool  { return r.Num == 0 }
func (r Rat) cmp(s Rat) int {
	a, b := r.Num*s.Den, s.Num*r.Den
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (r Rat) String() string {
	if r.Den == 1 {
		return strconv.FormatInt(r.Num, 10)
	}
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// TermKind is the kind of a term of a cube.
type TermKind uint32 // 32 bits: Term has no padding

// The kinds of terms. Slots are the (existentially quantified, pairwise
// distinct) process variables of a cube; in templates (transitions, init,
// unsafe) negative slot numbers stand for parameters.
const (
	KBool TermKind = iota // Sym: 0 false, 1 true
	KEnum                 // Sym: constructor, Sort.Enum: type
	KNum                  // Off: the value
	KSlot                 // Sym: slot
	KVar                  // non-weak global or array cell: Sym global, Args
	KVal                  // value read by an unsatisfied weak read: Node, Proc, Sym, Args
	KInit                 // initial value of a weak global (safety test)
	KLin                  // linear combination of atoms (lin.go): Sym names it
)

// maxArity bounds the number of process indices of an array.
const maxArity = 3

// Term is a term of a literal: a constant, a slot, or an atom (array
// cell, weak read value) plus a numeric offset Off (for int and real
// atoms). Terms are comparable values.
//
// Its fields leave no padding (nor do those of Sort and Lit): the
// maps keyed by terms and literals then hash and compare them as plain
// memory, which the fixpoint test and the normalisation of cubes do
// millions of times.
type Term struct {
	Kind  TermKind
	Sort  Sort
	Sym   int32
	NArgs int32
	Args  [maxArity]int32
	Node  int32
	Proc  int32
	Off   Rat
}

func boolTerm(b bool) Term {
	t := Term{Kind: KBool, Sort: Sort{Kind: SBool}, Off: Rat{0, 1}}
	if b {
		t.Sym = 1
	}
	return t
}

func numTerm(r Rat, s Sort) Term { return Term{Kind: KNum, Sort: s, Off: r} }

func slotTerm(s int32) Term {
	return Term{Kind: KSlot, Sort: Sort{Kind: SProc}, Sym: s, Off: Rat{0, 1}}
}

func (t Term) isConst() bool { return t.Kind == KBool || t.Kind == KEnum || t.Kind == KNum }

// isAtom reports whether t is an unknown of the cube (not a constant nor
// a slot).
func (t Term) isAtom() bool { return t.Kind == KVar || t.Kind == KVal || t.Kind == KInit }

// base is t without its offset.
func (t Term) base() Term {
	t.Off = Rat{0, 1}
	return t
}

// Op is a comparison.
type Op uint64 // 64 bits: Lit has no padding (see Term)

// The comparisons of literals.
const (
	Eq Op = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var opNames = [...]string{"=", "<>", "<", "<=", ">", ">="}

func (o Op) String() string { return opNames[o] }

func (o Op) negate() Op { return [...]Op{Ne, Eq, Ge, Gt, Le, Lt}[o] }
func (o Op) flip() Op   { return [...]Op{Eq, Ne, Gt, Ge, Lt, Le}[o] }

// Lit is a literal "L op R". Normal form (see mkLit): the offset is on
// the right only, a constant is never on the left when the right is not
// constant, integer strict comparisons are turned into non-strict ones,
// and for = and <> the two sides are ordered.
type Lit struct {
	Op   Op
	L, R Term
}

// litResult is the outcome of normalising a literal.
type litResult uint8

const (
	litOpen  litResult = iota // a real literal
	litTrue                   // trivially true
	litFalse                  // trivially false
)

func cmpTerm(a, b Term) int {
	if a.Kind != b.Kind {
		return int(a.Kind) - int(b.Kind)
	}
	if a.Sym != b.Sym {
		return int(a.Sym - b.Sym)
	}
	if a.Node != b.Node {
		return int(a.Node - b.Node)
	}
	if a.Proc != b.Proc {
		return int(a.Proc - b.Proc)
	}
	for i := 0; i < maxArity; i++ {
		if a.Args[i] != b.Args[i] {
			return int(a.Args[i] - b.Args[i])
		}
	}
	if c := a.Off.cmp(b.Off); c != 0 {
		return c
	}
	return int(a.Sort.Enum - b.Sort.Enum)
}

func cmpLit(a, b Lit) int {
	if a.Op != b.Op {
		return int(a.Op) - int(b.Op)
	}
	if c := cmpTerm(a.L, b.L); c != 0 {
		return c
	}
	return cmpTerm(a.R, b.R)
}

// evalOp compares two constants.
func evalOp(op Op, a, b Term) bool {
	var c int
	if a.Kind == KNum {
		c = a.Off.cmp(b.Off)
	} else {
		c = int(a.Sym - b.Sym)
		if a.Kind == KSlot && c != 0 && op != Eq && op != Ne {
			// order of distinct slots is unknown: callers never ask
			c = int(a.Sym - b.Sym)
		}
	}
	switch op {
	case Eq:
		return c == 0
	case Ne:
		return c != 0
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	}
	return c >= 0
}

func rank(t Term) int {
	switch {
	case t.isAtom():
		return 0
	case t.Kind == KSlot:
		return 1
	}
	return 2
}

// before orders the two sides of a literal: atoms, then slots, then
// constants, and by cmpTerm inside a rank.
func before(a, b Term) bool {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return ra < rb
	}
	return cmpTerm(a.base(), b.base()) < 0
}

// mkLit builds the normal form of "l op r".
func mkLit(op Op, l, r Term) (Lit, litResult) {
	nl, res, _ := mkLitExact(op, l, r)
	return nl, res
}

// mkLitExact is mkLit; exact is false when the literal was dropped
// (litTrue) because its numbers grow past ratLimit, which weakens a
// cube: a pre-image must then not count as a proof of a path.
func mkLitExact(op Op, l, r Term) (nl Lit, res litResult, exact bool) {
	if l.isConst() && r.isConst() {
		if evalOp(op, l, r) {
			return Lit{}, litTrue, true
		}
		return Lit{}, litFalse, true
	}
	if l.Kind == KLin || r.Kind == KLin {
		d, ok := linearOf(l).plus(linearOf(r), Rat{-1, 1})
		if !ok {
			return Lit{}, litTrue, false // numbers too large: dropped, which only weakens a cube
		}
		nl, res = linLit(op, d, linSort(l.Sort, r.Sort))
		return nl, res, true
	}
	// the offset goes to the right side
	if !l.isConst() && !l.Off.isZero() {
		r.Off = r.Off.add(l.Off.neg())
		l.Off = Rat{0, 1}
	}
	if l.base() == r.base() && !r.isConst() {
		if evalOp(op, numTerm(Rat{0, 1}, l.Sort), numTerm(r.Off, l.Sort)) {
			return Lit{}, litTrue, true
		}
		return Lit{}, litFalse, true
	}
	if l.Kind == KSlot && r.Kind == KSlot && (op == Eq || op == Ne) {
		// distinct slots are distinct processes
		if op == Ne {
			return Lit{}, litTrue, true
		}
		return Lit{}, litFalse, true
	}
	if !before(l, r) {
		// x op y + k  <=>  y op' x - k
		k := r.Off
		r.Off = Rat{0, 1}
		l, r = r, l
		if r.isConst() {
			r.Off = r.Off.add(k.neg())
		} else {
			r.Off = k.neg()
		}
		if l.isConst() { // r was a constant: "c op x+k"
			l, r = r, l
		}
		op = op.flip()
	}
	if l.Sort.Kind == SInt {
		switch op {
		case Lt:
			op = Le
			r.Off = r.Off.add(Rat{-1, 1})
		case Gt:
			op = Ge
			r.Off = r.Off.add(Rat{1, 1})
		}
	}
	if l.Sort.Kind == SBool && r.Kind == KBool && op == Ne {
		op = Eq
		r.Sym = 1 - r.Sym
	}
	return Lit{Op: op, L: l, R: r}, litOpen, true
}

// negLit is the negation of a literal in normal form.
func negLit(l Lit) (Lit, litResult) { return mkLit(l.Op.negate(), l.L, l.R) }

// numeric reports whether the literal needs arithmetic or order reasoning.
func (l Lit) numeric() bool {
	return l.L.Sort.numeric() || (l.Op != Eq && l.Op != Ne)
}

// String prints a term with the names of sys.
func (sys *System) termString(t Term) string {
	var b strings.Builder
	off := func() {
		if !t.Off.isZero() && t.Kind != KNum {
			if t.Off.Num > 0 {
				b.WriteString(" + " + t.Off.String())
			} else {
				b.WriteString(" - " + t.Off.neg().String())
			}
		}
	}
	args := func() {
		if t.NArgs > 0 {
			b.WriteByte('[')
			for i := 0; i < int(t.NArgs); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(slotName(t.Args[i]))
			}
			b.WriteByte(']')
		}
	}
	switch t.Kind {
	case KBool:
		if t.Sym == 1 {
			return "True"
		}
		return "False"
	case KEnum:
		return sys.Enums[t.Sort.Enum].Ctors[t.Sym]
	case KNum:
		return t.Off.String()
	case KSlot:
		return slotName(t.Sym)
	case KVar:
		b.WriteString(sys.Globals[t.Sym].Name)
		args()
	case KVal:
		fmt.Fprintf(&b, "%s@%s", slotName(t.Proc), sys.Globals[t.Sym].Name)
		args()
		fmt.Fprintf(&b, "{e%d}", t.Node)
	case KInit:
		b.WriteString(sys.Globals[t.Sym].Name)
		args()
		b.WriteString("₀")
	case KLin:
		b.WriteString(sys.linString(t))
	}
	off()
	return b.String()
}

func slotName(s int32) string {
	if s < 0 {
		return "$" + strconv.Itoa(int(-s))
	}
	return "#" + strconv.Itoa(int(s))
}

func (sys *System) litString(l Lit) string {
	return sys.termString(l.L) + " " + l.Op.String() + " " + sys.termString(l.R)
}
