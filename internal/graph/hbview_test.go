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
)

// TestCoFilter runs C programs with the choices coherence rules out
// left unchecked (hbview.go) and with every choice checked
// (Options.NoCoFilter): the complete and blocked executions, the
// outcomes and the final states must be the same, and the filtered run,
// under Options.CrossCheck, confirms that every choice it leaves out is
// inconsistent by the model's own check and by the CAT model. The
// programs: locks whose exchanges and compare-and-swaps read the same
// write (splitsRMW), spin loops, message passing with release and
// acquire (rc11's sw), plain counters. The default run takes a few
// programs under rc11, sc and x86 (compiled for x86, under tso: the
// filter of tsoview.go, which reads the MFENCE and locked tags of the
// compiled code); MUSKET_LONG=1 every program of examples/c and cfront's
// testdata under rc11, sc, tso, pso and x86.
func TestCoFilter(t *testing.T) {
	needClang(t)
	files := []string{"../../examples/c/ttas.c", "../../examples/c/mcs.c", "../cfront/testdata/deadlock.c",
		"../cfront/testdata/spin_bug.c", "../cfront/testdata/mp_rlx.c", "../cfront/testdata/sym_lost.c",
		"../cfront/testdata/spin_late.c", "../cfront/testdata/spin_late_ok.c"}
	models := []string{"rc11", "sc", "x86"}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		more, _ := filepath.Glob("../cfront/testdata/*.c")
		files = append(files, more...)
		sort.Strings(files)
		models = []string{"rc11", "sc", "tso", "pso", "x86"}
	}
	fe, _ := litmus.Lookup("C")
	for _, f := range files {
		if strings.HasSuffix(f, "ttas3.c") || strings.HasSuffix(f, "ttas4.c") {
			continue // the CAT model on every graph: minutes
		}
		p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
		if err != nil {
			continue // refused programs (refuse_*.c, clang_error.c)
		}
		q := *p.Test
		q.Quant, q.Cond = spec.Exists, spec.Bool{V: false}
		for _, column := range models {
			name, test, tags := column, &q, fe.Tags()
			if column == "x86" {
				ct, err := cfront.CompileFor(&q, "x86")
				if err != nil {
					t.Logf("%s: %v", f, err) // (Linux-kernel primitives have no x86 mapping)
					continue
				}
				name, test, tags = "tso", ct, compile.Tags("x86")
				if fx, err := litmus.Lookup(ct.Arch); err == nil {
					tags = append(tags, fx.Tags()...)
				}
			}
			m, err := cat.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			run := func(off, cross bool) (*result.Result, graph.Stats) {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				defer cancel()
				return graph.Run(ctx, test, m, name, graph.Options{TagNames: tags, BlockedReg: "%blocked",
					NoCoFilter: off, CrossCheck: cross, FlagWitnesses: true,
					Await: func(loc string) bool { return strings.HasPrefix(loc, "%start.") || strings.HasPrefix(loc, "%done.") }})
			}
			id := filepath.Base(f) + "/" + column
			on, son := run(false, true)
			_, sfast := run(false, false)
			off, soff := run(true, false)
			if on.Status == result.Unsupported || on.Status == result.Timeout || off.Status == result.Timeout {
				t.Logf("%s: %s %s", id, on.Status, off.Status)
				continue
			}
			if on.Status != result.Done || off.Status != result.Done {
				t.Errorf("%s: %s %v / %s %v", id, on.Status, on.Err, off.Status, off.Err)
				continue
			}
			if son.Complete != soff.Complete || son.Blocked != soff.Blocked || on.Positive != off.Positive || on.Negative != off.Negative {
				t.Errorf("%s: filtered %d complete, %d blocked, %d+%d; unfiltered %d, %d, %d+%d", id,
					son.Complete, son.Blocked, on.Positive, on.Negative, soff.Complete, soff.Blocked, off.Positive, off.Negative)
			}
			if len(on.States) != len(off.States) || strings.Join(on.Flags, ",") != strings.Join(off.Flags, ",") {
				t.Errorf("%s: filtered %d states, flags %v; unfiltered %d, %v", id, len(on.States), on.Flags, len(off.States), off.Flags)
			}
			if sfast.Complete != son.Complete || sfast.Blocked != son.Blocked || sfast.Graphs > soff.Graphs {
				t.Errorf("%s: filtered without the cross-check %d complete, %d blocked, %d graphs checked; unfiltered %d graphs checked", id, sfast.Complete, sfast.Blocked, sfast.Graphs, soff.Graphs)
			}
			t.Logf("%s: %d complete, %d blocked; graphs checked %d, unfiltered %d", id, son.Complete, son.Blocked, sfast.Graphs, soff.Graphs)
		}
	}
}
