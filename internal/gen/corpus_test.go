package gen

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// corpusSuites are the corpus folders of each architecture and the
// expected verdicts of their tests.
var corpusSuites = []struct{ dir, csv string }{
	{"X86", "TSO.csv"}, {"PPC", "PPC.csv"}, {"AARCH64", "ARM8.csv"}, {"RISCV", "RISCV.csv"},
}

// corpusCycle reads the header word, the name and the cycle (the Orig=
// line diy writes) of a corpus test, and whether its condition is not
// the cycle's exists (some corpus tests carry a forall over every
// outcome); cycle is "" when it has none.
func corpusCycle(path string) (arch, name, cycle string, negated bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", "", "", false
	}
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	for sc.Scan() {
		l := sc.Text()
		if arch == "" {
			if fs := strings.Fields(l); len(fs) >= 2 {
				arch, name = fs[0], fs[1]
			}
			continue
		}
		if strings.HasPrefix(l, "Orig=") {
			cycle = strings.TrimSpace(l[5:])
		}
		if strings.HasPrefix(l, "{") {
			break
		}
	}
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "forall") || strings.HasPrefix(l, "~exists") {
			negated = true
		}
	}
	return arch, name, cycle, negated
}

// TestCorpusCycles generates the test of the cycle of every corpus test
// that has one in the notation the generator reads, runs it under the
// architecture's model with the explicit engine and compares its verdict
// with the expected verdict of the corpus test: the generated test and
// the corpus test are the same test, whatever their layout. By default it
// runs the tests whose name the generator gives as the corpus does, in
// the families named in the issue (SB, MP, LB, WRC, IRIW, 2+2W, R, S), at
// most 40 per architecture; MUSKET_LONG=1 runs every such cycle.
func TestCorpusCycles(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	famous := map[string]bool{"SB": true, "MP": true, "LB": true, "WRC": true, "IRIW": true, "2+2W": true, "R": true, "S": true}
	for _, s := range corpusSuites {
		t.Run(s.dir, func(t *testing.T) {
			table, err := expect.Read(filepath.Join(root, "expected", s.csv))
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			var files []string
			want := map[string]bool{}
			from := map[string]string{}
			named, checked, timeouts := 0, 0, 0
			filepath.Walk(filepath.Join(root, s.dir), func(p string, info os.FileInfo, err error) error {
				if err != nil || !strings.HasSuffix(p, ".litmus") || (!long && len(files) >= 40) {
					return nil
				}
				archWord, name, cyc, negated := corpusCycle(p)
				if cyc == "" {
					return nil
				}
				exp, ok := table.Lookup(p)
				if !ok {
					return nil
				}
				a, err := LookupArch(archWord)
				if err != nil {
					return nil
				}
				es, err := a.ParseCycle([]string{cyc})
				if err != nil {
					return nil // an edge the generator does not make (Rmw, mixed sizes, ...)
				}
				tt, err := Build(a, es)
				if err != nil || tt.Mixed() {
					// Mixed-size tests: TestCorpusCycleLines compares
					// them, and explains the known differences.
					return nil
				}
				if negated || !sameName(tt, name) {
					// Not the same test by name: the corpus test may
					// differ from its cycle (an atomic swap, ...).
					return nil
				}
				named++
				if !long && !famous[strings.SplitN(name, "+", 2)[0]] && !strings.HasPrefix(name, "2+2W") {
					return nil
				}
				out := filepath.Join(tmp, filepath.Base(p))
				writeTestFile(t, tt, out)
				files = append(files, out)
				want[out], from[out] = exp, p
				return nil
			})
			if len(files) == 0 {
				t.Fatalf("no corpus test of %s has a cycle the generator makes", s.dir)
			}
			batch.Run(context.Background(), files, batch.Options{Engine: "enum", Jobs: 2, Timeout: 20 * time.Second}, func(j batch.Job) {
				if j.Err != nil || j.Result == nil {
					t.Errorf("%s (from %s): %v", j.Path, from[j.Path], j.Err)
					return
				}
				r := j.Result
				if r.Status.String() == "timeout" {
					timeouts++
					return
				}
				if r.Status.String() != "done" {
					t.Errorf("%s (from %s): %s: %v", j.Path, from[j.Path], r.Status, r.Err)
					return
				}
				checked++
				if r.Ok() != want[j.Path] {
					src, _ := os.ReadFile(j.Path)
					t.Errorf("%s: generated test answers Ok=%v, the corpus expects %v\n%s", from[j.Path], r.Ok(), want[j.Path], src)
				}
			})
			t.Logf("%s: %d generated tests checked against the expected verdicts, %d timed out (%d corpus tests with an exists condition named as the generator names them)", s.dir, checked, timeouts, named)
		})
	}
}

// sameName tells whether the corpus test named name is the generated
// test tt by its name: tt's name, or, for a cycle with detours, diy's
// numbered DETOUR name (its detour mode numbers the tests).
func sameName(tt *Test, name string) bool {
	if tt.Name() == name {
		return true
	}
	for _, e := range tt.Edges {
		if e.Detour != 0 {
			return strings.HasPrefix(name, "DETOUR")
		}
	}
	return false
}
