package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
)

const sbTest = "../../examples/litmus/SB.litmus"

// flippedSMT is an SMT engine that answers the opposite of the explicit
// one: the way to provoke a disagreement.
func flippedSMT(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
	r := enum.Run(ctx, t, m, name, enum.Options{TagNames: tags})
	r.Engine = "smt"
	if r.Positive > 0 {
		r.Positive = 0
	} else {
		r.Positive = 1
	}
	return r
}

// untilStopped is an engine that runs until its context is done.
func untilStopped(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
	<-ctx.Done()
	return &result.Result{File: t.File, Name: t.Name, Engine: "enum", Quant: t.Quant, Status: result.Timeout}
}

// saysTimeout is an engine that says at once that it reached its time
// limit (no clock: the engine only says so).
func saysTimeout(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
	return &result.Result{File: t.File, Name: t.Name, Engine: "enum", Quant: t.Quant, Status: result.Timeout}
}

// atLimit is an engine that stops at one of its own limits.
func atLimit(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
	return &result.Result{File: t.File, Name: t.Name, Engine: "enum", Quant: t.Quant, Status: result.Failed, Err: result.Limit("too many control-flow paths")}
}

// fakeCheck answers every check: REACHABLE under enum, UNREACHABLE under
// smt when flip, else a timeout when timeout.
func fakeCheck(flip, timeout bool) func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
	return func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
		r := &result.Result{Name: "P", Status: result.Done, Witness: &result.Execution{}}
		pr := &bmc.ProgramResult{Name: "P", Target: "x86", Model: "tso", Condition: "exists (x=1)", Reachable: true, Result: r, Report: &bmc.Report{}}
		if flip && engine == "smt" {
			pr.Reachable = false
		}
		if timeout {
			r.Status = result.Timeout
		}
		return pr, nil
	}
}

// fakeCheckStops is fakeCheck(false, false) but for the engine stopped,
// which reaches its time limit.
func fakeCheckStops(stopped string) func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
	return func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error) {
		pr, err := fakeCheck(false, engine == stopped)(ctx, path, engine, c)
		if engine == stopped {
			pr.Result.Limit = time.Minute
		}
		return pr, err
	}
}

// TestExitStatuses runs every command into each exit status of the table.
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	defer func(d time.Duration) { batch.AutoDelay = d }(batch.AutoDelay)
	batch.AutoDelay = 50 * time.Millisecond
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	badCat := filepath.Join(dir, "bad.cat")
	os.WriteFile(badCat, []byte("\"bad\"\nlet a = po | nosuch\nacyclic a as x\n"), 0o644)
	unwritable := filepath.Join(dir, "no", "such", "folder", "w.dot")
	// A model from a file, which the graph engine leaves to the others
	// (store buffering allowed: po without its write-read pairs).
	fileCat := filepath.Join(dir, "weak.cat")
	os.WriteFile(fileCat, []byte("\"weak\"\nlet fr = rf^-1;co\nacyclic (po \\ (W*R)) | rf | co | fr as weak\n"), 0o644)
	// A loop that -bound 300000 unrolls past compile's limit on a
	// thread's length: a limit (exit status 3), not bad input.
	longLoop := filepath.Join(dir, "loop.pts")
	os.WriteFile(longLoop, []byte("{x}\n\nthread t0 {\nwhile true {\n  x.store(_rx,1);\n}\n}\nexists (x = 2)\n"), 0o644)
	// A valid Cubicle system with a feature param does not handle (a
	// proc variable as an index of an array of two indices while init
	// says it holds no process).
	procIndex := filepath.Join(dir, "procindex.cub")
	os.WriteFile(procIndex, []byte("var H : proc\narray A[proc, proc] : bool\ninit (i) { H <> i && A[i,i] = False }\nunsafe (i) { A[H, i] = True }\n"), 0o644)
	// A flat || of 10^5 atoms: past maxDNF, a limit of Musket (robust5:
	// it was exit 2, as bad input).
	flatOr := filepath.Join(dir, "flator.cub")
	os.WriteFile(flatOr, []byte("type state = A | B\nvar X : state\ninit (z) { X = A }\nunsafe (z) { X = B }\ntransition t (i)\nrequires { "+strings.Repeat("X = A || ", 99999)+"X = A }\n{ X := B; }\n"), 0o644)
	tests := []struct {
		name    string
		args    []string
		engines map[string]batch.Engine
		check   func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error)
		code    int
		out     []string // parts of stdout
		errOut  []string // parts of stderr
		notOut  []string // not in stdout
	}{
		{name: "litmus ok", args: []string{"litmus", sbTest}, code: 0},
		{name: "litmus timeout", args: []string{"litmus", "-timeout", "10ms", sbTest}, engines: map[string]batch.Engine{"enum": untilStopped}, code: 3, out: []string{"Timeout SB"}, errOut: []string{"timed out (limit 10ms each): SB"}},
		{name: "litmus engine limit", args: []string{"litmus", "-engine", "enum", sbTest}, engines: map[string]batch.Engine{"enum": atLimit}, code: 3,
			errOut: []string{"a limit of the engine reached (each test's error says which): SB"}},
		{name: "litmus engine limit json", args: []string{"litmus", "-json", "-engine", "enum", sbTest}, engines: map[string]batch.Engine{"enum": atLimit}, code: 3,
			out: []string{`"status":"limit"`, `"errors":0`, `"limits":["SB"]`, `"exit_status":3`}},
		{name: "litmus auto: the SMT engine answers past the explicit engine's limit", args: []string{"litmus", sbTest}, engines: map[string]batch.Engine{"enum": atLimit}, code: 0, out: []string{"Observation SB Sometimes\n"}},
		{name: "litmus auto: the SMT engine answers a test the explicit engine is slow on", args: []string{"litmus", "-timeout", "60s", sbTest}, engines: map[string]batch.Engine{"enum": untilStopped, "pruned": untilStopped, "graph": untilStopped}, code: 0, out: []string{"Observation SB Sometimes\n"}},
		{name: "litmus auto: the graph engine answers a test the explicit engine is slow on", args: []string{"litmus", "-timeout", "60s", sbTest}, engines: map[string]batch.Engine{"enum": untilStopped, "smt": untilStopped, "pruned": untilStopped}, code: 0,
			out: []string{"States 4\n", "Observation SB Sometimes 1 3\n"}},
		{name: "litmus auto: the pruned explicit engine answers a test the full one is slow on", args: []string{"litmus", "-timeout", "60s", "-model", fileCat, sbTest}, engines: map[string]batch.Engine{"enum": untilStopped, "smt": untilStopped}, code: 0,
			out: []string{"Test SB Allowed\nOk\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nPruned SB:"}, notOut: []string{"Observation", "States"}},
		{name: "litmus unwritable witness", args: []string{"litmus", "-witness", unwritable, sbTest}, code: 2, errOut: []string{"cannot write the witness", unwritable}},
		{name: "litmus both agree", args: []string{"litmus", "-engine", "both", sbTest}, code: 0, out: []string{"Observation SB Sometimes 1 3"}},
		{name: "litmus both disagree", args: []string{"litmus", "-engine", "both", sbTest}, engines: map[string]batch.Engine{"smt": flippedSMT}, code: 4,
			out: []string{"Test SB Allowed\nDisagreement enum says Ok, smt says No"}, errOut: []string{"SB.litmus: the engines disagree on SB: enum says Ok, smt says No"}},
		{name: "litmus both disagree json", args: []string{"litmus", "-json", "-engine", "both", sbTest}, engines: map[string]batch.Engine{"smt": flippedSMT}, code: 4,
			out: []string{`"status":"disagreement"`, `"engines":{"enum":"Ok","smt":"No"}`, `"engine_disagreements":["SB"]`, `"exit_status":4`}},
		{name: "litmus both, smt times out: the answer, unconfirmed", args: []string{"litmus", "-engine", "both", "-timeout", "60s", sbTest}, engines: map[string]batch.Engine{"smt": saysTimeout}, code: 3,
			out: []string{"Observation SB Sometimes 1 3"}, errOut: []string{"musket litmus: SB: unconfirmed: the verdict is the enum engine's alone (smt: timeout (limit 1m0s))", "unconfirmed (one engine answered, the other did not finish): SB"}},
		{name: "litmus both, enum times out: the answer, unconfirmed, json", args: []string{"litmus", "-json", "-engine", "both", "-timeout", "60s", sbTest}, engines: map[string]batch.Engine{"enum": saysTimeout, "graph": saysTimeout}, code: 3,
			out: []string{`"engine":"smt","status":"done"`, `"verdict":"Ok"`, `"unconfirmed":"enum: timeout (limit 1m0s)"`, `"unconfirmed":["SB"]`, `"exit_status":3`}},
		{name: "litmus both, smt at its own limit", args: []string{"litmus", "-engine", "both", sbTest}, engines: map[string]batch.Engine{"smt": atLimit}, code: 3,
			out: []string{"Observation SB Sometimes 1 3"}, errOut: []string{"(smt: too many control-flow paths"}},
		{name: "litmus empty folder", args: []string{"litmus", empty}, code: 2, errOut: []string{"no tests found in " + empty}},
		{name: "litmus no operand", args: []string{"litmus"}, code: 2, errOut: []string{"musket litmus: no test given"}},
		{name: "litmus negative -j", args: []string{"litmus", "-j", "-1", sbTest}, code: 2, errOut: []string{`invalid value "-1" for flag -j: must be 0 or more`}},
		{name: "litmus negative -unroll", args: []string{"litmus", "-unroll", "-1", sbTest}, code: 2, errOut: []string{"flag -unroll: must be 0 or more"}},
		{name: "litmus negative -timeout", args: []string{"litmus", "-timeout", "-1s", sbTest}, code: 2, errOut: []string{"negative time limit -1s"}},
		{name: "litmus unknown engine", args: []string{"litmus", "-engine", "magic", sbTest}, code: 2, errOut: []string{`musket litmus: unknown engine "magic"`}},
		{name: "litmus verdict-only without smt", args: []string{"litmus", "-engine", "enum", "-verdict-only", sbTest}, code: 2, errOut: []string{"-verdict-only is for the SMT engine"}},
		{name: "litmus model error once", args: []string{"litmus", "-model", badCat, "../../examples/litmus"}, code: 2, notOut: []string{"Test "},
			errOut: []string{"musket litmus: the model fails (on ../../examples/litmus/SB+mfences.litmus): " + badCat + ":2:14: unbound name nosuch"}},
		{name: "check reachable", args: []string{"check", "a.pts"}, check: fakeCheck(false, false), code: 1, out: []string{"P: REACHABLE"}},
		{name: "check timeout", args: []string{"check", "a.pts"}, check: fakeCheck(false, true), code: 3, out: []string{"P: TIMEOUT"}},
		{name: "check both disagree", args: []string{"check", "-engine", "both", "a.pts"}, check: fakeCheck(true, false), code: 4,
			out: []string{"P: DISAGREEMENT"}, errOut: []string{"a.pts: the engines disagree on P: enum says REACHABLE, smt says UNREACHABLE"}},
		{name: "check both, smt times out: the answer, unconfirmed", args: []string{"check", "-engine", "both", "a.pts"}, check: fakeCheckStops("smt"), code: 3,
			out: []string{"P: REACHABLE"}, errOut: []string{"a.pts: unconfirmed: the other engine did not finish (smt: timeout (limit 1m0s)); this verdict is one engine's alone"}},
		{name: "check both, enum times out: json", args: []string{"check", "-json", "-engine", "both", "a.pts"}, check: fakeCheckStops("enum"), code: 3,
			out: []string{`"verdict":"REACHABLE"`, `"unconfirmed":"enum: timeout (limit 1m0s)"`, `"exit_status":3`}},
		{name: "check both agree", args: []string{"check", "-engine", "both", "a.pts"}, check: fakeCheck(false, false), code: 1, out: []string{"P: REACHABLE"}},
		{name: "check unwritable witness", args: []string{"check", "-witness", unwritable, "a.pts"}, check: fakeCheck(false, false), code: 2, errOut: []string{"cannot write the witness"}},
		{name: "check bound 0 on pts", args: []string{"check", "-bound", "0", "a.pts"}, code: 2, errOut: []string{"-bound 0: a .pts program (a.pts) needs a bound of 1 or more"}},
		{name: "check bound -1", args: []string{"check", "-bound", "-1", "a.pts"}, code: 2, errOut: []string{"flag -bound: must be 0 or more"}},
		{name: "check no operand", args: []string{"check"}, code: 2, errOut: []string{"musket check: no program given"}},
		{name: "check unrolled past the limit", args: []string{"check", "-bound", "300000", longLoop}, code: 3,
			errOut: []string{longLoop + ": t0: unrolled thread longer than 262144 instructions (a limit"}},
		{name: "prove timeout", args: []string{"prove", "-model", "tso", "-timeout", "1ns", "../../examples/asm/toppers-spinlock.litmus"}, code: 3, out: []string{"timeout"}},
		{name: "prove json", args: []string{"prove", "-json", "-model", "pso", "../../examples/asm/mp.litmus"}, code: 1, out: []string{`"verdict":"not proved"`}},
		{name: "prove no model", args: []string{"prove", "../../examples/asm/mp.litmus"}, code: 2, errOut: []string{"musket prove: -model is required"}},
		{name: "compare no source", args: []string{"compare", "-target", "tso", "a.pts"}, code: 2, errOut: []string{"musket compare: -source is required"}},
		{name: "compare negative timeout", args: []string{"compare", "-timeout", "-2s", "a.pts"}, code: 2, errOut: []string{"negative time limit"}},
		{name: "param two files", args: []string{"param", "a.cub", "b.cub"}, code: 2, errOut: []string{"musket param: give exactly one .cub file, not 2"}},
		{name: "param DNF limit", args: []string{"param", flatOr}, code: 3, errOut: []string{flatOr + ":6:", "limit reached: this formula has more than 4096 conjunctions in disjunctive normal form"}},
		{name: "param unsupported", args: []string{"param", procIndex}, code: 3, errOut: []string{procIndex + ":4:14: unsupported: A indexed by H, which holds no process"}},
		{name: "param unsupported json", args: []string{"param", "-json", procIndex}, code: 3, out: []string{`"status":"unsupported"`, `"exit_status":3`}},
		{name: "param negative depth", args: []string{"param", "-depth", "-3", "a.cub"}, code: 2, errOut: []string{"must be 0 or more"}},
		{name: "param forward-depth without brab", args: []string{"param", "-forward-depth", "6", "a.cub"}, code: 2, errOut: []string{"musket param: -forward-depth needs -brab"}},
		{name: "version", args: []string{"version"}, code: 0, out: []string{"musket ", "Z3 4."}},
		{name: "-version", args: []string{"-version"}, code: 0, out: []string{"Z3 4."}},
		{name: "help has the table", args: []string{"-h"}, code: 0, out: []string{"4    the two engines disagreed", "130  interrupted"}},
	}
	defer func(c func(ctx context.Context, path, engine string, c checkConfig) (*bmc.ProgramResult, error)) {
		checkRunner = c
	}(checkRunner)
	real := checkRunner
	for _, tc := range tests {
		testEngines = tc.engines
		checkRunner = real
		if tc.check != nil {
			checkRunner = tc.check
		}
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		testEngines = nil
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %s, stderr %s)", tc.name, code, tc.code, out.String(), errb.String())
		}
		for _, w := range tc.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tc.name, w, out.String())
			}
		}
		for _, w := range tc.notOut {
			if strings.Contains(out.String(), w) {
				t.Errorf("%s: stdout has %q:\n%s", tc.name, w, out.String())
			}
		}
		for _, w := range tc.errOut {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, errb.String())
			}
		}
		if tc.code == 2 && strings.Contains(errb.String(), "usage:") && !strings.HasPrefix(errb.String(), "musket ") && !strings.HasPrefix(errb.String(), "invalid value") {
			t.Errorf("%s: the usage comes before what is wrong:\n%s", tc.name, errb.String())
		}
	}
}

// TestExitStatusesOnTheCorpus runs compare and param into their
// statuses on small files of the shared corpus and the examples.
func TestExitStatusesOnTheCorpus(t *testing.T) {
	cub := "../../../shared/corpus/cubicle"
	if _, err := os.Stat(cub); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the shared corpus is missing: %v", err)
		}
		t.Skipf("the shared corpus is missing: %v", err)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"compare fails", []string{"compare", "-source", "sc", "-target", "tso", sbTest}, 1},
		{"compare holds", []string{"compare", "-source", "tso", "-target", "sc", sbTest}, 0},
		{"compare timeout", []string{"compare", "-source", "sc", "-target", "tso", "-timeout", "1ns", sbTest}, 3},
		{"param safe", []string{"param", cub + "/mutex_N.cub"}, 0},
		{"param unsafe", []string{"param", cub + "/mutex_N_us.cub"}, 1},
		{"param timeout", []string{"param", "-timeout", "1ns", cub + "/mutex_N.cub"}, 3},
		{"param bad file", []string{"param", "nosuch.cub"}, 2},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		if code := dispatch(tc.args, &out, &errb); code != tc.code {
			t.Errorf("%s: exit %d, want %d (stdout %s, stderr %s)", tc.name, code, tc.code, out.String(), errb.String())
		}
	}
}

// TestModelErrorOnce checks that a model that fails on every test is
// reported once, not once per test.
func TestModelErrorOnce(t *testing.T) {
	dir := t.TempDir()
	badCat := filepath.Join(dir, "bad.cat")
	os.WriteFile(badCat, []byte("\"bad\"\nacyclic po | nosuch as x\n"), 0o644)
	tests := filepath.Join(dir, "tests")
	os.Mkdir(tests, 0o755)
	src, _ := os.ReadFile(sbTest)
	for i := 0; i < 20; i++ {
		os.WriteFile(filepath.Join(tests, string(rune('a'+i))+".litmus"), src, 0o644)
	}
	var out, errb bytes.Buffer
	code := dispatch([]string{"litmus", "-j", "2", "-model", badCat, tests}, &out, &errb)
	if code != 2 || strings.Count(errb.String(), "unbound name nosuch") != 1 || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out.String(), errb.String())
	}
}

// TestJSONLines checks that -json prints only JSON objects, one a line,
// the last one the summary, with or without -expect.
func TestJSONLines(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "e.csv")
	os.WriteFile(csv, []byte("litmus/SB.litmus,1\nlitmus/SB+mfences.litmus,1\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		sum  func(s litmusSummary) bool
	}{
		{"plain", []string{"litmus", "-json", "../../examples/litmus"}, 0, func(s litmusSummary) bool { return s.Tests == 2 && s.Finished == 2 && s.Expect == nil }},
		{"expect", []string{"litmus", "-json", "-expect", csv, "../../examples/litmus"}, 1, func(s litmusSummary) bool {
			return s.Expect != nil && s.Expect.Agreed == 1 && s.Expect.Compared == 2 && len(s.Expect.Disagreements) == 1 && s.ExitStatus == 1
		}},
		{"timeouts by name", []string{"litmus", "-json", "-timeout", "5ms", "../../examples/litmus"}, 3, func(s litmusSummary) bool {
			return strings.Join(s.Timeouts, ",") == "SB+mfences,SB"
		}},
	}
	for _, tc := range tests {
		if strings.HasPrefix(tc.name, "timeouts") {
			testEngines = map[string]batch.Engine{"enum": untilStopped}
		}
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		testEngines = nil
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d (%s)", tc.name, code, tc.code, errb.String())
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		for i, l := range lines {
			var v map[string]any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				t.Errorf("%s: line %d is not JSON: %q", tc.name, i+1, l)
			}
		}
		var s struct {
			Summary *litmusSummary `json:"summary"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil || s.Summary == nil || !tc.sum(*s.Summary) {
			t.Errorf("%s: last line is not the expected summary: %s", tc.name, lines[len(lines)-1])
		}
	}
}

// TestSMTOutput checks that the SMT engine's text prints only what it
// computed: no execution counts, and no states with -verdict-only.
func TestSMTOutput(t *testing.T) {
	tests := []struct {
		args     []string
		has, not []string
	}{
		{[]string{"litmus", "-engine", "smt", sbTest}, []string{"States 4", "Ok", "Observation SB Sometimes\n"}, []string{"Positive", "Witnesses"}},
		{[]string{"litmus", "-engine", "smt", "-verdict-only", sbTest}, []string{"Ok", "Observation SB Sometimes\n"}, []string{"States", "Positive"}},
		{[]string{"litmus", "-engine", "smt", "-json", "-verdict-only", sbTest}, []string{`"verdict":"Ok"`}, []string{`"states"`, `"positive"`}},
		{[]string{"litmus", sbTest}, []string{"States 4", "Witnesses\nPositive: 1 Negative: 3", "Observation SB Sometimes 1 3"}, nil},
	}
	for _, tc := range tests {
		var out, errb bytes.Buffer
		if code := dispatch(tc.args, &out, &errb); code != 0 {
			t.Errorf("%q: exit %d (%s)", tc.args, code, errb.String())
		}
		for _, w := range tc.has {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%q: lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out.String(), w) {
				t.Errorf("%q: has %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// TestWitnessNames checks that tests with the same name get different
// witness files.
func TestWitnessNames(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(sbTest)
	for _, sub := range []string{"a", "b"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		os.WriteFile(filepath.Join(dir, sub, "SB.litmus"), src, 0o644)
	}
	w := filepath.Join(dir, "w.dot")
	var out, errb bytes.Buffer
	if code := dispatch([]string{"litmus", "-witness", w, dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, f := range []string{"w.SB.dot", "w.SB-2.dot"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	wf := newWitnessFiles("x.dot", true)
	got := []string{wf.name("A"), wf.name("A"), wf.name("A-2"), wf.name("a/b"), wf.name("A")}
	want := []string{"x.A.dot", "x.A-2.dot", "x.A-2-2.dot", "x.a_b.dot", "x.A-3.dot"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("witness names %q, want %q", got, want)
			break
		}
	}
}

func TestIsModelError(t *testing.T) {
	at := cat.Position{Filename: "m.cat", Line: 2, Column: 3}
	tests := []struct {
		err  error
		want bool
	}{
		{&cat.Error{Pos: at, Msg: "unbound name nosuch"}, true},
		{fmt.Errorf("test t: %w", &cat.Error{Pos: at, Msg: "cannot apply | to a set and a relation"}), true},
		{cat.ErrorList{&cat.Error{Pos: at, Msg: "unbound name x"}}, true},
		{&cat.Error{Pos: at, Msg: "evaluation takes more than 1000 steps"}, true}, // a function that never returns: every test meets it again
		{&cat.Error{Pos: at, Msg: "linearisations of 30 events: too many"}, false},
		{&cat.Error{Msg: "unbound name x"}, false},
		{errors.New("unbound name x"), false},
	}
	for _, tc := range tests {
		if got := isModelError(tc.err); got != tc.want {
			t.Errorf("isModelError(%v) = %v", tc.err, got)
		}
	}
}

// TestCheckJSONLines: 'check -json' prints one JSON object per program,
// then one {"summary": ...} object, and nothing else on stdout.
func TestCheckJSONLines(t *testing.T) {
	args := []string{"check", "-json", "-model", "tso", "-bound", "1", "../../examples/asm/mp.litmus", "../../examples/asm/mp+stbar.litmus"}
	var out, errb bytes.Buffer
	code := dispatch(args, &out, &errb)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("exit %d, %d lines, want 3:\n%s\n%s", code, len(lines), out.String(), errb.String())
	}
	for i, l := range lines {
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		if _, ok := v["summary"]; ok != (i == 2) {
			t.Errorf("line %d: summary %v", i+1, ok)
		}
	}
	var s map[string]checkSummary
	json.Unmarshal([]byte(lines[2]), &s)
	if got := s["summary"]; got.Programs != 2 || got.Checked != 2 || got.ExitStatus != code {
		t.Errorf("summary %+v, exit %d", got, code)
	}
}
