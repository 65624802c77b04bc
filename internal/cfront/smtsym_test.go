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
		arm   int // pairs under ARMv8, when they differ (-1: the same)
	}
	cases := []tc{
		{"sym_args.c", 0, -1}, // the copies with different arguments are told apart
		{"sym_barrier.c", 2, -1},
		{"sym_stuck.c", 2, -1},
		{"create_loop.c", 2, -1},
		{"ticket_bug.c", 2, -1},
		{"spin_bug3.c", 2, -1}, // a copy fails its own assertion
		{"sym_seq.c", 2, 0},    // joins between the creations (joinsAfterCreates)
	}
	if os.Getenv("MUSKET_LONG") != "" {
		cases = append(cases, tc{"ttas3.c", 2, -1}, tc{"ttas3_rlx.c", 2, -1}, tc{"ticket.c", 2, -1})
	}
	for _, target := range []string{"power", "riscv", "x86", "aarch64"} {
		for _, c := range cases {
			c := c
			t.Run(target+"/"+c.file, func(t *testing.T) {
				name := target
				if target == "x86" {
					name = "tso"
				}
				want := c.pairs
				if target == "aarch64" && c.arm >= 0 {
					want = c.arm
				}
				opts := CheckOptions{Bound: 2, Engine: "smt", Target: target, Model: model(t, name), ModelName: name}
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
				if got := on.Report.Stats.SymmetryPairs; got != want {
					t.Errorf("%d pairs of threads constrained, want %d", got, want)
				}
				if got := off.Report.Stats.SymmetryPairs; got != 0 {
					t.Errorf("without symmetry breaking: %d pairs constrained", got)
				}
			})
		}
	}
}

// TestSMTSymmetryModel lists the target and model pairs bmc's symmetry
// breaking is given symmetric threads for: a model whose argument rests
// on the fences of its own compilation gets them only on that target.
func TestSMTSymmetryModel(t *testing.T) {
	for _, c := range []struct {
		target, model string
		want          bool
	}{
		{"power", "power", true}, {"riscv", "riscv", true}, {"aarch64", "aarch64", true},
		{"x86", "tso", true}, {"x86", "x86tso", true}, {"power", "tso", true}, {"x86", "sc", true},
		{"x86", "power", false}, {"x86", "riscv", false}, {"x86", "aarch64", false}, {"power", "aarch64", false},
		{"", "rc11", false}, {"", "imm", false}, {"x86", "pso", false}, {"armv7", "armv7", false},
	} {
		if got := smtSymmetryModel(c.target, c.model); got != c.want {
			t.Errorf("smtSymmetryModel(%q, %q) = %v, want %v", c.target, c.model, got, c.want)
		}
	}
}
