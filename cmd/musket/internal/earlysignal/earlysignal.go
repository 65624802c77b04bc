// Package earlysignal catches SIGINT and SIGTERM from the start of the
// process, before the other packages of musket initialise (its import
// path sorts before theirs, and it depends on the standard library only),
// so that a Ctrl-C that arrives while Musket starts up, reads its flags,
// its model or its files ends the command with its summary and exit
// status 130 instead of killing the process by the signal.
//
// The command takes the signal over with Take when it starts its run.
package earlysignal

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// Signals are the signals that interrupt a run.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

var (
	mu sync.Mutex
	ch chan os.Signal // nil once taken
)

func init() { Catch() }

// Catch subscribes to the signals (again, after Take), holding the first
// one that comes until Take.
func Catch() {
	mu.Lock()
	defer mu.Unlock()
	if ch == nil {
		ch = make(chan os.Signal, 1)
		signal.Notify(ch, Signals...)
	}
}

// Take unsubscribes and tells whether a signal came since Catch.
func Take() bool {
	mu.Lock()
	defer mu.Unlock()
	if ch == nil {
		return false
	}
	signal.Stop(ch)
	c := ch
	ch = nil
	select {
	case <-c:
		return true
	default:
		return false
	}
}
