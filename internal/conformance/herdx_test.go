package conformance

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestHerdAtomicSet: herd7's set X holds the exclusive accesses
// (event/atomicset.go), so a check of herd's own library on X decides
// tests of exclusives. XX+2W is 2+2W made of four lwarx/stwcx. pairs,
// the condition asking that each succeeds: herd's ppc-checks.cat forbids
// its cycle (scXX, acyclic co | (po & (X * X))), which Musket's built-in
// power model, without that check, allows. Both engines, which must agree.
func TestHerdAtomicSet(t *testing.T) {
	testcorpus.Dir(t)
	lib := filepath.Join(herdRef(), "lib")
	for _, tc := range []struct {
		file, model string // model: a file of herd's lib, or a built-in
		observation string
	}{
		{"XX+2W.litmus", "ppc.cat", "Never"},
		{"XX+2W.litmus", "power", "Sometimes"},
	} {
		t.Run(tc.file+"/"+tc.model, func(t *testing.T) {
			opts := batch.Options{Engine: "both", Jobs: 1, Model: tc.model}
			if filepath.Ext(tc.model) == ".cat" {
				opts.Model, opts.LibDirs = filepath.Join(lib, tc.model), []string{lib}
			}
			file := filepath.Join("testdata", "herdx", tc.file)
			batch.Run(context.Background(), []string{file}, opts, func(j batch.Job) {
				switch {
				case j.Err != nil:
					t.Fatal(j.Err)
				case j.Disagreement != nil:
					t.Fatalf("the engines disagree: %s", j.Disagreement.What)
				case j.Result.Err != nil:
					t.Fatal(j.Result.Err)
				}
				if got := j.Result.Observation(); got != tc.observation {
					t.Errorf("observation %s, want %s", got, tc.observation)
				}
			})
		})
	}
}
