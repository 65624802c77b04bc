package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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
	if os.Getenv("MUSKET_TEST_AS_MAIN") == "1" {
		testEngines = map[string]batch.Engine{"enum": func(ctx context.Context, t *spec.Test, md *cat.Model, name string, tags []string, opts batch.Options) *result.Result {
			if filepath.Base(t.File) == "a.litmus" {
				return enum.Run(ctx, t, md, name, enum.Options{TagNames: tags})
			}
			<-ctx.Done()
			return &result.Result{File: t.File, Name: t.Name, Quant: t.Quant, Status: result.Timeout}
		}}
		os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
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
		cmd := exec.Command(os.Args[0], "litmus", "-j", "2", "-timeout", "0", dir)
		cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MAIN=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The first result printed means test a is done and the others
		// are running.
		rd := bufio.NewReader(out)
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
