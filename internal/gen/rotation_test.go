package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestCycleRotation checks the generated tests' Cycle= line against the
// corpus's: for every corpus test that diy 7.47 or later wrote (it has a
// Generator= line) and whose Cycle= line the generator reads, the test
// generated from any rotation of that cycle (here its Orig= line, else
// the Cycle= line turned by one edge) prints that Cycle= line. Tests of
// older diy7 versions are counted (their Cycle= is often the same), not
// checked. By default a sample of each folder; MUSKET_LONG=1 every test.
func TestCycleRotation(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "litmus")
	long := os.Getenv("MUSKET_LONG") != ""
	for _, s := range corpusSuites {
		t.Run(s.dir, func(t *testing.T) {
			checked, older, olderSame, k := 0, 0, 0, 0
			filepath.Walk(filepath.Join(root, s.dir), func(p string, info os.FileInfo, err error) error {
				if err != nil || !strings.HasSuffix(p, ".litmus") {
					return nil
				}
				if k++; !long && k%20 != 0 {
					return nil
				}
				archWord, cyc, _ := corpusHeader(p)
				if cyc == "" {
					return nil
				}
				a, err := LookupArch(archWord)
				if err != nil {
					return nil
				}
				words := strings.Fields(cyc)
				_, _, orig, _ := corpusCycle(p)
				if orig == "" {
					orig = strings.Join(append(words[1:], words[0]), " ")
				}
				es, err := a.ParseCycle(strings.Fields(orig))
				if err != nil {
					return nil
				}
				tt, err := Build(a, es)
				if err != nil {
					return nil
				}
				text := testText(t, tt)
				got := ""
				for _, l := range strings.Split(text, "\n") {
					if strings.HasPrefix(l, "Cycle=") {
						got = l[len("Cycle="):]
					}
				}
				src, _ := os.ReadFile(p)
				if !strings.Contains(string(src), "\nGenerator=") {
					older++
					if got == cyc {
						olderSame++
					}
					return nil
				}
				checked++
				if got != cyc {
					t.Errorf("%s: Cycle=%s, the generated test's Cycle=%s", p, cyc, got)
				}
				return nil
			})
			t.Logf("%s: %d tests of diy 7.47 or later, Cycle= line checked; %d of older diy7 versions, %d of them with the generated test's Cycle= line", s.dir, checked, older, olderSame)
		})
	}
}
