package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
