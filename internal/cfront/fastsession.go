package cfront

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync/atomic"
)

// A session of the fast front. CompileIR compiles in two steps (the
// front end, then the -O1 pipeline on the race-guarded IR: racepipe.go);
// with musket-cc each step used to be a process of its own, and starting
// musket-cc (a 70 MB static program: page faults, LLVM's static
// initializers) costs about as much as the second step's work.
// `musket-cc --musket-session` runs both compilations in one process:
// CompileIR writes each compilation's arguments on its standard input
// and reads back its exit status, standard output and standard error
// (the protocol is in tools/musket-cc/musket-cc.cpp). A compilation the
// session does not answer with status 0 (an error in the program, a
// refusal, a crash, a musket-cc built before sessions existed) is run
// again the way it is without a session (runClang), so what the caller
// sees (the IR, clang's messages, the fallback to clang-14) is the same.
//
// A session is used only for arguments that leave no state behind for
// the next compilation in the same process: no -mllvm (LLVM's global
// options) and none of the flags that print statistics or timings.

// fastSessionOff turns sessions off (tests compare both ways).
var fastSessionOff bool

// fastSessionRuns counts the compilations sessions answered (for tests).
var fastSessionRuns atomic.Int64

// fastSessionNone is set when a session ended without answering its
// first compilation (a musket-cc built before sessions existed, which
// takes --musket-session for an unknown flag): the process then starts
// no more sessions.
var fastSessionNone atomic.Bool

// fastSession is one running musket-cc --musket-session.
type fastSession struct {
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Reader
	dead     bool
	answered bool // it answered a compilation
}

// sessionUnsafe are the prefixes of the user's flags that change state
// a later compilation in the same process would see, or that print
// per-process figures: such a compilation gets processes of its own.
var sessionUnsafe = []string{"-mllvm", "-Xclang", "-Xllvm", "-ftime", "-fproc-stat", "-print-stats", "-save-stats", "-fno-integrated-cc1", "-###", "-v"}

// startFastSession starts a session for the compilations of one program
// with the user's flags co; nil when there is no fast front, sessions
// are off, or the flags ask for processes of their own.
func startFastSession(ctx context.Context, co ClangOptions) *fastSession {
	p, ok := useFastFront()
	if !ok || fastSessionOff || fastSessionNone.Load() {
		return nil
	}
	for _, a := range co.Extra {
		for _, u := range sessionUnsafe {
			if strings.HasPrefix(a, u) {
				return nil
			}
		}
	}
	cmd := exec.CommandContext(ctx, p, "--musket-session")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil
	}
	if err := cmd.Start(); err != nil {
		return nil
	}
	return &fastSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
}

// run runs one compilation in the session: its standard output and
// error, and true when it answered with exit status 0; false otherwise
// (the caller then runs the compilation as a process of its own).
func (s *fastSession) run(args []string) ([]byte, []byte, bool) {
	if s == nil || s.dead {
		return nil, nil, false
	}
	var req strings.Builder
	for _, a := range args {
		if a == "" || strings.IndexByte(a, 0) >= 0 {
			return nil, nil, false // not expressible in the protocol
		}
		req.WriteString(a)
		req.WriteByte(0)
	}
	req.WriteByte(0)
	if _, err := io.WriteString(s.in, req.String()); err != nil {
		s.kill()
		return nil, nil, false
	}
	head, err := s.out.ReadString('\n')
	if err != nil {
		if !s.answered {
			fastSessionNone.Store(true)
		}
		s.kill()
		return nil, nil, false
	}
	s.answered = true
	var status, nOut, nErr int
	if n, err := fmt.Sscanf(head, "musket-cc %d %d %d\n", &status, &nOut, &nErr); n != 3 || err != nil || nOut < 0 || nErr < 0 {
		s.kill()
		return nil, nil, false
	}
	buf := make([]byte, nOut+nErr)
	if _, err := io.ReadFull(s.out, buf); err != nil {
		s.kill()
		return nil, nil, false
	}
	if status != 0 {
		return nil, nil, false
	}
	fastSessionRuns.Add(1)
	return buf[:nOut:nOut], buf[nOut:], true
}

// kill ends a session that broke off.
func (s *fastSession) kill() {
	s.dead = true
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
	}
}

// close ends the session and waits for its process (so that its CPU
// time is the caller's children's when it returns).
func (s *fastSession) close() {
	if s == nil {
		return
	}
	s.in.Close()
	s.cmd.Wait()
}

// runClangIn runs the compiler on args in the session s when it
// answers, else as runClang does.
func runClangIn(ctx context.Context, s *fastSession, args []string) (stdout, stderr []byte, err error) {
	if out, errb, ok := s.run(args); ok {
		fastRuns.Add(1)
		return out, errb, nil
	}
	return runClang(ctx, args)
}
