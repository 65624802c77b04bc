package conformance

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// corpus is the shared corpus (testcorpus.Dir finds it, or skips the
// test, or fails it under CI).
var corpus = testcorpus.Path()

// suite is one folder of litmus tests checked under one model against one
// expected file.
type suite struct {
	name   string
	dir    string
	model  string // built-in name or .cat path
	expect string
	long   bool // only with MUSKET_LONG=1
	// sample, when over 1: the default run checks every sample-th test
	// of the folder, starting at the offset-th, MUSKET_LONG=1 all of
	// them. Suites of one folder under different models take different
	// offsets, so that their samples together cover the folder.
	sample, offset int
	// thin, for a subfolder: the default run checks every n-th of its
	// tests (the whole subfolder with MUSKET_LONG=1).
	thin map[string]int
	// herd7's ways of naming a model beside the .cat file: -bell, -macros,
	// -I and -variant.
	bell, macros string
	include      []string
	variants     []string
	// skip lists tests (paths relative to corpus/litmus/) not run at all:
	// each must also be listed in divergences/ with its reason.
	skip []string
}

// suites are registered by the suites_*_test.go files, one per
// architecture.
var suites []suite

// knownDivergences reads every divergences/*.txt: lines
// "SUITE PATH reason...".
func knownDivergences(t *testing.T) map[string]string {
	files, err := filepath.Glob("divergences/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, file := range files {
		readDivergences(t, file, m)
	}
	return m
}

func readDivergences(t *testing.T, file string, m map[string]string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 3)
		if len(parts) < 3 {
			t.Fatalf("%s: bad line %q (want SUITE PATH REASON)", file, line)
		}
		m[parts[0]+" "+parts[1]] = parts[2]
	}
}

// defaultSample is the part of a suite's files the default run checks.
func (s suite) defaultSample(files []string) []string {
	if s.sample > 1 {
		files = everyFrom(files, s.sample, s.offset)
	}
	if len(s.thin) == 0 {
		return files
	}
	var out []string
	seen := map[string]int{}
	for _, f := range files {
		rel := strings.TrimPrefix(filepath.ToSlash(f), corpus+"/"+s.dir+"/")
		sub, _, nested := strings.Cut(rel, "/")
		if n := s.thin[sub]; nested && n > 1 {
			seen[sub]++
			if (seen[sub]-1)%n != 0 {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

func TestCorpus(t *testing.T) {
	testcorpus.Dir(t)
	known := knownDivergences(t)
	long := os.Getenv("MUSKET_LONG") != ""
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
				files = s.defaultSample(files)
			}
			opts := s.options(runtime.NumCPU(), 60*time.Second)
			var agree, total, listed int
			var slowest *result.Result
			start := time.Now()
			batch.Run(context.Background(), files, opts, func(j batch.Job) {
				rel := strings.TrimPrefix(filepath.ToSlash(j.Path), corpus+"/litmus/")
				want, found := table.Lookup(j.Path)
				if !found {
					return
				}
				total++
				reason, isKnown := known[s.name+" "+rel]
				var got string
				switch {
				case j.Err != nil:
					got = "error: " + j.Err.Error()
				case j.Result.Status != result.Done:
					got = j.Result.Status.String()
					if j.Result.Err != nil {
						got += ": " + j.Result.Err.Error()
					}
				default:
					if slowest == nil || j.Result.Time > slowest.Time {
						slowest = j.Result
					}
					if j.Result.Ok() == want {
						agree++
						if isKnown {
							t.Errorf("%s agrees now: remove it from divergences/ (%s)", rel, reason)
						}
						return
					}
					got = "verdict differs"
				}
				if isKnown {
					listed++
					return
				}
				t.Errorf("%s: %s (expected %v)", rel, got, want)
			})
			msg := ""
			if slowest != nil {
				msg = " slowest " + slowest.Name + " " + slowest.Time.Round(time.Millisecond).String()
			}
			t.Logf("agreement %d/%d (%d listed divergences) in %s;%s", agree, total, listed, time.Since(start).Round(time.Millisecond), msg)
		})
	}
}
