package param

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrabVerdicts runs the BRAB mode (brab.go) on corpus examples with
// Cubicle's options and checks that it never contradicts the expected
// verdict: it gives that verdict or stops at the node limit. The files
// are those the mode decides within the limit (bakery_na's candidates
// are refuted and restarted six times; challenges_flash2_inv is UNSAFE),
// plus a FLASH file that it does not close with -forward-depth 6 (a
// limit, never a wrong answer).
func TestBrabVerdicts(t *testing.T) {
	exp := readExpectedIn(t, "examples")
	for _, tc := range []struct {
		file         string
		brab, depth  int
		nodes        int
		wantDecision bool // the mode must decide within nodes
	}{
		{"dekker_n.cub", 2, 0, 2000, true},
		{"bakery_na.cub", 2, 6, 2000, true},
		{"burns.cub", 2, 6, 2000, true},
		{"challenges_flash2_inv.cub", 2, 6, 2000, true},
		{"challenges_msi.lock.cub", 2, 0, 2000, true},
		{"bakery_lamport_na.cub", 2, 0, 2000, true},
		{"challenges_flash2_exclusive_putx.cub", 2, 6, 100, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			name := "examples/" + tc.file
			want, ok := exp[name]
			if !ok {
				t.Fatalf("%s: no expected verdict", name)
			}
			sys, err := ParseFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Verify(context.Background(), sys, Options{Brab: tc.brab, ForwardDepth: tc.depth, MaxNodes: tc.nodes, Timeout: timeout()})
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ToLower(res.Verdict.String())
			t.Logf("%s: %s, %d nodes, %d guesses, %d restarts", name, res.Verdict, res.Visited, res.Guesses, res.Restarts)
			switch {
			case res.Verdict == Safe || res.Verdict == Unsafe:
				if got != want {
					t.Fatalf("%s: got %s, want %s", name, got, want)
				}
			case tc.wantDecision:
				t.Fatalf("%s: no verdict (%s), want %s", name, res.Verdict, want)
			}
		})
	}
}

// TestBrabGrowDepth checks the level-by-level exploration of the
// oracle: the states up to depth d are a prefix of those up to d+1, and
// a depth past the last level explores the whole instance, as no cut
// does.
func TestBrabGrowDepth(t *testing.T) {
	for _, file := range []string{"examples/dekker_n.cub", "examples/burns.cub", "examples/dijkstra.cub"} {
		t.Run(file, func(t *testing.T) {
			sys, err := ParseFile(filepath.Join(corpusDir, file))
			if err != nil {
				t.Fatal(err)
			}
			count := func(depth int) (int, bool) {
				fin := newFinite(sys, 2)
				x := newSampler(fin, true)
				x.growDepth(nil, depth)
				return x.count(), x.res.complete
			}
			prev := 0
			for d := 1; d <= 40; d++ {
				n, complete := count(d)
				if n < prev {
					t.Fatalf("depth %d: %d states, fewer than %d at depth %d", d, n, prev, d-1)
				}
				if complete {
					all, allComplete := count(0)
					if all != n || !allComplete {
						t.Fatalf("depth %d is complete with %d states, the whole instance has %d (complete %v)", d, n, all, allComplete)
					}
					return
				}
				prev = n
			}
		})
	}
}

// TestBrabStateCap: -brab's oracle cut at a few states (brabMaxStates)
// accepts more candidates, which the search refutes: on random systems
// without weak memory, wherever the capped BRAB search and the default
// search both answer, they agree.
func TestBrabStateCap(t *testing.T) {
	saved := brabMaxStates
	brabMaxStates = 12
	defer func() { brabMaxStates = saved }()
	rng := rand.New(rand.NewPCG(53, 19))
	both := 0
	for i := range 80 {
		src := genSystemWith(rng, 0, i%2 == 1)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		capped, err := Verify(context.Background(), sys, Options{Brab: 2, MaxNodes: 400, Timeout: 20 * time.Second})
		if err != nil {
			continue // -brab refuses the system (number_procs 1...)
		}
		def, err := Verify(context.Background(), sys, Options{MaxNodes: 400, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("system %d: %v", i, err)
		}
		if capped.Verdict > Unsafe || def.Verdict > Unsafe {
			continue
		}
		both++
		if capped.Verdict != def.Verdict {
			t.Errorf("system %d: -brab 2 with %d oracle states %s, default %s\n%s", i, brabMaxStates, capped.Verdict, def.Verdict, src)
		}
	}
	if both < 40 {
		t.Errorf("only %d systems answered by both", both)
	}
}

// TestBrabHugeInstance: an instance size past int32 is refused, not
// narrowed to a small one (robust5: -brab 9223372036854775807 became
// -1 and ran the smallest instance silently).
func TestBrabHugeInstance(t *testing.T) {
	sys, err := ParseFile(filepath.Join(corpusDir, "examples", "dekker_n.cub"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5, 1 << 32, 1<<32 - 1, math.MaxInt64} {
		if _, err := newBrabApproximator(sys, n, 0, func() bool { return false }); err == nil || !strings.Contains(err.Error(), "at most") {
			t.Errorf("-brab %d: %v, want 'at most 4 processes'", n, err)
		}
	}
}
