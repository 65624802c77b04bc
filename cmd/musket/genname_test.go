package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/ctxtest"
	"github.com/musket-verify/musket/internal/gen"
)

// TestGenLongCycle: the test of a cycle of 2000 edges is written (robust5:
// its name made a file name too long for the file system, exit 2), to a
// file whose name is cut and made unique by a digest; the test keeps its
// whole name.
func TestGenLongCycle(t *testing.T) {
	if got := testFile("MP"); got != "MP.litmus" {
		t.Errorf("testFile(MP) = %q", got)
	}
	a, b := testFile(strings.Repeat("RR+WW+", 100)+"A"), testFile(strings.Repeat("RR+WW+", 100)+"B")
	if a == b || len(a) > maxTestFile || len(b) > maxTestFile || !strings.HasSuffix(a, ".litmus") {
		t.Errorf("long names: %q, %q", a, b)
	}
	dir := t.TempDir()
	args := []string{"-arch", "AArch64", "-o", dir}
	for range 500 {
		args = append(args, "Rfe", "PodRR", "Fre", "PodWW")
	}
	var out, errb strings.Builder
	if code := runGen(args, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %.500s", code, errb.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.litmus"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	src, err := os.ReadFile(files[0])
	if err != nil || !strings.HasPrefix(string(src), "AArch64 "+strings.Repeat("RR+WW+", 100)) {
		t.Errorf("%v: %.200s", err, src)
	}
}

// TestGenWriteBounded: the writing of the tests found stops at the first
// look at its context that says it is done (robust5: 4117 tests found
// before -memory stopped the enumeration took 3.6 s more to write); the
// index lists exactly the tests written. No clock: the context counts.
func TestGenWriteBounded(t *testing.T) {
	a, err := gen.LookupArch("X86")
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.ExpandList("Rfe,Fre,PodWW,PodRR,PodWR,PodRW")
	if err != nil {
		t.Fatal(err)
	}
	tests, _, err := a.Enumerate(gen.Options{Relax: r, Size: 4, Procs: 2})
	if err != nil || len(tests) < 5 {
		t.Fatalf("%d tests, %v", len(tests), err)
	}
	for _, k := range []int{1, 2, 5, 0} {
		dir := t.TempDir()
		n, err := writeGenTests(ctxtest.After(k), tests, dir, "")
		want := k - 1
		if k == 0 {
			want = len(tests)
		}
		if err != nil || n != want {
			t.Fatalf("done at look %d: %d written, %v; want %d", k, n, err, want)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.litmus"))
		index, _ := os.ReadFile(filepath.Join(dir, "@all"))
		if lines := strings.Count(string(index), "\n"); len(files) != want || lines != want {
			t.Errorf("done at look %d: %d files, %d in the index; want %d", k, len(files), lines, want)
		}
	}
}
