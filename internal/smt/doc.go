// Package smt is Musket's binding to the Z3 SMT solver (the system libz3,
// through cgo). It owns everything that touches Z3: contexts, terms, sorts,
// solvers, models and the translation of Z3 errors and results into Go.
// No other package in Musket imports "C" for Z3.
//
// libz3 is not linked to the executable: the first context loads it with
// dlopen (z3load.c), and each Z3 function the package calls is defined in
// z3lazy.c (written by z3gen/gen.py from Z3's headers) to call libz3's.
// A run that never uses the SMT engine (a C program the graph engine
// answers, a litmus test the explicit engine answers, -h) does not pay for
// loading and relocating libz3 at start-up.
//
// # Threading
//
// A [Context] and every object created from it ([Term], [Solver], [Model])
// belong to one goroutine at a time: all methods of these types must be
// called from the goroutine that owns the context (or with external
// synchronisation that serialises them). Use one Context per worker;
// Z3 contexts are independent, so different contexts may be used in
// parallel. The only method that may be called from any goroutine at any
// time is [Context.Interrupt] (and [Solver.CheckContext], which uses it).
// Z3 contexts are not tied to an OS thread, so the owning goroutine may
// migrate between threads freely.
//
// # Memory
//
// The context is created with Z3_mk_context_rc, so every Z3 object has a
// reference count. Each Term, Solver and Model holds exactly one reference,
// taken in C in the same cgo call that created the object. When the Go
// value becomes unreachable, a cleanup (runtime.AddCleanup) runs on the
// runtime's cleanup goroutine; it never calls Z3, it only appends the
// pointer to the context's release queue (a mutex-protected slice). The
// owning goroutine drains that queue with one batched cgo call at the
// start of the next operation on the context, so every dec_ref happens on
// the owner while the context is alive. Because draining happens only at
// the start of an operation, before the operation reads the C pointers of
// its arguments, an argument can never be released while it is in use.
// The context also keeps a table of the objects Go holds a reference on
// (a cleanup names its object's slot there). [Context.Close] releases
// every reference still in that table, so that Z3 frees the terms by
// reference counting (deleting a context whose terms are still
// referenced takes one pass over the term table per level of nesting),
// then deletes the Z3 context; the queue is then discarded and later
// cleanups are no-ops. A context made by [NewArenaContext] registers no
// cleanups: its objects live until Close, which suits an encoding (its
// terms live as long as its solver) and saves a cleanup per term. Contexts are
// not freed by the garbage collector: every NewContext needs a Close.
//
// # Errors
//
// A C error handler is installed on every context, so a Z3 error never
// aborts the process. Errors that can only come from a programming mistake
// are reported as a panic with a value of type *[Error]:
//
//   - building an ill-sorted term (e.g. And of an Int, Add of a Bool,
//     BVAdd of different widths, Eq of different sorts);
//   - using a zero Term, mixing terms of different contexts, or using a
//     context after Close;
//   - asserting a non-Boolean term;
//   - invalid arguments: bit-width 0, zero denominator, Pop beyond the
//     number of scopes, negative bounds, a logic name Z3 does not know.
//
// Everything that depends on the problem rather than on the code does not
// panic: Check returns [Unknown] (with [Solver.ReasonUnknown] explaining,
// e.g. "timeout", "interrupted", or a Z3 error message), model queries return
// ok == false, Simplify returns its argument unchanged on failure, and
// parameter setters return an error.
//
// # Cardinality
//
// [Context.AtMostOne] and [Context.ExactlyOne] use the pairwise encoding
// (¬a ∨ ¬b for every pair, plus a₁ ∨ … ∨ aₙ for ExactlyOne) for groups of
// up to [PairwiseLimit] terms, which Z3 4.8.12 solves fastest, and Z3's
// native pseudo-Boolean constraints (Z3_mk_atmost, Z3_mk_pbeq) for larger
// groups, which keeps them linear in size. [Context.AtMost] and
// [Context.AtLeast] always use the native constraints.
package smt
