// Package fix repairs a concurrent program for a target memory model: when
// the condition of a litmus test or program is reachable (the outcome the
// author wants forbidden), it finds a set of insertions — fences between
// consecutive accesses of a thread, or stronger accesses (AArch64
// LDAPR/LDAR/STLR, C11 memory orders) — of least total cost that makes the
// condition unreachable, and re-checks the patched program before it says
// so.
//
// The method is counterexample-guided, after Liu, Nedev, Prisadnikov,
// Vechev, Yahav, "Dynamic Synthesis for Relaxed Memory Models" (PLDI 2012):
// check the program; if the condition is reachable, take the witness
// execution and compute which candidate insertions could forbid it; choose
// a cheapest set of candidates that meets every witness found so far;
// apply it; check again. The choice of a cheapest set is the minimum-cost
// hitting set of Alglave, Kroening, Nimal, Poetzl, "Don't Sit on the
// Fence: A Static Analysis Approach to Automatic Fence Insertion" (CAV
// 2014; TOPLAS 2017), where their integer program is solved here by an
// exact branch and bound over the (small) candidate set.
//
// A candidate can forbid a witness only if it adds order on a cycle of
// program order and communication (rf, co, fr) of that witness: a fence
// between two accesses a and b of one thread with a path from b back to a,
// a strengthened access that lies on such a cycle. Every axiom of the
// models Musket carries (x86-TSO, Power, ARMv7, AArch64, RISC-V, C11,
// RC11) is the acyclicity or irreflexivity of relations contained in the
// closure of program order and communication, and fences and stronger
// orders only add edges to those relations, so a set of candidates none
// of which is on such a cycle leaves the witness consistent. Each
// witness w found under the set S thus says: a repair must contain a
// relevant candidate of w outside S. The cheapest set meeting every such
// constraint is a lower bound on the cost of any repair; when the program
// patched with it is correct, it is a cheapest repair (within the
// candidates). When a witness has no relevant candidate left, no
// insertion within the repertoire repairs the program.
//
// The kill test (kill.go) makes the constraints model-exact where the
// engine can replay a witness (enum.Replay: the model run on that one
// execution of a patched version; for a C program, on the patched program
// as clang compiles it, cfront.Replay): a witness met before that the next
// cheapest set leaves consistent refutes it without a check, and a
// witness's constraint keeps only candidates it cannot survive together
// with those dropped before.
//
// Inputs (New): litmus tests (assembly of X86, PPC, AArch64, RISCV, ARM and
// SPARC, with or without loops, and C11), .pts programs for a compilation
// target (stronger memory orders, priced by the code the C11 mappings give
// them on the target: the language has no fence), and C programs through
// clang-14 (package cfront; with Options.Races a data race is repaired
// too: its witness need not lie on a cycle, and the candidates that count
// are those on a path of po and rf between its two accesses, race.go).
// RepairInclusion is musket compare -fix: the target side of a .pts
// program is repaired until its states are states of the source side.
// Every repair is checked again from the patched file (Verify) before the
// command prints it, and self-checked (Minimal): no change can be taken
// out, or replaced by a weaker or cheaper one of its place.
//
// Costs per target are a table (DefaultCosts, documented there) that a
// file can replace (ReadCosts).
package fix
