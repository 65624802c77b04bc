package param

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
	"time"
)

// TestAbstractSchedule pins the order of the searches of a system that is
// sampled abstractly (search.go), without the first attempt with a
// shallow oracle (TestShallowFirst): first with the approximation for at
// most approxFirstNodes cubes (more when it is productive), then without
// it, then with it again.
// challenges_flash_test closes in the first search, and so does
// flash2_exclusive_putx, past the bound; flash2_relevant does not, and closes in the second one with the node count it had when that
// search came first. The verdict made with guesses is cross-checked on
// finite instances (the other one is TestExamples' under MUSKET_LONG).
func TestAbstractSchedule(t *testing.T) {
	tests := []struct {
		file  string
		nodes int
		// first: the verdict comes from the first search (with the
		// approximation), else from the one without it
		first bool
	}{
		{"challenges_flash_test.cub", 21, true},
		// 24 of the first 50 cubes are guesses: the first search goes on
		// (productive) and closes at 83; it gave up at 50 before, and
		// the third search closed with the same 83
		{"challenges_flash2_exclusive_putx.cub", 83, true},
		{"challenges_flash2_relevant.cub", 125, false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			sys, res, out := verifyExample(t, tc.file, Options{noShallow: true})
			if explorable(sys) {
				t.Fatalf("%s is sampled exactly; the test needs an abstract sample", tc.file)
			}
			if res.Verdict != Safe {
				t.Fatalf("got %s, want SAFE", res.Verdict)
			}
			if res.Visited != tc.nodes {
				t.Errorf("%d nodes, want %d", res.Visited, tc.nodes)
			}
			gaveUpFirst := strings.Contains(out, "with approximations: search again without")
			gaveUpPlain := strings.Contains(out, "search again with approximations")
			if tc.first && (gaveUpFirst || gaveUpPlain) {
				t.Errorf("the first search (with approximations) did not close:\n%s", lastLines(out, 5))
			}
			if !tc.first && (!gaveUpFirst || gaveUpPlain) {
				t.Errorf("want a verdict from the search without approximations:\n%s", lastLines(out, 5))
			}
			if tc.first && res.Guesses == 0 {
				t.Errorf("closed with approximations but no guess")
			}
			if !tc.first && res.Guesses != 0 {
				t.Errorf("the search without approximations made %d guesses", res.Guesses)
			}
			if tc.first {
				crossCheck(t, sys, res)
			}
		})
	}
}

// verifyExample verifies the corpus' examples/file with a verbose log,
// and returns the system, the result and the log.
func verifyExample(t *testing.T, file string, opts Options) (*System, *Result, string) {
	t.Helper()
	sys, err := ParseFile(filepath.Join(testcorpus.Dir(t), "cubicle", "examples", file))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	opts.Timeout, opts.Verbose = 60*time.Second, &log
	res, err := Verify(context.Background(), sys, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s, %d nodes, %d guesses", file, res.Verdict, res.Visited, res.Guesses)
	return sys, res, log.String()
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestUnproductiveGoesDeep (without the first attempt with a shallow
// oracle, TestShallowFirst): an abstract sample whose first search went on
// productive and then falls under the productive ratio goes deep then
// (search.go, deep.go): challenges_flash2 at node 200, where it went at
// 500 before, and it closes with the 144 nodes it had; a first search
// that stays productive (hierarchical_snoop_cygc, unsafe at node 391)
// does not go deep. The SAFE verdict is cross-checked on finite
// instances.
func TestUnproductiveGoesDeep(t *testing.T) {
	tests := []struct {
		file    string
		verdict Verdict
		nodes   int
		deep    bool
	}{
		{"challenges_flash2.cub", Safe, 144, true},
		{"challenges_hierarchical_snoop_cygc.cub", Unsafe, 391, false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			sys, res, out := verifyExample(t, tc.file, Options{noShallow: true})
			if res.Verdict != tc.verdict || res.Visited != tc.nodes {
				t.Fatalf("got %s in %d nodes, want %s in %d", res.Verdict, res.Visited, tc.verdict, tc.nodes)
			}
			unproductive := strings.Contains(out, "no longer productive")
			deep := strings.Contains(out, "search again with a deeper sample")
			if unproductive != tc.deep || deep != tc.deep {
				t.Errorf("no longer productive: %v, deep: %v; want %v", unproductive, deep, tc.deep)
			}
			if tc.deep {
				// the deep phase starts at node 200 of the first search
				before, _, _ := strings.Cut(out, "search again with a deeper sample")
				if n := strings.Count("\n"+before, "\nnode "); n != 200 {
					t.Errorf("went deep after %d nodes, want 200", n)
				}
			}
			if res.Verdict == Safe {
				crossCheck(t, sys, res)
			}
		})
	}
}

// TestShallowFirst: the first attempt of a system without weak memory,
// a BRAB search with the 2-process instance explored 8 levels deep
// (brab.go), closes the FLASH examples of Cubicle's distribution with
// Cubicle's node counts (19 to 42 with -brab 2 -forward-depth 6), and
// finds hierarchical_snoop_cygc's error (391 nodes without it). Every verdict is cross-checked on finite instances.
func TestShallowFirst(t *testing.T) {
	tests := []struct {
		file    string
		verdict Verdict
		nodes   int
		shallow bool // the verdict comes from the first attempt
	}{
		{"challenges_flash2.cub", Safe, 39, true},
		{"challenges_flash2_nodata.cub", Safe, 39, true},
		{"challenges_flash2_exclusive.cub", Safe, 26, true},
		{"challenges_flash2_exclusive_putx.cub", Safe, 23, true},
		{"challenges_flash_test.cub", Safe, 21, true},
		{"challenges_flash.ctc_home_nodata.cub", Safe, 41, true},
		{"challenges_hierarchical_snoop_cygc.cub", Unsafe, 78, true},
		// the first attempt closes it in 100 nodes where the searches
		// that follow took 10 (0.05 s CPU, Cubicle 0.05 s): the price
		{"challenges_msi.lock.cub", Safe, 100, true},
		// abandoned at a refuted guess: the searches that follow close
		// it with the nodes they had before the first attempt existed
		{"bakery_lamport_na.cub", Safe, 90, false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			sys, res, out := verifyExample(t, tc.file, Options{})
			if res.Verdict != tc.verdict || res.Visited != tc.nodes {
				t.Fatalf("got %s in %d nodes, want %s in %d", res.Verdict, res.Visited, tc.verdict, tc.nodes)
			}
			abandoned := strings.Contains(out, "no verdict from the shallow oracle")
			if abandoned == tc.shallow {
				t.Errorf("first attempt abandoned: %v, want %v\n%s", abandoned, !tc.shallow, lastLines(out, 5))
			}
			crossCheck(t, sys, res)
		})
	}
}
