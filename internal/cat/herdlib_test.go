package cat

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// herdLibraryMissing are the models of herd7 7.58's library that still
// do not load pasted alone (copied into a folder of their own), with the
// file they include that Musket has no version of.
var herdLibraryMissing = map[string]string{
	// herd's C11 models of Batty, Donaldson and Wickerson: their base
	// includes c11_los.cat, whose lock events (LS, UL, LK, lo) Musket's
	// C front end does not make.
	"c11_base.cat": "c11_cos.cat", "c11_orig.cat": "c11_base.cat",
	"c11_partialSC.cat": "c11_base.cat", "c11_simp.cat": "c11_base.cat",
	// herd's speculation experiments (SPEC, EXEC, PoD events).
	"ctrl-bis.cat": "ncos.cat", "deps.cat": "ctrl.cat", "deps-new.cat": "ctrl.cat",
	"deps-instances.cat": "ctrl.cat",
	// pretty.cat applies WW to dmb.st, which aarch64fences.cat makes a
	// set of events: it fails with herd7's own library too.
	"herd.cat": "pretty.cat",
}

// TestHerdLibraryAlone: every model of herd7 7.58's library
// (reference/herd7-7.58/lib, beside the corpus), copied alone into a
// folder, finds the files it includes among Musket's built-in library
// files, but those of herdLibraryMissing, which fail naming the file.
func TestHerdLibraryAlone(t *testing.T) {
	lib := testcorpus.HerdReference(t, "lib")
	models, err := filepath.Glob(filepath.Join(lib, "*.cat"))
	if err != nil || len(models) == 0 {
		t.Fatalf("no model in herd7 7.58's library %s (%v)", lib, err)
	}
	sort.Strings(models)
	loaded := 0
	for _, m := range models {
		name := filepath.Base(m)
		text, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		alone := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(alone, text, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Load(alone, LoadOptions{})
		missing, known := herdLibraryMissing[name]
		switch {
		case known && (err == nil || !strings.Contains(err.Error(), "cannot find included file \""+missing+"\"")):
			t.Errorf("%s: %v, want it not to find %s (or remove it from herdLibraryMissing)", name, err, missing)
		case !known && err != nil:
			t.Errorf("%s alone: %v", name, err)
		case err == nil:
			loaded++
		}
	}
	t.Logf("%d of herd7 7.58's %d library models load alone", loaded, len(models))
}
