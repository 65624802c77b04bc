package cfront

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
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

// fastSessionStarts counts the sessions started (for tests).
var fastSessionStarts atomic.Int64

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
	dead     atomic.Bool
	killOnce sync.Once
	answered bool // it answered a compilation
	runs     int  // the compilations asked of it
}

// sessionUnsafe are the prefixes of the user's flags that change state
// a later compilation in the same process would see, or that print
// per-process figures: such a compilation gets processes of its own.
var sessionUnsafe = []string{"-mllvm", "-Xclang", "-Xllvm", "-ftime", "-fproc-stat", "-print-stats", "-save-stats", "-fno-integrated-cc1", "-###", "-v"}

// Kept sessions. Without KeepSessions, each compilation of a program
// starts a session and ends it. A process that compiles many programs
// (musket bench c, musket check A.c B.c ...) keeps its sessions between
// them instead (KeepSessions): musket-cc then starts once, not once per
// program, and a compilation is only clang's work on the program. A
// session is given only compilations that leave no state behind
// (sessionUnsafe), so the IR is the same in a kept session as in a new
// one (TestKeptSessionSame).
var sessionPool struct {
	sync.Mutex
	keep int                   // the KeepSessions not yet released
	idle []*fastSession        // kept sessions waiting for a compilation
	live map[*fastSession]bool // the kept sessions, idle or in use
}

// maxSessionRuns is how many compilations a kept session answers
// before it is ended: a musket-cc that keeps each compilation's memory
// (as clang does with -disable-free, and musket-cc built before it freed
// it in sessions) then grows by a bounded amount.
const maxSessionRuns = 64

// KeepSessions keeps the fast front's sessions between compilations
// until the function it returns is called, which ends the idle ones
// and waits for them (their CPU time is then the process's children's,
// as getrusage counts it). Calls nest.
func KeepSessions() (release func()) {
	sessionPool.Lock()
	sessionPool.keep++
	sessionPool.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			sessionPool.Lock()
			sessionPool.keep--
			var idle []*fastSession
			if sessionPool.keep == 0 {
				idle, sessionPool.idle = sessionPool.idle, nil
			}
			sessionPool.Unlock()
			for _, s := range idle {
				s.end()
			}
		})
	}
}

// SessionCPU is the user CPU time the kept sessions running now have
// used so far (0 where /proc does not say): getrusage counts a child
// only once it has been waited for, so a bench that measures the CPU
// time of each check adds this to it.
func SessionCPU() time.Duration {
	sessionPool.Lock()
	var pids []int
	for s := range sessionPool.live {
		if s.cmd.Process != nil {
			pids = append(pids, s.cmd.Process.Pid)
		}
	}
	sessionPool.Unlock()
	var d time.Duration
	for _, pid := range pids {
		d += procUserTime(pid)
	}
	return d
}

// procUserTime reads a process's user CPU time from /proc/PID/stat
// (field 14, in clock ticks of 1/100 s); 0 when it cannot.
func procUserTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (the state): utime, field 14, is f[11].
	if len(f) < 12 {
		return 0
	}
	ticks, err := strconv.ParseInt(f[11], 10, 64)
	if err != nil {
		return 0
	}
	return time.Duration(ticks) * (time.Second / 100)
}

// startFastSession gives a session for the compilations of one program
// with the user's flags co: a kept one when there is one, else a new
// one; nil when there is no fast front, sessions are off, or the flags
// ask for processes of their own. The caller gives it back with close.
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
	if s := takePrestarted(); s != nil {
		return liveSession(s)
	}
	sessionPool.Lock()
	if n := len(sessionPool.idle); sessionPool.keep > 0 && n > 0 {
		s := sessionPool.idle[n-1]
		sessionPool.idle = sessionPool.idle[:n-1]
		sessionPool.Unlock()
		return s
	}
	sessionPool.Unlock()
	if ctx.Err() != nil {
		return nil
	}
	s := newFastSession(p)
	if s == nil {
		return nil
	}
	return liveSession(s)
}

// liveSession records a session handed out while sessions are kept
// (sessionPool.keep), so that the pool can end it, and returns it.
func liveSession(s *fastSession) *fastSession {
	sessionPool.Lock()
	defer sessionPool.Unlock()
	if sessionPool.keep > 0 {
		if sessionPool.live == nil {
			sessionPool.live = map[*fastSession]bool{}
		}
		sessionPool.live[s] = true
	}
	return s
}

// newFastSession starts musket-cc (the file p) as a session; nil when
// it cannot be started.
func newFastSession(p string) *fastSession {
	// Not exec.CommandContext: a kept session outlives the check that
	// started it; run stops it when its compilation's context ends.
	cmd := exec.Command(p, "--musket-session")
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
	fastSessionStarts.Add(1)
	return &fastSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
}

// The prestarted session. Starting musket-cc (LLVM's static
// initializers, the first touch of its pages) takes a good part of a
// small program's compilation, and until the program is compiled the
// musket process has its own start to do: its package initialization,
// flags, the model. Prestart starts the session the next compilation
// will use at once, so that both starts run side by side (on two cores:
// a check ends sooner; the CPU used is the same). What it runs is what
// startFastSession would run later; a session prestarted and never used
// gets the end of its input when the process ends, and ends too.
var prestarted struct {
	sync.Mutex
	s *fastSession
}

// Prestart starts the session the process's next C compilation will
// use (see prestarted), when there is a fast front and none is
// prestarted already. For a process that is about to compile a C
// program, once; it does nothing if sessions are off.
func Prestart() {
	p, ok := useFastFront()
	if !ok || fastSessionOff || fastSessionNone.Load() {
		return
	}
	// Kept sessions (KeepSessions: bench c, a check of several
	// programs) start once and are reused: a prestarted one would be
	// taken instead of the idle one, a musket-cc start per compilation.
	sessionPool.Lock()
	kept := sessionPool.keep > 0
	sessionPool.Unlock()
	if kept {
		return
	}
	prestarted.Lock()
	defer prestarted.Unlock()
	if prestarted.s == nil {
		prestarted.s = newFastSession(p)
	}
}

// AdoptPrestarted makes a musket-cc session started before this package
// could start it (cmd/musket's earlycc, at the process's start: proc
// runs "P --musket-session", in and out are its standard input and
// output)
// the prestarted session, as Prestart would have started it; false when
// Prestart would start none, or another one (P is not the fast front
// this process uses), or one is prestarted already: the caller then
// ends it.
func AdoptPrestarted(p string, proc *os.Process, in io.WriteCloser, out io.Reader) bool {
	fp, ok := useFastFront()
	if !ok || fp != p || fastSessionOff || fastSessionNone.Load() || proc == nil {
		return false
	}
	sessionPool.Lock()
	kept := sessionPool.keep > 0
	sessionPool.Unlock()
	if kept {
		return false
	}
	prestarted.Lock()
	defer prestarted.Unlock()
	if prestarted.s != nil {
		return false
	}
	fastSessionStarts.Add(1)
	// The Cmd holds the process as its Start would have (its Wait waits
	// for it; there is nothing else to wait for).
	cmd := &exec.Cmd{Path: p, Args: []string{p, "--musket-session"}, Process: proc}
	prestarted.s = &fastSession{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}
	return true
}

// takePrestarted takes the prestarted session, nil when there is none.
func takePrestarted() *fastSession {
	prestarted.Lock()
	defer prestarted.Unlock()
	s := prestarted.s
	prestarted.s = nil
	return s
}

// run runs one compilation in the session: its standard output and
// error, and true when it answered with exit status 0; false otherwise
// (the caller then runs the compilation as a process of its own).
func (s *fastSession) run(ctx context.Context, args []string) ([]byte, []byte, bool) {
	out, errb, status, ok := s.runStatus(ctx, args)
	if !ok || status != 0 {
		return nil, nil, false
	}
	return out, errb, true
}

// runStatus runs one compilation in the session: its standard output
// and error and its exit status, with true when the session answered.
func (s *fastSession) runStatus(ctx context.Context, args []string) ([]byte, []byte, int, bool) {
	if s == nil || s.dead.Load() || ctx.Err() != nil {
		return nil, nil, 0, false
	}
	s.runs++
	// The time limit or an interrupt stops the compilation: the session
	// is killed (and the caller, seeing ctx done, stops too).
	stop := context.AfterFunc(ctx, s.kill)
	defer stop()
	var req strings.Builder
	for _, a := range args {
		if a == "" || strings.IndexByte(a, 0) >= 0 {
			return nil, nil, 0, false // not expressible in the protocol
		}
		req.WriteString(a)
		req.WriteByte(0)
	}
	req.WriteByte(0)
	if _, err := io.WriteString(s.in, req.String()); err != nil {
		s.kill()
		return nil, nil, 0, false
	}
	head, err := s.readHead(ctx)
	if err != nil {
		if !s.answered && !s.dead.Load() && ctx.Err() == nil {
			// (Not when it was killed: a stopped compilation says
			// nothing about what this musket-cc knows.)
			fastSessionNone.Store(true)
		}
		s.kill()
		return nil, nil, 0, false
	}
	s.answered = true
	var status, nOut, nErr int
	if n, err := fmt.Sscanf(head, "musket-cc %d %d %d\n", &status, &nOut, &nErr); n != 3 || err != nil || nOut < 0 || nErr < 0 {
		s.kill()
		return nil, nil, 0, false
	}
	buf := make([]byte, nOut+nErr)
	if _, err := io.ReadFull(s.out, buf); err != nil {
		s.kill()
		return nil, nil, 0, false
	}
	if status == 0 {
		fastSessionRuns.Add(1)
	}
	return buf[:nOut:nOut], buf[nOut:], status, true
}

// readHead reads the head of the session's answer, or gives up at once
// when ctx ends (the session is then killed). The read does not wait for
// the killed process to exit: a compilation of a few GB of memory takes
// a second or more to unmap it under load, past the time limit.
func (s *fastSession) readHead(ctx context.Context) (string, error) {
	type reply struct {
		head string
		err  error
	}
	ch := make(chan reply, 1)
	go func() {
		h, err := s.out.ReadString('\n')
		ch <- reply{h, err}
	}()
	select {
	case r := <-ch:
		return r.head, r.err
	case <-ctx.Done():
		s.kill()
		return "", ctx.Err()
	}
}

// kill ends a session that broke off.
func (s *fastSession) kill() {
	s.killOnce.Do(func() {
		s.dead.Store(true)
		if s.cmd.Process != nil {
			s.cmd.Process.Kill()
		}
	})
}

// close gives the session back: kept for the next program under
// KeepSessions (when it answered, did not break off and has answered
// fewer than maxSessionRuns compilations), else ended.
func (s *fastSession) close() {
	if s == nil {
		return
	}
	sessionPool.Lock()
	if sessionPool.keep > 0 && sessionPool.live[s] && s.answered && !s.dead.Load() && s.runs < maxSessionRuns {
		sessionPool.idle = append(sessionPool.idle, s)
		sessionPool.Unlock()
		return
	}
	kept := sessionPool.keep > 0
	sessionPool.Unlock()
	if s.dead.Load() {
		// Killed (a time limit, an interrupt, a broken answer): it is
		// reaped when it has unmapped its memory, which WaitSessions
		// waits for a moment only (the command stops now).
		s.in.Close()
		killedSessions.Add(1)
		go func() {
			defer killedSessions.Done()
			s.end()
		}()
		return
	}
	if kept {
		s.end()
		return
	}
	// Ended without waiting: musket-cc's exit (unmapping its memory) runs
	// while the caller lowers the program. WaitSessions waits for it.
	s.in.Close()
	endingSessions.Add(1)
	go func() {
		defer endingSessions.Done()
		s.end()
	}()
}

// endingSessions are the sessions close ended without waiting for them.
var endingSessions sync.WaitGroup

// WaitSessions waits for the sessions that ended to exit, so that their
// CPU time is the process's children's (as getrusage counts it, and as
// the process's parent sees it) when it returns. A process that compiled
// C programs calls it before it exits.
//
// The sessions that were killed it waits for killedWait at most: one
// that compiled a large program takes a second or more to unmap its
// memory under load, past the time limit; one that exits sooner is
// reaped here, not left for the process's parent's parent.
func WaitSessions() {
	endingSessions.Wait()
	done := make(chan struct{})
	go func() {
		killedSessions.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(killedWait):
	}
}

// killedSessions are the sessions killed and not yet reaped.
var killedSessions sync.WaitGroup

// killedWait is how long WaitSessions waits for killed sessions.
const killedWait = 300 * time.Millisecond

// end ends the session and waits for its process (so that its CPU time
// is the caller's children's when it returns).
func (s *fastSession) end() {
	s.in.Close()
	s.cmd.Wait()
	sessionPool.Lock()
	delete(sessionPool.live, s)
	sessionPool.Unlock()
}

// runClangIn runs the compiler on args in the session s when it
// answers, else as runClang does.
func runClangIn(ctx context.Context, s *fastSession, args []string) (stdout, stderr []byte, err error) {
	if out, errb, ok := s.run(ctx, args); ok {
		fastRuns.Add(1)
		return out, errb, nil
	}
	return runClang(ctx, args)
}
