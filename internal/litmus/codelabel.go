package litmus

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// herd7's code labels as values: an initial state may give a register
// the address of a label of the code ("0:R0=P0:foo"), which a jump
// through the register ("BX R0" in ARM, "jr $4" in MIPS) then takes
// (herd7's ARM A015 and MIPS A006). Musket's values have no code
// addresses, so such a jump is resolved when the test is read: the front
// ends make a jump through a register a jump to IndirectTarget(reg), and
// resolveIndirect turns it into a jump to the label the register holds.
// That is exact when the register holds its initial label at every such
// jump: the thread never writes it. The register's value itself is never
// needed when nothing else reads it and the condition does not observe
// it; anything else (a register written by the thread, stored, compared,
// observed, a label of another thread) is refused by name.

// indirectPrefix begins the target of a jump through a register; no
// label a test writes begins with '%'.
const indirectPrefix = "%indirect:"

// IndirectTarget is the target a front-end gives a jump to the address
// register reg holds.
func IndirectTarget(reg string) string { return indirectPrefix + reg }

// codeInit is an initial value that is a code label: register ref holds
// the address of label in thread thread's code.
type codeInit struct {
	ref    spec.Ref
	thread int
	label  string
	off    int
}

// isCodeLabel tells whether the tokens of an initial value are a code
// label "P0:foo".
func isCodeLabel(v []token) bool {
	return len(v) == 3 && v[0].kind == tIdent && isProcName(v[0].text) && v[1].kind == tColon && (v[2].kind == tIdent || v[2].kind == tInt)
}

// codeLabelInit records the initial value "P0:foo" of register ref.
//
//go:noinline
func (p *parser) codeLabelInit(ref spec.Ref, v []token) {
	for _, c := range p.codeInits {
		if c.ref == ref {
			p.fail(v[0].off, fmt.Sprintf("%d:%s is given an initial value twice", ref.Thread, ref.Name))
		}
	}
	th := p.threadNum(v[0])
	p.codeInits = append(p.codeInits, codeInit{ref: ref, thread: th, label: v[2].text, off: v[0].off})
}

// resolveIndirect turns each jump through a register into a jump to the
// code label the register holds from the initial state, or reports why it
// cannot.
func (p *parser) resolveIndirect() {
	for i, th := range p.t.Threads {
		labels := map[string]bool{}
		for _, in := range th.Code {
			if l, ok := in.(prog.Label); ok {
				labels[l.Name] = true
			}
		}
		for k, in := range th.Code {
			j, ok := in.(prog.Jump)
			if !ok || !strings.HasPrefix(j.Target, indirectPrefix) {
				continue
			}
			reg := strings.TrimPrefix(j.Target, indirectPrefix)
			pos := th.Pos[k]
			c, ok := p.codeInit(spec.Ref{Thread: i, Name: reg})
			switch {
			case !ok:
				p.errs.Add(pos, fmt.Sprintf("unsupported jump through register %s of P%d: a computed jump is supported only to a code label the register holds from the initial state (%d:%s=P%d:label)", reg, i, i, reg, i))
				continue
			case c.thread != i:
				p.errs.Add(pos, fmt.Sprintf("unsupported jump through register %s of P%d to a label of P%d: a jump into another thread's code", reg, i, c.thread))
				continue
			case !labels[c.label]:
				p.errs.Add(pos, fmt.Sprintf("jump through register %s of P%d to undefined label %s", reg, i, c.label))
				continue
			}
			j.Target = c.label
			th.Code[k] = j
		}
	}
	// A register holding a code label may be used by jumps only.
	for _, c := range p.codeInits {
		if c.ref.Thread >= len(p.t.Threads) {
			continue
		}
		th := p.t.Threads[c.ref.Thread]
		for k, in := range th.Code {
			if j, ok := in.(prog.Jump); ok && strings.HasPrefix(j.Target, indirectPrefix) {
				continue
			}
			if use, def := contains(prog.Uses(in), c.ref.Name), contains(prog.Defs(in), c.ref.Name); use || def {
				what := "reads"
				if def {
					what = "writes"
				}
				p.errs.Add(th.Pos[k], fmt.Sprintf("unsupported initial value: register %s of P%d holds the code label P%d:%s, and an instruction %s it (code labels are supported only as the target of a jump through a register)", c.ref.Name, c.ref.Thread, c.thread, c.label, what))
				break
			}
		}
	}
}

// codeInit is the code label register ref holds initially, if any.
func (p *parser) codeInit(ref spec.Ref) (codeInit, bool) {
	for _, c := range p.codeInits {
		if c.ref == ref {
			return c, true
		}
	}
	return codeInit{}, false
}

// checkCodeObserved refuses a test whose final condition, filter or
// locations observe a register holding a code label.
func (p *parser) checkCodeObserved() {
	if len(p.codeInits) == 0 {
		return
	}
	refs := append([]spec.Ref(nil), p.t.Locations...)
	for _, c := range []spec.Cond{p.t.Cond, p.t.Filter} {
		if c != nil {
			refs = append(refs, spec.Refs(c)...)
		}
	}
	for _, c := range p.codeInits {
		for _, r := range refs {
			if r == c.ref {
				p.error(c.off, fmt.Sprintf("unsupported test: the final value of %d:%s, the code label P%d:%s, is observed (code labels are supported only as the target of a jump through a register)", c.ref.Thread, c.ref.Name, c.thread, c.label))
				return
			}
		}
	}
}

// instrValue is herd7's instruction value instr:"ADD R1,R2,R3" (quoted
// as written), for tests that store and load instructions (ARM A027, PPC
// A017; herd7's NOP is the value NOP, a bare name). Such a value takes
// part only in equality, as an address does, and prints as herd7 prints
// it, so it is the address of a symbol of that spelling, which no
// location of a test can have.
func instrValue(quoted string) prog.Value { return prog.AddrValue("instr:" + quoted) }
