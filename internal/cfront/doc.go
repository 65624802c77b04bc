// Package cfront verifies C11 programs with threads: it compiles a C file
// with clang-14 to textual LLVM IR (clang-14 -S -emit-llvm -g -O1
// -std=gnu11 by default, the ClangOptions' -I, -D and further flags, and
// -I for Musket's include folder, whose musket/lkmm.h maps
// the Linux-kernel primitives), reads the IR with the Go module
// github.com/llir/llvm (v0.3.6, which reads clang-14's typed pointers),
// and lowers it to the program IR of package prog, as a spec.Test that
// both engines (internal/bmc, internal/enum) check. Clang's errors are
// returned as a ClangError (exit status 2, with clang's messages).
// CompileIR keeps clang's IR in an on-disk compile cache (cache.go), as
// ccache's direct mode does: keyed by clang's identity, its arguments and
// the source, and used only while every file the compilation read
// (clang's -MD list) has the content it had; MUSKET_CACHE_DIR names its
// folder, MUSKET_CACHE=off or ClangOptions.NoCache turn it off, and any
// fault of the cache is a miss. When musket-cc (tools/musket-cc:
// clang-14's driver and compiler linked statically) is found, it runs
// instead of clang-14, with the same output, in a third of the CPU
// time; what it refuses, clang-14 compiles (fastcc.go).
//
// # Lowering
//
// Memory. Every global variable is a set of shared locations, one per
// scalar cell: a global x of scalar type is location x; the cell at byte
// offset k of an array or struct g is location "g+k" (x86-64 layout,
// clang-14's default). A pointer is a prog.Value address (location plus
// byte offset), so pointers stored in memory, getelementptr with constant
// and variable indices, and pointer comparisons (== and !=) work on any
// cell. Objects that overlapping accesses of different sizes touch are
// cut into chunks, bytes little-endian (mixed.go); a failure that tears
// such an access under a model without sm is no verdict (tearing.go). An
// atomic read-modify-write over several chunks is an exclusive pair over
// them (LDAXR/STLXR), checked under -target aarch64 only: the other
// models say nothing about mixed sizes, and it is refused under them.
// Thread-local variables have one copy per thread (globalAddr). Locals whose address clang-14 keeps in memory (alloca) are
// locations too, named after their function instance. Initial values
// come from the initializers (integers, null, addresses of globals).
// malloc and calloc of a constant size make, per call instance of the
// unrolled code, a fresh object heapN with a cell at every 4 bytes,
// initially 0 (a field of 8 bytes is the cell at its offset); free
// marks the object freed, and a second free of it is a failure ("double
// free"; free.go); objects are never reused. The graph engine reports an
// access to a freed object not ordered before its free ("use after
// free") and a read of memory malloc left uninitialised (uninit.go);
// the SMT engine checks both too (bmc.Options.RawRead, FreedMark; a use
// after free under the models bmc.UseAfterFreeOrder names (c11
// included: its happens-before), and under a model read from a file a
// program whose tracked locals are accessed only before their end in the
// owner's program order, else it
// answers only FAIL or RACE on programs that free heap objects, as the
// explicit engine does on programs with either). A local (or a created
// thread's copy of a thread-local variable) whose address escapes ends
// its lifetime where clang-14 marks its block's end (llvm.lifetime.end:
// its function returned, main returned, its block ended) or where its
// thread ends (return, pthread_exit): an access not ordered before that
// end is a failure naming the variable and its function ("use of the
// local variable v of f after its lifetime ended", C11 6.2.4), decided
// by both engines as a use after free (lifetime.go, escape.go; GenMC
// frees a function's allocas at its return likewise). A local whose
// lifetime a loop repeats is a new object (a heap object of Musket's) at
// each entry into its block (C11 6.2.4p6), so a pointer kept from an
// earlier iteration names an ended object; main's thread-locals end
// where main calls pthread_exit.
// realloc makes a new object, copies the
// old contents and frees the old one (realloc.go). Integers wider than
// 64 bits (__int128) and floating-point values are refused. Output is
// not modelled, but the output functions return glibc's values: printf,
// fprintf and dprintf the length of what a literal format produces (its
// %s arguments read; sprintf.go), puts strlen+1, fputs 1, putchar, fputc
// and putc their character, fwrite its count (stdio.go); fflush,
// perror, and printf, fprintf, dprintf, puts, vprintf and vfprintf
// whose result is unused are no event (as GenMC and Dartagnan treat
// them: their string arguments are then not read).
// A heap object that the allocating function never casts to wider data
// is character memory, a cell per byte (heapcells.go). errno is each thread's own int
// (errno.go; sem_trywait and sem_timedwait set it when they fail). The
// program's constructors run before main, in the order of their
// priorities; where main returns and at exit(), the atexit handlers
// (in the reverse order of their registration, C11 7.22.4.4) and then
// the destructors (by priority, the largest first) run in the exiting
// thread (ctors.go; _Exit and abort run none). Recursive and
// error-checking mutexes have an owner and a count (mutexkind.go: the
// lock word of every mutex of a program that asks for one of these
// kinds; an unlock by a thread that does not hold a normal mutex
// releases it, as glibc's does, in every program: not reported, though
// POSIX leaves it undefined). GCC's
// checked arithmetic (__builtin_add/sub/mul_overflow) is lowered
// (overflow.go; products of at most 32 bits). __builtin_trap ends the
// path as abort does. main's exit status is not checked (as GenMC and
// SV-COMP). A thread-specific data destructor runs at a created thread's
// end for its non-null value (tssdtor.go). A division by zero and the
// smallest signed value divided by -1 are failures at the division
// (insts.go's divChecks).
//
// main runs as the command run without arguments: argc is 1, argv[0]
// the program's name and argv[1] NULL, a third parameter an empty
// environment (mainargs.go). Signed overflow, which C leaves undefined,
// is not reported (see below: nsw arithmetic does not wrap).
//
// Functions are inlined from main (recursion to -bound). Integer
// arithmetic, comparisons, casts, branches, switch, phi (assigned on the
// edges, in parallel) and select (a branch) become local computation and
// jumps. An N-bit value is kept as the signed number its bits denote;
// every operation wraps around at its width as the machine does (nsw
// arithmetic, whose overflow C leaves undefined, excepted), unsigned
// ones read their operands' bits unsigned, and &, |, ^ are computed bit
// by bit in arithmetic (see intarith.go).
// The -O1 intrinsics llvm.{s,u}{max,min}, llvm.abs and llvm.expect are
// lowered; volatile accesses are plain (NA) accesses. A program checked
// without races (sc, tso, the hardware targets, -races=false) has each
// plain access to memory another thread may reach kept as written: -O1
// may not forward, merge or hoist it, as it may in a race-free program
// (racepipe.go, aswritten.go).
//
// Accesses are tagged as the C litmus front-end tags them (herd7's names,
// which c11.cat and rc11.cat bind): a plain load or store NA, an atomic
// one A and its order (RLX, ACQ, REL, ACQ_REL, SC); cmpxchg and atomicrmw
// (every integer operation; max/min through a product) are prog.RMW with
// tags A, order, RMW, X; a failing compare-and-swap reads with its failure
// order; a weak one may fail spuriously (a coin decides: a location only
// an extra thread writes 1 to, so its read returns 0 or 1 under every
// model); fence is a Fence tagged with its order (atomic_signal_fence is
// dropped: it orders nothing between threads).
//
// Threads. main is thread P0. Each pthread_create call of the unrolled
// code (a call in a loop counts once per iteration) starts a new thread,
// numbered in order: the parent writes the thread's number into the
// pthread_t, the argument into location %arg.N (a plain write; constant
// arguments are passed directly) and then 1 into %start.N with a release
// write; the child starts with an acquire read of %start.N that must read
// 1 (else it has not started: it stops there) and ends with a release
// write of 1 to %done.N. pthread_join(t) reads %done.N with an acquire
// read, for the thread N whose number t holds, and waits (stops) unless it
// reads 1 (a number read from memory may name any thread, a sibling's
// too: such a join is expanded once every thread is lowered; a thread
// joining itself gets EDEADLK at once, as from glibc). The
// release/acquire pairs give create and join their
// happens-before edges under the C11 models and, once compiled, the
// fences of the hardware mappings. pthread_mutex_lock is a
// compare-and-swap of the mutex's first cell from 0 to 1 with acquire
// order that must succeed, pthread_mutex_unlock a release write of 0.
//
// Stopping. A thread stops (its later events do not exist) where it
// waits: an __VERIFIER_assume that does not hold, abort(), exit(), unreachable,
// a join or a start that is not ready, a cut spin loop. A stopped thread
// is a prefix of an execution in which it waits forever, so the other
// threads' assertions are still checked in it.
//
// Assertions. assert (__assert_fail), __VERIFIER_assert, reach_error and
// __VERIFIER_error set the thread's register %fail to the number of the
// assertion and stop the thread. The checked question is whether some
// thread can end with %fail ≠ 0 (an exists condition over every thread's
// %fail, which both engines evaluate); the witness's final state names
// the assertion (file:line and its text). __VERIFIER_nondet_* give an
// arbitrary value (prog.Havoc: the SMT engine only; the explicit engine
// refuses it).
//
// A program may define these functions itself (SV-COMP's programs define
// reach_error, often empty, and __VERIFIER_assert): the call is still the
// assertion, and the compilation keeps such calls (keepByName). SV-COMP's
// atomic sections (__VERIFIER_atomic_begin/end, a function named
// __VERIFIER_atomic_...) are the critical sections of one hidden lock
// (atomicsec.go): they exclude one another, and an access outside every
// section may still come between a section's accesses. pthread_exit ends
// the thread where it is called (its value is what a join gets); GenMC's
// __VERIFIER_spin_start/__VERIFIER_spin_end(c) mark a spin loop's
// iteration, a false c stopping the thread as an assumption does.
// Condition variables (pthread_cond_*, cnd_*): a wait unlocks the mutex
// and locks it again (it may return without a signal, as POSIX allows);
// a round of a wait loop that changed nothing is cut as a spin loop's
// is (condvar.go, with the argument that no verdict is lost). Barriers,
// C11's <threads.h>, read-write locks, semaphores and once-calls:
// posixsync.go. Thread-specific data (pthread_key_*, tss_*) and
// pthread_detach: tss.go. A thread whose function is held in a pointer
// runs the function the pointer names (threadfn.go).
//
// Loops are unrolled by compile.UnrollThreadCounts (the unrolling of
// .pts and litmus loops): a loop whose trip count is a constant
// (compile.TripCounts: the pthread_create and pthread_join loops,
// for (i = 0; i < N; i++), also nested in counted loops) exactly that many
// times, whatever -bound says; the other loops to -bound. When no assertion can fail, a second question
// asks whether some path reaches the unroller's cut (register %bound = 1
// in some thread): then the bound is too small to be sure (exit status 3,
// as CBMC's unwinding assertion). Spin loops are not counted: on the back
// edge of a natural loop whose body writes nothing (no store, atomicrmw,
// alloca or call but assumptions, debugging intrinsics, yields and
// pauses; a compare-and-swap only when it failed in that iteration, an
// atomicrmw only when it wrote back the value it read, as a
// test-and-set that finds the flag set), when every
// phi of the loop header gets back the value it had (the iteration ends
// in the state it started in), the thread stops instead of iterating
// again (yields and sleeps of a value, usleep and sleep, are no event:
// a polling loop that sleeps is a spin loop). Such an iteration can be
// left out of any execution (its events
// are reads and failed compare-and-swaps whose removal keeps the
// execution consistent under the models Musket has), so no outcome is
// lost, and a lock acquire needs no large bound (the spin-loop
// assumption of Dartagnan; Ponce-de-León, Haas, Meyer, "Dartagnan: Leveraging
// Compiler Optimizations and the Linux Kernel Memory Model", TACAS 2021).
//
// Liveness (-liveness). Every place where a thread may stop waiting is a
// spin site: a cut spin loop, a lock, a join, a thread's start; the
// thread records the site's number (%spinat) before its cut. A third
// question, asked when the program is safe, is Dartagnan's liveness
// check: is there an execution in which every thread ends or stops at a
// site whose reads all read the final values of their locations (the
// co-last writes: a fair scheduler cannot release it), and some thread
// stops at a spin loop, lock or join? Such a thread waits forever
// (LIVELOCK, exit status 1, with the site's line). Sites that read
// through computed addresses are named once the threads are unrolled
// when their addresses fold to constants (spinresolve.go: a lock
// &forks[i]); the others are not considered (no false alarm, a
// possible miss).
//
// Models and targets. Under a C-level model (sc, c11, rc11, imm, a .cat
// file) the C11 events run as they are (Arch "C"). CompileFor maps them to
// a hardware target by the C11 mappings (package compile's tables for
// loads and stores, the table in compilefor.go for RMWs and fences).
//
// Inline asm: a target's full fence is a seq_cst fence, the compiler
// barrier and spin hints no event, other asm refused (asm.go). memcpy,
// memmove, memset and the bit intrinsics: intrinsics.go (a region
// inside an aggregate by its cells: regioncells.go); memcmp and bcmp
// of a constant length: memcmp.go. strlen, strnlen, strcmp, strncmp,
// strchr, memchr, strcpy, stpcpy and rand_r are lowered as their
// definitions' loops (strfuncs.go: a loop's bound is the largest
// character array of the program; copies between character buffers are
// then byte-wise); the printf family of a literal format (conversions
// d i u x X o c s %, flags, width, precision, length modifiers) as the
// characters sprintf and snprintf write and the count printf returns
// (fmtspec.go, sprintf.go); strtol, strtoul, strtoll, strtoull, atoi,
// atol and atoll as their byte loops (strtol.go: a constant base, ERANGE
// in errno); <ctype.h>'s macros and functions through glibc's "C"
// locale tables (ctype.go); rand and srand as glibc's fixed sequence
// (rand.go: a constant seed; the numbers are taken under glibc's lock,
// an acquire-release counter); abs, labs, llabs, strdup and strndup
// (stdlib.go).
//
// Variadic functions of the program are inlined with their variable
// arguments in memory (varargs.go); structs of integers and pointers in
// registers (a struct returned by value, cmpxchg's pair, through phis)
// are a register per field (aggregates.go); a variable-length array or
// alloca(n) is an object of the size its count has once the loops are
// unrolled (memory.go); string literals the program reads are declared
// (literals.go).
//
// Refused, by name and with the source line of !dbg: floating point,
// calls to functions without a definition (but the ones
// above), malloc, calloc and variable-length arrays of a size that is
// not one constant once the loops are unrolled (builtins.go), extern
// variables the file does not define, variable arguments other than
// integers and pointers, aggregate loads and stores, vector
// instructions, nested aggregates. Ordering
// comparisons and differences of pointers compare offsets into one object
// (ptrcmp.go). Recursion is unrolled to -bound (a path
// needing deeper calls says BOUND). A call through a function pointer is a
// choice among the program's functions of its type (at most 16), by the
// address the pointer holds (functions' addresses are locations %fn.NAME).
//
// For the SMT engine under the built-in (coherent) models, a thread's
// loads of cells only it writes take the value of its last store there
// (forward.go), through the parts of mixed-size accesses too (per chunk,
// an instance's parts kept together): its arithmetic on them is then
// computed from constants. A pointer access is narrowed to the cells the
// address analysis gives it (narrowcells.go; under a hardware target
// keeping its computed address and address dependency, the choice making
// no control dependency: narrow.go), and an atomic and/or/xor on
// a location of a few known values is split by them (rmwcases.go).
// An address outside every cell is a failure "invalid memory access":
// narrow's failure branch for the SMT engine; for the graph engine, which
// computes addresses, a fault that stops the thread and counts only in an
// execution the model accepts (graphfault.go, graph.Options.Fault).
//
// For the graph engine under rc11 and sc, relaxed updates (fetch_add,
// sub, or, and, xor) whose results are unused, of locations main reads
// after the threads end, go per thread to locations of their own that
// main combines at its read, with tests that give a location up when an
// execution breaks the conditions (commute.go): one coherence order of
// the updates instead of n!.
//
// # Power through IMM
//
// Under -target power only the SMT engine decides the compiled program.
// The compilation of IMM to Power is correct (Podkopaev, Lahav,
// Vafeiadis, "Bridging the Gap between Programming Languages and
// Hardware Weak Memory Models", POPL 2019): every execution of the
// compiled program that Power allows is one of the C-level program that
// IMM allows, with the same values in every thread. So a PASS of the
// graph engine under IMM on the C-level events (no failure, no path past
// the bound) is a PASS under Power, for the programs IMMForPower covers;
// its FAIL or BOUND says nothing about Power. immpower.go gives the
// argument for Musket's own mapping (an acquire load's lwsync for the
// paper's ctrl;isync; RC11's leading-sync scheme for SC accesses; an RMW
// whose read no fence or branch orders before a later write, which
// Power lets that write overtake where IMM does not, is not covered),
// what transfers (assertions, invalid accesses, uses after free, reads
// of uninitialised memory, the bound; not data races) and what is
// refused; musket check's -engine auto takes such a PASS
// (cmd/musket/check_cpower.go).
//
// A BOUND too, in two halves (powerbound.go): the graph engine under IMM
// found no failure, so Power has none (the same theorem), and under SC
// it found an execution past the bound, which is, with the fences the
// compilation adds, a Power-consistent execution of the compiled program
// (SC is stronger than Power; a path past the bound found under IMM
// alone is not one).
package cfront
