package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// benchCell is one cell of a bench table as -json prints it: one program
// (or row) under one column, Musket's answer beside the reference's (the
// paper's or the other tool's recorded figure). docs/json.md ("bench: one
// object per cell") is its schema.
type benchCell struct {
	Bench   string  `json:"bench"`   // the suite: asm, c, cubicle, mutex, porthos
	Table   string  `json:"table"`   // the table within the suite ("" for a suite of one table)
	Program string  `json:"program"` // the row
	Column  string  `json:"column"`  // the column (a model, a target, a pair of models)
	Status  string  `json:"status"`  // as every command's JSON: done, timeout, limit, error, ...
	Verdict string  `json:"verdict"` // Musket's verdict in the table's words ("" without one)
	Agrees  bool    `json:"agrees"`  // false only when both verdicts exist and differ
	TimeMS  float64 `json:"time_ms"` // Musket's time for the cell
	// Optional fields.
	Expected   string   `json:"expected,omitempty"`          // the reference's verdict
	RefSeconds *float64 `json:"reference_seconds,omitempty"` // the reference's time
	Reference  string   `json:"reference,omitempty"`         // whose figures: "Dartagnan", "GenMC", ...
	CPUMS      *float64 `json:"cpu_ms,omitempty"`            // user CPU time of the cell
	PeakMB     *float64 `json:"peak_mb,omitempty"`           // peak resident memory of the cell (cubicle, Linux)
	Error      string   `json:"error,omitempty"`             // why there is no verdict
}

// benchSummary is the last line of a bench's -json output.
type benchSummary struct {
	Bench       string  `json:"bench"`
	Cells       int     `json:"cells"`      // cells with an object above
	Mismatches  int     `json:"mismatches"` // cells whose verdict differs from the reference's
	Interrupted bool    `json:"interrupted"`
	ExitStatus  int     `json:"exit_status"`
	TimeMS      float64 `json:"time_ms"` // the whole run, wall clock
}

// benchReport is what every bench suite prints through: the text table
// (on stdout, or nowhere with -json), one JSON object per cell with
// -json, and a progress line on a terminal with the cell being checked.
type benchReport struct {
	bench      string
	json       bool
	stdout     io.Writer
	prog       *batchProgress
	start      time.Time
	cells      int
	mismatches int
	next       int // index of the next cell started
}

// newBenchReport starts the report of a suite of total cells.
func newBenchReport(bench string, asJSON bool, stdout, stderr io.Writer, total int) *benchReport {
	return &benchReport{bench: bench, json: asJSON, stdout: stdout, start: time.Now(),
		prog: newBatchProgress(stderr, total, isTerminal(stderr))}
}

// text is where the text table goes: stdout, or nowhere with -json.
func (r *benchReport) text() io.Writer {
	if r.json {
		return io.Discard
	}
	return r.stdout
}

// started shows that the cell called name is being checked; the returned
// index goes to finished.
func (r *benchReport) started(name string) int {
	r.next++
	r.prog.started(r.next, name)
	return r.next
}

// finished ends cell i and, with -json, prints c.
func (r *benchReport) finished(i int, c benchCell) {
	r.prog.finished(i, !c.Agrees)
	r.add(c)
}

// add prints c with -json and counts it.
func (r *benchReport) add(c benchCell) {
	r.cells++
	if !c.Agrees {
		r.mismatches++
	}
	if !r.json {
		return
	}
	c.Bench = r.bench
	if c.Status == "" {
		c.Status = "done"
	}
	b, _ := json.Marshal(c)
	r.prog.print(func() { r.stdout.Write(append(b, '\n')) })
}

// say prints a message (an error, a note) on w, which is the terminal's
// stderr, without mixing it with the progress line.
func (r *benchReport) say(w io.Writer, format string, args ...any) {
	r.prog.print(func() { fmt.Fprintf(w, format, args...) })
}

// stopProgress clears the progress line for good (before a last message).
func (r *benchReport) stopProgress() { r.prog.close() }

// close clears the progress line and, with -json, prints the summary.
func (r *benchReport) close(exit int, interrupted bool) {
	r.prog.close()
	if !r.json {
		return
	}
	b, _ := json.Marshal(struct {
		Summary benchSummary `json:"summary"`
	}{benchSummary{Bench: r.bench, Cells: r.cells, Mismatches: r.mismatches, Interrupted: interrupted,
		ExitStatus: exit, TimeMS: ms(time.Since(r.start))}})
	r.stdout.Write(append(b, '\n'))
}

// secondsPtr is s as an optional JSON number.
func secondsPtr(s float64) *float64 { return &s }

// msPtr is d in milliseconds as an optional JSON number; nil for 0 (unknown).
func msPtr(d time.Duration) *float64 {
	if d <= 0 {
		return nil
	}
	v := ms(d)
	return &v
}
