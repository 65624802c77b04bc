// Package param checks parameterized systems written in the input language
// of Cubicle and Cubicle-W (.cub files) for every number of processes.
//
// The engine is a backward reachability analysis modulo theories (MCMT):
// states are cubes (existentially quantified conjunctions of literals over
// process-indexed arrays), the search computes pre-images of the unsafe
// cubes by every instance of every transition, tests each new cube against
// the universally quantified initial states (safety test) and against the
// cubes already visited up to a renaming of processes (fixpoint test).
// Cheap syntactic tests come first; the questions they leave open are
// decided by a difference-logic procedure with finite domains and, for
// linear combinations of reals, Fourier-Motzkin elimination (decide.go,
// decidelin.go); Z3 (package smt) decides the rest, and is loaded only
// when a question needs it.
//
// Weak variables and arrays (Cubicle-W) are handled by the memory model of
// model.go: reads and writes in a pre-image become events of the cube,
// ordered by a global-happens-before relation (ghb) built from preserved
// program order, fences, coherence and from-read, and each new write is
// split against the unsatisfied compatible reads: a read reads from it,
// or read from a write co-before it, or (with sequentially consistent
// shared variables, or under PSO) reads from a write that an earlier
// transition makes and that reaches memory after it (model.go). Cubes
// whose ghb has a cycle are dropped; unsatisfied reads at the initial state
// take the initial values. The writes of one transition instance form
// one node and reach memory together, in the search and in the forward
// explorers (Cubicle-W makes the events of a transition synchronous);
// two stores that a real store buffer lets another process see apart
// are two transitions. The model is TSO-like, as in Conchon,
// Declerck, Zaïdi, "Cubicle-W" (IJCAR 2018); Options.Model "pso" gives
// per-variable store buffers (writes to different variables unordered
// unless a fence separates them). Non-weak variables and arrays are
// sequentially consistent shared memory.
//
// A case update may leave out its "| _ :" default branch. What happens
// to a cell when none of its conditions holds follows the two tools'
// pre-images. On a sequentially consistent variable or array the new
// value is unconstrained: Cubicle's pre-image of a literal over the
// cell is an if-then-else chain over the branches whose last else is
// "true", so the literal is dropped (Musket: a nondeterministic value).
// On a weak variable or array the cell is not written at all: Cubicle-W
// makes a write event for a cell only under one of the conditions, so
// with none there is no event, the cell keeps its value and a read of it
// looks further back (Musket: Case.Skip, no write in the pre-image's
// node, no store-buffer entry in the forward explorers). A default
// branch "| _ : X[j]" is not the same: it writes the old value back.
//
// Spellings of Cubicle-W's repository are read as its grammars read
// them: fence() (tso branch) or fence(p) with p the transition's [.]
// process, in the guard or after the parameters ("transition t ([p])
// fence (p)"); p@X, or "p: X" (an earlier grammar), in unsafe and
// invariant formulas, and in a transition when p is its [.] process
// (the read of X); p@X of a non-weak X is X. The read(p, X),
// write(p, X, e) and "fences (p)" of an early development version are
// rewritten into this syntax (early.go): the one process a transition's
// accesses name becomes its [p] process (a constant #k, a parameter
// pinned to #k, whose cells at #k are its own), and read(p, X) in
// unsafe is p@X; in such a file a transition with one parameter and no
// weak access is performed by it, and one without parameters whose
// array accesses are all at one constant #k is performed by #k. That
// version's "local_weak array A[proc]" is a weak array whose cell A[p]
// only process p writes; it is read as weak when every assignment to it
// is of the acting process's cell, and refused otherwise (localweak.go).
//
// A process constant #k names a process like the others: it may be an
// array index (A[#1], Cubicle's proc_name), the parameters of an unsafe
// or invariant formula range over the constants too (distinct from each
// other), and init, universal, holds of them. An update A[#1] := e is
// Cubicle's A[j] := case | j = #1 : e | _ : A[j]; on a weak array the
// default is left out, so that only the named cell is written.
//
// true and false are Cubicle's formula literals (a case condition false
// never holds; it is no default branch).
//
// "let x = t in" before the actions of a transition (Cubicle's master
// grammar) binds x to t's value in the state before the transition.
// "X := ?" is "X := ." (any value), and "if c then a else b" is the
// formula (c && a) || (not c && b), binding tighter than && and ||, as
// in Cubicle's grammar. In a transition's guard, "forall k. e" ranges
// over every process: e on each parameter and forall_other k. e
// ("exists k. e" likewise, a disjunction); elsewhere (unsafe, invariant,
// init) it is refused, the process being a parameter there.
//
// The transitions of an early Cubicle grammar (require { g }, uguard (l)
// { f }, assign { X := e }, and updates A[j] := {| c : v | _ : w } after
// the transition, without braces) read as requires { g && forall_other
// l. f } { X := e; A[j] := case | c : v | _ : w } (oldsyntax.go).
//
// A proc variable as an array index (A[Home], with var Home : proc; the
// early grammar of Cubicle's flash_bug.cub) is the cell of the process
// Home holds (procindex.go). A transition, unsafe or invariant formula
// that indexes by Home is read as variants, one for each process Home
// may be: one of the parameters (Home = i added), or a new parameter h
// distinct from them (Home = h added; forall_other and exists_other
// range over h too). The literals are read before the transition, as
// its guard and values are: "Home := j; A[Home] := v" writes the old
// Home's cell. A weak Home is read by the transition's [.] process, one
// read as a guard's (refused in unsafe and invariant formulas, where no
// process reads it). In init (procinit.go), Home as an index is read
// with one universal parameter more: init (i) { body } is init (i h)
// { body' && (Home <> h || body[h]) && (Home <> i || body[i]) }, body'
// being body without its literals over Home's cells. When init says
// Home holds no process (init (p) { Home <> p }, Home never assigned),
// Cubicle reads Home's cells as cells of their own, free at init and
// written by the updates of every cell: so does Musket (procoutside.go),
// which gives each such cell A[Home] a variable of its own before the
// file is checked. The search, the explorers
// and the samples see the variants and the clauses only. A trace step of
// the variant with the new parameter names
// Home's process last (t(#2) for "transition t ()"); the others are
// named t[Home=i] (t[G=Home] when G is bound to Home's new parameter).
//
// Two transitions may have the same name, as in Cubicle (whose typing
// checks the parameters of a transition, not the names of the
// transitions; german.ctc.cub of its examples has two recvGnts): they are
// two transitions, and a step of a trace with that name may be either.
//
// int and real are different types, as in Cubicle: an int term is not
// compared with, added to or assigned a real one (the procedures decide
// the atoms of an int term over the integers). A constant with an
// integer value stands for either (1 for 1.0, 2.0 for 2).
//
// The coefficients and constants of the linear terms are rationals of
// at most 40 bits (lin.go). A pre-image whose numbers grow past that
// (X := X * 2 + Y * 4, applied 40 times) drops the literal, which only
// weakens the cube: a SAFE verdict holds, but a path through such a cube
// proves nothing. The search does not report it as UNSAFE; it goes on
// for another path, and ends with no verdict (NumberLimit, exit status
// 3) instead of SAFE.
//
// A real constant C that a pre-image bounds by C > 0 (a time step,
// "const C : real" with a guard "0.0 < C") is eliminated from the cube,
// as Cubicle's pre-image does (tick.go): the cube is projected on its
// other atoms, which only makes it grow; an UNSAFE path through such
// cubes is re-computed exactly (C fixed, time steps possibly repeated)
// before it is reported.
//
// "number_procs n" fixes the number of processes, as in Cubicle: cubes
// that need more than n processes are dropped. A SAFE verdict comes with
// its inductive invariant (invariant.go), printable in Cubicle's syntax.
// When the search does not end within instanceFirstNodes cubes, such a
// system is decided by exploring its instances of up to n processes
// forward, if that exploration is complete and exact (instdecide.go:
// every initial cell fixed or enumerated, no step beyond the bound of the
// store buffers, no forall_other guard for a SAFE); an instance too
// large for that is hunted depth first for an unsafe state (hunt.go);
// otherwise the search starts again. A SAFE decided so has no invariant.
//
// A non-weak variable that no transition assigns is a constant: it is
// no shared sequentially consistent memory (System.SharedSC), whose
// reads could order the transitions of two processes (model.go).
//
// The search is breadth-first, level by level and, inside a level, the
// cubes with fewer processes and fewer literals first (queue.go). A newly
// visited cube removes the visited cubes it subsumes syntactically.
//
// A system without weak memory is first given a short search in the
// manner of Cubicle's BRAB (brab.go, shallowFirst): the oracle is the
// instance with two processes explored breadth first eight levels deep,
// abstractly (what init leaves free, a process variable init puts outside
// the processes included, is unknown), a queue first in, first out, and
// Cubicle's candidates; it is abandoned at its first refuted guess, past
// 200 visited cubes or when the instance passes 20 000 states at that
// depth, and the search below runs as if it had not. Its verdicts are
// as sound as the others' (a SAFE closes with its guesses, an UNSAFE is
// a path without guesses). With -brab N (and -forward-depth D) the whole
// check is that BRAB search, restarted at each bad candidate with the
// oracle two levels deeper.
//
// Otherwise, for systems without weak memory, the search
// approximates (approx.go, after Cubicle's BRAB): a new cube is replaced
// by a small subset of its literals that no state of a sample of the
// reachable states of the instances with two, three (and four)
// processes satisfies (explore.go; states that an invariant formula
// excludes are left out); a guess is checked by intersecting, per
// literal, the sets of sampled states where it holds. Guesses that turn
// out to reach the initial states are refuted and undone in place (the
// guess and its descendants leave the search, the cubes they covered
// come back: backtrack.go, which gives the argument, for weak systems
// too), so the verdicts stay sound; Options.NoApprox turns this off. The sample is lazy (absexplore.go): a few thousand
// states at the first visited node, a few hundred more per node, so
// that a short search does not pay for a large sample. Systems with
// integers, reals or abstract types are sampled abstractly, as
// Cubicle's BRAB oracle does: the cells of other sorts than booleans,
// enumerations and processes (and the values init leaves free) are
// unknown, a literal over them may hold, and guesses keep the literals
// over the other cells only; such a system is first searched with the
// approximation for 50 nodes, then without it for 200, then with it
// again (search.go: one fixed order does not serve every such system);
// a first search that generalised one visited cube in three or more
// within its 50 nodes goes on instead, and when it falls under that
// ratio later (checked every 50 nodes), a system whose abstract cells
// are not numbers is sampled deeper (deep.go). Exact samples go deep
// at the first node when the first instance does not fit in the first
// slice of the lazy sample; their deep sample starts at a quarter of
// its bound and doubles at each refuted guess. With
// Options.ParallelSample a deep sample is grown by two goroutines, one
// making successors while the other adds them to the sample in the
// order of one goroutine (parsample.go): the sample, and so every guess
// and node, does not depend on the scheduling.
// The weak sample's sequentially consistent
// part is budgeted by the nodes of the search that came before it.
//
// Systems with weak memory (TSO) are approximated too, when a search
// without approximation finds no verdict within 1000 visited cubes
// (wguess.go; a count, so that the search never depends on the
// machine's load: Options.Timeout is the only wall-clock limit): guesses keep
// a few literals of a cube, the equalities its equalities imply between
// two processes, and the order of integer atoms rather than their
// distance; candidate invariants over two processes, made from the
// declarations (a control array, an integer array, a weak integer that a
// transition updates atomically), are explored beside the unsafe
// formulas. Both are filtered by a forward exploration with store
// buffers (wexplore.go: the SC runs breadth-first, complete when the
// values are finite, then a bounded TSO exploration and random walks;
// a state whose store buffers are empty takes the compiled transitions
// of compiled.go), and refuted by backtracking as above. A guess keeps the literals over
// constant arrays of its processes. The weak sample is stored with the
// fewest bytes a cell that hold its values (states.go).
//
// Files, one concern each: token.go and lexer.go (lexical analysis),
// ast.go and parser.go (syntax), early.go (the early Cubicle-W
// syntax read as the current one), check.go (types and Cubicle-W
// restrictions, producing a System), procindex.go (a proc variable as
// an index, read as variants) and procinit.go (in init), term.go (terms and literals of cubes),
// cube.go (cubes and their cheap simplification), model.go (the weak memory
// model), preimage.go, tick.go (time steps), subsume.go (fixpoint
// test) and symslots.go (the interchangeable processes of a cube, whose
// renamings the semantic fixpoint test enumerates once), solver.go, decide.go and decidelin.go (the solver: its own
// procedure, then Z3), queue.go (the order of exploration), explore.go and wexplore.go (the one
// explorer of finite instances, forward, under SC, TSO or PSO),
// compiled.go (the transition instances of a finite instance without
// store buffers, compiled for the explorer and the abstract sample),
// guardindex.go (the instances a state may enable, by the constants
// their guards test),
// absexplore.go (the lazy, abstract samples of the guesses), states.go
// (compact storage of sampled states, a byte a cell for the samples of
// the guesses), approx.go
// and wguess.go (guesses, plain and weak), backtrack.go (a refuted guess
// undone in place), search.go (the reachability loop) and report.go
// (text, JSON and dot output), invariant.go (the invariant of a SAFE
// verdict), selfcheck.go (the cross-check of a verdict on finite
// instances explored forward: musket param -selfcheck), refine.go (the
// check of every UNSAFE answer of a weak system on finite instances, and
// the precise search when none confirms it).
package param
