package enum

import "github.com/musket-verify/musket/internal/cat"

// coherentBuiltins are the built-in models that require SC per location
// (acyclic po-loc | rf | co | fr) of every execution they accept, by a
// check of their own that no variant turns off:
//   - sc (acyclic po | com), tso, pso, power, armv7, alpha, rmo, mips
//     (acyclic po-loc | com as uniproc), bpf (acyclic com | po-loc as
//     Coherence), aarch64 (acyclic po-loc | ca | rf as internal, ca = co
//     | fr), riscv (acyclic po-loc | rf | co | fr as
//     load-value);
//   - rc11 and imm (irreflexive hb ; eco? as coherence) and c11
//     (irreflexive (fr | mo) ; rf? ; hb as coherence, irreflexive rf ;
//     hb as atomic-rf), with po ⊆ hb: a cycle of po-loc | com on one
//     location has one of the five shapes of Alglave, Maranget,
//     Tautschnig, "Herding Cats" (TOPLAS 2014), Section 4.5 (CoWW,
//     CoRW1, CoRW2, CoWR, CoRR), each a po-loc edge closed by com edges
//     that those axioms forbid.
var coherentBuiltins = map[string]bool{
	"sc": true, "tso": true, "pso": true, "power": true, "armv7": true, "alpha": true, "rmo": true, "mips": true, "bpf": true,
	"aarch64": true, "riscv": true, "rc11": true, "imm": true, "c11": true,
}

// CoherentModel tells whether m is a built-in model that rejects every
// execution not coherent per location (see coherentBuiltins), without
// variants or skipped checks (the caller knows those): the explicit
// engine may then leave those candidates out before the model sees them
// (Options.Uniproc), which changes no count of executions the model
// accepts. A model read from a file, even one named as a built-in, is
// not trusted to: it may say anything.
func CoherentModel(m *cat.Model) bool {
	p := m.Path()
	const pre, suf = "builtin:", ".cat"
	if len(p) <= len(pre)+len(suf) || p[:len(pre)] != pre || p[len(p)-len(suf):] != suf {
		return false
	}
	return coherentBuiltins[p[len(pre):len(p)-len(suf)]]
}
