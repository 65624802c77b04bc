package memlimit

import (
	"context"
	"runtime"
	"testing"
	"time"
)

func TestParseFormat(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		out  string
	}{
		{"0", 0, "none"},
		{"1024", 1024, "1KiB"},
		{"512M", 512 << 20, "512MiB"},
		{"4GiB", 4 << 30, "4GiB"},
		{"1.5g", 3 << 29, "1.5GiB"},
		{"2GB", 2 << 30, "2GiB"},
	} {
		n, err := Parse(c.in)
		if err != nil || n != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, n, err, c.want)
		}
		if f := Format(n); f != c.out {
			t.Errorf("Format(%d) = %q, want %q", n, f, c.out)
		}
	}
	for _, bad := range []string{"", "x", "-1G", "1Q", "1e30G"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// TestWatchCancels allocates past a small limit inside a watched task:
// the task's context is canceled with ErrExceeded.
func TestWatchCancels(t *testing.T) {
	old := Limit()
	defer Set(old)
	Set(64 << 20)
	ctx, done := Watch(context.Background())
	defer done()
	var keep [][]byte
	for ctx.Err() == nil && len(keep) < 200 { // 800 MiB at most
		keep = append(keep, make([]byte, 4<<20))
		time.Sleep(time.Millisecond)
	}
	// Held past the limit (counted at a collection), the memory stops
	// the task at the watcher's next tick, however late a loaded machine
	// runs it: a wait on the context, with a generous guard, not a race
	// between the watcher and the allocations.
	runtime.GC()
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	if !Exceeded(ctx) {
		t.Fatalf("not canceled by the memory limit after %d MiB", 4*len(keep))
	}
	runtime.KeepAlive(keep)
}

func TestDefault(t *testing.T) {
	if d := Default(); d <= 0 || d > 8<<30 {
		t.Errorf("Default() = %d", d)
	}
}
