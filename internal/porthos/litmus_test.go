package porthos

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
)

// litmusFiles lists the .litmus files of a corpus folder, sorted; every
// step-th one unless MUSKET_LONG is set.
func litmusFiles(t *testing.T, dir string, step int) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".litmus") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	if long() {
		return out
	}
	var some []string
	for i := 0; i < len(out); i += step {
		some = append(some, out[i])
	}
	return some
}

// TestLitmusAgainstEnumerator checks, on litmus tests, that the states
// compare -source A -target B reports missing (all of them) are exactly
// the states the explicit engine finds under B and not under A.
func TestLitmusAgainstEnumerator(t *testing.T) {
	suites := []struct {
		dir            string
		step           int
		source, target string
	}{
		{"X86", 12, "sc", "tso"},
		{"PPC", 60, "tso", "power"},
		{"PPC", 60, "sc", "power"},
	}
	for _, s := range suites {
		for _, path := range litmusFiles(t, filepath.Join(corpus, "litmus", s.dir), s.step) {
			name := s.dir + "/" + strings.TrimSuffix(filepath.Base(path), ".litmus") + "/" + s.target + "⊆" + s.source
			t.Run(name, func(t *testing.T) {
				if _, err := litmus.ParseFile(path); err != nil {
					t.Fatalf("corpus test does not parse: %v", err)
				}
				r := compare(t, path, s.source, s.target, Options{All: true})
				src, tgt := side(t, s.source), side(t, s.target)
				p, err := Load(path, &src, &tgt, 2)
				if err != nil {
					t.Fatal(err)
				}
				under := func(sd Side) []string {
					var keys []string
					for k := range enumStates(t, p.Target, sd, p.TargetTags, 2) {
						keys = append(keys, k)
					}
					return keys
				}
				inSource := map[string]bool{}
				for _, k := range under(src) {
					inSource[k] = true
				}
				var want []string
				for _, k := range under(tgt) {
					if !inSource[k] {
						want = append(want, k)
					}
				}
				var got []string
				for _, st := range r.Missing {
					got = append(got, st.Key())
				}
				sort.Strings(want)
				sort.Strings(got)
				if !slices.Equal(got, want) {
					t.Fatalf("missing states %v, the explicit engine's difference %v", got, want)
				}
				if r.Holds != (len(want) == 0) {
					t.Fatalf("holds = %v with %d missing states", r.Holds, len(want))
				}
			})
		}
	}
}
