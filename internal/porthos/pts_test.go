package porthos

import (
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// TestProgramsAgainstEnumerator compares two compilations of small .pts
// programs (different fences, so two programs related by phi_EQ when the
// mappings differ): the missing states are the explicit engine's
// difference of the two compiled programs' state sets.
func TestProgramsAgainstEnumerator(t *testing.T) {
	cases := []struct {
		file, source, target string
		holds                bool
	}{
		{"SB-sc.pts", "x86:tso", "power:power", true},
		{"SB-sc.pts", "power:power", "x86:tso", true},
		{"SB-sc.pts", "x86:sc", "x86:tso", true},
		{"MP-relacq.pts", "x86:tso", "power:power", true},
		{"MP-relacq.pts", "x86:tso", "armv7:armv7", true},
		{"MP-rx.pts", "x86:tso", "power:power", false},
		{"MP-rx.pts", "x86:tso", "armv7:armv7", false},
		{"MP-rx.pts", "power:power", "x86:tso", true},
	}
	for _, tc := range cases {
		t.Run(tc.file+"/"+tc.target+"⊆"+tc.source, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			r := compare(t, path, tc.source, tc.target, Options{All: true})
			if r.Holds != tc.holds {
				t.Fatalf("holds = %v, want %v (missing %v)", r.Holds, tc.holds, r.Missing)
			}
			src, tgt := side(t, tc.source), side(t, tc.target)
			p, err := Load(path, &src, &tgt, 2)
			if err != nil {
				t.Fatal(err)
			}
			inSource := enumStates(t, p.Source, src, p.SourceTags, 2)
			var want, got []string
			for k := range enumStates(t, p.Target, tgt, p.TargetTags, 2) {
				if _, ok := inSource[k]; !ok {
					want = append(want, k)
				}
			}
			for _, st := range r.Missing {
				got = append(got, st.Key())
			}
			sort.Strings(want)
			sort.Strings(got)
			if !slices.Equal(got, want) {
				t.Fatalf("missing %v, explicit engine's difference %v", got, want)
			}
		})
	}
}

// TestLeastFixpoint: the source model's recursive relation, at its least
// fixpoint, is acyclic on every SC execution, so the oracle has no
// candidate at all. With the relaxed encoding alone pairs of r;r could
// support each other and make a cycle, and SC executions would look
// inconsistent with the source.
func TestLeastFixpoint(t *testing.T) {
	for _, file := range []string{"SB-sc.pts", "MP-rx.pts"} {
		r := compare(t, filepath.Join("testdata", file), "x86:"+filepath.Join("testdata", "rec.cat"), "x86:sc", Options{})
		if !r.Holds || r.Iterations != 0 {
			t.Errorf("%s: holds %v after %d iterations, want holds after 0 (notes %v)", file, r.Holds, r.Iterations, r.Notes)
		}
	}
}
