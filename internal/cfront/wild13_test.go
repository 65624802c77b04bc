package cfront

import "testing"

// TestWild13 checks the programs of a new user's thirteenth trial
// (testdata/cw13), written anew in idioms of public suites the earlier
// trials had not covered: SV-COMP's pthread-wmm rfi and three-thread
// "safe" shapes as plain C with volatile globals, __VERIFIER_atomic
// sections (a pair kept equal), __VERIFIER_nondet_int with
// __VERIFIER_assume (inputs, votes) and assume as a wait; pthread-lit's
// Lamport bakery for three threads and Peterson's lock as a three-thread
// tournament; pthread-divine's condition-variable consumers and ring
// with two writers; C11 atomics with explicit orders on arrays and
// structs of atomics, atomic_flag as a lock and as an election,
// atomic_thread_fence of every order, atomic_signal_fence between
// threads, an _Atomic struct, compound assignment to an _Atomic
// object, fetch_or and fetch_xor; bit fields beside a char member (C11
// 3.14's memory locations); struct copies; volatile used as atomic;
// Boehm's fence-based seqlock, a cached-index SPSC ring, RCU-like
// reclamation, reference counts with a release decrement and an acquire
// fence, CAS installation and mailbox hand-over of heap objects; and an
// MCS lock whose queue node is a local of a loop body (a lifetime a loop
// repeats: a silent PASS before). Each file's comment argues its
// verdicts. A row's want string has one letter per cell of wild4Cells
// (rc11 imm sc x86 aarch64 power riscv), as TestWild12's; power is '-'
// (the report's table has -engine auto's answers). By default the rc11
// or sc cell (by turns) of the rows not marked long run; MUSKET_LONG=1
// runs every cell and the native rows.
func TestWild13(t *testing.T) {
	needClang(t)
	bug := []string{"BUG"}
	runWildRows(t, "cw13", wild4Cells, []wildRow{
		// SV-COMP pthread-wmm, atomic sections, nondeterministic inputs.
		{file: "wmm_rfi_sb.c", bound: 4, want: "RRPPP-P", long: true},
		{file: "wmm_rfi_sb.c", defines: bug, bound: 4, want: "RRPFF-F"},
		{file: "wmm_isa2.c", bound: 4, want: "RRPPP-P", long: true},
		{file: "wmm_isa2.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "section_pair.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "section_pair.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "nondet_quota.c", bound: 4, want: "PPPPP-P"},
		{file: "nondet_quota.c", defines: bug, bound: 4, want: "FFFFF-F", long: true},
		{file: "vote_commit.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "vote_commit.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "assume_wait.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "assume_wait.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		// pthread-lit and pthread-divine.
		{file: "bakery3.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "bakery3.c", defines: bug, bound: 4, want: "FFFFF-F", long: true},
		{file: "peterson_tree.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "peterson_tree.c", defines: bug, bound: 4, want: "RRPFP-F", long: true},
		{file: "cond_two_consumers.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "cond_two_consumers.c", defines: bug, bound: 4, want: "FFFFF-F", long: true},
		{file: "ring_2w1r.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "ring_2w1r.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		// C11 atomics: orders, fences, flags, structs, compound forms.
		{file: "fence_orders.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "fence_orders.c", defines: bug, bound: 4, want: "RRPPF-F"},
		{file: "signal_fence_mp.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "signal_fence_mp.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "flag_spin.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "flag_spin.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "flag_elect.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "flag_elect.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "slot_array_orders.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "slot_array_orders.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "atomic_pair_struct.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "atomic_pair_struct.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "compound_atomic.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "compound_atomic.c", defines: bug, bound: 4, want: "FFFFF-F"},
		{file: "volatile_counter.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "volatile_counter.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "fetch_or_claims.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "fetch_or_claims.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "xor_parity.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "xor_parity.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		{file: "stats_fields.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "stats_fields.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		// Memory locations and copies.
		{file: "bitfield_neighbor.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "bitfield_neighbor.c", defines: bug, bound: 4, want: "RRFFF-F"},
		{file: "struct_snapshot.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "struct_snapshot.c", defines: bug, bound: 4, want: "RRFFF-F", long: true},
		// Publication and reclamation.
		{file: "seqlock_fences.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "seqlock_fences.c", defines: bug, bound: 4, want: "FFPPF-F"},
		{file: "spsc_cached.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "spsc_cached.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "rcu_grace.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "rcu_grace.c", defines: bug, bound: 4, want: "FFPFP-P", line: 37},
		{file: "refcount_fence.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "refcount_fence.c", defines: bug, bound: 4, want: "RRPPF-F", long: true},
		{file: "cas_install_free.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "cas_install_free.c", defines: bug, bound: 4, want: "FFFFF-F", line: 33, native: true, long: true},
		{file: "mailbox_free.c", bound: 4, want: "PPPPP-P", long: true},
		{file: "mailbox_free.c", defines: bug, bound: 4, want: "FFFFF-F", line: 42, long: true},
		// A lifetime a loop repeats (lifetime.go).
		{file: "mcs_local_loop.c", bound: 4, want: "PPPPP-P"},
		{file: "mcs_local_loop.c", defines: bug, bound: 4, want: "FFFFF-F", line: 30},
	})
}
