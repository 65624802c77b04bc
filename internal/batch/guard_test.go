package batch

import (
	"context"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/spec"
)

// TestWithin: an engine call that returns is answered as it is; one that
// does not stop at its deadline is abandoned and reported as a time-out
// with an error saying so, whether the deadline is the test's limit or
// the run being stopped.
func TestWithin(t *testing.T) {
	defer func(g time.Duration) { stopGrace = g }(stopGrace)
	stopGrace = 20 * time.Millisecond
	test := &spec.Test{Name: "T", File: "t.litmus"}
	release := make(chan struct{})
	defer close(release)
	stuck := func(context.Context) *result.Result { <-release; return &result.Result{Status: result.Done} }
	prompt := func(c context.Context) *result.Result {
		<-c.Done()
		return &result.Result{Name: "T", Status: result.Timeout}
	}
	done := func(context.Context) *result.Result { return &result.Result{Name: "T", Status: result.Done} }
	stopped, stop := context.WithCancel(context.Background())
	stop()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		limit   time.Duration
		run     func(context.Context) *result.Result
		status  result.Status
		abandon bool
	}{
		{"answers", context.Background(), time.Minute, done, result.Done, false},
		{"no limit", context.Background(), 0, done, result.Done, false},
		{"stops at its limit", context.Background(), time.Millisecond, prompt, result.Timeout, false},
		{"ignores its limit", context.Background(), time.Millisecond, stuck, result.Timeout, true},
		{"ignores the run's stop", stopped, 0, stuck, result.Timeout, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := within(tc.ctx, tc.limit, test, tc.run)
			if r.Status != tc.status || (r.Err != nil) != tc.abandon {
				t.Fatalf("status %s, err %v; want %s, abandoned %v", r.Status, r.Err, tc.status, tc.abandon)
			}
			if r.Name != "T" {
				t.Fatalf("name %q", r.Name)
			}
		})
	}
}

// TestParseStopped: a run stopped while a test is parsed reports the test
// as stopped (a time-out, Canceled in Run), not as bad input, and no
// engine runs (robust5: the parse did not look at -timeout, nor at the
// run being stopped). The time limit covers the parse: its context is the
// one the parse sees.
func TestParseStopped(t *testing.T) {
	stopped, stop := context.WithCancel(context.Background())
	stop()
	ran := false
	opts := Options{Timeout: time.Hour, Engine: "probe", Engines: map[string]Engine{"probe": func(ctx context.Context, t *spec.Test, m *cat.Model, name string, tags []string, opts Options) *result.Result {
		ran = true
		return &result.Result{Name: t.Name, Status: result.Timeout}
	}}}
	j := runOne(stopped, 0, "../../examples/litmus/SB.litmus", &models{cache: map[string]*modelEntry{}, opts: opts}, opts)
	if j.Err != nil || j.Result == nil || j.Result.Status != result.Timeout || j.Result.Name != "SB" || ran {
		t.Fatalf("job %+v (engine ran: %v), want a time-out of SB before the engine", j, ran)
	}
}
