// libz3 is loaded with dlopen when the SMT engine is first used, not by
// the dynamic loader at every start of Musket (see z3lazy.c).

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "z3load.h"

static pthread_once_t musket_z3_once = PTHREAD_ONCE_INIT;
static const char *musket_z3_err;
static char musket_z3_errbuf[1024];
static int musket_z3_ok;

// The names libz3 goes by: the development link (the one -lz3 links
// against), then the run-time library of Z3 4.
static const char *const musket_z3_libs[] = {"libz3.so", "libz3.so.4"};

// musket_one_arena gives Z3's allocations a single glibc malloc arena,
// from the start of the process (an arena made before the setting is
// kept by its thread, so it cannot wait for the load of libz3),
// unless the user chose a number (MALLOC_ARENA_MAX, or arena_max in
// GLIBC_TUNABLES). glibc makes an arena per thread that calls malloc, up
// to eight per core, and every Go thread that runs a cgo call is such a
// thread: Z3's contexts, made and freed on whichever thread the goroutine
// runs on, left free memory in many arenas and faulted fresh pages in
// elsewhere. On the PPC litmus suite (-engine smt -j 2) one arena halved
// the peak memory (215 MB -> 96 MB) and cut the page faults by two thirds;
// two arenas were worse than one. Small blocks still come from each
// thread's cache without the arena's lock.
__attribute__((constructor)) static void musket_one_arena(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_ARENA_MAX") == NULL && (t == NULL || strstr(t, "arena_max") == NULL)) {
		mallopt(M_ARENA_MAX, 1);
	}
#endif
}

static void musket_z3_do_load(void) {
	void *h = NULL;
	const char *why = "";
	for (size_t i = 0; i < sizeof musket_z3_libs / sizeof musket_z3_libs[0] && h == NULL; i++) {
		h = dlopen(musket_z3_libs[i], RTLD_LAZY | RTLD_LOCAL);
		if (h == NULL) {
			const char *e = dlerror();
			why = e ? e : "";
		}
	}
	if (h == NULL) {
		snprintf(musket_z3_errbuf, sizeof musket_z3_errbuf,
			"cannot load Z3's library for the SMT engine (install libz3-dev: scripts/setup-deps.sh): %s", why);
		musket_z3_err = musket_z3_errbuf;
		return;
	}
	for (int i = 0; i < musket_z3_count; i++) {
		void *f = dlsym(h, musket_z3_names[i]);
		if (f == NULL) {
			snprintf(musket_z3_errbuf, sizeof musket_z3_errbuf,
				"Z3's library has no function %s (it is older than the Z3 headers Musket was built with)", musket_z3_names[i]);
			musket_z3_err = musket_z3_errbuf;
			return;
		}
		__atomic_store_n(&musket_z3_fns[i], f, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&musket_z3_ok, 1, __ATOMIC_RELEASE);
}

const char *musket_z3_load(void) {
	pthread_once(&musket_z3_once, musket_z3_do_load);
	return musket_z3_err;
}

int musket_z3_loaded(void) { return __atomic_load_n(&musket_z3_ok, __ATOMIC_ACQUIRE); }

void *musket_z3_fn(int i) {
	void *f = __atomic_load_n(&musket_z3_fns[i], __ATOMIC_ACQUIRE);
	if (f != NULL)
		return f;
	const char *e = musket_z3_load();
	if (e != NULL) {
		fprintf(stderr, "musket: %s\n", e);
		exit(2);
	}
	return __atomic_load_n(&musket_z3_fns[i], __ATOMIC_ACQUIRE);
}
