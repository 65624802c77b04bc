package bmc

import (
	"fmt"

	"github.com/musket-verify/musket/internal/prog"
)

// havoc encodes prog.Havoc: the register gets a fresh integer with no
// constraint and no dependency on any read.
func (p *progEnc) havoc(ti, pc int, st *tstate, h prog.Havoc) {
	st.regs[h.Dst] = &sv{t: p.f.intVar(fmt.Sprintf("h%d_%d", ti, pc)), wide: true}
}
