// Package bmc is Musket's SMT engine: bounded model checking of a litmus
// test or a compiled program under a CAT model, in the style of
// Dartagnan (Ponce-de-León, Furbach, Heljanko, Meyer, "BMC with Memory
// Models as Modules", FMCAD 2018, Section III). It builds one formula
//
//	phi_CF ∧ phi_DF ∧ phi_M ∧ phi_S
//
// per test in its own Z3 context (package smt) and gives the same
// result.Result as the explicit engine (package enum), its reference.
//
// # Program (phi_CF, phi_DF)
//
// Threads with loops are first unrolled (compile.Unroll with herd's
// -unroll n as n+1 runs of each loop, as the explicit engine bounds
// backward jumps); paths that would need more iterations jump to the
// %cut label and are discarded (the result is Bounded). Programs that
// arrive already unrolled (musket check: pts → Unroll → Compile) keep
// their cut paths, stopped at the bound, as the explicit engine runs
// Unroll's output and as that paper's unrolled benchmarks (mutex/*U2) do;
// the result says it is bounded.
//
// Each thread's loop-free code is a DAG walked in code order: every
// reachable instruction gets an execution guard (a Boolean variable equal
// to the disjunction of its incoming edges), registers are in SSA form
// with ite merges at join points. A value is a Z3 Int: integers are
// themselves, the address of location number i plus an offset k is
// (i+1)·2^40 + k, so addresses compare, offset and print back as the
// explicit engine's values. Bitwise operators and shifts are encoded
// in linear arithmetic, exactly as int64 operations, with no bit-vectors
// (bits.go says how); on comparison results (0/1) they are the logical
// ones. A read is a fresh Int. A memory access whose address is computed
// becomes one event per location, guarded by the address being that
// location (exactly the explicit engine's fork), so every event has a
// static location. herd's syntactic dependencies (addr, data, ctrl, and
// the rmw / iico_data pairs of read-modify-writes and store-conditionals)
// are computed along the way as formulas: each symbolic value carries, per
// read it depends on, the condition (on the path taken) under which it
// does. A branch's ctrl covers every later event of its thread, except a
// C if's (a jump with a prog.Jump.Join label), which covers the events up
// to the label where its branches join, as in herd7 and the explicit
// engine.
//
// Every executed read reads from exactly one same-location write whose
// value it takes (initial writes included; rf variables only for pairs
// that can both execute); co is a Boolean per pair of writes of a
// location, made a total order by integer clocks, with the initial write
// first. The final value of a location is that of its co-last write, of a
// register its last assignment; filter and condition are formulas over
// them. Under Options.RawRead, a read of a location that starts
// uninitialised (a heap object malloc made) that reads the initial write
// sets the reading thread's failure register in the final state
// (rawread.go), as the graph engine's memory check does; under
// Options.FreedMark, so does an access to a cell of a freed heap object
// that the model's order does not put before the object's first free
// (uaf.go: a Boolean probe per access adds an edge from the free to the
// access in the relation of one of the model's acyclic checks, R, whose
// closure is that order; R with the edge stays acyclic exactly when the
// access is not ordered before the free).
//
// # Model (phi_M)
//
// The model's syntax (cat.Model.Syntax: includes expanded, the standard
// library first) is evaluated symbolically. A set or a relation is a
// sparse matrix of formulas RELATIVE to execution: (a, b) ∈ r exactly
// when exec(a) ∧ exec(b) ∧ r[a][b]. This is the relation analysis: the
// keys of a matrix are its may-pairs and the entries that are the
// constant true its must-pairs, computed from the program before anything
// reaches Z3 — po (pairs of one thread on a common path), loc, int/ext,
// id, the tag sets, fencerel of a tag set, ... are all constants, and the
// operators fold constants, so variables and terms exist only where rf,
// co, values or control flow matter. Sequence introduces the execution of
// the middle event; closures (^+, ^*) are computed exactly by Warshall's
// algorithm over formulas. Functions, tuples, tags, sets of values,
// match, if on variants or static values, procedures, forall over static
// sets, and try (which catches errors but not unsupported constructs)
// are evaluated concretely. Top-level lets are evaluated at their first
// use, and an empty left operand of &, \, ; or * skips the right one
// (lazy.go): definitions no check reaches on a test are not built. The
// inputs have the names and meanings
// event.Static and the explicit engine give (R, W, M, F, IW, FW, B, Exp,
// tags and their aliases, po, loc, int, ext, id, same-instance, addr,
// data, ctrl, iico_data, rmw, amo, lxsx, rf, rfi, rfe, co, coi, coe, fr,
// fri, fre), so a model means the same under both engines.
//
// Checks: empty and irreflexive pair by pair; acyclic with integer clocks
// (integer difference logic) on the edges inside the strongly connected
// components of the may-graph only (other edges cannot close a cycle), or
// on the same edges by the solver's acyclicity theory, a Z3 user
// propagator (lazyacyclic.go; Haas, Meyer, Ponce-de-León, "CAAT:
// Consistency as a Theory", OOPSLA 2022), where that was measured faster;
// negated checks and flags as formulas (acyclic through the closure).
// Flags are reported when some consistent execution raises them, like the
// explicit engine. undefined_unless has no effect.
//
// A monotone let rec of sets and relations uses the relaxed encoding of
// Section III: a variable per may-pair (the may-pairs are the least
// fixpoint of the shapes), constrained to equal its definition applied to
// the variables — any fixpoint, sound and complete for reachability when
// recursive relations are used monotonically (as herd's models do). When
// every check and flag that reaches the definition wants it small (the
// polarity analysis of polarity.go), the variables are only implied by
// their definitions (x ⇐ F(x)): the solver can always pick the least
// fixpoint, and settles the Horn clauses by propagation instead of
// searching among fixpoints (Run only: Porthos sessions keep the
// equivalences, faster over their many queries). One
// that is not monotone (a recursive name right of \ or under ~, or
// passed to a function: the Linux-kernel bell's matching of RCU locks and
// unlocks) is unrolled as herd7 iterates it, from empty, the bindings in
// order, pass after pass; if an execution could still change after the
// passes encoded (as many as the may-pairs, plus two), the answer is a
// limit of the engine, never a verdict (kleene.go).
//
// `with co from S` (herd's cos.cat: generate_cos, linearisations of the
// writes per location) is mapped to the engine's own co — every total
// order of each location's writes with the initial write first, which is
// what those files enumerate. When the model has put other events in W
// (the Linux kernel's lock.cat adds the lock writes LKW before it includes
// cos-opt.cat), co is a symbolic total order of W per location instead,
// the initial write first, equal to the engine's co on the engine's
// writes and containing the partial order S is generated from.
// `with x from cross(F)` (lock.cat's choice of the write each failed
// spin_trylock or spin_is_locked reads from) is a symbolic choice: one
// relation of each member of F, exactly one Boolean per member that
// exists; the library's map builds such F over execution-dependent sets.
// Lock and SRCU events (prog.Located) are events of kind event.Located,
// with their tags and location, outside the engine's rf and co;
// spin_trylock and spin_is_locked choose their outcome with a Boolean.
// Any other `with` over a set of several values, linearisations and
// classes elsewhere, pco, membership or comparisons on
// execution-dependent values, and iteration over execution-dependent sets
// are reported as unsupported (result status Unsupported), by name, and
// so are these two choices in an inconsistency query (package porthos).
//
// # Answers
//
// Run lists every final state: it solves, reads the state, blocks it and
// asks again (push/pop around the blocking clauses). Positive and
// Negative then count final STATES (not executions, which the explicit
// engine counts): Ok, the observation and -expect are the same. With
// VerdictOnly it asks once for the condition and once for its negation.
// The witness (result.Execution: executed events by thread in program
// order, rf, immediate co, fr, values) comes from the model of the first
// state satisfying the condition. RunReport also gives the size of the
// encoding (Stats: variables, asserted constraints, may/must pairs) and
// the time spent encoding and solving; Options.NoAnalysis turns the
// relation analysis off (a variable per pair of events for every relation
// the model names, clocks on every edge) for comparison. The context's
// deadline interrupts the solver (status Timeout).
//
// CheckProgram is the pipeline of `musket check`: a .pts program,
// unrolled, compiled for a target, checked for reachability of its
// condition.
package bmc
