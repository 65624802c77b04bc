package param

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestDeepFlash runs the FLASH files that only the deep phase of the
// approximation (deep.go) answers: each is SAFE, after a restart with
// the deeper sample. 4 to 18 s of CPU each, plus the cross-check, so under MUSKET_LONG.
func TestDeepFlash(t *testing.T) {
	if os.Getenv("MUSKET_LONG") == "" {
		t.Skip("runs with MUSKET_LONG=1 (4 to 18 s of CPU a file, plus the cross-check)")
	}
	for _, name := range []string{
		"examples/challenges_flash2_nodata.cub",
		"examples/challenges_flash.ctc_home_nodata.cub",
		"examples/challenges_flash2.cub",
		"brab/sc_flash_nodata.cub",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(testcorpus.Dir(t), "cubicle", name)
			sys, err := ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Timeout: 5 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s in %v, %d nodes, %d guesses, %d restarts", name, res.Verdict, res.Time.Round(time.Millisecond), res.Visited, res.Guesses, res.Restarts)
			if res.Verdict != Safe {
				t.Fatalf("got %s, want SAFE", res.Verdict)
			}
			crossCheck(t, sys, res)
		})
	}
}

// TestDeepSymmetry checks the orbit sample of the deep phase against
// the full sample of the same instance: the representatives are the
// smallest permutations of the full sample's states, one per orbit
// (so a literal set is reached in one exactly when in the other), and
// the path that symPath rebuilds to each representative (through the
// permutations) is a run of the instance.
func TestDeepSymmetry(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int32
	}{{"sc_german.cub", 2}, {"sc_german.cub", 3}, {"sc_mutex.cub", 3}, {"examples/challenges_MIS.cub", 2}} {
		name := tc.name
		t.Run(fmt.Sprintf("%s/%d", name, tc.n), func(t *testing.T) {
			sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", name))
			if err != nil {
				t.Fatal(err)
			}
			fin := newFinite(sys, tc.n)
			y := newSymmetry(fin)
			if y == nil {
				t.Fatal("no symmetry")
			}
			const limit = 3000
			full := newSampler(fin, false)
			full.grow(nil, 200000)
			sym := newSampler(fin, false)
			sym.sym, sym.symBuf = y, make([]int64, fin.cells)
			sym.grow(nil, limit)
			if full.unsafe || sym.unsafe {
				t.Fatal("unsafe state in a SAFE system's sample")
			}
			orbits := map[stateID]bool{}
			for _, st := range full.rows() {
				c, _ := y.canon(st, make([]int64, len(st)))
				orbits[stateKey(c)] = true
			}
			symStates := sym.rows()
			if full.res.complete && sym.res.complete && len(orbits) != len(symStates) {
				t.Fatalf("%d orbits in the full sample, %d representatives", len(orbits), len(symStates))
			}
			for _, st := range symStates {
				if !orbits[stateKey(st)] {
					t.Fatalf("representative %v is not the smallest permutation of a full-sample state", st)
				}
			}
			// the rebuilt paths are runs of the instance
			for i := range symStates {
				var chain []int
				for j := i; j >= 0; j = int(sym.res.parent[j]) {
					chain = append(chain, j)
				}
				slices.Reverse(chain)
				_, s0 := sym.symPath(chain[0])
				cur := y.apply(symStates[chain[0]], s0)
				for _, j := range chain[1:] {
					steps, sj := sym.symPath(j)
					want := y.apply(symStates[j], sj)
					last := steps[len(steps)-1]
					found := false
					for _, s := range fin.successors(cur, nil) {
						if s.step.t == last.t && slices.Equal(s.step.args, last.args) && slices.Equal(s.st, want) {
							found = true
							break
						}
					}
					if !found {
						t.Fatalf("state %d: step %s%v does not lead to the permuted representative", j, last.t.Name, last.args)
					}
					cur = want
				}
				if i > 300 {
					break
				}
			}
		})
	}
}

// TestProcsAlike checks that a system comparing processes by their
// order (Szymanski's x <= j, the bakery's x < j) gets no symmetry.
func TestProcsAlike(t *testing.T) {
	for _, tc := range []struct {
		name  string
		alike bool
	}{
		{"brab/sc_szymanski_at.cub", false},
		{"brab/sc_szymanski_na.cub", false},
		{"sc_bakery_lamport.cub", false},
		{"sc_german.cub", true},
		{"brab/sc_flash_nodata.cub", true},
	} {
		sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", tc.name))
		if err != nil {
			t.Fatal(err)
		}
		if got := procsAlike(sys); got != tc.alike {
			t.Errorf("%s: procsAlike = %v, want %v", tc.name, got, tc.alike)
		}
	}
}
