package cat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveModel(t *testing.T) {
	lib := t.TempDir()
	os.WriteFile(filepath.Join(lib, "mine.cat"), []byte("\"mine\"\nacyclic po | rf as sc\n"), 0o644)
	os.WriteFile(filepath.Join(lib, "x86tso.cat"), []byte("\"lib tso\"\nacyclic po as x\n"), 0o644)
	cases := []struct {
		spec    string
		libDirs []string
		path    string // want Path ending so
		builtin string
		note    string // want Note containing so
		err     string
	}{
		{"tso", nil, "", "tso", "", ""},
		{"x86tso.cat", nil, "", "tso", "herd7's library model", ""},
		{"ppc.cat", nil, "", "power", "built-in model power", ""},
		{"aarch64.cat", nil, "", "aarch64", "", ""},
		{"x86tso.cat", []string{lib}, "x86tso.cat", "", "library folder", ""},
		{"mine.cat", []string{t.TempDir(), lib}, "mine.cat", "", "library folder", ""},
		{"mine.cat", nil, "", "", "", "no such file"},
		{"./x86tso.cat", nil, "./x86tso.cat", "", "", ""},
		{"dir/m.cat", nil, "dir/m.cat", "", "", ""},
	}
	for _, c := range cases {
		r, err := ResolveModel(c.spec, c.libDirs)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.spec, err)
			continue
		}
		if r.Builtin != c.builtin || !strings.HasSuffix(r.Path, c.path) || (c.path == "") != (r.Path == "") || !strings.Contains(r.Note, c.note) {
			t.Errorf("%s %v: got %+v, want path %q builtin %q note %q", c.spec, c.libDirs, r, c.path, c.builtin, c.note)
		}
		if _, err := LoadResolved(r, LoadOptions{LibDirs: c.libDirs}); err != nil && r.Path != "dir/m.cat" && r.Path != "./x86tso.cat" {
			t.Errorf("%s: load: %v", c.spec, err)
		}
	}
}
