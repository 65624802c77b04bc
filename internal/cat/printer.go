package cat

import "strings"

// ExprString prints an expression fully parenthesised, so that its
// structure shows: (a | (b ; c)). It is meant for tests and messages.
func ExprString(e Expr) string {
	var b strings.Builder
	printExpr(&b, e)
	return b.String()
}

func printPattern(b *strings.Builder, p Pattern) {
	if !p.Tuple && p.Names[0] != "_" {
		b.WriteString(p.Names[0])
		return
	}
	b.WriteString("(" + strings.Join(p.Names, ", ") + ")")
}

func printBinds(b *strings.Builder, rec bool, binds []*Binding) {
	b.WriteString("let ")
	if rec {
		b.WriteString("rec ")
	}
	for i, bd := range binds {
		if i > 0 {
			b.WriteString(" and ")
		}
		printPattern(b, bd.Pat)
		b.WriteString(" = ")
		printExpr(b, bd.Value)
	}
}

func printList(b *strings.Builder, open, close string, es []Expr) {
	b.WriteString(open)
	for i, x := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		printExpr(b, x)
	}
	b.WriteString(close)
}

func printExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Ident:
		b.WriteString(e.Name)
	case *EmptyLit:
		b.WriteString("0")
	case *UniverseLit:
		b.WriteString("_")
	case *TagLit:
		b.WriteString("'" + e.Name)
	case *SetLit:
		printList(b, "{", "}", e.Elems)
	case *TupleLit:
		printList(b, "(", ")", e.Elems)
	case *UnaryExpr:
		switch e.Op {
		case OpCompl:
			b.WriteString("~")
			printExpr(b, e.X)
		case OpToID:
			b.WriteString("[")
			printExpr(b, e.X)
			b.WriteString("]")
		default:
			b.WriteString("(")
			printExpr(b, e.X)
			b.WriteString(")" + e.Op.String())
		}
	case *BinaryExpr:
		b.WriteString("(")
		printExpr(b, e.X)
		b.WriteString(" " + e.Op.String() + " ")
		printExpr(b, e.Y)
		b.WriteString(")")
	case *AppExpr:
		b.WriteString("(")
		printApp(b, e)
		b.WriteString(")")
	case *FunExpr:
		b.WriteString("(fun ")
		printPattern(b, e.Params)
		b.WriteString(" -> ")
		printExpr(b, e.Body)
		b.WriteString(")")
	case *LetExpr:
		b.WriteString("(")
		printBinds(b, e.Rec, e.Binds)
		b.WriteString(" in ")
		printExpr(b, e.Body)
		b.WriteString(")")
	case *IfExpr:
		b.WriteString("(if ")
		printCond(b, e.Cond)
		b.WriteString(" then ")
		printExpr(b, e.Then)
		b.WriteString(" else ")
		printExpr(b, e.Else)
		b.WriteString(")")
	case *TryExpr:
		b.WriteString("(try ")
		printExpr(b, e.X)
		b.WriteString(" with ")
		printExpr(b, e.Y)
		b.WriteString(")")
	case *MatchTagExpr:
		b.WriteString("(match ")
		printExpr(b, e.X)
		b.WriteString(" with")
		for _, c := range e.Clauses {
			b.WriteString(" || '" + c.Tag + " -> ")
			printExpr(b, c.Body)
		}
		if e.Default != nil {
			b.WriteString(" || _ -> ")
			printExpr(b, e.Default)
		}
		b.WriteString(" end)")
	case *MatchSetExpr:
		b.WriteString("(match ")
		printExpr(b, e.X)
		b.WriteString(" with || {} -> ")
		printExpr(b, e.Empty)
		b.WriteString(" || " + e.Elem + " ++ " + e.Rest + " -> ")
		printExpr(b, e.NonEmpty)
		b.WriteString(" end)")
	default:
		b.WriteString("?")
	}
}

// printCond prints a condition without parentheses, which conditions do
// not have: || is loosest, then &&, then not.
// printApp prints f a b as the parser reads it: a name applied to
// arguments, each an atom or in parentheses.
func printApp(b *strings.Builder, e *AppExpr) {
	if f, ok := e.Fun.(*AppExpr); ok {
		printApp(b, f)
	} else {
		printExpr(b, e.Fun)
	}
	b.WriteString(" ")
	// Everything prints as an atom or in parentheses but ~x and x*.
	if u, ok := e.Arg.(*UnaryExpr); ok && u.Op != OpToID {
		b.WriteString("(")
		printExpr(b, u)
		b.WriteString(")")
		return
	}
	printExpr(b, e.Arg)
}

func printCond(b *strings.Builder, c Cond) {
	switch c := c.(type) {
	case *VariantCond:
		b.WriteString(`"` + c.Name + `"`)
	case *NotCond:
		b.WriteString("not ")
		printCond(b, c.X)
	case *AndCond:
		printCond(b, c.X)
		b.WriteString(" && ")
		printCond(b, c.Y)
	case *OrCond:
		printCond(b, c.X)
		b.WriteString(" || ")
		printCond(b, c.Y)
	case *CompareCond:
		printExpr(b, c.X)
		b.WriteString(" " + c.Op.String() + " ")
		printExpr(b, c.Y)
	}
}
