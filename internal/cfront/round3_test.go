package cfront

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestRound3 checks the wrong or missing answers a new user's third
// trial found (testdata/cw3), each with a variant that gives the other
// verdict: a race named at a hoisted load's line, a race through a
// memcpy'd record that had no verdict, __VERIFIER_loop_bound on a loop of
// known trip count, the clock (refused), and an acq_rel read-modify-write between two relaxed
// stores under AArch64. Rows marked long run with MUSKET_LONG=1 only; a
// native row compiles and runs the program on this machine too (x86-64).
func TestRound3(t *testing.T) {
	needClang(t)
	long := os.Getenv("MUSKET_LONG") == "1"
	for _, c := range []struct {
		file    string
		defines []string
		model   string
		target  string
		bound   int
		want    Verdict
		line    int   // the failing assertion's line (Violation)
		race    []int // the race's two lines, in the report's order (Race)
		native  bool  // the native run gives want (Safe or Violation)
		long    bool
	}{
		// Was RACE at line 19 (the line before the loop): -O1 hoisted
		// the flag's load out of the wait loop and dropped its line.
		{file: "race_hoist.c", model: "rc11", want: Race, race: []int{20, 13}},
		// Was UNSUPPORTED (a torn read of the 8-byte copy).
		{file: "memcpy_race.c", defines: []string{"BUG"}, model: "rc11", want: Race, race: []int{26, 37}},
		{file: "memcpy_race.c", defines: []string{"BUG"}, model: "imm", want: Race, long: true},
		{file: "memcpy_race.c", model: "rc11", want: Safe, native: true, long: true},
		// Was PASS: the exact trip count won over the smaller bound.
		{file: "loopbound_exact.c", defines: []string{"LB=2"}, model: "sc", want: BoundHit},
		{file: "loopbound_exact.c", defines: []string{"LB=3"}, model: "sc", want: Safe, native: true, long: true},
		{file: "loopbound_exact.c", model: "rc11", want: Safe, long: true},
		// Was refused: clock_gettime (and time) had no lowering.
		{file: "clock.c", model: "sc", want: Safe, native: true, long: true},
		{file: "clock.c", defines: []string{"BUG"}, model: "sc", want: Violation, line: 43},
		{file: "clock.c", defines: []string{"BUGCLK"}, model: "rc11", want: Violation, line: 52, long: true},
		{file: "clock.c", model: "rc11", want: Safe, long: true},
		{file: "clock.c", model: "aarch64", target: "aarch64", want: Safe, long: true},
		// Was BOUND at every bound: a kernel xchg/cmpxchg wait loop was
		// not cut as a spin loop.
		{file: "kernel_tas.c", model: "linux-kernel", want: Safe},
		{file: "kernel_tas.c", defines: []string{"BUG"}, model: "linux-kernel", want: Violation, line: 44, long: true},
		{file: "kernel_tas.c", defines: []string{"CMPX"}, model: "linux-kernel", want: Safe, long: true},
		{file: "kernel_tas.c", defines: []string{"CMPX", "BUG"}, model: "linux-kernel", want: Violation, line: 44, long: true},
		// Was a wrong FAIL under sc (and rc11, x86, power, riscv): a
		// 64-bit atomic store seen torn by 32-bit reads of its halves.
		{file: "split64.c", model: "sc", want: Unknown},
		{file: "split64.c", model: "aarch64", target: "aarch64", want: Safe},
		{file: "split64.c", model: "rc11", want: Unknown, long: true},
		{file: "split64.c", model: "tso", target: "x86", want: Unknown, long: true},
		{file: "split64.c", defines: []string{"BUG"}, model: "sc", want: Violation, line: 35, long: true},
		{file: "split64.c", defines: []string{"BUG"}, model: "aarch64", target: "aarch64", want: Violation, line: 35, long: true},
		// Was refused under rc11/imm: a slot copied out whole at an index
		// known only at run time, over ints stored one by one.
		{file: "ring_slots.c", defines: []string{"BUG"}, model: "rc11", want: Race, race: []int{24, 33}},
		{file: "ring_slots.c", model: "rc11", want: Safe, native: true, long: true},
		{file: "ring_slots.c", model: "imm", want: Safe, long: true},
		{file: "ring_slots.c", defines: []string{"BUG"}, model: "aarch64", target: "aarch64", want: Violation, line: 42, long: true},
		{file: "ring_slots.c", defines: []string{"BUG"}, model: "sc", want: Safe, long: true},
		// Were wrong FAILs: the kernel's fence and access kinds compiled
		// for a target as relaxed C11 ones.
		{file: "kernel_sb.c", model: "tso", target: "x86", want: Safe},
		{file: "kernel_sb.c", model: "power", target: "power", want: Safe, long: true},
		{file: "kernel_sb.c", defines: []string{"BUG"}, model: "tso", target: "x86", want: Violation, line: 40, long: true},
		{file: "kernel_sb.c", model: "linux-kernel", want: Safe, long: true},
		{file: "kernel_mp.c", model: "aarch64", target: "aarch64", want: Safe},
		{file: "kernel_mp.c", model: "riscv", target: "riscv", want: Safe, long: true},
		{file: "kernel_mp.c", defines: []string{"BUG"}, model: "aarch64", target: "aarch64", want: Violation, line: 33, long: true},
		{file: "kernel_mp.c", defines: []string{"BUG"}, model: "linux-kernel", want: Violation, line: 33, long: true},
		// Was PASS under aarch64: the RMW was the single-instruction
		// LDADDAL's ordering, not the mapping's LDAXR/STLXR.
		{file: "acqrel_mid.c", model: "aarch64", target: "aarch64", want: Violation, line: 34},
		{file: "acqrel_mid.c", defines: []string{"REL"}, model: "aarch64", target: "aarch64", want: Safe, native: true, long: true},
		{file: "acqrel_mid.c", model: "rc11", want: Violation, line: 34, long: true},
		{file: "acqrel_mid.c", model: "power", target: "power", want: Safe, long: true},
		{file: "acqrel_mid.c", model: "riscv", target: "riscv", want: Safe, long: true},
		{file: "acqrel_mid.c", model: "tso", target: "x86", want: Safe, long: true},
	} {
		if c.long && !long {
			continue
		}
		name := fmt.Sprintf("%s/%s/%s", strings.TrimSuffix(c.file, ".c"), strings.Join(c.defines, ","), c.model)
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "cw3", c.file)
			if c.native {
				var extra []string
				for _, d := range c.defines {
					extra = append(extra, "-D"+d)
				}
				if got := runNative(t, path, extra...); got != c.want {
					t.Fatalf("native run: %v, want %v (the test's expectation is wrong)", got, c.want)
				}
			}
			bound := c.bound
			if bound == 0 {
				bound = 2
			}
			races := c.target == "" && slices.Contains([]string{"rc11", "imm"}, c.model)
			var m *cat.Model
			if c.model == "linux-kernel" {
				dir := testcorpus.Dir(t) + "/cat/linux/"
				var err error
				m, err = cat.Load(dir+"linux-kernel.cat", cat.LoadOptions{Bell: dir + "linux-kernel.bell", IncludeDirs: []string{testcorpus.Dir(t) + "/cat/herd"}})
				if err != nil {
					t.Fatal(err)
				}
			} else {
				m = model(t, c.model)
			}
			r, err := Check(context.Background(), path, CheckOptions{Bound: bound, Target: c.target, Model: m,
				ModelName: c.model, Races: races, Clang: ClangOptions{Defines: c.defines}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != c.want {
				t.Fatalf("verdict %v (%v), want %v", r.Verdict, r.Result.Err, c.want)
			}
			if c.want == Violation && (r.Failed == nil || r.Failed.Pos.Line != c.line) {
				t.Errorf("failed assertion %v, want line %d", r.Failed, c.line)
			}
			if c.race != nil {
				if r.RacePair == nil {
					t.Fatalf("no race pair reported")
				}
				got := []int{r.RacePair[0].Pos.Line, r.RacePair[1].Pos.Line}
				if !slices.Equal(got, c.race) && !slices.Equal([]int{got[1], got[0]}, c.race) {
					t.Errorf("race at lines %v (%v / %v), want %v", got, r.RacePair[0], r.RacePair[1], c.race)
				}
			}
		})
	}
}
