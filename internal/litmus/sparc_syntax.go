package litmus

// The syntax of a SPARC cell: its lexemes, then an instruction with its
// operands (registers, immediates, [address] forms, labels, membar masks).

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// sparcTok is a lexeme of a SPARC cell: 'w' (word), '%' (register, text
// without '%'), 'n' (number), '#' (mask name, text without '#') or the
// punctuation byte itself; off is its byte offset in the cell.
type sparcTok struct {
	kind byte
	text string
	off  int
}

func lexSPARC(c Cell) ([]sparcTok, *source.Error) {
	s := c.Text
	var toks []sparcTok
	word := func(i int) int {
		j := i
		for j < len(s) && (isIdentByte(s[j]) || s[j] == '.' || s[j] == '$') {
			j++
		}
		return j
	}
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case isLetter(ch) || ch == '.':
			j := word(i)
			toks = append(toks, sparcTok{'w', s[i:j], i})
			i = j
		case isDigit(ch):
			j := word(i)
			toks = append(toks, sparcTok{'n', s[i:j], i})
			i = j
		case ch == '%' || ch == '#':
			j := word(i + 1)
			if j == i+1 {
				return nil, &source.Error{Pos: at(c.Pos, i), Msg: fmt.Sprintf("expected a name after %q", rune(ch))}
			}
			toks = append(toks, sparcTok{ch, s[i+1 : j], i})
			i = j
		case strings.IndexByte("[],:+-", ch) >= 0:
			toks = append(toks, sparcTok{ch, s[i : i+1], i})
			i++
		default:
			return nil, &source.Error{Pos: at(c.Pos, i), Msg: fmt.Sprintf("unexpected %s in SPARC instruction", source.QuoteChar(s[i:]))}
		}
	}
	return toks, nil
}

// parseCell reads "[label:]... [mnemonic[,a][,pt|,pn] op, op, ...]".
func (s *sparcThread) parseCell(c Cell) (*sparcInstr, bool) {
	in := &sparcInstr{pos: c.Pos}
	toks, err := lexSPARC(c)
	if err != nil {
		s.errs = append(s.errs, err)
		return nil, false
	}
	for len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == ':' {
		in.labels = append(in.labels, toks[0].text)
		toks = toks[2:]
	}
	if len(toks) == 0 {
		return in, true
	}
	if toks[0].kind == '#' {
		s.errorf(at(c.Pos, toks[0].off), "membar mask continued after '|': inside a litmus table join mask names with '+' (#StoreLoad+#StoreStore)")
		return nil, false
	}
	if toks[0].kind != 'w' {
		s.errorf(at(c.Pos, toks[0].off), "expected a SPARC instruction, found %q", toks[0].text)
		return nil, false
	}
	in.mn, in.mnPos = strings.ToLower(toks[0].text), at(c.Pos, toks[0].off)
	toks = toks[1:]
	if sparcIsBranch(in.mn) {
		for len(toks) >= 2 && toks[0].kind == ',' && toks[1].kind == 'w' {
			switch strings.ToLower(toks[1].text) {
			case "a":
				in.annul = true
			case "pt", "pn":
			default:
				s.errorf(at(c.Pos, toks[1].off), "unknown branch suffix \",%s\"", toks[1].text)
				return nil, false
			}
			toks = toks[2:]
		}
	}
	for len(toks) > 0 {
		end := 0
		for end < len(toks) && toks[end].kind != ',' {
			end++
		}
		if end == 0 {
			s.errorf(at(c.Pos, toks[0].off), "missing operand of %s", in.mn)
			return nil, false
		}
		op, ok := s.operand(c, toks[:end])
		if !ok {
			return nil, false
		}
		in.ops = append(in.ops, op)
		if end < len(toks) {
			end++ // the comma
			if end == len(toks) {
				s.errorf(at(c.Pos, toks[end-1].off), "missing operand of %s after ','", in.mn)
				return nil, false
			}
		}
		toks = toks[end:]
	}
	return in, true
}

// operand reads one operand from its lexemes.
func (s *sparcThread) operand(c Cell, toks []sparcTok) (sparcOp, bool) {
	op := sparcOp{pos: at(c.Pos, toks[0].off)}
	text := func() string {
		first, last := toks[0], toks[len(toks)-1]
		end := last.off + len(last.text)
		if last.kind == '%' || last.kind == '#' {
			end++
		}
		return c.Text[first.off:end]
	}
	bad := func() (sparcOp, bool) {
		s.errorf(op.pos, "bad SPARC operand %q", strings.TrimSpace(text()))
		return op, false
	}
	num := func(t sparcTok, neg bool) (int64, bool) {
		v, err := parseInt(t.text, neg)
		if err != nil {
			s.errorf(at(c.Pos, t.off), "malformed integer %q", t.text)
			return 0, false
		}
		return v, true
	}
	switch {
	case toks[0].kind == '[':
		if toks[len(toks)-1].kind != ']' || len(toks) < 3 {
			s.errorf(op.pos, "missing ']' in address")
			return op, false
		}
		return s.address(c, toks[1:len(toks)-1], op)
	case toks[0].kind == '#':
		op.kind = spMask
		for i, t := range toks {
			if i%2 == 1 {
				if t.kind != '+' {
					return bad()
				}
				continue
			}
			bit, ok := sparcMaskNames[strings.ToLower(t.text)]
			if t.kind != '#' || !ok {
				s.errorf(at(c.Pos, t.off), "unknown membar mask %q", "#"+t.text)
				return op, false
			}
			op.imm |= bit
		}
		if len(toks)%2 == 0 {
			return bad()
		}
		return op, true
	case len(toks) == 1 && toks[0].kind == '%':
		r, ok := sparcReg(toks[0].text)
		if !ok {
			l := strings.ToLower(toks[0].text)
			if l != "icc" && l != "xcc" {
				s.errorf(op.pos, "unknown SPARC register %q", "%"+toks[0].text)
				return op, false
			}
			r = l
		}
		op.kind, op.reg = spReg, r
		return op, true
	case len(toks) == 1 && toks[0].kind == 'n':
		v, ok := num(toks[0], false)
		op.kind, op.imm = spImm, v
		return op, ok
	case len(toks) == 2 && (toks[0].kind == '-' || toks[0].kind == '+') && toks[1].kind == 'n':
		v, ok := num(toks[1], toks[0].kind == '-')
		op.kind, op.imm = spImm, v
		return op, ok
	case len(toks) == 1 && toks[0].kind == 'w':
		op.kind, op.name = spSym, toks[0].text
		return op, true
	}
	return bad()
}

// address reads the inside of "[...]": x, %r, %r+imm, %r-imm, %r+%r,
// x+imm.
func (s *sparcThread) address(c Cell, toks []sparcTok, op sparcOp) (sparcOp, bool) {
	op.kind = spMem
	var terms []prog.Expr
	loc, off := "", int64(0)
	constant := true
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		neg := false
		if i > 0 {
			if t.kind != '+' && t.kind != '-' || i+1 == len(toks) {
				s.errorf(at(c.Pos, t.off), "bad address: expected '+' or '-', found %q", t.text)
				return op, false
			}
			neg = t.kind == '-'
			i++
			t = toks[i]
		}
		switch t.kind {
		case '%':
			r, ok := sparcReg(t.text)
			if !ok || neg {
				s.errorf(at(c.Pos, t.off), "bad address register %q", "%"+t.text)
				return op, false
			}
			constant = false
			terms = append(terms, s.regVal(r))
		case 'n':
			v, err := parseInt(t.text, neg)
			if err != nil {
				s.errorf(at(c.Pos, t.off), "malformed integer %q", t.text)
				return op, false
			}
			off += v
			terms = append(terms, prog.Int(v))
		case 'w':
			if loc != "" || neg {
				s.errorf(at(c.Pos, t.off), "bad address: %q", t.text)
				return op, false
			}
			if _, isReg := sparcReg(t.text); isReg {
				s.errorf(at(c.Pos, t.off), "register %s needs '%%' in an address (a location may not be named %s)", t.text, t.text)
				return op, false
			}
			loc = t.text
			terms = append(terms, prog.Addr(t.text))
		default:
			s.errorf(at(c.Pos, t.off), "bad address: unexpected %q", t.text)
			return op, false
		}
	}
	if constant && loc != "" {
		op.addr = prog.Const{V: prog.Value{Loc: loc, Int: off}}
		if off == 0 {
			op.name = loc
		}
		return op, true
	}
	op.addr = terms[0]
	for _, t := range terms[1:] {
		op.addr = bin(prog.OpAdd, op.addr, t)
	}
	return op, true
}
