package litmus

import (
	"errors"
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// tableKeywords start the part after the thread table.
var tableKeywords = []string{"exists", "forall", "final", "locations", "filter"}

// tableEnds tells whether the text at the scanner's offset (after
// blanks) starts the part after the table.
func (p *parser) tableEnds() bool {
	sc := p.sc
	if sc.atEOF() || sc.peekByte(0) == '~' || sc.peekByte(0) == '<' && sc.peekByte(1) == '<' {
		return true
	}
	for _, w := range tableKeywords {
		if sc.atWord(w) {
			return true
		}
	}
	return false
}

// table reads the thread table: "P0 | P1 ... ;" then rows of cells, and
// hands each column to the front-end.
func (p *parser) table() {
	sc := p.sc
	sc.skipSpace()
	if p.tableEnds() {
		p.fail(sc.off, "missing thread table")
	}
	n := 0
	for {
		text, start, term := sc.cell()
		if text != "P"+itoa(n) {
			if text == "" && n > 0 && term == ';' {
				p.fail(start, "empty thread name")
			}
			if text == "" && term != '|' && term != ';' {
				p.fail(start, "missing thread table")
			}
			p.fail(start, fmt.Sprintf("expected thread name P%d, found %q", n, text))
		}
		n++
		if term == ';' {
			break
		}
		if term != '|' {
			p.fail(sc.off, "missing ';' at the end of the thread names")
		}
	}
	cols := make([][]Cell, n)
	total := 0
	for {
		sc.skipSpace()
		if p.tableEnds() {
			break
		}
		for i := 0; ; i++ {
			text, start, term := sc.cell()
			if term != '|' && term != ';' {
				p.fail(sc.off, "missing ';' at the end of the row")
			}
			if text != "" {
				if i >= n {
					p.fail(start, fmt.Sprintf("row has more columns than the %d threads", n))
				}
				if len(cols[i]) == MaxThreadCode {
					p.codeLimit(start, fmt.Sprintf("thread P%d has more than %d instructions", i, MaxThreadCode))
				}
				if total++; total > MaxTestCode {
					p.codeLimit(start, fmt.Sprintf("the threads have more than %d instructions in all", MaxTestCode))
				}
				if total%1024 == 0 {
					p.poll()
				}
				cols[i] = append(cols[i], Cell{Text: text, Pos: sc.pos(start)})
			}
			if term == ';' {
				break
			}
		}
	}
	for i, cells := range cols {
		p.poll() // a thread of 65536 instructions: 0.06 s of CPU
		th, err := p.fe.Thread(i, cells)
		if err != nil {
			p.addError(err, i, cells)
		}
		if th == nil {
			th = &prog.Thread{}
		}
		th.ID, th.Name = i, "P"+itoa(i)
		p.t.Threads = append(p.t.Threads, th)
	}
}

// code hands the thread section to a front-end that reads it itself.
func (p *parser) code(cf CodeFrontend) {
	p.poll()
	threads, end, err := cf.Code(p.sc.src, p.sc.off, p.sc.pos, p.t.Init)
	if err != nil {
		p.addError(err, 0, nil)
	}
	if end < p.sc.off || end > len(p.sc.src) {
		end = len(p.sc.src)
	}
	p.sc.off = end
	for i, th := range threads {
		if th == nil {
			th = &prog.Thread{}
		}
		th.ID, th.Name = i, "P"+itoa(i)
		p.t.Threads = append(p.t.Threads, th)
	}
	if err != nil {
		// The threads are not usable: stop before the condition.
		panic(bailout{})
	}
}

// addError records an error of a front-end.
func (p *parser) addError(err error, thread int, cells []Cell) {
	var list source.ErrorList
	var one *source.Error
	switch {
	case errors.As(err, &list):
		p.errs = append(p.errs, list...)
	case errors.As(err, &one):
		p.errs = append(p.errs, one)
	default:
		pos := prog.Pos{File: p.t.File}
		if len(cells) > 0 {
			pos = cells[0].Pos
		}
		p.errs.Add(pos, fmt.Sprintf("P%d: %v", thread, err))
	}
}

// trailer reads what follows the table: "locations [...]", "filter C",
// the final condition, and the old trailers ("with" after "final", and
// "<< ... >>" blocks).
func (p *parser) trailer() {
	seenLoc, seenFilter := false, false
	for {
		switch {
		case p.isWord("locations"):
			if seenLoc {
				p.fail(p.tok.off, "locations given twice")
			}
			seenLoc = true
			p.next()
			p.locations()
			continue
		case p.isWord("filter"):
			if seenFilter {
				p.fail(p.tok.off, "filter given twice")
			}
			seenFilter = true
			p.next()
			p.t.Filter = p.cond()
			if p.tok.kind == tSemi {
				p.next()
			}
			continue
		case p.tok.kind == tLShift:
			p.sc.skipBlock(p.tok.off)
			p.next()
			continue
		case p.isWord("regions"):
			// herd7's "regions: x:NAME" gives locations a memory region
			// (herdtools7's tests/instructions/C C12), which Musket's
			// executions do not have: refused by name, not read past.
			p.fail(p.tok.off, "unsupported test: its regions: section (locations in memory regions) is not modelled")
		}
		break
	}
	final := false
	switch {
	case p.tok.kind == tTilde:
		p.next()
		if !p.isWord("exists") {
			p.fail(p.tok.off, "expected exists after '~', found "+p.tok.describe())
		}
		p.t.Quant = spec.NotExists
	case p.isWord("exists"):
		p.t.Quant = spec.Exists
	case p.isWord("forall"):
		p.t.Quant = spec.Forall
	case p.isWord("final"):
		p.t.Quant, final = spec.Exists, true
	case p.tok.kind == tEOF && (seenLoc || seenFilter):
		// Only locations to observe: every execution is fine (herd7
		// reads a missing condition as "forall true" too).
		p.t.Quant, p.t.Cond = spec.Forall, spec.Bool{V: true}
		return
	case p.tok.kind == tEOF:
		// herd7 would take an empty condition as "forall true", but a
		// test with neither a condition nor a locations clause is a file
		// cut short far more often than a test meant to check nothing.
		p.fail(p.tok.off, "missing the final condition (exists, ~exists or forall, or a locations clause): is the file truncated?")
	default:
		p.fail(p.tok.off, "expected the final condition (exists, ~exists or forall), found "+p.tok.describe())
	}
	p.next()
	p.t.Cond = p.cond()
	if p.tok.kind == tSemi {
		p.next()
	}
	if final && p.isWord("with") {
		p.next()
		p.withBlock()
	}
	for {
		switch p.tok.kind {
		case tEOF:
			return
		case tLShift:
			p.sc.skipBlock(p.tok.off)
			p.next()
		default:
			p.fail(p.tok.off, "unexpected "+p.tok.describe()+" after the final condition")
		}
	}
}

// withBlock skips the lines "name: ~exists;" of the old "final" form.
func (p *parser) withBlock() {
	for p.tok.kind == tIdent && p.peek().kind == tColon {
		p.next()
		p.next()
		if p.tok.kind == tTilde {
			p.next()
		}
		if !p.isWord("exists") && !p.isWord("forall") {
			p.fail(p.tok.off, "expected exists or ~exists in the with block, found "+p.tok.describe())
		}
		p.next()
		if p.tok.kind == tSemi {
			p.next()
		}
	}
}

// locations reads "[ref; ref; ...]" (last ';' optional).
func (p *parser) locations() {
	p.expect(tLBrack, "after locations")
	for p.tok.kind != tRBrack {
		p.refuseFault()
		r, _ := p.ref()
		p.t.Locations = append(p.t.Locations, r)
		if p.tok.kind == tSemi {
			p.next()
		} else if p.tok.kind != tRBrack {
			p.fail(p.tok.off, "expected ';' or ']' in locations, found "+p.tok.describe())
		}
	}
	p.next()
}
