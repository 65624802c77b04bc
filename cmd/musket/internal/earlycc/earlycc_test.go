package earlycc

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWanted(t *testing.T) {
	t.Setenv("MUSKET_CACHE", "")
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-no-cache", "p.c"}, true},
		{[]string{"-model", "rc11", "--no-cache=true", "dir/p.c"}, true},
		{[]string{"p.c"}, false},                       // the cache may hold it
		{[]string{"-no-cache", "t.litmus"}, false},     // not C
		{[]string{"-no-cache", "--", "p.c"}, false},    // after --: clang's flags
		{[]string{"-no-cache", "-include=x.c"}, false}, // a flag, not an operand
	} {
		if got := Wanted(tc.args); got != tc.want {
			t.Errorf("Wanted(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
	t.Setenv("MUSKET_CACHE", " OFF ")
	if !Wanted([]string{"p.c"}) {
		t.Error("MUSKET_CACHE=off: a C program is not compiled without the cache")
	}
}

func TestOffWord(t *testing.T) {
	for _, tc := range []struct {
		v           string
		empty, want bool
	}{
		{"off", false, true}, {" No\n", false, true}, {"FALSE", false, true}, {"0", false, true},
		{"", true, true}, {"", false, false}, {"  ", true, true}, {"on", true, false}, {"/usr/bin/musket-cc", true, false},
	} {
		if got := offWord(tc.v, tc.empty); got != tc.want {
			t.Errorf("offWord(%q, %v) = %v, want %v", tc.v, tc.empty, got, tc.want)
		}
	}
}

// TestFastFront: MUSKET_CC names the file, or turns it off; else PATH
// is searched (absolute folders only, as exec.LookPath).
func TestFastFront(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "musket-cc")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MUSKET_CC", p)
	if got := fastFront(); got != p {
		t.Errorf("MUSKET_CC=%s: %q", p, got)
	}
	t.Setenv("MUSKET_CC", "off")
	if got := fastFront(); got != "" {
		t.Errorf("MUSKET_CC=off: %q", got)
	}
	os.Unsetenv("MUSKET_CC")
	t.Setenv("PATH", "relative:"+dir+"/")
	if exe, _ := os.Executable(); filepath.Dir(exe) != dir {
		if got := fastFront(); got != p {
			t.Errorf("PATH=%s: %q, want %q", os.Getenv("PATH"), got, p)
		}
	}
}
