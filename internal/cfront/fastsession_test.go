package cfront

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// needSessions skips a test when the fast front is not built or was
// built before it had sessions, saying how to rebuild it.
func needSessions(t *testing.T) {
	t.Helper()
	p := needFastFront(t)
	cmd := exec.Command(p, "--musket-session")
	cmd.Stdin = strings.NewReader("")
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Skipf("%s was built before musket-cc had sessions (%v: %s): scripts/setup-deps.sh rebuilds it", p, err, bytes.TrimSpace(out))
	}
}

// TestFastSessionSame compiles programs through a musket-cc session
// (both steps in one process) and without one (a process per step):
// the same IR, or the same error, each time. A program clang rejects
// goes back to processes of their own (the session answers only a
// compilation that succeeds), which this checks too.
func TestFastSessionSame(t *testing.T) {
	needSessions(t)
	defer func() { fastSessionOff = false }()
	for _, tc := range []struct {
		file string
		ok   bool
	}{
		{"../../examples/c/mcs.c", true},
		{"testdata/cnames.c", true},
		{"testdata/racecc/static_local.c", true},
		{"testdata/clang_error.c", false},
	} {
		co := ClangOptions{NoCache: true}
		fastSessionOff = true
		want, werr := CompileIR(context.Background(), tc.file, co)
		fastSessionOff = false
		before := fastSessionRuns.Load()
		got, gerr := CompileIR(context.Background(), tc.file, co)
		runs := fastSessionRuns.Load() - before
		if (werr == nil) != tc.ok || (gerr == nil) != tc.ok {
			t.Fatalf("%s: errors %v (processes) and %v (session), want success %v", tc.file, werr, gerr, tc.ok)
		}
		if werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%s: session's error\n%v\nprocesses' error\n%v", tc.file, gerr, werr)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the session's IR differs from the processes' IR", tc.file)
		}
		if tc.ok && runs != 2 {
			t.Errorf("%s: the session answered %d compilations, want both steps", tc.file, runs)
		}
	}
}

// TestFastSessionUnsafeFlags: flags that leave state behind in the
// compiler (LLVM's -mllvm options) get processes of their own.
func TestFastSessionUnsafeFlags(t *testing.T) {
	needSessions(t)
	if s := startFastSession(context.Background(), ClangOptions{Extra: []string{"-mllvm", "-x86-asm-syntax=intel"}}); s != nil {
		s.close()
		t.Error("a session was started for -mllvm")
	}
	s := startFastSession(context.Background(), ClangOptions{Extra: []string{"-DX=1"}})
	if s == nil {
		t.Fatal("no session for -DX=1")
	}
	defer s.close()
	// An argument the protocol cannot carry is left to a process.
	if _, _, ok := s.run([]string{"-c", ""}); ok {
		t.Error("the session ran an empty argument")
	}
}
