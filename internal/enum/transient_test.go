package enum

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestTransientOutcomes runs a sample of every architecture's suite
// with the model's outcomes transient (read while the model yields
// them, cat.CheckOptions.Transient: the default) and lasting (as before
// it), with and without Uniproc, every execution shown and flag
// witnesses kept: the results must be the same, witnesses included.
func TestTransientOutcomes(t *testing.T) {
	corpus := testcorpus.Dir(t)
	per := 12
	if os.Getenv("MUSKET_LONG") != "" {
		per = 1 << 30
	}
	ran := 0
	defer func() { t.Logf("%d runs compared", ran) }()
	for _, arch := range []string{"X86", "PPC", "AARCH64", "RISCV", "C11", "LKMM"} {
		files, _ := filepath.Glob(filepath.Join(corpus, "litmus", arch, "*.litmus"))
		if len(files) > per {
			files = files[:per]
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lt, err := litmus.Parse(filepath.Base(f), src)
			if err != nil {
				continue // the parser's tests cover the files it refuses
			}
			ms := driver.Models{}
			spec, err := ms.SpecFor(lt.Arch)
			if err != nil {
				continue
			}
			m, name, err := ms.Load(spec)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			for _, uniproc := range []bool{false, true} {
				opts := Options{TagNames: driver.Tags(lt.Arch), Uniproc: uniproc, Show: "all", FlagWitnesses: true}
				var out [2]string
				for k, lasting := range []bool{false, true} {
					opts.lastingOutcomes = lasting
					res := Run(context.Background(), lt, m, name, opts)
					res.Time = 0
					b, err := json.Marshal(res)
					if err != nil {
						t.Fatal(err)
					}
					out[k] = string(b)
				}
				ran++
				if out[0] != out[1] {
					t.Errorf("%s (uniproc %v): transient outcomes give\n%s\nlasting ones\n%s", f, uniproc, out[0], out[1])
				}
			}
		}
	}
}
