package main

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInterruptFIFO: a command whose input is a FIFO that no one writes
// to is stuck in open(2), where nothing looks at signals; SIGINT or
// SIGTERM still ends it with exit status 130 (earlysignal's grace), in
// whichever phase the signal finds it. (The guard of 2 minutes catches
// a command that does not stop; it hung for good before.)
func TestInterruptFIFO(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		cmd, file string
		sig       syscall.Signal
	}{
		{"litmus", "f.litmus", syscall.SIGINT},
		{"check", "f.pts", syscall.SIGTERM},
		{"param", "f.cub", syscall.SIGINT},
		{"fix", "f2.litmus", syscall.SIGTERM},
		{"prove", "f3.litmus", syscall.SIGINT},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			fifo := filepath.Join(dir, tc.file)
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			args := []string{tc.cmd, fifo}
			if tc.cmd == "prove" {
				args = []string{tc.cmd, "-model", "sc", fifo}
			}
			cmd, _, errb := startReady(t, args...)
			cmd.Process.Signal(tc.sig)
			err := waitStopped(t, cmd, fmt.Sprintf("%s: did not stop on %v", tc.cmd, tc.sig))
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("%s: %v on %v, want exit status 130 and a word that it was interrupted\nstderr: %.2000s", tc.cmd, err, tc.sig, errb.String())
			}
		})
	}
}
