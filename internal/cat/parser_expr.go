package cat

// The expressions of CAT and the conditions of if.

// parseCond parses the condition of an if: || binds looser than &&,
// which binds looser than not.
func (p *parser) parseCond() Cond {
	x := p.parseCondAnd()
	for p.tok == ALT {
		p.next()
		x = &OrCond{X: x, Y: p.parseCondAnd()}
	}
	return x
}

func (p *parser) parseCondAnd() Cond {
	x := p.parseCondNot()
	for p.tok == LAND {
		p.next()
		x = &AndCond{X: x, Y: p.parseCondNot()}
	}
	return x
}

func (p *parser) parseCondNot() Cond {
	p.enter()
	defer p.leave()
	if p.tok == IDENT && p.lit == "not" {
		p.next()
		return &NotCond{X: p.parseCondNot()}
	}
	if p.tok == STRING {
		c := &VariantCond{At: p.pos, Name: p.lit}
		p.next()
		return c
	}
	if p.tok == IDENT && p.lit == "variant" && p.peek() == STRING {
		p.next()
		c := &VariantCond{At: p.pos, Name: p.lit}
		p.next()
		return c
	}
	pos := p.pos
	x := p.parseUnion()
	switch p.tok {
	case EQ, SUBSET, IN:
		op := p.tok
		p.next()
		return &CompareCond{At: pos, Op: op, X: x, Y: p.parseUnion()}
	}
	p.unexpected("'=', 'subset' or 'in' in condition")
	return nil
}

// parseExpr parses a full expression.
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case LET:
		p.next()
		e := &LetExpr{At: pos}
		if p.tok == REC {
			e.Rec = true
			p.next()
		}
		e.Binds = p.parseBindings()
		p.expect(IN)
		e.Body = p.parseExpr()
		return e
	case FUN:
		p.next()
		var params Pattern
		if p.tok == LPAREN {
			params = p.parseFormals()
		} else {
			params = single(p.pat0())
		}
		p.expect(ARROW)
		return &FunExpr{At: pos, Params: params, Body: p.parseExpr()}
	case TRY:
		p.next()
		x := p.parseExpr()
		p.expect(WITH)
		return &TryExpr{At: pos, X: x, Y: p.parseExpr()}
	case IF:
		p.next()
		c := p.parseCond()
		p.expect(THEN)
		x := p.parseExpr()
		p.expect(ELSE)
		return &IfExpr{At: pos, Cond: c, Then: x, Else: p.parseExpr()}
	}
	return p.parseUnion()
}

// Binary operators, loosest first: | (right), ++ (right), ; (right),
// \ (left), & (right), * (cartesian product); then prefix ~, postfix
// * + ? ^-1 ^+ ^*, and application, which binds tightest.

func (p *parser) parseUnion() Expr { return p.parseRight(BAR, OpUnion, p.parseAdd) }

func (p *parser) parseAdd() Expr { return p.parseRight(ADD, OpAdd, p.parseSeq) }

func (p *parser) parseSeq() Expr { return p.parseRight(SEMI, OpSeq, p.parseDiff) }

func (p *parser) parseDiff() Expr {
	x := p.parseInter()
	for p.tok == BACKSLASH {
		pos := p.pos
		p.next()
		x = &BinaryExpr{At: pos, Op: OpDiff, X: x, Y: p.parseInter()}
	}
	return x
}

func (p *parser) parseInter() Expr { return p.parseRight(AMP, OpInter, p.parseCross) }

// parseRight parses operands separated by tok, grouped to the right, with
// a loop: a union of thousands of terms takes no parser stack (only
// parentheses and prefix operators nest, up to maxDepth).
func (p *parser) parseRight(tok Token, op Op, operand func() Expr) Expr {
	x := operand()
	if p.tok != tok {
		return x
	}
	terms := []Expr{x}
	var ops []Position
	for p.tok == tok {
		ops = append(ops, p.pos)
		p.next()
		terms = append(terms, operand())
	}
	y := terms[len(terms)-1]
	for i := len(terms) - 2; i >= 0; i-- {
		y = &BinaryExpr{At: ops[i], Op: op, X: terms[i], Y: y}
	}
	return y
}

func (p *parser) parseCross() Expr {
	x := p.parseUnary()
	for p.tok == STAR && startsOperand(p.peek()) {
		pos := p.pos
		p.next()
		x = &BinaryExpr{At: pos, Op: OpCross, X: x, Y: p.parseUnary()}
	}
	return x
}

func (p *parser) parseUnary() Expr {
	if p.tok == TILDE {
		p.enter()
		defer p.leave()
		pos := p.pos
		p.next()
		return &UnaryExpr{At: pos, Op: OpCompl, X: p.parseUnary()}
	}
	return p.parsePostfix()
}

func (p *parser) parsePostfix() Expr {
	x := p.parseApp()
	for {
		pos := p.pos
		switch p.tok {
		case STAR:
			if startsOperand(p.peek()) {
				return x // a cartesian product
			}
			p.next()
			x = &UnaryExpr{At: pos, Op: OpStar, X: x}
		case PLUS:
			p.next()
			x = &UnaryExpr{At: pos, Op: OpPlus, X: x}
		case QUEST:
			p.next()
			x = &UnaryExpr{At: pos, Op: OpOpt, X: x}
		case INV: // old models write r -1 for r^-1
			p.next()
			x = &UnaryExpr{At: pos, Op: OpInv, X: x}
		case HAT:
			p.next()
			switch p.tok {
			case INV:
				x = &UnaryExpr{At: pos, Op: OpInv, X: x}
			case PLUS:
				x = &UnaryExpr{At: pos, Op: OpPlus, X: x}
			case STAR:
				x = &UnaryExpr{At: pos, Op: OpStar, X: x}
			default:
				p.unexpected("-1, + or * after ^")
			}
			p.next()
		default:
			return x
		}
	}
}

// startsArg tells whether t can start an argument of an application.
func startsArg(t Token) bool {
	switch t {
	case IDENT, ZERO, TAG, UNDERSCORE, LBRACE, LPAREN, BEGIN, LBRACK:
		return true
	}
	return false
}

// startsOperand tells whether t can start the right operand of a binary
// `*`; otherwise `*` is the postfix closure.
func startsOperand(t Token) bool { return startsArg(t) || t == TILDE || t == MATCH }

func (p *parser) parseApp() Expr {
	x := p.parsePrimary()
	switch x.(type) {
	case *Ident:
	default:
		return x
	}
	pos := x.Pos()
	for startsArg(p.tok) {
		arg := p.parseArg()
		x = &AppExpr{At: pos, Fun: x, Arg: arg}
	}
	return x
}

// parseArg parses an argument: a name or a simple expression.
func (p *parser) parseArg() Expr {
	if p.tok == IDENT {
		e := &Ident{At: p.pos, Name: p.lit}
		p.next()
		return e
	}
	return p.parseSimple()
}

func (p *parser) parsePrimary() Expr {
	switch p.tok {
	case IDENT:
		e := &Ident{At: p.pos, Name: p.lit}
		p.next()
		return e
	case MATCH:
		return p.parseMatchExpr()
	}
	return p.parseSimple()
}

func (p *parser) parseSimple() Expr {
	pos := p.pos
	switch p.tok {
	case ZERO:
		p.next()
		return &EmptyLit{At: pos}
	case UNDERSCORE:
		p.next()
		return &UniverseLit{At: pos}
	case TAG:
		e := &TagLit{At: pos, Name: p.lit}
		p.next()
		return e
	case LBRACE:
		p.next()
		e := &SetLit{At: pos, Elems: p.parseExprList(RBRACE)}
		p.expect(RBRACE)
		return e
	case LBRACK:
		p.next()
		x := p.parseExpr()
		p.expect(RBRACK)
		return &UnaryExpr{At: pos, Op: OpToID, X: x}
	case BEGIN:
		p.next()
		x := p.parseExpr()
		p.expect(END)
		return x
	case LPAREN:
		p.next()
		if p.tok == RPAREN {
			p.next()
			return &TupleLit{At: pos}
		}
		x := p.parseExpr()
		if p.tok == COMMA {
			t := &TupleLit{At: pos, Elems: []Expr{x}}
			for p.tok == COMMA {
				p.next()
				t.Elems = append(t.Elems, p.parseExpr())
			}
			p.expect(RPAREN)
			return t
		}
		p.expect(RPAREN)
		return x
	}
	p.unexpected("an expression")
	return nil
}

// parseExprList parses `e, e, ...` (possibly empty) up to stop.
func (p *parser) parseExprList(stop Token) []Expr {
	var list []Expr
	if p.tok == stop {
		return list
	}
	list = append(list, p.parseExpr())
	for p.tok == COMMA {
		p.next()
		list = append(list, p.parseExpr())
	}
	return list
}

// parseMatchExpr parses a match on tags or on a set.
func (p *parser) parseMatchExpr() Expr {
	pos := p.expect(MATCH)
	x := p.parseExpr()
	p.expect(WITH)
	if p.tok == ALT {
		p.next()
	}
	if p.tok == LBRACE || (p.tok == IDENT || p.tok == UNDERSCORE) && p.peek() == ADD {
		m := &MatchSetExpr{At: pos, X: x}
		var haveEmpty, haveElem bool
		for {
			if p.tok == LBRACE {
				if haveEmpty {
					p.errorf(p.pos, "duplicate {} clause")
				}
				p.next()
				p.expect(RBRACE)
				p.expect(ARROW)
				m.Empty = p.parseExpr()
				haveEmpty = true
			} else {
				if haveElem {
					p.errorf(p.pos, "duplicate element clause")
				}
				m.Elem = p.pat0()
				p.expect(ADD)
				m.Rest = p.pat0()
				p.expect(ARROW)
				m.NonEmpty = p.parseExpr()
				haveElem = true
			}
			if p.tok != ALT {
				break
			}
			p.next()
		}
		if !haveEmpty || !haveElem {
			p.errorf(pos, "a match on a set needs a {} clause and an e ++ s clause")
		}
		p.expect(END)
		return m
	}
	m := &MatchTagExpr{At: pos, X: x}
	for {
		if p.tok == UNDERSCORE {
			p.next()
			p.expect(ARROW)
			m.Default = p.parseExpr()
		} else {
			if p.tok != TAG {
				p.unexpected("a tag, _, {} or e ++ s")
			}
			tag := p.lit
			p.next()
			p.expect(ARROW)
			m.Clauses = append(m.Clauses, TagClause{Tag: tag, Body: p.parseExpr()})
		}
		if p.tok != ALT {
			break
		}
		p.next()
	}
	p.expect(END)
	return m
}
