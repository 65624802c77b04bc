package cfront

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/result"
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
	files := allCPrograms()
	for _, name := range []string{"rc11", "sc", "imm"} {
		m := model(t, name)
		for _, f := range files {
			if strings.HasSuffix(f, "ttas4.c") {
				// Millions of graphs: the graph engine does not answer
				// in the test's time (BenchmarkGraphTTAS measures it).
				continue
			}
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
			// GenMC reports races, and its compilation assumes none.
			CheckOptions{Bound: 2, Engine: "graph", Model: m, ModelName: "rc11", Races: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Safe || r.Graph == nil || r.Graph.Complete != c.complete {
			t.Errorf("%s: verdict %v, stats %+v; want SAFE with %d complete executions (GenMC's count)", c.file, r.Verdict, r.Graph, c.complete)
		}
	}
}

// TestGraphNativeAgainstCAT runs the graph engine on C programs with its
// cross-check on: on every graph it checks, the native check of the
// built-in model (sc, tso, pso, rc11) must agree with the CAT model's
// evaluation, races included. The default run takes a few programs;
// MUSKET_LONG=1 every program of examples/c and testdata under the four
// models.
func TestGraphNativeAgainstCAT(t *testing.T) {
	needClang(t)
	files := []string{"../../examples/c/ttas.c", "../../examples/c/msqueue-bug.c"}
	models := []string{"rc11", "tso"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = allCPrograms()
		models = []string{"rc11", "sc", "tso", "pso"}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "ttas3.c") || strings.HasSuffix(f, "ttas4.c") {
			continue // hundreds of thousands of graphs: minutes with the CAT model on each
		}
		p, err := Lower(context.Background(), f, Options{Bound: 1})
		if err != nil {
			continue // refused programs (refuse_*.c, clang_error.c)
		}
		for _, name := range models {
			for _, races := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				r, err := CheckProgram(ctx, p, CheckOptions{Bound: 1, Engine: "graph", Model: model(t, name), ModelName: name, Races: races, GraphCrossCheck: true})
				cancel()
				if err != nil {
					t.Fatalf("%s (%s): %v", f, name, err)
				}
				if r.Result != nil && r.Result.Status == result.Failed {
					t.Errorf("%s (%s, races %v): %v", f, name, races, r.Result.Err)
				}
				// Without the cross-check, complete graphs take their
				// flags from the native check's last hb: same answer.
				ctx, cancel = context.WithTimeout(context.Background(), 120*time.Second)
				r2, err := CheckProgram(ctx, p, CheckOptions{Bound: 1, Engine: "graph", Model: model(t, name), ModelName: name, Races: races})
				cancel()
				if err != nil {
					t.Fatalf("%s (%s): %v", f, name, err)
				}
				if r2.Verdict != r.Verdict || r2.RaceFlag != r.RaceFlag {
					t.Errorf("%s (%s, races %v): %v %q without the cross-check, %v %q with it", f, name, races, r2.Verdict, r2.RaceFlag, r.Verdict, r.RaceFlag)
				}
			}
		}
	}
}

// BenchmarkGraphTTAS runs the graph engine on a TTAS lock under RC11:
// MUSKET_BENCH_C names the program (default testdata/ttas3.c, three
// threads × two increments). The lowering (clang) is outside the timer.
func BenchmarkGraphTTAS(b *testing.B) {
	needClang(b)
	f := os.Getenv("MUSKET_BENCH_C")
	if f == "" {
		f = "testdata/ttas3.c"
	}
	p, err := Lower(context.Background(), f, Options{Bound: 1})
	if err != nil {
		b.Fatal(err)
	}
	name := os.Getenv("MUSKET_BENCH_MODEL")
	if name == "" {
		name = "rc11"
	}
	m := model(b, name)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := CheckProgram(context.Background(), p, CheckOptions{Bound: 1, Engine: "graph", Model: m, ModelName: name})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 && r.Graph != nil {
			b.ReportMetric(float64(r.Graph.Complete), "complete")
			b.ReportMetric(float64(r.Graph.Blocked), "blocked")
			b.ReportMetric(float64(r.Graph.Graphs), "graphs")
		}
	}
}

// BenchmarkLowerIR reads and lowers clang's IR of a C program (the Go
// side of a check's fixed cost, after the compiler): MUSKET_BENCH_C
// names the program (default ../../examples/c/ttas.c). The compilation
// is outside the timer.
func BenchmarkLowerIR(b *testing.B) {
	needClang(b)
	f := os.Getenv("MUSKET_BENCH_C")
	if f == "" {
		f = "../../examples/c/ttas.c"
	}
	ll, err := CompileIR(context.Background(), f, ClangOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LowerIR(f, ll, Options{Bound: 2}); err != nil {
			b.Fatal(err)
		}
	}
}
