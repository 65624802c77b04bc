package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
)

// checkIMM checks C program f under imm with the graph engine; off turns
// the IMM reductions off (MUSKET_IMM_NOREDUCE), noSym the symmetry only,
// noPrune the stale-read pruning only.
func checkIMM(t *testing.T, m *cat.Model, p *cfront.Program, off, noSym, noPrune, classes bool) *cfront.Result {
	t.Helper()
	if off {
		t.Setenv("MUSKET_IMM_NOREDUCE", "1")
	} else {
		t.Setenv("MUSKET_IMM_NOREDUCE", "")
	}
	r, err := cfront.CheckProgram(context.Background(), p, cfront.CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "imm",
		Races: true, GraphNoSymmetry: noSym, GraphNoPrune: noPrune, GraphCountClasses: classes})
	if err != nil {
		t.Fatal(err)
	}
	if r.Graph == nil && r.Verdict == cfront.Unknown && r.Result != nil && r.Result.Err != nil {
		// A program no engine checks under imm (the Linux kernel's
		// primitives, which only the kernel's model gives a meaning).
		t.Skipf("refused under imm: %v", r.Result.Err)
	}
	if r.Graph == nil {
		t.Fatalf("no graph statistics: %v %v", r.Verdict, r.Result.Err)
	}
	return r
}

func lowerC(t *testing.T, f string) *cfront.Program {
	t.Helper()
	p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIMMReductionsVerdicts: under imm, the symmetry reduction and the
// stale-read pruning (immsym.go) change no verdict, reduce where the
// threads are copies of one another or spin, and stay off where threads
// run one function with different arguments or functions differing in a
// constant; a symmetric program's bug is found with them.
func TestIMMReductionsVerdicts(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	type tc struct {
		file   string
		want   cfront.Verdict
		sym    bool // the symmetry reduction leaves graphs out
		pruned bool // stale reads are pruned
		asymm  bool // no symmetric threads: the counts are the same with and without
	}
	long := []tc(nil)
	if os.Getenv("MUSKET_LONG") != "" {
		long = []tc{{file: "../cfront/testdata/ttas3.c", want: cfront.Safe, sym: true, pruned: true}}
	}
	for _, c := range append(long, []tc{
		{file: "../cfront/testdata/sym_lost.c", want: cfront.Violation},
		{file: "../cfront/testdata/sym_trylock.c", want: cfront.Safe, sym: true},
		{file: "../cfront/testdata/spinlock.c", want: cfront.Safe, pruned: true},
		{file: "../cfront/testdata/sym_args.c", want: cfront.Safe, asymm: true},
		{file: "../cfront/testdata/spin_bug.c", want: cfront.Violation},
		{file: "../../examples/c/ttas-bug.c", want: cfront.Race},
		{file: "testdata/immsym_args.c", want: cfront.Violation, asymm: true},
		{file: "testdata/immsym_consts.c", want: cfront.Violation, asymm: true},
	}...) {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			p := lowerC(t, c.file)
			on := checkIMM(t, m, p, false, false, false, false)
			off := checkIMM(t, m, p, true, false, false, false)
			if on.Verdict != c.want || off.Verdict != c.want {
				t.Fatalf("verdict %v with the reductions, %v without; want %v", on.Verdict, off.Verdict, c.want)
			}
			rs, fs := on.Graph, off.Graph
			if c.sym && rs.SymPruned == 0 || c.pruned && rs.Pruned == 0 {
				t.Errorf("not reduced: %d graphs left out by the symmetry, %d by stale reads", rs.SymPruned, rs.Pruned)
			}
			if fs.SymPruned != 0 || fs.Pruned != 0 {
				t.Errorf("reduced with MUSKET_IMM_NOREDUCE: %d, %d", fs.SymPruned, fs.Pruned)
			}
			if c.asymm && (rs.SymPruned != 0 || rs.Complete != fs.Complete || rs.Blocked != fs.Blocked) {
				t.Errorf("not symmetric, yet: %d graphs left out, %d complete (%d graphs); without: %d complete (%d graphs)",
					rs.SymPruned, rs.Complete, rs.Graphs, fs.Complete, fs.Graphs)
			}
			if c.sym && c.want == cfront.Safe && rs.Complete >= fs.Complete {
				t.Errorf("%d complete executions with the symmetry, %d without", rs.Complete, fs.Complete)
			}
			t.Logf("%v: %d complete, %d blocked, %d graphs (%d, %d left out); without: %d complete, %d blocked, %d graphs",
				on.Verdict, rs.Complete, rs.Blocked, rs.Graphs, rs.SymPruned, rs.Pruned, fs.Complete, fs.Blocked, fs.Graphs)
		})
	}
}

// TestIMMSymmetryClasses: under imm, the complete executions of a run
// with the symmetry reduction are exactly those of a run without it
// counted up to the symmetry (each class once), the stale-read pruning
// off in both. By default on the programs written for the symmetry;
// MUSKET_LONG=1 every C program of examples/c and cfront's testdata
// whose threads are found symmetric (but ttas4.c, whose full run takes
// too long).
func TestIMMSymmetryClasses(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../cfront/testdata/sym_trylock.c", "../cfront/testdata/sym_barrier.c"}
	for _, f := range immFiles(files) {
		p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
		if err != nil {
			continue // the refused programs
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			full := checkIMM(t, m, p, false, true, true, true)
			red := checkIMM(t, m, p, false, false, true, true)
			if full.Verdict != red.Verdict {
				t.Fatalf("verdict %v with the symmetry, %v without", red.Verdict, full.Verdict)
			}
			fs, rs := full.Graph, red.Graph
			if fs.Classes == 0 && fs.Complete > 0 {
				// (CountClasses counts only where threads are symmetric.)
				if rs.SymPruned != 0 || rs.Complete != fs.Complete {
					t.Errorf("no symmetric threads, yet: %d graphs left out, %d complete; without: %d", rs.SymPruned, rs.Complete, fs.Complete)
				}
				return
			}
			if full.Verdict != cfront.Safe || rs.SymOff {
				t.Logf("%v, given up: %v", full.Verdict, rs.SymOff)
				return // runs stop at the first failure; a reduction given up runs in full
			}
			if rs.Complete != fs.Classes || rs.Classes != rs.Complete || rs.Blocked > fs.Blocked {
				t.Errorf("reduced: %d complete (%d classes), %d blocked; full: %d complete in %d classes, %d blocked",
					rs.Complete, rs.Classes, rs.Blocked, fs.Complete, fs.Classes, fs.Blocked)
			}
			t.Logf("%d complete, %d blocked, %d graphs; without: %d complete in %d classes, %d blocked, %d graphs",
				rs.Complete, rs.Blocked, rs.Graphs, fs.Complete, fs.Classes, fs.Blocked, fs.Graphs)
		})
	}
}

// TestIMMAtomicityPlace: under imm, placing the write of a
// read-modify-write only right after the write its read reads
// (rmwPlace), and leaving out the reads coherence rules out (immLow),
// leave out no consistent graph: the same complete and blocked
// executions as a run that tries every choice (MUSKET_IMM_NOREDUCE; the
// symmetry and the stale-read pruning off in both).
func TestIMMAtomicityPlace(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../cfront/testdata/sym_trylock.c", "../cfront/testdata/spinlock.c", "../cfront/testdata/tas_flag.c", "../../examples/c/ttas.c"}
	for _, f := range immFiles(files) {
		p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
		if err != nil {
			continue // the refused programs
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			all := checkIMM(t, m, p, true, true, true, false)
			placed := checkIMM(t, m, p, false, true, true, false)
			as, ps := all.Graph, placed.Graph
			if all.Verdict != placed.Verdict || as.Complete != ps.Complete || as.Blocked != ps.Blocked {
				t.Errorf("placed by atomicity: %v, %d complete, %d blocked; every place: %v, %d, %d",
					placed.Verdict, ps.Complete, ps.Blocked, all.Verdict, as.Complete, as.Blocked)
			}
			t.Logf("%v: %d complete, %d blocked; %d graphs instead of %d", placed.Verdict, ps.Complete, ps.Blocked, ps.Graphs, as.Graphs)
		})
	}
}

// TestIMMCrossCheckReduced runs C programs under imm with the IMM
// reductions on and Options.CrossCheck: the native check and imm.cat
// must agree on every graph built, and every read the coherence filter
// (immLow) leaves out must be inconsistent by imm.cat. MUSKET_LONG=1
// runs every program of examples/c.
func TestIMMCrossCheckReduced(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../cfront/testdata/spinlock.c", "../cfront/testdata/sym_trylock.c", "../../examples/c/ttas.c", "../../examples/c/seqlock.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		files = append(files, "../cfront/testdata/ttas3.c", "../cfront/testdata/spin_bug.c", "../cfront/testdata/ticket.c")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p := lowerC(t, f)
			t.Setenv("MUSKET_IMM_NOREDUCE", "")
			r, err := cfront.CheckProgram(context.Background(), p, cfront.CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "imm",
				Races: true, GraphCrossCheck: true})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict == cfront.Unknown || r.Graph == nil {
				t.Fatalf("%v: %v", r.Verdict, r.Result.Err)
			}
			t.Logf("%v: %d complete, %d blocked, %d graphs", r.Verdict, r.Graph.Complete, r.Graph.Blocked, r.Graph.Graphs)
		})
	}
}

// immFiles is the C programs the IMM reduction tests run on: files by
// default; with MUSKET_LONG=1 every C program of examples/c and cfront's
// testdata but ttas4.c, whose full run takes too long.
func immFiles(files []string) []string {
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		more, _ := filepath.Glob("../cfront/testdata/*.c")
		files = append(files, more...)
		sort.Strings(files)
	}
	return slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "ttas4.c" })
}
