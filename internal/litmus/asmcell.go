package litmus

// This file reads the lexical shape that the assembly dialects share: a
// cell is "[label:] mnemonic op, op, ...", made of words, numbers and a
// dialect's punctuation. What an operand means is each front-end's own.

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
)

// cellTok is a lexeme of an instruction cell: 'w' (word), 'n' (number)
// or the punctuation byte itself; off is its byte offset in the cell.
type cellTok struct {
	kind byte
	text string
	off  int
}

// cellLexer describes the lexemes of one assembly dialect. One loop
// reads them all: the dialects differ in their punctuation, in the
// bytes a word or a number may contain after its first, and in whether
// punctuation lexemes are of one kind (the front ends read with a
// cellCursor: BPF, LISA) or of the kind of their byte.
type cellLexer struct {
	arch  string // named in error messages: "x86", "PPC"
	punct string // the punctuation bytes that are lexemes of their own
	// ops are operators of several bytes (BPF's "<<=", "s>>="), tried
	// in order, before anything else, at each lexeme's start.
	ops []string
	// opKind: every punctuation lexeme and operator has kind 'o';
	// otherwise a punctuation lexeme's kind is its byte.
	opKind bool
	// dotWords: a word may begin with '.' (directives, RISC-V's
	// suffixes).
	dotWords bool
	// inWord and inNumber are the bytes other than letters, digits and
	// '_' that may follow a word's or a number's first byte (the
	// assembly dialects' "." in words; LISA's "-" and "." in both).
	inWord, inNumber string
	// symRegs: "%name" is a word, herd7's symbolic register (see
	// SymReg). noSymRegs: '%' is refused as an unsupported symbolic
	// register.
	symRegs, noSymRegs bool
}

// SymReg is the register Musket gives herd7's symbolic register %name
// (an initial state's "%x0=x", used as "[%x0]" or "0(%x0)"): "%%name",
// which no front-end's own temporaries ("%tmp", "%cr0", ...) spell.
func SymReg(name string) string { return "%%" + name }

// lex splits the text of c into lexemes.
func (l cellLexer) lex(c Cell) ([]cellTok, *source.Error) {
	s := c.Text
	toks := make([]cellTok, 0, 8) // most cells have fewer: one allocation
	// span is the end of the lexeme that begins at i with a byte of its
	// class and goes on with identifier bytes and the bytes of more.
	span := func(i int, more string) int {
		j := i + 1
		for j < len(s) && (isIdentByte(s[j]) || strings.IndexByte(more, s[j]) >= 0) {
			j++
		}
		return j
	}
next:
	for i := 0; i < len(s); {
		ch := s[i]
		for _, op := range l.ops {
			if strings.HasPrefix(s[i:], op) {
				toks = append(toks, cellTok{'o', op, i})
				i += len(op)
				continue next
			}
		}
		switch {
		case ch == ' ' || ch == '\t' || ch == '\r':
			i++
		case isLetter(ch) || (l.dotWords && ch == '.'):
			j := span(i, l.inWord)
			toks = append(toks, cellTok{'w', s[i:j], i})
			i = j
		case isDigit(ch):
			j := span(i, l.inNumber)
			toks = append(toks, cellTok{'n', s[i:j], i})
			i = j
		case l.symRegs && ch == '%' && i+1 < len(s) && isLetter(s[i+1]):
			j := span(i+1, "")
			toks = append(toks, cellTok{'w', s[i:j], i})
			i = j
		case l.noSymRegs && ch == '%':
			return nil, &source.Error{Pos: at(c.Pos, i), Msg: fmt.Sprintf("unsupported %s symbolic register %s", l.arch, source.QuoteChar(s[i:]))}
		case strings.IndexByte(l.punct, ch) >= 0:
			kind := ch
			if l.opKind {
				kind = 'o'
			}
			toks = append(toks, cellTok{kind, s[i : i+1], i})
			i++
		default:
			return nil, &source.Error{Pos: at(c.Pos, i), Msg: fmt.Sprintf("unexpected %s in %s instruction", source.QuoteChar(s[i:]), l.arch)}
		}
	}
	return toks, nil
}

// lexCell lexes c with lx; false (reported) when it does not lex.
func (a *asmThread) lexCell(c Cell, lx cellLexer) ([]cellTok, bool) {
	toks, err := lx.lex(c)
	if err != nil {
		a.errs = append(a.errs, err)
		return nil, false
	}
	return toks, true
}

// at is the position off bytes to the right of p.
func at(p prog.Pos, off int) prog.Pos {
	p.Col += off
	return p
}

// cellLabel takes a leading "label:" off toks.
func cellLabel(toks []cellTok) (label string, rest []cellTok) {
	if len(toks) >= 2 && toks[0].kind == 'w' && toks[1].kind == ':' {
		return toks[0].text, toks[2:]
	}
	return "", toks
}

// cellOperands splits the lexemes after the mnemonic mn into operands at
// the commas outside square brackets and braces (ARM's register lists). An empty operand is an error,
// recorded in errs.
func cellOperands(c Cell, mn string, toks []cellTok, errs *source.ErrorList) ([][]cellTok, bool) {
	var ops [][]cellTok
	for len(toks) > 0 {
		end, depth := 0, 0
		for end < len(toks) && (toks[end].kind != ',' || depth > 0) {
			switch toks[end].kind {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			end++
		}
		if end == 0 {
			errs.Add(at(c.Pos, toks[0].off), fmt.Sprintf("missing operand of %s", mn))
			return nil, false
		}
		ops = append(ops, toks[:end])
		if end < len(toks) {
			end++ // the comma
			if end == len(toks) {
				errs.Add(at(c.Pos, toks[end-1].off), fmt.Sprintf("missing operand of %s after ','", mn))
				return nil, false
			}
		}
		toks = toks[end:]
	}
	return ops, true
}

// cellText is the source text that the lexemes toks of c span.
func cellText(c Cell, toks []cellTok) string {
	first, last := toks[0], toks[len(toks)-1]
	return c.Text[first.off : last.off+len(last.text)]
}

// checkLabels reports the labels thread th defines twice and its jumps to
// no label; jump names a jump in the messages ("jump", "branch").
func checkLabels(th *prog.Thread, errs *source.ErrorList, jump string) {
	defined := map[string]prog.Pos{}
	for i, in := range th.Code {
		if l, ok := in.(prog.Label); ok {
			if first, dup := defined[l.Name]; dup {
				errs.Add(th.Pos[i], fmt.Sprintf("label %s defined twice (first at %d:%d)", l.Name, first.Line, first.Col))
				continue
			}
			defined[l.Name] = th.Pos[i]
		}
	}
	for i, in := range th.Code {
		if j, ok := in.(prog.Jump); ok {
			if _, ok := defined[j.Target]; !ok && !strings.HasPrefix(j.Target, indirectPrefix) {
				errs.Add(th.Pos[i], fmt.Sprintf("%s to undefined label %s", jump, j.Target))
			}
		}
	}
}

// asmThread is what an assembly front-end keeps while it translates one
// thread: the code with the position of each instruction, the size of
// each access for the front-ends that lower mixed-size tests (sized),
// and the errors.
type asmThread struct {
	t     *prog.Thread
	errs  source.ErrorList
	pos   prog.Pos // the position of the instructions emitted now
	sized bool     // t.Sizes has an entry per instruction
}

func newAsmThread(id int, sized bool) asmThread {
	return asmThread{t: &prog.Thread{ID: id, Name: "P" + itoa(id)}, sized: sized}
}

//go:noinline // see source.ErrorList.Add
func (a *asmThread) errorf(pos prog.Pos, format string, args ...any) {
	a.errs.Add(pos, fmt.Sprintf(format, args...))
}

// emit is never inlined: a translation calls it from every case of its
// instruction switch (see source.ErrorList.Add for why copies cost).
//
//go:noinline
func (a *asmThread) emit(ins ...prog.Instr) {
	for _, in := range ins {
		a.t.Code = append(a.t.Code, in)
		a.t.Pos = append(a.t.Pos, a.pos)
		if a.sized {
			a.t.Sizes = append(a.t.Sizes, 0)
		}
	}
}

// emitAccess emits the memory access in of size bytes, negative for a
// load that sign-extends (the lowering of mixed-size tests uses them; see
// aarch64_mixed.go).
func (a *asmThread) emitAccess(size int, in prog.Instr) {
	a.emit(in)
	a.t.Sizes[len(a.t.Sizes)-1] = size
}

// cellHead lexes cell c with lx and reads its label; rest is its
// instruction, which begins with a word (empty for a label alone). False
// (reported) when c does not lex or its instruction begins with
// something else.
func (a *asmThread) cellHead(c Cell, lx cellLexer) (label string, rest []cellTok, ok bool) {
	toks, ok := a.lexCell(c, lx)
	if !ok {
		return "", nil, false
	}
	label, toks = cellLabel(toks)
	if len(toks) > 0 && toks[0].kind != 'w' {
		article := "a"
		if strings.ContainsRune("AEIOUx", rune(lx.arch[0])) {
			article = "an" // an ARM, an x86
		}
		a.errorf(at(c.Pos, toks[0].off), "expected %s %s instruction, found %q", article, lx.arch, toks[0].text)
		return label, nil, false
	}
	return label, toks, true
}

// cellOps reads the operands after mnemonic mn, each with operand; false
// (reported) when one is missing or wrong.
func cellOps[Op any](a *asmThread, c Cell, mn string, toks []cellTok, operand func(toks []cellTok) (Op, bool)) ([]Op, bool) {
	groups, ok := cellOperands(c, mn, toks, &a.errs)
	if !ok {
		return nil, false
	}
	var ops []Op
	for _, g := range groups {
		op, ok := operand(g)
		if !ok {
			return nil, false
		}
		ops = append(ops, op)
	}
	return ops, true
}
