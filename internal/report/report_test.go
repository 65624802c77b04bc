package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func sample() *result.Result {
	return &result.Result{
		Name: "SB", Model: "tso", Quant: spec.Exists,
		Condition: `exists (0:EAX=0 /\ 1:EAX=0)`,
		Observed:  []spec.Ref{{Thread: 0, Name: "EAX"}, {Thread: 1, Name: "EAX"}},
		States: []result.State{
			{prog.IntValue(0), prog.IntValue(0)},
			{prog.IntValue(1), prog.IntValue(1)},
		},
		Positive: 1, Negative: 3, Time: 10 * time.Millisecond,
	}
}

func TestTextLikeHerd(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(r *result.Result)
		want   string
	}{
		{"ok", func(*result.Result) {}, "Test SB Allowed\nStates 2\n0:EAX=0; 1:EAX=0;\n0:EAX=1; 1:EAX=1;\nOk\nWitnesses\nPositive: 1 Negative: 3\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nObservation SB Sometimes 1 3\nTime SB 0.01\n\n"},
		{"forall never", func(r *result.Result) { r.Quant, r.Positive = spec.Forall, 0 }, "Test SB Required\n"},
		{"flags", func(r *result.Result) { r.Flags = []string{"data-race"} }, "Flag data-race\nCondition"},
		{"timeout", func(r *result.Result) { r.Status = result.Timeout }, "Timeout SB after 0.01s (no verdict)"},
		{"timeout, the limit given", func(r *result.Result) { r.Status, r.Limit = result.Timeout, 3*time.Second }, "Timeout SB: no verdict within the time limit of 3s (stopped after 0.01s)"},
		{"error", func(r *result.Result) { r.Status, r.Err = result.Failed, errors.New("boom") }, "Test SB error\nError boom\n"},
		{"engine limit", func(r *result.Result) { r.Status, r.Err = result.Failed, result.Limit("too many paths") }, "Test SB limit\nError too many paths\n"},
		{"counts omitted", func(r *result.Result) { r.CountsOmitted = true }, "Test SB Allowed\nStates 2\n0:EAX=0; 1:EAX=0;\n0:EAX=1; 1:EAX=1;\nOk\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nObservation SB Sometimes\nTime SB 0.01\n\n"},
		{"states omitted", func(r *result.Result) { r.StatesOmitted, r.CountsOmitted = true, true }, "Test SB Allowed\nOk\nCondition"},
		{"pruned, herd7's -speedcheck", func(r *result.Result) { r.Pruned = true }, "Observation SB Sometimes 1 3\nPruned SB: only the executions that can settle the condition were enumerated (-speedcheck)\nTime SB"},
		{"~exists: Forbidden, counts against the negation", func(r *result.Result) { r.Quant, r.Positive, r.Negative = spec.NotExists, 0, 4 }, "Test SB Forbidden\nStates 2\n0:EAX=0; 1:EAX=0;\n0:EAX=1; 1:EAX=1;\nOk\nWitnesses\nPositive: 4 Negative: 0\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nObservation SB Never 0 4\n"},
		{"undefined", func(r *result.Result) { r.Flags = []string{result.UndefFlag} }, "Undef\nWitnesses\nPositive: 1 Negative: 3\nFlag *undef*\n"},
		{"loop bound", func(r *result.Result) { r.Bounded = true }, "1:EAX=1;\nLoop Ok\nWitnesses"},
		{"herd's order of refs and states", func(r *result.Result) {
			r.Arch = "RISCV"
			r.Observed = []spec.Ref{{Thread: -1, Name: "x"}, {Thread: 1, Name: "x10"}, {Thread: 1, Name: "x9"}, {Thread: 0, Name: "x5"}}
			r.States = []result.State{
				{prog.IntValue(10), prog.IntValue(0), prog.IntValue(0), prog.AddrValue("y")},
				{prog.IntValue(2), prog.IntValue(0), prog.IntValue(0), prog.IntValue(0)},
				{prog.IntValue(9), prog.IntValue(0), prog.IntValue(0), prog.IntValue(0)},
			}
		}, "States 3\n0:x5=0; 1:x9=0; 1:x10=0; [x]=2;\n0:x5=0; 1:x9=0; 1:x10=0; [x]=9;\n0:x5=y; 1:x9=0; 1:x10=0; [x]=10;\n"},
		{"x86's order of registers", func(r *result.Result) {
			r.Arch = "X86"
			r.Observed = []spec.Ref{{Thread: 0, Name: "EDI"}, {Thread: 0, Name: "EBP"}, {Thread: 0, Name: "EAX"}}
			r.States = []result.State{{prog.IntValue(1), prog.IntValue(2), prog.IntValue(3)}}
		}, "States 1\n0:EAX=3; 0:EDI=1; 0:EBP=2;\n"},
		{"pruned, portfolio", func(r *result.Result) { r.Pruned, r.StatesOmitted, r.CountsOmitted = true, true, true }, "Test SB Allowed\nOk\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nPruned SB:"},
	}
	for _, tc := range tests {
		r := sample()
		tc.mutate(r)
		var b bytes.Buffer
		Text(&b, r)
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s:\n%s\nwant it to contain\n%s", tc.name, b.String(), tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sample(), "Ok"); err != nil {
		t.Fatal(err)
	}
	var j map[string]any
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"name": "SB", "verdict": "Ok", "observation": "Sometimes", "expected": "Ok", "positive": 1.0} {
		if j[k] != want {
			t.Errorf("%s = %v, want %v", k, j[k], want)
		}
	}
	if st := j["states"].([]any); len(st) != 2 || st[0].(map[string]any)["1:EAX"] != "0" {
		t.Errorf("states %v", j["states"])
	}
}

// TestJSONOmitted checks that what an engine did not compute is absent
// from the JSON object, not zero.
func TestJSONOmitted(t *testing.T) {
	tests := []struct {
		name          string
		states, count bool
		absent        []string
		present       []string
	}{
		{"all", false, false, nil, []string{`"states":[`, `"positive":1`, `"negative":3`}},
		{"no counts", false, true, []string{`"positive"`, `"negative"`}, []string{`"states":[`}},
		{"no states", true, true, []string{`"states"`, `"positive"`}, []string{`"verdict":"Ok"`}},
		{"pruned", true, true, []string{`"states"`, `"positive"`, `"observation"`}, []string{`"verdict":"Ok"`, `"pruned":true`}},
	}
	for _, tc := range tests {
		r := sample()
		r.StatesOmitted, r.CountsOmitted = tc.states, tc.count
		r.Pruned = tc.name == "pruned"
		var b bytes.Buffer
		JSON(&b, r, "")
		for _, w := range tc.absent {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: has %s: %s", tc.name, w, b.String())
			}
		}
		for _, w := range tc.present {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: lacks %s: %s", tc.name, w, b.String())
			}
		}
	}
	empty := sample()
	empty.States = nil
	var b bytes.Buffer
	JSON(&b, empty, "")
	if !strings.Contains(b.String(), `"states":[]`) {
		t.Errorf("no states computed and none found are not an empty list: %s", b.String())
	}
}

func TestDot(t *testing.T) {
	x := &result.Execution{
		Events: []result.Event{{ID: 0, Thread: -1, Label: "a: W[x]=0"}, {ID: 1, Thread: 0, Label: "b: R[x]=0"}},
		Rf:     [][2]int{{0, 1}},
	}
	var b bytes.Buffer
	if err := Dot(&b, "T", x); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`digraph "T"`, `label="init"`, `e1 [label="b: R[x]=0"]`, `e0 -> e1 [label="rf"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("dot lacks %q:\n%s", want, b.String())
		}
	}
}

// A ref of an unsigned 64-bit type is printed unsigned, as herd prints
// it; the others signed.
func TestUnsignedValues(t *testing.T) {
	x5, x6 := spec.Ref{Thread: 0, Name: "X5"}, spec.Ref{Thread: 0, Name: "X6"}
	r := &result.Result{Arch: "AArch64", Observed: []spec.Ref{x5, x6},
		States:   []result.State{{prog.IntValue(-1), prog.IntValue(-1)}},
		Unsigned: []spec.Ref{x5}}
	if got, want := herdStates(r), []string{"0:X5=18446744073709551615; 0:X6=-1;"}; !reflect.DeepEqual(got, want) {
		t.Errorf("states %q, want %q", got, want)
	}
	if got, want := StateLine(r, r.States[0]), "0:X5=18446744073709551615; 0:X6=-1;"; got != want {
		t.Errorf("state line %q, want %q", got, want)
	}
}

// The cells of an array the condition compares whole (Result.Arrays)
// print as one value, herd's "t={1,3};", where the first comes in herd's
// order; the cells of other arrays print one by one.
func TestArrayStates(t *testing.T) {
	cell := func(a string, i int) spec.Ref { return spec.Ref{Thread: -1, Name: a + "[" + strconv.Itoa(i) + "]"} }
	r := &result.Result{Arch: "AArch64",
		Observed: []spec.Ref{cell("t", 1), {Thread: 0, Name: "X2"}, cell("u", 0), cell("t", 0), {Thread: -1, Name: "x"}},
		States: []result.State{
			{prog.IntValue(3), prog.IntValue(0), prog.IntValue(7), prog.IntValue(-1), prog.IntValue(2)},
			{prog.IntValue(3), prog.IntValue(1), prog.IntValue(7), prog.IntValue(1), prog.IntValue(2)},
		},
		Arrays: map[string]int{"t": 2}}
	want := []string{"0:X2=0; t={-1,3}; u[0]=7; [x]=2;", "0:X2=1; t={1,3}; u[0]=7; [x]=2;"}
	if got := herdStates(r); !reflect.DeepEqual(got, want) {
		t.Errorf("states %q, want %q", got, want)
	}
}

// herd7's -hexa: the values and the condition's constants in
// hexadecimal, a negative one as its 64 bits.
func TestHexa(t *testing.T) {
	x := spec.Ref{Thread: -1, Name: "x"}
	r := &result.Result{Arch: "C", Observed: []spec.Ref{{Thread: 0, Name: "r0"}, x},
		States:    []result.State{{prog.IntValue(-1), prog.IntValue(26)}},
		Condition: "exists (0:r0=-1 /\\ not ([x]=26) /\\ 0:r1=0:r2)"}
	Hexa(r)
	Hexa(r) // once only
	if got, want := herdStates(r), []string{"0:r0=0xffffffffffffffff; [x]=0x1a;"}; !reflect.DeepEqual(got, want) {
		t.Errorf("states %q, want %q", got, want)
	}
	if want := "exists (0:r0=0xffffffffffffffff /\\ not ([x]=0x1a) /\\ 0:r1=0:r2)"; r.Condition != want {
		t.Errorf("condition %q, want %q", r.Condition, want)
	}
}
