package batch

import (
	"context"
	"errors"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/prog"
	"github.com/musket-verify/musket/internal/result"
)

func state(vs ...int64) result.State {
	s := make(result.State, len(vs))
	for i, v := range vs {
		s[i] = prog.IntValue(v)
	}
	return s
}

// flagged gives r the flags fs.
func flagged(r *result.Result, fs ...string) *result.Result {
	r.Flags = fs
	return r
}

func TestCompare(t *testing.T) {
	obs := []spec.Ref{{Thread: 0, Name: "EAX"}, {Thread: 1, Name: "EAX"}}
	swapped := []spec.Ref{obs[1], obs[0]}
	mk := func(engine string, pos, neg int, refs []spec.Ref, states ...result.State) *result.Result {
		return &result.Result{Engine: engine, Quant: spec.Exists, Positive: pos, Negative: neg, Observed: refs, States: states}
	}
	tests := []struct {
		name string
		a, b *result.Result
		want string // "" or a part of the difference
	}{
		{"same", mk("enum", 1, 3, obs, state(0, 0), state(1, 1)), mk("smt", 1, 1, obs, state(0, 0), state(1, 1)), ""},
		{"counts differ, not the answer", mk("enum", 5, 3, obs, state(0, 0)), mk("smt", 1, 1, obs, state(0, 0)), ""},
		{"refs in another order", mk("enum", 1, 1, obs, state(0, 1)), mk("smt", 1, 1, swapped, state(1, 0)), ""},
		{"verdict", mk("enum", 1, 3, obs), mk("smt", 0, 3, obs), "enum says Ok, smt says No"},
		{"observation", mk("enum", 1, 0, obs), mk("smt", 1, 1, obs), "enum observes Always, smt observes Sometimes"},
		{"states", mk("enum", 1, 1, obs, state(0, 0), state(1, 1)), mk("smt", 1, 1, obs, state(0, 0), state(0, 1)),
			"only enum reaches 0:EAX=1; 1:EAX=1;; only smt reaches 0:EAX=0; 1:EAX=1;"},
		{"flags", flagged(mk("enum", 1, 1, obs, state(0, 0))), flagged(mk("smt", 1, 1, obs, state(0, 0)), "unmatched-rcu-lock"),
			"different flags: enum raises [], smt raises [unmatched-rcu-lock]"},
		{"same flags", flagged(mk("enum", 1, 1, obs, state(0, 0)), "a", "b"), flagged(mk("smt", 1, 1, obs, state(0, 0)), "a", "b"), ""},
	}
	for _, tc := range tests {
		got := Compare(tc.a, tc.b)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Compare = %q, want %q", tc.name, got, tc.want)
		}
	}
	omitted := mk("smt", 1, 1, obs)
	omitted.StatesOmitted = true
	if got := Compare(mk("enum", 1, 1, obs, state(0, 0)), omitted); got != "" {
		t.Errorf("states compared although one engine did not list them: %q", got)
	}
}

func writeTests(t *testing.T, n int) []string {
	dir := t.TempDir()
	var files []string
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, string(rune('a'+i))+".litmus")
		os.WriteFile(p, []byte(sb), 0o644)
		files = append(files, p)
	}
	return files
}

// flipped is an SMT engine that answers the opposite of the explicit one.
func flipped(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
	r := enum.Run(ctx, t, m, name, enum.Options{TagNames: tags})
	r.Engine = "smt"
	if r.Positive > 0 {
		r.Positive = 0
	} else {
		r.Positive = 1
	}
	r.CountsOmitted = true
	return r
}

func TestBothEngines(t *testing.T) {
	files := writeTests(t, 1)
	tests := []struct {
		name     string
		engines  map[string]Engine
		disagree string
	}{
		{"the real engines agree", nil, ""},
		{"a disagreement is reported", map[string]Engine{"smt": flipped}, "enum says Ok, smt says No"},
	}
	for _, tc := range tests {
		var got []Job
		Run(context.Background(), files, Options{Engine: "both", Engines: tc.engines}, func(j Job) { got = append(got, j) })
		if len(got) != 1 || got[0].Err != nil || got[0].Result.Status != result.Done {
			t.Fatalf("%s: %+v", tc.name, got)
		}
		j := got[0]
		switch {
		case tc.disagree == "" && j.Disagreement != nil:
			t.Errorf("%s: disagreement %v", tc.name, j.Disagreement)
		case tc.disagree == "" && (j.Result.Engine != "both" || j.Result.Positive != 1 || j.Result.Negative != 3 || len(j.Result.States) != 4):
			t.Errorf("%s: the agreed result is not the explicit engine's: %+v", tc.name, j.Result)
		case tc.disagree != "" && (j.Disagreement == nil || !strings.Contains(j.Disagreement.Error(), tc.disagree) || !strings.Contains(j.Disagreement.Error(), "SB")):
			t.Errorf("%s: disagreement %v, want one naming SB and saying %q", tc.name, j.Disagreement, tc.disagree)
		}
	}
}

// TestBothUnconfirmed: under -engine both, when one engine stops at a
// limit and the other answers, the answer is kept, marked with the
// engine that did not finish (robust6: the run said "timed out" and the
// answer found was lost); when neither answers, or the first fails on
// an error of the test, there is no verdict.
func TestBothUnconfirmed(t *testing.T) {
	files := writeTests(t, 1)
	stopped := func(st result.Status) Engine {
		return func(c context.Context, tt *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
			return &result.Result{File: tt.File, Name: tt.Name, Engine: "enum", Status: st, Limit: time.Second}
		}
	}
	var smtRuns atomic.Int32
	failing := func(c context.Context, tt *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		return &result.Result{File: tt.File, Name: tt.Name, Engine: "enum", Status: result.Failed, Err: errors.New("bad test")}
	}
	countSMT := func(c context.Context, tt *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		smtRuns.Add(1)
		return builtinEngines["smt"](c, tt, m, name, tags, opts)
	}
	tests := []struct {
		name        string
		engines     map[string]Engine
		status      result.Status
		unconfirmed string
		engine      string
	}{
		{"smt times out", map[string]Engine{"smt": stopped(result.Timeout)}, result.Done, "smt: timeout (limit 1s)", "enum"},
		{"smt out of memory", map[string]Engine{"smt": stopped(result.MemoryLimit)}, result.Done, "smt: memory limit", "enum"},
		{"enum times out", map[string]Engine{"enum": stopped(result.Timeout), "graph": stopped(result.Timeout)}, result.Done, "enum: timeout (limit 1s)", "smt"},
		{"enum unsupported", map[string]Engine{"enum": stopped(result.Unsupported), "graph": stopped(result.Unsupported)}, result.Done, "enum: unsupported", "smt"},
		{"neither answers", map[string]Engine{"enum": stopped(result.Timeout), "graph": stopped(result.Timeout), "smt": stopped(result.Timeout)}, result.Timeout, "", ""},
		{"the test is wrong", map[string]Engine{"enum": failing, "smt": countSMT}, result.Failed, "", ""},
	}
	for _, tc := range tests {
		var got []Job
		Run(context.Background(), files, Options{Engine: "both", Engines: tc.engines}, func(j Job) { got = append(got, j) })
		if len(got) != 1 || got[0].Err != nil || got[0].Disagreement != nil {
			t.Fatalf("%s: %+v", tc.name, got)
		}
		r := got[0].Result
		if r.Status != tc.status || r.Unconfirmed != tc.unconfirmed || tc.engine != "" && r.Engine != tc.engine {
			t.Errorf("%s: status %s, unconfirmed %q, engine %s; want %s, %q, %s", tc.name, r.Status, r.Unconfirmed, r.Engine, tc.status, tc.unconfirmed, tc.engine)
		}
		if tc.status == result.Done && (!r.Ok() || len(r.States) != 4) { // SB is allowed under TSO
			t.Errorf("%s: the answer kept is not SB's: %+v", tc.name, r)
		}
	}
	if smtRuns.Load() != 0 {
		t.Errorf("the SMT engine ran %d times after the explicit one failed on the test", smtRuns.Load())
	}
}

// TestRunStopped checks that a run whose context is canceled emits the
// files already started (those cut short marked Canceled), in order, and
// starts no more.
func TestRunStopped(t *testing.T) {
	files := writeTests(t, 6)
	ctx, cancel := context.WithCancel(context.Background())
	var started atomic.Int32
	slow := func(c context.Context, tt *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		if tt.File == files[0] {
			return &result.Result{File: tt.File, Name: tt.Name, Status: result.Done}
		}
		if started.Add(1) == 2 {
			cancel()
		}
		<-c.Done()
		return &result.Result{File: tt.File, Name: tt.Name, Status: result.Timeout}
	}
	var got []Job
	done := make(chan bool)
	go func() {
		Run(ctx, files, Options{Jobs: 2, Engines: map[string]Engine{"enum": slow}}, func(j Job) { got = append(got, j) })
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not stop after its context was canceled")
	}
	if len(got) < 2 || len(got) == len(files) {
		t.Fatalf("%d jobs emitted, want the started ones only", len(got))
	}
	if got[0].Canceled || got[0].Result.Status != result.Done {
		t.Errorf("the finished first file is %+v", got[0])
	}
	for i, j := range got[1:] {
		if !j.Canceled {
			t.Errorf("job %d cut short is not marked Canceled", j.Index)
		}
		if i > 0 && j.Index <= got[i].Index {
			t.Errorf("jobs out of order: %d after %d", j.Index, got[i].Index)
		}
	}
}

// TestRunEmitsEarly checks that a result is emitted as soon as it and
// every file before it are done: file b finishes only after file a has
// been emitted.
func TestRunEmitsEarly(t *testing.T) {
	files := writeTests(t, 3)
	aEmitted := make(chan struct{})
	eng := func(c context.Context, tt *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		if tt.File != files[0] {
			select {
			case <-aEmitted:
			case <-time.After(time.Minute):
				return &result.Result{File: tt.File, Name: tt.Name, Status: result.Failed}
			}
		}
		return &result.Result{File: tt.File, Name: tt.Name, Status: result.Done}
	}
	var got []Job
	Run(context.Background(), files, Options{Jobs: 3, Engines: map[string]Engine{"enum": eng}}, func(j Job) {
		got = append(got, j)
		if j.Index == 0 {
			close(aEmitted)
		}
	})
	for i, j := range got {
		if j.Index != i || j.Result.Status != result.Done {
			t.Errorf("job %d: index %d, status %v (a was not emitted before b finished?)", i, j.Index, j.Result.Status)
		}
	}
}
