package param

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sampleDigest summarises a sample: its states in order, with the step
// that first reached each one.
func sampleDigest(states [][]int64, parent []int, step []forwardStep) string {
	h := sha256.New()
	for i, st := range states {
		for _, v := range st {
			fmt.Fprint(h, v, ",")
		}
		if parent != nil {
			fmt.Fprint(h, parent[i], "|")
			if step[i].t != nil {
				fmt.Fprint(h, step[i].t.Name, step[i].args)
			}
		}
		fmt.Fprintln(h)
	}
	return fmt.Sprintf("%d %x", len(states), h.Sum(nil)[:8])
}

// TestExplorerGolden: the samples that the search uses (explore.go's
// for the approximation of systems without weak memory, wexplore.go's
// for the weak guesses) are those the two explorers made before they
// became one (testdata/explore_golden.txt, written by the code before
// the merge: MUSKET_GOLDEN_WRITE=1 rewrites it). Under MUSKET_LONG every
// corpus file; by default the small ones.
func TestExplorerGolden(t *testing.T) {
	golden := filepath.Join("testdata", "explore_golden.txt")
	want := map[string]string{}
	if f, err := os.Open(golden); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "\t"); ok {
				want[k] = v
			}
		}
		f.Close()
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.cub"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.cub"))
	files = append(files, more...)
	long := os.Getenv("MUSKET_LONG") != "" || os.Getenv("MUSKET_GOLDEN_WRITE") != ""
	got := map[string]string{}
	for _, file := range files {
		name, _ := filepath.Rel(corpusDir, file)
		name = filepath.ToSlash(name)
		if fi, err := os.Stat(file); err != nil || !long && fi.Size() > 700 {
			continue
		}
		sys, err := ParseFile(file)
		if err != nil {
			continue
		}
		switch {
		case explorable(sys):
			for n := int32(2); n <= 3; n++ {
				smp := newFinite(sys, n).sample(nil, 20000)
				got[fmt.Sprintf("%s sc %d", name, n)] = sampleDigest(smp.states, smp.parent, smp.step)
			}
		case weakExplorable(sys):
			if fin := weakInstance(sys); fin != nil {
				got[name+" weak"] = sampleDigest(fin.sample(nil).rows(), nil, nil)
			}
		}
	}
	if os.Getenv("MUSKET_GOLDEN_WRITE") != "" {
		var keys []string
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s\t%s\n", k, got[k])
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if len(got) == 0 {
		t.Fatalf("no corpus file in %s", corpusDir)
	}
	for k, v := range got {
		w, ok := want[k]
		if !ok {
			t.Errorf("%s: not in %s", k, golden)
		} else if v != w {
			t.Errorf("%s: sample %s, was %s", k, v, w)
		}
	}
}
