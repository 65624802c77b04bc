package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/fix"
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
		// Valid tests fix cannot repair: "unsupported", a limit (3), not
		// bad input (2).
		{args: []string{"../../internal/litmus/testdata/aarch64/LDRS+mixed.litmus"}, code: 3, err: "unsupported: musket fix on a mixed-size test"},
		{args: []string{"../../internal/litmus/testdata/mips/MP.litmus"}, code: 3, err: "no repertoire for MIPS"},
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

// TestFixJSONBadInput: with -json a bad input still gives one object,
// status error, with the message (and exit status 2).
func TestFixJSONBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.litmus")
	if err := os.WriteFile(bad, []byte("X86 T\n{ }\n P0 ;\n FOO ;\nexists (0:EAX=1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"fix", "-json", bad}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stderr.String())
	}
	var j fixJSON
	if err := json.Unmarshal(stdout.Bytes(), &j); err != nil {
		t.Fatalf("%v: %q", err, stdout.String())
	}
	if j.Status != "error" || !strings.Contains(j.Error, "bad.litmus:4:2") {
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

// TestFixOutputFiles: -o writes the repaired program, which musket litmus
// then finds correct under both engines; the input as it is when it is
// already correct; nothing when no repair exists (exit 1). -witness
// draws the input's failing execution.
func TestFixOutputFiles(t *testing.T) {
	dir := t.TempDir()
	td := "../../internal/fix/testdata/"
	out, dot := filepath.Join(dir, "SB.fixed.litmus"), filepath.Join(dir, "w.dot")
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"fix", "-o", out, "-witness", dot, td + "SB.x86.litmus"}, &stdout, &stderr); code != 0 {
		t.Fatalf("fix -o: exit %d: %s", code, stderr.String())
	}
	fixed, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "MFENCE") {
		t.Errorf("-o file has no MFENCE:\n%s", fixed)
	}
	if d, err := os.ReadFile(dot); err != nil || !strings.Contains(string(d), "digraph") {
		t.Errorf("-witness file: %v %q", err, d)
	}
	stdout.Reset()
	if code := dispatch([]string{"litmus", "-engine", "both", out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "\nNo\n") {
		t.Errorf("litmus on the -o file: exit %d:\n%s", code, stdout.String())
	}
	// Already correct: the input as it is.
	in := "../../examples/litmus/SB+mfences.litmus"
	out2 := filepath.Join(dir, "same.litmus")
	if code := dispatch([]string{"fix", "-o", out2, in}, &stdout, &stderr); code != 0 {
		t.Fatalf("fix -o on a correct test: exit %d", code)
	}
	a, _ := os.ReadFile(in)
	b, _ := os.ReadFile(out2)
	if strings.TrimRight(string(a), "\n") != strings.TrimRight(string(b), "\n") {
		t.Errorf("-o of a correct test differs from it:\n%s", b)
	}
	// No repair: exit 1, no file.
	out3 := filepath.Join(dir, "none.litmus")
	if code := dispatch([]string{"fix", "-o", out3, td + "sc-allowed.c.litmus"}, &stdout, &stderr); code != 1 {
		t.Errorf("fix -o with no repair: exit %d, want 1", code)
	}
	if _, err := os.Stat(out3); err == nil {
		t.Errorf("-o file written when no repair exists")
	}
	// A folder that does not exist: exit 2 before the repair.
	stderr.Reset()
	if code := dispatch([]string{"fix", "-o", filepath.Join(dir, "no", "x.litmus"), td + "SB.x86.litmus"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "does not exist") {
		t.Errorf("fix -o in a missing folder: exit %d: %s", code, stderr.String())
	}
}

// TestFixCRaces: a C program under rc11 is repaired for its data races
// too unless -races=false, as musket check reports them; -races under a
// hardware target is refused.
func TestFixCRaces(t *testing.T) {
	src := "../../internal/fix/testdata/mp-race.c"
	tests := []struct {
		args []string
		code int
		out  string
		err  string
	}{
		{args: []string{"-bound", "1", src}, code: 0, out: "cost 2"},
		{args: []string{"-bound", "1", "-races=false", src}, code: 0, out: "Already correct"},
		{args: []string{"-bound", "1", "-races", "-target", "aarch64", src}, code: 2, err: "data races are a C11 notion"},
		// The repair holds within the bound only: exit 3, as check's
		// BOUND, with the fix printed.
		{args: []string{"../../internal/fix/testdata/bound-race.c"}, code: 3, out: "but only within the bound"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := dispatch(append([]string{"fix"}, tc.args...), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
			t.Errorf("fix %v: exit %d (want %d)\nstdout %s\nstderr %s", tc.args, code, tc.code, stdout.String(), stderr.String())
		}
	}
}

// TestFixProgress: the spinner's line says the check fix is at, the
// witnesses and the lower bound, keeping the run's start, and nothing is
// drawn off a terminal.
func TestFixProgress(t *testing.T) {
	var b bytes.Buffer
	p := newBatchProgress(&b, 1, true)
	p.close() // stop the ticker; draw by hand
	p.on = true
	now := time.Unix(100, 0)
	p.now = func() time.Time { return now }
	p.started(0, "fix SB.litmus")
	now = now.Add(1200 * time.Millisecond)
	p.relabel(0, fixLabel("fix SB.litmus", fix.Progress{Checks: 2, Witnesses: 3, Bound: 4}))
	if got, want := p.line(), "- fix SB.litmus: check 3, 3 witness(es) so far, cost at least 4 1.2s"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	b.Reset()
	off := newBatchProgress(&b, 1, false)
	off.started(0, "fix SB.litmus")
	off.relabel(0, fixLabel("fix SB.litmus", fix.Progress{Checks: 1}))
	off.close()
	if b.Len() != 0 {
		t.Errorf("progress off a terminal: %q", b.String())
	}
}

// TestFixTimedOut: a step of fix stopped by -timeout is a limit (exit
// 3), whatever error the engine stopped with; the re-check's time-out was
// exit 2 (bad input) on PPC/R03 under load.
func TestFixTimedOut(t *testing.T) {
	done, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	live := context.Background()
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want bool
	}{
		{live, nil, false},
		{live, errors.New("bad input"), false},
		{live, context.DeadlineExceeded, true},
		{live, fmt.Errorf("re-check: %w", context.DeadlineExceeded), true},
		{done, errors.New("z3: canceled"), true},
		{done, nil, false},
	} {
		if got := fixTimedOut(tc.ctx, tc.err); got != tc.want {
			t.Errorf("fixTimedOut(ctx err %v, %v) = %v, want %v", tc.ctx.Err(), tc.err, got, tc.want)
		}
	}
}
