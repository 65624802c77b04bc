package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad: built-in names and files load, with the bell and the include
// folders; a missing model is an error naming it.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	os.Mkdir(lib, 0o755)
	os.WriteFile(filepath.Join(lib, "mine.cat"), []byte("let mine = po\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.cat"), []byte("\"m\"\ninclude \"mine.cat\"\nacyclic mine as ok\n"), 0o644)
	bell := filepath.Join(dir, "b.bell")
	os.WriteFile(bell, []byte("\"b\"\nlet fromBell = po\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "usesbell.cat"), []byte("\"u\"\nacyclic fromBell as ok\n"), 0o644)
	cases := []struct {
		ms      Models
		spec    string
		wantErr string
	}{
		{Models{}, "tso", ""},
		{Models{}, "nosuchmodel", "nosuchmodel"},
		{Models{}, filepath.Join(dir, "missing.cat"), "missing.cat"},
		{Models{IncludeDirs: []string{lib}}, filepath.Join(dir, "m.cat"), ""},
		{Models{}, filepath.Join(dir, "m.cat"), "mine.cat"},
		{Models{Bell: bell}, filepath.Join(dir, "usesbell.cat"), ""},
	}
	for _, tc := range cases {
		m, name, err := tc.ms.Load(tc.spec)
		switch {
		case tc.wantErr == "" && (err != nil || m == nil || name != tc.spec):
			t.Errorf("%+v.Load(%s) = %v, %q, %v", tc.ms, tc.spec, m, name, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%+v.Load(%s): error %v, want one naming %s", tc.ms, tc.spec, err, tc.wantErr)
		}
	}
}

// TestDefaults: the model of an architecture and of a target comes from
// package arch unless one is given; SPARC's is TSO for every command.
func TestDefaults(t *testing.T) {
	for _, tc := range []struct{ arch, model string }{{"X86", "tso"}, {"SPARC", "tso"}, {"PPC", "power"}, {"MIPS", "mips"}, {"C", "c11"}} {
		if got, err := (Models{}).SpecFor(tc.arch); err != nil || got != tc.model {
			t.Errorf("SpecFor(%s) = %q, %v; want %s", tc.arch, got, err, tc.model)
		}
		if got, _ := (Models{Model: "sc"}).SpecFor(tc.arch); got != "sc" {
			t.Errorf("SpecFor(%s) with -model sc = %q", tc.arch, got)
		}
	}
	if _, err := (Models{}).SpecFor("Z80"); err == nil {
		t.Error("SpecFor(Z80): no error")
	}
	for _, tc := range []struct{ target, model string }{{"x86", "tso"}, {"power", "power"}, {"armv7", "armv7"}, {"aarch64", "aarch64"}, {"riscv", "riscv"}} {
		if _, name, err := (Models{}).ForTarget(tc.target); err != nil || name != tc.model {
			t.Errorf("ForTarget(%s) = %q, %v; want %s", tc.target, name, err, tc.model)
		}
	}
	if _, _, err := (Models{}).ForTarget("mips"); err == nil || !strings.Contains(err.Error(), "unknown target") {
		t.Errorf("ForTarget(mips): %v", err)
	}
	if _, name, err := (Models{Model: "sc"}).ForTarget("power"); err != nil || name != "sc" {
		t.Errorf("ForTarget(power) with -model sc = %q, %v", name, err)
	}
}

// TestApplyConf: the .cfg file fills what the flags left empty.
func TestApplyConf(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.cat"), []byte("\"m\"\n"), 0o644)
	cfg := filepath.Join(dir, "a.cfg")
	os.WriteFile(cfg, []byte("model m.cat\nvariant one,two\n"), 0o644)
	ms := Models{}
	if err := ms.ApplyConf(cfg, false); err != nil {
		t.Fatal(err)
	}
	if ms.Model != filepath.Join(dir, "m.cat") || !ms.Variants["one"] || !ms.Variants["two"] {
		t.Errorf("after the .cfg: %+v", ms)
	}
	ms = Models{Model: "sc", Variants: map[string]bool{"x": true}}
	if err := ms.ApplyConf(cfg, true); err != nil {
		t.Fatal(err)
	}
	if ms.Model != "sc" || len(ms.Variants) != 1 {
		t.Errorf("flags overridden by the .cfg: %+v", ms)
	}
}

// TestTestFiles: folders expand to their .litmus files in order; an empty
// folder is an error naming it.
func TestTestFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	for _, f := range []string{"b.litmus", "a.litmus", "notes.txt", "sub/c.litmus"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	got, err := TestFiles([]string{dir})
	want := []string{filepath.Join(dir, "a.litmus"), filepath.Join(dir, "b.litmus"), filepath.Join(sub, "c.litmus")}
	if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("TestFiles = %v, %v; want %v", got, err, want)
	}
	if _, err := TestFiles([]string{empty}); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("empty folder: %v", err)
	}
}

// TestCheck: a missing -macros file or a -model that does not load is
// an error before any test runs; no macros means the registered
// front-ends.
func TestCheck(t *testing.T) {
	for _, ms := range []Models{{Macros: "/nonexistent/x.def"}, {Model: "nosuchmodel"}} {
		if err := ms.Check(); err == nil {
			t.Errorf("%+v.Check(): no error", ms)
		}
	}
	if err := (Models{Model: "tso"}).Check(); err != nil {
		t.Errorf("tso: %v", err)
	}
	if fes, err := (Models{}).Frontends(); fes != nil || err != nil {
		t.Errorf("Frontends() without macros = %v, %v", fes, err)
	}
	if tags := Tags("X86"); len(tags) == 0 {
		t.Error("Tags(X86) is empty")
	}
	if tags := Tags("Z80"); tags != nil {
		t.Errorf("Tags(Z80) = %v", tags)
	}
}
