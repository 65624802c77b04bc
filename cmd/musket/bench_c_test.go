package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBenchCTable runs 'musket bench c' on a fake check function: the
// table marks the cells that differ from expected.csv, names errors and
// limits below it, and its exit status is the highest of its cells.
func TestBenchCTable(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"lock.c", "lock-bug.c", "extra.c"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	csv := "program,model,verdict\n" +
		"lock.c,rc11,safe\nlock.c,tso,safe\n" +
		"lock-bug.c,rc11,unsafe\nlock-bug.c,tso,safe\n"
	if err := os.WriteFile(filepath.Join(dir, "expected.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	// The answers of the fake checks, by program and column; a cell not
	// given is the expected verdict.
	type answers map[[2]string]cCell
	asExpected := func(prog, col string) cCell {
		switch {
		case prog == "lock-bug.c" && col == "rc11":
			return cCell{Verdict: cUnsafe, Time: 20 * time.Millisecond}
		default:
			return cCell{Verdict: cSafe, Time: 10 * time.Millisecond}
		}
	}
	tests := []struct {
		name    string
		args    []string
		answers answers
		code    int
		out     []string
		notOut  []string
	}{
		{name: "all as expected", args: []string{"-models", "rc11,tso"}, code: 0,
			out:    []string{"lock.c      safe 0.01s    safe 0.01s", "lock-bug.c  unsafe 0.02s", "extra.c rc11: no expected verdict"},
			notOut: []string{"safe!"}},
		{name: "a mismatch", args: []string{"-models", "rc11,tso"}, answers: answers{{"lock-bug.c", "tso"}: {Verdict: cUnsafe}}, code: 1,
			out: []string{"unsafe! 0.00s", "lock-bug.c tso: unsafe, expected safe"}},
		{name: "an error", args: []string{"-models", "rc11,tso"}, answers: answers{{"lock.c", "rc11"}: {Verdict: cError, Note: "lock.c:3:1: unsupported\nmore"}}, code: 2,
			out: []string{"error 0.00s", "lock.c rc11: lock.c:3:1: unsupported"}, notOut: []string{"more"}},
		{name: "a time-out beats a mismatch", args: []string{"-models", "rc11,tso", "-timeout", "2s"},
			answers: answers{{"lock.c", "tso"}: {Verdict: cTimeout, Time: 2 * time.Second}, {"lock-bug.c", "tso"}: {Verdict: cUnsafe}}, code: 3,
			out: []string{"timeout 2.00s", "lock.c tso: time limit reached (2s)", "slowest lock.c tso 2.00s"}},
		{name: "the bound", args: []string{"-models", "rc11"}, answers: answers{{"lock.c", "rc11"}: {Verdict: cLimit, Note: "the bound is too small"}}, code: 3,
			out: []string{"limit 0.00s", "lock.c rc11: the bound is too small"}},
		{name: "engines disagree", args: []string{"-models", "rc11"}, answers: answers{{"lock.c", "rc11"}: {Verdict: cDiffer}}, code: 4,
			out: []string{"lock.c rc11: the engines disagree"}},
		{name: "named programs only", args: []string{"-models", "tso", filepath.Join(dir, "lock.c")}, code: 0,
			out: []string{"lock.c   safe"}, notOut: []string{"lock-bug.c", "extra.c"}},
		{name: "unknown column", args: []string{"-models", "sc"}, code: 2},
		{name: "bad bound", args: []string{"-bound", "0"}, code: 2},
	}
	defer func(old func(string, cColumn, cCheckOptions) cCell) { benchCCheck = old }(benchCCheck)
	for _, tc := range tests {
		var calls []string
		benchCCheck = func(path string, col cColumn, o cCheckOptions) cCell {
			prog := filepath.Base(path)
			calls = append(calls, prog+" "+col.title)
			if o.bound != 2 || o.engine != "auto" {
				t.Errorf("%s: options %+v", tc.name, o)
			}
			if c, ok := tc.answers[[2]string{prog, col.title}]; ok {
				return c
			}
			return asExpected(prog, col.title)
		}
		var out, errb bytes.Buffer
		code := runBenchC(append([]string{"-dir", dir}, tc.args...), &out, &errb)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.code, out.String(), errb.String())
		}
		for _, s := range tc.out {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, s, out.String())
			}
		}
		for _, s := range tc.notOut {
			if strings.Contains(out.String(), s) {
				t.Errorf("%s: output has %q:\n%s", tc.name, s, out.String())
			}
		}
		// The programs of expected.csv come in its order, then the others.
		if tc.name == "all as expected" && strings.Join(calls, ",") != "lock.c rc11,lock.c tso,lock-bug.c rc11,lock-bug.c tso,extra.c rc11,extra.c tso" {
			t.Errorf("checks in order %v", calls)
		}
	}
}

// TestCellFromCheck reads the exit status and JSON of 'musket check' into
// a cell.
func TestCellFromCheck(t *testing.T) {
	tests := []struct {
		code    int
		out     string
		stderr  string
		verdict string
		time    time.Duration
		note    string
	}{
		// The time is the bench's (time.Second here), never the check's
		// own time_ms, which leaves the check's start-up out.
		{0, `{"file":"a.c","verdict":"UNREACHABLE","time_ms":250}` + "\n" + `{"summary":{}}`, "", cSafe, time.Second, ""},
		{1, `{"file":"a.c","verdict":"REACHABLE","time_ms":1500}`, "", cUnsafe, time.Second, ""},
		{3, `{"file":"a.c","verdict":"TIMEOUT","time_ms":10000}`, "", cTimeout, time.Second, ""},
		{3, `{"file":"a.c","verdict":"ERROR","status":"failed","error":"the bound is too small","time_ms":5}`, "", cLimit, time.Second, "the bound is too small"},
		{2, "", "a.c:1:1: unsupported: inline assembly\n", cError, time.Second, "a.c:1:1: unsupported: inline assembly"},
		{4, `{"file":"a.c","verdict":"DISAGREEMENT","error":"the engines disagree","time_ms":7}`, "", cDiffer, time.Second, "the engines disagree"},
	}
	for _, tc := range tests {
		c := cellFromCheck(tc.code, []byte(tc.out), tc.stderr, time.Second)
		if c.Verdict != tc.verdict || c.Time != tc.time || c.Note != tc.note {
			t.Errorf("exit %d %s: %+v, want %s %v %q", tc.code, tc.out, c, tc.verdict, tc.time, tc.note)
		}
	}
}

// TestCExpected reads expected.csv and refuses what it cannot use.
func TestCExpected(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		csv   string
		order string
		err   string
	}{
		{csv: "program,model,verdict\na.c,rc11,safe\nb.c,tso,unsafe\na.c,power,unsafe\n", order: "a.c,b.c"},
		{csv: "# comment\na.c,riscv,safe\n", order: "a.c"},
		{csv: "a.c,rc11,maybe\n", err: `:1: verdict "maybe"`},
		{csv: "a.c,sc,safe\n", err: `:1: unknown model "sc"`},
		{csv: "a.c,rc11,safe\na.c,rc11,unsafe\n", err: ":2: a.c under rc11 given twice"},
		{csv: "a.c,rc11\n", err: ":1: want program,model,verdict"},
	}
	for i, tc := range tests {
		p := filepath.Join(dir, "e.csv")
		if err := os.WriteFile(p, []byte(tc.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		_, order, err := cExpected(p)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%d: error %v, want %q", i, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(order, ",") != tc.order {
			t.Errorf("%d: order %v, error %v; want %s", i, order, err, tc.order)
		}
	}
}

// TestExpectedCSV checks the repository's examples/c/expected.csv: it
// reads, and gives each program of the folder a verdict under every
// column, each correct program safe everywhere.
func TestExpectedCSV(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "c")
	want, order, err := cExpected(filepath.Join(dir, "expected.csv"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	if len(files) != len(order) || len(files) < 18 {
		t.Errorf("%d programs, %d in expected.csv", len(files), len(order))
	}
	for _, f := range files {
		prog := filepath.Base(f)
		for _, c := range cColumns {
			v, ok := want[[2]string{prog, c.title}]
			if !ok {
				t.Errorf("%s under %s: no expected verdict", prog, c.title)
			}
			if !strings.HasSuffix(prog, "-bug.c") && v != cSafe {
				t.Errorf("%s under %s: %s, want safe", prog, c.title, v)
			}
		}
		if v := want[[2]string{prog, "rc11"}]; strings.HasSuffix(prog, "-bug.c") && v != cUnsafe && v != cRace {
			t.Errorf("%s: %s under rc11", prog, v)
		}
		for _, c := range cColumns {
			if v := want[[2]string{prog, c.title}]; v == cRace && c.model != "rc11" && c.model != "imm" {
				t.Errorf("%s under %s: race, where races are not reported", prog, c.title)
			}
		}
	}
}

// TestBenchCRealCheck runs the real check of a cell (musket check, as a
// process of its own and in-process) on a .pts program, message passing
// with relaxed accesses: safe on x86, unsafe on AArch64; a missing file
// is an error. Every cell is timed.
func TestBenchCRealCheck(t *testing.T) {
	// The test binary, started as the cell's process, runs musket.
	t.Setenv("MUSKET_TEST_AS_MAIN", "real")
	for _, inProcess := range []bool{false, true} {
		t.Run(fmt.Sprintf("inProcess=%v", inProcess), func(t *testing.T) {
			benchCRealCheck(t, cCheckOptions{bound: 2, timeout: time.Minute, engine: "smt", inProcess: inProcess})
		})
	}
}

func benchCRealCheck(t *testing.T, o cCheckOptions) {
	mp := filepath.Join("testdata", "bench_c", "mp.pts")
	tests := []struct {
		path, col, verdict string
	}{
		{mp, "tso", cSafe},
		{mp, "aarch64", cUnsafe},
		{filepath.Join("testdata", "bench_c", "missing.c"), "rc11", cError},
	}
	for _, tc := range tests {
		var col cColumn
		for _, c := range cColumns {
			if c.title == tc.col {
				col = c
			}
		}
		c := benchCCheck(tc.path, col, o)
		if c.Verdict != tc.verdict {
			t.Errorf("%s under %s: %+v, want %s", tc.path, tc.col, c, tc.verdict)
		}
		if c.Verdict == cError && c.Note == "" {
			t.Errorf("%s under %s: an error without a note", tc.path, tc.col)
		}
		if c.Time <= 0 {
			t.Errorf("%s under %s: time %v", tc.path, tc.col, c.Time)
		}
	}
}

// TestGenMCFigures checks the GenMC times recorded in the bench against
// the reference measurements they come from, when the reference folder
// is beside the repository.
func TestGenMCFigures(t *testing.T) {
	ref := filepath.Join("..", "..", "..", "shared", "reference", "genmc-0.10.3", "examples-c.csv")
	b, err := os.ReadFile(ref)
	if err != nil {
		t.Skipf("the reference measurements are not beside the repository: %v", err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, row := range rows[1:] {
		secs, err := strconv.ParseFloat(row[3], 64)
		if err != nil {
			t.Fatalf("%v: %v", row, err)
		}
		if got, ok := genmcFigures[[2]string{row[0], row[1]}]; !ok || got != secs {
			t.Errorf("%s under %s: recorded %v, reference %v", row[0], row[1], got, secs)
		}
		verdict := map[string]string{"PASS": cSafe, "FAIL(Safety violation)": cUnsafe, "FAIL(Non-atomic race)": cRace}[row[2]]
		if got := genmcVerdicts[[2]string{row[0], row[1]}]; verdict == "" || got != verdict {
			t.Errorf("%s under %s: GenMC's verdict recorded %q, reference %q", row[0], row[1], got, row[2])
		}
		seen++
	}
	if seen != len(genmcFigures) {
		t.Errorf("%d figures recorded, %d in the reference", len(genmcFigures), seen)
	}
}

// TestBenchCRowsAsTheyFinish: each program's row is handed on as soon as
// its cells are checked (on a terminal, bench c prints it then), in order.
func TestBenchCRowsAsTheyFinish(t *testing.T) {
	defer func(old func(string, cColumn, cCheckOptions) cCell) { benchCCheck = old }(benchCCheck)
	checked := 0
	benchCCheck = func(path string, col cColumn, o cCheckOptions) cCell {
		checked++
		return cCell{Verdict: cSafe, Time: 250 * time.Millisecond}
	}
	cols := []cColumn{{title: "rc11"}, {title: "imm"}}
	var lines []string
	o := cCheckOptions{rowDone: func(done, total int, row cRow) {
		if checked != 2*done {
			t.Errorf("row %d handed on after %d cells, want %d", done, checked, 2*done)
		}
		lines = append(lines, rowLine(done, total, cols, row))
	}}
	benchCTable([]string{"a.c", "b.c"}, cols, nil, o, func() bool { return false })
	want := []string{"[1/2] a.c: rc11 safe 0.25s, imm safe 0.25s", "[2/2] b.c: rc11 safe 0.25s, imm safe 0.25s"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
