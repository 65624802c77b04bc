// A small project's layout: headers under proj/include (-I), a
// kernel-style compiler.h (READ_ONCE, barrier, likely) and atomic.h
// (atomic_t, a cmpxchg statement expression with __typeof__, smp_mb,
// smp_load_acquire/smp_store_release over __atomic), #pragma once and
// include guards, a header in a subfolder, enum/typedef work states,
// handlers through function pointers in a const-initialised table, and
// -D NR_WORKERS=N and -D CONFIG_SMP_ACQ=0/1 (no default: the build must
// say). NR_WORKERS workers claim the work items by cmpxchg (each item is
// done once), write the result and publish it with a release store; main
// checks every finished item with smp_load_acquire (work.h's
// work_check, so a failure names work.h).
// CONFIG_SMP_ACQ=1: PASS under every model.
// CONFIG_SMP_ACQ=0 (smp_load_acquire is a plain volatile read): the read
// of the state races with the release store (RACE under rc11 and imm; a
// volatile access is not atomic in C11); the result may be read before
// it is written on aarch64, power and riscv (FAIL in work.h); sc and x86
// keep the order (PASS).
#include <pthread.h>
#include <stdio.h>
#include "work.h"

#ifndef NR_WORKERS
#error "build with -D NR_WORKERS=N"
#endif
#ifndef CONFIG_SMP_ACQ
#error "build with -D CONFIG_SMP_ACQ=0 or 1"
#endif

static int square(int x) { return x * x; }
static int twice(int x) { return x + x; }

static struct work items[] = {
    {.fn = square, .arg = 3, .state = WORK_IDLE},
    {.fn = twice, .arg = 5},
};
static atomic_t claimed = ATOMIC_INIT(0);

static void *worker(void *arg) {
  (void)arg;
  for (unsigned i = 0; i < ARRAY_SIZE(items); i++) {
    struct work *w = &items[i];
    if (likely(work_claim(w))) {
      atomic_inc_return(&claimed);
      work_finish(w, w->fn(w->arg));
    }
  }
  return NULL;
}

int main(void) {
  pthread_t t[NR_WORKERS];
  for (int i = 0; i < NR_WORKERS; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  work_check(&items[0], 9);
  work_check(&items[1], 10);
  for (int i = 0; i < NR_WORKERS; i++)
    pthread_join(t[i], NULL);
  smp_mb();
  assert(atomic_read(&claimed) == (int)ARRAY_SIZE(items));
  fprintf(stderr, "claimed %d\n", atomic_read(&claimed));
  return 0;
}
