package litmus

// This file names, in the initial state, what herd7's virtual-memory
// (kvm, vmsa) and memory-tagging (MTE) tests write and Musket does not
// model, so that such a test is refused by name ("unsupported ...",
// exit 3) rather than as a syntax error: page-table entries
// ("[PTE(x)]=(oa:PA(x),valid:0)", "0:X0=PTE(x)"), tags of locations
// ("[tag(x)]=:green") and tagged addresses ("0:X1=x:red").

// vmFuncs are herd's functions on locations in an initial state: the
// page-table entry and the physical address of x (virtual memory), the
// allocation tag of x (MTE).
var vmFuncs = map[string]string{
	"PTE":  "page-table entries (virtual memory) are not modelled",
	"PTE2": "page-table entries (virtual memory) are not modelled",
	"PA":   "physical addresses (virtual memory) are not modelled",
	"TTD":  "translation table descriptors (virtual memory) are not modelled",
	"tag":  "memory tags (MTE) are not modelled",
}

// bracketFunc refuses by name a left-hand side "[PTE(x)]", "[tag(x)]";
// it returns if lhs ("[f(...)]") names none of vmFuncs.
func (p *parser) bracketFunc(lhs []token) {
	if why, ok := vmFuncs[lhs[1].text]; ok {
		p.fail(lhs[1].off, "unsupported initial state: "+lhs[1].text+"(...): "+why)
	}
}

// vmValue refuses by name an initial value of herd's virtual-memory or
// MTE tests: PTE(x), PA(x), a descriptor "(oa:PA(x),valid:0)", a tag
// ":green" or a tagged address "x:red". It returns only if v is none.
func (p *parser) vmValue(v []token) {
	switch {
	case len(v) >= 2 && v[0].kind == tIdent && v[1].kind == tLParen:
		if why, ok := vmFuncs[v[0].text]; ok {
			p.fail(v[0].off, "unsupported initial value: "+v[0].text+"(...): "+why)
		}
	case len(v) >= 3 && v[0].kind == tLParen && v[1].kind == tIdent && v[2].kind == tColon:
		p.fail(v[0].off, "unsupported initial value: page-table descriptors ("+v[1].text+":...) of virtual memory are not modelled")
	case len(v) == 2 && v[0].kind == tColon && v[1].kind == tIdent:
		p.fail(v[0].off, "unsupported initial value: memory tags (:"+v[1].text+"): memory tagging (MTE) is not modelled")
	case len(v) == 3 && v[0].kind == tIdent && !isProcName(v[0].text) && v[0].text != "instr" && v[1].kind == tColon && v[2].kind == tIdent:
		p.fail(v[0].off, "unsupported initial value: tagged addresses ("+v[0].text+":"+v[2].text+"): memory tagging (MTE) is not modelled")
	}
}
