package litmus_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestShareabilityFlag runs testdata/share under the built-in aarch64.cat
// (its ARM tests through aarch32-like.cat, which includes it as herd7's
// aarch32.cat does) with every engine that decides the model, and
// checks the verdict and the flag Assuming-common-inner-shareable-domain
// that herd7 7.58's library raises for the ISH and OSH barrier options.
// The graph engine raises it natively (armFlags); it is compared with
// its cross-check, which evaluates the model's text.
func TestShareabilityFlag(t *testing.T) {
	const flag = "Assuming-common-inner-shareable-domain"
	for _, tc := range []struct {
		file, model string
		ok, flag    bool
	}{
		{"MP+dmb.ish+dmb.ishld", "aarch64", false, true},
		{"MP+dmb.sy+dsb.osh", "aarch64", false, true},
		{"MP+dmb.sy+dmb.ld", "aarch64", false, false},
		{"SB+dmb.nshs", "aarch64", false, false},
		{"ARM-MP+dmb.ish", "testdata/share/aarch32-like.cat", false, true},
		{"ARM-SB+dmb+stl", "testdata/share/aarch32-like.cat", false, false},
	} {
		path := filepath.Join("testdata", "share", tc.file+".litmus")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		m, name, err := driver.Load(tc.model)
		if err != nil {
			t.Fatalf("%s: %v", tc.model, err)
		}
		fe, _ := litmus.Lookup(lt.Arch)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		runs := map[string]*result.Result{
			"enum": enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()}),
			"smt":  bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()}),
		}
		if tc.model == "aarch64" {
			runs["graph"], _ = graph.Run(ctx, lt, m, name, graph.Options{TagNames: fe.Tags()})
			runs["graph-crosscheck"], _ = graph.Run(ctx, lt, m, name, graph.Options{TagNames: fe.Tags(), CrossCheck: true})
		}
		cancel()
		for engine, r := range runs {
			if r.Status != result.Done || r.Ok() != tc.ok || slices.Contains(r.Flags, flag) != tc.flag {
				t.Errorf("%s, %s: %s %v, ok %v, flags %v; want ok %v, flag %v", tc.file, engine, r.Status, r.Err, r.Ok(), r.Flags, tc.ok, tc.flag)
			}
		}
	}
}
