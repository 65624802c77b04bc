package playground

import (
	"context"
	"errors"
	"testing"

	"github.com/musket-verify/musket/internal/memlimit"
	"github.com/musket-verify/musket/internal/result"
)

// TestStatus: the answer's status and exit status follow the command
// line's table: a memory limit and an engine's own limit are limits
// (exit 3; robust6: they were "error", 2), a stop by the user is
// canceled, an error of the test is an error.
func TestStatus(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		r      result.Result
		ctx    context.Context
		status string
		exit   int
	}{
		{result.Result{Status: result.Done}, context.Background(), "done", 0},
		{result.Result{Status: result.Timeout}, context.Background(), "limit", 3},
		{result.Result{Status: result.Timeout}, canceled, "canceled", 130},
		{result.Result{Status: result.Unsupported}, context.Background(), "limit", 3},
		{result.Result{Status: result.MemoryLimit, Err: memlimit.Error()}, context.Background(), "limit", 3},
		{result.Result{Status: result.Failed, Err: result.Limit("too many control-flow paths")}, context.Background(), "limit", 3},
		{result.Result{Status: result.Failed, Err: errors.New("unknown register")}, context.Background(), "error", 2},
	} {
		if s, e := status(&tc.r, tc.ctx); s != tc.status || e != tc.exit {
			t.Errorf("%s (%v): %s %d, want %s %d", tc.r.Status, tc.r.Err, s, e, tc.status, tc.exit)
		}
	}
}
