package cfront

import "github.com/musket-verify/musket/internal/spec"

// smtSymmetry gives the SMT engine the symmetric threads of q (each
// thread's symmetric predecessor, as the graph engine's symmetry
// reduction finds them: symmetricThreads), under the built-in models
// for which bmc's symmetry breaking argues that the parent's fixed order
// of creations and joins does not matter (smtSymmetryModel), or nil.
// bmc checks, besides, that each question it is given is symmetric.
func smtSymmetry(q *spec.Test, asserts []Assertion, opts CheckOptions) []int {
	if opts.SMTNoSymmetry || opts.Liveness || opts.Races || opts.Engine == "enum" || !smtSymmetryModel(opts.ModelName) {
		return nil
	}
	sym, _ := symmetricThreads(q, asserts)
	return sym
}

// smtSymmetryModel: Power and RISC-V, whose create (a release write:
// lwsync or fence rw,w before it) and join (an acquire read: a fence
// after it) order each of the parent's flag accesses with everything
// before or after it (bmc's symmetry.go gives the argument). Measured
// there; the other models go to the graph engine, which has its own
// reduction.
func smtSymmetryModel(name string) bool {
	return name == "power" || name == "riscv"
}
