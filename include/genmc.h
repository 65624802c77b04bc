/*
 * genmc.h as Musket reads it: the verification calls of GenMC's C API
 * (Kokologiannakis, Vafeiadis, "GenMC: A Model Checker for Weak Memory
 * Models", CAV 2021) that Musket gives a meaning, so that programs written
 * for GenMC compile unchanged. A folder given with -I that holds a
 * genmc.h of its own is searched first. Calls that Musket does not
 * implement are not declared here: such a call is refused by its name.
 */
#ifndef MUSKET_GENMC_H
#define MUSKET_GENMC_H

#ifdef __cplusplus
extern "C" {
#endif

/* The thread stops (the execution is not counted) when c is 0. */
void __VERIFIER_assume(int c);

/* An arbitrary value. */
int __VERIFIER_nondet_int(void);

/* Marks a loop (no effect: loops are unrolled to -bound). */
void __VERIFIER_loop_begin(void);

/* A spin loop's iteration: it ends with __VERIFIER_spin_end(c), a false
 * c marking an iteration that failed (the thread stops there). */
void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(int c);

#ifdef __cplusplus
}
#endif

#endif /* MUSKET_GENMC_H */
