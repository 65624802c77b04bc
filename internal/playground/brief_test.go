package playground

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestBrief checks that a Brief request (a row of a run over a whole
// folder) is answered as the full request is, without the text output,
// the states and the graph: on the corpus' X86 folder and on requests
// that fail.
func TestBrief(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t), "litmus", "X86", "*.litmus"))
	if len(files) == 0 {
		t.Fatal("no X86 tests in the corpus")
	}
	var reqs []Request
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, Request{Name: filepath.Base(f), Test: string(src)})
	}
	sb, err := os.ReadFile("../../examples/litmus/SB.litmus")
	if err != nil {
		t.Fatal(err)
	}
	reqs = append(reqs,
		Request{Name: "SB.litmus", Test: string(sb), Explain: true},
		Request{Name: "SB.litmus", Test: strings.Replace(string(sb), "MOV [x],$1", "MOV [x] $1", 1)},
		Request{Name: "SB.litmus", Test: string(sb), Cat: "acyclic po |\n"},
		Request{Name: "SB.litmus", Test: string(sb), Engine: "smt"},
	)
	for _, req := range reqs {
		full := RunLitmus(context.Background(), &req, Env{})
		req.Brief = true
		brief := RunLitmus(context.Background(), &req, Env{})
		if brief.Status != full.Status || brief.Exit != full.Exit || len(brief.Diags) != len(full.Diags) {
			t.Errorf("%s: brief %s %d %v, full %s %d %v", req.Name, brief.Status, brief.Exit, brief.Diags, full.Status, full.Exit, full.Diags)
			continue
		}
		if brief.Status != "done" && brief.Output != full.Output {
			t.Errorf("%s: brief error %q, full %q", req.Name, brief.Output, full.Output)
		}
		if brief.Status == "done" && (brief.Output != "" || brief.States != nil || brief.Observed != nil || brief.Graph != nil) {
			t.Errorf("%s: the brief answer carries more than the verdict: %+v", req.Name, brief)
		}
		if (brief.Result == nil) != (full.Result == nil) {
			t.Fatalf("%s: brief result %v, full %v", req.Name, brief.Result, full.Result)
		}
		if full.Result == nil {
			continue
		}
		b, f := *brief.Result, *full.Result
		if b.Explain != nil || b.Witness != nil || b.States != nil || b.Herd != "" {
			t.Errorf("%s: the brief result carries more than the verdict: %+v", req.Name, b)
		}
		f.Explain, b.TimeMS, f.TimeMS = nil, 0, 0
		if bj, fj := string((&Response{Result: &b}).AppendJSON(nil)), string((&Response{Result: &f}).AppendJSON(nil)); bj != fj {
			t.Errorf("%s: brief result\n%s\nfull\n%s", req.Name, bj, fj)
		}
	}
}
