package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// TestIMMIncrCrossCheck: under imm, every graph the incremental IMM
// decision (immincr.go) finds consistent is consistent by imm.cat, and
// every choice it rules out is not (Options.CrossCheck, which fails the
// run on a disagreement), on programs with release sequences through
// fences, sb-loc steps and read-modify-writes, acquire reads and
// fences, locks and spin loops. (TestIMMNativeOnC with MUSKET_LONG=1
// does the same on every C program of the repository.)
func TestIMMIncrCrossCheck(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("C")
	for _, f := range []string{
		"testdata/immincr_rs.c",
		"../cfront/testdata/iriw_acq.c",
		"../cfront/testdata/cw3/acqrel_mid.c",
		"../cfront/testdata/mp_ok.c",
		"../cfront/testdata/spin_bug.c",
		"../cfront/testdata/tas_flag.c",
		"../cfront/testdata/heap_queue_rlx.c",
		"../../examples/c/ttas.c",
		"../../examples/c/seqlock-bug.c",
	} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p := lowerC(t, f)
			q := *p.Test
			q.Quant, q.Cond = spec.Exists, spec.Bool{V: false}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			r, st := graph.Run(ctx, &q, m, "imm", graph.Options{TagNames: fe.Tags(), CrossCheck: true, BlockedReg: "%blocked",
				Await: func(loc string) bool { return strings.HasPrefix(loc, "%start.") || strings.HasPrefix(loc, "%done.") }})
			if r.Status != result.Done {
				t.Fatalf("%s %v", r.Status, r.Err)
			}
			t.Logf("%d complete, %d blocked, %d graphs", st.Complete, st.Blocked, st.Graphs)
		})
	}
}

// TestIMMIncrSameCounts: under imm, the runs with and without the
// incremental IMM decision (MUSKET_IMM_NOINCR=1) give the same verdict
// and the same counts of complete and blocked executions and of
// revisits, and no more graphs checked or left out, on programs of
// cfront's testdata and
// examples/c; MUSKET_LONG=1 every C program of the repository (but
// ttas4.c, whose two runs take minutes).
func TestIMMIncrSameCounts(t *testing.T) {
	needClang(t)
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"testdata/immincr_rs.c", "../cfront/testdata/sem/barrier.c", "../cfront/testdata/spin_bug3.c",
		"../../examples/c/mcs.c", "../../examples/c/treiber-bug.c", "../cfront/testdata/kticket3.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		for _, g := range []string{"../cfront/testdata/*.c", "../cfront/testdata/*/*.c", "../../cmd/musket/testdata/*.c", "testdata/*.c"} {
			more, _ := filepath.Glob(g)
			files = append(files, more...)
		}
		sort.Strings(files)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "ttas4.c") {
			continue
		}
		t.Run(strings.TrimPrefix(f, "../"), func(t *testing.T) {
			p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
			if err != nil {
				t.Logf("not lowered: %v", err) // refused programs (refuse_*.c, clang_error.c)
				return
			}
			run := func(off string) *cfront.Result {
				t.Setenv("MUSKET_IMM_NOINCR", off)
				r, err := cfront.CheckProgram(context.Background(), p, cfront.CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "imm", Races: true})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			on, off := run(""), run("1")
			if on.Graph == nil || off.Graph == nil {
				if on.Verdict != off.Verdict {
					t.Errorf("verdict %v with the decision, %v without", on.Verdict, off.Verdict)
				}
				return // not explored by the graph engine (refused)
			}
			a, b := *on.Graph, *off.Graph
			// The graphs a revisit would place its write where the
			// decision rules it out are not visited, nor counted, nor
			// left out as stale: fewer graphs, the same executions.
			if on.Verdict != off.Verdict || a.Complete != b.Complete || a.Blocked != b.Blocked || a.Graphs > b.Graphs ||
				a.Revisits != b.Revisits || a.Pruned > b.Pruned || a.SymPruned > b.SymPruned {
				t.Errorf("with the decision: %v %+v\nwithout: %v %+v", on.Verdict, a, off.Verdict, b)
			}
		})
	}
}
