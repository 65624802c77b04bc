package cat

import "sort"

// The names a model may use without binding them: the one list both
// engines follow. The explicit engine evaluates models with this package;
// the SMT engine (package bmc) has its own symbolic evaluator, which takes
// the names empty by default from here and whose tests check that it
// defines every name listed here (or refuses it by name as unsupported)
// and no other.

// ExecutionSets are the sets every execution gives (event.Static, the SMT
// engine's inputs), besides the architecture's tags and their aliases.
var ExecutionSets = []string{"R", "W", "M", "F", "IW", "FW", "B", "Exp", "NExp", "EX", "X", "PTE", "RMW", "UB"}

// ExecutionRels are the relations every execution gives.
var ExecutionRels = []string{
	"po", "loc", "int", "ext", "id", "same-instance", "sm", "si",
	"addr", "data", "ctrl", "iico_data", "iico_ctrl", "rmw", "amo", "lxsx",
	"pick-addr-dep", "pick-data-dep", "pick-ctrl-dep", "pick-basic-dep", "pick-dep",
	"rf", "rfi", "rfe", "co", "coi", "coe", "fr", "fri", "fre",
}

// DerivedNames are the names computed from the execution when it does not
// give them itself (herd7's pco and co0).
var DerivedNames = []string{"pco", "co0"}

// FunctionNames lists the built-in functions, sorted.
func FunctionNames() []string {
	out := make([]string, 0, len(builtinFuncs))
	for name := range builtinFuncs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// EmptySetNames lists the sets herd7 always defines that are empty when
// the execution does not give them, sorted.
func EmptySetNames() []string { return sortedKeys(emptyByDefault) }

// EmptyRelNames lists the relations that are empty when the execution
// does not give them, sorted.
func EmptyRelNames() []string { return sortedKeys(emptyRelByDefault) }

// EmptyByDefault tells whether name is a set (set) or a relation (rel)
// that is empty when the execution does not give it.
func EmptyByDefault(name string) (set, rel bool) {
	return emptyByDefault[name], emptyRelByDefault[name]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
