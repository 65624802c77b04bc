package cfront

import "github.com/musket-verify/musket/internal/cat"

// A BOUND under -target power through IMM and SC (SCForPowerBound).
//
// BOUND says two things: no execution fails, and some execution reaches
// the unroller's cut (a loop needs more iterations than the bound). When
// the graph engine under IMM answers BOUND on a program IMMForPower
// covers, it explored every IMM-consistent execution of the C-level
// program and none failed; by the compilation theorem immpower.go rests
// on (Podkopaev, Lahav, Vafeiadis, POPL 2019), every Power-consistent
// execution of the compiled program is IMM-consistent with the same
// events, reads-from and coherence, so none of those fails either: the
// first half holds under Power. Its cut says nothing about Power (IMM
// allows more than Power), and is not used.
//
// The second half needs a Power-consistent execution that reaches the
// cut. Sequential consistency gives one: an SC execution of the C-level
// program is an interleaving of its threads, each read reading the last
// write to its location before it. The compilation for Power (CompileFor)
// adds fences and keeps the accesses, their values and each
// read-modify-write's pair (IMMForPower refuses mixed sizes, asm and
// kernel primitives), so the same interleaving, with the fences in their
// threads' places, is an execution of the compiled program in which po,
// rf, co and fr all go forward in the interleaving order. Every relation
// whose acyclicity or irreflexivity power.cat requires (its ppo, fences,
// hb, prop and the per-location order) is contained in that total order,
// and the atomicity of the pairs (no write to the location between a
// pair's read and write in coherence) is SC's too; so the execution is
// Power-consistent, with the same values read in every thread: it reaches
// the cut as the SC one does. So when the graph
// engine under SC finds an execution past the bound (it answers BOUND),
// there is one under Power, and with the IMM half, BOUND is Power's
// answer. Under SC the graph engine cannot find a failure (SC executions
// are IMM-consistent, and IMM found none); any answer of it other than
// BOUND says nothing, and the SMT engine answers.
//
// This is the converse direction of IMMForPower's: a model stronger than
// Power (SC) shows that a behaviour exists, a weaker one (IMM) that one
// does not. An execution past the bound found under IMM only, or under
// any model weaker than Power, is not one: the SMT engine decides those.

// SCForPowerBound returns, for imm the options IMMForPower returned, the
// options of the graph engine's check of the same C-level program under
// SC whose BOUND, after a BOUND under imm, is the answer under -target
// power (see above).
func SCForPowerBound(imm CheckOptions) (CheckOptions, error) {
	m, err := cat.LoadBuiltin("sc")
	if err != nil {
		return imm, err
	}
	s := imm
	s.Model, s.ModelName = m, "sc"
	return s, nil
}
