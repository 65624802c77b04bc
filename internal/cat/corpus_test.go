package cat

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// unsupported lists the corpus models Musket cannot evaluate, and why.
var unsupported = map[string]string{
	"herd/LL.cat":                       "old model: uses WW, RW, ... without including filters.cat",
	"herd/uniproc-normw-cat.cat":        "old model: uses WW, RW, ... without including filters.cat",
	"herd/c11_los.cat":                  "fragment: uses generate_orders without including cross.cat",
	"herd/asl.cat":                      "needs herd7's ASL primitives (as_transitive)",
	"herd/deps.cat":                     "needs herd7's relations over instructions (bisimulation, lift, delift)",
	"herd/deps-new.cat":                 "needs herd7's relations over instructions (bisimulation, lift, delift)",
	"herd/deps-instances.cat":           "needs herd7's relations over instructions (bisimulation, lift, delift)",
	"herd/arm-models/mixed/ec.cat":      "needs relations over classes of events (lift, delift)",
	"herd/arm-models/non-mixed/egc.cat": "needs relations over classes of events (lift, delift)",
	"herd/arm-models/mixed/egc.cat":     "needs relations over classes of events (lift, delift)",
}

// mustEvaluate are the models whose names an x86 execution gives in
// full: they must evaluate without the permissive mode.
var mustEvaluate = []string{
	"herd/x86tso.cat", "herd/tso.cat", "herd/sc.cat", "herd/x86fences.cat", "herd/stdlib.cat",
	"herd/filters.cat", "herd/cos.cat", "herd/cos-no-opt.cat", "herd/cos-ok-opt.cat", "herd/cross.cat",
	"herd/fences.cat", "herd/armfences.cat", "herd/ppcfences.cat", "herd/aarch64fences.cat",
	"herd/mips-tso.cat", "herd/uniproc.cat", "herd/sccat.cat", "herd/uniproccat.cat",
	"dat3m/tso.cat", "dat3m/sc.cat", "dat3m/stdlib.cat", "dat3m/x86fences.cat",
}

// TestEvaluateCorpus loads every .cat model of the corpus (with herd's
// folder as include folder, as the Linux model needs) and evaluates it on
// SB's relaxed execution, the names only other architectures give being
// 0 (the permissive mode of the tests).
func TestEvaluateCorpus(t *testing.T) {
	root := "../../../shared/corpus/cat"
	if _, err := os.Stat(root); err != nil {
		testcorpus.Dir(t) // a missing corpus skips, or fails under CI
		t.Fatal(err)
	}
	must := map[string]bool{}
	for _, m := range mustEvaluate {
		must[m] = true
	}
	var ok, failed []string
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".cat") {
			return err
		}
		name, _ := filepath.Rel(root, path)
		name = filepath.ToSlash(name)
		m, err := Load(path, LoadOptions{IncludeDirs: []string{herdDir}})
		if err != nil {
			t.Errorf("%s: load: %v", name, err)
			return nil
		}
		x := build(t, shapes[0].exec).x
		opts := CheckOptions{unboundEmpty: !must[name]}
		n := 0
		err = m.Check(x, opts, func(Outcome) bool { n++; return true })
		if err == nil && n == 0 {
			t.Errorf("%s: no outcome", name)
		}
		switch why, known := unsupported[name]; {
		case err == nil && known:
			t.Errorf("%s evaluates but is listed as unsupported (%s)", name, why)
		case err != nil && !known:
			t.Errorf("%s: %v", name, err)
		case err != nil:
			failed = append(failed, name+": "+why)
		default:
			ok = append(ok, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(failed)
	t.Logf("%d models evaluate; %d cannot:\n%s", len(ok), len(failed), strings.Join(failed, "\n"))
}
