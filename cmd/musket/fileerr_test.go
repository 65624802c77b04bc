package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileErrorWords: a file that is missing or cannot be read is said
// "PATH: what is wrong", as robust5 made it for the other inputs: a C
// program's was "stat x.c: no such file or directory", and an unreadable
// one "clang rejects the program: error: error reading 'x.c'"; a missing
// or unreadable folder given to litmus was "stat DIR: ..." or "open DIR:
// permission denied" (robust7). The unreadable rows are checked when the
// test does not run as root (root reads any file).
func TestFileErrorWords(t *testing.T) {
	dir := t.TempDir()
	missingC := filepath.Join(dir, "missing.c")
	missingDir := filepath.Join(dir, "nodir") + "/"
	closedC := filepath.Join(dir, "closed.c")
	os.WriteFile(closedC, []byte("int main(void) { return 0; }\n"), 0o000)
	closedDir := filepath.Join(dir, "closed")
	os.Mkdir(closedDir, 0o000)
	t.Cleanup(func() { os.Chmod(closedDir, 0o755) })
	tests := []struct {
		args []string
		want string
		root bool // also as root
	}{
		{[]string{"check", missingC}, "musket check: " + missingC + ": no such file or directory\n", true},
		{[]string{"check", "-engine", "smt", missingC}, "musket check: " + missingC + ": no such file or directory\n", true},
		{[]string{"litmus", missingDir}, "musket litmus: " + missingDir + ": no such file or directory\n", true},
		{[]string{"check", closedC}, "musket check: " + closedC + ": permission denied\n", false},
		{[]string{"litmus", closedDir}, "musket litmus: " + closedDir + ": permission denied\n", false},
	}
	for _, tc := range tests {
		if !tc.root && os.Geteuid() == 0 {
			continue
		}
		var out, errOut strings.Builder
		code := dispatch(tc.args, &out, &errOut)
		if code != exitBadInput || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, errOut.String(), exitBadInput, tc.want)
		}
	}
}
