/* The work items of proj_work.c: a table of handlers and a check. */
#ifndef WORK_H
#define WORK_H
#include <assert.h>
#include "kern/atomic.h"

enum work_state { WORK_IDLE, WORK_CLAIMED, WORK_DONE };
typedef enum work_state work_state_t;

struct work {
  int state;             /* work_state_t, through cmpxchg */
  int result;            /* written by the claimer, read after publication */
  int (*fn)(int);        /* the handler */
  int arg;
};

static inline int work_claim(struct work *w) {
  return cmpxchg(&w->state, WORK_IDLE, WORK_CLAIMED) == WORK_IDLE;
}

static inline void work_finish(struct work *w, int r) {
  w->result = r;
  smp_store_release(&w->state, WORK_DONE);
}

/* The consumer's check (its line is what a failure names). */
static inline void work_check(struct work *w, int want) {
  if (smp_load_acquire(&w->state) == WORK_DONE) {
    assert(w->result == want);
  }
}
#endif
