package enum

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestCoherentModelsNames: every model CoherentModel trusts is a built-in
// one, and a model read from a file is never trusted, whatever its name.
func TestCoherentModelsNames(t *testing.T) {
	for name := range coherentBuiltins {
		m, err := cat.LoadBuiltin(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !CoherentModel(m) {
			t.Errorf("%s: not trusted", name)
		}
		src, err := cat.BuiltinSource(name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), name+".cat")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if fm, err := cat.Load(p, cat.LoadOptions{}); err == nil && CoherentModel(fm) {
			t.Errorf("%s read from a file is trusted", name)
		}
	}
}

// TestUniprocKeepsCounts: on the first tests of each corpus suite, the
// explicit engine gives the same counts, states and flags with the
// incoherent candidates left out (Options.Uniproc) as without, under
// each built-in model that CoherentModel trusts for that architecture.
func TestUniprocKeepsCounts(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, tc := range []struct {
		suite  string
		models []string
	}{
		{"X86", []string{"tso", "sc", "pso"}},
		{"PPC", []string{"power"}},
		{"AARCH64", []string{"aarch64"}},
		{"RISCV", []string{"riscv"}},
		{"C11", []string{"rc11", "c11", "imm"}},
	} {
		var files []string
		filepath.WalkDir(filepath.Join(dir, "litmus", tc.suite), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".litmus" {
				files = append(files, p)
			}
			return nil
		})
		sort.Strings(files)
		if len(files) > 12 {
			files = files[:12]
		}
		for _, model := range tc.models {
			m, err := cat.LoadBuiltin(model)
			if err != nil {
				t.Fatal(err)
			}
			compared := 0
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				lt, err := litmus.Parse(f, src)
				if err != nil {
					continue // the corpus tests of the parser say why
				}
				fe, _ := litmus.Lookup(lt.Arch)
				run := func(u bool) *result.Result {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					defer cancel()
					return Run(ctx, lt, m, model, Options{TagNames: fe.Tags(), Uniproc: u})
				}
				a, b := run(false), run(true)
				if a.Status != result.Done || b.Status != result.Done {
					continue
				}
				compared++
				if a.Positive != b.Positive || a.Negative != b.Negative || !reflect.DeepEqual(a.States, b.States) || !reflect.DeepEqual(a.Flags, b.Flags) {
					t.Errorf("%s under %s: without Uniproc %d/%d %v %v, with %d/%d %v %v", filepath.Base(f), model,
						a.Positive, a.Negative, a.States, a.Flags, b.Positive, b.Negative, b.States, b.Flags)
				}
			}
			if compared < len(files)/2 {
				t.Errorf("%s under %s: %d of %d tests compared", tc.suite, model, compared, len(files))
			}
		}
	}
}
