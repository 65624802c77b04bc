package gen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// cycleLineSuites are the corpus folders whose tests carry diy's Cycle=
// line, with their expected verdicts. LKMM's tests are checked by
// TestCorpusLKMMCycles (lkmm_corpus_test.go), under the kernel's model.
var cycleLineSuites = []struct{ dir, csv string }{
	{"X86", "TSO.csv"}, {"PPC", "PPC.csv"}, {"AARCH64", "ARM8.csv"}, {"RISCV", "RISCV.csv"},
}

// corpusHeader reads the header word, the Cycle= line and the condition
// keyword ("exists", "~exists", "forall", or "exists-not" for diy's
// `exists (not (...))` listing of every outcome) of a corpus test.
func corpusHeader(path string) (arch, cycle, cond string) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", "", ""
	}
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		l := sc.Text()
		if arch == "" {
			if fs := strings.Fields(l); len(fs) >= 1 {
				arch = fs[0]
			}
			continue
		}
		if strings.HasPrefix(l, "Cycle=") {
			cycle = strings.TrimSpace(l[len("Cycle="):])
		}
		if strings.HasPrefix(l, "{") {
			break
		}
	}
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "forall"):
			cond = "forall"
		case strings.HasPrefix(l, "~exists"), strings.HasPrefix(l, "~ exists"):
			cond = "~exists"
		case strings.HasPrefix(l, "exists"):
			cond = "exists"
			if strings.HasPrefix(strings.TrimSpace(l[len("exists"):]), "(not") {
				cond = "exists-not"
			}
		}
	}
	return arch, cycle, cond
}

// cycleLineTally counts what became of the Cycle= lines of one folder.
type cycleLineTally struct {
	lines, notMade, compared, agree, timeouts int
	notCompared                               int      // the corpus's condition is not an exists of one outcome
	why                                       []string // what the generator refused, by edge or message
}

// TestCorpusCycleLines is the strongest check of the generator: for
// every corpus test with a Cycle= line (diy's cycle of the test, as diy
// rotates it), it generates the test of that cycle, checks it under the
// architecture's model with the explicit engine and compares its verdict
// with the corpus test's expected answer; the two tests are the same
// test up to the rotation, the names and the numbering of registers,
// whatever diy's options. Tests whose condition is not an exists of one
// outcome (a forall over herd's outcomes, diy's `exists (not (...))`)
// are counted, not compared: TestCorpusForall compares the X86 ones.
// By default it checks a sample of each folder (every n-th test in path
// order, about 15); MUSKET_LONG=1 checks every one, and
// logs per folder how many Cycle= lines there are, how many the
// generator makes, and why it refuses the others.
func TestCorpusCycleLines(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	for _, s := range cycleLineSuites {
		t.Run(s.dir, func(t *testing.T) {
			table, err := expect.Read(filepath.Join(root, "expected", s.csv))
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			var files []string
			want := map[string]bool{}
			from := map[string]string{}
			var tl cycleLineTally
			why := map[string]int{}
			var paths []string
			filepath.Walk(filepath.Join(root, s.dir), func(p string, info os.FileInfo, err error) error {
				if err == nil && strings.HasSuffix(p, ".litmus") {
					paths = append(paths, p)
				}
				return nil
			})
			sort.Strings(paths)
			stride := 1
			if !long {
				// A sample across the folder's subfolders: about 15
				// Cycle= lines.
				stride = max(1, len(paths)/15)
			}
			for k, p := range paths {
				if k%stride != 0 {
					continue
				}
				archWord, cyc, cond := corpusHeader(p)
				exp, ok := table.Lookup(p)
				if cyc == "" || !ok {
					continue
				}
				tl.lines++
				tt, reason := buildCycleLine(s.dir, archWord, cyc)
				if tt == nil {
					tl.notMade++
					why[reason]++
					continue
				}
				if cond != "exists" && cond != "~exists" {
					tl.notCompared++
					continue
				}
				out := filepath.Join(tmp, fmt.Sprintf("%04d-%s", len(files), filepath.Base(p)))
				writeTestFile(t, tt, out)
				files = append(files, out)
				// An ~exists holds (Ok) when its outcome is unreachable,
				// the generated exists when it is reachable.
				want[out], from[out] = exp == (cond == "exists"), p
			}
			if len(files) == 0 {
				t.Fatalf("no corpus test of %s has a Cycle= line the generator makes", s.dir)
			}
			var mismatch []string // generated tests whose verdict differs
			batch.Run(context.Background(), files, batch.Options{Engine: "enum", Jobs: 2, Timeout: 20 * time.Second}, func(j batch.Job) {
				if j.Err != nil || j.Result == nil {
					t.Errorf("%s (from %s): %v", j.Path, from[j.Path], j.Err)
					return
				}
				r := j.Result
				if r.Status.String() == "timeout" {
					tl.timeouts++
					return
				}
				if r.Status.String() != "done" {
					t.Errorf("%s (from %s): %s: %v", j.Path, from[j.Path], r.Status, r.Err)
					return
				}
				tl.compared++
				if r.Ok() == want[j.Path] {
					tl.agree++
					return
				}
				mismatch = append(mismatch, j.Path)
			})
			known := explainMismatches(t, mismatch, from, want)
			t.Logf("%s: %d Cycle= lines; generated %d, %d of them compared with the corpus verdict: %d agree, %d differ as known (%s), %d time-outs; %d not compared (forall, exists (not ...) or no condition); %d not generated",
				s.dir, tl.lines, tl.lines-tl.notMade, tl.compared, tl.agree, len(mismatch), known, tl.timeouts, tl.notCompared, tl.notMade)
			if long {
				var ks []string
				for k := range why {
					ks = append(ks, k)
				}
				sort.Slice(ks, func(i, j int) bool { return why[ks[i]] > why[ks[j]] || why[ks[i]] == why[ks[j]] && ks[i] < ks[j] })
				for _, k := range ks {
					t.Logf("  %5d not generated: %s", why[k], k)
				}
			}
		})
	}
}

// buildCycleLine builds the test of a Cycle= line, or says in a few words
// why the generator does not make it (for the tally).
func buildCycleLine(dir, archWord, cyc string) (*Test, string) {
	a, err := LookupArch(archWord)
	if err != nil {
		return nil, err.Error()
	}
	es, err := a.ParseCycle(strings.Fields(cyc))
	if err != nil {
		return nil, refusal(err.Error())
	}
	tt, err := Build(a, es)
	if err != nil {
		return nil, refusal(err.Error())
	}
	return tt, ""
}

// refusal shortens an error of the generator to its kind: the edge's
// annotation or size suffix, not every edge's name.
func refusal(msg string) string {
	word, rest, ok := strings.Cut(msg, ": ")
	if !ok || strings.Contains(word, " ") {
		return msg
	}
	return "an edge like " + word + ": " + rest
}

// coherenceOnly is a model that asks nothing but what the engine keeps of
// a mixed-size test's candidates anyway: coherence per location.
const coherenceOnly = "\"coherence only\"\nacyclic po-loc | rf | co | fr as sc-per-location\n"

// explainMismatches sorts the generated tests whose verdict differs from
// the corpus's into the two known differences of diy's mixed-size tests,
// fails the test on any other, and says how many of each it found:
//
//   - the corpus test's condition cannot hold in any coherent execution
//     (checked here: it is unreachable under coherence alone). diy's
//     observers of a mixed-size location (loads after the last write,
//     which the generated test does without: its final values pin the
//     coherence order) ask the value of a write alone, not the
//     location's value after it: a load of x after its own thread wrote
//     x's high word is asked 0 there. The corpus test is then forbidden
//     whatever the model, the generated one has the cycle's verdict.
//   - an internal communication (Rfi, Fri, Wsi) between accesses of two
//     different sizes or offsets: diy's values then ask a coherence order
//     other than the cycle's (in MP+poq0l.w0+addrq0w0-rfiw0q0 its final
//     value puts the quad write of P0 before P1's word write, which Rfi
//     then Fre order after it); the generated test's values follow the
//     cycle (one coherence order per location, in the cycle's order).
func explainMismatches(t *testing.T, paths []string, from map[string]string, want map[string]bool) string {
	if len(paths) == 0 {
		return "none"
	}
	cat := filepath.Join(t.TempDir(), "coherence.cat")
	if err := os.WriteFile(cat, []byte(coherenceOnly), 0o644); err != nil {
		t.Fatal(err)
	}
	var corpus []string
	gen := map[string]string{}
	for _, p := range paths {
		corpus = append(corpus, from[p])
		gen[from[p]] = p
	}
	impossible, internal := 0, 0
	batch.Run(context.Background(), corpus, batch.Options{Engine: "enum", Model: cat, Jobs: 2, Timeout: 20 * time.Second}, func(j batch.Job) {
		p := gen[j.Path]
		if j.Err == nil && j.Result != nil && j.Result.Status.String() == "done" && !j.Result.Ok() && !want[p] {
			impossible++
			return
		}
		if mixedInternal(j.Path) {
			internal++
			return
		}
		src, _ := os.ReadFile(p)
		t.Errorf("%s: the test generated from its Cycle= line answers Ok=%v, the corpus expects %v\n%s", j.Path, !want[p], want[p], src)
	})
	return fmt.Sprintf("%d whose corpus condition no coherent execution meets, %d with a mixed-size internal communication", impossible, internal)
}

// mixedInternal tells whether the Cycle= line of a corpus test has an
// internal communication between accesses of two sizes or offsets.
func mixedInternal(path string) bool {
	archWord, cyc, _ := corpusHeader(path)
	tt, _ := buildCycleLine("", archWord, cyc)
	if tt == nil || !tt.Mixed() {
		return false
	}
	for i, e := range tt.Edges {
		if e.Com() && !e.Ext && tt.Events[i].Mix != tt.Events[(i+1)%len(tt.Events)].Mix {
			return true
		}
	}
	return false
}
