package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRepoRoot(t *testing.T) {
	wd, _ := os.Getwd()
	root := repoRoot(wd)
	if root == "" || filepath.Base(wd) != "musket" || root != filepath.Dir(filepath.Dir(wd)) {
		t.Errorf("repoRoot(%s) = %q", wd, root)
	}
	if r := repoRoot(t.TempDir()); r != "" {
		t.Errorf("a temporary folder is in the repository %q", r)
	}
	if _, err := findCorpus(filepath.Join(t.TempDir(), "nosuch")); err == nil {
		t.Error("-corpus naming no folder is not an error")
	}
}

// TestBenchNeverClaimsTargetsOnErrors runs bench mutex where there are no
// programs: every cell is an error, and the targets are not claimed.
func TestBenchNeverClaimsTargetsOnErrors(t *testing.T) {
	tests := []struct {
		args   []string
		out    string
		errOut string
	}{
		{[]string{"bench", "mutex", "-targets", "x86", "-dir", t.TempDir()}, "not measured, 7 cells without an answer", "Parker.pts"},
		{[]string{"bench", "mutex", "-corpus", filepath.Join(t.TempDir(), "nosuch")}, "", "-corpus"},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		if code != exitBadInput || !strings.Contains(out.String(), tc.out) || strings.Contains(out.String(), ": met") || !strings.Contains(errb.String(), tc.errOut) {
			t.Errorf("%q: exit %d, stdout:\n%s\nstderr:\n%s", tc.args, code, out.String(), errb.String())
		}
	}
}
