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

// ConditionLine prints the final condition as herd does after
// "Condition ": the quantifier, then the condition in parentheses
// ("exists (0:EAX=0 /\ 1:EAX=0)"). A test written with the old "final"
// form prints as exists.
func (t *Test) ConditionLine() string {
	return t.Quant.String() + " (" + FormatCond(t.Cond) + ")"
}
