package cfront

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// The fast front: musket-cc (tools/musket-cc) is clang-14's driver and
// C compiler built from clang's and LLVM's static libraries into one
// static executable. Starting clang-14 costs ~0.15 s of CPU before it
// reads the program, most of it the dynamic loader relocating
// libLLVM-14.so and libclang-cpp.so; musket-cc has no dynamic relocations
// and starts in a few milliseconds. It takes clang-14's arguments and
// writes what clang-14 writes (the same IR, diagnostics and exit
// status): internal/cfront's TestFastFrontSameIR compares them on every
// C file of the repository. What it does not handle (response files,
// targets other than x86 and -mllvm options of their back ends, the
// driver's debugging variables, a clang-14 of another release than the
// libraries it was built from) it refuses
// with exit status 125, and CompileIR runs clang-14 instead; it does so
// too when musket-cc crashes.
//
// musket-cc is used when Clang is clang-14 and it is found: the file
// MUSKET_CC names ("off" turns it off), else musket-cc beside the
// running executable, else musket-cc in PATH (scripts/setup-deps.sh
// builds it into /usr/local/bin).

// FastFrontName is the fast front's file name.
const FastFrontName = "musket-cc"

// fastRefused is the fast front's exit status for "run clang-14".
const fastRefused = 125

// fastRuns and fastFallbacks count the compilations the fast front
// answered and those it left to clang-14 (for tests).
var fastRuns, fastFallbacks atomic.Int64

var (
	fastOnce sync.Once
	fastPath string
)

// FastFront returns the path of the fast front, "" when there is none
// or it is off.
func FastFront() string {
	fastOnce.Do(func() { fastPath = findFastFront() })
	return fastPath
}

// findFastFront looks for musket-cc as FastFront says.
func findFastFront() string {
	if v, ok := os.LookupEnv("MUSKET_CC"); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "off", "0", "false", "no", "":
			return ""
		}
		if isExecutable(v) {
			return v
		}
		return ""
	}
	if exe, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(exe), FastFrontName); isExecutable(p) {
			return p
		}
	}
	if p, err := exec.LookPath(FastFrontName); err == nil {
		return p
	}
	return ""
}

// isExecutable says whether p is a regular file someone may run.
func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// useFastFront says whether compilations go through the fast front: it
// stands for clang-14 only.
func useFastFront() (string, bool) {
	if Clang != "clang-14" {
		return "", false
	}
	p := FastFront()
	return p, p != ""
}

// fastFrontIdentity names the fast front for the compile cache (its
// resolved path, size and modification time), "" when it is not used.
func fastFrontIdentity() string {
	p, ok := useFastFront()
	if !ok {
		return ""
	}
	return fileIdentity(p)
}

// runClang runs the compiler on args: the fast front when there is one,
// clang-14 when there is none or it refuses. It returns clang's
// standard output and error.
func runClang(ctx context.Context, args []string) (stdout, stderr []byte, err error) {
	if p, ok := useFastFront(); ok {
		out, errb, err := runCompiler(ctx, p, args)
		if !fastFallback(ctx, err) {
			fastRuns.Add(1)
			return out, errb, err
		}
		fastFallbacks.Add(1)
	}
	return runCompiler(ctx, Clang, args)
}

// runCompiler runs one compiler. When ctx ends it kills the compiler and
// returns at once, without waiting for the process to exit: a clang of a
// few GB takes a second or more to unmap its memory under load, past the
// time limit; it is reaped in the background.
func runCompiler(ctx context.Context, name string, args []string) ([]byte, []byte, error) {
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.Bytes(), errb.Bytes(), err
	case <-ctx.Done():
		cmd.Process.Kill()
		return nil, nil, ctx.Err()
	}
}

// fastFallback says whether the fast front's run ended in a way that
// asks for clang-14: it refused, crashed, or could not be started.
func fastFallback(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return true // not started
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		// A crash; not an interrupt sent to the whole process group.
		switch ws.Signal() {
		case syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGILL, syscall.SIGFPE, syscall.SIGABRT, syscall.SIGTRAP, syscall.SIGSYS:
			return true
		}
		return false
	}
	return ee.ExitCode() == fastRefused
}

// fileIdentity names a file by its resolved path, size and modification
// time ("" if it cannot be found).
func fileIdentity(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	st, err := os.Stat(r)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%d\x00%d", r, st.Size(), st.ModTime().UnixNano())
}
