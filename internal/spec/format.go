package spec

import "strings"

// Precedence levels for printing.
const (
	precOr = iota + 1
	precAnd
	precUnary
)

// FormatCond prints c as herd prints conditions: "\/" and "/\" between
// operands, "~" for negation, parentheses only where precedence needs
// them (so "0:EAX=0 /\ (1:EAX=1 \/ 1:EAX=0) \/ 0:EAX=1 /\ 1:EAX=0").
// Memory atoms print as "x=1"; a comparison of two final values prints
// its right-hand location in brackets ("x=[y]") so that the text parses
// back to the same condition.
func FormatCond(c Cond) string {
	var b strings.Builder
	writeCond(&b, c, precOr, false)
	return b.String()
}

// writeCond prints c at precedence prec, in Musket's notation or, with
// herd, in herd7 7.58's (see HerdCond); the two differ in atoms and
// negations only. Each kind of condition is printed by a function of its
// own, never inlined: one function with them all inlined was 17.7 KB of
// WebAssembly, which the browser's optimising compiler compiled on the
// playground's first runs.
func writeCond(b *strings.Builder, c Cond, prec int, herd bool) {
	switch c := c.(type) {
	case Or:
		writeBinary(b, c.L, c.R, ` \/ `, precOr, prec, herd)
	case And:
		writeBinary(b, c.L, c.R, ` /\ `, precAnd, prec, herd)
	case Not:
		writeNot(b, c, herd)
	case Bool:
		if c.V {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Atom:
		writeAtom(b, c, herd)
	case RefEq:
		writeRefEq(b, c, herd)
	case nil:
		b.WriteString("true")
	default:
		b.WriteString("?")
	}
}

// writeBinary prints l op r, whose operator binds at level p, at
// precedence prec: in parentheses when p binds less tightly.
//
//go:noinline
func writeBinary(b *strings.Builder, l, r Cond, op string, p, prec int, herd bool) {
	paren := p < prec
	if paren {
		b.WriteByte('(')
	}
	writeCond(b, l, p, herd)
	b.WriteString(op)
	writeCond(b, r, p, herd)
	if paren {
		b.WriteByte(')')
	}
}

//go:noinline
func writeNot(b *strings.Builder, c Not, herd bool) {
	if herd {
		b.WriteString("not (")
		writeCond(b, c.C, precOr, herd)
		b.WriteByte(')')
		return
	}
	b.WriteByte('~')
	writeCond(b, c.C, precUnary, herd)
}

//go:noinline
func writeAtom(b *strings.Builder, c Atom, herd bool) {
	if herd {
		herdEq(b, HerdRef(c.Ref), c.Val.String(), c.Neq)
		return
	}
	b.WriteString(c.Ref.String())
	b.WriteString(eqOp(c.Neq))
	b.WriteString(c.Val.String())
}

//go:noinline
func writeRefEq(b *strings.Builder, c RefEq, herd bool) {
	if herd {
		herdEq(b, HerdRef(c.L), HerdRef(c.R), c.Neq)
		return
	}
	b.WriteString(c.L.String())
	b.WriteString(eqOp(c.Neq))
	if c.R.IsReg() {
		b.WriteString(c.R.String())
	} else {
		b.WriteString("[" + c.R.Name + "]")
	}
}

// herdEq prints l=r as herd7 does, "not (l=r)" for a disequality.
func herdEq(b *strings.Builder, l, r string, neq bool) {
	if neq {
		b.WriteString("not (")
	}
	b.WriteString(l)
	b.WriteByte('=')
	b.WriteString(r)
	if neq {
		b.WriteByte(')')
	}
}

func eqOp(neq bool) string {
	if neq {
		return "!="
	}
	return "="
}

// ConditionLine prints the final condition as herd7 7.58 does after
// "Condition ": the quantifier, then the condition in parentheses
// ("exists (0:EAX=0 /\ [x]=1)", see HerdCond). A test written with the
// old "final" form prints as exists. A front-end that rewrote the
// condition (on chunks, or a register's constants at its type) keeps the
// line as the test wrote it in t.CondLine, which is then the answer.
func (t *Test) ConditionLine() string {
	if t.CondLine != "" {
		return t.CondLine
	}
	return t.Quant.String() + " (" + HerdCond(t.Cond) + ")"
}

// HerdRef prints r as herd7 7.58 prints it in final states and
// conditions: a register as "0:EAX", a shared location in brackets
// ("[x]"), a cell of a C array as "a[1]".
func HerdRef(r Ref) string {
	s := r.String()
	if r.IsReg() || strings.HasSuffix(s, "]") {
		return s
	}
	return "[" + s + "]"
}

// HerdCond prints c as herd7 7.58 prints the condition of its logs:
// locations in brackets, "not (...)" for a negation (and for "!="), the
// fewest parentheses otherwise ("0:EAX=0 /\ ([x]=1 \/ [x]=2)").
func HerdCond(c Cond) string {
	var b strings.Builder
	writeCond(&b, c, precOr, true)
	return b.String()
}
