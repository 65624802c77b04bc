package cfront

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wildRow is one row of a new user's trial table (TestWild5, TestWild6,
// TestWild7): a program of the trial's folder with its -D settings and
// -I folders (under the trial's folder), the bound (0: 2), liveness, one
// verdict letter per cell (checkWildCell's; '-' skips the cell), the
// failing assertion's line when only one can fail, the error of an 'E'
// cell, whether the native run fails every time, and whether the row
// runs only with MUSKET_LONG=1 (seconds).
type wildRow struct {
	file     string
	defines  []string
	includes []string
	bound    int
	want     string
	line     int
	liveness bool
	native   bool
	long     bool
	err      string
}

// runWildRows runs the rows of the trial in testdata/dir over cells. By
// default the rows not marked long run one cell each, rc11 and sc by
// turns (the other when the row's turn is '-'), which keeps the default
// test run short; MUSKET_LONG=1 runs every cell and the native rows (a
// native run whose failure is certain, three times).
func runWildRows(t *testing.T, dir string, cells []struct{ model, target string }, rows []wildRow) {
	t.Helper()
	long := os.Getenv("MUSKET_LONG") == "1"
	turn := 0
	for _, c := range rows {
		if c.long && !long {
			continue
		}
		pick := defaultCell(cells, c.want, turn)
		turn++
		path := filepath.Join("testdata", dir, c.file)
		var includes []string
		for _, in := range c.includes {
			includes = append(includes, filepath.Join("testdata", dir, in))
		}
		if c.native && long {
			var extra []string
			for _, d := range c.defines {
				extra = append(extra, "-D"+d)
			}
			for _, in := range includes {
				extra = append(extra, "-I"+in)
			}
			for i := 0; i < 3; i++ {
				if got := runNative(t, path, extra...); got != Violation {
					t.Errorf("%s %v: native run: %v, want a failure (the test's expectation is wrong)", c.file, c.defines, got)
				}
			}
		}
		bound := c.bound
		if bound == 0 {
			bound = 2
		}
		for i, cell := range cells {
			w := c.want[i]
			if w == '-' || (!long && cell.model != pick) {
				continue
			}
			name := fmt.Sprintf("%s/%s/b%d/live=%v/%s", strings.TrimSuffix(c.file, ".c"), strings.Join(c.defines, ","), bound, c.liveness, cell.model)
			t.Run(name, func(t *testing.T) {
				races := cell.target == "" && (cell.model == "rc11" || cell.model == "imm")
				check := func(e string) (*Result, error) {
					return Check(context.Background(), path, CheckOptions{Bound: bound, Engine: e, Target: cell.target,
						Model: model(t, cell.model), ModelName: cell.model, Races: races, Liveness: c.liveness,
						Clang: ClangOptions{Defines: c.defines, Includes: includes}})
				}
				checkWildCell(t, w, c.err, c.line, check)
			})
		}
	}
}

// checkWildCell checks one cell of a new user's trial table (TestWild5,
// TestWild6): w is the expected verdict's letter (P pass, F fail, R
// race, B bound, L livelock, U no verdict for a mixed-size access, N no
// verdict for a program that frees heap objects (the SMT engine's
// refusal, memRefusal), E an error saying wantErr) and line, when not 0, the line of the assertion
// a FAIL must name. check runs the program with an engine; what the
// graph engine refuses is answered by the SMT engine, as -engine auto
// does.
func checkWildCell(t *testing.T, w byte, wantErr string, line int, check func(engine string) (*Result, error)) {
	t.Helper()
	r, err := check("graph")
	if w == 'E' {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one saying %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict == Unknown {
		if r, err = check("smt"); err != nil {
			t.Fatal(err)
		}
	}
	if w == 'U' {
		if r.Verdict != Unknown || !strings.Contains(fmt.Sprint(r.Result.Err), "mixed-size") {
			t.Fatalf("verdict %v (%v), want no verdict for a mixed-size access", r.Verdict, r.Result.Err)
		}
		return
	}
	if w == 'N' {
		if r.Verdict != Unknown || !strings.Contains(fmt.Sprint(r.Result.Err), "the graph engine decides it") {
			t.Fatalf("verdict %v (%v), want no verdict for a program that frees heap objects", r.Verdict, r.Result.Err)
		}
		return
	}
	want := map[byte]Verdict{'P': Safe, 'F': Violation, 'R': Race, 'B': BoundHit, 'L': Livelock}[w]
	if r.Verdict != want {
		t.Fatalf("verdict %v (%v), want %v", r.Verdict, r.Result.Err, want)
	}
	if want == Violation && line != 0 && (r.Failed == nil || r.Failed.Pos.Line != line) {
		t.Errorf("failed assertion %v, want line %d", r.Failed, line)
	}
}

// defaultCell is the model of the one cell a row runs by default: rc11
// on even turns and sc on odd ones, or the other of the two when the
// row does not check that one ('-').
func defaultCell(cells []struct{ model, target string }, want string, turn int) string {
	first, second := "rc11", "sc"
	if turn%2 == 1 {
		first, second = second, first
	}
	for _, m := range []string{first, second} {
		for i, cell := range cells {
			if cell.model == m && cell.target == "" && i < len(want) && want[i] != '-' {
				return m
			}
		}
	}
	return first
}
