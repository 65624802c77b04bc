package cat

import (
	"github.com/musket-verify/musket/internal/rel"
)

// Sequences. `a ; b ; c ; d` groups to the right, a ; (b ; (c ; d));
// composed one ; at a time it builds a relation per operator that the next
// one throws away. The compiler makes the whole sequence one seqNode; it
// evaluates the operands left to right (as the nested form does), checks
// their kinds as the nested form would combine them (right to left, each
// error at its own ;), then composes them in one pass, row by row
// (rel.SeqChain): filters [S] keep the events of S without building the
// identity on S, and r? and r* extend the row without building r ∪ id.

// seqNode is a sequence of at least two operands.
type seqNode struct {
	xs  []node
	ops []Position // ops[j] is the ; between xs[j] and xs[j+1]
}

// seqOperand is one evaluated operand: its value for the kind checks
// (relPlaceholder when the operand is kept as a factor without building
// the value ;'s nested form would see, which is a relation) and the factor.
type seqOperand struct {
	v  value
	f  rel.Factor
	ok bool // f is set
}

// relPlaceholder stands for a relation in the kind checks.
var relPlaceholder value = newRelVal(rel.Rel{})

func (n *seqNode) eval(r *run, f *frame) (value, error) {
	var buf [8]seqOperand
	ops := buf[:0]
	for _, x := range n.xs {
		o, err := r.seqOperand(x, f)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o)
	}
	// The kinds, as a ; (b ; (c ; d)) combines them.
	acc := ops[len(ops)-1].v
	for j := len(ops) - 2; j >= 0; j-- {
		a := ops[j].v
		ca, cb := classOf(a), classOf(acc)
		switch {
		case ca == cOther || cb == cOther:
			return nil, typeError(n.ops[j], ";", a, acc)
		case ca == cEmpty || cb == cEmpty:
			acc = theEmpty
		case !relLike(ca) || !relLike(cb):
			return nil, typeError(n.ops[j], ";", a, acc)
		default:
			acc = relPlaceholder
		}
	}
	if _, ok := acc.(emptyVal); ok {
		return theEmpty, nil
	}
	var fbuf [8]rel.Factor
	fs := fbuf[:0]
	for _, o := range ops {
		if !o.ok {
			x, _ := r.asRel(o.v)
			o.f = rel.Factor{R: x}
		}
		fs = append(fs, o.f)
	}
	o := r.newRel()
	if len(fs) == 2 && !fs[0].IsMask && !fs[0].Opt && !fs[1].IsMask && !fs[1].Opt {
		o.SetSeq(fs[0].R, fs[1].R)
	} else {
		o.SetSeqChain(fs)
	}
	return r.mkRel(o), nil
}

// relLike tells whether ; takes values of class c as relations (the
// empty ones aside).
func relLike(c class) bool { return c == cRel || c == cUniv }

// seqOperand evaluates one operand of a sequence: [S] on a set becomes a
// filter, r? and r* on a relation an optional factor; other operands are
// evaluated as they are.
func (r *run) seqOperand(x node, f *frame) (seqOperand, error) {
	u, ok := x.(*unaryNode)
	if !ok || (u.op != OpToID && u.op != OpOpt && u.op != OpStar) {
		v, err := x.eval(r, f)
		return seqOperand{v: v}, err
	}
	a, err := u.x.eval(r, f)
	if err != nil {
		return seqOperand{}, err
	}
	switch a := a.(type) {
	case setVal:
		if u.op == OpToID {
			return seqOperand{v: relPlaceholder, f: rel.Factor{IsMask: true, Mask: a.s}, ok: true}, nil
		}
	case relVal:
		if u.op == OpOpt {
			return seqOperand{v: relPlaceholder, f: rel.Factor{R: a.r, Opt: true}, ok: true}, nil
		}
		if u.op == OpStar {
			p := r.newRel()
			p.OrWith(a.r)
			p.Close()
			return seqOperand{v: relPlaceholder, f: rel.Factor{R: p, Opt: true}, ok: true}, nil
		}
	}
	v, err := r.unary(u.op, a, u.pos)
	return seqOperand{v: v}, err
}
