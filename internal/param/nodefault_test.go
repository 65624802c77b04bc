package param

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCaseWithoutDefault checks the meaning of a case update without a
// "| _ :" branch (see the package doc) on cache-coherence protocols of
// testdata/nodefault: on a weak array the cells no branch names are not
// written (the SAFE protocols depend on it), on a sequentially
// consistent array they take any value, as in Cubicle.
func TestCaseWithoutDefault(t *testing.T) {
	tests := []struct {
		file string
		want Verdict
		long bool // too slow for the default run
	}{
		{"msi_nodefault.cub", Safe, false},
		{"msi_nodefault_bug.cub", Unsafe, false},
		{"msi_nodefault_sc.cub", Unsafe, false},
		{"moesi_nodefault.cub", Safe, true},
		{"moesi_nodefault_bug.cub", Unsafe, false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			if tc.long && os.Getenv("MUSKET_LONG") == "" {
				t.Skip("takes seconds; set MUSKET_LONG=1 to run it")
			}
			sys, err := ParseFile(filepath.Join("testdata", "nodefault", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: timeout()})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s, %d nodes in %v", tc.file, res.Verdict, res.Visited, res.Time.Round(time.Millisecond))
			if res.Verdict != tc.want {
				t.Errorf("%s: got %s, want %s (trace %s)", tc.file, res.Verdict, tc.want, res.TraceString())
			}
		})
	}
}
