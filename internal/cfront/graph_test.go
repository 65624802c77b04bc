package cfront

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// TestGraphAgreesWithSMT runs every C program of examples/c and of
// testdata under the models both the graph engine and the SMT engine
// decide (rc11, sc, imm) and fails on any disagreement of verdicts. The SMT
// engine takes minutes on the whole set: the test runs with
// MUSKET_LONG=1 (TestVerdicts compares the two on its programs in the
// default run).
func TestGraphAgreesWithSMT(t *testing.T) {
	if os.Getenv("MUSKET_LONG") == "" {
		t.Skip("the whole set takes minutes under the SMT engine: set MUSKET_LONG=1")
	}
	needClang(t)
	files, _ := filepath.Glob("../../examples/c/*.c")
	more, _ := filepath.Glob("testdata/*.c")
	files = append(files, more...)
	sort.Strings(files)
	for _, name := range []string{"rc11", "sc", "imm"} {
		m := model(t, name)
		for _, f := range files {
			p, err := Lower(context.Background(), f, Options{Bound: 2})
			if err != nil {
				continue // refused programs (refuse_*.c, clang_error.c)
			}
			verdict := func(engine string) Verdict {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				defer cancel()
				r, err := CheckProgram(ctx, p, CheckOptions{Bound: 2, Engine: engine, Model: m, ModelName: name})
				if err != nil {
					t.Fatalf("%s (%s, %s): %v", f, engine, name, err)
				}
				return r.Verdict
			}
			g := verdict("graph")
			if g == Unknown {
				t.Logf("%s (%s): the graph engine does not answer", f, name)
				continue
			}
			if s := verdict("smt"); s != Unknown && s != g {
				t.Errorf("%s (%s): graph engine says %v, SMT engine %v", f, name, g, s)
			}
		}
	}
}

// TestGraphCountsAsGenMC checks the graph engine's complete executions
// against GenMC's (v0.10.3, RC11) on programs of examples/c: equal counts
// say each execution is explored once, as GenMC explores it.
func TestGraphCountsAsGenMC(t *testing.T) {
	needClang(t)
	m := model(t, "rc11")
	for _, c := range []struct {
		file     string
		complete int
	}{
		{"treiber.c", 2},
		{"msqueue.c", 3},
	} {
		r, err := Check(context.Background(), filepath.Join("..", "..", "examples", "c", c.file),
			CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "rc11"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Safe || r.Graph == nil || r.Graph.Complete != c.complete {
			t.Errorf("%s: verdict %v, stats %+v; want SAFE with %d complete executions (GenMC's count)", c.file, r.Verdict, r.Graph, c.complete)
		}
	}
}
