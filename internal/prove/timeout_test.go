package prove

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTimeout: a proof whose deadline has passed stops with ErrTimeout
// (a limit, not a verdict), not with a proof or a failed one.
func TestTimeout(t *testing.T) {
	for _, limit := range []time.Duration{0, time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		if limit > 0 {
			time.Sleep(2 * limit)
		}
		rep, err := Prove(ctx, filepath.Join(examples, "toppers-spinlock.litmus"), Options{Model: "tso"})
		cancel()
		if !errors.Is(err, ErrTimeout) {
			t.Errorf("limit %v: got %+v, %v; want ErrTimeout", limit, rep, err)
		}
	}
}

// TestTimeoutWhileParsing: a proof stopped before its test is read (a
// test of megabytes parses for seconds on a loaded machine; robust5)
// stops with ErrTimeout, and never runs the method.
func TestTimeoutWhileParsing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Prove(ctx, filepath.Join(examples, "toppers-spinlock.litmus"), Options{Model: "tso"})
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "while reading the test") {
		t.Errorf("got %+v, %v; want ErrTimeout while reading", rep, err)
	}
}
