package param

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInvariantsRoundTrip prints the invariant of safe corpus files in
// Cubicle's syntax, gives it back as invariant declarations, and checks
// that the file still loads and is still safe, and that no reachable
// state of small instances satisfies a printed cube.
func TestInvariantsRoundTrip(t *testing.T) {
	for _, name := range []string{"sc_mutex.cub", "sc_dekker.cub", "sc_german.cub", "brab/sc_szymanski_at.cub"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(corpusDir, name))
			if err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatal(err)
				}
				t.Skipf("corpus not available: %v", err)
			}
			sys, err := Load(name, src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(t.Context(), sys, Options{Timeout: 30 * time.Second})
			if err != nil || res.Verdict != Safe {
				t.Fatalf("%v %v", res.Verdict, err)
			}
			var b strings.Builder
			WriteInvariants(&b, sys, res)
			out := b.String()
			if strings.Count(out, "invariant (") != len(res.cubes) {
				t.Fatalf("%d cubes, printed:\n%s", len(res.cubes), out)
			}
			sys2, err := Load(name, append(append([]byte{}, src...), "\n"+out...))
			if err != nil {
				t.Fatalf("the printed invariant does not load: %v\n%s", err, out)
			}
			if len(sys2.Invariants) != len(sys.Invariants)+len(res.cubes) {
				t.Fatalf("%d invariants read back, want %d", len(sys2.Invariants), len(sys.Invariants)+len(res.cubes))
			}
			res2, err := Verify(t.Context(), sys2, Options{Timeout: 30 * time.Second, NoApprox: true})
			if err != nil || res2.Verdict != Safe {
				t.Fatalf("with its invariant: %v %v", res2.Verdict, err)
			}
			for n := int32(2); n <= 3; n++ {
				// the instance of sys: sys2's sample would leave out the
				// states that its invariants exclude
				fin := newFinite(sys, n)
				states := fin.sample(nil, maxSample).states
				for _, st := range states {
					for _, inv := range sys2.Invariants {
						if fin.holdsRoot(st, inv) {
							t.Fatalf("a reachable state of %d processes satisfies invariant %d", n, inv.Index)
						}
					}
				}
			}
		})
	}
}
