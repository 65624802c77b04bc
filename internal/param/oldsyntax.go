package param

// This file reads the transitions of an early Cubicle grammar, in which
// some files of Cubicle's repository are written (examples/germanish3.cub,
// examples/challenges/flash_bug.cub):
//
//	transition t (n)
//	require { g }
//	uguard (l) { f }
//	assign { X := e; Y := e' }
//	A[j] := {| j = n : v | _ : A[j] }
//
// Each part but require is optional, and the updates follow the
// transition without braces, up to the next declaration. They mean what
// the current grammar writes
//
//	transition t (n)
//	requires { g && forall_other l. f }
//	{ X := e; Y := e'; A[j] := case | j = n : v | _ : A[j] }
//
// (uguard: a universal guard over the processes other than the
// parameters; several uguards are all required).

// oldTransition parses the rest of an early-grammar transition, from
// "require", into d.
func (p *parser) oldTransition(d *TransDecl) {
	p.next() // require
	p.expect(tLBrace)
	d.Guard = p.expr()
	p.expect(tRBrace)
	for p.tok.kind == tIdent && p.tok.text == "uguard" {
		q := &QuantExpr{Pos: p.tok.pos, Forall: true}
		p.next()
		p.expect(tLParen)
		q.Var = p.ident()
		p.expect(tRParen)
		p.expect(tLBrace)
		q.Body = p.expr()
		p.expect(tRBrace)
		d.Guard = &BinExpr{Pos: d.Guard.exprPos(), Op: OpAnd, L: d.Guard, R: q}
	}
	if p.tok.kind == tIdent && p.tok.text == "assign" {
		p.next()
		p.expect(tLBrace)
		d.Actions = append(d.Actions, p.actions("an assignment")...)
	}
	// (up to the next declaration; a refused one is reported by name)
	for p.tok.kind == tIdent && !devDirectives[p.tok.text] && p.tok.text != "local_weak" {
		a := &Action{Pos: p.tok.pos, Name: p.ident()}
		a.Index = p.indexList()
		p.expect(tAssign)
		c := &CaseExpr{Pos: p.expect(tLBrace).pos}
		p.caseArms(c)
		p.expect(tRBrace)
		a.Rhs = c
		d.Actions = append(d.Actions, a)
	}
	p.file.Transitions = append(p.file.Transitions, d)
}
