package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAtomicFile: an output file appears whole when closed, not at all
// when aborted or when the process ends at a signal while writing it
// (removePendingTemps), and an older file of that name stays as it was
// until the new one is whole; no temporary file is left.
func TestAtomicFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(f *atomicFile) error
		want string // the file's text after; "-": no file
	}{
		{"closed", func(f *atomicFile) error { return f.Close() }, "new"},
		{"aborted", func(f *atomicFile) error { f.Abort(); return nil }, "-"},
		{"signal", func(f *atomicFile) error { removePendingTemps(); f.File.Close(); return nil }, "-"},
		{"closed over an older file", func(f *atomicFile) error { return f.Close() }, "new"},
		{"aborted over an older file", func(f *atomicFile) error { f.Abort(); return nil }, "old"},
	} {
		dir := t.TempDir()
		name := filepath.Join(dir, "w.dot")
		if tc.want == "old" || tc.name == "closed over an older file" {
			os.WriteFile(name, []byte("old"), 0o644)
		}
		f, err := createAtomic(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("new"))
		if b, err := os.ReadFile(name); err == nil && string(b) == "new" {
			t.Errorf("%s: the file has its new text before it is closed", tc.name)
		}
		if err := tc.end(f); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		b, err := os.ReadFile(name)
		switch {
		case tc.want == "-" && err == nil:
			t.Errorf("%s: a file %q is left", tc.name, b)
		case tc.want != "-" && string(b) != tc.want:
			t.Errorf("%s: the file has %q (%v), want %q", tc.name, b, err, tc.want)
		}
		if es, _ := os.ReadDir(dir); len(es) > 1 || len(es) == 1 && es[0].Name() != "w.dot" {
			t.Errorf("%s: files left: %v", tc.name, es)
		}
	}
	// A folder, or a folder that does not exist, is an error naming the file.
	for _, name := range []string{t.TempDir(), filepath.Join(t.TempDir(), "no", "w.dot")} {
		if _, err := createAtomic(name); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming it", name, err)
		}
	}
}
