package param

import (
	"math/rand"
	"path/filepath"
	"slices"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestSamplerTable: the sampler's set of states (tableHash, lookup,
// insert, growTable) finds exactly the states added, as a map does,
// across the growths of the table, for states of several widths.
func TestSamplerTable(t *testing.T) {
	for _, tc := range []struct {
		cells, values, states int
	}{
		{1, 50, 40},       // fewer states than values
		{3, 4, 60},        // every state of 3 cells over 4 values
		{7, 3, 3000},      // a tail of 3 cells after the lanes
		{8, 2, 200},       // two rounds of the lanes, no tail
		{40, 5, 20000},    // past several growths of the table
		{13, 1000, 5000},  // wide values
		{2, 1 << 40, 100}, // values that need 8 bytes
	} {
		rng := rand.New(rand.NewSource(int64(tc.cells*1000 + tc.values)))
		x := &sampler{store: newStateStore(tc.cells)}
		want := map[string]int{}
		for range 3 * tc.states {
			st := make([]int64, tc.cells)
			for i := range st {
				st[i] = rng.Int63n(int64(tc.values))
			}
			key := ""
			for _, v := range st {
				key += itoa(int(v)) + ","
			}
			if 2*(x.store.len()+1) > len(x.table) {
				x.growTable(x.store.len() + 1)
			}
			h := tableHash(st)
			slot, found := x.lookup(h)
			_, ok := want[key]
			if found != ok {
				t.Fatalf("%d cells: state %v found %v, added before %v", tc.cells, st, found, ok)
			}
			if found {
				continue
			}
			if len(want) >= tc.states {
				continue
			}
			want[key] = x.store.len()
			x.insert(slot, h)
			x.store.add(st)
		}
	}
}

// TestCanonSmallest: canon (which compares each permutation cell by cell
// and stops early) returns the smallest of all the permutations of a
// state, and the first permutation that gives it, as applying every
// permutation in full and comparing does; on states of the corpus's
// symmetric instances and on random ones over their cells.
func TestCanonSmallest(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int32
	}{{"sc_german.cub", 3}, {"sc_mutex.cub", 4}, {"examples/challenges_MIS.cub", 3}, {"examples/challenges_flash_test.cub", 3}} {
		sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", tc.name))
		if err != nil {
			t.Fatal(err)
		}
		fin := newFinite(sys, tc.n)
		y := newSymmetry(fin)
		if y == nil {
			t.Fatalf("%s: no symmetry", tc.name)
		}
		x := newSampler(fin, false)
		x.grow(nil, 2000)
		states := x.rows()
		rng := rand.New(rand.NewSource(int64(tc.n)))
		for range 2000 {
			st := slices.Clone(states[rng.Intn(len(states))])
			for range rng.Intn(4) {
				st[rng.Intn(len(st))] = rng.Int63n(int64(tc.n) + 2)
			}
			states = append(states, st)
		}
		for _, st := range states {
			want, wk := st, 0
			for k := 1; k < len(y.perms); k++ {
				if p := y.apply(st, k); slices.Compare(p, want) < 0 {
					want, wk = p, k
				}
			}
			got, gk := y.canon(st, make([]int64, len(st)))
			if !slices.Equal(got, want) || gk != wk {
				t.Fatalf("%s: canon %v = %v (permutation %d), want %v (%d)", tc.name, st, got, gk, want, wk)
			}
		}
	}
}
