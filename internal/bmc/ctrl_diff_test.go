package bmc_test

import (
	"github.com/musket-verify/musket/internal/driver"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/expect"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
)

// TestCtrlScopeDifferential compares the engines on the scope of a C
// if's control dependency (herd7's: the events of its branches, not those
// after the join), on load-buffering shapes under the Linux-kernel model,
// which orders a read before a write that depends on it by ctrl or data:
// P1 writes x with a data dependency on its read of y, so the outcome is
// forbidden exactly when P0's write of y depends on its read of x.
func TestCtrlScopeDifferential(t *testing.T) {
	m, fe, variants := kernelModel(t)
	tests := []struct {
		name, p0 string
		ok       bool
	}{
		{"write in the branch", `if (r1) WRITE_ONCE(*y, 1);`, false},
		{"write after the if", `if (r1) WRITE_ONCE(*z, 1); WRITE_ONCE(*y, 1);`, true},
		{"write in the else branch", `if (r1 == 0) WRITE_ONCE(*z, 1); else WRITE_ONCE(*y, 1);`, false},
		{"write after the if else", `if (r1) WRITE_ONCE(*z, 1); else WRITE_ONCE(*z, 2); WRITE_ONCE(*y, 1);`, true},
		{"write after an inner if, in the outer one", `if (r1) { if (r1 == 2) WRITE_ONCE(*z, 1); WRITE_ONCE(*y, 1); }`, false},
		{"write after an inner if on x, in an outer one on z", `int r3 = READ_ONCE(*z); if (r3 == 0) { if (r1) WRITE_ONCE(*z, 1); } WRITE_ONCE(*y, 1);`, true},
		{"write in an inner if on z, in an outer one on x", `int r3 = READ_ONCE(*z); if (r1) { if (r3 == 0) WRITE_ONCE(*y, 1); }`, false},
		{"write in a loop body", `while (r1 == 1) { WRITE_ONCE(*y, 1); r1 = 2; }`, false},
		{"write after a loop", `while (r1 == 5) { r1 = 6; } WRITE_ONCE(*y, 1);`, true},
		{"write after a do-while loop", `int r3; do { r3 = READ_ONCE(*z); } while (r1 == 5); WRITE_ONCE(*y, 1);`, true},
		{"write after a conditional expression", `int r3 = r1 ? 1 : 2; WRITE_ONCE(*y, r3 - r3 + 1);`, true},
		{"write in a branch on the constants of a conditional expression", `int r3 = r1 ? 1 : 2; if (r3 == 1) WRITE_ONCE(*y, 1);`, true},
		{"write after a short circuit", `int r3 = r1 && READ_ONCE(*z); WRITE_ONCE(*y, 1);`, true},
		{"write in a branch on a short circuit", `int r3 = r1 && READ_ONCE(*z); if (r3 == 0) WRITE_ONCE(*y, 1);`, false},
		{"write after a cmpxchg (no branch)", `int r3 = cmpxchg(z, r1, 2); WRITE_ONCE(*y, r3 - r3 + 1);`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := `C t
{}
P0(int *x, int *y, int *z) { int r1 = READ_ONCE(*x); ` + tc.p0 + ` }
P1(int *x, int *y) { int r2 = READ_ONCE(*y); WRITE_ONCE(*x, r2); }
exists (0:r1=1 /\ 1:r2=1)`
			wantBothOk(t, src, m, fe, variants, tc.ok)
		})
	}
}

// ctrlScopeTests are the LKMM tests whose verdict depends on the scope of
// an if's control dependency; they always run.
var ctrlScopeTests = []string{
	"LKMM/manual/kernel/C-viro-2020.09.29a.litmus",
	"LKMM/manual/plain/C-non-race1-rrdep.litmus",
	"LKMM/manual/plain/C-non-race1.litmus",
}

// TestCtrlDifferentialCorpus runs both engines on the LKMM tests with a
// reference verdict and an if statement (every 25th by default, all with
// MUSKET_LONG=1, and always ctrlScopeTests) and fails on any difference
// between them, or from the reference verdict.
func TestCtrlDifferentialCorpus(t *testing.T) {
	m, fe, variants := kernelModel(t)
	table, err := expect.Read(filepath.Join(corpus, "litmus/expected/LKMM.csv"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := driver.Files([]string{filepath.Join(corpus, "litmus/LKMM")})
	if err != nil {
		t.Fatal(err)
	}
	ifStmt := regexp.MustCompile(`\bif\s*\(`)
	long := os.Getenv("MUSKET_LONG") == "1"
	var ifs []string
	n := 0
	for _, f := range files {
		if _, ok := table.Lookup(f); !ok {
			continue // as the conformance suite: only tests with a reference verdict
		}
		src, err := os.ReadFile(f)
		if err != nil || !ifStmt.Match(src) {
			continue
		}
		rel, _ := filepath.Rel(filepath.Join(corpus, "litmus"), f)
		if long || n%25 == 0 || slices.Contains(ctrlScopeTests, filepath.ToSlash(rel)) {
			ifs = append(ifs, f)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d tests with an if in the corpus", n)
	}
	for _, want := range ctrlScopeTests {
		if !slices.Contains(ifs, filepath.Join(corpus, "litmus", want)) {
			t.Errorf("%s is missing from the corpus", want)
		}
	}
	diffs, same, skipped := diffKernelFiles(t, m, fe, variants, ifs, table)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d/%d tests with an if the same under both engines and as expected (%d skipped)", same, len(ifs)-skipped, skipped)
}

// diffKernelFiles runs both engines on files under the kernel's model
// (two at a time) and lists, sorted, the tests where they differ, and,
// when table is not nil, those where the SMT engine's verdict differs from
// table's; skipped counts the tests the explicit engine did not finish.
func diffKernelFiles(t *testing.T, m *cat.Model, fe litmus.Frontend, variants map[string]bool, files []string, table *expect.Table) (diffs []string, same, skipped int) {
	t.Helper()
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range work {
				d, skip := diffKernelFile(path, m, fe, variants, table)
				mu.Lock()
				switch {
				case skip:
					skipped++
				case d != "":
					diffs = append(diffs, path+": "+d)
				default:
					same++
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	sort.Strings(diffs)
	return diffs, same, skipped
}

func diffKernelFile(path string, m *cat.Model, fe litmus.Frontend, variants map[string]bool, table *expect.Table) (diff string, skip bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return err.Error(), false
	}
	lt, err := litmus.ParseWith(path, src, fe)
	if err != nil {
		return err.Error(), false
	}
	diff, b, skip := sameUnderBoth(lt, m, fe, variants)
	if diff != "" || skip {
		return diff, skip
	}
	if table != nil && b.Status == result.Done {
		if want, ok := table.Lookup(path); ok && want != b.Ok() {
			return "verdict differs from the expected one", false
		}
	}
	return "", false
}
