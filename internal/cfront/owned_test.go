package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llir/llvm/asm"
)

// TestOwnedSame checks the owned lowering of mutexes (mutexkind.go)
// against the plain one on programs that use only normal mutexes: with
// every mutex lowered as an owned one (forceOwnedMutexes), the verdict
// must be the plain lowering's (also where a thread unlocks a normal
// mutex it does not hold: both release it, as glibc). By default a few
// programs under sc; MUSKET_LONG=1 every program of testdata that locks
// a mutex, under sc and rc11.
func TestOwnedSame(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	files := []string{"mutex.c", "cw5/list_mutex.c", "cw7/two_lock_queue.c", "sem/cv_pc.c", "sem/c11_threads.c"}
	if long {
		var err error
		files = nil
		for _, g := range []string{"*.c", "cw*/*.c", "sem/*.c", "racecc/*.c"} {
			m, _ := filepath.Glob(filepath.Join("testdata", g))
			for _, f := range m {
				b, e := os.ReadFile(f)
				if e != nil {
					err = e
				}
				if containsAny(string(b), "pthread_mutex_lock", "mtx_lock") {
					rel, _ := filepath.Rel("testdata", f)
					files = append(files, rel)
				}
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	models := []string{"sc"}
	if long {
		models = append(models, "rc11")
	}
	for _, f := range files {
		for _, m := range models {
			t.Run(f+"/"+m, func(t *testing.T) {
				check := func(owned bool) (*Result, error) {
					forceOwnedMutexes = owned
					defer func() { forceOwnedMutexes = false }()
					return Check(context.Background(), filepath.Join("testdata", f), CheckOptions{Bound: 2, Engine: "graph",
						Model: model(t, m), ModelName: m, Races: m == "rc11"})
				}
				plain, err1 := check(false)
				owned, err2 := check(true)
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("plain: %v, owned: %v", err1, err2)
				}
				if err1 != nil {
					return
				}
				if plain.Verdict != owned.Verdict {
					t.Errorf("plain lowering %v, owned %v (%v)", plain.Verdict, owned.Verdict, owned.Failed)
				}
			})
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// TestAsksMutexKind checks which programs get owned mutexes: those that
// ask for a recursive or error-checking kind (mutexkind.go), not those
// whose normal kind is a constant argument with an attribute (clang's
// noundef: a program with mtx_init(&m, mtx_plain) was lowered with owned
// mutexes, the same verdicts at up to 40 times the SMT engine's time).
func TestAsksMutexKind(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		body string
		want bool
	}{
		{"pthread_mutexattr_t a; pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);", false},
		{"pthread_mutexattr_t a; pthread_mutexattr_settype(&a, PTHREAD_MUTEX_DEFAULT);", false},
		{"pthread_mutexattr_t a; pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);", true},
		{"pthread_mutexattr_t a; pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);", true},
		{"pthread_mutexattr_t a; pthread_mutexattr_settype(&a, kind);", true},
		{"mtx_t m; mtx_init(&m, mtx_plain);", false},
		{"mtx_t m; mtx_init(&m, mtx_timed);", false},
		{"mtx_t m; mtx_init(&m, mtx_plain | mtx_recursive);", true},
		{"static pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP; pthread_mutex_lock(&m);", true},
		{"static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_mutex_lock(&m);", false},
	} {
		src := "#define _GNU_SOURCE\n#include <pthread.h>\n#include <threads.h>\nint kind;\nint main(void) { " + c.body + " return 0; }\n"
		path := filepath.Join(t.TempDir(), "k.c")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		ll, err := CompileIR(context.Background(), path, ClangOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := asm.ParseBytes(path+".ll", retAttrs.ReplaceAll(ll, []byte("$1")))
		if err != nil {
			t.Fatal(err)
		}
		l := &lowerer{mod: m}
		if got := l.asksMutexKind(); got != c.want {
			t.Errorf("%s: owned mutexes %v, want %v", c.body, got, c.want)
		}
	}
}
