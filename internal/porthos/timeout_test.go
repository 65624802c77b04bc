package porthos

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestTimeout: a deadline stops a check while it encodes (spin3.pts at
// bound 5 under Power takes minutes and gigabytes to encode) or between
// its oracle's iterations (a deadline already past), reported as a
// timeout with no verdict. The outcome is asserted (go test's own time
// limit catches a hang).
func TestTimeout(t *testing.T) {
	tests := []struct {
		name, file, source, target string
		bound                      int
		limit                      time.Duration
	}{
		{"while encoding", "spin3.pts", "x86:tso", "power:power", 5, 2 * time.Second},
		{"deadline past", "MP-rx.pts", "x86:tso", "power:power", 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, tgt := side(t, tc.source), side(t, tc.target)
			p, err := Load(filepath.Join("testdata", tc.file), &src, &tgt, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), tc.limit)
			defer cancel()
			r := Check(ctx, p, &src, &tgt, Options{Bound: tc.bound, All: true})
			if r.Status != Timeout || len(r.Missing) > 0 {
				t.Fatalf("status %s (%v), %d missing states; want a timeout and no verdict", r.Status, r.Err, len(r.Missing))
			}
		})
	}
}
