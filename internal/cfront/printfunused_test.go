package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestPrintfUnused: a printf or puts whose result nobody uses is no
// event (as GenMC and Dartagnan treat it), so its %s argument is not read
// and a write racing with that read is no race; when the result is used,
// the characters are read and the race is reported.
func TestPrintfUnused(t *testing.T) {
	needClang(t)
	const prog = `#include <pthread.h>
#include <stdio.h>
#include <assert.h>
char buf[4] = "ab";
void *w(void *a) { buf[0] = 'x'; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
#ifdef USED
  int n = printf("%s\n", buf);
  assert(n == 3);
#else
  printf("%s\n", buf);
  puts(buf);
#endif
  pthread_join(t, 0);
  return 0;
}
`
	path := filepath.Join(t.TempDir(), "printf_race.c")
	if err := os.WriteFile(path, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		defs []string
		want Verdict
	}{
		{nil, Safe},
		{[]string{"USED"}, Race},
	} {
		r, err := Check(context.Background(), path, CheckOptions{Bound: 2, Engine: "graph", Model: model(t, "rc11"), ModelName: "rc11", Races: true,
			Clang: ClangOptions{Defines: c.defs, RaceFree: true}})
		if err != nil {
			t.Fatalf("%v: %v", c.defs, err)
		}
		if r.Verdict != c.want {
			t.Errorf("%v: verdict %v, want %v", c.defs, r.Verdict, c.want)
		}
	}
}
