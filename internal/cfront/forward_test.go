package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOwnStores: a thread's arithmetic on variables only it writes gets
// an answer from the SMT engine (it had none in minutes), under the
// hardware models too, with the verdict of the native run; a variable
// another thread writes is not forwarded. The default run checks
// aarch64; MUSKET_LONG=1 every model of TestSemantics.
func TestOwnStores(t *testing.T) {
	needClang(t)
	for _, c := range []struct {
		file string
		want Verdict
		line int
	}{
		{"ownarith.c", Safe, 0},
		{"ownarith_bug.c", Violation, 38},
		{"notown.c", Violation, 22},
	} {
		path := filepath.Join("testdata", "sem", c.file)
		t.Run(c.file, func(t *testing.T) {
			if got := runNative(t, path); got != c.want {
				t.Fatalf("native run: %v, want %v (the test's expectation is wrong)", got, c.want)
			}
			mts := []struct{ model, target string }{{"aarch64", "aarch64"}}
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
