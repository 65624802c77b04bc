package fix

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/musket-verify/musket/internal/prog"
)

// Dependencies as repairs. On Power, ARMv7, AArch64 and RISC-V a read
// followed in its thread by an access whose address (addr) or stored
// value (data) depends on the value read is ordered before that access
// by the models (Power's and ARM's ppo, RVWMO's rules 9-11), with no
// fence: the false-dependency idiom of the litmus tests of Sarkar, Sewell,
// Alglave, Maranget, Williams, "Understanding POWER Multiprocessors"
// (PLDI 2011) and of herd's diy generators, an exclusive-or of the
// register read with itself (zero, but syntactically dependent) added to
// the address or to the value. A dependency orders only its two accesses
// (and, through addr;po, later writes); it is not cumulative, so it
// cannot stand in for a barrier where one is needed (IRIW).
//
// A candidate "addr" from the load at line a to the access at line b
// rewrites b's cell as
//
//	power    xor rT,rA,rA ; lwzx rX,rT,rB      (b: lwz rX,0(rB))
//	         xor rT,rA,rA ; stwx rS,rT,rB      (b: stw rS,0(rB))
//	aarch64  EOR WT,WA,WA ; LDR WX,[XB,WT,SXTW] (STR likewise)
//	armv7    EOR RT,RA,RA ; LDR RX,[RB,RT]     (STR likewise)
//	riscv    xor xT,xA,xA ; add xT,xT,xB ; lw xX,d(xT) (sw likewise)
//
// and "data" (b a store) makes the stored value depend on it:
//
//	power    xor rT,rA,rA ; add rT,rT,rS ; stw rT,0(rB)
//	aarch64  EOR WT,WA,WA ; ADD WT,WT,WS ; STR WT,[XB]
//	armv7    EOR RT,RA,RA ; ADD RT,RT,RS ; STR RT,[RB]
//	riscv    xor xT,xA,xA ; add xT,xT,xS ; sw xT,d(xB)
//
// where rT is a register the test names nowhere, and rA (the load's
// destination) is written by no instruction between a and b. Both
// replace b's access, so they are in b's access group (one change per
// access; on AArch64 they exclude LDAR/STLR there).

type depForm struct {
	load  *regexp.Regexp // the load a: group 1 its destination register
	ldB   *regexp.Regexp // a load b that can take an address dependency
	stB   *regexp.Regexp // a store b
	addrL func(t, a string, m []string) string
	addrS func(t, a string, m []string) string
	data  func(t, a string, m []string) string // "" when it cannot
	// scratch are the registers tried for rT, by number.
	scratch []int
	reg     func(n int) []string // the names of register n (all widths)
}

// depForms are made on first use: their regular expressions would
// otherwise be compiled at every start of musket.
var depForms = sync.OnceValue(func() map[string]depForm {
	return map[string]depForm{
		"power": {
			load: regexp.MustCompile(`^(?i)\s*(?:lwz|lwzx)\s+(r[0-9]+)\s*,`),
			ldB:  regexp.MustCompile(`^\s*(lwz)\s+(r[0-9]+)\s*,\s*0\s*\(\s*(r[0-9]+)\s*\)\s*$`),
			stB:  regexp.MustCompile(`^\s*(stw)\s+(r[0-9]+)\s*,\s*0\s*\(\s*(r[0-9]+)\s*\)\s*$`),
			addrL: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nlwzx " + m[2] + "," + t + "," + m[3]
			},
			addrS: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nstwx " + m[2] + "," + t + "," + m[3]
			},
			data: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nadd " + t + "," + t + "," + m[2] + "\nstw " + t + ",0(" + m[3] + ")"
			},
			scratch: rangeInts(9, 31),
			reg:     func(n int) []string { return []string{fmt.Sprintf("r%d", n)} },
		},
		"aarch64": {
			load: regexp.MustCompile(`^(?i)\s*LDR\s+([WX][0-9]+)\s*,\s*\[\s*(?:X[0-9]+|SP)\s*\]\s*$`),
			ldB:  regexp.MustCompile(`^(?i)\s*(LDR)\s+([WX][0-9]+)\s*,\s*\[\s*(X[0-9]+)\s*\]\s*$`),
			stB:  regexp.MustCompile(`^(?i)\s*(STR)\s+([WX][0-9]+|[WX]ZR)\s*,\s*\[\s*(X[0-9]+)\s*\]\s*$`),
			addrL: func(t, a string, m []string) string {
				return "EOR W" + t + ",W" + a[1:] + ",W" + a[1:] + "\nLDR " + m[2] + ",[" + m[3] + ",W" + t + ",SXTW]"
			},
			addrS: func(t, a string, m []string) string {
				return "EOR W" + t + ",W" + a[1:] + ",W" + a[1:] + "\nSTR " + m[2] + ",[" + m[3] + ",W" + t + ",SXTW]"
			},
			data: func(t, a string, m []string) string {
				s := strings.ToUpper(m[2])
				if strings.HasSuffix(s, "ZR") {
					return ""
				}
				w := s[:1] // the width of the stored register
				return "EOR " + w + t + "," + w + a[1:] + "," + w + a[1:] + "\nADD " + w + t + "," + w + t + "," + m[2] + "\nSTR " + w + t + ",[" + m[3] + "]"
			},
			scratch: rangeInts(9, 28),
			reg:     func(n int) []string { return []string{fmt.Sprintf("W%d", n), fmt.Sprintf("X%d", n)} },
		},
		"armv7": {
			load: regexp.MustCompile(`^(?i)\s*LDR\s+(R[0-9]+)\s*,\s*\[\s*R[0-9]+\s*\]\s*$`),
			ldB:  regexp.MustCompile(`^(?i)\s*(LDR)\s+(R[0-9]+)\s*,\s*\[\s*(R[0-9]+)\s*\]\s*$`),
			stB:  regexp.MustCompile(`^(?i)\s*(STR)\s+(R[0-9]+)\s*,\s*\[\s*(R[0-9]+)\s*\]\s*$`),
			addrL: func(t, a string, m []string) string {
				return "EOR " + t + "," + a + "," + a + "\nLDR " + m[2] + ",[" + m[3] + "," + t + "]"
			},
			addrS: func(t, a string, m []string) string {
				return "EOR " + t + "," + a + "," + a + "\nSTR " + m[2] + ",[" + m[3] + "," + t + "]"
			},
			data: func(t, a string, m []string) string {
				return "EOR " + t + "," + a + "," + a + "\nADD " + t + "," + t + "," + m[2] + "\nSTR " + t + ",[" + m[3] + "]"
			},
			scratch: rangeInts(5, 12),
			reg:     func(n int) []string { return []string{fmt.Sprintf("R%d", n)} },
		},
		"riscv": {
			load: regexp.MustCompile(`^\s*(?:lw|ld)\s+(x[0-9]+)\s*,\s*-?[0-9]*\s*\(\s*x[0-9]+\s*\)\s*$`),
			ldB:  regexp.MustCompile(`^\s*(lw|ld)\s+(x[0-9]+)\s*,\s*(-?[0-9]*)\s*\(\s*(x[0-9]+)\s*\)\s*$`),
			stB:  regexp.MustCompile(`^\s*(sw|sd)\s+(x[0-9]+)\s*,\s*(-?[0-9]*)\s*\(\s*(x[0-9]+)\s*\)\s*$`),
			addrL: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nadd " + t + "," + t + "," + m[4] + "\n" + m[1] + " " + m[2] + "," + m[3] + "(" + t + ")"
			},
			addrS: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nadd " + t + "," + t + "," + m[4] + "\n" + m[1] + " " + m[2] + "," + m[3] + "(" + t + ")"
			},
			data: func(t, a string, m []string) string {
				return "xor " + t + "," + a + "," + a + "\nadd " + t + "," + t + "," + m[2] + "\n" + m[1] + " " + t + "," + m[3] + "(" + m[4] + ")"
			},
			scratch: append(rangeInts(28, 31), rangeInts(5, 27)...),
			reg:     func(n int) []string { return []string{fmt.Sprintf("x%d", n)} },
		},
	}
})

func rangeInts(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

// scratchReg is a register of form the test names nowhere, as form
// writes it in the patch (the number alone for AArch64, whose widths the
// templates add), or "".
func (s *litmusSubject) scratchReg(form depForm) string {
	text := strings.Join(s.text.Lines, "\n")
	for _, n := range form.scratch {
		free := true
		for _, r := range form.reg(n) {
			if regexp.MustCompile(`(?i)\b` + r + `\b`).MatchString(text) {
				free = false
				break
			}
		}
		if free {
			if s.family == "aarch64" {
				return fmt.Sprint(n)
			}
			return form.reg(n)[0]
		}
	}
	return ""
}

// accessIndex is the index in th.Code of the one access at line l (-1
// when there is not exactly one).
func accessIndex(th *prog.Thread, l int) int {
	at := -1
	for i, in := range th.Code {
		if i >= len(th.Pos) || th.Pos[i].Line != l || prog.IsPart(in) {
			continue
		}
		switch in.(type) {
		case prog.Load, prog.Store, prog.RMW, prog.StoreCond:
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// dependencies offers, in a thread without loops, the dependencies from
// each plain load to each later access of the thread (see above).
func (s *litmusSubject) dependencies(ti int, th *prog.Thread, lines []int) {
	form, ok := depForms()[s.family]
	if !ok {
		return
	}
	addrCost, addrOK := s.opts.Costs.cost(s.family, "addr")
	dataCost, dataOK := s.opts.Costs.cost(s.family, "data")
	if !addrOK && !dataOK {
		return
	}
	t := s.scratchReg(form)
	if t == "" {
		return
	}
	n := len(s.t.Threads)
	cell := func(l int) string {
		cells, _, ok := rowCells(s.text.Lines[l-1])
		if !ok || len(cells) != n {
			return ""
		}
		return cells[ti]
	}
	for k, a := range lines {
		ia := accessIndex(th, a)
		if ia < 0 {
			continue
		}
		ld, ok := th.Code[ia].(prog.Load)
		if !ok || len(ld.Tags) != 0 {
			continue
		}
		ma := form.load.FindStringSubmatch(cell(a))
		if ma == nil {
			continue
		}
		ra := ma[1]
		for _, b := range lines[k+1:] {
			ib := accessIndex(th, b)
			if ib < 0 || redefined(th, ld.Dst, ia, ib) {
				continue
			}
			cb := cell(b)
			add := func(name string, cost int, text string) {
				if text == "" {
					return
				}
				s.cands = append(s.cands, Cand{Group: fmt.Sprintf("%d:access:%d", ti, b), Thread: ti, Line: b, From: a, Name: name, Cost: cost, Text: text})
				s.cellOf[len(s.cands)-1] = ti
			}
			switch in := th.Code[ib].(type) {
			case prog.Load:
				if m := form.ldB.FindStringSubmatch(cb); m != nil && len(in.Tags) == 0 && addrOK {
					add("addr", addrCost, form.addrL(t, ra, m))
				}
			case prog.Store:
				m := form.stB.FindStringSubmatch(cb)
				if m == nil || len(in.Tags) != 0 {
					continue
				}
				if addrOK {
					add("addr", addrCost, form.addrS(t, ra, m))
				}
				if dataOK {
					add("data", dataCost, form.data(t, ra, m))
				}
			}
		}
	}
}

// redefined tells whether an instruction strictly between i and j writes
// register r from values that do not include r (the dependency would
// then be on another value). An instruction that writes r from r itself
// keeps r's value a function of the load's, which is what a syntactic
// dependency is (the models follow data flow through registers): the
// front end's 32-bit wrap of a Power register after a load (r = r mod
// 2^32, added when a test compares words with cmpw) is one; a load is
// never one, and it took
// every dependency out of the tests with a control dependency
// (WRC+ctrl+po was repaired with two lwsyncs, cost 4, where the
// literature's lwsync and addr cost 3).
func redefined(th *prog.Thread, r string, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if !slices.Contains(prog.Defs(th.Code[k]), r) {
			continue
		}
		switch th.Code[k].(type) {
		case prog.Load, prog.RMW, prog.StoreCond:
			// A value read from memory, even at an address
			// depending on r: another value.
			return true
		}
		if !slices.Contains(prog.Uses(th.Code[k]), r) {
			return true
		}
	}
	return false
}
