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
	cells := 0
	status := 0
tables:
	for _, tab := range append(append([]prove.Table{}, prove.Bounded...), prove.InvariantTable) {
		fmt.Fprintf(stdout, "%s: thesis time / Musket time (s), violation thesis/Musket\n", tab.Name)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
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
				if row.Bound >= 0 {
					pr, err := bmc.CheckLitmus(sig.ctx, path, bmc.LitmusOptions{Model: c.Model, Bound: row.Bound})
					if sig.interrupted() {
						continue // said at the next cell
					}
					if err != nil {
						fmt.Fprintf(stderr, "%v\n", err)
						return 2
					}
					if pr.Result.Status != result.Done {
						fmt.Fprintf(stderr, "%s under %s: %v %v\n", path, c.Model, pr.Result.Status, pr.Result.Err)
						return 2
					}
					violation, secs = pr.Reachable, pr.Result.Time.Seconds()
				} else if !prove.Sound(c.Model) {
					fmt.Fprintf(tw, "\t%.3f / refused  %s/-", c.Seconds, yn(bool(c.Violation)))
					continue
				} else {
					rep, err := prove.Prove(sig.ctx, path, prove.Options{Model: c.Model})
					if sig.interrupted() {
						continue
					}
					if err != nil {
						fmt.Fprintf(stderr, "%v\n", err)
						return 2
					}
					violation, secs = !rep.Proved, rep.Time.Seconds()
				}
				mark := ""
				if violation != bool(c.Violation) {
					mark = "!"
					status = 1
				}
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
		fmt.Fprintln(stdout)
	}
	if sig.interrupted() {
		fmt.Fprintf(stderr, "interrupted: %d cells finished\n", cells)
		return exitInterrupted
	}
	fmt.Fprintln(stdout, "refused: musket prove refuses models weaker than PSO (the invariant method is unsound there); use check.")
	if status != 0 {
		fmt.Fprintln(stdout, "! marks a verdict that differs from the thesis")
	}
	return status
}

func yn(b bool) string {
	if b {
		return "y"
	}
	return "n"
}
