package cfront

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphFaults checks accesses outside every object (testdata/nullfault:
// a null pointer's field read or written, on every path or only on some
// interleavings, under a data race, after a failed CAS) under the graph
// engine, which reports them only in consistent executions
// (graph.Options.Fault), against the SMT engine, which reports them through
// narrow's failure branch: the same verdict, and a FAIL says "invalid memory
// access". Before, the graph engine answered PASS on every F below.
func TestGraphFaults(t *testing.T) {
	needClang(t)
	cells := []struct{ model, target string }{{"sc", ""}, {"rc11", ""}, {"imm", ""}, {"tso", "x86"}, {"aarch64", "aarch64"}}
	for _, c := range []struct {
		file    string
		defines []string
		want    string // sc rc11 imm x86 aarch64
	}{
		{"null_write.c", nil, "FFFFF"},
		{"null_read_some.c", nil, "FFFFF"},
		{"null_race.c", nil, "FRRFF"},
		{"null_joined.c", nil, "PPPPP"},
		{"null_mp.c", nil, "PFFPF"},
		{"null_mp.c", []string{"REL"}, "PPPPP"},
		{"null_cas.c", nil, "FFFFF"},
		{"null_cas.c", []string{"NEVER"}, "PPPPP"},
		{"null_child.c", nil, "FFFFF"},
		{"null_child.c", []string{"SET"}, "PPPPP"},
		{"null_lb.c", nil, "PPPPP"},
	} {
		for i, cell := range cells {
			w := c.want[i]
			t.Run(fmt.Sprintf("%s/%s/%s", strings.TrimSuffix(c.file, ".c"), strings.Join(c.defines, ","), cell.model), func(t *testing.T) {
				races := cell.target == "" && (cell.model == "rc11" || cell.model == "imm")
				want := map[byte]Verdict{'P': Safe, 'F': Violation, 'R': Race}[w]
				// graph+cross: the graph engine with its cross-checks (the
				// CAT model beside the native checks, the reference replay
				// beside the compiled one under imm and aarch64).
				for _, e := range []string{"graph", "graph+cross", "smt"} {
					r, err := Check(context.Background(), filepath.Join("testdata", "nullfault", c.file), CheckOptions{Bound: 2,
						Engine: strings.TrimSuffix(e, "+cross"), GraphCrossCheck: strings.HasSuffix(e, "+cross"),
						Target: cell.target, Model: model(t, cell.model), ModelName: cell.model, Races: races,
						Clang: ClangOptions{Defines: c.defines}})
					if err != nil {
						t.Fatal(err)
					}
					if r.Verdict != want {
						t.Fatalf("%s: verdict %v (%v), want %v", e, r.Verdict, r.Result.Err, want)
					}
					if want == Violation && (r.Failed == nil || r.Failed.Text != "invalid memory access" || r.Result.Witness == nil) {
						t.Errorf("%s: failed %v (witness %v), want an invalid memory access with a witness", e, r.Failed, r.Result.Witness != nil)
					}
				}
			})
		}
	}
}
