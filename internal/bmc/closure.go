package bmc

import "github.com/musket-verify/musket/internal/cat"

// Closures and sequences where the model only wants them small.
//
// Warshall's algorithm (ops.plus) builds, for every intermediate event k
// and every pair through it, an and-gate and an or-gate: on Power's
// propagation and observation axioms over a C program of two hundred
// events (hb*, prop-base*: 4,000 to 20,000 may-pairs) that is millions of
// gates, which Z3 turns into as many Boolean variables before it
// searches at all. When every check and flag that reaches a closure
// wants its value small (polarity.go), the closure is instead a variable
// per may-pair implied by the closure's Horn clauses
//
//	r(i, j) ⇒ x(i, j)
//	x(i, k) ∧ exec(k) ∧ r(k, j) ⇒ x(i, j)
//
// (one flat clause per pair and out-edge, no auxiliary variable). Every
// solution then has x ⊇ r⁺; as every question holds of r⁺ whenever it
// holds of a bigger relation, and x = r⁺ satisfies the clauses, the
// answers are those of the exact closure (the argument of the one-way
// let rec encoding, polarity.go; the relation analysis of Gavrilenko,
// Ponce-de-León, Furbach, Heljanko, Meyer, "BMC for Weak Memory Models:
// Relation Analysis for Compact SMT Encodings", CAV 2019). Pairs that a
// path of must-edges through always-executed events joins stay the
// constant true.
//
// The test of an irreflexive check is only read on its diagonal: its last
// sequence a ; b builds the pairs (i, i) only (Power's observation, fre ;
// prop ; hb*: n pairs instead of n², each over the same middle events).
//
// A chain of sequences a ; b ; c evaluates its operands that are not
// closures first: when one of them is empty (Power's strong barriers in
// a program without a seq_cst access: com* ; prop-base* ; strong ; hb*)
// the chain is empty and its closures are never built.

// seqChain evaluates a chain of sequences, the operands that are not
// closures first (see above), and composes it from the left.
func (ev *evaluator) seqChain(x *cat.BinaryExpr, en *env) (value, error) {
	// Flatten ((a ; b) ; c) ; d into a, b, c, d.
	var ops []cat.Expr
	var at []*cat.BinaryExpr
	var e cat.Expr = x
	for {
		b, ok := e.(*cat.BinaryExpr)
		if !ok || b.Op != cat.OpSeq {
			break
		}
		ops = append(ops, b.Y)
		at = append(at, b)
		e = b.X
	}
	ops = append(ops, e)
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	for i, j := 0, len(at)-1; i < j; i, j = i+1, j-1 {
		at[i], at[j] = at[j], at[i]
	}
	for _, b := range at[1:] {
		if err := ev.step(b.Pos()); err != nil {
			return nil, err
		}
	}
	vals := make([]value, len(ops))
	for i, op := range ops {
		if isClosure(op) {
			continue
		}
		v, err := ev.expr(op, en)
		if err != nil {
			return nil, err
		}
		if empty, ok := ev.shortLeft(cat.OpSeq, v); ok {
			return empty, nil
		}
		vals[i] = v
	}
	var acc value
	for i, op := range ops {
		v := vals[i]
		if v == nil {
			var err error
			if v, err = ev.expr(op, en); err != nil {
				return nil, err
			}
		}
		if i == 0 {
			acc = v
		} else {
			var err error
			if acc, err = ev.binary(cat.OpSeq, acc, v, at[i-1].At); err != nil {
				return nil, err
			}
		}
		if i < len(ops)-1 {
			if empty, ok := ev.shortLeft(cat.OpSeq, acc); ok {
				return empty, nil
			}
		}
	}
	return acc, nil
}

// isClosure tells whether an expression is a closure r^+ or r^*.
func isClosure(x cat.Expr) bool {
	u, ok := x.(*cat.UnaryExpr)
	return ok && (u.Op == cat.OpPlus || u.Op == cat.OpStar)
}

// diagExpr evaluates x where only its diagonal is read: a sequence, or a
// union of them, gets its pairs (i, i) only; anything else is evaluated
// whole.
func (ev *evaluator) diagExpr(x cat.Expr, en *env) (value, error) {
	b, ok := x.(*cat.BinaryExpr)
	if !ok || (b.Op != cat.OpSeq && b.Op != cat.OpUnion) {
		return ev.expr(x, en)
	}
	if err := ev.step(b.Pos()); err != nil {
		return nil, err
	}
	if b.Op == cat.OpUnion {
		l, err := ev.diagExpr(b.X, en)
		if err != nil {
			return nil, err
		}
		r, err := ev.diagExpr(b.Y, en)
		if err != nil {
			return nil, err
		}
		return ev.binary(cat.OpUnion, l, r, b.At)
	}
	l, err := ev.expr(b.X, en)
	if err != nil {
		return nil, err
	}
	if v, ok := ev.shortLeft(cat.OpSeq, l); ok {
		return v, nil
	}
	r, err := ev.expr(b.Y, en)
	if err != nil {
		return nil, err
	}
	lr, ok1 := l.(*Rel)
	rr, ok2 := r.(*Rel)
	if !ok1 || !ok2 {
		return ev.binary(cat.OpSeq, l, r, b.At)
	}
	o := ev.o
	out := newRel(o.n())
	for i, row := range lr.rows {
		var xs []B
		for _, k := range sortedKeys(row) {
			if y, ok := rr.get(k, i); ok {
				xs = append(xs, o.f.and(o.exec[k], row[k], y))
			}
		}
		out.set(i, i, o.f.or(xs...))
	}
	return out, nil
}
