package fix

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestCorpusFixes is the self-check of musket fix over a sample of the
// corpus' litmus tests of each architecture (spread over the folder;
// MUSKET_LONG=1 takes more): for every test whose condition is
// reachable, the repair found must be (1) re-checked unreachable by the
// other engine from the patched file, (2) minimal: without any one of
// its changes, or with one weakened (Minimal), the condition is reachable
// again, and (3) when there are
// few enough cheaper sets of candidates, no cheaper set repairs the test
// (brute force).
func TestCorpusFixes(t *testing.T) {
	dir := testcorpus.Dir(t)
	type row struct {
		dir, csv   string // the folder and its expected results
		glob       string
		fixes      int // repairs to check in the default run
		long       int // with MUSKET_LONG=1
		brute      int // the brute force's bound on cheaper sets
		scanFactor int
	}
	rows := []row{
		{"X86", "TSO", "", 2, 25, 300, 8},
		{"PPC", "PPC", "", 2, 25, 300, 4},
		{"AARCH64", "ARM8", "", 2, 25, 300, 4},
		{"RISCV", "RISCV", "", 2, 25, 300, 4},
		{"C11", "C11", "", 1, 10, 300, 10},
	}
	for _, r := range rows {
		r := r
		r.glob = r.dir
		t.Run(r.dir, func(t *testing.T) {
			files := reachableTests(t, dir, r.dir, r.csv)
			want := r.fixes
			if long {
				want = r.long
			}
			scan := want * r.scanFactor
			if scan > len(files) {
				scan = len(files)
			}
			fixed, correct, nofix, limits, brute := 0, 0, 0, 0, 0
			for i := 0; i < scan && fixed < want; i++ {
				f := files[i*len(files)/scan]
				if !strings.Contains(f, "/"+r.dir+"/") {
					continue
				}
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				opts := Options{Bound: 2}
				s, err := New(f, src, opts)
				if err != nil {
					continue // a dialect, size or architecture fix does not take
				}
				// The default run keeps to two threads (a check of
				// three threads with exclusive pairs takes about a
				// second, and the loop may need hundreds).
				maxThreads, limit := 2, 30*time.Second
				if long {
					maxThreads, limit = 4, 60*time.Second
				}
				if lt := s.(*litmusSubject); loopy(lt.t) || len(lt.t.Threads) > maxThreads {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				out, err := Repair(ctx, s, 400)
				if errors.Is(err, ErrLimit) || errors.Is(err, context.DeadlineExceeded) {
					cancel()
					limits++
					t.Logf("%s: limit reached (%v)", filepath.Base(f), err)
					continue
				}
				if err != nil {
					cancel()
					t.Fatalf("%s: %v", f, err)
				}
				switch {
				case out.Correct:
					correct++
					cancel()
					continue
				case out.NoFix:
					// A hardware test that no fence repairs is one
					// whose condition sequential consistency reaches.
					cancel()
					sc, err := bmc.CheckLitmus(context.Background(), f, bmc.LitmusOptions{Model: "sc", Bound: 2, Engine: "enum"})
					if err != nil {
						t.Fatalf("%s: under sc: %v", f, err)
					}
					t.Logf("%s: no fix within the repertoire (reachable under sc: %v)", filepath.Base(f), sc.Reachable)
					if r.dir != "C11" && !sc.Reachable {
						t.Errorf("%s: no fix, yet the condition is unreachable under sc (a barrier between every two accesses would repair it)", f)
					}
					if sc.Reachable {
						nofix++
					}
					continue
				}
				fixed++
				cancel()
				ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute)
				v, err := Verify(ctx, s, out.Fix, opts)
				if err != nil {
					cancel()
					t.Fatalf("%s: re-check: %v", f, err)
				}
				if v.Reachable {
					t.Errorf("%s: the %s engine finds the repaired test still reachable", f, v.Engine)
				}
				sl, err := Minimal(ctx, s, out.Fix)
				cancel()
				if err != nil {
					t.Fatalf("%s: self-check: %v", f, err)
				}
				for _, c := range sl.Unneeded {
					t.Errorf("%s: %s is not needed in the fix %s", f, change(out.Cands[c]), changes(out))
				}
				for _, w := range sl.Weaker {
					t.Errorf("%s: %s can be weakened to %s in the fix %s", f, change(out.Cands[w.Change]), change(out.Cands[w.Weaker]), changes(out))
				}
				n := cheaperAllBadN(t, s, out.Cost, r.brute)
				if n > 0 {
					brute++
				}
				t.Logf("%s: %s (cost %d, %d checks, %d cheaper sets by brute force)", filepath.Base(f), changes(out), out.Cost, out.Checks, n)
			}
			t.Logf("%s: %d fixed and checked (%d brute-forced), %d already correct, %d no fix, %d limits", r.glob, fixed, brute, correct, nofix, limits)
			if fixed+nofix == 0 {
				t.Errorf("no test of %s needed a fix among the %d scanned", r.glob, scan)
			}
		})
	}
}

// reachableTests lists the tests of the corpus (sorted) whose expected
// result under the architecture's model (litmus/expected/CSV.csv) is Ok:
// for an exists, a reachable condition, which a fix must forbid.
func reachableTests(t *testing.T, corpus, dir, csv string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, "litmus", "expected", csv+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		path, v, ok := strings.Cut(strings.TrimSpace(line), ",")
		if ok && v == "1" && strings.HasPrefix(path, dir+"/") {
			out = append(out, filepath.Join(corpus, "litmus", path))
		}
	}
	sort.Strings(out)
	return out
}
