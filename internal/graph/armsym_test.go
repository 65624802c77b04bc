package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// checkARM checks C program p under -target aarch64 with the graph
// engine; noSym turns the symmetry reduction off, classes counts the
// classes of complete executions.
func checkARM(t *testing.T, m *cat.Model, p *cfront.Program, noSym, classes bool) *cfront.Result {
	t.Helper()
	return checkOnTarget(t, "aarch64", m, p, noSym, classes)
}

// checkOnTarget checks C program p compiled for target (whose built-in
// model m is) with the graph engine, as checkARM does.
func checkOnTarget(t *testing.T, target string, m *cat.Model, p *cfront.Program, noSym, classes bool) *cfront.Result {
	t.Helper()
	r, err := cfront.CheckProgram(context.Background(), p, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: target, Model: m, ModelName: target,
		GraphNoSymmetry: noSym, GraphCountClasses: classes})
	if err != nil {
		t.Fatal(err)
	}
	if r.Graph == nil {
		t.Fatalf("no graph statistics: %v %v", r.Verdict, r.Result.Err)
	}
	return r
}

func lowerARM(t *testing.T, f string) *cfront.Program {
	t.Helper()
	p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestARMSymmetry: under aarch64 the symmetry reduction (armsym.go)
// changes no verdict, and the complete executions of a reduced run are
// exactly those of a full run counted up to the symmetry (each class
// once); it stays off where the threads are not copies of one another.
func TestARMSymmetry(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("aarch64")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
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
		{"../../examples/c/ttas.c", cfront.Safe, false, false},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			p := lowerARM(t, c.file)
			full := checkARM(t, m, p, true, true)
			red := checkARM(t, m, p, false, true)
			compareSymRuns(t, full, red, c.want, c.sym, c.asymm)
		})
	}
}

// TestARMNativeCrossCheck runs C programs under -target aarch64 with
// Options.CrossCheck: the native check (armnative.go) and aarch64.cat
// must agree on every graph built, the symmetry reduction on.
// MUSKET_LONG=1: every program of examples/c and of cfront's testdata
// (with cw3 and sem) but ttas4.c.
func TestARMNativeCrossCheck(t *testing.T) {
	crossCheckCPrograms(t, "aarch64", 0, []string{"../../examples/c/treiber.c", "../../examples/c/rwlock-bug.c", "../../examples/c/seqlock.c",
		"../../examples/c/msqueue.c", "../cfront/testdata/sym_trylock.c", "../cfront/testdata/spinlock_rlx.c",
		"../cfront/testdata/cw3/acqrel_mid.c"}, // (an exclusive pair A/L, not an amo)
		[]string{"../cfront/testdata/*.c", "../cfront/testdata/cw3/*.c", "../cfront/testdata/sem/*.c"})
}

// crossCheckCPrograms runs C programs under -target target with the
// graph engine's cross-check (GraphCrossCheck): the native check and the
// target's CAT model must agree on every graph built. files are the
// default programs; MUSKET_LONG=1 takes every program of examples/c and
// of the globs but ttas4.c. limit, when not 0, bounds each program's run.
func crossCheckCPrograms(t *testing.T, target string, limit time.Duration, files, longGlobs []string) {
	needClang(t)
	m, err := cat.LoadBuiltin(target)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		for _, g := range longGlobs {
			more, _ := filepath.Glob(g)
			files = append(files, more...)
		}
		files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "ttas4.c" })
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
			if err != nil {
				t.Logf("not lowered: %v", err) // (MUSKET_LONG's globs take every program)
				return
			}
			ctx := context.Background()
			if limit > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, limit)
				defer cancel()
			}
			r, err := cfront.CheckProgram(ctx, p, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: target, Model: m, ModelName: target,
				GraphCrossCheck: true})
			if err != nil {
				t.Logf("not checked: %v", err)
				return
			}
			if r.Result != nil && r.Result.Status == result.Failed {
				t.Fatalf("%v", r.Result.Err) // the two checks differ
			}
			if r.Result != nil && r.Result.Status != result.Done {
				t.Logf("%s: %v", r.Result.Status, r.Result.Err)
				return
			}
			if r.Graph == nil {
				t.Fatalf("%v: no graph statistics", r.Verdict)
			}
			t.Logf("%v: %d complete, %d blocked, %d graphs", r.Verdict, r.Graph.Complete, r.Graph.Blocked, r.Graph.Graphs)
		})
	}
}

// compareSymRuns checks a run with the symmetry reduction (red) against
// one without (full): the same verdict (want), no reduction without it,
// a reduction where sym says the program has one, none where asymm says
// its threads are not symmetric, and on a safe program one complete
// execution per class of the full run (shared by the ARMv8 and RISC-V
// symmetry tests).
func compareSymRuns(t *testing.T, full, red *cfront.Result, want cfront.Verdict, sym, asymm bool) {
	t.Helper()
	if full.Verdict != want || red.Verdict != want {
		t.Fatalf("verdict %v with the symmetry, %v without; want %v (%v)", red.Verdict, full.Verdict, want, red.Result.Err)
	}
	fs, rs := full.Graph, red.Graph
	if fs.SymPruned != 0 {
		t.Errorf("reduced with the symmetry off: %d", fs.SymPruned)
	}
	if sym && rs.SymPruned == 0 {
		t.Errorf("not reduced")
	}
	if asymm && (rs.SymPruned != 0 || rs.Complete != fs.Complete || rs.Blocked != fs.Blocked) {
		t.Errorf("not symmetric, yet: %d graphs left out, %d complete; without: %d complete", rs.SymPruned, rs.Complete, fs.Complete)
	}
	if want == cfront.Safe && !rs.SymOff && fs.Classes > 0 && (rs.Complete != fs.Classes || rs.Classes != rs.Complete || rs.Blocked > fs.Blocked) {
		t.Errorf("reduced: %d complete (%d classes), %d blocked; full: %d complete in %d classes, %d blocked",
			rs.Complete, rs.Classes, rs.Blocked, fs.Complete, fs.Classes, fs.Blocked)
	}
	t.Logf("%v: %d complete (%d classes), %d blocked, %d graphs, %d left out, given up %v; without: %d complete in %d classes, %d blocked, %d graphs",
		red.Verdict, rs.Complete, rs.Classes, rs.Blocked, rs.Graphs, rs.SymPruned, rs.SymOff, fs.Complete, fs.Classes, fs.Blocked, fs.Graphs)
}
