package param

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// closedUnder checks that the cubes of a SAFE result are a proof: no
// cube meets the initial states, every unsafe cube is covered by them,
// and every pre-image of each of them is empty or covered by them (the
// fixpoint test, against the final set only). It returns "" or what
// fails.
func closedUnder(t *testing.T, sys *System, res *Result) string {
	t.Helper()
	e := &engine{sys: sys, opts: Options{precise: res.Precise}}
	e.z = newSolver(sys)
	defer e.z.close()
	for _, inv := range sys.Invariants {
		for _, c := range e.rootCubes(inv) {
			e.prepare(c)
			e.invariants = append(e.invariants, c)
		}
	}
	e.visited = res.cubes
	for _, c := range res.cubes {
		if e.reachesInit(c) {
			return "a cube meets the initial states: " + sys.CubeString(c)
		}
	}
	covered := func(p *Cube) bool {
		e.prepare(p)
		if p.open && !e.z.sat(p.Slots, p.Lits, nil) {
			return true
		}
		if e.subsumed(p) {
			return true
		}
		// the same set with the process constants among its slots (they
		// exist in every instance, distinct from the other slots): a
		// cube that covered p through a deleted one may need them to
		// match (Arr0[#3] = B over slots 1 and 3 deleted Arr0[#1] = C
		// && Arr0[#3] = B, which covered Arr0[#1] = C && Arr0[#4] = B
		// over slots 3 and 4)
		q := *p
		q.Slots = withPinned(p.Slots, sys.Pinned)
		q.info, q.sig = nil, 0
		e.prepare(&q)
		return e.subsumed(&q)
	}
	for _, u := range sys.Unsafe {
		for _, c := range e.rootCubes(u) {
			if !covered(c) {
				return "an unsafe cube is not covered: " + sys.CubeString(c)
			}
		}
	}
	for _, c := range res.cubes {
		for _, p := range e.preImages(c) {
			if !covered(p) {
				return "a pre-image of " + sys.CubeString(c) + " is not covered: " + sys.CubeString(p)
			}
		}
	}
	return ""
}

// TestBacktrackRandom searches random systems without weak memory with
// a sample of a few states (Options.sampleCap), so that many guesses
// are wrong and undone in place (backtrack.go), and compares each
// verdict with the search that restarts after a wrong guess
// (noBacktrack) and with the finite instances (SelfCheck); every SAFE
// set of cubes must be closed under pre-images (closedUnder). 600
// systems by default, MUSKET_SELFCHECK_N overrides the number and
// MUSKET_SELFCHECK_SEED the seed.
func TestBacktrackRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(selfCheckSeed(41), 3))
	backtrackRandom(t, selfCheckCount(600, 0), func(i int) string { return genSystemWith(rng, 0, i%2 == 1) }, Options{})
}

// TestBacktrackRandomWeak is TestBacktrackRandom on random systems with
// weak variables (genSystemWith and genWide, TSO), searched with the
// approximation from the start (Options.skipPlain) and a weak sample of
// a few states: a refuted guess (from a pre-image or a template root,
// wguess.go) is undone in place, and each verdict is compared with the
// restarting search and the finite instances, each SAFE set checked to
// be closed. 100 systems by default; MUSKET_SELFCHECK_N and
// MUSKET_SELFCHECK_SEED as for TestBacktrackRandom.
func TestBacktrackRandomWeak(t *testing.T) {
	rng := rand.New(rand.NewPCG(selfCheckSeed(41), 5))
	gen := func(i int) string {
		if i%3 == 2 {
			return genWide(rng, 0.6)
		}
		return genSystemWith(rng, 0.6, i%3 == 1)
	}
	backtrackRandom(t, selfCheckCount(100, 0), gen, Options{skipPlain: true, MaxNodes: 60, Timeout: time.Second})
}

// selfCheckCount is the number of random systems a self-check draws: n
// by default, long under MUSKET_LONG (0: n), MUSKET_SELFCHECK_N's if set.
func selfCheckCount(n, long int) int {
	if long != 0 && os.Getenv("MUSKET_LONG") != "" {
		n = long
	}
	if s := os.Getenv("MUSKET_SELFCHECK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	return n
}

// selfCheckSeed is a self-check's seed: seed, or MUSKET_SELFCHECK_SEED's
// if set.
func selfCheckSeed(seed uint64) uint64 {
	if s := os.Getenv("MUSKET_SELFCHECK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	return seed
}

// backtrackRandom searches n systems drawn by gen with base's options
// (by default at most 300 nodes and 5 s) and a small sample (see
// TestBacktrackRandom).
func backtrackRandom(t *testing.T, n int, gen func(i int) string, base Options) {
	backtracks, safe, unsafe := 0, 0, 0
	for i := range n {
		src := gen(i)
		sys, err := Load("gen.cub", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		opts := base
		opts.sampleCap = 3 + i%8
		if opts.MaxNodes == 0 {
			opts.MaxNodes, opts.Timeout = 300, 5*time.Second
		}
		res, err := Verify(context.Background(), sys, opts)
		if err != nil {
			t.Fatal(err)
		}
		backtracks += res.Backtracks
		restart := opts
		restart.noBacktrack = true
		other, err := Verify(context.Background(), sys, restart)
		if err != nil {
			t.Fatal(err)
		}
		if decided(res.Verdict) && decided(other.Verdict) && res.Verdict != other.Verdict {
			// the two searches take other guesses; on a system whose
			// guard has forall_other, whose pre-image checks it on the
			// cube's processes only (as Cubicle does), one may prove it
			// SAFE while the other finds a path through that
			// over-approximation: then the SAFE set must be a proof and
			// the UNSAFE trace one the finite instances do not follow,
			// through a forall_other step (system 1139 of seed 7;
			// docs/divergences.md). Any other difference fails.
			safeRes, unsafeRes := res, other
			if res.Verdict == Unsafe {
				safeRes, unsafeRes = other, res
			}
			cc := SelfCheck(context.Background(), sys, unsafeRes, opts, 2000)
			spurious := cc.OK() && !cc.Replayed && universalStep(sys, unsafeRes) != "" && len(cc.Notes) > 0
			for _, n := range cc.Notes {
				// not "an instance reaches an unsafe state": the SAFE
				// set would be wrong
				spurious = spurious && strings.Contains(n, "forall_other guard")
			}
			if why := closedUnder(t, sys, safeRes); why != "" || !spurious {
				t.Errorf("system %d: %s with backtracking, %s with restarts (%s; %s)\n%s", i, res.Verdict, other.Verdict, why, cc, src)
			} else {
				t.Logf("system %d: %s with backtracking, %s with restarts: the UNSAFE trace is spurious (%s)", i, res.Verdict, other.Verdict, cc)
			}
		}
		if cc := SelfCheck(context.Background(), sys, res, opts, 2000); !cc.OK() || len(undocumentedNotes(sys, res, cc)) > 0 {
			t.Errorf("system %d: %s\n%s", i, cc, src)
		}
		switch res.Verdict {
		case Safe:
			safe++
			if why := closedUnder(t, sys, res); why != "" {
				t.Errorf("system %d: SAFE but %s\n%s", i, why, src)
			}
		case Unsafe:
			unsafe++
		}
	}
	t.Logf("%d systems: %d SAFE, %d UNSAFE, %d guesses undone", n, safe, unsafe, backtracks)
	if backtracks == 0 {
		t.Errorf("no guess was undone: the test does not exercise backtracking")
	}
}

func decided(v Verdict) bool { return v == Safe || v == Unsafe }
