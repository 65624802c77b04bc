// Package graph is Musket's third engine: it runs the threads of a
// loop-free program (the unrolled program IR of package cfront, or a
// litmus test) directly and explores its execution graphs (events, po,
// rf, co) one at a time, in the manner of Kokologiannakis, Marmanis,
// Gladstein, Vafeiadis, "Truly Stateless, Optimal Dynamic Partial Order
// Reduction" (POPL 2022), the algorithm of GenMC (Kokologiannakis,
// Vafeiadis, "GenMC: A Model Checker for Weak Memory Models", CAV 2021).
//
// The exploration adds one event at a time, to the first thread (by
// number) that has one (the write of a read-modify-write right after its
// read). A read is added once per write of its location already in the
// graph (forward rf choices); a write once per place in the coherence
// order of its location (after the initial write); then each read of the
// graph that is not before the write in po ∪ rf may be revisited: the
// events added after the read, but for the write's po ∪ rf prefix, are
// removed and the read reads from the write (backward revisits). A
// revisit happens only when every removed event, and the read, were
// added maximally (a read reading from the coherence-latest write among
// the events added before it or before the write, a write placed
// coherence-last among them; under the models with dependency tracking,
// where a revisit keeps events after ones it removes, among what
// coherence allows given those kept events of its thread: hwMaximal):
// TruSt's condition, under which each graph
// is built once and memory stays that of one graph per level of the
// search. Every graph is checked against the memory model as soon as an
// event is added, and abandoned when inconsistent: for the built-in sc,
// tso, pso and rc11 by native checks that state the axioms of their .cat
// files directly on po, rf and co (native.go; Options.CrossCheck
// evaluates the CAT model beside them and fails on a disagreement, which
// the tests use), for any other model by evaluating the CAT model on the
// graph (package cat); so the engine decides the models in which
// po ∪ rf is acyclic and consistency is closed under prefixes: SC, TSO,
// PSO, RC11 (Supported). IMM, which allows load buffering, is decided
// with dependency tracking as in Kokologiannakis, Vafeiadis, "HMC: Model
// Checking for Hardware Memory Models" (ASPLOS 2020): see deps.go, and
// imm.go for its native check (which also has CrossCheck). ARMv8 (the
// built-in aarch64.cat) is explored the same way, its axioms checked
// natively (armnative.go, with CrossCheck) and a revisit keeping what ordered-before
// puts before the write (external reads-from, lob) and what determines
// those events (their dependencies); arm.go states why HMC's
// requirements hold for it (prefix-closedness, extensibility, no
// revisit lost to the prefix, maximality) and refuses, by name, the one
// load buffering the exploration cannot build (a read that is not an
// acquire taking the write of an atomic read-modify-write of its own
// thread whose read is not one either, with no DMB between, on a path
// where the atomic writes, where that value may flow back through the
// program's threads to the atomic: armrmw.go; not when every other
// thread starts after the atomic, armspawn.go) and a revisit that would keep an
// atomic's read without its write. RISC-V (the built-in riscv.cat,
// RVWMO) is explored the same way, its axioms checked natively
// (rvnative.go, with CrossCheck) (riscv.go: a revisit keeps what the
// global order puts before the write through external reads-from and
// preserved program order, and what determines those events; an AMO is
// one event for the model, as in the explicit engine), refusing, when
// met, the revisits its argument does not cover. A revisit under both
// keeps, with each read, its thread's latest write to the location
// before it (lastwrite.go). C11 and Power (not shown to meet HMC's
// requirements) are left to the SMT engine.
//
// Three shortcuts keep the number of model evaluations down, each sound
// for the four models: a read does not read a write coherence-before one
// its thread has seen, a write is placed after those, and the write of a
// read-modify-write right after the write its read reads (coherence and
// atomicity, which the four require); an event added last in its thread
// that reads the coherence-latest write, is a write placed
// coherence-last, or is a fence, has no outgoing edge in any relation
// the four build, so the graph it extends stays consistent and is not
// evaluated again; and reads of locations named by Options.Await
// (cfront's flags of pthread_create and pthread_join) wait for a write
// of the program instead of reading the initial value. Under rc11 (and,
// for the last rule, the other three) more choices are left out without
// an evaluation, each inconsistent by an axiom (hbview.go): a read of a
// write coherence-before one that an access happening before it writes
// or reads, a write placed before such a write, and a write placed
// between the two writes of a read-modify-write (atomicity); happens-
// before is walked backwards from the thread's last event (release heads
// of the writes its acquires read). Options.CrossCheck evaluates each
// choice left out and fails the run if one is consistent.
//
// A blocked execution whose stopped threads can all be repaired
// (symBlockedExplained: each stopped on a stale read whose removal keeps
// the other events and their races) gets no flags computed: its verdict
// facts are those of a complete execution the run explores (prune.go's
// argument).
//
// Blocked executions: a graph in which a thread stopped in a cut spin
// loop (Options.SpinReg) on a read that was not added maximally (a
// coherence-later write was in the graph when it read) is left out with
// all it leads to (prune.go, which proves that no verdict changes: every
// execution built from it keeps the thread stopped on that stale read,
// and everything such an execution shows, assertions, the unroller's
// cut, data races, is shown by one the exploration keeps). This is the
// part of GenMC's handling of blocked spin loops (Kokologiannakis,
// Marmanis, Vafeiadis, "Unblocking Dynamic Partial Order Reduction", CAV
// 2023) that needs no change of the exploration; under IMM too, when the
// stale read was added after every other event of its thread (immsym.go
// re-checks prune.go's argument against HMC's revisits, which keep events
// po-after removed ones). Under IMM, too, a read-modify-write's write is
// placed only right after the write its read reads, and reads that
// rc11's happens-before rules out by coherence are not built (IMM's
// happens-before holds rc11's; immsym.go). There is no in-place
// revisiting of reads that become stale after they were added, and the
// native checks recompute their relations on the whole graph, but under
// IMM for an event added last in its thread to a graph without SC
// events, which is decided by the edges it brings: coherence against
// what happens before it, atomicity by its place (immincr.go; a
// complete graph so decided gets only its clocks, for the data-race
// flag). Under rc11, a graph without SC events is decided with
// a vector clock per event for hb and coherence checked pair by pair on
// coherence positions (rc11vc.go), O(n·T) for n events and T threads;
// under IMM, a graph is decided the same way, with IMM's sw and clocks
// taken in an order of sb ∪ sw, ar's acyclicity on one bit row of
// ar-predecessors per event, and, when it has SC events, psc on hb's
// matrix read off the clocks (immvc.go); IMM graphs with a read not yet
// reading or a write not yet placed in coherence by bit matrices
// (imm.go), whose closures of acyclic relations are taken in depth-first
// post-order.
//
// Symmetry: with Options.Symmetric (threads that are copies of one
// another), a graph in which a thread's events are ahead, in eco, of its
// symmetric predecessor's at the first place they differ is not
// explored, and a backward revisit keeps the predecessor's matching
// events with the thread's (symmetry.go, after SPORE, PLDI 2024); under
// sc, tso, pso, rc11, IMM and ARMv8 (immsym.go, armsym.go: the prefix
// their revisits keep, the dependency prefix, is extended the same way). With
// Options.SymStops (threads that may stop in cut spin loops) each blocked execution met must be explained
// by stale reads (symBlockedExplained); at the first that is not, the run
// starts again without the reduction (Stats.SymOff). Not proven: that
// the reduced run meets a thread stopped for good whenever some
// execution has one (tests compare verdicts with and without the
// reduction on every C program of the repository).
//
// A complete graph (every thread ended) is an execution: its final state
// (registers, and the coherence-last write of each location) is checked
// against the test's condition. Executions in which a thread stopped
// waiting (the cfront register %blocked) are counted apart, as GenMC
// counts blocked executions.
//
// The forward steps (a read's choices of write, a write's places in
// coherence) extend one graph in place and undo the change afterwards; a
// backward revisit works on a restricted copy (whose storage, once its
// visit returns, serves the next revisit's copy). Threads run compiled code
// (numbered registers); the graph keeps, per thread, its interpreter
// state before each of its events, so that a thread resumes from its
// last state, reading the values of its reads in the graph, instead of
// re-running from its start; a state is dropped when the event after it
// is removed or a read before it reads another write. Under IMM the
// exploration (visitDep) is in place too, but an event may be inserted
// before kept events of its thread (undo removes it from wherever it
// is), and threads are replayed by compiled code that tracks a taint
// (the reads a value comes from) per register and keeps its state at
// each event, resuming after the longest prefix of the thread's events
// its last replay consumed too (depreplay.go; nextDep caches the answer
// per thread until the thread's events change).
// Read-modify-writes read, then write when their condition holds (a
// failing compare-and-swap is a read with its failure tags).
// Store-conditionals, arbitrary values (Havoc), herd7's lock events and
// mixed-size accesses are not supported (reported as such). Under
// Options.Fault (C programs) an access to a location with no initial
// value (outside every object) stops its thread with a failure register
// set, which the condition sees only in a complete consistent execution
// (fault.go). Under Options.FreedMark and Options.Raw each complete
// consistent execution is checked for memory errors, which set the
// failure register of the thread that made them: an access to a freed
// heap object not ordered before its free (hb under rc11 and imm,
// po ∪ com under sc, ghb under tso and pso, ordered-before under
// aarch64, the global order's steps under riscv), and a read of a
// cell's initial write where the object starts uninitialised (uaf.go).
//
// The memory errors of a C program that frees, in full (the same as the
// SMT engine's, internal/bmc's uaf.go, which adds Power's order): an
// access, read or write, atomic or not, to a cell of a heap object that
// the model's order does not put before the object's first free, so an
// access after the free and one racing with it (ordered neither way);
// a second free of an object, in any thread (cfront's exchange on the
// object's mark: "free: double free"); a free of memory malloc did not
// give: a global's or a local's address ("free of memory that malloc
// did not allocate") or an address inside an object ("invalid memory
// access"); and a read of a heap cell that reads its initial write
// where malloc left the object uninitialised. free(NULL) does nothing;
// an object never freed is no error (a leak). GenMC (read in its
// driver's source) reports the same four, with two differences. It
// orders an access and a free by its happens-before views under every
// model; this engine does so under rc11 and imm (the C standard's
// order), and under a hardware model (sc, tso, pso, aarch64, riscv)
// uses the order in which the model performs the events, since an
// access that order leaves after the free may be performed after it.
// And GenMC also reports an access to, or a free of, a heap object
// whose malloc does not happen before it. The C standard gives malloc
// no such order (C11 7.22.3: only a deallocation synchronises with the
// next allocation of the same memory, and objects here are never
// reused), so such an access is judged by the rules above alone (a
// read of an initial write included).
package graph
