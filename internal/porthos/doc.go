// Package porthos checks state inclusion between two memory models, as
// Porthos does (Ponce-de-León, Furbach, Heljanko, Meyer, "BMC with
// Memory Models as Modules", FMCAD 2018, Section IV): is every final state a program can
// reach under a target model also reachable under a source model, within
// a loop bound? A developer who validated code under x86-TSO asks it
// before porting the code to Power or ARM.
//
// # Inputs
//
// A program of that paper's C11-like language (.pts) is unrolled to the bound and
// compiled twice, once per side: a Side names a compilation target and a
// model ("x86:tso", "armv7:armv7"), or only a model ("tso", "sc"), whose
// target is then the model's architecture (sc and models of no
// architecture take the other side's). The mappings compile every access
// to exactly one memory access, so the two compilations' memory events
// correspond one to one (compile.AccessMap): the map π of phi_EQ. A
// state gives a value to every shared location and every register of the
// program. A litmus test is one program run under both models: π is the
// identity, a state gives values to the test's observed refs (its
// locations and the refs of its condition), as the explicit engine's
// states do.
//
// # Algorithm 1 with the delta-execution oracle
//
// The oracle is one solver (bmc.Session) holding
//
//	phi_ORA = phi_EQ ∧ phi_CF,DF(target) ∧ phi_M_T(target)
//	                 ∧ phi_CF,DF(source) ∧ phi_¬M_S(source)
//
// executions consistent with the target model whose counterpart violates
// the source model (bmc's inconsistent mode: guessed cycles, exact least
// fixpoints of recursive relations). When both compilations are the same
// program (a litmus test, or a program whose mappings agree), one copy of
// the program carries both models. Each satisfying assignment proposes the
// final state of its target execution; a second solver holding phi_RCH,
// the source program under the source model, checks whether the source
// reaches the state (the state's equations as assumptions). If not,
// inclusion fails and the target execution is the witness; either way the
// state is blocked in the oracle (phi_ORA ∧ ¬phi_s) and the oracle is asked
// again. When the oracle has no more states inclusion holds: a new state
// needs a new execution, consistent with the target and not the source.
// Both solvers live across the iterations (incremental solving).
//
// Result.Iterations counts the states the oracle proposed (Table III's
// IT column). With Options.All the search continues after the first
// missing state and lists every one.
package porthos
