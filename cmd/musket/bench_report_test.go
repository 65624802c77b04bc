package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestBenchReport: a bench's cells show on the terminal's progress line as
// they run (the cell running, the mismatches so far), and -json prints one
// object per cell and the summary, whatever the table's text.
func TestBenchReport(t *testing.T) {
	var out, term bytes.Buffer
	rep := newBenchReport("c", true, &out, &term, 2)
	// Draw by hand, as on a terminal, with a clock of the test's.
	rep.prog.close()
	rep.prog.on, rep.prog.closed = true, false
	now := time.Unix(100, 0)
	rep.prog.now = func() time.Time { return now }
	if rep.text() == &out {
		t.Errorf("-json: the text table goes to stdout")
	}
	i := rep.started("ttas.c rc11")
	now = now.Add(1500 * time.Millisecond)
	if got, want := rep.prog.line(), "[0/2]; running: ttas.c rc11 1.5s"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	rep.prog.draw()
	rep.finished(i, benchCell{Program: "ttas.c", Column: "rc11", Status: "done", Verdict: "unsafe", Expected: "safe"})
	if got, want := rep.prog.line(), "[1/2] 1 failed"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	rep.prog.on = false
	rep.close(exitFailed, false)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want a cell and a summary, got %q", out.String())
	}
	var cell benchCell
	if err := json.Unmarshal([]byte(lines[0]), &cell); err != nil || cell.Bench != "c" || cell.Agrees {
		t.Errorf("cell %s (%v)", lines[0], err)
	}
	var sum struct{ Summary benchSummary }
	if err := json.Unmarshal([]byte(lines[1]), &sum); err != nil || sum.Summary.Cells != 1 || sum.Summary.Mismatches != 1 || sum.Summary.ExitStatus != exitFailed {
		t.Errorf("summary %s (%v)", lines[1], err)
	}
	if !strings.Contains(term.String(), "ttas.c rc11") {
		t.Errorf("the terminal never showed the running cell: %q", term.String())
	}
}
