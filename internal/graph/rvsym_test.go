package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
)

// checkRV checks C program p under -target riscv with the graph engine
// (checkOnTarget).
func checkRV(t *testing.T, m *cat.Model, p *cfront.Program, noSym, classes bool) *cfront.Result {
	t.Helper()
	return checkOnTarget(t, "riscv", m, p, noSym, classes)
}

// TestRVSymmetry: under riscv the symmetry reduction (rvsym.go) changes
// no verdict, and the complete executions of a reduced run are exactly
// those of a full run counted up to the symmetry (each class once); it
// stays off where the threads are not copies of one another.
func TestRVSymmetry(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file  string
		want  cfront.Verdict
		sym   bool // graphs are left out
		asymm bool // no symmetric threads
	}{
		{"../cfront/testdata/sym_trylock.c", cfront.Safe, true, false},
		{"../cfront/testdata/sym_barrier.c", cfront.Safe, false, false},
		{"../cfront/testdata/sym_lost.c", cfront.Violation, false, false},
		{"../cfront/testdata/sym_args.c", cfront.Safe, false, true},
		{"testdata/immsym_args.c", cfront.Violation, false, true},
		{"testdata/immsym_consts.c", cfront.Violation, false, true},
		{"../../examples/c/ttas.c", cfront.Safe, true, false},
	}
	if os.Getenv("MUSKET_LONG") != "" {
		// (About 6 s: 1296 complete executions without the reduction.)
		cases = append(cases, struct {
			file  string
			want  cfront.Verdict
			sym   bool
			asymm bool
		}{"../cfront/testdata/sym_faa.c", cfront.Safe, true, false})
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			p := lowerARM(t, c.file)
			full := checkRV(t, m, p, true, true)
			red := checkRV(t, m, p, false, true)
			compareSymRuns(t, full, red, c.want, c.sym, c.asymm)
		})
	}
}

// TestRVNoSym: MUSKET_RV_NOSYM=1 turns the reduction off under riscv
// (rvSymOff), with the same verdict.
func TestRVNoSym(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	p := lowerARM(t, "../cfront/testdata/sym_trylock.c")
	on := checkRV(t, m, p, false, false)
	t.Setenv("MUSKET_RV_NOSYM", "1")
	off := checkRV(t, m, p, false, false)
	if on.Verdict != cfront.Safe || off.Verdict != cfront.Safe || on.Graph.SymPruned == 0 || off.Graph.SymPruned != 0 || off.Graph.Complete != 21 {
		t.Errorf("with the reduction: %v, %d complete, %d left out; MUSKET_RV_NOSYM: %v, %d complete, %d left out",
			on.Verdict, on.Graph.Complete, on.Graph.SymPruned, off.Verdict, off.Graph.Complete, off.Graph.SymPruned)
	}
}

// TestRVSymmetryAll: TestRVSymmetry's comparison on three programs the
// reduction shrinks, and with MUSKET_LONG=1 on every C program of
// examples/c, cfront's testdata (with its folders) and cmd/musket's
// testdata but ttas3.c, ttas4.c and cw4/fetchops.c (tens of seconds or
// more without the reduction): the same verdict both ways, and where
// the reduced run is safe and kept the reduction, its complete
// executions are the full run's classes.
func TestRVSymmetryAll(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("riscv")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../../examples/c/ticket.c", "../cfront/testdata/create_loop.c", "../cfront/testdata/sem/sv_atomic.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = nil
		for _, g := range []string{"../../examples/c/*.c", "../cfront/testdata/*.c", "../cfront/testdata/*/*.c", "../../cmd/musket/testdata/*.c", "../../cmd/musket/testdata/*/*.c"} {
			more, _ := filepath.Glob(g)
			files = append(files, more...)
		}
	}
	for _, f := range files {
		if b := filepath.Base(f); b == "ttas3.c" || b == "ttas4.c" || b == "fetchops.c" {
			continue
		}
		t.Run(f, func(t *testing.T) {
			p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
			if err != nil {
				t.Logf("not lowered: %v", err) // (the globs take every program)
				return
			}
			run := func(noSym bool) (*cfront.Result, error) {
				return cfront.CheckProgram(context.Background(), p, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: "riscv", Model: m, ModelName: "riscv",
					GraphNoSymmetry: noSym, GraphCountClasses: true})
			}
			full, err := run(true)
			if err != nil {
				t.Logf("not checked: %v", err) // (an assembly fence of another target)
				return
			}
			red, err := run(false)
			if err != nil {
				t.Fatalf("not checked with the symmetry: %v", err)
			}
			if full.Verdict != red.Verdict {
				t.Fatalf("verdict %v with the symmetry, %v without", red.Verdict, full.Verdict)
			}
			if full.Graph == nil || red.Graph == nil {
				t.Logf("%v: not decided by the graph engine", red.Verdict)
				return
			}
			fs, rs := full.Graph, red.Graph
			if red.Verdict == cfront.Safe && !rs.SymOff && fs.Classes > 0 && (rs.Complete != fs.Classes || rs.Classes != rs.Complete) {
				t.Errorf("reduced: %d complete (%d classes); full: %d complete in %d classes", rs.Complete, rs.Classes, fs.Complete, fs.Classes)
			}
			t.Logf("%v: %d complete, %d left out, given up %v; without: %d complete in %d classes", red.Verdict, rs.Complete, rs.SymPruned, rs.SymOff, fs.Complete, fs.Classes)
		})
	}
}
