// Loading libz3 when the SMT engine is first used (z3load.c, z3lazy.c).
#ifndef MUSKET_Z3LOAD_H
#define MUSKET_Z3LOAD_H

// The functions z3lazy.c defines: their names, how many, and libz3's
// functions of those names once loaded.
extern const char *const musket_z3_names[];
extern const int musket_z3_count;
extern void *musket_z3_fns[];

// musket_z3_load loads libz3 and finds every function of musket_z3_names
// in it, once: NULL when it did, else why not.
const char *musket_z3_load(void);

// musket_z3_loaded says whether musket_z3_load succeeded.
int musket_z3_loaded(void);

// musket_z3_fn is libz3's function number i, loading libz3 first when
// it is not loaded yet; a process that cannot load it stops with the
// reason (package smt loads it through musket_z3_load before any call,
// and reports an error there instead).
void *musket_z3_fn(int i);

#endif
