package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOwnStores: a thread's arithmetic on variables only it writes gets
// an answer from the SMT engine (it had none in minutes), under the
// hardware models too, with the verdict of the native run; a variable
// another thread writes is not forwarded; the same through accesses of
// mixed sizes (ownmixed.c had no answer in minutes while mixed-size
// cells were not forwarded), and with workers writing res[id] (an
// element their argument chooses), which narrow.go's syntactic choice
// made every thread write. The default run checks
// aarch64; MUSKET_LONG=1 every model of TestSemantics.
func TestOwnStores(t *testing.T) {
	t.Parallel() // no global switch or environment: it runs beside the other long tests
	needClang(t)
	for _, c := range []struct {
		file string
		want Verdict
		line int
		sc   bool // the default run checks sc (no target: narrow.go's choice) rather than aarch64
	}{
		{"ownarith.c", Safe, 0, false},
		{"ownarith_bug.c", Violation, 38, false},
		{"notown.c", Violation, 22, false},
		// Through mixed-size parts (unions, bytes, memcpy): forwarded per
		// chunk, the parts of an instance kept together.
		{"ownmixed.c", Safe, 0, false},
		{"ownmixed_bug.c", Violation, 54, false},
		{"notown_mixed.c", Violation, 29, false},
		// res[id] written by workers: narrow.go's choice among the cells
		// the analysis gives (it let every thread write every cell).
		{"ownindex.c", Safe, 0, true},
		{"ownindex_bug.c", Violation, 41, true},
		// atomic and/or/xor by workers: split by the old values the
		// analysis gives (rmwcases.go).
		{"atomicbits.c", Safe, 0, false},
		{"atomicbits_bug.c", Violation, 44, false},
	} {
		path := filepath.Join("testdata", "sem", c.file)
		t.Run(c.file, func(t *testing.T) {
			if got := runNative(t, path); got != c.want {
				t.Fatalf("native run: %v, want %v (the test's expectation is wrong)", got, c.want)
			}
			mts := []struct{ model, target string }{{"aarch64", "aarch64"}}
			if c.sc {
				mts = []struct{ model, target string }{{"sc", ""}}
			}
			if os.Getenv("MUSKET_LONG") == "1" {
				mts = semTargets
			}
			for _, mt := range mts {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				r, err := Check(ctx, path, CheckOptions{Bound: 4, Engine: "smt", Target: mt.target, Model: model(t, mt.model), ModelName: mt.model})
				cancel()
				if err != nil {
					t.Fatalf("%s: %v", mt.model, err)
				}
				if r.Verdict != c.want {
					t.Fatalf("%s: verdict %v (%v %v), want %v", mt.model, r.Verdict, r.Result.Status, r.Result.Err, c.want)
				}
				if c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
					t.Errorf("%s: failed assertion %v, want line %d", mt.model, r.Failed, c.line)
				}
			}
		})
	}
}

// TestMallocUnrolled: malloc, calloc and aligned_alloc of sizes known
// once the loops are unrolled (they were refused), under the graph
// engine for speed; TestSemantics checks them under every model with
// MUSKET_LONG=1.
func TestMallocUnrolled(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file string
		want Verdict
		line int
	}{{"malloc_unrolled.c", Safe, 0}, {"malloc_unrolled_bug.c", Violation, 32}} {
		path := filepath.Join("testdata", "sem", c.file)
		if got := runNative(t, path); got != c.want {
			t.Fatalf("%s: native run: %v, want %v", c.file, got, c.want)
		}
		r, err := Check(context.Background(), path, CheckOptions{Bound: 4, Engine: "graph", Model: model(t, "rc11"), ModelName: "rc11"})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if r.Verdict != c.want || c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
			t.Errorf("%s: %v %v (%v), want %v at line %d", c.file, r.Verdict, r.Failed, r.Result.Err, c.want, c.line)
		}
	}
}

// TestMallocSizeRefused: a size that is not one constant once the code
// is unrolled is refused by name, at the call.
func TestMallocSizeRefused(t *testing.T) {
	needClang(t)
	_, err := Lower(context.Background(), filepath.Join("testdata", "malloc_varying.c"), Options{Bound: 2})
	if err == nil || !strings.Contains(err.Error(), "malloc_varying.c:17") || !strings.Contains(err.Error(), "malloc of a size that is not a constant once the loops are unrolled") {
		t.Errorf("error %v, want malloc_varying.c:17:11: malloc of a size that is not a constant once the loops are unrolled", err)
	}
}

// TestAnalysesStopped: the address analyses run before an engine
// (ownStores, narrow's accessCells) stop when the check's context ends,
// and an analysis stopped halfway rewrites nothing: ownStores returns its
// test as it is and accessCells trusts nothing (cw9/log_format.c under
// power spent 50 s in them past a -timeout of 10 s).
func TestAnalysesStopped(t *testing.T) {
	needClang(t)
	p, err := Lower(context.Background(), filepath.Join("testdata", "sem", "ownarith.c"), Options{Bound: 4})
	if err != nil {
		t.Fatal(err)
	}
	if q := ownStores(context.Background(), p.Test); q == p.Test {
		t.Fatal("ownarith.c: ownStores rewrote nothing (the test needs a program it rewrites)")
	}
	if accessCells(context.Background(), p.Test) == nil {
		t.Fatal("ownarith.c: accessCells trusted nothing (the test needs a program it names cells of)")
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if q := ownStores(done, p.Test); q != p.Test {
		t.Error("ownStores with an ended context rewrote the test")
	}
	if c := accessCells(done, p.Test); c != nil {
		t.Errorf("accessCells with an ended context gave %d accesses' cells", len(c))
	}
}
