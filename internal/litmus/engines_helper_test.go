package litmus_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// engineCase is one litmus file of testdata/DIR and the verdict both
// engines must give it: ok (the condition holds) with states final
// states. noSMT leaves the SMT engine out (a test it takes minutes on).
type engineCase struct {
	file   string
	ok     bool
	states int
	noSMT  bool
}

// runEngineCases runs each case under the built-in model with the
// explicit engine and, unless the case says noSMT, the SMT engine, and
// reports every answer that is not Done with the case's verdict. It
// returns the explicit engine's results and the parsed tests by file,
// for checks of the caller's own.
func runEngineCases(t *testing.T, model, arch, dir string, limit time.Duration, cases []engineCase) (map[string]*result.Result, map[string]*spec.Test) {
	t.Helper()
	return runEngineCasesIn(t, driver.Models{}, model, arch, dir, limit, cases)
}

// runEngineCasesHerd runs the cases under the built-in model and, when
// the corpus' reference library is present, under herd7 7.58's own file
// of that name (model.cat) read by the cat interpreter.
func runEngineCasesHerd(t *testing.T, model, arch, dir string, limit time.Duration, cases []engineCase) {
	t.Helper()
	runEngineCases(t, model, arch, dir, limit, cases)
	lib := filepath.Join(testcorpus.HerdReferencePath(), "lib")
	if _, err := os.Stat(filepath.Join(lib, model+".cat")); err == nil {
		runEngineCasesIn(t, driver.Models{LibDirs: []string{lib}}, filepath.Join(lib, model+".cat"), arch, dir, limit, cases)
	}
}

// runEngineCasesIn is runEngineCases with the model loaded by ms (a file
// of a library, say).
func runEngineCasesIn(t *testing.T, ms driver.Models, model, arch, dir string, limit time.Duration, cases []engineCase) (map[string]*result.Result, map[string]*spec.Test) {
	t.Helper()
	m, name, err := ms.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(arch)
	enums := map[string]*result.Result{}
	tests := map[string]*spec.Test{}
	for _, tc := range cases {
		path := filepath.Join("testdata", dir, tc.file+".litmus")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(path, src)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		runs := map[string]*result.Result{"enum": enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()})}
		if !tc.noSMT {
			runs["smt"] = bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()})
		}
		cancel()
		for engine, r := range runs {
			if r.Status != result.Done || r.Ok() != tc.ok || len(r.States) != tc.states {
				t.Errorf("%s: %s %s %v, ok %v with %d states; want ok %v with %d", tc.file, engine, r.Status, r.Err, r.Ok(), len(r.States), tc.ok, tc.states)
			}
		}
		enums[tc.file], tests[tc.file] = runs["enum"], lt
	}
	return enums, tests
}

// runBoth runs lt under the built-in model with the explicit engine and
// the SMT engine (a minute each at most) and returns their results,
// unchunked, in that order.
func runBoth(t *testing.T, lt *spec.Test, model, arch string) [2]*result.Result {
	t.Helper()
	m, name, err := driver.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup(arch)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runs := [2]*result.Result{
		enum.Run(ctx, lt, m, name, enum.Options{TagNames: fe.Tags()}),
		bmc.Run(ctx, lt, m, name, bmc.Options{TagNames: fe.Tags()}),
	}
	for _, r := range runs {
		result.Unchunk(r, lt)
	}
	return runs
}
