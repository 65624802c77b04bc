package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputWriteError: output that cannot be written is said, and the
// exit status is at least 2 (robust7: "musket litmus > /dev/full" exited
// 0); an interruption stays 130, and a run whose output was written
// keeps its status. The unwritable output is a file opened read-only.
func TestOutputWriteError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		code     int
		readOnly bool
		want     int
		said     bool
	}{
		{exitOK, true, exitBadInput, true},
		{exitFailed, true, exitBadInput, true},
		{exitLimit, true, exitLimit, true},
		{exitDisagree, true, exitDisagree, true},
		{exitInterrupted, true, exitInterrupted, false},
		{exitOK, false, exitOK, false},
		{exitFailed, false, exitFailed, false},
	} {
		flag := os.O_WRONLY
		if tc.readOnly {
			flag = os.O_RDONLY
		}
		f, err := os.OpenFile(p, flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := &outWriter{f: f}
		// The run's output, through the writer as a command writes it.
		var errOut strings.Builder
		dispatch([]string{"models"}, out, &errOut)
		f.Close()
		errOut.Reset()
		if got := out.finish(tc.code, &errOut); got != tc.want || strings.Contains(errOut.String(), "the output could not be written") != tc.said {
			t.Errorf("exit %d, read-only %v: %d, stderr %q; want %d (said: %v)", tc.code, tc.readOnly, got, errOut.String(), tc.want, tc.said)
		}
	}
	if !isTerminal(&outWriter{f: os.Stdout}) && isTerminal(os.Stdout) {
		t.Error("isTerminal does not see the terminal through outWriter")
	}
}
