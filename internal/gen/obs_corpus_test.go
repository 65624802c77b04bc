package gen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/testcorpus"
)

var (
	threadHeader = regexp.MustCompile(`(?m)^\s*P0\b[^\n]*;`)
	threadName   = regexp.MustCompile(`\bP\d+\b`)
	// a location's final value in a condition: x=2, not 0:r1=2.
	finalValue = regexp.MustCompile(`(^|[\s(])[a-z][a-z0-9]*=`)
	// a register's value in a condition: 0:r1=2.
	regValue = regexp.MustCompile(`\d+:[A-Za-z0-9]+=`)
)

// obsModeOf finds the -obs mode diy wrote a corpus test with, from the
// test of its Cycle= line: more threads than the cycle's are observer
// threads (accept or force); the same threads and no final value where
// ours has one are local observers. It returns the test built that way
// ("" and nil: no observers, or none of ours has the corpus's shape).
func obsModeOf(a *Arch, es []Edge, src string, plain *Test) (string, *Test) {
	h := threadHeader.FindString(src)
	if h == "" || strings.Contains(src, "\n\"\"\n") {
		// A test written by hand (an empty description) may have a
		// Cycle= line its code does not follow.
		return "", nil
	}
	threads := len(threadName.FindAllString(h, -1))
	cond := src[strings.LastIndex(src, "exists"):]
	var modes []string
	switch {
	case threads > len(plain.Threads):
		modes = []string{"accept", "force"}
	case threads == len(plain.Threads) && len(plain.Final) > 0 && !finalValue.MatchString(cond):
		modes = []string{"local"}
	}
	regs := len(regValue.FindAllString(cond, -1))
	for _, m := range modes {
		tt, err := BuildObs(a, es, Obs{Mode: m, Type: "fenced"})
		if err != nil || len(tt.Threads)+len(tt.ObsThreads) != threads || len(tt.Obs)+len(tt.ObsThreads) == 0 {
			continue
		}
		var b strings.Builder
		if tt.Write(&b) != nil {
			continue
		}
		ours := b.String()
		if len(regValue.FindAllString(ours[strings.LastIndex(ours, "exists"):], -1)) == regs {
			return m, tt
		}
	}
	return "", nil
}

// TestCorpusObservers generates, for each corpus test written by diy with
// observers (-obs accept, force or local) and a Cycle= line, the test of
// that line with the same -obs mode, and checks that its verdict under
// the architecture's model is the corpus's. By default a sample of each
// folder; all with MUSKET_LONG=1.
func TestCorpusObservers(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	for _, s := range cycleLineSuites {
		t.Run(s.dir, func(t *testing.T) {
			table, err := expect.Read(filepath.Join(root, "expected", s.csv))
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			filepath.Walk(filepath.Join(root, s.dir), func(p string, info os.FileInfo, err error) error {
				if err == nil && strings.HasSuffix(p, ".litmus") {
					paths = append(paths, p)
				}
				return nil
			})
			sort.Strings(paths)
			tmp := t.TempDir()
			want, from := map[string]bool{}, map[string]string{}
			var files []string
			modes := map[string]int{}
			for _, p := range paths {
				archWord, cyc, cond := corpusHeader(p)
				exp, ok := table.Lookup(p)
				if cyc == "" || !ok || (cond != "exists" && cond != "~exists") {
					continue
				}
				src, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				a, err := LookupArch(archWord)
				if err != nil {
					continue
				}
				es, err := a.ParseCycle(strings.Fields(cyc))
				if err != nil {
					continue
				}
				plain, err := Build(a, es)
				if err != nil || plain.Mixed() {
					continue
				}
				m, tt := obsModeOf(a, es, string(src), plain)
				if tt == nil {
					continue
				}
				modes[m]++
				if modes[m] <= 2 {
					t.Logf("-obs %s: %s", m, filepath.Base(p))
				}
				if !long && modes[m] > 8 {
					continue
				}
				out := filepath.Join(tmp, fmt.Sprintf("%04d-%s-%s", len(files), m, filepath.Base(p)))
				writeTestFile(t, tt, out)
				files = append(files, out)
				want[out], from[out] = exp == (cond == "exists"), p
			}
			agree, timeouts := 0, 0
			batch.Run(context.Background(), files, batch.Options{Engine: "enum", Jobs: 2, Timeout: 20 * time.Second}, func(j batch.Job) {
				if j.Err != nil || j.Result == nil {
					t.Errorf("%s (from %s): %v", j.Path, from[j.Path], j.Err)
					return
				}
				switch r := j.Result; {
				case r.Status.String() == "timeout":
					timeouts++
				case r.Status.String() != "done":
					t.Errorf("%s (from %s): %s: %v", j.Path, from[j.Path], r.Status, r.Err)
				case r.Ok() == want[j.Path]:
					agree++
				default:
					src, _ := os.ReadFile(j.Path)
					t.Errorf("%s: the test generated from its Cycle= line with its observers answers Ok=%v, the corpus expects %v\n%s", from[j.Path], r.Ok(), want[j.Path], src)
				}
			})
			t.Logf("%s: corpus tests with observers by -obs mode %v; %d compared, %d agree, %d time-outs", s.dir, modes, len(files), agree, timeouts)
		})
	}
}
