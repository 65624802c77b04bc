package cfront

import (
	"testing"
)

// wild5Cells are the columns of TestWild5's table: three C-level models
// and two hardware targets (each under its own built-in model).
var wild5Cells = []struct{ model, target string }{
	{"rc11", ""}, {"imm", ""}, {"sc", ""}, {"tso", "x86"}, {"aarch64", "aarch64"},
}

// TestWild5 checks the programs of a new user's fifth trial
// (testdata/cw5), written in the styles of public suites: SV-COMP's
// pthread, pthread-atomic, pthread-wmm and pthread-ext files (thread
// records in struct arrays, atomic sections, nondeterministic values,
// reach_error, unbounded thread creation), CDSChecker-style atomics
// (orders held in variables, 8/16/64-bit and pointer atomics, weak-CAS
// loops, signal fences), Linux-kernel-style macros of the program's own
// (READ_ONCE over volatile, smp_mb, a seqcount, RCU), and C features
// (compound literals, designated initialisers, static locals, function
// pointers, variadic functions, bitfields, unions, VLAs, -I and -D).
// Each file's comment argues its verdicts. A row's want string has one
// letter per cell of wild5Cells: P pass, F an assertion fails, R a data
// race, B the bound is reached, L a thread waits forever (with
// Liveness), - not checked. err rows expect Musket to refuse the program
// with an error containing err. By default the rc11 or sc cell (by turns) run
// (the graph engine, milliseconds each, or the SMT engine where the
// graph engine refuses, as -engine auto does); MUSKET_LONG=1 runs every
// cell and the native rows: a run on this machine (x86-64) whose
// assertion fails, every time, shows the failure reachable.
func TestWild5(t *testing.T) {
	needClang(t)
	runWildRows(t, "cw5", wild5Cells, []wildRow{
		// Thread records read through the argument: the argument is a
		// constant once the create loop is unrolled (constregs.go). The
		// nondeterministic amounts leave it to the SMT engine, which
		// takes seconds, and does not answer under rc11 and imm (see the
		// report of branch cwild5).
		{file: "sv_bank.c", want: "--PPP", long: true},
		{file: "sv_bank.c", defines: []string{"BUG"}, want: "--FFF", long: true, line: 67},
		{file: "sv_atomic_lock.c", want: "PPPPP"},
		{file: "sv_atomic_lock.c", defines: []string{"BUG"}, want: "RRFFF", line: 41},
		{file: "wmm_sb.c", want: "RRPFF"},
		{file: "wmm_sb.c", defines: []string{"FENCE"}, want: "RRPPP"},
		{file: "wmm_sb.c", defines: []string{"MFENCE"}, want: "RRPP-"},
		{file: "wmm_sb.c", defines: []string{"MFENCE"}, want: "----E", err: `asm "mfence" is a fence of x86`},
		{file: "pc_cond.c", want: "PPPP-", long: true},
		// A deadlock is no assertion failure: PASS unless -liveness, as
		// GenMC without --check-liveness.
		{file: "pc_cond.c", defines: []string{"BUG"}, want: "PPPP-", long: true},
		{file: "pc_cond.c", defines: []string{"BUG"}, want: "L-L--", liveness: true, long: true},
		{file: "cv_barrier.c", want: "PPPPP"},
		{file: "cv_barrier.c", defines: []string{"BUG"}, want: "RRFFF", line: 51},
		{file: "barrier_phases.c", want: "PPPPP"},
		{file: "barrier_phases.c", defines: []string{"BUG"}, want: "RRFFF", native: true},
		{file: "join_ret.c", want: "PPPPP"},
		{file: "join_ret.c", defines: []string{"BUG"}, want: "RRFFF", line: 38},
		{file: "list_mutex.c", bound: 5, want: "PPPPP"},
		{file: "list_mutex.c", defines: []string{"BUG"}, bound: 5, want: "RRFFF"},
		{file: "mo_param.c", want: "PPPPP"},
		{file: "mo_param.c", defines: []string{"BUG"}, want: "RRPPF", line: 31},
		{file: "cas_minmax.c", want: "PPPPP"},
		{file: "cas_minmax.c", defines: []string{"BUG"}, want: "FFFFF", line: 46},
		{file: "ptr_xchg.c", want: "PPPPP"},
		{file: "ptr_xchg.c", defines: []string{"BUG"}, want: "RRPPF", line: 52},
		// aarch64: the graph engine refuses the consumer's loop
		// (armrmw.go); the SMT engine's PASS (it decides a use after
		// free: bmc's uaf.go).
		{file: "ptr_xchg.c", defines: []string{"TFENCE"}, want: "PPPPP"},
		{file: "kern_sb.c", want: "RRPPP"},
		{file: "kern_sb.c", defines: []string{"BUG"}, want: "RRPFF", line: 40},
		{file: "seqcount.c", want: "PPPPP"},
		{file: "seqcount.c", defines: []string{"BUG"}, want: "FFPPF", line: 54},
		{file: "cfeat_jobs.c", want: "PPPPP"},
		{file: "cfeat_jobs.c", defines: []string{"BUG"}, want: "RRFFF", line: 68},
		// sum() recurses four calls deep: -bound 4.
		{file: "cfeat_fnptr.c", want: "BBBBB"},
		{file: "cfeat_fnptr.c", bound: 4, want: "PPPPP"},
		{file: "cfeat_fnptr.c", defines: []string{"BUG"}, bound: 4, want: "RRFFF", line: 56},
		// A struct returned by value (insertvalue, aggregates.go; was
		// refused) and string literals the program reads (literals.go;
		// NOAGG was FAIL, their reads saw no characters).
		{file: "cfeat_return.c", want: "PPPPP"},
		{file: "cfeat_return.c", defines: []string{"BUG"}, want: "FFFFF", line: 60, native: true},
		{file: "cfeat_return.c", defines: []string{"NOAGG"}, want: "PPPPP"},
		{file: "cfeat_return.c", defines: []string{"NOAGG", "BUG"}, want: "FFFFF", line: 60},
		{file: "str_copy.c", want: "PPPPP"},
		{file: "str_copy.c", defines: []string{"BUG"}, want: "RRFFF", line: 28, native: true},
		{file: "cfeat_bits.c", want: "PPPPP"},
		{file: "cfeat_bits.c", defines: []string{"BUG"}, want: "RRFFF", line: 61},
		{file: "cfeat_grid.c", bound: 4, want: "PPPPP"},
		{file: "cfeat_grid.c", defines: []string{"BUG"}, bound: 4, want: "RRFFF", native: true},
		{file: "cfeat_grid.c", defines: []string{"DYN"}, bound: 4, want: "EEEEE", err: "a variable-length array (or alloca) of a size that is not a constant once the loops are unrolled"},
		{file: "vla_loop.c", bound: 3, want: "PPPPP"},
		{file: "vla_loop.c", bound: 3, defines: []string{"BUG"}, want: "FFFFF", line: 41, native: true},
		{file: "hdr_spin.c", includes: []string{"inc"}, defines: []string{"NTHREADS=3"}, want: "PPPPP"},
		{file: "hdr_spin.c", includes: []string{"inc"}, defines: []string{"NTHREADS=3", "UNLOCK_MO=memory_order_relaxed"}, want: "RRPPF", line: 26},
		{file: "lb_deps.c", want: "PFPPF", line: 34},
		{file: "lb_deps.c", defines: []string{"CTRL"}, want: "PPPPP"},
		{file: "spsc_ring.c", want: "PPPPP"},
		{file: "spsc_ring.c", defines: []string{"BUG"}, want: "RRPPF", line: 43},
		{file: "bakery.c", want: "PPPPP"},
		{file: "bakery.c", defines: []string{"BUG"}, want: "RRPFF", line: 56},
		{file: "refcount.c", want: "PPPPP"},
		// aarch64: the read of the payload is not ordered before the
		// other thread's free: a use after free at line 36, before the
		// assertion (uaf.go).
		{file: "refcount.c", defines: []string{"BUG"}, want: "RRPPF", line: 36},
		{file: "ext_inc.c", want: "BBBBB"},
		{file: "ext_inc.c", defines: []string{"BUG"}, want: "RRFFF", line: 23},
		{file: "rcu_swap.c", want: "PPPPP"},
		{file: "rcu_swap.c", defines: []string{"BUG"}, want: "RRFFF", line: 42},
		// push's compare-exchange takes its orders as parameters: one
		// cmpxchg per order under a switch, their result pairs joined by
		// a phi (pairphi.go; refused under sc and the targets before).
		{file: "kern_stack.c", bound: 3, want: "PPPPP"},
		{file: "kern_stack.c", defines: []string{"BUG"}, bound: 3, want: "RRPPF", line: 56},
		{file: "extern_var.c", want: "EEEEE", err: "limit is declared but not defined in this file"},
		{file: "flag_lock.c", want: "PPPPP"},
		{file: "flag_lock.c", defines: []string{"BUG"}, want: "RRPPF", line: 40},
	})
}
