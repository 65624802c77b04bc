package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConf(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.cat"), []byte("\"m\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.bell"), []byte("\"b\"\n"), 0o644)
	tests := []struct {
		name, text string
		err        string // "" or a part of the error
	}{
		{"good", "# comment\nmodel m.cat\nbell m.bell\nvariant a,b\ngraph columns\n", ""},
		{"missing model", "model m.cat\nbell nosuch.bell\n", "c.cfg:2: the bell file " + filepath.Join(dir, "nosuch.bell") + " cannot be read"},
		{"missing macros", "macros nosuch.def\n", "c.cfg:1: the macros file"},
		{"unknown key", "frobnicate 1\n", `c.cfg:1: unknown configuration key "frobnicate"`},
	}
	for _, tc := range tests {
		p := filepath.Join(dir, "c.cfg")
		os.WriteFile(p, []byte(tc.text), 0o644)
		c, err := ReadConf(p)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err == "" && (c.Model != filepath.Join(dir, "m.cat") || strings.Join(c.Variants, ",") != "a,b"):
			t.Errorf("%s: %+v", tc.name, c)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		}
	}
}
