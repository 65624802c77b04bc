package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/musket-verify/musket/internal/spec"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/musket-verify/musket/internal/batch"
	"github.com/musket-verify/musket/internal/cat"
	"github.com/musket-verify/musket/internal/enum"
	"github.com/musket-verify/musket/internal/result"
	"github.com/musket-verify/musket/internal/testcorpus"
)

// TestMain lets the test binary run as musket itself (env
// MUSKET_TEST_AS_MAIN=1), with an engine that finishes the test named
// "a" and runs every other until it is stopped: a run that can be
// interrupted while some tests are done.
func TestMain(m *testing.M) {
	if os.Getenv("MUSKET_TEST_AS_MUSKET") == "1" {
		// musket itself, with its engines (the shard tests).
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	switch os.Getenv("MUSKET_TEST_AS_MAIN") {
	case "real": // musket as built, with its own engines
		if os.Getenv("MUSKET_TEST_READY_FD") == "3" {
			// Signals are caught from here on (package earlysignal).
			f := os.NewFile(3, "ready")
			f.Write([]byte("ready\n"))
			f.Close()
		}
		os.Exit(runMain(os.Args[1:]))
	case "1":
		testEngines = map[string]batch.Engine{"enum": func(ctx context.Context, t *spec.Test, md *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
			if filepath.Base(t.File) == "a.litmus" {
				return enum.Run(ctx, t, md, name, enum.Options{TagNames: tags})
			}
			<-ctx.Done()
			return &result.Result{File: t.File, Name: t.Name, Quant: t.Quant, Status: result.Timeout}
		}}
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
	}
	// The tests (and the musket processes they start, which inherit the
	// environment) keep clang's compile cache in a folder of their own,
	// never in the user's.
	if os.Getenv("MUSKET_CACHE_DIR") == "" {
		if dir, err := os.MkdirTemp("", "musket-test-cache-"); err == nil {
			os.Setenv("MUSKET_CACHE_DIR", dir)
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

// TestInterrupt sends SIGINT and SIGTERM to a running batch: it prints
// the result of what finished and the summary, and exits with 130.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(sbTest)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c", "d"} {
		os.WriteFile(filepath.Join(dir, n+".litmus"), src, 0o644)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd, errb, rd := startMain(t, "1", "litmus", "-j", "2", "-timeout", "0", dir)
		// The first result printed means test a is done and the others
		// are running.
		first, _ := rd.ReadString('\n')
		cmd.Process.Signal(sig)
		rest := new(bytes.Buffer)
		rest.ReadFrom(rd)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("%v: the run did not stop", sig)
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%v: %v, want exit status 130 (stderr %s)", sig, err, errb.String())
		}
		stdout := first + rest.String()
		if !strings.HasPrefix(stdout, "Test SB Allowed") || strings.Count(stdout, "Test SB") != 1 {
			t.Errorf("%v: stdout is not the one finished test:\n%s", sig, stdout)
		}
		if !strings.Contains(errb.String(), "interrupted: 1 of 4 tests finished") {
			t.Errorf("%v: no summary on stderr:\n%s", sig, errb.String())
		}
	}
}

// TestInterruptSMT interrupts runs of the SMT engine (two workers, so
// that Z3 checks overlap) at several moments, from start-up to the middle
// of the batch: every run must end with exit status 130 and the summary,
// never by a signal (Z3's own SIGINT handler crashed Musket in
// musket_assert) and never by running on to the end.
func TestInterruptSMT(t *testing.T) {
	dir := testcorpus.Dir(t)
	folder := filepath.Join(dir, "litmus", "X86")
	for _, delay := range []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond} {
		cmd, _, errb := startReady(t, "litmus", "-engine", "smt", "-j", "2", "-timeout", "0", folder)
		time.Sleep(delay)
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		err := waitStopped(t, cmd, fmt.Sprintf("SIGINT after %v: the run did not stop", delay))
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("SIGINT after %v: %v, want exit status 130\nstderr: %.2000s", delay, err, errb.String())
			continue
		}
		if !strings.HasPrefix(lastLines(errb.String(), 2), "interrupted: ") {
			t.Errorf("SIGINT after %v: the summary does not start with 'interrupted':\n%s", delay, errb.String())
		}
		// How fast it stops is a measurement, not a verdict: a run that
		// does not stop is caught by the guard above.
		t.Logf("SIGINT after %v: stopped in %v", delay, took)
	}
}

// lastLines returns the last n lines of s (without its final newline).
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// startReady starts the test binary as musket with args and waits until
// its Go code runs (signals are caught from then on).
// waitStopped waits for cmd, started with startReady, to exit after a
// signal, and returns what Wait returned; a process still running after
// two minutes (generous: a loaded machine) is killed and the test fails
// with failure.
func waitStopped(t *testing.T, cmd *exec.Cmd, failure string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal(failure)
		return nil
	}
}

func startReady(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MAIN=real", "MUSKET_TEST_READY_FD=3")
	var outb, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &errb
	ready, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	bufio.NewReader(ready).ReadString('\n')
	ready.Close()
	return cmd, &outb, &errb
}

// TestInterruptCommands stops param, compare and the bench tables with
// SIGINT or SIGTERM in the middle of their work: each stops with exit
// status 130 and says it was interrupted (a guard of 2 minutes, generous
// for a loaded machine, catches a command that does not stop).
func TestInterruptCommands(t *testing.T) {
	dir := testcorpus.Dir(t)
	pts := filepath.Join(dir, "mutex", "pts")
	cases := []struct {
		args []string
		sig  syscall.Signal
	}{
		// chandy_misra takes seconds: sc_german, once the case here, now
		// ends (0.2 s) before the signal comes.
		{[]string{"param", filepath.Join(dir, "cubicle", "challenges", "chandy_misra.cub")}, syscall.SIGINT},
		// compare at bound 3 on the seven mutexes takes about a minute
		// (the three small ones at bound 2 now end in 0.1 s, before the
		// signal comes).
		{[]string{"compare", "-source", "tso", "-target", "power", "-bound", "3", filepath.Join(pts, "Bakery.pts"), filepath.Join(pts, "Burns.pts"), filepath.Join(pts, "Dekker.pts"), filepath.Join(pts, "Lamport.pts"), filepath.Join(pts, "Parker.pts"), filepath.Join(pts, "Peterson.pts"), filepath.Join(pts, "Szymanski.pts")}, syscall.SIGTERM},
		{[]string{"bench", "mutex", "-corpus", dir}, syscall.SIGINT},
		{[]string{"bench", "porthos", "-corpus", dir}, syscall.SIGTERM},
	}
	if os.Getenv("MUSKET_LONG") != "" {
		cases = append(cases, struct {
			args []string
			sig  syscall.Signal
		}{[]string{"bench", "cubicle", "-corpus", dir}, syscall.SIGINT}, struct {
			args []string
			sig  syscall.Signal
		}{[]string{"bench", "asm"}, syscall.SIGTERM})
	}
	for _, c := range cases {
		name := strings.Join(c.args[:2], " ")
		cmd, _, errb := startReady(t, c.args...)
		time.Sleep(400 * time.Millisecond)
		sent := time.Now()
		cmd.Process.Signal(c.sig)
		err := waitStopped(t, cmd, fmt.Sprintf("%s: did not stop on %v", name, c.sig))
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%s: %v on %v, want exit status 130\nstderr: %.2000s", name, err, c.sig, errb.String())
			continue
		}
		if !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("%s: stderr does not say it was interrupted:\n%s", name, errb.String())
		}
		// A measurement, not a verdict (a hang is the guard's).
		t.Logf("%s: stopped in %v on %v", name, took, c.sig)
	}
}

// startMain starts the test binary as musket's main (MUSKET_TEST_AS_MAIN
// set to as) with args, and gives its standard error, collected, and
// its standard output to read as it comes.
func startMain(t *testing.T, as string, args ...string) (*exec.Cmd, *bytes.Buffer, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MAIN="+as)
	errb := new(bytes.Buffer)
	cmd.Stderr = errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, errb, bufio.NewReader(out)
}
