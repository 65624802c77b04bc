package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/driver"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// BenchmarkSuites times every shared suite of the conformance tests (each
// model as TestCorpus runs it), as `musket litmus -j 2` would: one
// sub-benchmark per suite, reporting the wall time of the whole suite
// (s/suite), the number of tests and of time-outs at 60 s each. The
// engine is MUSKET_BENCH_ENGINE (default auto, the command's default).
// The suites that TestCorpus runs only with MUSKET_LONG=1 (the whole LKMM
// folder, AArch64 under herd's file) are timed with it too.
//
//	MUSKET_LONG=1 go test ./internal/conformance -run '^$' -bench Suites -benchtime 1x -timeout 60m
func BenchmarkSuites(b *testing.B) {
	testcorpus.Dir(b)
	engine := os.Getenv("MUSKET_BENCH_ENGINE")
	if engine == "" {
		engine = "auto"
	}
	long := os.Getenv("MUSKET_LONG") != ""
	for _, s := range suites {
		if s.long && !long {
			continue
		}
		b.Run(strings.ReplaceAll(s.name, "/", "_"), func(b *testing.B) {
			table, err := expect.Read(filepath.Join(corpus, s.expect))
			if err != nil {
				b.Fatal(err)
			}
			files := benchFiles(b, s, table)
			opts := s.options(2, time.Minute)
			opts.Engine = engine
			var timeouts int
			start := time.Now()
			for i := 0; i < b.N; i++ {
				timeouts = 0
				batch.Run(context.Background(), files, opts, func(j batch.Job) {
					if j.Result != nil && j.Result.Status == result.Timeout {
						timeouts++
					}
				})
			}
			b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "s/suite")
			b.ReportMetric(float64(len(files)), "tests")
			b.ReportMetric(float64(timeouts), "timeouts")
		})
	}
}

// benchFiles are the suite's tests that have an expected verdict, less
// the ones the suite skips.
func benchFiles(b *testing.B, s suite, table *expect.Table) []string {
	all, err := driver.Files([]string{filepath.Join(corpus, s.dir)})
	if err != nil {
		b.Fatal(err)
	}
	skip := map[string]bool{}
	for _, p := range s.skip {
		skip[p] = true
	}
	var out []string
	for _, f := range all {
		rel := strings.TrimPrefix(filepath.ToSlash(f), corpus+"/litmus/")
		if _, ok := table.Lookup(f); ok && !skip[rel] {
			out = append(out, f)
		}
	}
	return out
}
