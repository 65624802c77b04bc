package expect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "e.csv")
	os.WriteFile(file, []byte("X86/SB.litmus,1\nX86/MP.litmus,0\nPPC/SB.litmus,0\n\n# comment\n"), 0o644)
	tab, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path      string
		ok, found bool
	}{
		{"../shared/corpus/litmus/X86/SB.litmus", true, true},
		{"X86/MP.litmus", false, true},
		{"/a/PPC/SB.litmus", false, true},
		{"/a/XX86/SB.litmus", false, false}, // suffix must start at a '/'
		{"/a/X86/LB.litmus", false, false},
	}
	for _, tc := range tests {
		ok, found := tab.Lookup(tc.path)
		if ok != tc.ok || found != tc.found {
			t.Errorf("%s: got (%v,%v), want (%v,%v)", tc.path, ok, found, tc.ok, tc.found)
		}
	}
}

func TestBadLines(t *testing.T) {
	tests := []struct{ src, want string }{
		{"X86/SB.litmus\n", "e.csv:1:1: expected PATH,0 or PATH,1"},
		{"a,1\nX86/SB.litmus,2\n", "e.csv:2:15: verdict must be 0 or 1"},
		// A line longer than the scanner's buffer: the error named no
		// file, then said "bufio.Scanner: token too long" (robust7).
		{"a,1\n" + strings.Repeat("x", 2<<20) + ",1\n", "e.csv:2:1: a line longer than 1 MiB: not a CSV of expected verdicts"},
		// A leading byte order mark is no part of the first path
		// (robust7: the row was missed).
		{"\xef\xbb\xbfX86/SB.litmus\n", "e.csv:1:1: expected PATH,0 or PATH,1"},
		// A folder: the file's error, not a line's ("e.csv:1:1: read
		// e.csv: is a directory").
		{"", "e.csv: is a directory"},
	}
	for _, tc := range tests {
		file := filepath.Join(t.TempDir(), "e.csv")
		if tc.src == "" {
			os.Mkdir(file, 0o755)
		} else {
			os.WriteFile(file, []byte(tc.src), 0o644)
		}
		_, err := Read(file)
		if err == nil || !strings.Contains(err.Error(), tc.want) || tc.src == "" && err.Error() != file+tc.want[len("e.csv"):] {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}
