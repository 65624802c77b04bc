package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// armLockC is a program where main and n-1 workers each take a lock (a
// compare-and-swap of mode cas, retried until it succeeds: the spin loop
// is cut by an assumption) and increment a counter under it, released by
// a store of mode unlock; main asserts assertion on the count it read.
func armLockC(cas, unlock string, workers int, assertion string) string {
	var b strings.Builder
	b.WriteString(`#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int lk;
int cnt;
static void lock(void) { int e = 0; while (!atomic_compare_exchange_strong_explicit(&lk, &e, 1, memory_order_` + cas + `, memory_order_relaxed)) e = 0; }
static void unlock(void) { atomic_store_explicit(&lk, 0, memory_order_` + unlock + `); }
void *w(void *a) { lock(); cnt++; unlock(); return 0; }
int main(void) {
  pthread_t t[4];
`)
	for i := 0; i < workers; i++ {
		b.WriteString("  pthread_create(&t[" + string(rune('0'+i)) + "], 0, w, 0);\n")
	}
	b.WriteString("  lock(); int c = cnt; unlock();\n  assert(" + assertion + ");\n  return 0;\n}\n")
	return b.String()
}

// TestARMCSpinlocks checks C spin locks under -target aarch64 with the
// graph engine against the SMT engine's verdicts (the same programs,
// checked with it when the test was written): main takes the lock after
// creating its workers, so the failing executions need main's
// compare-and-swap to read the last worker's unlock after each worker's
// read the one before. Those were missed when a revisit's prefix kept
// only what the revisiting write depends on (the workers' release
// unlocks: a wrong PASS); armPrefix keeps what ordered-before puts
// before it. A relaxed compare-and-swap, retried, is decided too.
func TestARMCSpinlocks(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name        string
		cas, unlock string
		workers     int
		assertion   string
		want        cfront.Verdict
		complete    int // complete executions (0: not checked)
		refused     bool
	}{
		{"acq-rel", "acquire", "release", 1, "c != 1", cfront.Violation, 0, false},
		{"acq-rlx", "acquire", "relaxed", 1, "c != 1", cfront.Violation, 0, false},
		{"acq-rel-ok", "acquire", "release", 1, "c == 0 || c == 1", cfront.Safe, 2, false},
		{"acq-rel-3", "acquire", "release", 2, "c != 2", cfront.Violation, 0, false},
		{"acq-rel-3-ok", "acquire", "release", 2, "c == 0 || c == 1 || c == 2", cfront.Safe, 6, false},
		// A relaxed compare-and-swap retried until it succeeds: the next
		// one runs only when it failed, so no read takes its write early
		// (armrmw.go); the SMT engine gives the same verdicts.
		{"rlx-rel", "relaxed", "release", 1, "c != 1", cfront.Violation, 0, false},
		{"rlx-rel-ok", "relaxed", "release", 1, "c == 0 || c == 1", cfront.Safe, 0, false},
	} {
		path := filepath.Join(dir, c.name+".c")
		if err := os.WriteFile(path, []byte(armLockC(c.cas, c.unlock, c.workers, c.assertion)), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		// (Without the symmetry reduction: the counts are of every order
		// of the lock's holders, not of the classes of symmetric workers.)
		r, err := cfront.Check(ctx, path, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: "aarch64", Model: m, ModelName: "aarch64", GraphNoSymmetry: true})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.refused {
			if r.Result == nil || r.Result.Status != result.Unsupported {
				t.Errorf("%s: %s, want a refusal", c.name, r.Verdict)
			}
			continue
		}
		if r.Verdict != c.want {
			t.Errorf("%s: %s, want %s", c.name, r.Verdict, c.want)
		}
		if c.complete > 0 && r.Graph != nil && r.Graph.Complete != c.complete {
			t.Errorf("%s: %d complete executions, want %d (one per order of the lock's holders)", c.name, r.Graph.Complete, c.complete)
		}
	}
}

// TestARMTicketLockOrders checks a kernel-style ticket lock (arm64's
// arch_spin_lock: an acquire fetch_add of the next ticket, an acquire
// spin on the owner, a release store of owner + 1), 3 threads x 2
// rounds, under -target aarch64: PASS, with one complete execution per
// order of the six critical sections, 6!/(2!·2!·2!) = 90 (a prefix of
// dependencies alone gave 39: executions were missed).
func TestARMTicketLockOrders(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	path := "../cfront/testdata/kticket3.c"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := cfront.Check(ctx, path, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: "aarch64", Model: m, ModelName: "aarch64"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != cfront.Safe || r.Graph == nil || r.Graph.Complete != 90 {
		t.Fatalf("%s, %+v: want SAFE with 90 complete executions", r.Verdict, r.Graph)
	}
}

// TestARMSpawnedAtomics: testdata/uaf's Treiber stack under -target
// aarch64, whose main pushes with compare-and-swap before it creates the
// poppers, is decided by the graph engine (armspawn.go; armRMWRefuse
// refused it before, and the SMT engine gave the same verdicts), under
// its cross-check, with the same verdict without the reductions.
func TestARMSpawnedAtomics(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		defines []string
		want    cfront.Verdict
		line    int // of the use after free
	}{{nil, cfront.Safe, 0}, {[]string{"BUG"}, cfront.Violation, 41}} {
		path := filepath.Join("..", "cfront", "testdata", "uaf", "treiber_free.c")
		p, err := cfront.Lower(context.Background(), path, cfront.Options{Bound: 2, Clang: cfront.ClangOptions{Defines: c.defines}})
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []bool{false, true} {
			o := cfront.CheckOptions{Bound: 2, Engine: "graph", Target: "aarch64", Model: m, ModelName: "aarch64", GraphCrossCheck: true,
				GraphNoPrune: off, GraphNoSymmetry: off}
			r, err := cfront.CheckProgram(context.Background(), p, o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Result.Status != result.Done || r.Verdict != c.want {
				t.Fatalf("%v (reductions off %v): %v %v (%v), want %v", c.defines, off, r.Result.Status, r.Verdict, r.Result.Err, c.want)
			}
			if c.line != 0 && (r.Failed == nil || r.Failed.Text != "use after free" || r.Failed.Pos.Line != c.line) {
				t.Fatalf("%v: failed %+v, want a use after free at line %d", c.defines, r.Failed, c.line)
			}
		}
	}
}
