package playground

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// example is one entry of the page's examples menu (web/dist/examples.json,
// made by web/gen-examples.mjs).
type example struct {
	Group, Name, Text, Command, Target string
	Bound                              int
	Explain                            *bool
}

func examples(t *testing.T) []example {
	t.Helper()
	data, err := os.ReadFile("web/dist/examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// herdAnswers are herd7's answers (the Observation line) on the litmus
// tests of the examples menu under their architecture's model: from
// herd7 7.58's logs where they hold the test (SB, SB+mfences, MP on
// AArch64), else the answers the shapes are known by (TSO forbids every
// shape but SB; Power and ARM allow MP and SB and forbid them with the
// fences and dependencies named; C11 allows SB with relaxed accesses and
// forbids it with seq_cst ones).
var herdAnswers = map[string]string{
	"SB+mfences.litmus": "Never", "SB.litmus": "Sometimes",
	"X86-IRIW.litmus": "Never", "X86-LB+rmws.litmus": "Never", "X86-LB.litmus": "Never", "X86-MP.litmus": "Never", "X86-SB+mfences.litmus": "Never",
	"PPC-IRIW+syncs.litmus": "Never", "PPC-LB+addrs.litmus": "Never", "PPC-MP+lwsync+addr.litmus": "Never", "PPC-SB+syncs.litmus": "Never",
	"PPC-MP.litmus": "Sometimes", "PPC-SB.litmus": "Sometimes",
	"AArch64-IRIW+addrs.litmus": "Never", "AArch64-LB+ctrls.litmus": "Never", "AArch64-MP+dmb.sy+addr.litmus": "Never", "AArch64-SB+dmb.sys.litmus": "Never",
	"AArch64-MP.litmus": "Sometimes", "AArch64-SB.litmus": "Sometimes",
	"ARM-MP+dmbs.litmus": "Never", "ARM-MP.litmus": "Sometimes",
	"RISCV-MP+fences.litmus": "Never", "RISCV-MP.litmus": "Sometimes",
	"C-SB+rlx.litmus": "Sometimes", "C-SB+sc.litmus": "Never",
}

// TestExamplesHerd runs every litmus test of the examples menu as the
// page does and compares with herd7's answer; the assembly programs with
// loops (the check command on musket serve, litmus on the static site)
// must answer with the options the menu gives them.
func TestExamplesHerd(t *testing.T) {
	seen := 0
	for _, e := range examples(t) {
		if !strings.HasSuffix(e.Name, ".litmus") || strings.HasPrefix(e.Group, "Long") {
			continue
		}
		req := &Request{Name: e.Name, Test: e.Text, Explain: e.Explain == nil || *e.Explain, Bound: e.Bound}
		r := RunLitmus(context.Background(), req, Env{})
		if r.Status != "done" || r.Result == nil {
			t.Errorf("%s/%s: %s %s", e.Group, e.Name, r.Status, r.Output)
			continue
		}
		if e.Command != "" {
			continue
		}
		want, ok := herdAnswers[e.Name]
		if !ok {
			t.Errorf("%s/%s: no herd7 answer in herdAnswers", e.Group, e.Name)
			continue
		}
		if r.Result.Observation != want {
			t.Errorf("%s/%s: %s, herd7 %s", e.Group, e.Name, r.Result.Observation, want)
		}
		seen++
	}
	if seen < len(herdAnswers) {
		t.Errorf("%d of the %d tests of herdAnswers in the menu", seen, len(herdAnswers))
	}
}

// TestHerdModelAsText: a model written for herd7 (its x86tso.cat,
// tso.cat, sc.cat, rc11.cat, ppc.cat, arm.cat, aarch64.cat, riscv.cat,
// riscv-tso.cat), pasted alone in the page's model editor, loads with no
// library folder (Musket's own cos.cat, filters.cat, fences.cat,
// x86fences.cat, ppcfences.cat, armfences.cat, ppo.cat, ppc-checks.cat,
// aarch64hwreqs.cat and the files it includes, enumerations.cat,
// riscv-defs.cat, riscv-tso-defs.cat) and answers as with herd7's
// library. (On the corpus' folders, with musket litmus: the 359 X86
// tests under x86tso.cat, tso.cat and sc.cat, the 1758 PPC tests under
// ppc.cat and the 98 C11 tests under rc11.cat gave the same
// observations both ways.)
func TestHerdModelAsText(t *testing.T) {
	herd := testcorpus.Dir(t) + "/cat/herd"
	for _, c := range []struct{ model, prefix string }{{"x86tso.cat", "X86"}, {"tso.cat", "X86"}, {"sc.cat", "X86"}, {"rc11.cat", "C"}, {"ppc.cat", "PPC"}, {"arm.cat", "ARM"}, {"aarch64.cat", "AArch64"}, {"riscv.cat", "RISCV"}, {"riscv-tso.cat", "RISCV"}} {
		text, err := os.ReadFile(herd + "/" + c.model)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range examples(t) {
			if e.Command != "" || strings.HasPrefix(e.Group, "Long") || !strings.HasPrefix(e.Text, c.prefix+" ") {
				continue
			}
			alone := RunLitmus(context.Background(), &Request{Name: e.Name, Test: e.Text, Cat: string(text), CatName: c.model}, Env{})
			lib := RunLitmus(context.Background(), &Request{Name: e.Name, Test: e.Text, Cat: string(text), CatName: c.model}, Env{LibDirs: []string{herd}})
			if alone.Status != "done" || lib.Status != "done" {
				t.Errorf("%s on %s: alone %s %q, with herd7's library %s %q", c.model, e.Name, alone.Status, alone.Output, lib.Status, lib.Output)
				continue
			}
			if a, b := alone.Result.Observation, lib.Result.Observation; a != b {
				t.Errorf("%s on %s: %s alone, %s with herd7's library", c.model, e.Name, a, b)
			}
			n++
		}
		if n == 0 {
			t.Errorf("%s: no %s example", c.model, c.prefix)
		}
	}
}
