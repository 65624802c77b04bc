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
	formatCond(&b, c, precOr)
	return b.String()
}

func formatCond(b *strings.Builder, c Cond, prec int) {
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
		formatCond(b, c.L, precOr)
		b.WriteString(` \/ `)
		formatCond(b, c.R, precOr)
		if paren {
			b.WriteByte(')')
		}
	case And:
		paren := open(precAnd)
		formatCond(b, c.L, precAnd)
		b.WriteString(` /\ `)
		formatCond(b, c.R, precAnd)
		if paren {
			b.WriteByte(')')
		}
	case Not:
		b.WriteByte('~')
		formatCond(b, c.C, precUnary)
	case Bool:
		if c.V {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Atom:
		b.WriteString(c.Ref.String())
		b.WriteString(eqOp(c.Neq))
		b.WriteString(c.Val.String())
	case RefEq:
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
	herdCond(&b, c, precOr)
	return b.String()
}

func herdCond(b *strings.Builder, c Cond, prec int) {
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
		herdCond(b, c.L, precOr)
		b.WriteString(` \/ `)
		herdCond(b, c.R, precOr)
		if paren {
			b.WriteByte(')')
		}
	case And:
		paren := open(precAnd)
		herdCond(b, c.L, precAnd)
		b.WriteString(` /\ `)
		herdCond(b, c.R, precAnd)
		if paren {
			b.WriteByte(')')
		}
	case Not:
		b.WriteString("not (")
		herdCond(b, c.C, precOr)
		b.WriteByte(')')
	case Atom:
		if c.Neq {
			b.WriteString("not (")
		}
		b.WriteString(HerdRef(c.Ref))
		b.WriteByte('=')
		b.WriteString(c.Val.String())
		if c.Neq {
			b.WriteByte(')')
		}
	case RefEq:
		if c.Neq {
			b.WriteString("not (")
		}
		b.WriteString(HerdRef(c.L))
		b.WriteByte('=')
		b.WriteString(HerdRef(c.R))
		if c.Neq {
			b.WriteByte(')')
		}
	default:
		formatCond(b, c, prec)
	}
}
