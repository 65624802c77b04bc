package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/cfront"
	"github.com/musket-verify/musket/internal/result"
)

// TestHWPrune: under aarch64 and riscv, stale-read pruning (hwprune.go)
// changes no verdict and, with the symmetry reduction off, no count of
// complete executions (it leaves out only graphs with a thread stopped
// in a spin loop); with symmetry on, the verdicts are the same too. It
// leaves graphs out on the spin-loop programs. MUSKET_LONG=1 takes every
// C program of examples/c and cfront's testdata (but ttas4.c and
// fetchops.c: minutes without the pruning).
func TestHWPrune(t *testing.T) {
	needClang(t)
	files := []string{"../cfront/testdata/spin_bug3.c", "../cfront/testdata/sym_barrier.c",
		"../cfront/testdata/kticket3.c", "../../examples/c/ttas-bug.c", "../../examples/c/seqlock.c"}
	wantPruned := map[string][]string{"aarch64": {"spin_bug3.c", "sym_barrier.c", "kticket3.c", "seqlock.c"}, "riscv": {"spin_bug3.c", "seqlock.c"}}
	if os.Getenv("MUSKET_LONG") != "" {
		files, _ = filepath.Glob("../../examples/c/*.c")
		for _, pat := range []string{"../cfront/testdata/*.c", "../cfront/testdata/*/*.c"} {
			more, _ := filepath.Glob(pat)
			for _, f := range more {
				switch filepath.Base(f) {
				case "ttas4.c", "fetchops.c":
					continue
				}
				files = append(files, f)
			}
		}
	}
	for _, target := range []string{"aarch64", "riscv"} {
		m, err := cat.LoadBuiltin(target)
		if err != nil {
			t.Fatal(err)
		}
		pruned := map[string]bool{}
		for _, f := range files {
			p, err := cfront.Lower(context.Background(), f, cfront.Options{Bound: 2})
			if err != nil {
				if os.Getenv("MUSKET_LONG") != "" {
					continue // refused by the front end: nothing to compare
				}
				t.Fatal(err)
			}
			for _, noSym := range []bool{true, false} {
				var got [2]*cfront.Result
				for i, off := range []bool{false, true} {
					ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
					r, err := cfront.CheckProgram(ctx, p, cfront.CheckOptions{Bound: 2, Engine: "graph", Target: target,
						Model: m, ModelName: target, GraphNoSymmetry: noSym, GraphNoPrune: off})
					cancel()
					if err != nil && os.Getenv("MUSKET_LONG") != "" {
						t.Logf("%s %s: %v", target, f, err) // (sb_asm.c: an x86 fence)
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					got[i] = r
				}
				on, off := got[0], got[1]
				if on == nil || off == nil {
					continue
				}
				if on.Result.Status == result.Timeout || off.Result.Status == result.Timeout {
					t.Logf("%s %s (symmetry %v): %s with the pruning, %s without", target, f, !noSym, on.Result.Status, off.Result.Status)
					continue // a long run (MUSKET_LONG): nothing to compare
				}
				if on.Graph == nil || off.Graph == nil {
					if on.Verdict != off.Verdict {
						t.Errorf("%s %s: %v with the pruning, %v without", target, f, on.Verdict, off.Verdict)
					}
					continue // refused by the graph engine
				}
				if on.Verdict != off.Verdict || noSym && on.Verdict == cfront.Safe && on.Graph.Complete != off.Graph.Complete {
					t.Errorf("%s %s (symmetry %v): %v, %d complete with the pruning; %v, %d without",
						target, f, !noSym, on.Verdict, on.Graph.Complete, off.Verdict, off.Graph.Complete)
				}
				if off.Graph.Pruned != 0 {
					t.Errorf("%s %s: %d graphs left out with the pruning off", target, f, off.Graph.Pruned)
				}
				if on.Graph.Pruned > 0 {
					pruned[filepath.Base(f)] = true
				}
			}
		}
		for _, f := range wantPruned[target] {
			if !pruned[f] {
				t.Errorf("%s %s: the pruning left no graph out", target, f)
			}
		}
	}
}
