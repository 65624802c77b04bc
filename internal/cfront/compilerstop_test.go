package cfront

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestRunCompilerStops: runCompiler returns with the context's error
// when the context ends, without waiting for the compiler's output to
// close. Here a child of the "compiler" holds its standard output open,
// as a process that takes long to exit does; waiting for it would hang.
func TestRunCompilerStops(t *testing.T) {
	for _, cancelFirst := range []bool{true, false} {
		script, ctx, cancel := stubbornCompiler(t, cancelFirst)
		_, _, err := runCompiler(ctx, script, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancel first %v: error %v, want the context's", cancelFirst, err)
		}
		cancel()
	}
}

// TestSessionStops: a fast front session whose compilation's context
// ends answers at once that it did not compile (the caller then sees the
// context done), without waiting for its output to close.
func TestSessionStops(t *testing.T) {
	script, ctx, cancel := stubbornCompiler(t, false)
	defer cancel()
	s := newFastSession(script)
	if s == nil {
		t.Fatal("no session")
	}
	if _, _, _, ok := s.runStatus(ctx, []string{"-c", "x.c"}); ok || !s.dead.Load() {
		t.Errorf("answered %v, dead %v; want no answer and a killed session", ok, s.dead.Load())
	}
	s.close()
}

// stubbornCompiler writes a "compiler" whose child holds its standard
// output open for ten minutes (killed when the test ends), and a context
// that ends at once (first) or once the child has started. The child
// starts only once the compiler has read a byte of its input (a
// session's request; at once for runCompiler, whose input is empty):
// started at once, the context could end before runStatus was called,
// which then answers without a session to kill (TestSessionStops failed
// so on an idle machine).
func stubbornCompiler(t *testing.T, first bool) (string, context.Context, context.CancelFunc) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := filepath.Join(dir, "cc.sh")
	body := "#!/bin/sh\nhead -c 1 >/dev/null\nsleep 600 &\necho $! > " + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	if first {
		cancel()
		return script, ctx, cancel
	}
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			syscall.Select(0, nil, nil, nil, &syscall.Timeval{Usec: 1000})
		}
	}()
	return script, ctx, cancel
}
