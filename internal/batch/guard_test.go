package batch

import (
	"context"
	"testing"
	"time"

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
