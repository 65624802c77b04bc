package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// speedSample is how many tests of each suite the default run of
// TestSpeedCheckSuites compares (every n-th, in lexical order; of the
// suites that otherwise run only with MUSKET_LONG=1 too, for the
// Linux-kernel tests of auto/ and manual/); MUSKET_LONG=1 compares every
// test of every suite.
const speedSample = 6

// TestSpeedCheckSuites: the explicit engine pruned as herd7's
// -speedcheck prunes (true and fast) gives the full enumeration's
// verdict on every suite of the corpus; with true it keeps exactly the
// full run's executions that settle the condition (the same counts of
// them, states among the full run's, flags among its flags). A test the
// full run cannot finish within the time limit is named, not compared.
func TestSpeedCheckSuites(t *testing.T) {
	testcorpus.Dir(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			files := speedFiles(t, s, long)
			opts := batch.Options{Model: s.model, Jobs: 2, Timeout: engineTimeout(long), Engine: "enum",
				Bell: s.bell, Macros: s.macros, IncludeDirs: s.include}
			if len(s.variants) > 0 {
				opts.Variants = map[string]bool{}
				for _, v := range s.variants {
					opts.Variants[v] = true
				}
			}
			run := func(sc enum.SpeedCheck) map[string]batch.Job {
				o := opts
				o.SpeedCheck = sc
				out := map[string]batch.Job{}
				batch.Run(context.Background(), files, o, func(j batch.Job) { out[j.Path] = j })
				return out
			}
			start := time.Now()
			full, on, fast := run(enum.SpeedOff), run(enum.SpeedOn), run(enum.SpeedFast)
			compared := 0
			for _, f := range files {
				rel := strings.TrimPrefix(filepath.ToSlash(f), corpus+"/litmus/")
				a, b, c := full[f], on[f], fast[f]
				if a.Err != nil {
					continue // not a test the engine runs (parse errors are TestCorpus's)
				}
				if a.Result.Status != result.Done {
					t.Logf("not compared: %s: full run %s", rel, a.Result.Status)
					continue
				}
				compared++
				for _, p := range []struct {
					mode string
					j    batch.Job
				}{{"true", b}, {"fast", c}} {
					if msg := speedDiff(a.Result, p.j); msg != "" {
						t.Errorf("%s: -speedcheck %s: %s", rel, p.mode, msg)
					}
				}
				if b.Err == nil && b.Result.Status == result.Done {
					if msg := interestingDiff(a.Result, b.Result); msg != "" {
						t.Errorf("%s: -speedcheck true: %s", rel, msg)
					}
				}
			}
			t.Logf("%d tests, %d compared, in %s", len(files), compared, time.Since(start).Round(time.Millisecond))
		})
	}
}

// speedFiles lists the tests TestSpeedCheckSuites compares: with
// MUSKET_LONG=1 every test of the suite, with a reference verdict or not
// (the full enumeration is the reference here; the big Linux-kernel
// tests have none); by default a sample of those with a reference
// verdict (the others include tests that run to the time limit).
func speedFiles(t *testing.T, s suite, long bool) []string {
	if !long {
		table, err := expect.Read(filepath.Join(corpus, s.expect))
		if err != nil {
			t.Fatal(err)
		}
		files := suiteFiles(t, s, table)
		if len(files) > speedSample {
			files = every(files, (len(files)+speedSample-1)/speedSample)
		}
		return files
	}
	all, err := driver.Files([]string{filepath.Join(corpus, s.dir)})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !slices.Contains(s.skip, strings.TrimPrefix(filepath.ToSlash(f), corpus+"/litmus/")) {
			files = append(files, f)
		}
	}
	return files
}

// speedDiff says how a pruned run's answer differs from the full run's
// verdict ("" when it does not). A pruned run does less work: it may not
// time out where the full run finished.
func speedDiff(full *result.Result, j batch.Job) string {
	if j.Err != nil {
		return j.Err.Error()
	}
	r := j.Result
	switch {
	case !r.Pruned:
		return "not marked as pruned"
	case r.Status != result.Done:
		return fmt.Sprintf("%s (%v) where the full run answers", r.Status, r.Err)
	case r.Ok() != full.Ok():
		return fmt.Sprintf("verdict %v, full run %v", r.Ok(), full.Ok())
	}
	for _, f := range r.Flags {
		if !contains(full.Flags, f) {
			return fmt.Sprintf("flag %s the full run does not raise", f)
		}
	}
	return ""
}

// interestingDiff compares -speedcheck true's executions with the full
// run's that settle the condition: the same number, their final states
// among the full run's.
func interestingDiff(full, on *result.Result) string {
	wantPos, wantNeg := full.Positive, 0
	if full.Quant == spec.Forall {
		wantPos, wantNeg = 0, full.Negative
	}
	if on.Positive != wantPos || on.Negative != wantNeg {
		return fmt.Sprintf("positive/negative %d/%d, want %d/%d", on.Positive, on.Negative, wantPos, wantNeg)
	}
	all := map[string]bool{}
	for _, s := range full.States {
		all[s.Key()] = true
	}
	for _, s := range on.States {
		if !all[s.Key()] {
			return fmt.Sprintf("state %s the full run does not reach", s.Key())
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
