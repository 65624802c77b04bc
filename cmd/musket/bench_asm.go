package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/musket-verify/musket/internal/bmc"
	"github.com/musket-verify/musket/internal/prove"
	"github.com/musket-verify/musket/internal/result"
)

func init() {
	registerBench("asm", "Tables 5.1-5.4 of Maleehuan's JAIST 2018 thesis (bounded and invariant methods on assembly) beside Musket's SMT engine", runBenchAsm)
}

func runBenchAsm(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench asm", flag.ContinueOnError)
	fs.Usage = synopsisUsage(fs)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "`folder` of the case studies (default: the repository's examples/asm)")
	asJSON := fs.Bool("json", false, "print one JSON object per cell and a summary line (docs/json.md) instead of the tables")
	operands, code, ok := parseCommand(fs, args)
	if !ok {
		return code
	}
	if *dir == "" {
		ex, err := findExamples()
		if err != nil {
			fmt.Fprintf(stderr, "musket bench asm: %v\n", err)
			return exitBadInput
		}
		*dir = filepath.Join(ex, "asm")
	}
	if len(operands) > 0 {
		return usageError(fs, stderr, "a suite takes no files: its programs are its table's (-dir to read them elsewhere)")
	}
	sig := interruptible()
	defer sig.stop()
	tabs := append(append([]prove.Table{}, prove.Bounded...), prove.InvariantTable)
	total := 0
	for _, tab := range tabs {
		for _, row := range tab.Rows {
			total += len(row.Cells)
		}
	}
	rep := newBenchReport("asm", *asJSON, stdout, stderr, total)
	text := rep.text()
	cells := 0
	status := 0
tables:
	for _, tab := range tabs {
		fmt.Fprintf(text, "%s: thesis time / Musket time (s), violation thesis/Musket\n", tab.Name)
		tw := tabwriter.NewWriter(text, 0, 0, 2, ' ', 0)
		if tab.Rows[0].Bound >= 0 {
			fmt.Fprint(tw, "program (bound)")
		} else {
			fmt.Fprint(tw, "program")
		}
		for _, c := range tab.Rows[0].Cells {
			fmt.Fprintf(tw, "\t%s", c.Model)
		}
		fmt.Fprintln(tw, "\t")
		for _, row := range tab.Rows {
			if row.Bound >= 0 {
				fmt.Fprintf(tw, "%s (%d)", row.Program, row.Bound)
			} else {
				fmt.Fprintf(tw, "%s", row.Program)
			}
			for _, c := range row.Cells {
				path := filepath.Join(*dir, c.File)
				var violation bool
				var secs float64
				if sig.interrupted() {
					fmt.Fprintln(tw, "\t")
					tw.Flush()
					break tables
				}
				j := benchCell{Table: tab.Name, Program: row.Program, Column: c.Model, Status: "done", Agrees: true,
					Expected: yn(bool(c.Violation)), RefSeconds: secondsPtr(c.Seconds), Reference: "Maleehuan (JAIST 2018)"}
				ci := rep.started(row.Program + " " + c.Model)
				fail := func(format string, args ...any) int {
					j.Status, j.Error = "error", fmt.Sprintf(format, args...)
					rep.finished(ci, j)
					rep.stopProgress()
					fmt.Fprintln(stderr, j.Error)
					rep.close(exitBadInput, false)
					return exitBadInput
				}
				if row.Bound >= 0 {
					pr, err := bmc.CheckLitmus(sig.ctx, path, bmc.LitmusOptions{Model: c.Model, Bound: row.Bound})
					if sig.interrupted() {
						continue // said at the next cell
					}
					if err != nil {
						return fail("%v", err)
					}
					if pr.Result.Status != result.Done {
						return fail("%s under %s: %v %v", path, c.Model, pr.Result.Status, pr.Result.Err)
					}
					violation, secs = pr.Reachable, pr.Result.Time.Seconds()
				} else if !prove.Sound(c.Model) {
					fmt.Fprintf(tw, "\t%.3f / refused  %s/-", c.Seconds, yn(bool(c.Violation)))
					j.Status, j.Error = "unsupported", "musket prove refuses models weaker than PSO"
					rep.finished(ci, j)
					continue
				} else {
					pv, err := prove.Prove(sig.ctx, path, prove.Options{Model: c.Model})
					if sig.interrupted() {
						continue
					}
					if err != nil {
						return fail("%v", err)
					}
					violation, secs = !pv.Proved, pv.Time.Seconds()
				}
				mark := ""
				j.Verdict, j.TimeMS = yn(violation), secs*1000
				if violation != bool(c.Violation) {
					mark = "!"
					status = 1
					j.Agrees = false
				}
				rep.finished(ci, j)
				fmt.Fprintf(tw, "\t%.3f / %.3f  %s/%s%s", c.Seconds, secs, yn(bool(c.Violation)), yn(violation), mark)
				cells++
			}
			fmt.Fprintln(tw, "\t")
			if sig.interrupted() {
				tw.Flush()
				break tables
			}
		}
		tw.Flush()
		fmt.Fprintln(text)
	}
	rep.stopProgress()
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d cells finished\n", cells)
		rep.close(exitInterrupted, true)
		return exitInterrupted
	}
	fmt.Fprintln(text, "refused: musket prove refuses models weaker than PSO (the invariant method is unsound there); use check.")
	if status != 0 {
		fmt.Fprintln(text, "! marks a verdict that differs from the thesis")
	}
	rep.close(status, false)
	return status
}

func yn(b bool) string {
	if b {
		return "y"
	}
	return "n"
}
