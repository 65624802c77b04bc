package litmus

import (
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// needCorpus skips the test when the shared corpus folder dir is missing,
// except under CI=true, where a missing corpus is a failure.
func needCorpus(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpus missing under CI: %v", err)
		}
		t.Skipf("corpus not found: %v", err)
	}
}

// condStart finds where the final condition (or the locations or filter
// clause) of a test starts: a cut before it loses the condition.
var condStart = regexp.MustCompile(`(?m)^[ \t]*(~[ \t]*exists|exists|forall|final|locations|filter|~[ \t]*\(|\()`)

// TestTruncated cuts real tests of every dialect at every line end and in
// the middle of every line: each cut either fails with a positioned error
// or, when it kept the start of the condition (or of the locations
// clause), parses. A cut file never passes as "forall (true)". Cuts after
// that point, byte by byte, give an error or a test of the same kind.
func TestTruncated(t *testing.T) {
	needCorpus(t, corpusLitmus)
	var files []string
	for _, dir := range []string{"X86", "PPC", "AARCH64/ATOM", "AARCH64/mixed", "RISCV", "C11/manual", "LKMM/manual"} {
		got, _ := filepath.Glob(filepath.Join(corpusLitmus, dir, "*.litmus"))
		sort.Strings(got)
		if len(got) > 12 {
			got = got[:12]
		}
		files = append(files, got...)
	}
	if len(files) < 40 {
		t.Fatalf("only %d corpus files", len(files))
	}
	cuts := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		full, err := Parse(f, src)
		if err != nil {
			continue // a test Musket does not read whole says nothing about cuts
		}
		loc := condStart.FindIndex(src)
		if loc == nil {
			t.Fatalf("%s: no condition found", f)
		}
		var at []int
		for i, c := range src {
			if c == '\n' && i < loc[0] {
				at = append(at, i, i+1)
			}
		}
		for i := 0; i+1 < len(at); i += 2 {
			if mid := (at[i] + at[i+1]) / 2; mid > 0 {
				at = append(at, mid)
			}
		}
		// and in the middle of every line, up to the condition
		prev := 0
		for i, c := range src[:loc[0]] {
			if c == '\n' {
				at = append(at, (prev+i)/2)
				prev = i + 1
			}
		}
		for _, k := range at {
			if k <= 0 || k >= loc[0] {
				continue
			}
			cuts++
			tst, err := Parse("cut.litmus", src[:k])
			if err == nil {
				t.Errorf("%s cut at byte %d (before the condition at %d) parses as %s %s:\n%s",
					f, k, loc[0], tst.Quant, spec.FormatCond(tst.Cond), lastLines(src[:k], 3))
				continue
			}
			if !strings.HasPrefix(err.Error(), "cut.litmus:") {
				t.Errorf("%s cut at %d: error without a position: %v", f, k, err)
			}
		}
		// Cuts in the part after the table, byte by byte: an error, or
		// the same kind of test (a cut after "exists" keeps an exists).
		for k := loc[0] + 1; k < len(src); k++ {
			cuts++
			tst, err := Parse("cut.litmus", src[:k])
			if err != nil {
				if !strings.HasPrefix(err.Error(), "cut.litmus:") {
					t.Errorf("%s cut at %d: error without a position: %v", f, k, err)
				}
				continue
			}
			if tst.Cond == nil || len(tst.Threads) != len(full.Threads) ||
				tst.Quant != full.Quant && !(full.Locations != nil && tst.Quant == spec.Forall) {
				t.Errorf("%s cut at byte %d parses as %s %s (the whole test: %s %s)",
					f, k, tst.Quant, spec.FormatCond(tst.Cond), full.Quant, spec.FormatCond(full.Cond))
			}
		}
	}
	t.Logf("%d files, %d cuts", len(files), cuts)
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(string(b), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
