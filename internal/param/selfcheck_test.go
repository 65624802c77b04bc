package param

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// crossCheckOne searches src with a small budget and cross-checks the
// verdict on finite instances; it returns a description of what went
// wrong (a panic, a rejected generated system, a disagreement), or "".
func crossCheckOne(ctx context.Context, src string, opts Options, states int) (problem string, verdict Verdict) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("panic: %v", r)
		}
	}()
	sys, err := Load("gen.cub", []byte(src))
	if err != nil {
		return "rejected: " + err.Error(), Timeout
	}
	res, err := Verify(ctx, sys, opts)
	if err != nil {
		return "verify: " + err.Error(), Timeout
	}
	cc := SelfCheck(ctx, sys, res, opts, states)
	if !cc.OK() {
		return cc.String(), res.Verdict
	}
	return "", res.Verdict
}

// TestSelfCheckRandom cross-checks the verdicts on random small systems
// (genSystem): a few hundred by default, thousands under MUSKET_LONG
// (MUSKET_SELFCHECK_N overrides the number, MUSKET_SELFCHECK_SEED the
// seed, MUSKET_SELFCHECK_MODEL=pso searches and checks under PSO,
// MUSKET_SELFCHECK_NOAPPROX=1 searches without approximation). No search may panic, and no
// verdict may disagree with the finite instances.
func TestSelfCheckRandom(t *testing.T) {
	n := 200
	if os.Getenv("MUSKET_LONG") != "" {
		n = 3000
	}
	if s := os.Getenv("MUSKET_SELFCHECK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(31)
	if s := os.Getenv("MUSKET_SELFCHECK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	count := map[Verdict]int{}
	start := time.Now()
	for i := range n {
		src := genSystem(rng, 0.5)
		opts := Options{MaxNodes: 60, Timeout: 2 * time.Second, Model: os.Getenv("MUSKET_SELFCHECK_MODEL"),
			NoApprox: os.Getenv("MUSKET_SELFCHECK_NOAPPROX") != ""}
		problem, v := crossCheckOne(context.Background(), src, opts, 2000)
		count[v]++
		if problem != "" {
			t.Errorf("system %d:\n%s\n%s", i, src, problem)
		}
	}
	t.Logf("%d systems in %v: %d SAFE, %d UNSAFE, %d without verdict", n, time.Since(start).Round(time.Millisecond),
		count[Safe], count[Unsafe], n-count[Safe]-count[Unsafe])
}

// TestSelfCheckRandomConstants is TestSelfCheckRandom on systems that
// name processes by constants (#1, #2: genSystemWith), beside
// parameters that range over every process: 200 by default, 2000 under
// MUSKET_LONG (MUSKET_SELFCHECK_N overrides). It found that unsafe
// parameters never took a constant's value (a wrong SAFE) and that the
// safety test did not apply init to a constant.
func TestSelfCheckRandomConstants(t *testing.T) {
	n := 200
	if os.Getenv("MUSKET_LONG") != "" {
		n = 2000
	}
	if s := os.Getenv("MUSKET_SELFCHECK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewPCG(37, 11))
	count := map[Verdict]int{}
	for i := range n {
		src := genSystemWith(rng, 0.5, true)
		opts := Options{MaxNodes: 60, Timeout: 2 * time.Second}
		problem, v := crossCheckOne(context.Background(), src, opts, 2000)
		count[v]++
		if problem != "" {
			t.Errorf("system %d:\n%s\n%s", i, src, problem)
		}
	}
	t.Logf("%d systems: %d SAFE, %d UNSAFE, %d without verdict", n, count[Safe], count[Unsafe], n-count[Safe]-count[Unsafe])
}

// FuzzSearch feeds systems through Verify with a small budget and checks
// the cross-check's invariants: no panic, no disagreement with the finite
// instances. An input that does not load is replaced by a system
// genWide (seeds ≡ 2 mod 3) or genSystemWith (with process constants
// for odd seeds) draws from the seed, so that the mutations of the seed
// explore the generator's space and those of the text explore systems
// it does not write.
func FuzzSearch(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range 8 {
		f.Add(uint64(i), genSystemWith(rng, 0.5, i%2 == 1))
	}
	for i := range 4 {
		f.Add(uint64(1000+i), genWide(rng, 0.5))
	}
	f.Add(uint64(99), "")
	f.Fuzz(func(t *testing.T, seed uint64, src string) {
		if _, err := Load("f.cub", []byte(src)); err != nil {
			// seeds ≡ 2 mod 3 draw the wider shapes of genWide, odd
			// seeds systems with process constants
			rng := rand.New(rand.NewPCG(seed, seed>>7))
			if seed%3 == 2 {
				src = genWide(rng, 0.5)
			} else {
				src = genSystemWith(rng, 0.5, seed%2 == 1)
			}
		}
		opts := Options{MaxNodes: 40, Timeout: time.Second}
		// a bound on the cross-check too: the fuzzing engine takes a
		// worker that does not answer for long to have hung
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if problem, _ := crossCheckOne(ctx, src, opts, 1000); problem != "" && !strings.HasPrefix(problem, "rejected") {
			t.Errorf("%s\n%s", src, problem)
		}
	})
}

// TestSelfCheckRandomWide is TestSelfCheckRandom on the shapes of the
// published Cubicle and Cubicle-W files that genSystemWith does not
// draw (genWide: bool, proc and int variables, two-dimensional and
// constant arrays, copies, process comparisons, forall_other over a
// disjunction, exists_other, several unsafe formulas, invariants): 100
// by default, 3000 under MUSKET_LONG (MUSKET_SELFCHECK_N overrides,
// MUSKET_SELFCHECK_SEED sets the seed, MUSKET_SELFCHECK_MODEL=pso
// searches and checks under PSO).
func TestSelfCheckRandomWide(t *testing.T) {
	n := 100
	if os.Getenv("MUSKET_LONG") != "" {
		n = 3000
	}
	if s := os.Getenv("MUSKET_SELFCHECK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(41)
	if s := os.Getenv("MUSKET_SELFCHECK_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 13))
	count := map[Verdict]int{}
	rejected := 0
	for i := range n {
		src := genWide(rng, 0.5)
		opts := Options{MaxNodes: 60, Timeout: 2 * time.Second, Model: os.Getenv("MUSKET_SELFCHECK_MODEL")}
		problem, v := crossCheckOne(context.Background(), src, opts, 2000)
		count[v]++
		if problem != "" {
			t.Errorf("system %d:\n%s\n%s", i, src, problem)
			if strings.HasPrefix(problem, "rejected") {
				rejected++
			}
		}
	}
	t.Logf("%d systems: %d SAFE, %d UNSAFE, %d without verdict (%d rejected)", n, count[Safe], count[Unsafe],
		n-count[Safe]-count[Unsafe], rejected)
}

// TestEarlySyntaxRandom writes random weak systems (genWideEarly) in the
// current syntax and in the early Cubicle-W syntax that early.go
// rewrites, and checks that both get the same verdict, the same number
// of nodes, and a verdict the finite instances agree with: 20 by
// default, 1000 under MUSKET_LONG (MUSKET_SELFCHECK_N overrides).
func TestEarlySyntaxRandom(t *testing.T) {
	n := 20
	if os.Getenv("MUSKET_LONG") != "" {
		n = 1000
	}
	if s := os.Getenv("MUSKET_SELFCHECK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	for i := range n {
		cur, early := genWideEarly(uint64(i), 0.7)
		opts := Options{MaxNodes: 60, Timeout: 10 * time.Second}
		var res [2]*Result
		for k, src := range []string{cur, early} {
			sys, err := Load("gen.cub", []byte(src))
			if err != nil {
				t.Errorf("system %d, syntax %d: %v\n%s", i, k, err, src)
				continue
			}
			r, err := Verify(context.Background(), sys, opts)
			if err != nil {
				t.Errorf("system %d, syntax %d: %v\n%s", i, k, err, src)
				continue
			}
			res[k] = r
			if k == 1 {
				if cc := SelfCheck(context.Background(), sys, r, opts, 2000); !cc.OK() {
					t.Errorf("system %d (early syntax):\n%s\n%s", i, src, cc)
				}
			}
		}
		if res[0] == nil || res[1] == nil {
			continue
		}
		// a wall-clock limit (under load) is no difference of the syntaxes
		if res[0].Verdict == Timeout || res[1].Verdict == Timeout {
			continue
		}
		if res[0].Verdict != res[1].Verdict || res[0].Visited != res[1].Visited {
			t.Errorf("system %d: %s in %d nodes, but %s in %d nodes in the early syntax\n%s\n%s", i,
				res[0].Verdict, res[0].Visited, res[1].Verdict, res[1].Visited, cur, early)
		}
	}
}
