package conformance

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestHerdAnswers: tests where Musket once answered otherwise than herd7
// 7.58, each with herd7's observation and flags, under both engines (which
// must agree) and the model herd7 ran.
func TestHerdAnswers(t *testing.T) {
	testcorpus.Dir(t)
	for _, tc := range []struct {
		path, suite string
		observation string // "Never 0 4": herd7's observation and counts
		flags       string // the flags raised, comma-separated
	}{
		// The branch on sc.w's result register is a control
		// dependency of the store after it.
		{"RISCV/ISA-DEP-WW-CTRL.litmus", "RISCV", "Never 0 4", ""},
		// A comment left open in the header: herd7 reads the test.
		{"RISCV/ISA-LB-DEP-ADDR3-SUCCESS.litmus", "RISCV", "Never 0 5", ""},
		// true is no keyword in herd7's C: an unset register, 0.
		{"LKMM/dart/no-herd/C-bool-const-01.litmus", "LKMM", "Never 0 1", ""},
		// Nested SRCU read-side sections, each unlock given its lock's
		// value: no srcu-bad-value-match.
		{"LKMM/manual/kernel/C-srcu-nest-1.litmus", "LKMM", "Never 0 3", ""},
		// RC11's undefined_unless on a data race: herd7's *undef*.
		{"C11/auto/a1_reorder+rel+Rna.litmus", "C11", "Sometimes 2 1", "*undef*"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			model := map[string]string{"RISCV": "riscv.cat", "C11": "rc11.cat"}[tc.suite]
			opts := herdLogOptions(tc.suite, model)
			opts.Engine, opts.Jobs = "both", 1
			file := filepath.Join(corpus, "litmus", tc.path)
			batch.Run(context.Background(), []string{file}, opts, func(j batch.Job) {
				switch {
				case j.Err != nil:
					t.Fatal(j.Err)
				case j.Disagreement != nil:
					t.Fatalf("the engines disagree: %s", j.Disagreement.What)
				case j.Result.Err != nil:
					t.Fatal(j.Result.Err)
				}
				r := j.Result
				got := r.Observation()
				if !r.CountsOmitted {
					got += " " + itoa(r.Positive) + " " + itoa(r.Negative)
				}
				if got != tc.observation {
					t.Errorf("observation %s, herd7 %s", got, tc.observation)
				}
				if f := strings.Join(r.Flags, ","); f != tc.flags {
					t.Errorf("flags %q, herd7 %q", f, tc.flags)
				}
			})
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
