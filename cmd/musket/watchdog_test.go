package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWatchdogSummary: when the watchdog ends a run that did not stop
// within the grace of the signal (here, stuck reading a FIFO no one
// writes to), the summary of what finished is printed first (robust5:
// it was lost; only "musket: interrupted (...)" was said).
func TestWatchdogSummary(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(sbTest)
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "a.litmus")
	if err := os.WriteFile(a, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"litmus", []string{"litmus", "-j", "1"}, "interrupted: 1 of 2 tests finished"},
		{"litmus-json", []string{"litmus", "-j", "1", "-json"}, `"interrupted":true`},
		{"check", []string{"check"}, "interrupted: 1 of 2 programs checked"},
		{"check-json", []string{"check", "-json"}, `"checked":1`},
		{"prove", []string{"prove", "-model", "sc"}, "interrupted: 1 of 2 tests finished"},
		{"compare", []string{"compare", "-source", "sc", "-target", "tso"}, "interrupted: 1 of 2 checks finished"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fifo := filepath.Join(dir, tc.name+".litmus")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd, errb, rd := startMain(t, "real", append(tc.args, a, fifo)...)
			// The first line of output: a.litmus is done. The FIFO
			// opened for writing: the run has opened it, and it is stuck
			// reading it (a signal before that stopped the run in time).
			first, _ := rd.ReadString('\n')
			opened := make(chan *os.File, 1)
			go func() {
				w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
				if err != nil {
					t.Error(err)
				}
				opened <- w
			}()
			select {
			case w := <-opened:
				defer w.Close()
			case <-time.After(2 * time.Minute): // a guard, as waitStopped's
				cmd.Process.Kill()
				t.Fatal("the run never opened the FIFO")
			}
			cmd.Process.Signal(syscall.SIGINT)
			rest := new(bytes.Buffer)
			rest.ReadFrom(rd)
			err = waitStopped(t, cmd, tc.name+": did not stop on SIGINT")
			var ee *exec.ExitError
			all := first + rest.String() + errb.String()
			if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(errb.String(), "did not stop within") {
				t.Fatalf("%v, want exit status 130 from the watchdog\n%.2000s", err, all)
			}
			if !strings.Contains(all, tc.want) {
				t.Errorf("no summary %q:\n%.2000s", tc.want, all)
			}
		})
	}
}
