package param

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestDeepFlash runs the FLASH files that only the deep phase of the
// approximation (deep.go) answers: each is SAFE, after a restart with
// the deeper sample. About 20 s of CPU each, so under MUSKET_LONG.
func TestDeepFlash(t *testing.T) {
	if os.Getenv("MUSKET_LONG") == "" {
		t.Skip("runs with MUSKET_LONG=1 (about 20 s of CPU a file)")
	}
	for _, name := range []string{
		"examples/challenges_flash2_nodata.cub",
		"examples/challenges_flash.ctc_home_nodata.cub",
		"examples/challenges_flash2.cub",
		"brab/sc_flash_nodata.cub",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(testcorpus.Dir(t), "cubicle", name)
			sys, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: 5 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s in %v, %d nodes, %d guesses, %d restarts", name, res.Verdict, res.Time.Round(time.Millisecond), res.Visited, res.Guesses, res.Restarts)
			if res.Verdict != Safe {
				t.Fatalf("got %s, want SAFE", res.Verdict)
			}
			crossCheck(t, sys, res)
		})
	}
}
