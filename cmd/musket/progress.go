package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line bar on a terminal; it draws nothing elsewhere.
type progress struct {
	w     io.Writer
	on    bool
	total int
	done  int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, on: isTerminal(w) && total > 1, total: total, start: time.Now()}
}

func (p *progress) step(name string) {
	p.done++
	if !p.on {
		return
	}
	if time.Since(p.last) < 100*time.Millisecond && p.done < p.total {
		return
	}
	p.last = time.Now()
	const width = 30
	fill := width * p.done / p.total
	if len(name) > 30 {
		name = name[:27] + "..."
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %5.1fs %-30s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill), p.done, p.total, time.Since(p.start).Seconds(), name)
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 80))
	}
}

// batchProgress shows, on a terminal, how a batch of tests goes: done /
// total, the failures so far, and the tests running with their elapsed
// time. It is one line on stderr, redrawn a few times a second and
// cleared whenever results are printed and at the end. Elsewhere (a pipe,
// a file) it draws nothing.
type batchProgress struct {
	mu       sync.Mutex
	w        io.Writer
	on       bool
	closed   bool // close has run
	total    int
	done     int
	failures int
	running  map[int]runningTest
	drawn    bool
	now      func() time.Time
	width    int // of the terminal line

	stop, stopped chan struct{}
}

type runningTest struct {
	name  string
	start time.Time
}

// newBatchProgress draws on w when on (w is a terminal). With one test
// the line is a spinner with the test's elapsed time.
func newBatchProgress(w io.Writer, total int, on bool) *batchProgress {
	p := &batchProgress{w: w, on: on && total > 0, total: total, running: map[int]runningTest{}, now: time.Now, width: 100}
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 20 {
		p.width = c - 1
	}
	if p.on {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.loop()
	}
	return p
}

func (p *batchProgress) loop() {
	defer close(p.stopped)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// started records that test i (called name) is running.
func (p *batchProgress) started(i int, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[i] = runningTest{name, p.now()}
}

// relabel gives running test i a new name, keeping its start: a long
// step that says where it is (fix: the check it is at).
func (p *batchProgress) relabel(i int, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.running[i]; ok {
		r.name = name
		p.running[i] = r
	}
}

// finished records that test i is done, failed or not.
func (p *batchProgress) finished(i int, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, i)
	p.done++
	if failed {
		p.failures++
	}
}

// print clears the progress line, runs f (which prints results), and
// lets the next tick draw the line again.
func (p *batchProgress) print(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	f()
}

// close stops drawing and clears the line; closing again does nothing.
func (p *batchProgress) close() {
	if !p.on || p.closed {
		return
	}
	p.closed = true
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	p.clear()
	p.mu.Unlock()
}

// writer is w with the progress line cleared before each write (and
// drawn again at the next tick): what a command prints while the line
// is shown.
func (p *batchProgress) writer(w io.Writer) io.Writer {
	if !p.on {
		return w
	}
	return progressWriter{p, w}
}

type progressWriter struct {
	p *batchProgress
	w io.Writer
}

func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.mu.Lock()
	defer pw.p.mu.Unlock()
	pw.p.clear()
	return pw.w.Write(b)
}

func (p *batchProgress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

func (p *batchProgress) draw() {
	if !p.on {
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+p.line())
	p.drawn = true
}

// line is the progress line: "[12/497] 1 failed; running: a 41.2s, b 0.3s, +2 more",
// the longest-running tests first, cut to the terminal's width.
func (p *batchProgress) line() string {
	if p.total == 1 {
		// One test: "| SB 12.4s", the bar turning every tick.
		for _, r := range p.running {
			d := p.now().Sub(r.start)
			s := fmt.Sprintf("%c %s %.1fs", `|/-\`[int(d/(200*time.Millisecond))%4], r.name, d.Seconds())
			if len(s) > p.width {
				s = s[:p.width-3] + "..."
			}
			return s
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%d/%d]", p.done, p.total)
	if p.failures > 0 {
		fmt.Fprintf(&b, " %d failed", p.failures)
	}
	run := make([]runningTest, 0, len(p.running))
	for _, r := range p.running {
		run = append(run, r)
	}
	sort.Slice(run, func(i, j int) bool {
		if !run[i].start.Equal(run[j].start) {
			return run[i].start.Before(run[j].start)
		}
		return run[i].name < run[j].name
	})
	now := p.now()
	for k, r := range run {
		item := fmt.Sprintf("%s %.1fs", r.name, now.Sub(r.start).Seconds())
		sep := ", "
		if k == 0 {
			sep = "; running: "
		}
		more := ""
		if k < len(run)-1 {
			more = fmt.Sprintf(", +%d more", len(run)-k-1)
		}
		if b.Len()+len(sep)+len(item)+len(more) > p.width && k > 0 {
			fmt.Fprintf(&b, ", +%d more", len(run)-k)
			break
		}
		b.WriteString(sep + item)
	}
	s := b.String()
	if len(s) > p.width {
		s = s[:p.width-3] + "..."
	}
	return s
}

// startSpinner shows, on a terminal w, "| NAME 1.2s" turning while one
// long step of a command runs (fix, prove, gen: each ran for its whole
// -timeout with nothing on the screen; robust6). The returned stop
// clears the line; call it before printing, and as often as wanted.
// Elsewhere (a pipe, a file, a test's buffer) nothing is drawn.
func startSpinner(w io.Writer, name string) (stop func()) {
	p := newBatchProgress(w, 1, isTerminal(w))
	p.started(0, name)
	return p.close
}
