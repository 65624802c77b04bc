package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"

	"github.com/musket-verify/musket/cmd/musket/internal/earlysignal"
)

// interruptSignals are the signals that stop a run with a summary.
var interruptSignals = earlysignal.Signals

// run is the context of a command that may be interrupted: its context
// is canceled at the first SIGINT or SIGTERM (or by cancel). After the
// first signal the default handling is restored, so a second one ends
// the process at once; and a command that has not stopped within
// earlysignal.Grace of the first is ended with exit status 130.
type run struct {
	ctx    context.Context
	cancel context.CancelFunc
	got    atomic.Bool
	ch     chan os.Signal
	done   chan struct{}
	once   sync.Once
	last   atomic.Pointer[func()] // the summary the watchdog prints (atWatchdog)
}

// atWatchdog sets what the watchdog prints before it ends a run that
// did not stop within earlysignal.Grace of the signal: the summary of
// what finished, which the run would have printed had it stopped. f runs
// on the watchdog's goroutine while the run is stuck elsewhere; it must
// take the locks that guard what it reads, and print once only (the run
// may stop and print its own summary as the watchdog fires).
func (r *run) atWatchdog(f func()) { r.last.Store(&f) }

// lastWords runs the function atWatchdog set, if any.
func (r *run) lastWords() {
	if f := r.last.Load(); f != nil {
		(*f)()
	}
}

func interruptible() *run { return interruptibleIn(context.Background()) }

// interruptibleIn is interruptible within parent: the run also stops
// when parent is done (a request of musket serve canceled).
func interruptibleIn(parent context.Context) *run {
	r := &run{ch: make(chan os.Signal, 1), done: make(chan struct{})}
	r.ctx, r.cancel = context.WithCancel(parent)
	signal.Notify(r.ch, interruptSignals...)
	// A signal that came before Notify is sent on; one that came just
	// after may be in r.ch already (earlysignal's channel saw it too), and
	// then the buffer of one is full: a blocking send here hung the
	// command for good (SIGINT at start-up, under load).
	if earlysignal.Take() {
		select {
		case r.ch <- os.Interrupt:
		default:
		}
	}
	go func() {
		select {
		case <-r.ch:
			r.got.Store(true)
			signal.Stop(r.ch)
			r.cancel()
			// A loop that does not look at the context (a FIFO no one
			// writes to, a phase without a poll) cannot keep the
			// process alive past the grace.
			earlysignal.Watchdog(r.done, r.lastWords)
		case <-r.done:
		}
	}()
	return r
}

// interrupted tells whether a signal stopped the run.
func (r *run) interrupted() bool { return r.got.Load() }

// stop releases the signals; it may be called more than once.
func (r *run) stop() {
	r.once.Do(func() {
		signal.Stop(r.ch)
		close(r.done)
		r.cancel()
	})
}

// commandContext is the context a command runs in: the one its output
// carries when musket serve runs the command for a request (see
// serve.go), else the background.
func commandContext(stdout io.Writer) context.Context {
	if c, ok := stdout.(interface{ Context() context.Context }); ok {
		return c.Context()
	}
	return context.Background()
}
