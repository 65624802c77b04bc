package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/randtext"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// sameJSON checks AppendJSON against encoding/json on one response.
func sameJSON(t *testing.T, what string, resp *Response) {
	t.Helper()
	want, err := json.Marshal(resp)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := resp.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Errorf("%s: AppendJSON gives\n%s\nencoding/json gives\n%s", what, got, want)
	}
}

func TestAppendJSONStrings(t *testing.T) {
	texts := []string{"", "plain", "a\"b\\c", "<x>&y", "\b\f\n\r\t\x00\x01\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é\xc3", "日本\xe6\x97", "\U0001F600"}
	texts = append(texts, randtext.Texts("a\"\\<>&\n\t\x01\x7f\xc3\xa9\xe2\x80\xa8\xff ", 4000, 12, 2)...)
	for _, s := range texts {
		want, _ := json.Marshal(s)
		e := encoder{}
		e.str(s)
		if !bytes.Equal(e.b, want) {
			t.Errorf("str(%q) = %s, encoding/json gives %s", s, e.b, want)
		}
	}
}

func TestAppendJSONFloats(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.5, 12.345, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21, 1.2345e22, -3e-8, 123456.789, math.SmallestNonzeroFloat64, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		e := encoder{}
		e.float(f)
		if !bytes.Equal(e.b, want) {
			t.Errorf("float(%v) = %s, encoding/json gives %s", f, e.b, want)
		}
	}
	// Whole thousandths (milli's fast path): small ones, every one up
	// to 100, random ones up to 10^12, and their neighbours (not whole
	// thousandths: the general path).
	rng := rand.New(rand.NewSource(1))
	var fs []float64
	for m := range int64(100_000) {
		fs = append(fs, float64(m)/1000)
	}
	for range 200_000 {
		m := rng.Int63n(1 << rng.Intn(50))
		fs = append(fs, float64(m)/1000, math.Nextafter(float64(m)/1000, math.Inf(1)))
	}
	fs = append(fs, 999_999_999_999.999, 1e12, math.Nextafter(1e12, 0), 0.001, 0.0005, -0.001, math.Copysign(0, -1))
	for _, f := range fs {
		want, _ := json.Marshal(f)
		e := encoder{}
		e.float(f)
		if !bytes.Equal(e.b, want) {
			t.Fatalf("float(%v) = %s, encoding/json gives %s", f, e.b, want)
		}
	}
}

// TestAppendJSON compares AppendJSON with encoding/json on the answers
// to the examples (plain and explained), to requests with errors, to
// made-up answers with every optional field, and to a sample of the
// corpus' X86 and PPC tests (one in 60; all of them with MUSKET_LONG=1).
func TestAppendJSON(t *testing.T) {
	sb, err := os.ReadFile("../../examples/litmus/SB.litmus")
	if err != nil {
		t.Fatal(err)
	}
	reqs := []Request{
		{Name: "SB.litmus", Test: string(sb)},
		{Name: "SB.litmus", Test: string(sb), Explain: true},
		{Name: "SB.litmus", Test: string(sb), Cat: "acyclic po |\n"},
		{Name: "SB.litmus", Test: strings.Replace(string(sb), "MOV [x],$1", "MOV [x] $1", 1)},
		{Name: "SB.litmus", Test: string(sb), Engine: "smt"},
		{Name: "SB.litmus", Test: string(sb), Cat: "\"SC\"\ninclude \"cross.cat\"\nacyclic po | rf | co | fr as sc\n", Explain: true},
	}
	ex, _ := filepath.Glob("../../examples/litmus/*.litmus")
	web, _ := filepath.Glob("web/examples/*.litmus")
	for _, f := range append(ex, web...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, explain := range []bool{false, true} {
			reqs = append(reqs, Request{Name: filepath.Base(f), Test: string(src), Explain: explain})
		}
	}
	step := 60
	if os.Getenv("MUSKET_LONG") != "" {
		step = 1
	}
	{
		dir := testcorpus.Dir(t)
		for _, arch := range []string{"X86", "PPC"} {
			files, _ := filepath.Glob(filepath.Join(dir, "litmus", arch, "*.litmus"))
			for i := 0; i < len(files); i += step {
				src, err := os.ReadFile(files[i])
				if err != nil {
					t.Fatal(err)
				}
				reqs = append(reqs, Request{Name: filepath.Base(files[i]), Test: string(src), Explain: i%2 == 1})
			}
		}
	}
	for _, req := range reqs {
		sameJSON(t, req.Name, RunLitmus(context.Background(), &req, Env{}))
	}

	// Every optional field, empty and nil lists and maps.
	one, zero := 1, 0
	ex1 := &result.Execution{Events: []result.Event{{ID: 0, Thread: -1, Label: "W x=0 <&>", PC: -1}}, Po: [][2]int{}, Rf: [][2]int{{0, 1}},
		State: result.State{prog.IntValue(-3), prog.AddrValue("x")}}
	states := []map[string]string{{"1:r0": "0", "0:r0": "1", "x": "&y"}, {}, nil}
	var nilStates []map[string]string
	for i, resp := range []*Response{
		{},
		{Status: "done", Stderr: "warn\u2028", Observed: []string{}, States: [][]string{{"1", "x"}, nil, {}}, Diags: []Diag{{File: "test", Line: 1, Col: 2, Msg: "bad \"x\""}},
			Graph: &Graph{Title: "t"}, TimeMS: 1e-7},
		{Result: &report.JSONResult{Hash: "h", Error: "e", Verdict: "Ok", Observation: "o", States: &states, Positive: &one, Negative: &zero,
			Flags: []string{"*undef*"}, Bounded: true, Pruned: true, TimeMS: 2.5, Expected: "Never", Engines: map[string]string{"smt": "Ok", "enum": "No"},
			Witness: ex1, Explain: &result.Explanation{Forbidden: true, Candidates: 2, Rejected: []result.Rejected{
				{Execution: ex1, Reason: &result.Reason{Check: "sc", Test: "acyclic po", Steps: []result.Step{{From: 0, To: 1, Rel: "po"}}, Also: [][]result.Step{nil, {}}}},
				{}}}},
			Graph: &Graph{Title: "w", Execution: &result.Execution{}, Check: "c", Cycle: []result.Step{{From: 1, To: 0, Rel: "fr"}}}},
		{Result: &report.JSONResult{States: &nilStates, Flags: []string{}, Engines: map[string]string{}, Explain: &result.Explanation{Rejected: []result.Rejected{}}}},
	} {
		sameJSON(t, "made-up answer "+string(rune('0'+i)), resp)
	}
}

func TestInfoAppendJSON(t *testing.T) {
	for _, in := range []Info{{}, StaticInfo(), {Mode: "server", Engines: []string{}, Models: []string{"a<b"}}} {
		want, _ := json.Marshal(in)
		if got := in.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("AppendJSON gives\n%s\nencoding/json gives\n%s", got, want)
		}
	}
}
