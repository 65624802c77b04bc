package litmus

// cellCursor reads the lexemes of one instruction cell for the front
// ends that parse a cell lexeme by lexeme (BPF, LISA): what it shares is
// looking ahead, consuming punctuation and integers, and the first error
// of the cell, at its column ("expected ... in BPF instruction ...").
type cellCursor struct {
	a    *asmThread
	arch string // named in errors: "BPF", "LISA"
	c    Cell
	toks []cellTok
	i    int
	bad  bool // an error was reported: the cell is dropped
	plus bool // an integer may carry a '+' sign (BPF's offsets)
}

// peek is the lexeme k places ahead (kind 0 past the end).
func (p *cellCursor) peek(k int) cellTok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return cellTok{kind: 0, off: len(p.c.Text)}
}

// fail reports that what was expected where the cursor stands, once.
func (p *cellCursor) fail(what string) {
	if p.bad {
		return
	}
	p.bad = true
	t := p.peek(0)
	found := "the end of the instruction"
	if t.kind != 0 {
		found = "\"" + t.text + "\""
	}
	p.a.errorf(at(p.c.Pos, t.off), "expected %s in %s instruction %q, found %s", what, p.arch, p.c.Text, found)
}

// is tells whether the next lexeme is the punctuation o (not consumed).
func (p *cellCursor) is(o string) bool { t := p.peek(0); return t.kind == 'o' && t.text == o }

// op consumes the punctuation o.
func (p *cellCursor) op(o string) bool {
	if !p.bad && p.is(o) {
		p.i++
		return true
	}
	p.fail("'" + o + "'")
	return false
}

// int reads an integer k or -k (or +k where plus).
func (p *cellCursor) int() int64 {
	neg := false
	if p.is("-") || (p.plus && p.is("+")) {
		neg = p.peek(0).text == "-"
		p.i++
	}
	t := p.peek(0)
	if p.bad || t.kind != 'n' {
		p.fail("an integer")
		return 0
	}
	v, err := parseInt(t.text, neg)
	if err != nil {
		p.a.errorf(at(p.c.Pos, t.off), "malformed integer %q", t.text)
		p.bad = true
		return 0
	}
	p.i++
	return v
}

// end checks that the cell is read whole.
func (p *cellCursor) end() bool {
	if p.i < len(p.toks) {
		p.fail("the end of the instruction")
	}
	return !p.bad
}
