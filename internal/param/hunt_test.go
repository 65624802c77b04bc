package param

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHunt: the depth-first hunt (hunt.go) reaches the deep bug of
// deep_buffers.cub within a budget that the breadth-first exploration
// does not reach it in, and every step of its path is a successor of
// the state before (so the state is one of the instance).
func TestHunt(t *testing.T) {
	sys, err := ParseFile(filepath.Join("testdata", "selfcheck", "deep_buffers.cub"))
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1000
	f := newExplorer(sys, 3, modelTSO, instanceBufCap)
	f.allNondet, f.fixedFirst, f.noCompile = true, true, true
	inits := f.initials(func(int) int64 { return 0 })
	bfs := f.explore(nil, inits, budget)
	for _, st := range bfs.states {
		if f.unsafe(st) != 0 {
			t.Fatalf("breadth first reaches the bug within %d states: the test needs a deeper one", budget)
		}
	}
	h, at, u := f.hunt(nil, inits, budget)
	if u == 0 {
		t.Fatalf("the hunt finds no unsafe state in %d states", len(h.states))
	}
	t.Logf("unsafe state %d of the hunt, %d steps deep", at, len(h.path(at)))
	// the path, step by step: each state is among the successors of
	// its parent
	for i := at; h.parent[i] >= 0; i = h.parent[i] {
		found := false
		for _, s := range f.successors(h.states[h.parent[i]], nil) {
			if stateKey(s.st) == stateKey(h.states[i]) {
				found = true
			}
		}
		if !found {
			t.Fatalf("state %d is no successor of state %d", i, h.parent[i])
		}
	}
	if f.unsafe(h.states[at]) != u {
		t.Errorf("the state found does not satisfy unsafe[%d]", u)
	}
}

// TestHuntRandom: on random systems with number_procs 1 to 3, an unsafe
// state the hunt finds (a small budget) is never answered SAFE by the
// backward search: 60 systems by default, 1000 under MUSKET_LONG.
func TestHuntRandom(t *testing.T) {
	n := selfCheckCount(60, 1000)
	rng := rand.New(rand.NewPCG(selfCheckSeed(59), 19))
	found, both := 0, 0
	for i := range n {
		src := genSystemWith(rng, 0.5, rng.IntN(2) == 0)
		if strings.HasPrefix(src, "number_procs") {
			src = src[strings.IndexByte(src, '\n')+1:]
		}
		src = "number_procs " + string(rune('1'+rng.IntN(3))) + "\n" + src
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			continue // #2 with number_procs 1
		}
		u := 0
		for k := max(1, sys.Pinned, int32(sys.InitArity)); k <= int32(sys.NumberProcs) && u == 0; k++ {
			f := newExplorer(sys, k, modelTSO, instanceBufCap)
			f.allNondet, f.fixedFirst, f.noCompile = true, true, true
			_, _, u = f.hunt(nil, f.initials(func(int) int64 { return 0 }), 300)
		}
		if u == 0 {
			continue
		}
		found++
		back, err := Verify(context.Background(), sys, Options{MaxNodes: 300, Timeout: 2 * time.Second, NoInstances: true})
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if back.Verdict == Safe {
			t.Errorf("system %d: the hunt reaches unsafe[%d], the backward search answers SAFE\n%s", i, u, src)
		}
		if back.Verdict == Unsafe {
			both++
		}
	}
	t.Logf("%d systems: the hunt finds an unsafe state in %d, the backward search agrees in %d", n, found, both)
}
