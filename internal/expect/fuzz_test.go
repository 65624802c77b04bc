package expect

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead reads an expected-verdicts file and looks a path up in it:
// an error is fine, a panic is not.
func FuzzRead(f *testing.F) {
	f.Add("a/b/SB.litmus,1\n# c\nMP.litmus, 0\n", "x/a/b/SB.litmus")
	f.Add(",1\n", "")
	f.Add("/,0\n", "/")
	f.Fuzz(func(t *testing.T, text, path string) {
		file := filepath.Join(t.TempDir(), "e.txt")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := Read(file)
		if err != nil {
			return
		}
		tab.Lookup(path)
	})
}
