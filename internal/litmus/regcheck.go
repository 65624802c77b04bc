package litmus

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
)

// checkAddrRegs refuses a register that an instruction uses to form an
// address when the thread never sets it nor any other register of the
// address (an index register never set holds 0, as in herd7): neither the initial state nor
// any instruction of the thread gives it a value, so it holds 0 and the
// access can only fail. The error names the thread, the register and the
// instruction as written, at its position (a typo in a register name
// would otherwise surface as "access to non-address 0" at run time).
func (p *parser) checkAddrRegs() {
	for _, th := range p.t.Threads {
		set := map[string]bool{}
		for _, e := range p.t.Init {
			if e.Ref.Thread == th.ID {
				set[e.Ref.Name] = true
			}
		}
		for _, in := range th.Code {
			for _, r := range prog.Defs(in) {
				set[r] = true
			}
		}
		reported := map[string]bool{}
		for i, in := range th.Code {
			addr, _ := prog.AddrOf(in)
			regs := prog.ExprRegs(addr)
			if anySet(regs, set) {
				// an index register never set holds 0, as in herd7
				// ([X0,W5,SXTW] with W5 unset: herdtools7's
				// catalogue/aarch64-cas/MP+rel+CAS-no-RsRs-addr)
				continue
			}
			for _, r := range regs {
				if set[r] || reported[r] || strings.HasPrefix(r, "%") {
					continue
				}
				reported[r] = true
				var pos prog.Pos
				if i < len(th.Pos) {
					pos = th.Pos[i]
				}
				what := "an instruction"
				if text := p.cellText(pos); text != "" {
					what = fmt.Sprintf("%q", text)
				}
				p.errs.Add(pos, fmt.Sprintf("%s: register %s is used as an address by %s but never set: give it a location in the initial state (%d:%s=x) or write it before",
					th.Name, r, what, th.ID, r))
			}
		}
	}
}

// anySet tells whether some register of regs is set (or Musket's own).
func anySet(regs []string, set map[string]bool) bool {
	for _, r := range regs {
		if set[r] || strings.HasPrefix(r, "%") {
			return true
		}
	}
	return false
}

// cellText is the text of the table cell that starts at pos: up to the
// next '|', ';' or line end, comments left in.
func (p *parser) cellText(pos prog.Pos) string {
	sc := p.sc
	off, ok := sc.lines.Offset(pos)
	if !ok || off >= len(sc.src) {
		return ""
	}
	end := off
	for end < len(sc.src) && sc.src[end] != '|' && sc.src[end] != ';' && sc.src[end] != '\n' {
		end++
	}
	return strings.TrimSpace(string(sc.src[off:end]))
}
