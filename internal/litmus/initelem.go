package litmus

// This file reads herd7's array-element addresses as initial values:
// "0:X0=x[1]" is the address of element 1 of array x, that is x plus
// 1 times the size of x's elements, in the tests whose arrays are byte
// arrays (asmArrays: the mixed-size lowering takes them). The array may
// be declared after the register (herd's AArch64 A128 writes
// "0:X2=v[0]; int64_t v[2] = {22,44}"), so the offset is set once the
// whole initial state is read.

import (
	"fmt"
	"strings"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/spec"
)

// elemInit is an initial value "a[i]" waiting for a's element size.
type elemInit struct {
	entry int // its index in the test's Init
	array string
	index int64
	off   int // where the value starts, for errors
}

// isElemValue tells whether v is "a[i]".
func isElemValue(v []token) bool {
	return len(v) == 4 && v[0].kind == tIdent && v[1].kind == tLBrack && v[2].kind == tInt && v[3].kind == tRBrack
}

// elemValue reads "a[i]" as the address of a, its offset left for
// resolveElems; the entry it goes to is the next of the test's Init.
func (p *parser) elemValue(v []token) prog.Value {
	if !asmArrays(p.fe.Arch()) {
		p.fail(v[0].off, "unsupported initial value: array elements as addresses ("+v[0].text+"["+v[2].text+"]) are supported in AArch64, ARM, RISC-V and X86_64 tests only")
	}
	i := p.intValue(v[2], false)
	p.elems = append(p.elems, elemInit{entry: len(p.t.Init), array: v[0].text, index: i, off: v[0].off})
	return prog.AddrValue(v[0].text)
}

// resolveElems gives each "a[i]" value its byte offset, i times the
// size of a's elements, once the initial state is read: a must be an
// array of a sized element type and i one of its cells.
func (p *parser) resolveElems() {
	for _, e := range p.elems {
		var decl *spec.InitEntry
		for k := range p.t.Init {
			if in := &p.t.Init[k]; in.Ref.Thread < 0 && in.Ref.Name == e.array {
				decl = in
			}
		}
		elem, n, ok := arrayType(decl)
		if !ok {
			p.fail(e.off, e.array+" is not an array of the initial state")
		}
		size := a64TypeSize(elem)
		if size == 0 {
			p.fail(e.off, fmt.Sprintf("unsupported initial value: element of array %s of type %s, whose size is not known", e.array, elem))
		}
		if e.index < 0 || e.index >= n {
			p.fail(e.off, fmt.Sprintf("array %s has %d cells: no cell %d", e.array, n, e.index))
		}
		p.t.Init[e.entry].Val.Int = e.index * int64(size)
	}
}

// arrayType splits an array's type "int64_t[2]" into its element type
// and its size; false if decl is not an array.
func arrayType(decl *spec.InitEntry) (string, int64, bool) {
	if decl == nil {
		return "", 0, false
	}
	i := strings.IndexByte(decl.Type, '[')
	if i < 0 || !strings.HasSuffix(decl.Type, "]") {
		return "", 0, false
	}
	var n int64
	if _, err := fmt.Sscanf(decl.Type[i:], "[%d]", &n); err != nil {
		return "", 0, false
	}
	return decl.Type[:i], n, true
}
