package conformance

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// herd7 7.58's logs of a sample of every suite are in
// reference/herd7-7.58/logs (beside the corpus), each made with release
// 7.58's own library model (reference/herd7-7.58/lib) or, for the Linux
// kernel's tests, with the kernel's files and -conf. TestHerdLogs runs
// Musket's explicit engine on the same tests with the same models and
// compares its text with herd7's byte for byte, less the Time line (it
// varies from run to run), Hash line included (package herdhash). A test
// whose log knowingly differs is listed in herdlogs/known.txt with the
// reason; a listed test that agrees again fails the test too. The counts
// logged are of logs identical with and without the Hash line.

// herdLogSuites are the suites of the reference logs and the library
// model herd7 ran each with ("" for the kernel's -conf).
var herdLogSuites = []struct{ name, model string }{
	{"X86", "x86tso.cat"}, {"C11", "rc11.cat"}, {"PPC", "ppc.cat"},
	{"RISCV", "riscv.cat"}, {"AARCH64", "aarch64.cat"}, {"LKMM", ""},
}

func herdRef() string { return testcorpus.HerdReferencePath() }

// herdLogOptions are the options of the command that made a suite's logs.
func herdLogOptions(suite, model string) batch.Options {
	lib := filepath.Join(herdRef(), "lib")
	opts := batch.Options{Engine: "enum", Jobs: runtime.NumCPU(), Timeout: 60 * time.Second, LibDirs: []string{lib}}
	if model != "" {
		opts.Model = filepath.Join(lib, model)
		return opts
	}
	linux := filepath.Join(corpus, "cat", "linux")
	opts.Model = filepath.Join(linux, "linux-kernel.cat")
	opts.Bell = filepath.Join(linux, "linux-kernel.bell")
	opts.Macros = filepath.Join(linux, "linux-kernel.def")
	opts.Variants = map[string]bool{"lkmmv2": true}
	opts.IncludeDirs = []string{linux}
	return opts
}

// herdLogText keeps the lines of a log that a herd7 user diffs: all but
// Time (and Hash unless withHash), without the trailing blank line.
func herdLogText(b []byte, withHash bool) string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Time ") || !withHash && strings.HasPrefix(line, "Hash=") {
			continue
		}
		out = append(out, line)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// knownLogDiffs reads herdlogs/known.txt: lines "PATH reason".
func knownLogDiffs(t *testing.T) map[string]string {
	b, err := os.ReadFile(filepath.Join("herdlogs", "known.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, reason, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("herdlogs/known.txt: bad line %q (want PATH REASON)", line)
		}
		m[path] = reason
	}
	return m
}

func TestHerdLogs(t *testing.T) {
	testcorpus.Dir(t)
	logs := herdLogsDir(t)
	known := knownLogDiffs(t)
	for _, s := range herdLogSuites {
		t.Run(s.name, func(t *testing.T) {
			compareHerdLogs(t, logs, s.name, herdLogOptions(s.name, s.model), known)
		})
	}
}

// TestHerdModelAlone: herd7 7.58's library models, each copied alone into
// a folder of its own (as a user pastes one in the playground), load with
// Musket's own versions of the files they include (package cat's
// built-in library: aarch64hwreqs.cat, riscv-defs.cat, cos.cat...) and
// give herd7's logs, as TestHerdLogs does with herd7's library folder.
func TestHerdModelAlone(t *testing.T) {
	testcorpus.Dir(t)
	logs := herdLogsDir(t)
	known := knownLogDiffs(t)
	for _, s := range herdLogSuites {
		if s.model == "" {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(herdRef(), "lib", s.model))
			if err != nil {
				t.Fatal(err)
			}
			alone := filepath.Join(t.TempDir(), s.model)
			if err := os.WriteFile(alone, text, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := herdLogOptions(s.name, s.model)
			opts.Model, opts.LibDirs = alone, nil
			compareHerdLogs(t, logs, s.name, opts, known)
		})
	}
}

// herdLogsDir is the folder of herd7 7.58's reference logs; the test is
// skipped when it is not beside the corpus (it fails under CI).
func herdLogsDir(t *testing.T) string {
	return testcorpus.HerdReference(t, "logs")
}

// compareHerdLogs runs the tests of a suite that have a log in logs with
// opts and compares Musket's text with the logs (see TestHerdLogs).
func compareHerdLogs(t *testing.T, logs, suite string, opts batch.Options, known map[string]string) {
	long := os.Getenv("MUSKET_LONG") != ""
	var paths []string
	err := filepath.WalkDir(filepath.Join(logs, suite), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".litmus.log") {
			rel, _ := filepath.Rel(logs, p)
			paths = append(paths, strings.TrimSuffix(filepath.ToSlash(rel), ".log"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if !long {
		// By default a sample, with every listed test of the suite
		// (so that a fixed one is noticed) and all of C11 (its
		// Undef results); MUSKET_LONG=1: all.
		var sample []string
		for i, p := range paths {
			if _, listed := known[p]; listed || i%16 == 0 || suite == "C11" {
				sample = append(sample, p)
			}
		}
		paths = sample
	}
	files := make([]string, len(paths))
	for i, p := range paths {
		files[i] = filepath.Join(corpus, "litmus", p)
	}
	same, sameNoHash := 0, 0
	batch.Run(context.Background(), files, opts, func(j batch.Job) {
		path := paths[j.Index]
		want, err := os.ReadFile(filepath.Join(logs, path+".log"))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if j.Err != nil {
			got.WriteString("error: " + j.Err.Error())
		} else {
			report.Text(&got, j.Result)
		}
		reason, listed := known[path]
		if herdLogText(got.Bytes(), false) == herdLogText(want, false) {
			sameNoHash++
		}
		if herdLogText(got.Bytes(), true) == herdLogText(want, true) {
			same++
			if listed {
				t.Errorf("%s is identical to herd7's log now: remove it from herdlogs/known.txt (%s)", path, reason)
			}
			return
		}
		if !listed {
			t.Errorf("%s: the log differs from herd7 7.58's\n--- herd7\n%s\n--- musket\n%s", path, herdLogText(want, true), herdLogText(got.Bytes(), true))
		}
	})
	t.Logf("%d of %d logs identical to herd7 7.58's (Time line aside), %d with the Hash line aside too", same, len(paths), sameNoHash)
}
