package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestBoundStatus: a check whose loop bound cuts some path and finds no
// violation has one status for a .pts program, a litmus test with loops
// and a C program: verdict BOUND with the same sentence, JSON status
// "limit", exit status 3 (a limit reached).
func TestBoundStatus(t *testing.T) {
	pts := filepath.Join(testcorpus.Dir(t), "mutex", "pts", "Peterson.pts")
	for _, tc := range []struct{ name, file string }{
		{"pts", pts},
		{"litmus", "../../examples/asm/mp.litmus"},
		{"c", "testdata/bound-loop.c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"check", "-bound", "1", "-model", "tso", tc.file}
			if tc.name == "c" {
				args[4] = "sc"
			}
			var out, errOut strings.Builder
			if code := dispatch(args, &out, &errOut); code != exitLimit {
				t.Fatalf("exit %d, want %d\n%s%s", code, exitLimit, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), ": BOUND ") || !strings.Contains(out.String(), boundWords(1)) {
				t.Errorf("no BOUND verdict with %q:\n%s", boundWords(1), out.String())
			}
			out.Reset()
			if code := dispatch(append([]string{"check", "-json"}, args[1:]...), &out, &errOut); code != exitLimit {
				t.Fatalf("-json: exit %d, want %d", code, exitLimit)
			}
			if first := strings.SplitN(out.String(), "\n", 2)[0]; !strings.Contains(first, `"verdict":"BOUND"`) || !strings.Contains(first, `"status":"limit"`) || !strings.Contains(first, `"bounded":true`) {
				t.Errorf("-json: %s", first)
			}
		})
	}
}
