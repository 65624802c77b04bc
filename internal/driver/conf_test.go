package driver

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/fuzzlimit"
)

func TestParseConf(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want *Conf
		err  string
	}{
		{src: "# c\nmodel m.cat\nbell\tb.bell\n  macros /abs/k.def\nvariant a, b,\ngraph columns\n",
			want: &Conf{Model: "d/m.cat", Bell: "d/b.bell", Macros: "/abs/k.def", Variants: []string{"a", "b"}}},
		{src: "", want: &Conf{}},
		{src: "hexa true\nsymetric sm\ndsiy 0.25\n", want: &Conf{Hexa: true}},
		{src: "hexa maybe\n", err: `d/x.cfg:1:6: hexa wants true or false, not "maybe"`},
		{src: "machsize Word\n", want: &Conf{MachSize: 4}},
		{src: "machsize quad\nmachsize byte\n", want: &Conf{MachSize: 1}},
		{src: "machsize big\n", err: `d/x.cfg:1:10: machsize wants byte, short, word or quad, not "big"`},
		{src: "model m.cat\n  colour red\n", err: `d/x.cfg:2:3: unknown configuration key "colour"`},
		{src: "model\n", err: "d/x.cfg:1:6: model needs a file name"},
		{src: "bell   \n", err: "d/x.cfg:1:5: bell needs a file name"},
		{src: "é\xffmodel", err: "d/x.cfg:1:2: invalid UTF-8 byte 0xff"},
		{src: "éè x\n", err: `d/x.cfg:1:1: unknown configuration key "éè"`},
	} {
		got, err := ParseConf("d/x.cfg", []byte(tc.src))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %s", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %+v, %v; want %+v", tc.src, got, err, tc.want)
		}
	}
}

// FuzzParseConf: any text gives a Conf or an error "file:line:col: ...",
// within a second, never a panic.
func FuzzParseConf(f *testing.F) {
	f.Add([]byte("macros k.def\nbell k.bell\nmodel k.cat\nvariant lkmmv2\ngraph columns\n"))
	f.Add([]byte("# comment\n\tmodel  x.cat \nunknown 1\n"))
	for _, p := range []string{"../../../shared/corpus/cat/herd/*.cfg", "../../../shared/corpus/cat/linux/*.cfg"} {
		files, _ := filepath.Glob(p)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var c *Conf
		var err error
		fuzzlimit.Within(t, time.Second, func() { c, err = ParseConf("f.cfg", src) })
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.cfg:") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if c == nil {
			t.Fatal("no Conf and no error")
		}
	})
}

func TestReadConf(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.cat"), []byte("\"m\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.bell"), []byte("\"b\"\n"), 0o644)
	tests := []struct {
		name, text string
		err        string // "" or a part of the error
	}{
		{"good", "# comment\nmodel m.cat\nbell m.bell\nvariant a,b\ngraph columns\n", ""},
		{"missing model", "model m.cat\nbell nosuch.bell\n", "c.cfg: the bell file " + filepath.Join(dir, "nosuch.bell") + " cannot be read"},
		{"missing macros", "macros nosuch.def\n", "c.cfg: the macros file"},
		{"unknown key", "frobnicate 1\n", `c.cfg:1:1: unknown configuration key "frobnicate"`},
		// herd's enslip.cfg reads apoil.cfg with "conf"; all.cfg has withbox.
		{"nested conf", "conf base.cfg\nbell m.bell\nwithbox true\nlabelbox true\n", ""},
		{"nested conf overridden", "model other.cat\nconf base.cfg\n", ""},
		{"nested conf missing", "conf nosuch.cfg\n", "c.cfg:1:6: conf nosuch.cfg: " + filepath.Join(dir, "nosuch.cfg") + ": no such file"},
		{"nested conf error", "conf bad.cfg\n", `bad.cfg:1:1: unknown configuration key "frobnicate"`},
		{"conf cycle", "conf loop.cfg\n", "loop.cfg:1:6: conf loop.cfg: configuration files nested more than 8 deep"},
	}
	os.WriteFile(filepath.Join(dir, "base.cfg"), []byte("model m.cat\nvariant a,b\ngraph columns\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.cfg"), []byte("frobnicate 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "loop.cfg"), []byte("conf loop.cfg\n"), 0o644)
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

// The herd7 variants of features Musket does not model are refused by
// name; the others (ASL, mixed, a model's own names) are accepted.
func TestUnmodelledVariants(t *testing.T) {
	for _, tc := range []struct {
		variants string
		err      string
	}{
		{"vmsa", "unsupported: variant vmsa (virtual memory"},
		{"ASL,ifetch", "unsupported: variant ifetch (instruction fetches"},
		{"MemTag", "unsupported: variant MemTag (memory tagging"},
		{"ASL,mixed,lkmmv2", ""},
	} {
		ms := Models{Variants: map[string]bool{}}
		for _, v := range strings.Split(tc.variants, ",") {
			ms.Variants[v] = true
		}
		err := ms.Check()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.variants, err, tc.err)
		}
	}
}
