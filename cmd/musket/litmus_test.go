package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLitmusCommand(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "e.csv")
	os.WriteFile(csv, []byte("litmus/SB.litmus,1\nlitmus/SB+mfences.litmus,1\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		out  []string
	}{
		{"herd text", []string{"litmus", "../../examples/litmus/SB.litmus"}, 0, []string{"Test SB Allowed", "States 4", "Ok", "Observation SB Sometimes 1 3"}},
		{"built-in sc", []string{"litmus", "-model", "sc", "../../examples/litmus/SB.litmus"}, 0, []string{"No", "Observation SB Never 0 3"}},
		{"json", []string{"litmus", "-json", "../../examples/litmus/SB.litmus"}, 0, []string{`"verdict":"Ok"`}},
		{"expect disagrees", []string{"litmus", "-q", "-expect", csv, "../../examples/litmus"}, 1, []string{"DISAGREE", "SB+mfences.litmus: No, expected Ok", "agreement 1/2"}},
		{"bad model", []string{"litmus", "-model", "nosuch", "../../examples/litmus/SB.litmus"}, 2, nil},
		// SPARC's default model is TSO for litmus as for check (package arch).
		{"SPARC default model", []string{"litmus", "../../examples/asm/mp.litmus"}, 0, []string{"Test MP Allowed", "Observation MP Never 0 3"}},
		{"SPARC check", []string{"check", "../../examples/asm/mp.litmus"}, 3, []string{"MP: BOUND", "model tso"}},
		{"speedcheck true", []string{"litmus", "-engine", "enum", "-speedcheck", "true", "../../examples/litmus/SB.litmus"}, 0, []string{"States 1", "Ok", "Positive: 1 Negative: 0", "Pruned SB: only the executions that can settle the condition"}},
		{"speedcheck fast, portfolio", []string{"litmus", "-speedcheck", "fast", "-model", "sc", "../../examples/litmus/SB.litmus"}, 0, []string{"States 0", "No", "Pruned SB"}},
		{"speedcheck json", []string{"litmus", "-json", "-speedcheck", "fast", "../../examples/litmus/SB.litmus"}, 0, []string{`"verdict":"Ok"`, `"pruned":true`}},
		{"speedcheck bad value", []string{"litmus", "-speedcheck", "yes", "../../examples/litmus/SB.litmus"}, 2, nil},
		{"speedcheck with both engines", []string{"litmus", "-engine", "both", "-speedcheck", "true", "../../examples/litmus/SB.litmus"}, 2, nil},
		{"speedcheck with the SMT engine", []string{"litmus", "-engine", "smt", "-speedcheck", "fast", "../../examples/litmus/SB.litmus"}, 2, nil},
		{"speedcheck with explain", []string{"litmus", "-explain", "-speedcheck", "true", "../../examples/litmus/SB.litmus"}, 2, nil},
		{"models", []string{"models"}, 0, []string{"sc", "tso"}},
		{"unknown command", []string{"frobnicate"}, 2, nil},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stderr %s)", tc.name, code, tc.code, errb.String())
		}
		for _, w := range tc.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", tc.name, w, out.String())
			}
		}
	}
}
