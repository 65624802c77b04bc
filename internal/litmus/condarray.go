package litmus

import (
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// Whole-array atoms: herd7 lets a condition compare an array of an
// assembly test with a list of values, "t={1,3}", true when every cell
// holds its value (and "t!={1,3}" when one does not). The atom is read as
// the conjunction of its cells' atoms, t[0]=1 /\ t[1]=3 (a disjunction of
// t[i]!=v for "!="), on the cells the mixed-size lowering already models;
// the condition line and the final states show the array whole, as herd
// prints them: "forall (t={1,3})" and "t={1,3};" (spec.Test.WholeArrays,
// result.Result.Arrays).

// arrayAtom is one whole-array atom as the condition wrote it.
type arrayAtom struct {
	name string
	vals []prog.Value
	neq  bool
}

// arrayCells gives the number of cells of the array name of the initial
// state (its type ends in "[n]"), 0 when name is no array.
func (p *parser) arrayCells(name string) int {
	for _, e := range p.t.Init {
		if e.Ref.IsReg() || e.Ref.Name != name {
			continue
		}
		i := strings.LastIndexByte(e.Type, '[')
		if i < 0 || !strings.HasSuffix(e.Type, "]") {
			return 0
		}
		n, err := strconv.Atoi(strings.TrimSpace(e.Type[i+1 : len(e.Type)-1]))
		if err != nil {
			return 0
		}
		return n
	}
	return 0
}

// arrayAtom reads "{v0, ..., vn-1}" after "l =" or "l !=" (the current
// token is the '{') and returns the atom on l's cells.
func (p *parser) arrayAtom(l spec.Ref, neq bool) spec.Cond {
	open := p.tok
	if l.IsReg() || !asmArrays(p.fe.Arch()) || strings.EqualFold(p.fe.Arch(), "C") {
		p.fail(open.off, "unsupported: a list of values compares a whole array, in AArch64, RISC-V and X86_64 tests only")
	}
	n := p.arrayCells(l.Name)
	if n == 0 {
		p.fail(open.off, "unsupported: a list of values for "+l.Name+", which is not an array of the initial state")
	}
	p.next()
	var vals []prog.Value
	for {
		neg := false
		if p.tok.kind == tMinus || p.tok.kind == tPlus {
			neg = p.tok.kind == tMinus
			p.next()
		}
		switch p.tok.kind {
		case tInt:
			vals = append(vals, prog.IntValue(p.intValue(p.tok, neg)))
		case tIdent:
			if neg {
				p.fail(p.tok.off, "expected an integer after '-', found "+p.tok.describe())
			}
			vals = append(vals, prog.AddrValue(p.tok.text))
		default:
			p.fail(p.tok.off, "expected a value in the list of "+l.Name+", found "+p.tok.describe())
		}
		p.next()
		if p.tok.kind == tRBrace {
			p.next()
			break
		}
		p.expect(tComma, "or '}' between the values of "+l.Name)
	}
	if len(vals) != n {
		p.fail(open.off, "array "+l.Name+" has "+itoa(n)+" cells and the condition gives "+itoa(len(vals))+" values")
	}
	p.arrays = append(p.arrays, arrayAtom{name: l.Name, vals: vals, neq: neq})
	var c spec.Cond
	for i := len(vals) - 1; i >= 0; i-- {
		a := spec.Cond(spec.Atom{Ref: spec.Ref{Thread: -1, Name: l.Name + "[" + itoa(i) + "]"}, Val: vals[i], Neq: neq})
		switch {
		case c == nil:
			c = a
		case neq:
			c = spec.Or{L: a, R: c}
		default:
			c = spec.And{L: a, R: c}
		}
	}
	return c
}

// noteArrays records the whole-array atoms in the test: the arrays whose
// cells the states show as one value, and the condition line with each
// atom written whole (herd's "t={1,3}", "not (t={1,3})").
func (p *parser) noteArrays() {
	if len(p.arrays) == 0 || p.t.Cond == nil {
		return
	}
	line := p.t.ConditionLine()
	p.t.WholeArrays = map[string]int{}
	for _, a := range p.arrays {
		p.t.WholeArrays[a.name] = len(a.vals)
		var cells, whole strings.Builder
		for i, v := range a.vals {
			if i > 0 {
				if a.neq {
					cells.WriteString(` \/ `)
				} else {
					cells.WriteString(` /\ `)
				}
				whole.WriteByte(',')
			}
			atom := a.name + "[" + itoa(i) + "]=" + v.String()
			if a.neq {
				atom = "not (" + atom + ")"
			}
			cells.WriteString(atom)
			whole.WriteString(v.String())
		}
		w := a.name + "={" + whole.String() + "}"
		if a.neq {
			w = "not (" + w + ")"
		}
		line = strings.Replace(line, cells.String(), w, 1)
	}
	p.t.CondLine = line
}
