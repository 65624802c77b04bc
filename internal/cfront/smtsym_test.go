package cfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSMTSymmetry checks the SMT engine's symmetry breaking (smtsym.go,
// bmc's symmetry.go) under Power and RISC-V: on programs with copies of
// one thread (correct ones, buggy ones, one whose failure needs a thread
// stopped in its spin loop, one whose copies differ by their argument)
// the verdict is the same with it and without it, and it constrains the
// threads it should (and no others). MUSKET_LONG=1 adds the lock programs
// of three threads.
func TestSMTSymmetry(t *testing.T) {
	needClang(t)
	t.Parallel()
	type tc struct {
		file  string
		pairs int // pairs of threads constrained (0: none)
	}
	cases := []tc{
		{"sym_args.c", 0}, // the copies with different arguments are told apart
		{"sym_barrier.c", 2},
		{"sym_stuck.c", 2},
		{"create_loop.c", 2},
		{"ticket_bug.c", 2},
		{"spin_bug3.c", 2}, // a copy fails its own assertion
	}
	if os.Getenv("MUSKET_LONG") != "" {
		cases = append(cases, tc{"ttas3.c", 2}, tc{"ttas3_rlx.c", 2}, tc{"ticket.c", 2})
	}
	for _, target := range []string{"power", "riscv"} {
		for _, c := range cases {
			c := c
			t.Run(target+"/"+c.file, func(t *testing.T) {
				opts := CheckOptions{Bound: 2, Engine: "smt", Target: target, Model: model(t, target), ModelName: target}
				on, err := Check(context.Background(), filepath.Join("testdata", c.file), opts)
				if err != nil {
					t.Fatal(err)
				}
				opts.SMTNoSymmetry = true
				off, err := Check(context.Background(), filepath.Join("testdata", c.file), opts)
				if err != nil {
					t.Fatal(err)
				}
				if on.Verdict != off.Verdict || on.Verdict == Unknown {
					t.Fatalf("verdict %v with symmetry breaking (%v), %v without (%v)", on.Verdict, on.Result.Err, off.Verdict, off.Result.Err)
				}
				if got := on.Report.Stats.SymmetryPairs; got != c.pairs {
					t.Errorf("%d pairs of threads constrained, want %d", got, c.pairs)
				}
				if got := off.Report.Stats.SymmetryPairs; got != 0 {
					t.Errorf("without symmetry breaking: %d pairs constrained", got)
				}
			})
		}
	}
}
