package conformance

import (
	"context"
	"fmt"
	"github.com/musket-verify/musket/internal/driver"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// engineSample is how many tests (with a reference verdict) of each
// suite the default run compares, by suite name prefix (the longest that
// matches): a deterministic sample, every n-th test in lexical order, so
// that every folder's tests have their turn (AArch64's include its
// mixed-size ones). MUSKET_LONG=1 runs every test. Together the samples
// cost about 20 s on 2 cores (the SMT engine most of it: C11's 97 tests
// take it 2 s per model, hence a third of them by default).
var engineSample = map[string]int{
	"X86/":                      30,
	"PPC/":                      24,
	"RISCV/":                    24,
	"AARCH64/aarch64":           45,
	"AARCH64/dat3m-aarch64.cat": 15,
	"AARCH64/herd-aarch64.cat/": 8,
	"C11/":                      33,
	"LKMM/":                     20,
}

// sampleOf returns the default sample of a suite's files.
func sampleOf(name string, files []string) []string {
	best, n := "", 0
	for prefix, k := range engineSample {
		if strings.HasPrefix(name, prefix) && len(prefix) > len(best) {
			best, n = prefix, k
		}
	}
	if n == 0 || n >= len(files) {
		return files
	}
	return every(files, (len(files)+n-1)/n)
}

// engineTimeout is the time limit of one test under one engine: a test
// that reaches it is named, never given a verdict.
func engineTimeout(long bool) time.Duration {
	if long {
		return time.Minute
	}
	return 30 * time.Second
}

// TestEngines is the engine differential: every suite of the corpus
// tests (built-in models and herd's, Dat3M's and the kernel's .cat files)
// under the explicit engine and under the SMT engine, which must give the
// same verdict, the same final states and the same flags. Any difference
// fails. A test that one engine cannot finish within the time limit, or
// that the SMT engine refuses by name (an unsupported construct of the
// model), is named in the log, never compared. It also gives each
// engine's agreement with the expected verdicts, as TestCorpus does for
// the explicit engine.
func TestEngines(t *testing.T) {
	testcorpus.Dir(t)
	known := knownDivergences(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	for _, s := range suites {
		if s.long && !long {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			table, err := expect.Read(filepath.Join(corpus, s.expect))
			if err != nil {
				t.Fatal(err)
			}
			files := suiteFiles(t, s, table)
			if !long {
				files = sampleOf(s.name, files)
			}
			opts := s.options(2, engineTimeout(long))
			run := func(engine string) (map[string]batch.Job, time.Duration) {
				o := opts
				o.Engine = engine
				out := map[string]batch.Job{}
				start := time.Now()
				batch.Run(context.Background(), files, o, func(j batch.Job) { out[j.Path] = j })
				return out, time.Since(start)
			}
			enumJobs, enumTime := run("enum")
			smtJobs, smtTime := run("smt")
			var diffs, notCompared []string
			same := 0
			agree := map[string]int{}
			for _, f := range files {
				rel := strings.TrimPrefix(filepath.ToSlash(f), corpus+"/litmus/")
				a, b := enumJobs[f], smtJobs[f]
				if a.Err != nil || b.Err != nil {
					if a.Err == nil || b.Err == nil {
						diffs = append(diffs, fmt.Sprintf("%s: enum error %v, smt error %v", rel, a.Err, b.Err))
					}
					continue
				}
				want, _ := table.Lookup(f)
				for _, e := range []struct {
					name string
					r    *result.Result
				}{{"enum", a.Result}, {"smt", b.Result}} {
					if e.r.Status == result.Done && e.r.Ok() == want {
						agree[e.name]++
					}
				}
				ra, rb := a.Result, b.Result
				switch {
				case ra.Status != result.Done || rb.Status != result.Done:
					if bad := engineStatusDiff(ra, rb); bad != "" {
						diffs = append(diffs, rel+": "+bad)
					} else {
						notCompared = append(notCompared, fmt.Sprintf("%s: enum %s, smt %s%s", rel, ra.Status, rb.Status, errSuffix(ra, rb)))
					}
				case ra.Ok() != rb.Ok() || statesOf(ra) != statesOf(rb) || fmt.Sprint(ra.Flags) != fmt.Sprint(rb.Flags):
					diffs = append(diffs, fmt.Sprintf("%s: enum %v {%s} flags %v, smt %v {%s} flags %v", rel, ra.Ok(), statesOf(ra), ra.Flags, rb.Ok(), statesOf(rb), rb.Flags))
				default:
					same++
					if _, listed := known[s.name+" "+rel]; !listed && rb.Ok() != want {
						diffs = append(diffs, fmt.Sprintf("%s: both engines %v, expected %v (not listed in divergences/)", rel, rb.Ok(), want))
					}
				}
			}
			sort.Strings(notCompared)
			for _, n := range notCompared {
				t.Logf("not compared: %s", n)
			}
			for _, d := range diffs {
				t.Error(d)
			}
			t.Logf("%d tests: %d the same under both engines, %d differ, %d not compared; agreement with %s: enum %d/%d in %s, smt %d/%d in %s",
				len(files), same, len(diffs), len(notCompared), filepath.Base(s.expect),
				agree["enum"], len(files), enumTime.Round(time.Millisecond), agree["smt"], len(files), smtTime.Round(time.Millisecond))
		})
	}
}

// options are the batch options of suite s with jobs workers and a time
// limit per test.
func (s suite) options(jobs int, timeout time.Duration) batch.Options {
	opts := batch.Options{Model: s.model, Jobs: jobs, Timeout: timeout, Bell: s.bell, Macros: s.macros, IncludeDirs: s.include}
	if len(s.variants) > 0 {
		opts.Variants = map[string]bool{}
		for _, v := range s.variants {
			opts.Variants[v] = true
		}
	}
	return opts
}

// suiteFiles lists the tests of a suite that have a reference verdict,
// less those it skips.
func suiteFiles(t *testing.T, s suite, table *expect.Table) []string {
	t.Helper()
	all, err := driver.Files([]string{filepath.Join(corpus, s.dir)})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		rel := strings.TrimPrefix(filepath.ToSlash(f), corpus+"/litmus/")
		if _, found := table.Lookup(f); found && !slices.Contains(s.skip, rel) {
			files = append(files, f)
		}
	}
	return files
}

// every keeps every n-th file, the first included.
func every(files []string, n int) []string { return everyFrom(files, n, 0) }

// everyFrom keeps every n-th file from the one at index from (mod n).
func everyFrom(files []string, n, from int) []string {
	var out []string
	for i := from % n; i < len(files); i += n {
		out = append(out, files[i])
	}
	return out
}

// engineStatusDiff says how two results that are not both Done disagree:
// a verdict from one engine and a failure (not a time limit, not a
// refusal by name) from the other; "" when it is not a disagreement.
func engineStatusDiff(a, b *result.Result) string {
	if a.Status != result.Done && b.Status != result.Done {
		return ""
	}
	if a.Status == result.Failed || b.Status == result.Failed {
		return fmt.Sprintf("enum %s, smt %s%s", a.Status, b.Status, errSuffix(a, b))
	}
	return ""
}

func errSuffix(a, b *result.Result) string {
	var parts []string
	if a.Err != nil {
		parts = append(parts, "enum: "+a.Err.Error())
	}
	if b.Err != nil {
		parts = append(parts, "smt: "+b.Err.Error())
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}
