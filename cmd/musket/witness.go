package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
)

// witnessFiles names the -witness files of a run. With one test the file
// is the one given; with several, the test's name goes before ".dot"
// (w.dot: w.SB.dot), and a name seen before gets -2, -3, ... (w.SB-2.dot),
// so that two tests with the same name do not overwrite each other's
// file. Names are given in input order, so they do not depend on which
// test finishes first.
type witnessFiles struct {
	dir     string // -o DIR: the files are DIR/NAME.dot
	base    string
	several bool
	used    map[string]bool
}

// newOutFiles names the files of -o DIR as herd7 does: DIR/NAME.dot.
func newOutFiles(dir string) *witnessFiles {
	return &witnessFiles{dir: dir, several: true, used: map[string]bool{}}
}

func newWitnessFiles(base string, several bool) *witnessFiles {
	return &witnessFiles{base: base, several: several, used: map[string]bool{}}
}

// name is the file for the witness of the test called test.
func (w *witnessFiles) name(test string) string {
	if !w.several {
		return w.base
	}
	stem := strings.TrimSuffix(w.base, ".dot") + "." + safeFileName(test)
	if w.dir != "" {
		stem = filepath.Join(w.dir, safeFileName(test))
	}
	name := stem + ".dot"
	for k := 2; w.used[name]; k++ {
		name = fmt.Sprintf("%s-%d.dot", stem, k)
	}
	w.used[name] = true
	return name
}

// safeFileName keeps a test name usable as part of a file name: path
// separators and control characters become '_'.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == os.PathSeparator || r < ' ' {
			return '_'
		}
		return r
	}, s)
}

// writeDot writes execution x of the test or program called title to
// file name as Graphviz (-witness). The error names the file.
func writeDot(name, title string, x *result.Execution) error {
	return writeDotSteps(name, title, x, nil)
}

// writeDotSteps is writeDot with the steps of an explanation drawn on
// top (-explain).
func writeDotSteps(name, title string, x *result.Execution, steps []result.Step) error {
	f, err := createAtomic(name)
	if err != nil {
		return fmt.Errorf("cannot write the witness: %v", err)
	}
	if err := report.DotExplained(f, title, x, steps); err != nil {
		f.Abort()
		return fmt.Errorf("cannot write the witness: %v", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write the witness: %v", err)
	}
	return nil
}
