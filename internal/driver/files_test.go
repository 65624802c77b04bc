package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexFileByName reads DIR/@all, an index file named as diy7 and
// musket gen name them, given as a path without a leading '@'; and as
// @DIR/@all.
func TestIndexFileByName(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.litmus", "a.litmus"} {
		os.WriteFile(filepath.Join(dir, n), []byte("X86 T\n"), 0o644)
	}
	index := filepath.Join(dir, "@all")
	os.WriteFile(index, []byte("b.litmus\na.litmus\n"), 0o644)
	for _, op := range []string{index, "@" + index} {
		got, err := Files([]string{op})
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(dir, "b.litmus") + " " + filepath.Join(dir, "a.litmus")
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %v, want %s", op, got, want)
		}
	}
}
