package earlysignal

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEarlySignals: a signal before Take is held for the command; a
// second one, or a command that does not take the first within Grace,
// ends the process (Exit); a watchdog whose command stops does nothing.
func TestEarlySignals(t *testing.T) {
	oldExit, oldGrace := Exit, Grace
	defer func() { Exit, Grace = oldExit, oldGrace }()
	exits := make(chan string, 4)
	Exit = func(why string) { exits <- why }
	seen := make(chan bool, 4)
	onSignal = func() { seen <- true }
	defer func() { onSignal = func() {} }()
	self := func() { // a signal, once held
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		<-seen
	}
	for _, tc := range []struct {
		name    string
		grace   time.Duration
		signals int
		exit    string // what Exit is told, "": not called; Take follows
	}{
		{"none", time.Hour, 0, ""},
		{"held", time.Hour, 1, ""},
		{"second", time.Hour, 2, "a second signal"},
		{"not taken", 0, 1, "did not stop within"},
	} {
		Take() // the earlier case's subscription
		Grace = tc.grace
		Catch()
		for i := 0; i < tc.signals; i++ {
			self()
		}
		if tc.exit != "" {
			if why := <-exits; !strings.Contains(why, tc.exit) {
				t.Errorf("%s: exit %q, want %q", tc.name, why, tc.exit)
			}
			continue
		}
		if got, want := Take(), tc.signals > 0; got != want {
			t.Errorf("%s: Take() = %v, want %v", tc.name, got, want)
		}
		Catch()
	}
	Take()
	Catch() // as at start-up, for the other tests of the process
	select {
	case why := <-exits:
		t.Errorf("unexpected exit %q", why)
	default:
	}
	Grace = 0
	stop := make(chan struct{})
	close(stop)
	Watchdog(stop, func() { t.Error("a stopped watchdog printed a summary") }) // no exit (an exit would be reported below)
	Watchdog(make(chan struct{}), nil)
	if why := <-exits; !strings.Contains(why, "did not stop within") {
		t.Errorf("watchdog: exit %q", why)
	}
	// The summary of what finished is printed before the exit; one that
	// does not come (its lock held by the stuck loop) does not hold the
	// exit back.
	said := make(chan string, 2)
	Watchdog(make(chan struct{}), func() { said <- "summary" })
	if why := <-exits; !strings.Contains(why, "did not stop within") {
		t.Errorf("watchdog with a summary: exit %q", why)
	}
	select {
	case s := <-said:
		if s != "summary" {
			t.Errorf("summary %q", s)
		}
	default:
		t.Error("the watchdog ended the process without the summary")
	}
	oldLast := LastWords
	defer func() { LastWords = oldLast }()
	LastWords = 0
	block := make(chan struct{})
	defer close(block)
	Watchdog(make(chan struct{}), func() { <-block })
	if why := <-exits; !strings.Contains(why, "did not stop within") {
		t.Errorf("watchdog with a stuck summary: exit %q", why)
	}
	select {
	case why := <-exits:
		t.Errorf("a stopped watchdog exited: %q", why)
	default:
	}
}
