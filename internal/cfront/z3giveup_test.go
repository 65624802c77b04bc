package cfront

import (
	"context"
	"path/filepath"
	"testing"
)

// TestPowerNoGiveUp checks C programs whose object address ranges (x < k
// atoms) reach the edge literals of Power's compiled checks: Z3 took
// those literals unpreprocessed and gave up on every check ("incomplete
// (theory arithmetic)"), so the SMT engine encoded the program again
// with clocks (3-30 s of CPU). They must be answered by the theory
// itself (package smt, register.go), with the verdict of the other
// targets.
func TestPowerNoGiveUp(t *testing.T) {
	needClang(t)
	t.Parallel()
	for _, file := range []string{"cw7/striped_hash.c", "cmx/mixkind.c"} {
		file := file
		t.Run(file, func(t *testing.T) {
			opts := CheckOptions{Bound: 2, Engine: "smt", Target: "power", Model: model(t, "power"), ModelName: "power"}
			res, err := Check(context.Background(), filepath.Join("testdata", file), opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Safe {
				t.Fatalf("verdict %v (%v), want PASS", res.Verdict, res.Result.Err)
			}
			if res.Report == nil || res.Report.LazyFellBack {
				t.Errorf("the theory's encoding gave up: the program was encoded again with clocks")
			}
		})
	}
}
