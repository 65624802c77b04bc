package litmus

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/herdhash"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// ParseFile reads and parses the litmus test in the file at path.
func ParseFile(path string) (*spec.Test, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses a litmus test; file names the source in positions. The
// architecture word of the header selects the front-end (see Register)
// that translates the thread table. Errors are a source.ErrorList whose
// messages read "file:line:col: what is wrong".
func Parse(file string, src []byte) (*spec.Test, error) {
	t, err := ParseUnhashed(file, src)
	if err != nil {
		return nil, err
	}
	t.Hash, _ = herdhash.Of(src)
	return t, nil
}

// ParseUnhashed parses like Parse but leaves the test's Hash empty, for
// callers that print no Hash= line (the playground): herd7's digest reads
// the whole test a second time, as herd7 prints it, which costs about
// half as much as the parse itself.
func ParseUnhashed(file string, src []byte) (*spec.Test, error) {
	p := newParser(file, src)
	if bytes.HasPrefix(src, utf8BOM) {
		p.sc.off = len(utf8BOM)
	}
	if err := p.run(p.parse); err != nil {
		return nil, err
	}
	return p.t, nil
}

// ParseWith parses like Parse, except that a test whose architecture word
// names one of fes (by Arch, in any case) is translated by it rather than
// by the registered front-end: a C front-end with the macros of a .def
// file, say (NewCFrontend).
func ParseWith(file string, src []byte, fes ...Frontend) (*spec.Test, error) {
	return parseWith(nil, file, src, fes)
}

// ParseFileContext is ParseFileWith stopped when ctx is done: the parse
// of a test of megabytes, and herd7's hash of it, take a while (0.4 s of
// CPU for 4 × 65536 instructions, several seconds of wall time on a
// loaded machine). It then returns ctx.Err(), not a source.ErrorList.
func ParseFileContext(ctx context.Context, path string, fes ...Frontend) (*spec.Test, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseWith(ctx, path, src, fes)
}

// ParseContext is ParseWith stopped when ctx is done, as ParseFileContext.
func ParseContext(ctx context.Context, file string, src []byte, fes ...Frontend) (*spec.Test, error) {
	return parseWith(ctx, file, src, fes)
}

// parseWith is ParseWith, stopped when ctx (if not nil) is done.
func parseWith(ctx context.Context, file string, src []byte, fes []Frontend) (*spec.Test, error) {
	p := newParser(file, src)
	p.ctx = ctx
	p.override = fes
	if bytes.HasPrefix(src, utf8BOM) {
		p.sc.off = len(utf8BOM)
	}
	if err := p.run(p.parse); err != nil {
		return nil, err
	}
	if ctx != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	p.t.Hash, _ = herdhash.Of(src)
	return p.t, nil
}

// poll stops the parse (as a limit does) when its context is done; the
// table's loops call it.
func (p *parser) poll() {
	if p.ctx != nil && p.ctx.Err() != nil {
		p.limit = p.ctx.Err()
		panic(bailout{})
	}
}

// ParseFileWith reads and parses the litmus test in the file at path, as
// ParseWith does.
func ParseFileWith(path string, fes ...Frontend) (*spec.Test, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWith(path, src, fes...)
}

func newParser(file string, src []byte) *parser {
	p := &parser{t: &spec.Test{File: file, Meta: map[string]string{}}}
	p.sc = newScanner(file, src, p.fail)
	return p
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// bailout is the panic value that stops parsing at the first syntax error.
type bailout struct{}

// run calls f, stopping at a bailout, and returns the errors found.
func (p *parser) run(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		if p.limit != nil {
			err = p.limit
			return
		}
		if len(p.errs) > 0 {
			p.errs.Sort()
			err = p.errs
		}
	}()
	f()
	return nil
}

// parser reads the litmus skeleton. Syntax errors stop it at once;
// errors of the front-ends and of the final checks are all collected.
type parser struct {
	sc   *scanner
	tok  token // current token, in token mode
	errs source.ErrorList
	fe   Frontend
	t    *spec.Test

	override []Frontend // front-ends that take precedence over the registered ones

	depth   int             // nesting of conditions
	threads []threadRef     // every thread a ref names, checked once the table is read
	limit   error           // the table passes MaxThreadCode or MaxTestCode (codelimit.go), or ctx is done
	ctx     context.Context // nil: never stopped (poll)
	arrays  []arrayAtom     // the whole-array atoms of the condition (condarray.go)
	syms    []symInit       // the symbolic registers of the initial state (init.go)
	elems   []elemInit      // the array elements as initial values (initelem.go)
	// variantOff is where the header's "Variant=" line starts (variant.go).
	variantOff int
	// codeInits are the registers holding code labels (codelabel.go).
	codeInits []codeInit
}

type threadRef struct {
	thread int
	off    int
}

//go:noinline // see source.ErrorList.Add
func (p *parser) error(off int, msg string) { p.errs.Add(p.sc.pos(off), msg) }

func (p *parser) fail(off int, msg string) {
	p.error(off, msg)
	panic(bailout{})
}

// next moves to the next token.
func (p *parser) next() { p.tok = p.sc.next() }

// peek returns the token after the current one without consuming it.
func (p *parser) peek() token {
	save := p.sc.off
	t := p.sc.next()
	p.sc.off = save
	return t
}

// expect consumes a token of kind k or stops with an error saying what
// it was for.
func (p *parser) expect(k tokKind, what string) token {
	t := p.tok
	if t.kind != k {
		p.fail(t.off, fmt.Sprintf("expected %s %s, found %s", k, what, t.describe()))
	}
	p.next()
	return t
}

func (p *parser) isWord(w string) bool { return p.tok.kind == tIdent && p.tok.text == w }

func (p *parser) parse() {
	p.header()
	p.checkVariants()
	p.init()
	if cf, ok := p.fe.(CodeFrontend); ok {
		p.code(cf)
	} else {
		p.table()
		if len(p.errs) == 0 {
			p.bindSymRegs()
			p.resolveIndirect()
			p.checkAddrRegs()
		}
	}
	p.next()
	p.trailer()
	p.checkCodeObserved()
	p.noteArrays()
	if tc, ok := p.fe.(TestChecker); ok {
		if err := tc.CheckTest(p.t); err != nil {
			p.addError(err, 0, nil)
		}
	}
	if len(p.errs) == 0 && p.fe != nil {
		observeRegTypes(p.t, p.fe.Arch())
	}
	for _, r := range p.threads {
		if r.thread >= len(p.t.Threads) {
			p.error(r.off, fmt.Sprintf("thread %d does not exist (the test has %d)", r.thread, len(p.t.Threads)))
		}
	}
}

// header reads "ARCH NAME", then an optional "(alias)", an optional
// quoted doc string and key=value lines, up to the '{' of the init block.
func (p *parser) header() {
	sc := p.sc
	sc.skipSpace()
	start := sc.off
	arch := sc.ident("")
	if arch == "" {
		p.fail(start, "not a litmus test: expected the architecture name at the start of the test")
	}
	p.t.Arch = arch
	fe, err := Lookup(arch)
	for _, o := range p.override {
		if o != nil && strings.EqualFold(o.Arch(), arch) {
			fe, err = o, nil
		}
	}
	if err != nil {
		p.unknownArch(start, arch, err)
	}
	p.fe = fe
	sc.skipBlanks()
	if c := sc.peekByte(0); sc.atEOF() || c == '\n' {
		p.fail(sc.off, "missing test name after "+arch)
	}
	// herd7 drops a ".litmus" the name line repeats (PPC's
	// RW-rwa+RW-ra+RW-rwa+CK-PPC.litmus names itself so).
	p.t.Name = strings.TrimSuffix(sc.word(), ".litmus")
	for {
		lineStart := sc.skipHeaderSpace()
		off := sc.off
		c := sc.peekByte(0)
		switch {
		case sc.atEOF():
			p.fail(off, "expected '{' to start the initial state")
		case c == '{':
			return
		case isLetter(c) && p.metaLine():
			// (Before the cases of headerLine, none of which starts
			// with a letter but its last two.)
		case c == '"':
			// Nearly every test of herd7's suites has a doc string.
			p.docString(off)
		default:
			p.headerLine(c, off, lineStart)
		}
	}
}

// unknownArch fails the test whose first word, arch, names no
// architecture Musket has. This and headerLine are out of line, so that
// header, which every test runs once, stays small: the browser compiles
// a WebAssembly function again whole once it has run for a while, and
// header's 11.5 KB were compiled on every first visit.
//
//go:noinline
func (p *parser) unknownArch(start int, arch string, err error) {
	if !hasThreadTable(p.sc.src) {
		// No thread P0 anywhere: not a test of an architecture
		// Musket lacks, but no litmus test at all (a .cub file,
		// text, binary data).
		p.fail(start, fmt.Sprintf("not a litmus test: %q is no architecture and no thread P0 follows", clip(arch, 40)))
	}
	p.fail(start, err.Error())
}

// docString reads the header's doc string, which starts at off.
func (p *parser) docString(off int) {
	// herd7 reads a description that runs over several lines.
	sc := p.sc
	sc.off++
	end := bytes.IndexByte(sc.src[sc.off:], '"')
	if end < 0 {
		p.fail(off, "string not terminated")
	}
	p.t.Doc = string(sc.src[sc.off : sc.off+end])
	sc.off += end + 1
}

// headerLine reads what the header has at off, c, other than the '{' of
// the initial state, a key=value line and the doc string: a comment, the
// alias, free text, or an error. lineStart tells whether off starts a
// line.
//
//go:noinline
func (p *parser) headerLine(c byte, off int, lineStart bool) {
	sc := p.sc
	switch {
	case sc.atComment():
		// A comment that closes is skipped. herd7 reads a header
		// line by line: "(*" there opens a comment only when it ends
		// its line; otherwise the line is free text up to its end
		// or a '{'. So a comment left open in the header (RISCV
		// ISA-LB-DEP-ADDR3-SUCCESS) is read as herd7 reads it,
		// rather than swallowing the test.
		if n := sc.peekByte(2); n == '\n' || n == '{' || sc.commentCloses() {
			sc.skipComment()
			return
		}
		for !sc.atEOF() && sc.peekByte(0) != '\n' && sc.peekByte(0) != '{' {
			sc.off++
		}
	case c == '(' && !lineStart:
		sc.off++
		text, ok := sc.upTo(')')
		if !ok {
			p.fail(off, "missing ')' after the alias")
		}
		p.t.Alias = strings.TrimSpace(text)
	case c == '/' && sc.peekByte(1) == '*':
		// A C comment (C tests have them before the initial state).
		end := bytes.Index(sc.src[sc.off+2:], []byte("*/"))
		if end < 0 {
			p.fail(off, "comment not terminated")
		}
		sc.off += 2 + end + 2
	case c == '/' && sc.peekByte(1) == '/':
		sc.restOfLine()
	case lineStart && !p.threadNamesAhead():
		// Any other line (diy's cycle line, a suite's free text) is
		// skipped as herd7 does, up to the '{' of the initial state.
		for !sc.atEOF() && sc.peekByte(0) != '\n' && sc.peekByte(0) != '{' {
			sc.off++
		}
	case isLetter(c):
		p.fail(off, fmt.Sprintf("expected '{' to start the initial state, found %q", sc.ident("-.")))
	default:
		p.fail(off, fmt.Sprintf("unexpected %s in the header", source.QuoteChar(string(sc.src[off:min(off+4, len(sc.src))]))))
	}
}

// metaLine reads a "key=value" line into Meta and reports whether there
// was one; otherwise it leaves the offset where it was.
func (p *parser) metaLine() bool {
	sc := p.sc
	save := sc.off
	key := sc.ident("-.")
	sc.skipBlanks()
	if key == "" || sc.peekByte(0) != '=' {
		sc.off = save
		return false
	}
	sc.off++
	if strings.EqualFold(key, "Variant") {
		p.variantOff = save
	}
	p.t.Meta[key] = sc.restOfLine()
	return true
}

// threadNamesAhead reports whether the line at the offset starts with a
// thread name (P0, P1, ...): the thread table of a test whose initial
// state is missing, which must not be skipped as free text.
func (p *parser) threadNamesAhead() bool {
	sc := p.sc
	save := sc.off
	w := sc.ident("")
	sc.off = save
	if len(w) < 2 || w[0] != 'P' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// dollarReg joins a '$' and the name or number right after it into one
// identifier token, a MIPS register ("0:$2", "0:$v0").
func (p *parser) dollarReg() {
	if p.tok.kind != tDollar {
		return
	}
	if n := p.peek(); (n.kind == tInt || n.kind == tIdent) && n.off == p.tok.off+1 {
		off := p.tok.off
		p.next()
		p.tok = token{kind: tIdent, text: "$" + p.tok.text, off: off, nl: false}
	}
}

// ref reads a register "0:EAX" / "P0:EAX" or a location "x" / "[x]".
func (p *parser) ref() (spec.Ref, int) {
	t := p.tok
	switch {
	case isThreadToken(t) && p.peek().kind == tColon:
		p.next()
		p.next()
		p.dollarReg()
		if p.tok.kind != tIdent {
			p.fail(p.tok.off, "expected a register name after "+t.text+":, found "+p.tok.describe())
		}
		th := p.threadNum(t)
		name := p.regName(p.tok, th)
		p.next()
		return spec.Ref{Thread: th, Name: name}, t.off
	case t.kind == tIdent:
		p.next()
		if p.tok.kind == tLBrack {
			// "a[1]": cell 1 of the array a, in C tests (whose cells are
			// locations a, a+1, ...; see the initial state).
			asm := asmArrays(p.fe.Arch())
			if !strings.EqualFold(p.fe.Arch(), "C") && !asm {
				p.fail(p.tok.off, "array cells in the condition are supported in C, AArch64, RISC-V and X86_64 tests only")
			}
			p.next()
			i := p.expect(tInt, "as the index of "+t.text)
			p.expect(tRBrack, "after the index")
			n := p.intValue(i, false)
			if n < 0 || n >= maxArray {
				p.fail(i.off, "bad index "+quote(i.text))
			}
			if asm {
				// Element n of the array, whose size the lowering of
				// mixed-size tests knows (aarch64_mixed_chunks.go).
				return spec.Ref{Thread: -1, Name: t.text + "[" + itoa(int(n)) + "]"}, t.off
			}
			return spec.Ref{Thread: -1, Name: CellName(t.text, int(n))}, t.off
		}
		return spec.Ref{Thread: -1, Name: t.text}, t.off
	case t.kind == tLBrack:
		p.next()
		if p.tok.kind != tIdent {
			p.fail(p.tok.off, "expected a location name after '[', found "+p.tok.describe())
		}
		name := p.tok.text
		p.next()
		p.expect(tRBrack, "after the location")
		return spec.Ref{Thread: -1, Name: name}, t.off
	}
	p.fail(t.off, "expected a register or a location, found "+t.describe())
	panic("unreachable")
}

// hasThreadTable tells whether src has the first thread of a litmus
// test: "P0" opening a line (after blanks), followed by a column
// separator, the end of the names or, in C tests, the parameter list. It
// is the regular expression (?m)^[ \t]*P0[ \t]*[|;(], written by hand so
// that the playground's WebAssembly engine links no regexp package.
func hasThreadTable(src []byte) bool {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	for line := 0; line < len(src); {
		i := line
		for i < len(src) && blank(src[i]) {
			i++
		}
		if i+1 < len(src) && src[i] == 'P' && src[i+1] == '0' {
			j := i + 2
			for j < len(src) && blank(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '|' || src[j] == ';' || src[j] == '(') {
				return true
			}
		}
		next := bytes.IndexByte(src[line:], '\n')
		if next < 0 {
			break
		}
		line += next + 1
	}
	return false
}

// clip shortens s to at most n bytes, marking the cut, so that an error
// never echoes a huge token.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
