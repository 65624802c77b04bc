// Package earlycc starts the fast front's compiler session (musket-cc
// --musket-session: internal/cfront's fastsession.go) for a `musket
// check` of a C program without the compile cache, before the other
// packages of musket initialise (its import path sorts before theirs,
// and it depends on the standard library only). musket-cc's start (its
// static initializers, the first touch of its pages) then runs beside
// the rest of Musket's start on the second core: the package
// initialisation of the engines, the models and the IR parser, and the
// check's flags. The check hands the process to cfront (Take, then
// cfront.AdoptPrestarted), which uses it as the session it would have
// started itself a few milliseconds later; a process not taken (another
// musket-cc chosen by the flags, sessions off) is ended by Drop.
//
// What it starts is decided from the raw command line and environment,
// as cmd/musket's prestartC and cfront's findFastFront decide (the same
// rules, written again here since this package may import nothing of
// Musket's): the command is check, an operand names a .c file, the
// compile cache is off (-no-cache or MUSKET_CACHE), and musket-cc is
// found (MUSKET_CC, beside the executable, or in PATH).
package earlycc

import (
	"io"
	"os"
	"sync"
)

// Session is a started musket-cc --musket-session.
type Session struct {
	Path string         // the musket-cc run
	Proc *os.Process    // run as "Path --musket-session"
	In   io.WriteCloser // its standard input (the requests)
	Out  io.ReadCloser  // its standard output (the answers)
}

var (
	mu      sync.Mutex
	started *Session
)

func init() {
	if len(os.Args) < 3 || os.Args[1] != "check" || !Wanted(os.Args[2:]) {
		return
	}
	p := fastFront()
	if p == "" {
		return
	}
	// os.StartProcess, not os/exec: os/exec's own dependencies
	// (path/filepath, ...) would put this package's initialisation after
	// most others.
	inR, inW, err := os.Pipe()
	if err != nil {
		return
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return
	}
	argv := []string{p, "--musket-session"}
	proc, err := os.StartProcess(p, argv, &os.ProcAttr{Files: []*os.File{inR, outW, os.Stderr}})
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return
	}
	started = &Session{Path: p, Proc: proc, In: inW, Out: outR}
}

// Wanted says whether the check's arguments name a C program compiled
// without the cache: musket-cc is then started early, here at the
// process start and by cmd/musket's prestartC.
func Wanted(args []string) bool {
	c, noCache := false, cacheOff()
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "-no-cache" || a == "--no-cache" || a == "-no-cache=true" || a == "--no-cache=true":
			noCache = true
		case len(a) > 2 && a[len(a)-2:] == ".c" && a[0] != '-':
			c = true
		}
	}
	return c && noCache
}

// cacheOff says whether MUSKET_CACHE turns the compile cache off.
func cacheOff() bool {
	return offWord(os.Getenv("MUSKET_CACHE"), false)
}

// offWord says whether v is one of the words that turn a setting off
// ("" too when empty is), in any case and with blanks around it, as
// cmd/musket and cfront read them.
func offWord(v string, empty bool) bool {
	for len(v) > 0 && isBlank(v[0]) {
		v = v[1:]
	}
	for len(v) > 0 && isBlank(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	b := []byte(v)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	switch string(b) {
	case "off", "0", "false", "no":
		return true
	case "":
		return empty
	}
	return false
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// fastFront is the musket-cc cfront would run ("" when none).
func fastFront() string {
	if v, ok := os.LookupEnv("MUSKET_CC"); ok {
		if offWord(v, true) {
			return ""
		}
		if executable(v) {
			return v
		}
		return ""
	}
	if exe, err := os.Executable(); err == nil {
		i := len(exe) - 1
		for i >= 0 && exe[i] != '/' {
			i--
		}
		if i >= 0 {
			if p := exe[:i+1] + "musket-cc"; executable(p) {
				return p
			}
		}
	}
	// exec.LookPath's search of PATH (an empty entry is the current
	// folder; a path found relative to it is not used, as LookPath
	// refuses it).
	path := os.Getenv("PATH")
	for len(path) > 0 {
		dir := path
		for i := 0; i < len(path); i++ {
			if path[i] == ':' {
				dir = path[:i]
				break
			}
		}
		path = path[min(len(dir)+1, len(path)):]
		if dir == "" || dir[0] != '/' {
			continue
		}
		if dir[len(dir)-1] == '/' {
			dir = dir[:len(dir)-1]
		}
		if p := dir + "/musket-cc"; executable(p) {
			return p
		}
	}
	return ""
}

func executable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

// Take returns the session started at the process's start and forgets
// it; nil when none was started or it was taken.
func Take() *Session {
	mu.Lock()
	defer mu.Unlock()
	s := started
	started = nil
	return s
}

// Drop ends a session nobody uses: musket-cc reads the end of its input
// and exits; it is waited for in the background.
func (s *Session) Drop() {
	s.In.Close()
	go s.Proc.Wait()
}
