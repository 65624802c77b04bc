package cfront

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestCoarseNoMixedSame lowers programs with and without the coarse
// analysis's shortcut (coarseNoMixed) and wants the same program, and the
// shortcut taken exactly where no object is cut and no pointers are
// ordered.
func TestCoarseNoMixedSame(t *testing.T) {
	needClang(t)
	for _, tc := range []struct {
		file     string
		shortcut bool
	}{
		{"../../examples/c/ttas.c", true},      // a counter in memory: 33 precise passes
		{"../../examples/c/mcs.c", true},       // nodes[arg]: a thread's argument through memory
		{"../../examples/c/chase-lev.c", true}, // buf[b % SIZE], b read from memory: the remainder's values are listed (smallModulus)
		{"testdata/sem/union.c", false},        // an int over two shorts
		{"testdata/sem/ptrcmp.c", false},       // ordered pointers
		{"testdata/treiber.c", true},           // heap nodes and pointers in memory
	} {
		t.Run(tc.file, func(t *testing.T) {
			ll, err := CompileIR(context.Background(), tc.file, ClangOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, bound := range []int{1, 2} {
				before := mixedCoarseHits.Load()
				fast, err1 := LowerIR(tc.file, ll, Options{Bound: bound})
				took := mixedCoarseHits.Load() > before
				mixedCoarseOff = true
				slow, err2 := LowerIR(tc.file, ll, Options{Bound: bound})
				mixedCoarseOff = false
				if fmt.Sprint(err1) != fmt.Sprint(err2) {
					t.Fatalf("bound %d: errors differ: %v / %v", bound, err1, err2)
				}
				if err1 != nil {
					continue
				}
				if a, b := dumpProgram(fast), dumpProgram(slow); a != b {
					t.Errorf("bound %d: the shortcut changes the lowered program", bound)
				}
				if took != tc.shortcut {
					t.Errorf("bound %d: shortcut taken %v, want %v", bound, took, tc.shortcut)
				}
			}
		})
	}
}

// dumpProgram prints everything the lowering gives the checks.
func dumpProgram(p *Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %v %#v %#v %#v\n%v\n", p.Threads, p.Asserts, p.spins, p.asmFences, p.splitRMWs, p.Test.Init)
	for _, th := range p.Test.Threads {
		fmt.Fprintf(&b, "thread %d %v\n", th.ID, th.NonAtomic)
		for i, in := range th.Code {
			fmt.Fprintf(&b, "%#v %v\n", in, th.Pos[i])
		}
	}
	return b.String()
}
