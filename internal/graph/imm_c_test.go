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
	"github.com/musket-verify/musket/internal/compile"
	"github.com/musket-verify/musket/internal/graph"
	"github.com/musket-verify/musket/internal/litmus"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestIMMNativeOnC explores C programs under IMM with Options.CrossCheck:
// on every graph the engine builds, the native IMM check (imm.go) and
// the built-in imm.cat evaluated by package cat must agree; the complete
// executions of the programs of examples/c must equal GenMC's (v0.10.3,
// IMM; ../shared/reference/genmc-0.10.3/examples-c.csv). The default run
// takes one program; MUSKET_LONG=1 every program of examples/c and of
// cfront's testdata.
func TestIMMNativeOnC(t *testing.T) {
	needClang(t)
	genmc := map[string]int{"chase-lev.c": 38, "clh.c": 2, "mcs.c": 6, "msqueue.c": 3, "rwlock.c": 5,
		"seqlock.c": 2, "ticket.c": 2, "treiber.c": 2, "ttas.c": 4}
	files := []string{"../../examples/c/mcs.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		more, _ := filepath.Glob("../cfront/testdata/*.c")
		files = append(files, more...)
		sort.Strings(files)
	}
	m, err := cat.LoadBuiltin("imm")
	if err != nil {
		t.Fatal(err)
	}
	fe, _ := litmus.Lookup("C")
	for _, f := range files {
		p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2,
			// Compiled as musket check compiles when it reports races
			// (its default under imm) and as GenMC compiles: the
			// optimiser may assume no data race. The race-preserving
			// compilation keeps a racing load of msqueue.c that -O1
			// merges, and explores 4 executions.
			Clang: cfront.ClangOptions{RaceFree: true}})
		if err != nil {
			continue // refused programs (refuse_*.c, clang_error.c)
		}
		q := *p.Test
		q.Quant, q.Cond = spec.Exists, spec.Bool{V: false}
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		r, st := graph.Run(ctx, &q, m, "imm", graph.Options{TagNames: fe.Tags(), CrossCheck: true, BlockedReg: "%blocked",
			// An execution that ran past a loop's bound is not complete,
			// as in musket check (and GenMC, which cuts it silently).
			CutReg: compile.BoundReg,
			Await:  func(loc string) bool { return strings.HasPrefix(loc, "%start.") || strings.HasPrefix(loc, "%done.") }})
		cancel()
		name := filepath.Base(f)
		switch {
		case r.Status == result.Unsupported || r.Status == result.Timeout:
			t.Logf("%s: %s %v", name, r.Status, r.Err)
		case r.Status != result.Done:
			t.Errorf("%s: %s %v", name, r.Status, r.Err)
		case strings.Contains(f, "examples") && genmc[name] > 0 && st.Complete != genmc[name]:
			t.Errorf("%s: %d complete executions, GenMC %d", name, st.Complete, genmc[name])
		default:
			t.Logf("%s: %d complete, %d blocked, %d graphs", name, st.Complete, st.Blocked, st.Graphs)
		}
	}
}

// needClang skips a test of C programs where clang-14 is missing (it
// fails under CI=true).
func needClang(t testing.TB) { t.Helper(); testcorpus.NeedProgram(t, cfront.Clang) }
