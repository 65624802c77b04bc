package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/result"
)

// TestTSDLimitNoVerdict: a path past one of Musket's limits on
// thread-specific data (two keys with destructors created at one site, a
// destructor that sets a value again) gives no verdict (unsupported, exit
// status 3), under each engine: it was a FAIL (robust5), though the
// programs are correct.
func TestTSDLimitNoVerdict(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, src, msg string }{
		{"twokeys.c", `#include <pthread.h>
static pthread_key_t k[2];
static void dtor(void *p) { }
int main() { for (int i = 0; i < 2; i++) pthread_key_create(&k[i], dtor); return 0; }
`, "one per site"},
		{"again.c", `#include <pthread.h>
static pthread_key_t k;
static void dtor(void *p) { pthread_setspecific(k, p); }
static void *t(void *a) { pthread_setspecific(k, (void *)1); return 0; }
int main() { pthread_key_create(&k, dtor); pthread_t th; pthread_create(&th, 0, t, 0); pthread_join(th, 0); return 0; }
`, "one round of destructors"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, engine := range []string{"smt", "graph"} {
			r, err := Check(context.Background(), path, CheckOptions{Bound: 3, Engine: engine, Model: model(t, "rc11"), ModelName: "rc11"})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, engine, err)
			}
			if r.Verdict != Unknown || r.Result.Status != result.Unsupported || r.Result.Err == nil || !strings.Contains(r.Result.Err.Error(), c.msg) {
				t.Errorf("%s %s: verdict %v, %s %v; want no verdict naming %q", c.name, engine, r.Verdict, r.Result.Status, r.Result.Err, c.msg)
			}
		}
	}
}
