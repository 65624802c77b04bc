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
// negations only.
func writeCond(b *strings.Builder, c Cond, prec int, herd bool) {
	open := func(p int) bool {
		if p < prec {
			b.WriteByte('(')
			return true
		}
		return false
	}
	switch c := c.(type) {
	case Or:
		paren := open(precOr)
		writeCond(b, c.L, precOr, herd)
		b.WriteString(` \/ `)
		writeCond(b, c.R, precOr, herd)
		if paren {
			b.WriteByte(')')
		}
	case And:
		paren := open(precAnd)
		writeCond(b, c.L, precAnd, herd)
		b.WriteString(` /\ `)
		writeCond(b, c.R, precAnd, herd)
		if paren {
			b.WriteByte(')')
		}
	case Not:
		if herd {
			b.WriteString("not (")
			writeCond(b, c.C, precOr, herd)
			b.WriteByte(')')
			return
		}
		b.WriteByte('~')
		writeCond(b, c.C, precUnary, herd)
	case Bool:
		if c.V {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Atom:
		if herd {
			herdEq(b, HerdRef(c.Ref), c.Val.String(), c.Neq)
			return
		}
		b.WriteString(c.Ref.String())
		b.WriteString(eqOp(c.Neq))
		b.WriteString(c.Val.String())
	case RefEq:
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
	case nil:
		b.WriteString("true")
	default:
		b.WriteString("?")
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
// old "final" form prints as exists.
func (t *Test) ConditionLine() string {
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
