package bmc_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/result"
)

// TestTimeoutWhileEncoding: the encoding of testdata/spin3.pts (three
// threads spinning in nested loops) under Power at bound 5 takes more
// than a minute and a gigabyte; the deadline must stop it within the
// encoding (and Z3's solving), reported as a timeout, never a verdict.
// The guard is generous (a loaded machine); the outcome is asserted.
func TestTimeoutWhileEncoding(t *testing.T) {
	m, name, err := bmc.ModelFor("power", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	const limit, guard = 2 * time.Second, 20 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	type answer struct {
		pr  *bmc.ProgramResult
		err error
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		pr, err := bmc.CheckProgram(ctx, filepath.Join("testdata", "spin3.pts"), m, name, bmc.ProgramOptions{Target: "power", Bound: 5})
		done <- answer{pr, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatal(a.err)
		}
		if a.pr.Result.Status != result.Timeout || a.pr.Reachable {
			t.Fatalf("status %s (%v), reachable %v; want a timeout", a.pr.Result.Status, a.pr.Result.Err, a.pr.Reachable)
		}
	case <-time.After(guard):
		t.Fatalf("still running %s after a %s limit", time.Since(start), limit)
	}
}
