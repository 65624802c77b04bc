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

// TestSpinnerOnATerminal runs commands that do not end soon with stderr
// on a pseudo-terminal: musket litmus on one test that never ends
// (TestMain's engine), and gen's enumeration of cycles of up to 1000
// edges (robust6: gen showed nothing for its whole run). A spinner with
// the step's name and elapsed time is drawn there; then SIGINT stops
// the command. No timing is asserted: the test waits for the line,
// however long it takes.
func TestSpinnerOnATerminal(t *testing.T) {
	dir := t.TempDir()
	test := filepath.Join(dir, "slow.litmus")
	src, err := os.ReadFile(sbTest)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(test, src, 0o644)
	for _, tc := range []struct {
		args []string
		name string
	}{
		{[]string{"litmus", "-engine", "enum", test}, "slow"},
		{[]string{"gen", "-relax", "Rfe,PodRR,Fre,PodWW,PodRW,PodWR", "-size", "1000", "-nprocs", "0", "-o", filepath.Join(dir, "gen")}, "gen: enumerating the cycles"},
	} {
		spinnerOn(t, tc.args, tc.name)
	}
}

// spinnerOn runs musket with args and stderr on a pseudo-terminal until
// it draws the spinner of name, then stops it with SIGINT.
func spinnerOn(t *testing.T, args []string, name string) {
	master, slave, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal on this machine: %v", err)
	}
	defer master.Close()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MUSKET_TEST_AS_MAIN=1")
	cmd.Stderr = slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	// A guard, not a timing: without a spinner the run would wait forever.
	guard := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer guard.Stop()
	spinner := regexp.MustCompile(`\r\x1b\[K[|/\\-] ` + regexp.QuoteMeta(name) + ` [0-9]+\.[0-9]s`)
	r := bufio.NewReader(master)
	var seen []byte
	for !spinner.Match(seen) {
		b, err := r.ReadByte()
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s: no spinner on the terminal; it got %q (%v)", args[0], seen, err)
		}
		seen = append(seen, b)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Errorf("%s after SIGINT: %v, want exit %d", args[0], err, exitInterrupted)
	}
}
