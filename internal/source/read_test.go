package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileErrors: a file that cannot be read is named first, as in
// "path: what is wrong" (robust5: "open path: permission denied" named
// the system call first), and the error still unwraps to the system's.
func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path, want string
		is               error
	}{
		{"missing", filepath.Join(dir, "nosuch.litmus"), "nosuch.litmus: no such file or directory", fs.ErrNotExist},
		{"folder", dir, dir + ": is a directory", nil},
		{"not a folder", filepath.Join(dir, "f", "x.litmus"), "f/x.litmus: not a directory", nil},
	} {
		if tc.name == "not a folder" {
			if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := ReadFile(tc.path)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, tc.path+": ") || !strings.HasSuffix(msg, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, msg, tc.want)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v is not %v", tc.name, err, tc.is)
		}
	}
	if FileError(nil) != nil {
		t.Error("FileError(nil) is not nil")
	}
}

// TestTrimBOM: ReadFile drops a leading UTF-8 byte order mark, and only a
// leading one.
func TestTrimBOM(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ in, want string }{
		{"\xef\xbb\xbfX86 SB\n", "X86 SB\n"},
		{"X86 SB\n", "X86 SB\n"},
		{"\xef\xbb\xbf", ""},
		{"\xef\xbb", "\xef\xbb"},
		{"a\xef\xbb\xbf", "a\xef\xbb\xbf"},
		{"\xef\xbb\xbf\xef\xbb\xbfx", "\xef\xbb\xbfx"},
		{"", ""},
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if got := string(TrimBOM([]byte(tc.in))); got != tc.want {
			t.Errorf("TrimBOM(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
