package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	// Run A: musket's JSON.
	a := write("a.json", `{"file":"SB.litmus","name":"SB","status":"done","verdict":"Ok","observation":"Sometimes","condition":"exists (0:EAX=0 /\\ 1:EAX=0)","states":[{"0:EAX":"0","1:EAX":"0"},{"0:EAX":"1","1:EAX":"1"}]}
{"file":"MP.litmus","name":"MP","status":"done","verdict":"No","observation":"Never","condition":"exists (1:EAX=1 /\\ 1:EBX=0)","states":[{"1:EAX":"0","1:EBX":"0"}]}
{"file":"R.litmus","name":"R","status":"done","verdict":"Ok","observation":"Sometimes","condition":"exists (x=2 /\\ 1:EAX=0)","states":[{"1:EAX":"0","x":"2"}]}
{"file":"LB.litmus","name":"LB","status":"timeout","condition":"exists (0:EAX=1 /\\ 1:EAX=1)"}
{"file":"S.litmus","name":"S","status":"done","verdict":"No","observation":"Never","condition":"exists (x=2 /\\ 1:EAX=1)"}
{"summary":{"tests":5,"finished":5,"errors":0,"timeouts":["LB"],"timeout_ms":0,"interrupted":false,"time_ms":1,"exit_status":3}}
`)
	// Run B: herd7's logs, one file per test, in a folder.
	b := filepath.Dir(write("b/X86/SB.litmus.log", "Test SB Allowed\nStates 2\n0:EAX=0; 1:EAX=0;\n0:EAX=1; 1:EAX=1;\nOk\nWitnesses\nPositive: 1 Negative: 1\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nObservation SB Sometimes 1 1\nTime SB 0.01\n"))
	b = filepath.Dir(b)
	write("b/X86/MP.litmus.log", "Test MP Allowed\nStates 2\n1:EAX=0; 1:EBX=0;\n1:EAX=1; 1:EBX=0;\nOk\nCondition exists (1:EAX=1 /\\ 1:EBX=0)\n")
	write("b/X86/R.litmus.log", "Test R Allowed\nStates 2\n1:EAX=0; [x]=2;\n1:EAX=1; [x]=2;\nOk\nCondition exists ([x]=2 /\\ 1:EAX=0)\n")
	write("b/X86/LB.litmus.log", "Test LB Allowed\nStates 1\n0:EAX=0; 1:EAX=0;\nNo\n")
	write("b/X86/2+2W.litmus.log", "Test 2+2W Allowed\nStates 1\n[x]=1; [y]=1;\nNo\n")
	var out, errb bytes.Buffer
	code := runDiff([]string{a, b}, &out, &errb)
	got := out.String()
	for _, want := range []string{
		"MP: No in A, Ok in B\n",
		"R: Ok in both, states differ\n  only in B: 1:EAX=1; x=2;\n",
		"LB: timeout in A, No in B\n",
		"A: 5 tests, B: 5 tests, 4 in both (1 only in A, 1 only in B)\n",
		"differ: 3 (verdict 1, final states 1, a verdict on one side only 1); same: 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "SB:") {
		t.Errorf("SB is the same in both:\n%s", got)
	}
	if code != exitFailed {
		t.Errorf("exit status %d, want 1", code)
	}
	// A run against itself, JSON against the same as text.
	out.Reset()
	if code := runDiff([]string{a, a}, &out, &errb); code != exitOK || !strings.Contains(out.String(), "differ: 0 ") {
		t.Errorf("a run against itself: exit %d\n%s", code, out.String())
	}
	out.Reset()
	errb.Reset()
	if code := runDiff([]string{a, write("bad.log", "Test X Allowed\nStates 3\nx=1;\n")}, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "bad.log:3:1: 2 state lines missing") {
		t.Errorf("bad log: exit %d, %s", code, errb.String())
	}
	errb.Reset()
	if code := runDiff([]string{a}, &out, &errb); code != exitBadInput {
		t.Errorf("one operand: exit %d", code)
	}
}

// TestDiffHash checks that two tests of one name whose Hash= lines
// differ are reported as different tests, not compared.
func TestDiffHash(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a.log")
	b := filepath.Join(tmp, "b.log")
	os.WriteFile(a, []byte("Test MP Allowed\nStates 1\n1:EAX=0;\nNo\nTime MP 0.01\nHash=aaaa\n\nTest SB Allowed\nStates 1\n0:EAX=0;\nOk\nHash=cccc\n"), 0o644)
	os.WriteFile(b, []byte("Test MP Allowed\nStates 1\n1:EAX=1;\nOk\nTime MP 0.01\nHash=bbbb\n\nTest SB Allowed\nStates 1\n0:EAX=0;\nOk\nHash=cccc\n"), 0o644)
	var out, errb bytes.Buffer
	code := runDiff([]string{a, b}, &out, &errb)
	got := out.String()
	for _, want := range []string{
		"MP: different tests (Hash=aaaa in A, Hash=bbbb in B)\n",
		"different tests under one name (their Hash= lines differ), not compared: 1\n",
		"differ: 0 (verdict 0, final states 0, a verdict on one side only 0); same: 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if code != exitFailed {
		t.Errorf("exit status %d, want 1", code)
	}
	// -names compares them all the same (a generated campaign against
	// herd7's logs of tests diy wrote: one cycle, two texts).
	out.Reset()
	code = runDiff([]string{"-names", a, b}, &out, &errb)
	got = out.String()
	for _, want := range []string{
		"MP: No in A, Ok in B\n",
		"compared by name although their Hash= lines differ (-names): 1\n",
		"differ: 1 (verdict 1, final states 0, a verdict on one side only 0); same: 1\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("-names: missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "different tests") || code != exitFailed {
		t.Errorf("-names: exit status %d (want 1)\n%s", code, got)
	}
}

// TestDiffNothingInCommon: two runs with no test in common (a log folder
// of another architecture) do not agree: exit status 1, said so (it was
// 0, "differ: 0").
func TestDiffNothingInCommon(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	mp := write("mp.log", "Test MP Allowed\nStates 1\n1:EAX=0;\nNo\n")
	sb := write("sb.log", "Test SB Allowed\nStates 1\n0:EAX=0;\nOk\n")
	// An engine's own limit, as the text and the JSON of one run say it
	// (robust6: "limit" in both).
	limLog := write("lim.log", "Test L limit\nError P0: unrolled thread longer than 262144 instructions (a limit: a lower unrolling bound may fit)\n\n")
	limJSON := write("lim.json", `{"file":"L.litmus","name":"L","status":"limit","error":"P0: unrolled thread longer"}`+"\n"+
		`{"summary":{"tests":1,"finished":1,"errors":0,"limits":["L"],"exit_status":3}}`+"\n")
	for _, c := range []struct {
		a, b string
		code int
		want string
	}{
		{mp, sb, exitFailed, "no test is in both runs: nothing compared"},
		{mp, mp, exitOK, "same: 1"},
		{limLog, limJSON, exitOK, "same: 1"},
	} {
		var out, errb bytes.Buffer
		code := runDiff([]string{c.a, c.b}, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("%s %s: exit %d, %q; want %d and %q", c.a, c.b, code, out.String(), c.code, c.want)
		}
	}
}

func TestNormState(t *testing.T) {
	for in, want := range map[string]string{
		"1:EAX=1; [x]=1; [z]=2;":         "1:EAX=1; x=1; z=2;",
		"x=1; 0:EAX=0; 10:r1=1; 2:r1=0;": "0:EAX=0; 2:r1=0; 10:r1=1; x=1;",
	} {
		if got := normState(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
