package litmus

import (
	"strings"
)

// unmodelledVariants are herd7's variants that add events or state
// Musket does not model: with them a model reads sets Musket's
// executions never have, or, worse, would answer as if the feature were
// off. A test names its own in a "Variant=" line (herd's
// tests/instructions/AArch64.MTE: "Variant=mte,async").
var unmodelledVariants = map[string]string{
	"vmsa":    "virtual memory: page-table entries and TLB maintenance are not modelled",
	"kvm":     "virtual memory: page-table entries and TLB maintenance are not modelled",
	"ifetch":  "instruction fetches are not modelled",
	"self":    "self-modifying code: instruction fetches are not modelled",
	"memtag":  "memory tagging (MTE) is not modelled",
	"mte":     "memory tagging (MTE) is not modelled",
	"pac":     "pointer authentication is not modelled",
	"morello": "Morello capabilities are not modelled",
	"nv2":     "nested virtualisation (NV2) system registers are not modelled",
}

// UnmodelledVariant tells whether herd7's variant v (any case) is one
// whose events or state Musket does not model, and why.
func UnmodelledVariant(v string) (string, bool) {
	why, ok := unmodelledVariants[strings.ToLower(strings.TrimSpace(v))]
	return why, ok
}

// checkVariants refuses by name a test whose "Variant=" line (herd7
// reads the key in any case) names an unmodelled variant.
func (p *parser) checkVariants() {
	for k, v := range p.t.Meta {
		if !strings.EqualFold(k, "Variant") {
			continue
		}
		for _, name := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if why, ok := UnmodelledVariant(name); ok {
				// The rest of such a test is in a syntax Musket does
				// not read (capability registers, tags): stop here.
				p.fail(p.variantOff, "unsupported test: its variant "+name+" ("+why+")")
			}
		}
	}
}
