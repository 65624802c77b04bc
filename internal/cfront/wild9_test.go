package cfront

import (
	"testing"
)

// TestWild9 checks the programs of a new user's ninth trial
// (testdata/cw9): the library functions programs call and Musket
// refused or answered wrongly before (the printf family with flags,
// widths and length modifiers and the results of the output functions,
// strtol/strtoul/atoi/atol, <ctype.h>, rand/srand, abs/labs, strdup/
// strndup, memmove/memcmp, character buffers on the heap), in threads;
// and shapes of SV-COMP's pthread-ext folder (fmaxsym, rand_cas,
// double_lock, monabsex, barrier, stateful, sync, queue_ok) and of
// GenMC's and Dartagnan's lock tests (a CLH queue lock, Eisenberg and
// McGuire's algorithm). Each file's comment argues its verdicts. A
// row's want string has one letter per cell of wild4Cells (rc11 imm sc
// x86 aarch64 power riscv), as TestWild8's: P pass, F an assertion
// fails, R a data race, B the bound is reached, U no verdict for a
// mixed-size access, - not checked (the SMT engine's time on that
// target: tens of seconds under load). By default the rc11 or sc cell
// (by turns) of the rows not marked long run; MUSKET_LONG=1 runs every cell and the
// native rows (a native run whose failure is certain, three times).
func TestWild9(t *testing.T) {
	needClang(t)
	runWildRows(t, "cw9", wild4Cells, []wildRow{
		// snprintf with flags, width, precision, %ld (sprintf.go).
		{file: "log_format.c", bound: 4, want: "PPPPP-P"},
		{file: "log_format.c", defines: []string{"BUG"}, bound: 4, want: "RRFFF--", line: 40, long: true},
		// strtol with white space, signs, base 0 and the end pointer.
		{file: "config_parse.c", bound: 4, want: "PPPPP-P"},
		{file: "config_parse.c", defines: []string{"BUG"}, bound: 4, want: "RRFFF-F", line: 19},
		// <ctype.h>'s table (isdigit, isupper, toupper, tolower, isspace).
		{file: "digit_count.c", bound: 6, want: "PPPPP-P"},
		{file: "digit_count.c", defines: []string{"BUG"}, bound: 6, want: "RRFFFFF", line: 45, native: true, long: true},
		// rand in two threads: glibc's lock orders the calls.
		{file: "rand_order.c", bound: 4, want: "PPPPP-P"},
		{file: "rand_order.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 30},
		// rand's fixed sequence without srand.
		{file: "rand_seq.c", bound: 4, want: "PPPPP-P"},
		{file: "rand_seq.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 28, native: true, long: true},
		// strdup's copy published by release/acquire.
		{file: "strdup_publish.c", bound: 4, want: "PPPPP-P"},
		{file: "strdup_publish.c", defines: []string{"BUG"}, bound: 4, want: "RRPPF-F", long: true},
		// printf's, puts' and putchar's results.
		{file: "output_results.c", bound: 4, want: "PPPPPPP"},
		{file: "output_results.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", line: 35, long: true},
		// abs, labs (abs(INT_MIN + 1)).
		{file: "abs_spread.c", bound: 4, want: "PPPPPPP"},
		{file: "abs_spread.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 33, long: true},
		// memmove of overlapping regions, memcmp: 4-byte units over a
		// char buffer, cut into parts; the graph engine runs plain parts
		// as accesses of their own under RC11 and IMM (tearing.go's
		// plainPartsApart), and takes PASS so under SC and x86
		// (partsApart); the SMT engine takes minutes on the BUG's sc
		// and on aarch64 (-).
		{file: "memmove_shift.c", bound: 4, want: "PPPP--P", long: true},
		{file: "memmove_shift.c", defines: []string{"BUG"}, bound: 4, want: "RR-F---", long: true},
		// SV-COMP's fmaxsym: a maximum published by CAS.
		{file: "fmax_sym.c", bound: 4, want: "PPPPPPP"},
		{file: "fmax_sym.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 38},
		// SV-COMP's rand_cas: a hand-written generator advanced by CAS.
		{file: "prng_cas.c", bound: 4, want: "PPPPPPP"},
		{file: "prng_cas.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 38, long: true},
		// SV-COMP's double_lock.
		{file: "double_lock.c", bound: 4, want: "PPPPPPP"},
		{file: "double_lock.c", defines: []string{"BUG"}, bound: 4, want: "RRPPPPP", long: true},
		// SV-COMP's monabsex: a monotone counter.
		{file: "monabs.c", bound: 4, want: "PPPPPPP"},
		{file: "monabs.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// A CLH queue lock.
		{file: "clh_lock.c", bound: 4, want: "PPPPPPP"},
		{file: "clh_lock.c", defines: []string{"BUG"}, bound: 4, want: "RRPPFFF", line: 44, long: true},
		// Eisenberg and McGuire: retry loops that take more than the
		// bound (BOUND); its relaxed BUG fails within it.
		{file: "eisenberg.c", bound: 4, want: "BBBBB-B", long: true},
		{file: "eisenberg.c", defines: []string{"BUG"}, bound: 4, want: "F--FF-F", long: true},
		// SV-COMP's barrier_vf.
		{file: "barrier_count.c", bound: 4, want: "PPPPPPP"},
		{file: "barrier_count.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", line: 31, long: true},
		// SV-COMP's stateful01.
		{file: "stateful.c", bound: 4, want: "PPPPPPP"},
		{file: "stateful.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 43, native: true, long: true},
		// SV-COMP's sync01: condition variables, two rounds.
		{file: "sync_num.c", bound: 4, want: "PPPPPPP"},
		{file: "sync_num.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", long: true},
		// SV-COMP's queue_ok.
		{file: "queue_flags.c", bound: 4, want: "PPPPPPP"},
		{file: "queue_flags.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// A character buffer on the heap (heapcells.go: "invalid memory
		// access" before).
		{file: "heap_chars.c", bound: 4, want: "PPPPPPP"},
		{file: "heap_chars.c", defines: []string{"BUG"}, bound: 4, want: "RRFFFFF", long: true},
		// strchr, strndup, strdup, strlen, strcmp in threads: clang
		// makes strcmp(tok, "ab") a 2-byte load of tok, which meets the
		// copies' bytes at an offset known only when running (refused
		// before; mixed.go's charChunks cuts the copies into bytes).
		{file: "tokens_strndup.c", bound: 4, want: "PPPPP-P"},
		{file: "tokens_strndup.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 16, native: true, long: true},
		// strtoul with a base computed when the program runs, ERANGE.
		{file: "hex_ids.c", bound: 4, want: "PPPPP-P"},
		{file: "hex_ids.c", defines: []string{"BUG"}, bound: 4, want: "R-FFF-F", long: true},
		// fprintf's result (%zu, %+d).
		{file: "stderr_report.c", bound: 4, want: "PPPPP-P"},
		{file: "stderr_report.c", defines: []string{"BUG"}, bound: 4, want: "RRFFF-F", long: true},
		// sprintf into heap buffers (%08lx, %-3d), one byte short.
		{file: "heap_names.c", bound: 4, want: "PPPPP-P"},
		{file: "heap_names.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", long: true},
		// atoi and atol of "+2" and " 3".
		{file: "atoi_workers.c", bound: 4, want: "PPPPPPP"},
		{file: "atoi_workers.c", defines: []string{"BUG"}, bound: 4, want: "FFFFFFF", line: 29},
		// toupper's table in place; (isalpha) and (tolower) called.
		{file: "upper_halves.c", bound: 4, want: "PPPPP-P"},
		{file: "upper_halves.c", defines: []string{"BUG"}, bound: 4, want: "RRPPP-P", long: true},
		// snprintf's result past the buffer's end.
		{file: "snprintf_trunc.c", bound: 4, want: "PPPPP-P"},
		{file: "snprintf_trunc.c", defines: []string{"BUG"}, bound: 4, want: "FFFFF-F", line: 29, native: true, long: true},
	})
}
