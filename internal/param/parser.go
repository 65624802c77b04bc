package param

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxDepth bounds the nesting of expressions so that no input can exhaust
// the stack.
const maxDepth = 500

// parser is a recursive-descent parser for .cub files. On a syntax error it
// records the error and skips to the next declaration.
type parser struct {
	lex   *lexer
	tok   token
	errs  ErrorList
	depth int
	file  *File
	// inCaseCond is set while a case condition is parsed, where a ':'
	// ends the condition rather than reading a weak variable (p: X).
	inCaseCond bool
}

// bailout is panicked (and recovered in Parse) to leave a declaration.
type bailout struct{}

// Parse parses the .cub source src read from file name.
func Parse(name string, src []byte) (*File, error) {
	p := &parser{file: &File{Name: name}}
	p.lex = newLexer(name, src, &p.errs)
	p.next()
	for p.tok.kind != tEOF {
		before := p.tok.pos
		p.declaration()
		if p.tok.pos == before && p.tok.kind != tEOF {
			p.next() // never loop without progress
		}
	}
	p.errs.Sort()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return p.file, nil
}

func (p *parser) next() { p.tok = p.lex.next() }

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs.Add(pos, fmt.Sprintf(format, args...))
	panic(bailout{})
}

func (p *parser) expect(k tokKind) token {
	t := p.tok
	if t.kind != k {
		p.errorf(t.pos, "expected %v, found %s", k, describe(t))
	}
	p.next()
	return t
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent, tInt, tReal:
		return fmt.Sprintf("%q", t.text)
	case tProcID:
		return "#" + t.text
	}
	return t.kind.String()
}

func (p *parser) ident() Ident {
	t := p.expect(tIdent)
	return Ident{Pos: t.pos, Name: t.text}
}

// index parses an array index: a process variable, or a process
// constant #k (Cubicle's proc_name), kept as the name "#k".
func (p *parser) index() Ident {
	if p.tok.kind == tProcID {
		t := p.tok
		p.next()
		return Ident{Pos: t.pos, Name: "#" + t.text}
	}
	return p.ident()
}

// isDeclStart reports whether k starts a declaration.
func isDeclStart(k tokKind) bool {
	switch k {
	case tType, tVar, tArray, tConst, tWeak, tInit, tUnsafe, tInvariant,
		tPredicate, tTransition, tNumberProcs, tEOF:
		return true
	}
	return false
}

// declaration parses one top-level declaration, recovering from errors by
// skipping to the next declaration keyword.
func (p *parser) declaration() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.depth = 0
			for {
				p.next()
				if isDeclStart(p.tok.kind) || isLocalWeak(p.tok) {
					return
				}
			}
		}
	}()
	t := p.tok
	switch t.kind {
	case tType:
		p.typeDecl()
	case tVar, tArray, tConst, tWeak:
		p.globalDecl()
	case tInit, tUnsafe, tInvariant:
		p.next()
		f := &Formula{Pos: t.pos}
		if p.tok.kind == tLParen {
			f.Params = p.paramList()
		}
		p.expect(tLBrace)
		f.Body = p.expr()
		p.expect(tRBrace)
		switch t.kind {
		case tInit:
			p.file.Inits = append(p.file.Inits, f)
		case tUnsafe:
			p.file.Unsafes = append(p.file.Unsafes, f)
		default:
			p.file.Invariants = append(p.file.Invariants, f)
		}
	case tPredicate:
		p.next()
		d := &PredicateDecl{Pos: t.pos, Name: p.ident().Name}
		if p.tok.kind == tLParen {
			d.Params = p.paramList()
		}
		p.expect(tLBrace)
		d.Body = p.expr()
		p.expect(tRBrace)
		p.file.Predicates = append(p.file.Predicates, d)
	case tNumberProcs:
		p.next()
		n := p.expect(tInt)
		v, err := strconv.Atoi(n.text)
		switch {
		case err != nil && errors.Is(err, strconv.ErrRange) || err == nil && v > math.MaxInt32:
			// Processes are int32 in the search and the explorer: a
			// larger number was narrowed (4294967297 became 1, the
			// forward decision then explored one process only).
			p.errorf(n.pos, "limit reached: number_procs %s: Musket handles at most %d processes", n.text, math.MaxInt32)
			v = 0
		case err != nil || v <= 0:
			p.errorf(n.pos, "bad number of processes %q", n.text)
		}
		p.file.NumberProcs = v
	case tTransition:
		p.transition()
	default:
		if isLocalWeak(t) {
			p.globalDecl()
			return
		}
		if t.kind == tIdent && devDirectives[t.text] {
			// Cubicle's repository: trans_regexp (examples/challenges/
			// hhtest.cub; the other directives in comments) of
			// development branches, good (examples/germanish4.cub) of an
			// earlier grammar; their meaning for the search is not
			// documented
			p.errorf(t.pos, "unsupported: %s (a declaration of a development or earlier Cubicle version, not in its current grammar); remove it", t.text)
		}
		p.errorf(t.pos, "expected a declaration, found %s", describe(t))
	}
}

// isLocalWeak reports whether t is "local_weak", the declaration of a
// weak array of an early Cubicle-W version whose cell A[p] only process p
// writes (checked in check.go, localWeakWrite).
func isLocalWeak(t token) bool { return t.kind == tIdent && t.text == "local_weak" }

// devDirectives are the declarations of Cubicle development branches
// that Musket refuses by name.
var devDirectives = map[string]bool{"good": true, "trans_regexp": true, "meta_transition": true, "universal_transition": true, "hide_transition": true}

func (p *parser) typeDecl() {
	pos := p.expect(tType).pos
	d := &TypeDecl{Pos: pos, Name: p.ident().Name}
	if p.tok.kind == tEq {
		p.next()
		if p.tok.kind == tBar {
			p.next()
		}
		d.Ctors = append(d.Ctors, p.ident())
		for p.tok.kind == tBar {
			p.next()
			d.Ctors = append(d.Ctors, p.ident())
		}
	}
	p.file.Types = append(p.file.Types, d)
}

func (p *parser) globalDecl() {
	d := &GlobalDecl{Pos: p.tok.pos}
	if p.tok.kind == tWeak || isLocalWeak(p.tok) {
		d.Weak = true
		d.Local = isLocalWeak(p.tok)
		p.next()
	}
	switch p.tok.kind {
	case tVar:
		d.Kind = GVar
	case tArray:
		d.Kind = GArray
	case tConst:
		d.Kind = GConst
		if d.Weak {
			p.errorf(p.tok.pos, "a constant cannot be weak")
		}
	default:
		p.errorf(p.tok.pos, "expected 'var' or 'array' after 'weak', found %s", describe(p.tok))
	}
	p.next()
	d.Name = p.ident().Name
	if p.tok.kind == tLBrack {
		if d.Kind == GVar {
			p.errorf(p.tok.pos, "a var has no index; declare an array")
		}
		p.next()
		d.Indices = append(d.Indices, p.ident())
		for p.tok.kind == tComma {
			p.next()
			d.Indices = append(d.Indices, p.ident())
		}
		p.expect(tRBrack)
	} else if d.Kind == GArray {
		p.errorf(p.tok.pos, "expected '[' after the name of an array, found %s", describe(p.tok))
	}
	if d.Kind == GConst && p.tok.kind == tEq {
		// examples/arith of Cubicle's repository (tmp.cub, 10.cub): a
		// development branch's named number, in no released grammar
		p.errorf(p.tok.pos, "unsupported: const %s = value (a named number of a Cubicle development branch); declare const %s : int and fix its value in init, or write the number", d.Name, d.Name)
	}
	p.expect(tColon)
	d.Type = p.ident()
	p.file.Globals = append(p.file.Globals, d)
}

// paramList parses "(i j k)" (commas allowed).
func (p *parser) paramList() []Ident {
	p.expect(tLParen)
	var ps []Ident
	for p.tok.kind != tRParen {
		ps = append(ps, p.ident())
		if p.tok.kind == tComma {
			p.next()
		}
	}
	p.next()
	return ps
}

func (p *parser) transition() {
	pos := p.expect(tTransition).pos
	d := &TransDecl{Pos: pos, Name: p.ident().Name, Actor: -1}
	p.expect(tLParen)
	for p.tok.kind != tRParen {
		if p.tok.kind == tLBrack {
			bp := p.tok.pos
			p.next()
			if d.Actor >= 0 {
				p.errorf(bp, "transition %s has two [.] parameters", d.Name)
			}
			d.Actor = len(d.Params)
			d.Params = append(d.Params, p.ident())
			p.expect(tRBrack)
		} else {
			d.Params = append(d.Params, p.ident())
		}
		if p.tok.kind == tComma {
			p.next()
		}
	}
	p.next()
	// An early Cubicle-W grammar puts the fence after the parameters:
	// "transition t ([p]) fence (p) requires { … }", the same as a
	// fence in the guard.
	var fence Expr
	if p.tok.kind == tIdent && p.tok.text == "fence" {
		fence = p.primary()
	}
	if p.tok.kind == tIdent && p.tok.text == "fences" {
		// early Cubicle-W: "fences (p)" (early.go)
		p.next()
		p.expect(tLParen)
		d.Fences = p.primary()
		p.expect(tRParen)
	}
	if p.tok.kind == tIdent && p.tok.text == "require" && fence == nil && d.Fences == nil {
		p.oldTransition(d) // oldsyntax.go
		return
	}
	if p.tok.kind == tRequires {
		p.next()
		p.expect(tLBrace)
		d.Guard = p.expr()
		p.expect(tRBrace)
	}
	if fence != nil {
		if d.Guard == nil {
			d.Guard = fence
		} else {
			d.Guard = &BinExpr{Pos: d.Guard.exprPos(), Op: OpAnd, L: fence, R: d.Guard}
		}
	}
	p.expect(tLBrace)
	for p.tok.kind == tLet {
		p.next()
		l := Let{Name: p.ident()}
		p.expect(tEq)
		l.Value = p.arith()
		p.expect(tIn)
		d.Lets = append(d.Lets, l)
	}
	d.Actions = append(d.Actions, p.actions("an action")...)
	p.file.Transitions = append(p.file.Transitions, d)
}

// actions reads actions separated by ';' up to and including the closing
// '}' of their block; what names one in the error for a bad separator.
func (p *parser) actions(what string) []*Action {
	var as []*Action
	for p.tok.kind != tRBrace {
		as = append(as, p.action())
		if p.tok.kind == tSemi {
			p.next()
			continue
		}
		if p.tok.kind != tRBrace {
			p.errorf(p.tok.pos, "expected ';' or '}' after %s, found %s", what, describe(p.tok))
		}
	}
	p.next()
	return as
}

func (p *parser) action() *Action {
	a := &Action{Pos: p.tok.pos, Name: p.ident()}
	if a.Name.Name == "write" && p.tok.kind == tLParen {
		return p.earlyWrite(a.Pos)
	}
	if p.tok.kind == tLBrack {
		p.next()
		a.Index = append(a.Index, p.index())
		for p.tok.kind == tComma {
			p.next()
			a.Index = append(a.Index, p.index())
		}
		p.expect(tRBrack)
	}
	p.expect(tAssign)
	a.Rhs = p.assignedValue()
	return a
}

// assignedValue parses what an assignment writes: a term, a case, or
// "." / "?" (a value chosen nondeterministically; Cubicle reads
// "X := ." and "X := ?" alike).
func (p *parser) assignedValue() Expr {
	switch p.tok.kind {
	case tDot, tQMark:
		e := &NondetExpr{Pos: p.tok.pos}
		p.next()
		return e
	case tCase:
		return p.caseExpr()
	}
	return p.expr()
}

// earlyWrite parses the rest of "write(p, X, e)" or "write(p, A[i], e)"
// (e may be a case), an action of early Cubicle-W (early.go).
func (p *parser) earlyWrite(pos Pos) *Action {
	p.expect(tLParen)
	a := &Action{Pos: pos, By: p.primary()}
	p.expect(tComma)
	a.Name = p.ident()
	if p.tok.kind == tLBrack {
		a.Index = p.indexList()
	}
	p.expect(tComma)
	a.Rhs = p.assignedValue()
	p.expect(tRParen)
	return a
}

func (p *parser) caseExpr() Expr {
	c := &CaseExpr{Pos: p.expect(tCase).pos}
	p.caseArms(c)
	return c
}

// caseArms parses the arms "| c : e … | _ : e" of a case.
func (p *parser) caseArms(c *CaseExpr) {
	for p.tok.kind == tBar {
		p.next()
		var cond Expr
		if p.tok.kind == tUnder {
			p.next()
		} else {
			saved := p.inCaseCond
			p.inCaseCond = true
			cond = p.expr()
			p.inCaseCond = saved
		}
		p.expect(tColon)
		var e Expr
		if p.tok.kind == tDot || p.tok.kind == tQMark {
			e = &NondetExpr{Pos: p.tok.pos}
			p.next()
		} else {
			e = p.arith()
		}
		c.Conds = append(c.Conds, cond)
		c.Branches = append(c.Branches, e)
		if cond == nil {
			break
		}
	}
	if len(c.Conds) == 0 {
		p.errorf(p.tok.pos, "expected '|' in case, found %s", describe(p.tok))
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.tok.pos, "expression nested too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

// expr parses a formula or term (lowest precedence).
func (p *parser) expr() Expr {
	p.enter()
	defer p.leave()
	if p.tok.kind == tForallOther || p.tok.kind == tExistsOther || p.tok.kind == tForall || p.tok.kind == tExists {
		return p.unaryFormula()
	}
	l := p.or()
	switch p.tok.kind {
	case tImp:
		pos := p.tok.pos
		p.next()
		return &BinExpr{Pos: pos, Op: OpImp, L: l, R: p.expr()}
	case tIff:
		pos := p.tok.pos
		p.next()
		return &BinExpr{Pos: pos, Op: OpIff, L: l, R: p.expr()}
	}
	return l
}

func (p *parser) quant() Expr {
	q := &QuantExpr{Pos: p.tok.pos, Forall: p.tok.kind == tForallOther}
	p.next()
	q.Var = p.ident()
	p.expect(tDot)
	q.Body = p.expr()
	return q
}

func (p *parser) or() Expr {
	l := p.and()
	for p.tok.kind == tOr {
		pos := p.tok.pos
		p.next()
		l = &BinExpr{Pos: pos, Op: OpOr, L: l, R: p.and()}
	}
	return l
}

func (p *parser) and() Expr {
	l := p.unaryFormula()
	for p.tok.kind == tAnd {
		pos := p.tok.pos
		p.next()
		l = &BinExpr{Pos: pos, Op: OpAnd, L: l, R: p.unaryFormula()}
	}
	return l
}

func (p *parser) unaryFormula() Expr {
	p.enter()
	defer p.leave()
	switch p.tok.kind {
	case tNot:
		pos := p.tok.pos
		p.next()
		return &NotExpr{Pos: pos, E: p.unaryFormula()}
	case tForallOther, tExistsOther:
		return p.quant()
	case tIf:
		return p.ite()
	case tForall, tExists:
		q := &QuantExpr{Pos: p.tok.pos, Forall: p.tok.kind == tForall, All: true}
		p.next()
		q.Var = p.ident()
		if p.tok.kind == tNeq {
			p.errorf(p.tok.pos, "forall and exists over several processes (x <> y) are not supported: quantify one process at a time")
		}
		p.expect(tDot)
		q.Body = p.expr()
		return q
	}
	return p.rel()
}

// ite parses "if c then a else b", a formula: (c && a) || (not c && b),
// as Cubicle's grammar has it (it binds tighter than && and ||).
func (p *parser) ite() Expr {
	pos := p.expect(tIf).pos
	c := p.expr()
	p.expect(tThen)
	a := p.expr()
	p.expect(tElse)
	b := p.unaryFormula()
	return &BinExpr{Pos: pos, Op: OpOr,
		L: &BinExpr{Pos: pos, Op: OpAnd, L: c, R: a},
		R: &BinExpr{Pos: pos, Op: OpAnd, L: &NotExpr{Pos: pos, E: c}, R: b}}
}

func (p *parser) rel() Expr {
	l := p.arith()
	var op string
	switch p.tok.kind {
	case tEq:
		op = OpEq
	case tNeq:
		op = OpNeq
	case tLt:
		op = OpLt
	case tLe:
		op = OpLe
	case tGt:
		op = OpGt
	case tGe:
		op = OpGe
	default:
		return l
	}
	pos := p.tok.pos
	p.next()
	return &BinExpr{Pos: pos, Op: op, L: l, R: p.arith()}
}

func (p *parser) arith() Expr {
	l := p.mul()
	for p.tok.kind == tPlus || p.tok.kind == tMinus {
		op := OpAdd
		if p.tok.kind == tMinus {
			op = OpSub
		}
		pos := p.tok.pos
		p.next()
		l = &BinExpr{Pos: pos, Op: op, L: l, R: p.mul()}
	}
	return l
}

func (p *parser) mul() Expr {
	l := p.unary()
	for p.tok.kind == tStar {
		pos := p.tok.pos
		p.next()
		l = &BinExpr{Pos: pos, Op: OpMul, L: l, R: p.unary()}
	}
	return l
}

func (p *parser) unary() Expr {
	p.enter()
	defer p.leave()
	if p.tok.kind == tMinus {
		pos := p.tok.pos
		p.next()
		return &NegExpr{Pos: pos, E: p.unary()}
	}
	return p.primary()
}

func (p *parser) indexList() []Ident {
	p.expect(tLBrack)
	idx := []Ident{p.index()}
	for p.tok.kind == tComma {
		p.next()
		idx = append(idx, p.index())
	}
	p.expect(tRBrack)
	return idx
}

func (p *parser) primary() Expr {
	t := p.tok
	switch t.kind {
	case tInt, tReal:
		p.next()
		return &NumExpr{Pos: t.pos, Text: t.text, Real: t.kind == tReal}
	case tProcID:
		p.next()
		n, err := strconv.Atoi(t.text)
		if err != nil || n <= 0 || n > 1<<20 {
			p.errorf(t.pos, "bad process constant #%s", t.text)
		}
		return &ProcExpr{Pos: t.pos, N: n}
	case tLParen:
		p.next()
		e := p.expr()
		p.expect(tRParen)
		return e
	case tIdent:
		p.next()
		switch p.tok.kind {
		case tLBrack:
			return &IndexExpr{Pos: t.pos, Name: t.text, Index: p.indexList()}
		case tAt, tColon:
			if p.tok.kind == tColon && p.inCaseCond {
				return &IdentExpr{Pos: t.pos, Name: t.text}
			}
			// "p: X" is an early Cubicle-W spelling of "p @ X".
			p.next()
			of := p.ident()
			at := &AtExpr{Pos: t.pos, Proc: Ident{Pos: t.pos, Name: t.text}}
			if p.tok.kind == tLBrack {
				at.Of = &IndexExpr{Pos: of.Pos, Name: of.Name, Index: p.indexList()}
			} else {
				at.Of = &IdentExpr{Pos: of.Pos, Name: of.Name}
			}
			return at
		case tLParen:
			c := &CallExpr{Pos: t.pos, Name: t.text}
			p.next()
			for p.tok.kind != tRParen {
				c.Args = append(c.Args, p.arith())
				if p.tok.kind == tComma {
					p.next()
				} else if p.tok.kind != tRParen {
					p.errorf(p.tok.pos, "expected ',' or ')' in call, found %s", describe(p.tok))
				}
			}
			p.next()
			return c
		}
		return &IdentExpr{Pos: t.pos, Name: t.text}
	}
	p.errorf(t.pos, "expected a term, found %s", describe(t))
	return nil
}
