package fix

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// Options are what a repair is checked under.
type Options struct {
	// Model is the memory model (a built-in name or a .cat file); "" for
	// the architecture's.
	Model       string
	IncludeDirs []string
	// Bound is the times a backward jump may be taken on one path
	// (litmus tests with loops) or the unrolling bound (.pts programs).
	Bound int
	Costs Costs
	// Target is the compilation target of a .pts program.
	Target string
	// Engine checks .pts programs: "smt" (default) or "enum".
	Engine string
	// Races: in a C program, a data race (a race flag of the model) is
	// as bad as a failing assertion.
	Races bool
}

// Text is a source file cut in lines, with the edits that make a patched
// version.
type Text struct {
	File  string
	Lines []string // without their '\n'
}

// NewText cuts src into lines.
func NewText(file string, src []byte) *Text {
	s := strings.TrimSuffix(string(src), "\n")
	return &Text{File: file, Lines: strings.Split(s, "\n")}
}

// patch is one patched version: the text and, for each of its lines
// (1-based, index 0 unused), the input's line it comes from (0 for an
// inserted line).
type patch struct {
	src    []byte
	lines  []string
	lineOf []int
	// evLine, when set, maps each patched line to the input line whose
	// access it carries, for the witnesses: the further rows of a
	// replacement (the load of "xor r9,r1,r1; lwzx r5,r9,r4") carry the
	// access of the line they replace, though the diff shows them added.
	evLine []int
}

// eventLines is the map from patched lines to input lines for witnesses.
func (p *patch) eventLines() []int {
	if p.evLine != nil {
		return p.evLine
	}
	return p.lineOf
}

// litmusSubject is a litmus test (assembly or C) to repair.
type litmusSubject struct {
	text   *Text
	t      *spec.Test // the input, parsed
	family string     // the cost table's target: x86, power, ...
	cands  []Cand
	opts   Options
	loopy  []bool

	m     *cat.Model
	mname string
	tags  []string
	// rows: for an assembly test, the candidate's cell edit
	cellOf map[int]int // candidate -> column (assembly)
	// shown: the further witnesses of the last explicit check
	shown []*result.Execution
	// scratch: the register a locked store borrows (see lockScratch),
	// found once: per store, it cost a scan of the whole test (fix on a
	// test of 10 000 stores never ended, and ignored SIGINT).
	scratch     string
	scratchDone bool
	acc         lineAccesses
}

// families maps an architecture's header word to its cost-table target
// and its fences as written in the litmus dialect (by cost-table name).
var families = map[string]struct {
	family string
	fences [][2]string // cost-table name, mnemonic
}{
	"X86":     {"x86", [][2]string{{"mfence", "MFENCE"}}},
	"PPC":     {"power", [][2]string{{"lwsync", "lwsync"}, {"sync", "sync"}}},
	"AARCH64": {"aarch64", [][2]string{{"dmb ishld", "DMB ISHLD"}, {"dmb ishst", "DMB ISHST"}, {"dmb ish", "DMB ISH"}}},
	// RISC-V's fences, the weaker of two at equal cost first (fence r,w
	// before fence r,rw and fence rw,w): the hitting set breaks ties by
	// the order of the candidates, and fence r,rw was chosen where fence
	// r,w does (LB+addr+poxp), which the self-check's weakening found.
	"RISCV": {"riscv", [][2]string{{"fence r,r", "fence r,r"}, {"fence w,w", "fence w,w"}, {"fence r,w", "fence r,w"}, {"fence r,rw", "fence r,rw"}, {"fence rw,w", "fence rw,w"}, {"fence w,r", "fence w,r"}, {"fence w,rw", "fence w,rw"}, {"fence rw,r", "fence rw,r"}, {"fence.tso", "fence.tso"}, {"fence rw,rw", "fence rw,rw"}}},
	"SPARC": {"sparc", [][2]string{{"membar #loadload", "membar #LoadLoad"}, {"membar #storestore", "membar #StoreStore"}, {"membar #loadstore", "membar #LoadStore"}, {"membar #storeload", "membar #StoreLoad"}}},
	"ARM":   {"armv7", [][2]string{{"dmb st", "DMB ST"}, {"dmb", "DMB"}}},
	"C":     {"c11", [][2]string{{"fence acquire", "atomic_thread_fence(memory_order_acquire);"}, {"fence release", "atomic_thread_fence(memory_order_release);"}, {"fence acq_rel", "atomic_thread_fence(memory_order_acq_rel);"}, {"fence seq_cst", "atomic_thread_fence(memory_order_seq_cst);"}}},
}

// NewLitmus reads a litmus test for repair.
func NewLitmus(file string, src []byte, opts Options) (Subject, error) {
	return newLitmus(context.Background(), file, src, opts)
}

// newLitmus is NewLitmus stopped when ctx is done (its error is then
// ctx.Err()): the parse of a large test and the listing of its
// candidates are under the time limit.
func newLitmus(ctx context.Context, file string, src []byte, opts Options) (Subject, error) {
	t, err := litmus.ParseContext(ctx, file, src)
	if err != nil {
		return nil, err
	}
	fam, ok := families[strings.ToUpper(t.Arch)]
	if !ok {
		// A valid test Musket cannot repair: a limit (exit status 3,
		// "unsupported"), not bad input.
		return nil, result.Limit(fmt.Sprintf("%s: unsupported: musket fix has no repertoire for %s tests (it has X86, PPC, AArch64, RISCV, ARM, SPARC and C)", file, t.Arch))
	}
	if t.Mixed {
		return nil, result.Limit(fmt.Sprintf("%s: unsupported: musket fix on a mixed-size test", file))
	}
	ms := driver.Models{Model: opts.Model, IncludeDirs: opts.IncludeDirs}
	if err := ms.CheckDialect(t); err != nil {
		return nil, err
	}
	spec, err := ms.SpecFor(t.Arch)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	m, name, err := ms.Load(spec)
	if err != nil {
		return nil, err
	}
	if opts.Costs == nil {
		opts.Costs = DefaultCosts()
	}
	s := &litmusSubject{text: NewText(file, src), t: t, family: fam.family, opts: opts, m: m, mname: name, tags: driver.Tags(t.Arch), cellOf: map[int]int{}, acc: lineAccesses{}}
	for _, th := range t.Threads {
		s.loopy = append(s.loopy, backward(th))
	}
	if fam.family == "c11" {
		s.candidatesC(ctx, fam.fences)
	} else {
		s.candidatesAsm(ctx, fam.fences)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// backward tells whether a thread jumps backwards.
func backward(th *prog.Thread) bool {
	labels, err := th.Labels()
	if err != nil {
		return true
	}
	for i, in := range th.Code {
		if j, ok := in.(prog.Jump); ok && labels[j.Target] <= i {
			return true
		}
	}
	return false
}

// accessLines lists the lines of the memory accesses of a thread, in the
// order of its code, each once.
func accessLines(th *prog.Thread) []int {
	var out []int
	seen := map[int]bool{}
	for i, in := range th.Code {
		switch in.(type) {
		case prog.Load, prog.Store, prog.RMW, prog.StoreCond:
		default:
			continue
		}
		if prog.IsPart(in) || i >= len(th.Pos) {
			continue
		}
		l := th.Pos[i].Line
		if l > 0 && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// lineAccesses lists the access instructions of each thread at each of
// its lines, as accessesAt does, from an index built once per thread:
// scanning a thread's code for each of its lines was quadratic (fix on a
// test of 4 × 65536 instructions spent 20 s of CPU listing its
// candidates, past any -timeout; robust5).
type lineAccesses map[*prog.Thread]map[int][]prog.Instr

// at is accessesAt(th, l).
func (x lineAccesses) at(th *prog.Thread, l int) []prog.Instr {
	idx, ok := x[th]
	if !ok {
		idx = map[int][]prog.Instr{}
		for i, in := range th.Code {
			if i < len(th.Pos) && isAccess(in) {
				idx[th.Pos[i].Line] = append(idx[th.Pos[i].Line], in)
			}
		}
		x[th] = idx
	}
	return idx[l]
}

// isAccess tells whether in is a memory access of its own (not a part of
// a wider one).
func isAccess(in prog.Instr) bool {
	if prog.IsPart(in) {
		return false
	}
	switch in.(type) {
	case prog.Load, prog.Store, prog.RMW, prog.StoreCond:
		return true
	}
	return false
}

// accessesAt lists the access instructions of th at line l.
func accessesAt(th *prog.Thread, l int) []prog.Instr {
	var out []prog.Instr
	for i, in := range th.Code {
		if i >= len(th.Pos) || th.Pos[i].Line != l || prog.IsPart(in) {
			continue
		}
		switch in.(type) {
		case prog.Load, prog.Store, prog.RMW, prog.StoreCond:
			out = append(out, in)
		}
	}
	return out
}

// rowCells splits a line of an assembly table into its cells and what
// follows the row's ';' (ok false when the line is not one row).
func rowCells(line string) (cells []string, rest string, ok bool) {
	i := strings.LastIndexByte(line, ';')
	if i < 0 || strings.Count(line, ";") != 1 {
		return nil, "", false
	}
	return strings.Split(line[:i], "|"), line[i:], true
}

func (s *litmusSubject) candidatesAsm(ctx context.Context, fences [][2]string) {
	n := len(s.t.Threads)
	for ti, th := range s.t.Threads {
		lines := accessLines(th)
		for k, l := range lines {
			if k%1024 == 0 && ctx.Err() != nil {
				return
			}
			cells, _, ok := rowCells(s.text.Lines[l-1])
			if !ok || len(cells) != n {
				continue
			}
			if s.family == "aarch64" {
				s.strengthenA64(ti, th, l, cells[ti])
			}
			if k == len(lines)-1 && !s.loopy[ti] {
				continue
			}
			for _, f := range fences {
				cost, ok := s.opts.Costs.cost(s.family, f[0])
				if !ok {
					continue
				}
				s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:after:%d", ti, l), Thread: ti, Line: l, Fence: true, Name: f[0], Cost: cost, Text: f[1]})
				s.cellOf[len(s.cands)-1] = ti
			}
			if s.family == "power" {
				s.ctrlIsync(ti, th, l, cells[ti])
			}
			if s.family == "x86" {
				s.lockedStore(ti, th, l, cells[ti])
			}
		}
		if !s.loopy[ti] {
			s.dependencies(ti, th, lines)
		}
	}
}

var x86Store = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i)\s*MOV\s+(\[\s*[A-Za-z_][A-Za-z0-9_]*\s*\])\s*,\s*(\$-?[0-9]+|[A-Z]+)\s*$`)
})

// x86Scratch are the registers a locked store may borrow, in the order
// tried: the first that the test names nowhere.
var x86Scratch = []string{"EDI", "ESI", "EBP", "EDX", "ECX", "EBX", "EAX"}

// lockedStore offers, for an x86 store MOV [x],v, the locked RMW that
// Linux's smp_store_mb uses on x86: MOV r,v then XCHG [x],r with a
// register r the test does not use (XCHG with memory is locked: Intel
// SDM vol. 3, 8.2.2, "locked instructions have a total order" and are
// not reordered with earlier or later loads and stores). It replaces the
// store, so it shares the access's group; a fence after the same line is
// a different group.
func (s *litmusSubject) lockedStore(ti int, th *prog.Thread, l int, cell string) {
	acc := s.acc.at(th, l)
	if len(acc) != 1 {
		return
	}
	if _, ok := acc[0].(prog.Store); !ok {
		return
	}
	m := x86Store().FindStringSubmatch(cell)
	cost, ok := s.opts.Costs.cost("x86", "xchg")
	if m == nil || !ok {
		return
	}
	reg := s.lockScratch()
	if reg == "" {
		return
	}
	text := "MOV " + reg + "," + m[2] + "\nXCHG " + m[1] + "," + reg
	s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:access:%d", ti, l), Thread: ti, Line: l, Name: "xchg", Cost: cost, Text: text})
	s.cellOf[len(s.cands)-1] = ti
}

// lockScratch is the first of x86Scratch the test does not use, or "";
// the test's text does not change while the candidates are listed.
func (s *litmusSubject) lockScratch() string {
	if s.scratchDone {
		return s.scratch
	}
	s.scratchDone = true
	used := strings.ToUpper(strings.Join(s.text.Lines, "\n"))
	for _, r := range x86Scratch {
		if !regexp.MustCompile(`\b` + r + `\b`).MatchString(used) {
			s.scratch = r
			break
		}
	}
	return s.scratch
}

var ppcLoad = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)\s*(lwz|lwzx|ld|ldx|lbz|lhz)\s+(r[0-9]+)\s*,`) })

// ctrlIsync offers, after a Power load, a control dependency on its
// register followed by isync (the "ctrlisync" of the litmus tests'
// names): cmpw rD,rD; beq L; L: isync, which orders the load before every
// later access as lwsync would order it before later loads.
func (s *litmusSubject) ctrlIsync(ti int, th *prog.Thread, l int, cell string) {
	acc := s.acc.at(th, l)
	if len(acc) != 1 {
		return
	}
	if _, ok := acc[0].(prog.Load); !ok {
		return
	}
	m := ppcLoad().FindStringSubmatch(cell)
	cost, ok := s.opts.Costs.cost("power", "ctrlisync")
	if m == nil || !ok {
		return
	}
	label := fmt.Sprintf("LCfix%d", l)
	text := "cmpw " + m[2] + "," + m[2] + "\nbeq " + label + "\n" + label + ":\nisync"
	s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:after:%d", ti, l), Thread: ti, Line: l, Fence: true, Name: "ctrlisync", Cost: cost, Text: text})
	s.cellOf[len(s.cands)-1] = ti
}

var (
	a64Ldr = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i)\s*LDR\s+([WX][0-9]+)\s*,\s*\[\s*(X[0-9]+|SP)\s*\]\s*$`)
	})
	a64Str = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?i)\s*STR\s+([WX][0-9]+|[WX]ZR)\s*,\s*\[\s*(X[0-9]+|SP)\s*\]\s*$`)
	})
)

// strengthenA64 offers LDR -> LDAPR or LDAR and STR -> STLR for a plain
// access with a base register and no offset (the only addressing LDAPR,
// LDAR and STLR have).
func (s *litmusSubject) strengthenA64(ti int, th *prog.Thread, l int, cell string) {
	acc := s.acc.at(th, l)
	if len(acc) != 1 {
		return
	}
	add := func(name, text string) {
		cost, ok := s.opts.Costs.cost("aarch64", name)
		if !ok {
			return
		}
		s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:access:%d", ti, l), Thread: ti, Line: l, Name: name, Cost: cost, Text: text})
		s.cellOf[len(s.cands)-1] = ti
	}
	switch in := acc[0].(type) {
	case prog.Load:
		if m := a64Ldr().FindStringSubmatch(cell); m != nil && len(in.Tags) == 0 {
			// LDAPR (Armv8.3's acquire-PC) first: it orders the load
			// before the later accesses as LDAR does, but not after an
			// earlier STLR; at equal cost the weaker is offered first.
			add("ldapr", "LDAPR "+m[1]+",["+m[2]+"]")
			add("ldar", "LDAR "+m[1]+",["+m[2]+"]")
		}
	case prog.Store:
		if m := a64Str().FindStringSubmatch(cell); m != nil && len(in.Tags) == 0 {
			add("stlr", "STLR "+m[1]+",["+m[2]+"]")
		}
	}
}

// C11 orders, weakest first; stronger tells whether a is stronger than b.
var c11Rank = map[string]int{"relaxed": 0, "consume": 1, "acquire": 1, "release": 1, "acq_rel": 2, "seq_cst": 3}

func stronger(a, b string) bool {
	if c11Rank[a] != c11Rank[b] {
		return c11Rank[a] > c11Rank[b]
	}
	return false
}

var memOrder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`memory_order_(relaxed|consume|acquire|release|acq_rel|seq_cst)\b`)
})

func (s *litmusSubject) candidatesC(ctx context.Context, fences [][2]string) {
	for ti, th := range s.t.Threads {
		lines := accessLines(th)
		for k, l := range lines {
			if k%1024 == 0 && ctx.Err() != nil {
				return
			}
			line := s.text.Lines[l-1]
			acc := s.acc.at(th, l)
			ords := memOrder().FindAllStringSubmatchIndex(line, -1)
			if len(acc) == 1 && len(ords) == 1 {
				cur := line[ords[0][2]:ords[0][3]]
				var want []string
				switch acc[0].(type) {
				case prog.Load:
					want = []string{"acquire", "seq_cst"}
				case prog.Store:
					want = []string{"release", "seq_cst"}
				case prog.RMW:
					want = []string{"acquire", "release", "acq_rel", "seq_cst"}
				}
				base, _ := s.opts.Costs.cost("c11", cur)
				for _, o := range want {
					cost, ok := s.opts.Costs.cost("c11", o)
					if !ok || !stronger(o, cur) || (cur == "acquire" && o == "release") || (cur == "release" && o == "acquire") {
						continue
					}
					if cost -= base; cost < 0 {
						cost = 0
					}
					s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:access:%d", ti, l), Thread: ti, Line: l, Name: o, Cost: cost, Text: "memory_order_" + o, Coarse: true})
				}
			}
			if k == len(lines)-1 && !s.loopy[ti] {
				continue
			}
			if !simpleStatement(line) {
				continue
			}
			for _, f := range fences {
				cost, ok := s.opts.Costs.cost("c11", f[0])
				if !ok {
					continue
				}
				s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:after:%d", ti, l), Thread: ti, Line: l, Fence: true, Name: f[0], Cost: cost, Text: f[1]})
			}
		}
	}
}

func (s *litmusSubject) Candidates() []Cand { return s.cands }
func (s *litmusSubject) Loopy(thread int) bool {
	return thread >= 0 && thread < len(s.loopy) && s.loopy[thread]
}

// apply patches the input with the candidates sel.
func (s *litmusSubject) apply(sel []int) *patch {
	repl := map[int][]int{}   // line -> candidates replacing in it
	insert := map[int][]int{} // line -> fences after it
	for _, c := range sel {
		if s.cands[c].Fence {
			insert[s.cands[c].Line] = append(insert[s.cands[c].Line], c)
		} else {
			repl[s.cands[c].Line] = append(repl[s.cands[c].Line], c)
		}
	}
	p := &patch{lineOf: []int{0}, evLine: []int{0}}
	emit := func(line string, orig int) {
		p.lines = append(p.lines, line)
		p.lineOf = append(p.lineOf, orig)
		p.evLine = append(p.evLine, orig)
	}
	for i, line := range s.text.Lines {
		l := i + 1
		emitted := false
		if rs := repl[l]; len(rs) > 0 {
			if s.family == "c11" {
				line = memOrder().ReplaceAllString(line, s.cands[rs[0]].Text)
			} else if cells, rest, ok := rowCells(line); ok {
				// A replacement of several instructions: the first
				// takes the access's cell, the others follow in rows
				// of their own (before any fence inserted after it).
				var more [][2]int // column, candidate
				for _, c := range rs {
					parts := strings.Split(s.cands[c].Text, "\n")
					cells[s.cellOf[c]] = fitCell(parts[0], len(cells[s.cellOf[c]]))
					if len(parts) > 1 {
						more = append(more, [2]int{s.cellOf[c], c})
					}
				}
				line = strings.Join(cells, "|") + rest
				emit(line, l)
				for k := 1; ; k++ {
					row := make([]string, len(cells))
					for j := range cells {
						row[j] = fitCell("", len(cells[j]))
					}
					any := false
					for _, mc := range more {
						parts := strings.Split(s.cands[mc[1]].Text, "\n")
						if k < len(parts) {
							row[mc[0]] = fitCell(parts[k], len(cells[mc[0]]))
							any = true
						}
					}
					if !any {
						break
					}
					emit(strings.Join(row, "|")+";", 0)
					p.evLine[len(p.evLine)-1] = l
				}
				emitted = true
			}
		}
		if !emitted {
			emit(line, l)
		}
		fs := insert[l]
		if len(fs) == 0 {
			continue
		}
		if s.family == "c11" {
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			for _, c := range fs {
				emit(indent+s.cands[c].Text, 0)
			}
			continue
		}
		cells, _, _ := rowCells(s.text.Lines[i])
		rows := 0
		for _, c := range fs {
			rows = max(rows, len(strings.Split(s.cands[c].Text, "\n")))
		}
		for k := 0; k < rows; k++ {
			row := make([]string, len(cells))
			for j := range cells {
				row[j] = fitCell("", len(cells[j]))
			}
			for _, c := range fs {
				parts := strings.Split(s.cands[c].Text, "\n")
				if k < len(parts) {
					j := s.cellOf[c]
					row[j] = fitCell(parts[k], len(cells[j]))
				}
			}
			emit(strings.Join(row, "|")+";", 0)
		}
	}
	p.src = []byte(strings.Join(p.lines, "\n") + "\n")
	return p
}

// fitCell writes text as a table cell of width w (wider when it must).
func fitCell(text string, w int) string {
	c := " " + text + " "
	if text == "" {
		c = " "
	}
	for len(c) < w {
		c += " "
	}
	return c
}

// Check checks the test patched with sel under the model.
func (s *litmusSubject) Check(ctx context.Context, sel []int) (bool, *Witness, error) {
	p := s.apply(sel)
	bad, x, t, err := s.run(ctx, p.src)
	if err != nil {
		return false, nil, err
	}
	if !bad {
		return false, nil, nil
	}
	w := witnessOf(x, t, p.eventLines())
	for _, y := range s.shown {
		if y != x {
			w.More = append(w.More, witnessOf(y, t, p.eventLines()))
		}
	}
	s.shown = nil
	return true, w, nil
}

// moreWitnesses bounds the witnesses the explicit engine lists per check
// (each one a constraint of the hitting set: fewer checks).
const moreWitnesses = 64

// run checks a version of the test: whether its condition (for forall:
// its negation) is reachable, with a witness.
func (s *litmusSubject) run(ctx context.Context, src []byte) (bool, *result.Execution, *spec.Test, error) {
	t, err := litmus.Parse(s.text.File, src)
	if err != nil {
		return false, nil, nil, fmt.Errorf("the patched test does not parse (a bug of musket fix): %v", err)
	}
	q := *t
	if t.Quant == spec.Forall {
		q.Cond = spec.Not{C: t.Cond}
		q.Quant = spec.Exists
	} else {
		q.Quant = spec.Exists
	}
	for _, th := range q.Threads {
		if backward(th) {
			// Loops: the SMT engine on the loops unwound, as musket
			// check does (its witness's PCs are the unwound code's,
			// whose positions are the input's).
			u, err := compile.Unroll(&q, s.opts.Bound+1)
			if err != nil {
				return false, nil, nil, err
			}
			r, _ := bmc.RunCut(ctx, u, s.m, s.mname, bmc.Options{TagNames: s.tags, VerdictOnly: true, PositiveOnly: true})
			if err := finished(s.text.File, r); err != nil {
				return false, nil, nil, err
			}
			return r.Positive > 0, r.Witness, u, nil
		}
	}
	r := enum.Run(ctx, &q, s.m, s.mname, enum.Options{TagNames: s.tags, Bound: s.opts.Bound, Show: "prop", NShow: moreWitnesses, SpeedCheck: enum.SpeedOn})
	if err := finished(s.text.File, r); err != nil {
		return false, nil, nil, err
	}
	s.shown = r.Shown
	return r.Positive > 0, r.Witness, &q, nil
}

// replay is the kill test (kill.go) on the test patched with sel: the
// loop-free test, or the test with its loops unwound as the check that
// found the witnesses unwound them.
func (s *litmusSubject) replay(ctx context.Context, sel []int, ws []*Witness) ([]bool, error) {
	t, err := litmus.Parse(s.text.File, s.apply(sel).src)
	if err != nil {
		return nil, fmt.Errorf("the patched test does not parse (a bug of musket fix): %v", err)
	}
	q := *t
	if t.Quant == spec.Forall {
		q.Cond = spec.Not{C: t.Cond}
	}
	q.Quant = spec.Exists
	u := &q
	if loopy(&q) {
		if u, err = compile.Unroll(&q, s.opts.Bound+1); err != nil {
			return nil, err
		}
	}
	pins, at := pinsOf(ws)
	got, err := enum.Replay(ctx, u, s.m, s.mname, enum.Options{TagNames: s.tags, Bound: s.opts.Bound}, pins)
	if err != nil {
		return nil, err
	}
	return spread(len(ws), at, got), nil
}

// finished is the error of a check that gave no verdict.
func finished(file string, r *result.Result) error {
	switch {
	case r.Err != nil:
		return r.Err
	case r.Status != result.Done:
		return fmt.Errorf("%s: the check did not finish (%v)", file, r.Status)
	}
	return nil
}

// loopy tells whether a test has a loop.
func loopy(t *spec.Test) bool {
	for _, th := range t.Threads {
		if backward(th) {
			return true
		}
	}
	return false
}

// Patched is the text of the input patched with a repair.
func Patched(s Subject, fix []int) []byte {
	switch s := s.(type) {
	case *litmusSubject:
		return s.apply(fix).src
	case *ptsSubject:
		return s.apply(fix).src
	case *cSubject:
		return s.apply(fix).src
	}
	return nil
}

func (s *litmusSubject) Name() string   { return s.t.Name }
func (s *litmusSubject) Target() string { return s.t.Arch + ", model " + s.mname }
func (s *litmusSubject) Condition() string {
	if s.t.Quant == spec.Forall {
		return "a state violating forall (" + spec.FormatCond(s.t.Cond) + ")"
	}
	return "exists (" + spec.FormatCond(s.t.Cond) + ")"
}

// New reads a file to repair: a litmus test (.litmus), a .pts program or
// a C program (.c).
func New(file string, src []byte, opts Options) (Subject, error) {
	return NewContext(context.Background(), file, src, opts)
}

// NewContext is New stopped when ctx is done (its error is then
// ctx.Err()): musket fix reads its input under -timeout and the signals
// (a test of 4 × 65536 instructions took seconds to read and list).
func NewContext(ctx context.Context, file string, src []byte, opts Options) (Subject, error) {
	if opts.Costs == nil {
		opts.Costs = DefaultCosts()
	}
	if strings.HasSuffix(file, ".pts") {
		return NewPts(file, src, opts)
	}
	if strings.HasSuffix(file, ".c") {
		return NewC(ctx, file, src, opts)
	}
	if opts.Races {
		return nil, fmt.Errorf("%s: -races is for C programs", file)
	}
	if opts.Target != "" {
		return nil, fmt.Errorf("%s: -target is for .pts programs; a litmus test is repaired for its own architecture (use -model for another model)", file)
	}
	return newLitmus(ctx, file, src, opts)
}

// simpleStatement tells whether a line of C is one statement alone, after
// which a fence runs exactly when the statement has run: no braces, no
// control keyword, one ';' at its end.
func simpleStatement(line string) bool {
	l := strings.TrimSpace(codePart(line))
	if !strings.HasSuffix(l, ";") || strings.Count(l, ";") != 1 || strings.ContainsAny(l, "{}") {
		return false
	}
	for _, kw := range []string{"if", "else", "while", "for", "do", "switch", "case", "default", "return", "goto"} {
		if l == kw || strings.HasPrefix(l, kw+" ") || strings.HasPrefix(l, kw+"(") || strings.HasPrefix(l, kw+":") {
			return false
		}
	}
	return true
}
