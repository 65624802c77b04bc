package cfront

import "testing"

// TestWild12 checks the programs of a new user's twelfth trial
// (testdata/cw12), written anew in the idioms of public suites the
// earlier trials had not covered: Concurrency Kit's locks and barriers
// (a decrement lock, a big-reader lock, a phase-fair reader-writer lock,
// a CAS lock with exponential back-off, a dissemination barrier, a
// copy-on-write array, a FIFO with a stub node), liblfds' add-only list
// and tree, an elimination exchange slot, goblint's regression shapes
// (per-element and per-field mutexes, trylock paths), SV-COMP's
// pthread-atomic and pthread-ext shapes (Burns and Lynch's one-bit
// mutex, Hyman's wrong mutex beside Peterson's, a ticket lock with a
// try-lock, time_var_mutex, strict alternation), LDV's driver races (a
// scull device, an interrupt handler registered too early, a timer
// callback and a free at module exit), semaphore patterns of Downey's
// "The Little Book of Semaphores" (rendezvous, a reusable barrier),
// POSIX spin locks and barriers' serial thread, a count-down latch, a
// poison pill, a hand-made reentrant lock, and two programs refused by
// name (robust mutexes, a pipe). Each file's comment argues its
// verdicts. A row's want string has one letter per cell of wild4Cells
// (rc11 imm sc x86 aarch64 power riscv): P pass, F an assertion fails
// (or a memory error), R a data race, B a bound too small, L a livelock,
// E a named refusal, - not checked (a time-out under load; and power,
// where the test asks the SMT engine alone, which takes minutes and
// gigabytes on some of these: the report's table has -engine auto's power
// answers, the SMT engine's with the graph engine under IMM for a PASS).
// By default the rc11 or sc cell (by turns) of the rows not
// marked long run; MUSKET_LONG=1 runs every cell and the native rows (a
// native run whose failure is certain, three times).
func TestWild12(t *testing.T) {
	needClang(t)
	bug := []string{"BUG"}
	runWildRows(t, "cw12", wild4Cells, []wildRow{
		// Locks.
		{file: "dec_lock.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "dec_lock.c", defines: bug, bound: 4, want: "RRPPF-F"},
		{file: "burns_mutex.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "burns_mutex.c", defines: bug, bound: 4, want: "FFPFP-F", line: 45},
		{file: "hyman_mutex.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "hyman_mutex.c", defines: bug, bound: 4, want: "FFFFF-F", long: true},
		{file: "ticket_trylock.c", bound: 4, want: "PPPPP-P"},
		{file: "ticket_trylock.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "brlock.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "brlock.c", defines: bug, bound: 4, want: "RRPFP-P", long: true},
		{file: "pflock.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "pflock.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "spin_api.c", bound: 4, want: "PPPPP-P"},
		{file: "spin_api.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "backoff_lock.c", bound: 4, want: "BBBBB-B", long: true},
		{file: "backoff_lock.c", defines: bug, bound: 4, want: "RRBBF-F", long: true},
		{file: "self_owner.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "self_owner.c", defines: bug, bound: 4, want: "PPPPP-P", long: true},
		{file: "self_owner.c", defines: bug, bound: 2, liveness: true, want: "--L----"},
		// Per-element, per-field and trylock-path locking.
		{file: "elem_locks.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "elem_locks.c", defines: bug, bound: 4, want: "RRFFF-F"},
		{file: "field_locks.c", bound: 4, want: "PPPPP-P"},
		{file: "field_locks.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "trylock_path.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "trylock_path.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "time_var.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "time_var.c", defines: bug, bound: 4, want: "RRFFF-F"},
		// Lock-free structures.
		{file: "addonly_list.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "addonly_list.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "addonly_tree.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "addonly_tree.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "cow_array.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "cow_array.c", defines: bug, bound: 4, want: "RRPPF-F"},
		{file: "fifo_stub.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "fifo_stub.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "elim_slot.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "elim_slot.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "alternation.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "alternation.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		// Barriers, semaphores, condition variables.
		{file: "dissem_barrier.c", bound: 4, want: "PPPPP-P"},
		{file: "dissem_barrier.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "barrier_serial.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "barrier_serial.c", defines: bug, bound: 4, want: "RRFFF-F", native: true, long: true},
		{file: "rendezvous.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "rendezvous.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "sem_turnstile.c", defines: bug, bound: 4, want: "--FFF-F", native: true, long: true},
		{file: "count_latch.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "count_latch.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "poison_pill.c", bound: 4, want: "PPPPP-P"},
		{file: "poison_pill.c", defines: bug, bound: 4, want: "FFFFF-F", native: true, long: true},
		// Drivers (LDV's shapes).
		{file: "scull_dev.c", bound: 4, want: "EEPPP-P", err: "memcpy (called, or made by clang-14 of a loop that copies or fills memory) of a length not known", long: true},
		{file: "scull_dev.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "irq_publish.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "irq_publish.c", defines: bug, bound: 4, want: "RRFFF-F"},
		{file: "timer_free.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "timer_free.c", defines: bug, bound: 4, want: "FFFFF-F", line: 25},
		// Refused by name.
		{file: "robust_mutex.c", bound: 4, want: "EEEEEEE", err: "call to pthread_mutexattr_setrobust, which has no definition and is not supported"},
		{file: "pipe_msg.c", defines: bug, bound: 4, want: "EEEEEEE", err: "call to pipe, which has no definition and is not supported", native: true, long: true},
	})
}
