package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCMutex checks the programs of testdata/cmx, written for what
// real programs use and Musket refused before: recursive and
// error-checking mutexes (rmutex, errchk, mixkind: mutexkind.go),
// atexit handlers and destructors (exit_hooks, atexit_more: ctors.go),
// and the string functions, rand_r and sprintf/snprintf of the C
// library (strwork, fmt_log: strfuncs.go, sprintf.go). Each file's comment argues its verdicts. A row's want
// string has one letter per cell of wild4Cells (rc11 imm sc x86 aarch64
// power riscv), as TestWild7's: P pass, F an assertion fails, R a data
// race, B the bound is reached, L a thread waits forever (with
// liveness), - not checked (power: the SMT engine's time, more than
// 30 s of wall time under load 20-28 on the mutex and string programs). By
// default the rc11 or sc cell (by turns) of the rows not marked long run;
// MUSKET_LONG=1 runs every cell and the native rows.
func TestCMutex(t *testing.T) {
	needClang(t)
	runWildRows(t, "cmx", wild4Cells, []wildRow{
		// Recursive mutexes: pthread attribute, glibc's static
		// initializer, C11's mtx_recursive (natively 0/200 each).
		{file: "rmutex.c", want: "PPPPP-P"},
		{file: "rmutex.c", defines: []string{"STATIC"}, want: "PPPPP-P"},
		{file: "rmutex.c", defines: []string{"C11"}, want: "PPPPP-P"},
		{file: "rmutex.c", defines: []string{"BUG"}, want: "RRFFF-F", line: 79},
		// One lock left: the other worker waits forever (natively it
		// hangs); a verdict only with -liveness.
		{file: "rmutex.c", defines: []string{"COUNT"}, want: "PPPPP-P"},
		{file: "rmutex.c", defines: []string{"COUNT"}, liveness: true, want: "LLLLL-L"},
		// Error-checking mutexes: EDEADLK, EBUSY, EPERM.
		{file: "errchk.c", want: "PPPPP-P"},
		{file: "errchk.c", defines: []string{"BUG"}, want: "FFFFF-F", line: 22, native: true},
		{file: "errchk.c", defines: []string{"BUG2"}, want: "RRFFF-F"},
		// A recursive and a normal mutex in one program.
		{file: "mixkind.c", want: "PPPPP-P"},
		{file: "mixkind.c", defines: []string{"RELOCK"}, want: "PPPPP-P"},
		{file: "mixkind.c", defines: []string{"RELOCK"}, liveness: true, want: "LLLLL-L"},
		// Unlock of a normal mutex main does not hold: released, as
		// glibc does (not reported: mutexkind.go), so the workers'
		// updates of stats may meet.
		{file: "mixkind.c", defines: []string{"BADUNLOCK"}, want: "RRFFF-F", line: 61},
		// atexit handlers, then destructors by priority.
		{file: "exit_hooks.c", want: "PPPPPPP"},
		{file: "exit_hooks.c", defines: []string{"EXIT"}, want: "PPPPPPP"},
		{file: "exit_hooks.c", defines: []string{"BUG_ORDER"}, want: "FFFFFFF", line: 39, native: true},
		{file: "exit_hooks.c", defines: []string{"BUG_ORDER", "QUICK"}, want: "PPPPPPP"},
		{file: "exit_hooks.c", defines: []string{"BUG_DTOR"}, want: "FFFFFFF", line: 62, native: true},
		{file: "exit_hooks.c", defines: []string{"NOJOIN"}, want: "RRFFFFF"},
		// atexit from a constructor and in a loop.
		{file: "atexit_more.c", want: "PPPPPPP"},
		{file: "atexit_more.c", defines: []string{"NSLOT=5"}, want: "BBBBBBB"},
		{file: "atexit_more.c", defines: []string{"NSLOT=5"}, bound: 4, want: "PPPPPPP", long: true},
		{file: "atexit_more.c", defines: []string{"BUG"}, want: "FFFFFFF", line: 35, native: true},
		// String functions and rand_r.
		{file: "strwork.c", want: "PPPPP-P"},
		{file: "strwork.c", defines: []string{"BUG"}, want: "RRFFF-F"},
		{file: "strwork.c", defines: []string{"BUG2"}, want: "RRFFF-F", line: 68},
		// sprintf and snprintf (truncation, %d %u %x %c %s).
		{file: "fmt_log.c", want: "PPPPPPP"},
		{file: "fmt_log.c", defines: []string{"BUG"}, want: "FFFFF-F", line: 39, native: true},
		{file: "fmt_log.c", defines: []string{"BUG2"}, want: "RRFFF-F"},
	})
}

// TestCMutexSMT checks the sc and rc11 cells of TestCMutex's rows with
// the SMT engine too (the graph engine answers them in TestCMutex):
// both engines must give the row's verdict. By default the sc cells of
// three rows; MUSKET_LONG=1 every row (the SMT engine takes seconds on
// some).
func TestCMutexSMT(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	rows := []struct {
		file    string
		defines []string
		want    string // rc11, sc
	}{
		{"rmutex.c", nil, "PP"}, {"rmutex.c", []string{"BUG"}, "RF"}, {"rmutex.c", []string{"C11"}, "PP"},
		{"errchk.c", nil, "PP"}, {"errchk.c", []string{"BUG"}, "FF"}, {"errchk.c", []string{"BUG2"}, "RF"},
		{"mixkind.c", nil, "PP"}, {"mixkind.c", []string{"BADUNLOCK"}, "RF"},
		{"exit_hooks.c", nil, "PP"}, {"exit_hooks.c", []string{"BUG_ORDER"}, "FF"}, {"exit_hooks.c", []string{"NOJOIN"}, "RF"},
		{"atexit_more.c", nil, "PP"}, {"atexit_more.c", []string{"BUG"}, "FF"},
		// strwork's string loops: the SMT engine took more than 10 s
		// of CPU time on its sc cells; left to the graph engine.
	}
	for k, r := range rows {
		if !long && k != 0 && k != 4 && k != 9 {
			continue
		}
		for i, m := range []string{"rc11", "sc"} {
			if !long && m != "sc" {
				continue
			}
			t.Run(strings.TrimSuffix(r.file, ".c")+"/"+strings.Join(r.defines, ",")+"/"+m, func(t *testing.T) {
				res, err := Check(context.Background(), filepath.Join("testdata", "cmx", r.file), CheckOptions{Bound: 2, Engine: "smt",
					Model: model(t, m), ModelName: m, Races: m == "rc11", Clang: ClangOptions{Defines: r.defines}})
				if err != nil {
					t.Fatal(err)
				}
				want := map[byte]Verdict{'P': Safe, 'F': Violation, 'R': Race}[r.want[i]]
				if res.Verdict != want {
					t.Fatalf("SMT engine: verdict %v (%v), want %v", res.Verdict, res.Result.Err, want)
				}
			})
		}
	}
}
