package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFixCommand(t *testing.T) {
	dir := t.TempDir()
	costs := filepath.Join(dir, "costs.txt")
	if err := os.WriteFile(costs, []byte("power lwsync 5\npower sync 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badCosts := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(badCosts, []byte("power hwsync 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	td := "../../internal/fix/testdata/"
	tests := []struct {
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{args: []string{td + "SB.x86.litmus"}, code: 0, out: []string{"cost 2", "+ MFENCE      | MFENCE      ;", "Re-checked:", "Self-check: each of the 2 change(s) is needed"}},
		{args: []string{td + "MP.ppc.litmus"}, code: 0, out: []string{"cost 3", "(addr dependency on the load of line 8)", "+              | lwzx r3,r9,r4 ;"}},
		// A cost table that makes sync the cheaper fence.
		{args: []string{"-costs", costs, td + "MP.ppc.litmus"}, code: 0, out: []string{"cost 2", "`sync` after line 9", "`sync` after line 8"}},
		{args: []string{td + "sc-allowed.c.litmus"}, code: 1, out: []string{"No fix within the repertoire"}},
		{args: []string{"-target", "x86", "-bound", "1", "-engine", "enum", td + "dekker.pts"}, code: 0, out: []string{"-  flag0.store(_rx, 1);", "+  flag0.store(_sc, 1);"}},
		{args: []string{"../../examples/litmus/SB+mfences.litmus"}, code: 0, out: []string{"Already correct"}},
		{args: []string{"-costs", badCosts, td + "MP.ppc.litmus"}, code: 2, err: "bad.txt:1:1: power has no insertion"},
		{args: []string{td + "dekker.pts"}, code: 2, err: "give -target"},
		{args: []string{"-target", "power", td + "MP.ppc.litmus"}, code: 2, err: "-target is for .pts"},
		{args: []string{td + "nosuch.litmus"}, code: 2, err: "nosuch.litmus"},
		{args: []string{}, code: 2, err: "name one file"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := dispatch(append([]string{"fix"}, tc.args...), &stdout, &stderr)
		if code != tc.code {
			t.Errorf("fix %v: exit %d, want %d; stderr %s", tc.args, code, tc.code, stderr.String())
			continue
		}
		for _, o := range tc.out {
			if !strings.Contains(stdout.String(), o) {
				t.Errorf("fix %v: stdout lacks %q:\n%s", tc.args, o, stdout.String())
			}
		}
		if tc.err != "" && !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("fix %v: stderr lacks %q: %s", tc.args, tc.err, stderr.String())
		}
	}
}

func TestFixJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := dispatch([]string{"fix", "-json", "../../internal/fix/testdata/MP.c.litmus"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var j fixJSON
	if err := json.Unmarshal(stdout.Bytes(), &j); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if j.Status != "fixed" || j.Cost != 2 || len(j.Fix) != 2 || !strings.Contains(j.Diff, "+ atomic_store_explicit(y,1,memory_order_release);") {
		t.Errorf("json %+v", j)
	}
}

// TestCompareFixCommand: compare -fix prints the fix with its re-check
// by the explicit engine and its self-check.
func TestCompareFixCommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := dispatch([]string{"compare", "-fix", "-source", "sc", "-target", "tso", "-bound", "1", "../../internal/fix/testdata/peterson.pts"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, o := range []string{"cost 2", "+  turn.store(_sc, 1);", "again by the explicit engine", "Self-check: each of the 2 change(s) is needed: without it the inclusion fails again"} {
		if !strings.Contains(stdout.String(), o) {
			t.Errorf("stdout lacks %q:\n%s", o, stdout.String())
		}
	}
}
