package playground

import (
	"context"
	"github.com/musket-verify/musket/internal/randtext"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRunLitmus(t *testing.T) {
	sb, err := os.ReadFile("../../examples/litmus/SB.litmus")
	if err != nil {
		t.Fatal(err)
	}
	fenced, err := os.ReadFile("../../examples/litmus/SB+mfences.litmus")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		req    Request
		status string
		output string
		diag   *Diag
		cycle  int
	}{
		{"SB", Request{Name: "SB.litmus", Test: string(sb)}, "done", "Observation SB Sometimes 1 3", nil, 0},
		{"SB+mfences explained", Request{Name: "SB+mfences.litmus", Test: string(fenced), Explain: true}, "done", "mfence; fr; mfence; fr", nil, 4},
		{"a CAT model as text, including a built-in file", Request{Name: "SB.litmus", Test: string(sb),
			Cat: "\"SC\"\ninclude \"cross.cat\"\nacyclic po | rf | co | fr as sc\n"}, "done", "Observation SB Never", nil, 0},
		{"a CAT file given by name", Request{Name: "SB.litmus", Test: string(sb), CatName: "main",
			Cat: "include \"mine.cat\"\nacyclic order as sc\n", Files: map[string]string{"mine.cat": "let order = po | rf | co | fr\n"}}, "done", "Never", nil, 0},
		{"an include by path", Request{Name: "SB.litmus", Test: string(sb), Cat: "\n\ninclude \"/etc/passwd\"\n"}, "error", "cannot include",
			&Diag{File: "model.cat", Line: 3, Col: 1}, 0},
		{"an error in the model", Request{Name: "SB.litmus", Test: string(sb), Cat: "acyclic po |\n"}, "error", "model.cat:", &Diag{File: "model.cat", Line: 2}, 0},
		{"a syntax error in the test", Request{Name: "SB.litmus", Test: strings.Replace(string(sb), "MOV [x],$1", "MOV [x] $1", 1)}, "error", "bad x86 operand",
			&Diag{File: "test", Line: 5, Col: 6}, 0},
		{"the SMT engine is not here", Request{Name: "SB.litmus", Test: string(sb), Engine: "smt"}, "error", "not offered here", nil, 0},
		{"a path as test name", Request{Name: "../../x/SB.litmus", Test: string(sb)}, "done", "Sometimes", nil, 0},
		{"a negative bound", Request{Name: "SB.litmus", Test: string(sb), Bound: -5}, "error", "bound -5: want 0", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := RunLitmus(context.Background(), &c.req, Env{})
			if resp.Status != c.status || !strings.Contains(resp.Output, c.output) {
				t.Fatalf("got %s %q, want %s with %q", resp.Status, resp.Output, c.status, c.output)
			}
			if c.diag != nil {
				if len(resp.Diags) == 0 {
					t.Fatalf("no position in %q", resp.Output)
				}
				d := resp.Diags[0]
				if d.File != c.diag.File || d.Line != c.diag.Line || (c.diag.Col != 0 && d.Col != c.diag.Col) {
					t.Errorf("diag %+v, want %+v", d, *c.diag)
				}
			}
			if c.cycle > 0 && (resp.Graph == nil || len(resp.Graph.Cycle) != c.cycle) {
				t.Errorf("graph %+v, want a cycle of %d edges", resp.Graph, c.cycle)
			}
		})
	}
}

// TestPositions checks positions against the regular expression it
// stands for.
func TestPositions(t *testing.T) {
	re := regexp.MustCompile(`(?m)^(?:[^\n]*?: )?([^\s:][^:\n]*):(\d+):(\d+): (.*)$`)
	texts := []string{
		"SB.litmus:3:7: unexpected token\nmodel.cat:1:1: bad\n",
		"musket: SB.litmus:12:1: missing ;\r\n x:1:2: no\n:1:2: empty file\nerror: a: b:2:3: deep: x:4:5: y",
		"a:1:2:3: four\nb:1:: c\nc:x:1: d\nd:1:2:e\ne:1:2: \n",
		"",
	}
	alphabet := "ab: 12\n\t.x:"
	texts = append(texts, randtext.Texts(alphabet, 3000, 24, 1)...)
	for _, text := range texts {
		var want, got [][]string
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			want = append(want, m[1:])
		}
		for _, m := range positions(text) {
			got = append(got, m[:])
		}
		if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
			t.Errorf("positions(%q) = %q, the expression gives %q", text, got, want)
		}
	}
}
