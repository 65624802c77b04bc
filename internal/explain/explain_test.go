package explain_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/report"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// explainOne checks file under model with Explain on, by the given engine.
func explainOne(t *testing.T, file, model, engine string) *result.Result {
	t.Helper()
	var got *result.Result
	opts := batch.Options{Model: model, Jobs: 1, Engine: engine, Explain: true}
	batch.Run(context.Background(), []string{file}, opts, func(j batch.Job) {
		if j.Err != nil {
			t.Fatalf("%s: %v", file, j.Err)
		}
		got = j.Result
	})
	if got == nil || got.Status != result.Done {
		t.Fatalf("%s under %s: no verdict (%+v)", file, model, got)
	}
	return got
}

// The textbook cycles: each forbidden outcome is explained by the check
// that fails and the relations of its shortest cycle.
func TestTextbookCycles(t *testing.T) {
	herd := ""
	cases := []struct {
		file, model string
		check, rels string
	}{
		{"X86-SB+mfences", "", "tso", "mfence; fr; mfence; fr"},
		{"X86-MP", "", "tso", "ppo; rfe; ppo; fr"},
		{"X86-LB", "", "tso", "ppo; rfe; ppo; rfe"},
		{"X86-IRIW", "", "tso", "rfe; ppo; fr; rfe; ppo; fr"},
		{"PPC-SB+syncs", "", "propagation", "fr; strong; fr; strong"},
		{"PPC-IRIW+syncs", "", "propagation", "fr; rf; strong; fr; rf; strong"},
		{"PPC-LB+addrs", "", "no-thin-air", "ppo; rfe; ppo; rfe"},
		{"PPC-MP+lwsync+addr", "", "observation", "fre; prop; rfe; ppo"},
		{"AArch64-MP+dmb.sy+addr", "", "external", "bob; rfe; addr; fre"},
		{"AArch64-SB+dmb.sys", "", "external", "bob; fre; bob; fre"},
		{"AArch64-LB+ctrls", "", "external", "ctrl; rfe; ctrl; rfe"},
		{"AArch64-IRIW+addrs", "", "external", "rfe; addr; fre; rfe; addr; fre"},
		// herd7's own models, with their own names.
		{"X86-SB+mfences", "herd/x86tso.cat", "tso", "mfence; fr; mfence; fr"},
		{"PPC-SB+syncs", "herd/ppc.cat", "propagation", "fre; strong; fre; strong"},
		{"AArch64-MP+dmb.sy+addr", "herd/aarch64.cat", "external", "bob; (rf & ext); addr; (ca & ext)"},
	}
	for _, c := range cases {
		model := c.model
		if strings.HasPrefix(model, "herd/") {
			if herd == "" {
				herd = filepath.Join(testcorpus.Dir(t), "cat")
			}
			model = filepath.Join(herd, model)
		}
		r := explainOne(t, filepath.Join("testdata", c.file+".litmus"), model, "enum")
		ex := r.Explain
		if r.Ok() || ex == nil || !ex.Forbidden || ex.Candidates == 0 || len(ex.Rejected) == 0 {
			t.Errorf("%s under %q: want a forbidden outcome explained, got Ok=%v %+v", c.file, c.model, r.Ok(), ex)
			continue
		}
		reason := ex.Rejected[0].Reason
		if reason.Check != c.check || report.Rels(reason.Steps) != c.rels {
			t.Errorf("%s under %q: fails %s by %q, want %s by %q", c.file, c.model, reason.Check, report.Rels(reason.Steps), c.check, c.rels)
		}
		// The steps form a cycle of the execution's events.
		s := reason.Steps
		for i := range s {
			if s[i].To != s[(i+1)%len(s)].From {
				t.Errorf("%s: steps %v are not a cycle", c.file, s)
				break
			}
		}
	}
}

// An allowed outcome is explained by its witness; the SMT engine's
// answers get the explicit engine's explanation.
func TestAllowedAndSMT(t *testing.T) {
	for _, engine := range []string{"enum", "smt"} {
		r := explainOne(t, filepath.Join("..", "..", "examples", "litmus", "SB.litmus"), "", engine)
		if !r.Ok() || r.Explain == nil || r.Explain.Forbidden || r.Witness == nil {
			t.Errorf("%s: SB under TSO: want allowed with a witness, got %+v", engine, r.Explain)
		}
		r = explainOne(t, filepath.Join("testdata", "X86-SB+mfences.litmus"), "", engine)
		if r.Explain == nil || !r.Explain.Forbidden || report.Rels(r.Explain.Rejected[0].Reason.Steps) != "mfence; fr; mfence; fr" {
			t.Errorf("%s: SB+mfences: %+v", engine, r.Explain)
		}
	}
}

// An empty check on an intersection shows the pair in each operand.
func TestEmptyIntersection(t *testing.T) {
	r := explainOne(t, filepath.Join("testdata", "X86-LB+rmws.litmus"), "", "enum")
	if r.Explain == nil || !r.Explain.Forbidden || len(r.Explain.Rejected) == 0 {
		t.Fatalf("want forbidden, got %+v", r.Explain)
	}
	for _, rj := range r.Explain.Rejected {
		if rj.Reason.Check != "atomic" {
			continue
		}
		if len(rj.Reason.Also) != 2 || report.Rels(rj.Reason.Also[0]) != "rmw" || report.Rels(rj.Reason.Also[1]) != "fre; coe" {
			t.Errorf("atomic: also %v", rj.Reason.Also)
		}
		return
	}
	t.Errorf("no candidate fails atomic: %+v", r.Explain.Rejected)
}
