package cfront

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
// (both steps in one process, or the one-step race pipe: racepipe.go)
// and without one (a process per step): the same IR (with the one-step
// pipe, but for the numbers of attribute groups: sameIRText), or the
// same error, each time. A program clang rejects goes back to processes
// of their own (the session answers only a compilation that succeeds),
// which this checks too.
func TestFastSessionSame(t *testing.T) {
	needSessions(t)
	defer func() { fastSessionOff, racePipeOneOff = false, false }()
	for _, oneStep := range []bool{false, true} {
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
			fastSessionOff, racePipeOneOff = false, !oneStep
			before := fastSessionRuns.Load()
			got, gerr := CompileIR(context.Background(), tc.file, co)
			runs := fastSessionRuns.Load() - before
			if (werr == nil) != tc.ok || (gerr == nil) != tc.ok {
				t.Fatalf("%s: errors %v (processes) and %v (session), want success %v", tc.file, werr, gerr, tc.ok)
			}
			if werr != nil && werr.Error() != gerr.Error() {
				t.Errorf("%s: session's error\n%v\nprocesses' error\n%v", tc.file, gerr, werr)
			}
			if oneStep && sameIRText(got) != sameIRText(want) || !oneStep && !bytes.Equal(got, want) {
				t.Errorf("%s (one step %v): the session's IR differs from the processes' IR", tc.file, oneStep)
			}
			want2 := int64(2)
			if oneStep && !racePipeOneNone.Load() {
				want2 = 1
			}
			if tc.ok && runs != want2 {
				t.Errorf("%s (one step %v): the session answered %d compilations, want %d", tc.file, oneStep, runs, want2)
			}
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
	if _, _, ok := s.run(context.Background(), []string{"-c", ""}); ok {
		t.Error("the session ran an empty argument")
	}
}

// TestKeptSessionSame compiles programs one after the other in one kept
// session (KeepSessions, as musket bench c and musket check A.c B.c
// do) and each by processes of its own: the same IR or the same error
// each time, and one session for all of them. The programs differ in
// what they leave behind in a compiler (headers, statics, atomics,
// asm, debug names, an error); MUSKET_LONG=1 takes every C file of
// examples/c and testdata.
func TestKeptSessionSame(t *testing.T) {
	needSessions(t)
	defer func() { fastSessionOff = false }()
	files := []string{"../../examples/c/mcs.c", "testdata/clang_error.c", "testdata/cnames.c",
		"testdata/racecc/static_local.c", "../../examples/c/chase-lev.c", "testdata/intrinsics.c", "../../examples/c/mcs.c"}
	if os.Getenv("MUSKET_LONG") != "" {
		files = nil
		for _, g := range []string{"../../examples/c/*.c", "testdata/*.c", "testdata/*/*.c"} {
			m, _ := filepath.Glob(g)
			files = append(files, m...)
		}
	}
	co := ClangOptions{NoCache: true}
	type compiled struct {
		ir  []byte
		err error
	}
	want := map[string]compiled{}
	fastSessionOff = true
	for _, f := range files {
		ir, err := CompileIR(context.Background(), f, co)
		want[f] = compiled{ir, err}
	}
	fastSessionOff = false
	release := KeepSessions()
	starts, runs := fastSessionStarts.Load(), fastSessionRuns.Load()
	for _, f := range files {
		ir, err := CompileIR(context.Background(), f, co)
		w := want[f]
		if (err == nil) != (w.err == nil) || err != nil && err.Error() != w.err.Error() {
			t.Errorf("%s: kept session's error %v, processes' error %v", f, err, w.err)
		}
		if sameIRText(ir) != sameIRText(w.ir) { // (the one-step race pipe: racepipe.go)
			t.Errorf("%s: the kept session's IR differs from the processes' IR", f)
		}
	}
	// (A session answers maxSessionRuns compilations, two per program.)
	if n, most := fastSessionStarts.Load()-starts, int64(2*len(files)/maxSessionRuns+1); n > most {
		t.Errorf("%d sessions started for %d programs, want at most %d", n, len(files), most)
	}
	if fastSessionRuns.Load() == runs {
		t.Error("the kept session answered no compilation")
	}
	sessionPool.Lock()
	idle := len(sessionPool.idle)
	sessionPool.Unlock()
	if idle != 1 {
		t.Errorf("%d idle sessions before the release, want 1", idle)
	}
	if SessionCPU() <= 0 && procUserTime(os.Getpid()) > 0 {
		t.Error("no CPU time read for the kept session")
	}
	release()
	sessionPool.Lock()
	idle, live := len(sessionPool.idle), len(sessionPool.live)
	sessionPool.Unlock()
	if idle != 0 || live != 0 {
		t.Errorf("after the release: %d idle and %d live sessions, want none", idle, live)
	}
	// Without KeepSessions, each program has a session of its own.
	starts = fastSessionStarts.Load()
	for _, f := range files[:2] {
		CompileIR(context.Background(), f, co)
	}
	if n := fastSessionStarts.Load() - starts; n != 2 {
		t.Errorf("%d sessions started for 2 programs without KeepSessions, want 2", n)
	}
}

// TestKeptSessionStopped: a kept session whose compilation is stopped
// (the check's time limit) is killed and not kept for the next program,
// and the compilation is reported stopped, not answered.
func TestKeptSessionStopped(t *testing.T) {
	needSessions(t)
	release := KeepSessions()
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	s := startFastSession(ctx, ClangOptions{})
	if s == nil {
		t.Fatal("no session")
	}
	cancel()
	if _, _, ok := s.run(ctx, clangArgs("../../examples/c/mcs.c", ClangOptions{})); ok {
		t.Error("a session answered a compilation whose context was done")
	}
	s.close()
	// Stopped in flight: the context ends while the session compiles.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	s = startFastSession(ctx, ClangOptions{})
	if s == nil {
		t.Fatal("no session")
	}
	go func() { time.Sleep(time.Millisecond); cancel() }()
	_, _, ok := s.run(ctx, clangArgs("../../examples/c/chase-lev.c", ClangOptions{}))
	if !ok && !s.dead.Load() {
		t.Error("a stopped compilation left its session running")
	}
	s.close()
	sessionPool.Lock()
	idle := len(sessionPool.idle)
	sessionPool.Unlock()
	if !ok && idle != 0 {
		t.Errorf("%d sessions kept after a stopped compilation, want none", idle)
	}
}

// TestPrestart: the session Prestart starts is the one the next
// compilation uses (no other musket-cc is started), it gives the IR a
// new session gives, and a second Prestart while one waits starts none.
func TestPrestart(t *testing.T) {
	needSessions(t)
	const file = "../../examples/c/mcs.c"
	co := ClangOptions{NoCache: true}
	want, err := CompileIR(context.Background(), file, co)
	if err != nil {
		t.Fatal(err)
	}
	Prestart()
	Prestart()
	before := fastSessionStarts.Load()
	got, err := CompileIR(context.Background(), file, co)
	if err != nil {
		t.Fatal(err)
	}
	if n := fastSessionStarts.Load() - before; n != 0 {
		t.Errorf("%d sessions started after Prestart, want 0 (the prestarted one is used)", n)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the prestarted session's IR differs from a new session's")
	}
	if s := takePrestarted(); s != nil {
		s.end()
		t.Errorf("a second Prestart started another session")
	}
}

// TestPrestartKept: under KeepSessions (bench c, a check of several
// programs) Prestart starts no session, so that each compilation takes
// the kept idle one: a prestarted session per check would cost a
// musket-cc start per program, which bench c -keep-cc measured.
func TestPrestartKept(t *testing.T) {
	needSessions(t)
	const file = "../../examples/c/mcs.c"
	co := ClangOptions{NoCache: true}
	release := KeepSessions()
	defer release()
	before := fastSessionStarts.Load()
	for i := 0; i < 3; i++ {
		Prestart()
		if _, err := CompileIR(context.Background(), file, co); err != nil {
			t.Fatal(err)
		}
	}
	// (At most one: another test of the package may have left an idle
	// session in the pool, which the first compilation takes.)
	if n := fastSessionStarts.Load() - before; n > 1 {
		t.Errorf("%d sessions started for 3 compilations with Prestart under KeepSessions, want at most 1", n)
	}
	if s := takePrestarted(); s != nil {
		s.end()
		t.Error("Prestart started a session under KeepSessions")
	}
}
