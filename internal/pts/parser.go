package pts

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/source"
	"github.com/musket-verify/musket/internal/spec"
)

// Arch is the architecture word of the tests Parse returns: a program in
// the C11-like language of "BMC with Memory Models as Modules" (FMCAD 2018), whose loads and stores carry C11 memory
// orders (see Orders) and must be compiled to a target before a hardware
// model can run them.
const Arch = "PTS"

// The memory orders of Fig. 3, as tags of the loads and stores.
const (
	SC  = "sc"
	Rel = "rel"
	Acq = "acq"
	Con = "con"
	Rx  = "rx"
)

// Orders lists the memory-order tags a parsed program may carry.
func Orders() []string { return []string{SC, Rel, Acq, Con, Rx} }

// loadOrders and storeOrders are the orders each access accepts (C11
// has no acquire or consume store and no release load).
var (
	loadOrders  = map[string]bool{Rx: true, Con: true, Acq: true, SC: true}
	storeOrders = map[string]bool{Rx: true, Rel: true, SC: true}
)

// orderSpellings maps the accepted spellings of an order (after a leading
// '_' and "memory_order_" are removed) to its tag.
var orderSpellings = map[string]string{
	"sc": SC, "rel": Rel, "acq": Acq, "con": Con, "rx": Rx,
	"seq_cst": SC, "release": Rel, "acquire": Acq, "consume": Con, "relaxed": Rx,
}

// reserved words cannot name locations, registers or threads.
var reserved = map[string]bool{
	"thread": true, "while": true, "if": true, "then": true, "else": true,
	"exists": true, "forall": true, "program": true,
	"true": true, "True": true, "false": true, "False": true,
	"and": true, "or": true, "not": true,
}

// maxDepth bounds the nesting of statements, expressions and conditions.
const maxDepth = 200

// maxErrors is how many errors the parser collects before it stops.
const maxErrors = 10

// ParseFile reads and parses the program in the file at path.
func ParseFile(path string) (*spec.Test, error) {
	src, err := source.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses a program in that C11-like language; file names the source
// in positions and, without its directory and extension, names the test.
// Errors are a source.ErrorList whose messages read "file:line:col: what
// is wrong".
func Parse(file string, src []byte) (*spec.Test, error) {
	p := &parser{
		t:       &spec.Test{File: file, Arch: Arch, Name: testName(file)},
		locs:    map[string]bool{},
		threads: map[string]int{},
	}
	p.sc = newScanner(file, src, p.error)
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.t, nil
}

func testName(file string) string {
	base := filepath.Base(file)
	if base == "." || base == string(filepath.Separator) {
		return ""
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// item is one scanned token.
type item struct {
	off int
	tok token
	lit string
}

// parser reads a program. Syntax errors stop it at once (a bailout);
// other errors (undeclared names, bad orders) are collected, up to
// maxErrors.
type parser struct {
	sc    *scanner
	cur   item
	ahead []item // tokens scanned past cur
	errs  source.ErrorList
	t     *spec.Test

	locs    map[string]bool // declared locations
	threads map[string]int  // thread names to numbers
	regs    []map[string]bool
	depth   int

	// The thread being translated.
	th     *prog.Thread
	thRegs map[string]bool
	labels int
}

// bailout is the panic value that stops parsing.
type bailout struct{}

func (p *parser) run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		if len(p.errs) > 0 {
			p.errs.Sort()
			err = p.errs
		}
	}()
	p.next()
	p.program()
	return nil
}

func (p *parser) error(off int, msg string) {
	p.errs.Add(p.sc.pos(off), msg)
	if len(p.errs) >= maxErrors {
		panic(bailout{})
	}
}

func (p *parser) fail(off int, msg string) {
	p.error(off, msg)
	panic(bailout{})
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.cur = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.cur = p.scan()
}

func (p *parser) scan() item {
	off, tok, lit := p.sc.scan()
	return item{off, tok, lit}
}

// peek returns the i-th token after the current one (1 is the next).
func (p *parser) peek(i int) item {
	for len(p.ahead) < i {
		p.ahead = append(p.ahead, p.scan())
	}
	return p.ahead[i-1]
}

func (it item) describe() string {
	switch it.tok {
	case tIdent:
		if reserved[it.lit] {
			return "keyword " + it.lit
		}
		return "identifier " + it.lit
	case tInt:
		return "integer " + it.lit
	case tIllegal:
		return "illegal character " + it.lit
	}
	return it.tok.String()
}

func (p *parser) expect(t token, what string) item {
	it := p.cur
	if it.tok != t {
		p.fail(it.off, fmt.Sprintf("expected %s %s, found %s", t, what, it.describe()))
	}
	p.next()
	return it
}

func (p *parser) is(word string) bool { return p.cur.tok == tIdent && p.cur.lit == word }

// name consumes an identifier that is not a reserved word.
func (p *parser) name(what string) item {
	it := p.cur
	if it.tok != tIdent || reserved[it.lit] {
		p.fail(it.off, fmt.Sprintf("expected %s, found %s", what, it.describe()))
	}
	p.next()
	return it
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.cur.off, "nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

// program: ["program" [NAME]] [header] thread+ condition
func (p *parser) program() {
	if p.is("program") {
		p.next()
		if p.cur.tok == tIdent && !reserved[p.cur.lit] {
			p.t.Name = p.cur.lit
			p.next()
		}
	}
	if p.cur.tok == tLBrace {
		p.header()
	}
	if !p.is("thread") {
		p.fail(p.cur.off, "expected thread, found "+p.cur.describe())
	}
	for p.is("thread") {
		p.thread()
	}
	p.condition()
	if p.cur.tok != tEOF {
		p.fail(p.cur.off, "expected end of file after the condition, found "+p.cur.describe())
	}
}

// header: '{' [decl {(',' | ';') decl}] [',' | ';'] '}'
// decl: NAME ['=' value]
func (p *parser) header() {
	p.expect(tLBrace, "to open the locations")
	for p.cur.tok != tRBrace {
		it := p.name("a location name")
		if p.locs[it.lit] {
			p.error(it.off, "location "+it.lit+" declared twice")
		}
		p.locs[it.lit] = true
		v := int64(0)
		if p.cur.tok == tAssign {
			p.next()
			v = p.value()
		}
		p.t.Init = append(p.t.Init, spec.InitEntry{
			Ref:  spec.Ref{Thread: -1, Name: it.lit},
			Val:  prog.IntValue(v),
			Type: "int",
			Pos:  p.sc.pos(it.off),
		})
		if p.cur.tok == tComma || p.cur.tok == tSemi {
			p.next()
			continue
		}
		if p.cur.tok != tRBrace {
			p.fail(p.cur.off, "expected ',' or '}' in the locations, found "+p.cur.describe())
		}
	}
	p.next()
}

// value: ['-'] INT | true | false
func (p *parser) value() int64 {
	neg := false
	if p.cur.tok == tSub {
		neg = true
		p.next()
	}
	it := p.cur
	switch {
	case it.tok == tInt:
		p.next()
		return p.integer(it, neg)
	case !neg && (it.lit == "true" || it.lit == "True"):
		p.next()
		return 1
	case !neg && (it.lit == "false" || it.lit == "False"):
		p.next()
		return 0
	}
	p.fail(it.off, "expected a value, found "+it.describe())
	return 0
}

// integer converts an integer token (decimal, or hexadecimal with 0x).
func (p *parser) integer(it item, neg bool) int64 {
	s := it.lit
	if neg {
		s = "-" + s
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.error(it.off, "integer "+it.lit+" out of range")
		} else {
			p.error(it.off, "malformed integer "+it.lit)
		}
	}
	return v
}

// thread: "thread" NAME ('{' stmts '}' | stmts)
func (p *parser) thread() {
	p.next()
	it := p.name("a thread name")
	if _, dup := p.threads[it.lit]; dup {
		p.error(it.off, "thread "+it.lit+" defined twice")
	}
	id := len(p.t.Threads)
	p.threads[it.lit] = id
	p.th = &prog.Thread{ID: id, Name: it.lit}
	p.thRegs = map[string]bool{}
	p.labels = 0
	if p.cur.tok == tLBrace {
		p.block()
	} else {
		for !p.threadEnds() {
			p.stmt()
		}
	}
	p.t.Threads = append(p.t.Threads, p.th)
	p.regs = append(p.regs, p.thRegs)
}

// threadEnds tells whether the statements of a thread without braces end
// at the current token.
func (p *parser) threadEnds() bool {
	switch p.cur.tok {
	case tEOF, tTilde, tNot:
		return true
	case tIdent:
		switch p.cur.lit {
		case "thread", "exists", "forall", "not":
			return true
		}
	}
	return false
}
