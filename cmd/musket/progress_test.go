package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBatchProgressLine draws the progress line on a fake terminal with a
// fake clock.
func TestBatchProgressLine(t *testing.T) {
	var term bytes.Buffer
	// Drawn by hand rather than by the ticker, so that the fake clock
	// is not shared with another goroutine.
	p := newBatchProgress(&term, 5, false)
	p.on = true
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := t0
	p.now = func() time.Time { return clock }
	steps := []struct {
		do   func()
		want string
	}{
		{func() {}, "[0/5]"},
		{func() { p.started(0, "SB"); clock = t0.Add(1500 * time.Millisecond); p.started(1, "MP") }, "[0/5]; running: SB 1.5s, MP 0.0s"},
		{func() { clock = clock.Add(2 * time.Second); p.finished(1, true) }, "[1/5] 1 failed; running: SB 3.5s"},
		{func() { p.finished(0, false) }, "[2/5] 1 failed"},
	}
	for i, s := range steps {
		s.do()
		p.mu.Lock()
		got := p.line()
		p.mu.Unlock()
		if got != s.want {
			t.Errorf("step %d: %q, want %q", i, got, s.want)
		}
	}
	// Printing results clears a drawn line first.
	p.mu.Lock()
	p.draw()
	p.mu.Unlock()
	var order []string
	p.print(func() { order = append(order, term.String()) })
	if !strings.HasSuffix(order[0], "\r\033[K") {
		t.Errorf("the line is not cleared before results print: %q", order[0])
	}
}

// TestBatchProgressWidth keeps the line within the terminal's width.
func TestBatchProgressWidth(t *testing.T) {
	p := newBatchProgress(&bytes.Buffer{}, 100, false)
	p.on, p.width = true, 60
	for i := 0; i < 30; i++ {
		p.running[i] = runningTest{fmt.Sprintf("test-with-a-long-name-%d", i), p.now()}
	}
	if l := p.line(); len(l) > 60 || !regexp.MustCompile(`\+\d+ more$`).MatchString(l) {
		t.Errorf("line %q (%d characters)", l, len(l))
	}
}

// TestNoProgressOffTerminal checks that a batch whose stderr is not a
// terminal gets nothing there but the summary.
func TestNoProgressOffTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	if code := dispatch([]string{"litmus", "../../examples/litmus"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !regexp.MustCompile(`^2 tests in \d+\.\d\ds; slowest \S+ \d+\.\d\ds\n$`).MatchString(errb.String()) {
		t.Errorf("stderr is not only the summary: %q", errb.String())
	}
	var closed bytes.Buffer
	p := newBatchProgress(&closed, 10, false)
	p.started(0, "a")
	p.finished(0, true)
	p.print(func() {})
	p.close()
	if closed.Len() != 0 {
		t.Errorf("progress off a terminal wrote %q", closed.String())
	}
}

// TestBatchProgressTicker runs the drawing goroutine: closing stops it
// and leaves the line cleared.
func TestBatchProgressTicker(t *testing.T) {
	var term bytes.Buffer
	p := newBatchProgress(&term, 3, true)
	p.started(0, "SB")
	time.Sleep(250 * time.Millisecond) // a tick or so; nothing asserted about timing
	p.close()
	if s := term.String(); s != "" && !strings.HasSuffix(s, "\r\033[K") {
		t.Errorf("the line is not cleared at the end: %q", s)
	}
}

// TestBatchProgressCloseTwice: a command may close its progress line
// early and again in a deferred call (check did, and panicked).
func TestBatchProgressCloseTwice(t *testing.T) {
	var b bytes.Buffer
	p := newBatchProgress(&b, 3, true)
	p.close()
	p.close()
}

// TestBatchProgressOneTest: a single test on a terminal gets a spinner
// with its name and elapsed time (it had no progress at all).
func TestBatchProgressOneTest(t *testing.T) {
	var term bytes.Buffer
	p := newBatchProgress(&term, 1, true)
	p.close() // stop the ticker; draw by hand
	p.on = true
	now := time.Unix(100, 0)
	p.now = func() time.Time { return now }
	p.started(0, "big5000")
	now = now.Add(12400 * time.Millisecond)
	if got, want := p.line(), "- big5000 12.4s"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	p.finished(0, false)
	if got := p.line(); got != "" {
		t.Errorf("after the test: %q", got)
	}
}
