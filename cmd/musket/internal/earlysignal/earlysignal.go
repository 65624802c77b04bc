// Package earlysignal catches SIGINT and SIGTERM from the start of the
// process, before the other packages of musket initialise (its import
// path sorts before theirs, and it depends on the standard library only),
// so that a Ctrl-C that arrives while Musket starts up, reads its flags,
// its model or its files ends the command with its summary and exit
// status 130 instead of killing the process by the signal.
//
// The command takes the signal over with Take when it starts its run. A
// command that does not take it within Grace of the signal is stuck
// where nothing looks at signals (opening a FIFO no one writes to, a
// slow start-up): the process then exits with status 130 at once, as it
// does at a second signal before Take.
package earlysignal

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// Signals are the signals that interrupt a run.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// Grace is how long a command may go on after a signal before the
// process ends without it (here and in the command's own handling).
var Grace = 3 * time.Second

// Exit ends the process when a signal was not handled in time (the
// tests replace it).
var Exit = func(why string) {
	fmt.Fprintf(os.Stderr, "musket: interrupted (%s)\n", why)
	os.Exit(130)
}

// onSignal is called as each signal is held (the tests wait for it).
var onSignal = func() {}

var (
	mu   sync.Mutex
	take chan chan bool // to the watcher of the current Catch; nil once taken
)

func init() { Catch() }

// Catch subscribes to the signals (again, after Take), holding the first
// one that comes until Take.
func Catch() {
	mu.Lock()
	defer mu.Unlock()
	if take != nil {
		return
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, Signals...)
	take = make(chan chan bool)
	go watch(ch, take)
}

// watch is the only receiver of ch: it holds the signals until Take asks
// for them on req, and ends the process when none takes them in time.
func watch(ch chan os.Signal, req chan chan bool) {
	got := false
	var late <-chan time.Time
	for {
		select {
		case <-ch:
			onSignal()
			if got {
				Exit("a second signal before the command began")
				continue
			}
			got = true
			late = time.After(Grace)
		case <-late:
			late = nil
			Exit(fmt.Sprintf("the command did not stop within %v of the signal", Grace))
		case reply := <-req:
			signal.Stop(ch) // no more sends on ch once it returns
			select {
			case <-ch:
				got = true
			default:
			}
			reply <- got
			return
		}
	}
}

// Take unsubscribes and tells whether a signal came since Catch.
func Take() bool {
	mu.Lock()
	defer mu.Unlock()
	if take == nil {
		return false
	}
	reply := make(chan bool)
	take <- reply
	take = nil
	return <-reply
}

// LastWords is how long the watchdog waits for the summary of what
// finished (Watchdog's last) before it ends the process without it.
var LastWords = time.Second

// Watchdog ends the process with status 130 unless stop is closed within
// Grace: a command calls it when a signal stops it, so that a loop that
// does not look at the signal cannot keep the process alive. Before it
// ends the process it calls last, when not nil, to print the summary of
// what finished, and waits for it at most LastWords (last may need a
// lock that the stuck loop holds).
func Watchdog(stop <-chan struct{}, last func()) {
	go func() {
		select {
		case <-time.After(Grace):
			select {
			case <-stop: // stopped as the grace ended
			default:
				if last != nil {
					said := make(chan struct{})
					go func() { last(); close(said) }()
					select {
					case <-said:
					case <-time.After(LastWords):
					}
				}
				Exit(fmt.Sprintf("the command did not stop within %v of the signal", Grace))
			}
		case <-stop:
		}
	}()
}
