package main

import (
	"fmt"
	"io"
	"strings"
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
