package graph

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestNativeAgainstCAT runs litmus tests of the corpus with
// Options.CrossCheck: on every graph the engine checks, the native check
// of the built-in model and the CAT model's evaluation must agree (on
// consistency and on the flags of complete graphs). The default run takes
// a sample of each folder; MUSKET_LONG=1 takes every test.
func TestNativeAgainstCAT(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, c := range []struct {
		glob, model string
		max         int
	}{
		{"litmus/X86/*.litmus", "sc", 8},
		{"litmus/X86/*.litmus", "tso", 16},
		{"litmus/X86/*.litmus", "pso", 8},
		{"litmus/SPARC/*.litmus", "pso", 12},
		{"litmus/C11/auto/*.litmus", "rc11", 24},
		{"litmus/C11/manual/*.litmus", "rc11", 24},
	} {
		m, err := cat.LoadBuiltin(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if nativeFor(m) == nativeNone {
			t.Fatalf("%s: no native check", c.model)
		}
		for _, ct := range corpusSample(t, dir, c.glob, c.max, true) {
			f, lt, tags := ct.path, ct.t, ct.tags
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			got, _ := Run(ctx, lt, m, c.model, Options{TagNames: tags, CrossCheck: true, FlagWitnesses: true})
			cancel()
			if got.Status == result.Failed {
				t.Errorf("%s/%s: %v", filepath.Base(f), c.model, got.Err)
			}
		}
	}
}
