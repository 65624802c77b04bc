package graph

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/spec"
)

// corpusTest is a litmus test of the corpus, parsed, with the tag names
// of its architecture.
type corpusTest struct {
	path string
	t    *spec.Test
	tags []string
}

// corpusSample parses the tests of a folder of the corpus (glob, sorted).
// The default run keeps at most max of them: the first ones, or, with
// spread, max tests spread over the folder; MUSKET_LONG=1 keeps all.
// Tests in a dialect the parser refuses are left out.
func corpusSample(t *testing.T, dir, glob string, max int, spread bool) []corpusTest {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, glob))
	sort.Strings(files)
	if os.Getenv("MUSKET_LONG") == "" && len(files) > max {
		if spread {
			var pick []string
			for i := 0; i < max; i++ {
				pick = append(pick, files[i*len(files)/max])
			}
			files = pick
		} else {
			files = files[:max]
		}
	}
	var out []corpusTest
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := litmus.Parse(f, src)
		if err != nil {
			continue // a dialect these tests do not need
		}
		var tags []string
		if fe, _ := litmus.Lookup(lt.Arch); fe != nil {
			tags = fe.Tags()
		}
		out = append(out, corpusTest{path: f, t: lt, tags: tags})
	}
	return out
}
