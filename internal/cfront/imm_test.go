package cfront

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestGraphIMM checks the graph engine under IMM (dependency tracking,
// load buffering) on small programs: its complete executions equal
// GenMC's (v0.10.3, IMM: ../shared/reference/genmc-0.10.3) on programs
// of examples/c, and its verdicts equal the SMT engine's on small
// programs of testdata (TestGraphAgreesWithSMT compares them on every
// program with MUSKET_LONG=1).
func TestGraphIMM(t *testing.T) {
	needClang(t)
	m := model(t, "imm")
	for _, c := range []struct {
		file     string
		complete int
	}{
		{"clh.c", 2},
	} {
		r, err := Check(context.Background(), filepath.Join("..", "..", "examples", "c", c.file),
			CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "imm"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Safe || r.Graph == nil || r.Graph.Complete != c.complete {
			t.Errorf("%s: verdict %v, stats %+v; want SAFE with %d complete executions (GenMC's count)", c.file, r.Verdict, r.Graph, c.complete)
		}
	}
	for _, f := range []string{"testdata/mp_rlx.c"} {
		p, err := Lower(context.Background(), f, Options{Bound: 2})
		if err != nil {
			t.Fatal(err)
		}
		verdict := func(engine string) Verdict {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r, err := CheckProgram(ctx, p, CheckOptions{Bound: 2, Engine: engine, Model: m, ModelName: "imm"})
			if err != nil {
				t.Fatalf("%s (%s): %v", f, engine, err)
			}
			return r.Verdict
		}
		if g, s := verdict("graph"), verdict("smt"); g == Unknown || g != s {
			t.Errorf("%s (imm): graph engine says %v, SMT engine %v", f, g, s)
		}
	}
}
