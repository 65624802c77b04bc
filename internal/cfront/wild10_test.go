package cfront

import (
	"testing"
)

// TestWild10 checks the programs of a new user's tenth trial
// (testdata/cw10), written in the shapes benchmark suites use and
// earlier trials skipped: struct copies and returns (by registers and
// through a hidden pointer), 2D arrays, function pointers in structs
// (operations, thread start routines), recursion with a bound, goto
// state machines and a goto into a loop, variadic helpers, static
// locals, bit-fields (one memory location, or two across a zero-width
// field), adjacent char members, enums in switch (and a switch clang may
// make a table), volatile (no synchronisation), _Atomic structs (8 bytes;
// 16 bytes refused by name), narrow atomics that wrap, atomic_flag,
// weak compare-and-swap (spurious failures; none on x86),
// pthread_once, barriers (two phases, two rounds), rwlocks, condition
// broadcast and a lost wake-up (liveness), spurious wake-ups,
// thread-specific data with destructors (tssdtor.go), SV-COMP's
// __VERIFIER_atomic_ functions and assume-driven nondeterminism, a SPSC
// ring, an intrusive list with container_of, variable-length arrays,
// strcpy/strcmp/memcmp over character memory (cut into bytes, mixed.go's
// charChunks), a division by zero (divChecks). Each file's comment argues its verdicts. A row's want
// string has one letter per cell of wild4Cells (rc11 imm sc x86 aarch64
// power riscv): P pass, F an assertion fails, R a data race, L a thread
// waits forever (-liveness), E a named refusal, - not checked (the SMT
// engine's time on power under load). By default the rc11 or sc cell
// (by turns) of the rows not marked long run; MUSKET_LONG=1 runs every cell and the
// native rows (a native run whose failure is certain, three times).
func TestWild10(t *testing.T) {
	needClang(t)
	runWildRows(t, "cw10", wild4Cells, []wildRow{
		// Struct returns and struct arguments by value.
		{file: "struct_return.c", bound: 4, want: "PPPPPPP"},
		{file: "struct_return.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "big_struct_ret.c", bound: 4, want: "PPPPP-P"},
		{file: "big_struct_ret.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 35, native: true, long: true},
		// A 2D array filled by rows.
		{file: "matrix_rows.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "matrix_rows.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF"},
		// Function pointers in structs.
		{file: "ops_table.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "ops_table.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 48},
		{file: "thread_table.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "thread_table.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 32, native: true},
		// Recursion with a bound.
		{file: "bounded_recursion.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "bounded_recursion.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 36, native: true, long: true},
		// goto: a state machine, a jump into a loop.
		{file: "goto_fsm.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "goto_fsm.c", defines: []string{"BUG"}, bound: 4, want: "RRPPFFF"},
		{file: "jump_into_loop.c", bound: 6, want: "PPPPPPP", long: true},
		{file: "jump_into_loop.c", defines: []string{"BUG"}, bound: 6, want: "FFFFFFF", long: true},
		// Variadic helpers (va_list passed on).
		{file: "varargs_log.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "varargs_log.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 58, native: true, long: true},
		// static locals.
		{file: "static_locals.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "static_locals.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF"},
		// Bit-fields: one memory location; two across a zero-width one.
		{file: "bitfield_unit.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "bitfield_unit.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF"},
		{file: "bitfield_sep.c", bound: 4, want: "PPPPPPP"},
		{file: "bitfield_sep.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "char_members.c", bound: 4, want: "PPPPPPP"},
		{file: "char_members.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// enums in switch; a switch clang may make a table.
		{file: "enum_switch.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "enum_switch.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "switch_table.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "switch_table.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 58, native: true, long: true},
		// volatile is no synchronisation.
		{file: "volatile_flag.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "volatile_flag.c", defines: []string{"BUG"}, bound: 4, want: "RRPPFFF"},
		// _Atomic structs: 8 bytes; 16 bytes refused by name.
		{file: "atomic_pair.c", bound: 4, want: "PPPPPPP"},
		{file: "atomic_pair.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "atomic_big.c", bound: 4, want: "EEEEEEE", err: "an _Atomic object of 16 bytes"},
		{file: "atomic_big.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// Narrow atomics wrap.
		{file: "atomic_small.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "atomic_small.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 30, native: true, long: true},
		// atomic_flag spinlock.
		{file: "flag_spinlock.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "flag_spinlock.c", defines: []string{"BUG"}, bound: 4, want: "RRPPF-F", long: true},
		// Weak compare-and-swap: spurious failures, none on x86.
		{file: "weak_cas.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "weak_cas.c", defines: []string{"BUG"}, bound: 4, want: "FFFPFFF", line: 21},
		// pthread_once.
		{file: "once_table.c", bound: 4, want: "PPPPPPP"},
		{file: "once_table.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// Barriers: two phases; two rounds.
		{file: "barrier_phases.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "barrier_phases.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "barrier_rounds.c", bound: 4, want: "PPPPPPP"},
		{file: "barrier_rounds.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// rwlocks.
		{file: "rwlock_record.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "rwlock_record.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF"},
		// Condition variables: broadcast with spurious wake-ups; a lost
		// wake-up (liveness).
		{file: "gate_broadcast.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "gate_broadcast.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 26},
		{file: "cond_pipeline.c", bound: 4, want: "PPPPPPP", liveness: true, long: true},
		{file: "cond_pipeline.c", defines: []string{"BUG"}, bound: 4, want: "LLLLL-L", liveness: true},
		// Thread-specific data with destructors (tssdtor.go: refused
		// before).
		{file: "tsd_values.c", bound: 4, want: "PPPPP-P"},
		{file: "tsd_values.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 19, native: true, long: true},
		{file: "tsd_exit.c", bound: 4, want: "PPPPP-P"},
		{file: "tsd_exit.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 49, native: true, long: true},
		// SV-COMP: __VERIFIER_atomic_ functions; assume.
		{file: "verifier_sections.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "verifier_sections.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		{file: "assume_ranges.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "assume_ranges.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 46},
		// A single-producer single-consumer ring.
		{file: "ring_spsc.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "ring_spsc.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// A struct copied into a heap object and published.
		{file: "struct_publish.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "struct_publish.c", defines: []string{"BUG"}, bound: 4, want: "RRPPFFF"},
		// Designated initialisers, memset.
		{file: "designated_init.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "designated_init.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 49, long: true},
		// A union's word and bytes.
		{file: "union_bytes.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "union_bytes.c", defines: []string{"BUG"}, bound: 4, want: "RRPPFFF", long: true},
		// strcpy, strcmp and memcmp of character memory (folded into
		// wide loads: charChunks).
		{file: "name_compare.c", bound: 4, want: "PPPPPPP"},
		{file: "name_compare.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// An intrusive list with container_of; -D BUG reads an int out
		// of a pointer's bytes: refused by name.
		{file: "intrusive_list.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "intrusive_list.c", defines: []string{"BUG"}, bound: 4, want: "EEEEEEE", err: "unsupported mixed-size access: a pointer stored over 2 separately accessed parts", long: true},
		// A variable-length array; -D BUG writes past it.
		{file: "vla_buffer.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "vla_buffer.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 22},
		// Binary records copied into a heap character buffer at
		// offsets known only when running (time-outs before).
		{file: "heap_records.c", bound: 4, want: "PPPPPPP"},
		{file: "heap_records.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 39, native: true, long: true},
		// A division by zero (and INT_MIN / -1): failures at the
		// division (insts.go's divChecks; PASS before, power an engine
		// error).
		{file: "div_average.c", bound: 4, want: "PPPPPPP", long: true},
		{file: "div_average.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 36},
		// Refused by name: qsort, strtok_r, a computed goto.
		{file: "qsort_ranks.c", bound: 4, want: "EEEEEEE", err: "call to qsort, which has no definition and is not supported", long: true},
		{file: "strtok_split.c", bound: 4, want: "EEEEEEE", err: "call to strtok_r, which has no definition and is not supported", long: true},
		{file: "computed_goto.c", bound: 4, want: "EEEEEEE", err: "a label's address (GCC's &&label, for a computed goto) is not supported", long: true},
	})
}
