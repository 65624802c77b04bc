package param

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// setHelperAlways starts the helper of the samples (parsample.go)
// under every GOMAXPROCS, for one test.
func setHelperAlways(t *testing.T) {
	old := parallelSampleAlways
	parallelSampleAlways = true
	t.Cleanup(func() { parallelSampleAlways = old })
}

// setMaxProcs sets GOMAXPROCS for one test.
func setMaxProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// TestParallelSampleDeterministic checks that the helper goroutine of
// the deep samples changes nothing: the deep samples of two FLASH files
// (exact and abstract), grown in steps that stop in the middle of
// states' successors, are the same states in the same order, with the
// same parents, steps and permutations, with the helper and without,
// under GOMAXPROCS 1 and 2; and the search of challenges_flash2_nodata
// (whose deep sample grows three times as guesses are refuted) makes
// the same nodes, guesses and undone guesses every run.
func TestParallelSampleDeterministic(t *testing.T) {
	type sample struct {
		digest  uint64
		n       int
		parent  []int32
		stepIdx []int32
		perm    []uint8
		steps   []string
	}
	grow := func(t *testing.T, sys *System, abstract, helper bool) sample {
		a := &approximator{abstract: abstract, deep: true, parallel: helper}
		x := a.newSampler(newFinite(sys, 2))
		for _, limit := range []int{9001, 20003, 40000} {
			x.grow(nil, limit)
		}
		var steps []string
		for _, st := range x.steps {
			steps = append(steps, stepString(st))
		}
		return sample{samplerDigest(x), x.count(), x.res.parent, x.stepIdx, x.perm, steps}
	}
	for _, tc := range []struct {
		name     string
		abstract bool
	}{{"challenges_flash2_nodata.cub", false}, {"challenges_flash2.cub", true}} {
		t.Run(tc.name, func(t *testing.T) {
			sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", "examples", tc.name))
			if err != nil {
				t.Fatal(err)
			}
			var ref sample
			ref = grow(t, sys, tc.abstract, false)
			if ref.n != 40000 {
				t.Fatalf("%d states, want 40000", ref.n)
			}
			for _, procs := range []int{1, 2} {
				setMaxProcs(t, procs)
				setHelperAlways(t)
				got := grow(t, sys, tc.abstract, true)
				if got.digest != ref.digest || got.n != ref.n || !slices.Equal(got.parent, ref.parent) ||
					!slices.Equal(got.stepIdx, ref.stepIdx) || !slices.Equal(got.perm, ref.perm) || !slices.Equal(got.steps, ref.steps) {
					t.Errorf("GOMAXPROCS=%d: the sample with the helper differs (%d states, digest %x; want %d, %x)", procs, got.n, got.digest, ref.n, ref.digest)
				}
			}
		})
	}
	t.Run("search", func(t *testing.T) {
		sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", "examples", "challenges_flash2_nodata.cub"))
		if err != nil {
			t.Fatal(err)
		}
		type outcome struct {
			v                                  Verdict
			visited, guesses, restarts, undone int
		}
		run := func(helper bool) outcome {
			// (noShallow: the first attempt closes the file before any
			// deep sample, brab.go)
			res, err := Verify(context.Background(), sys, Options{Timeout: 5 * time.Minute, ParallelSample: helper, noShallow: true})
			if err != nil {
				t.Fatal(err)
			}
			return outcome{res.Verdict, res.Visited, res.Guesses, res.Restarts, res.Backtracks}
		}
		ref := run(false)
		if ref.v != Safe || ref.undone == 0 {
			t.Fatalf("without the helper: %+v, want SAFE with guesses undone (the deep sample grows)", ref)
		}
		runs := 1
		if os.Getenv("MUSKET_LONG") != "" {
			runs = 5
		}
		for _, procs := range []int{1, 2} {
			setMaxProcs(t, procs)
			setHelperAlways(t)
			for i := 0; i < runs; i++ {
				if got := run(true); got != ref {
					t.Errorf("GOMAXPROCS=%d run %d: %+v, want %+v", procs, i, got, ref)
				}
			}
		}
	})
}

// stepString names a step by its transition and arguments.
func stepString(st forwardStep) string {
	s := "init"
	if st.t != nil {
		s = st.t.Name
	}
	for _, a := range st.args {
		s += " " + string(rune('0'+a))
	}
	return s
}
