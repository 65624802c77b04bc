//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal (Linux's /dev/ptmx): the master end to
// read what a program writes to its terminal, the slave end to give it.
func openPTY() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// TestSpinnerOnATerminal runs musket litmus on one test that never ends
// (TestMain's engine) with stderr on a pseudo-terminal: a spinner with the
// test's name and elapsed time is drawn there; then SIGINT stops it. No
// timing is asserted: the test waits for the line, however long it takes.
func TestSpinnerOnATerminal(t *testing.T) {
	master, slave, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	defer master.Close()
	dir := t.TempDir()
	test := filepath.Join(dir, "slow.litmus")
	src, err := os.ReadFile(sbTest)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(test, src, 0o644)
	cmd := exec.Command(os.Args[0], "litmus", "-engine", "enum", test)
	cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MAIN=1")
	cmd.Stderr = slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	// A guard, not a timing: without a spinner the run would wait forever.
	guard := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer guard.Stop()
	spinner := regexp.MustCompile(`\r\x1b\[K[|/\\-] slow [0-9]+\.[0-9]s`)
	r := bufio.NewReader(master)
	var seen []byte
	for !spinner.Match(seen) {
		b, err := r.ReadByte()
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no spinner on the terminal; it got %q (%v)", seen, err)
		}
		seen = append(seen, b)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Errorf("after SIGINT: %v, want exit %d", err, exitInterrupted)
	}
}
