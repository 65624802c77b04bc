package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestPowerFenceRelations checks that power.cat's barrier relations,
// written through the fence events (strong and light), are the pairs of
// Herding cats' definitions with fencerel: the built-in model with four
// flags, each raised by an execution where one relation has a pair the
// other lacks, under both engines, on the PPC tests with a barrier
// (every 6th by default, all with MUSKET_LONG=1). No flag may be raised,
// and the verdict must be the built-in model's.
func TestPowerFenceRelations(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "litmus", "PPC")
	src, err := cat.BuiltinSource("power")
	if err != nil {
		t.Fatal(err)
	}
	const old = "(fencerel(LWSYNC) \\ (W * R)) | (fencerel(EIEIO) & (W * W))"
	flags := "\nflag ~empty (strong \\ fencerel(SYNC)) as strong-extra\n" +
		"flag ~empty (fencerel(SYNC) \\ strong) as strong-missing\n" +
		"flag ~empty (light \\ (" + old + ")) as light-extra\n" +
		"flag ~empty ((" + old + ") \\ light) as light-missing\n"
	m, err := cat.LoadText("power.cat", map[string][]byte{"power.cat": append(src, flags...)}, cat.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := cat.LoadBuiltin("power")
	if err != nil {
		t.Fatal(err)
	}
	fe, err := litmus.Lookup("PPC")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if err != nil {
		t.Fatal(err)
	}
	var fenced []string
	for _, f := range files {
		b := strings.ToLower(filepath.Base(f))
		if strings.Contains(b, "sync") || strings.Contains(b, "eieio") {
			fenced = append(fenced, f)
		}
	}
	if os.Getenv("MUSKET_LONG") == "" {
		fenced = every(fenced, 6)
	}
	if len(fenced) == 0 {
		t.Fatal("no PPC test with a barrier in the corpus")
	}
	for _, f := range fenced {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // generous: a loaded machine
		want := enum.Run(ctx, lt, plain, "power", enum.Options{TagNames: fe.Tags()})
		for _, res := range []*result.Result{
			enum.Run(ctx, lt, m, "power-flags", enum.Options{TagNames: fe.Tags()}),
			bmc.Run(ctx, lt, m, "power-flags", bmc.Options{TagNames: fe.Tags()}),
		} {
			if res.Status != result.Done || want.Status != result.Done {
				t.Errorf("%s, %s: %s %v (plain model: %s)", filepath.Base(f), res.Engine, res.Status, res.Err, want.Status)
				continue
			}
			if len(res.Flags) > 0 {
				t.Errorf("%s, %s: flags %v raised: a barrier relation differs from fencerel's", filepath.Base(f), res.Engine, res.Flags)
			}
			if res.Ok() != want.Ok() {
				t.Errorf("%s, %s: Ok %v; the built-in model: %v", filepath.Base(f), res.Engine, res.Ok(), want.Ok())
			}
		}
		cancel()
	}
}
