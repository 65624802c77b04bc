package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/porthos"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestCorpusMutexFixes repairs the mutual-exclusion programs of the
// shared corpus (mutex/pts: every access relaxed, no fence) for the
// portability question source SC → target, as `musket compare -fix
// -source sc -target T -bound 1` does, and checks the cost of the fix
// found, that each change is needed, and that the explicit engine
// confirms the inclusion. The costs are those of the default table (the
// minimal ones: the brute-force rows of TestRepair cover the same shapes
// on testdata/peterson.pts and dekker.pts). The default run keeps the two
// programs that answer in well under a second; MUSKET_LONG=1 adds Bakery
// and Dekker on the ARMs (Lamport and Szymanski, the slow ones, are left
// to `musket compare -fix`, whose figures the fix note gives).
func TestCorpusMutexFixes(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "mutex", "pts")
	rows := []struct {
		prog, target string
		cost         int
		long         bool
	}{
		{"Peterson", "tso", 2, false},
		{"Dekker", "tso", 2, false},
		{"Peterson", "power", 20, false},
		{"Dekker", "power", 12, false},
		{"Burns", "tso", 2, false},
		{"Parker", "tso", 1, false},
		{"Bakery", "tso", 4, true},
		{"Burns", "power", 12, false},
		{"Parker", "power", 10, false},
		{"Bakery", "power", 32, true},
		{"Peterson", "armv7", 16, false},
		{"Dekker", "armv7", 16, true},
		{"Bakery", "armv7", 40, true},
		{"Peterson", "aarch64", 8, false},
		{"Dekker", "aarch64", 8, true},
		{"Bakery", "aarch64", 20, true},
	}
	for _, r := range rows {
		t.Run(r.prog+"/"+r.target, func(t *testing.T) {
			if r.long && !long {
				t.Skip("with MUSKET_LONG=1 (seconds to a minute each)")
			}
			path := filepath.Join(dir, r.prog+".pts")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			source, err := porthos.ParseSide("sc", nil)
			if err != nil {
				t.Fatal(err)
			}
			target, err := porthos.ParseSide(r.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := RepairInclusion(context.Background(), path, src, &source, &target, Options{Bound: 1}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if out.Outcome != nil && len(out.Fix) == 0 {
				t.Fatalf("no fix found")
			}
			if out.Cost != r.cost {
				t.Errorf("cost %d (%s), want %d", out.Cost, changes(out.Outcome), r.cost)
			}
			unneeded, _, _, err := out.Needed(context.Background())
			if err != nil || len(unneeded) != 0 {
				t.Errorf("Needed = %v, %v; want every change needed", unneeded, err)
			}
			missing, st, err := out.Inclusion(context.Background())
			if err != nil || (st == result.Done && len(missing) != 0) {
				t.Errorf("Inclusion = %v, %v, %v; want no missing state", missing, st, err)
			}
		})
	}
}
